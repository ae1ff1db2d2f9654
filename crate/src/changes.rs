//! From "text before, text after" to what hosts and LLMs receive: a unified diff, the
//! minimal edits (ranges in UTF-16 points), line delta and count.
//!
//! Every tool just produces a new text; this module alone turns the pair into a
//! [`FileChange`], so a patch, a batch and a single replacement are reported alike.
//!
//! Speed matters on large files: the common prefix and suffix are skipped with slice
//! comparisons first (a one-line change in a 4 MB file never line-diffs the rest), and
//! only the differing middle goes to `similar`. A large middle (changes far apart, as
//! from a multi-hunk patch or a batch) is first cut by a linear scan into equal runs and
//! differing stretches, re-synchronising after each difference on a few equal lines;
//! only the stretches are line-diffed, by [`crate::text::diff`], whose work is bounded
//! whatever the stretch (it reports a replaced block where an exact diff would cost
//! too much, which is still a correct diff).

use crate::result::{Edit, FileChange, Range};
use crate::text::diff::{diff_lines_within, Budget};
use crate::text::scan::{self, common_prefix_len, common_suffix_len};
use crate::text::{count_lines, version_of, PointCursor};
use crate::workspace::Changed;
use similar::DiffOp;
use std::sync::Arc;

/// Lines of context around each hunk in `diff`.
const CONTEXT: usize = 3;

/// Above this many (old × new) lines, a middle is cut into stretches before it is
/// line-diffed.
const MAX_DIFF_PRODUCT: usize = 40_000_000;

/// How far (in lines, on each side) the scan looks to re-synchronise after a
/// difference; the window starts small and doubles up to this.
const RESYNC_WINDOW: usize = 4_096;

/// Equal lines that end a differing stretch: enough that the hunks on either side
/// keep their full context without touching.
const RESYNC_RUN: usize = 2 * CONTEXT + 1;

/// Describes one changed file for the result, taking over its new text when
/// `with_text` (a host that applies `edits` does not want it).
pub fn describe(change: Changed, with_text: bool) -> FileChange {
    let old = change.original.as_deref().map_or("", String::as_str);
    let new = change.current.as_deref().map_or("", String::as_str);
    // The ranges the call's writes recorded give exactly the new text (checked in
    // debug builds, so every corpus case and test checks it).
    debug_assert_eq!(
        change.change.as_ref().map(|c| c.apply(old)),
        change.change.as_ref().map(|_| Some(new.to_string())),
        "recorded ranges of {}",
        change.path
    );
    let old_label = match change.original {
        Some(_) => format!("a/{}", change.path),
        None => "/dev/null".to_string(),
    };
    let new_path = change.moved_to.as_deref().unwrap_or(&change.path);
    let new_label = match (&change.current, &change.moved_to) {
        (None, None) => "/dev/null".to_string(),
        _ => format!("b/{new_path}"),
    };
    let (diff, edits, line_delta, old_lines) = diff_parts(old, new, &old_label, &new_label);
    let new_lines = (old_lines as i64 + line_delta).max(0) as usize;
    let version = change.current.as_deref().map(|t| version_of(t));
    let created = change.original.is_none() && change.current.is_some();
    let deleted = change.current.is_none() && change.moved_to.is_none();
    // For a move, `current` is the text at the destination. The overlay is gone by
    // now, so the text is moved rather than copied.
    let new_text = change
        .current
        .filter(|_| with_text)
        .map(|t| Arc::try_unwrap(t).unwrap_or_else(|shared| shared.as_ref().clone()));
    FileChange {
        path: change.path,
        diff,
        edits,
        line_delta,
        line_count: new_lines,
        version,
        created,
        deleted,
        moved_to: change.moved_to,
        encoding: change.encoding.map(str::to_string),
        new_text,
    }
}

/// The unified diff of `old` → `new`, the edits that turn `old` into `new`, the
/// change in line count and `old`'s line count, found from the differing middle alone
/// (the common prefix and suffix hold the same lines on both sides).
fn diff_parts(
    old: &str,
    new: &str,
    old_label: &str,
    new_label: &str,
) -> (String, Vec<Edit>, i64, usize) {
    let (prefix, old_mid_end, new_mid_end) = line_aligned_common_ends(old, new);
    let old_mid = &old[prefix..old_mid_end];
    let new_mid = &new[prefix..new_mid_end];
    // The prefix ends at a line start, so its newlines count the lines before it.
    let line_offset = count_breaks(&old[..prefix]);
    let mut cursor = PointCursor::at_line(old, prefix, line_offset);
    let unterminated = |s: &str| i64::from(!s.is_empty() && !s.ends_with('\n'));
    let old_mid_breaks = count_breaks(old_mid);
    let line_delta = count_breaks(new_mid) as i64 - old_mid_breaks as i64 + unterminated(new)
        - unterminated(old);
    // Counted in three parts so that the prefix is not counted twice.
    let old_lines = line_offset
        + old_mid_breaks
        + count_breaks(&old[old_mid_end..])
        + unterminated(old) as usize;

    let mut edits = Vec::new();
    let mut hunks = String::new();
    // Lines of each middle before the current stretch.
    let (mut old_before, mut new_before) = (0, 0);
    let (mut old_at, mut new_at) = (0, 0);
    let mut budget = Budget::default();
    for stretch in stretches(old_mid, new_mid) {
        old_before += count_breaks(&old_mid[old_at..stretch.old.start]);
        new_before += count_breaks(&new_mid[new_at..stretch.new.start]);
        (old_at, new_at) = (stretch.old.start, stretch.new.start);
        let old_lines = split_keep_ends(&old_mid[stretch.old.clone()]);
        let new_lines = split_keep_ends(&new_mid[stretch.new.clone()]);
        let ops = line_ops(&old_lines, &new_lines, &mut budget);
        let mut old_pos = prefix + stretch.old.start; // byte offset in `old` of old_lines[i]
        let mut old_offsets = Vec::with_capacity(old_lines.len() + 1);
        for l in &old_lines {
            old_offsets.push(old_pos);
            old_pos += l.len();
        }
        old_offsets.push(old_pos);
        for op in ops.iter().filter(|op| !op.equal) {
            let start = old_offsets[op.old.start];
            let end = old_offsets[op.old.end];
            let text: String = new_lines[op.new.clone()].concat();
            push_minimal_edit(&mut edits, &mut cursor, old, start, end, &text);
        }
        render_hunks(
            &mut hunks,
            &ops,
            &old_lines,
            &new_lines,
            line_offset + old_before,
            line_offset + new_before,
        );
    }
    merge_adjacent(&mut edits);

    let diff = if hunks.is_empty() {
        String::new()
    } else {
        format!("--- {old_label}\n+++ {new_label}\n{hunks}")
    };
    (diff, edits, line_delta, old_lines)
}

/// A differing part of the two middles (byte ranges on whole lines, context included).
struct Stretch {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// Cuts the middles into stretches to line-diff separately. A middle small enough to
/// diff whole is one stretch. A larger one is scanned: equal bytes are skipped with
/// slice comparisons, and after each difference the scan looks for the nearest place
/// where [`RESYNC_RUN`] lines agree again; the stretch in between, with [`CONTEXT`]
/// lines on each side, is diffed alone. Stretches never share context lines.
fn stretches(old: &str, new: &str) -> Vec<Stretch> {
    let whole = Stretch {
        old: 0..old.len(),
        new: 0..new.len(),
    };
    if count_lines(old).saturating_mul(count_lines(new)) <= MAX_DIFF_PRODUCT {
        return vec![whole];
    }
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut out: Vec<Stretch> = Vec::new();
    let (mut po, mut pn) = (0, 0);
    loop {
        let k = common_prefix_len(&a[po..], &b[pn..]);
        if po + k == a.len() && pn + k == b.len() {
            break;
        }
        // Back to the start of the line where they differ.
        let k = a[po..po + k]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        let (so, sn) = (po + k, pn + k);
        let (eo, en, done) = match resync(&old[so..], &new[sn..]) {
            Some((o, n)) => (so + o, sn + n, false),
            None => (a.len(), b.len(), true),
        };
        let start_o = back_lines(a, so, CONTEXT).max(po.min(so));
        let start_n = sn - (so - start_o);
        let end_o = forward_lines(a, eo, CONTEXT);
        let end_n = en + (end_o - eo);
        out.push(Stretch {
            old: start_o..end_o,
            new: start_n..end_n,
        });
        if done {
            break;
        }
        (po, pn) = (eo, en);
    }
    if out.is_empty() {
        out.push(whole);
    }
    out
}

/// Byte lengths (from the starts of `old` and `new`) of the nearest place where
/// [`RESYNC_RUN`] lines agree, or both texts end; None when not within the window.
fn resync(old: &str, new: &str) -> Option<(usize, usize)> {
    let mut window = 64;
    loop {
        let ol = split_keep_ends_max(old, window);
        let nl = split_keep_ends_max(new, window);
        let old_all = ol.iter().map(|l| l.len()).sum::<usize>() == old.len();
        let new_all = nl.iter().map(|l| l.len()).sum::<usize>() == new.len();
        if let Some((i, j)) = resync_lines(&ol, &nl, old_all, new_all) {
            let bytes = |lines: &[&str], n: usize| lines[..n].iter().map(|l| l.len()).sum();
            return Some((bytes(&ol, i), bytes(&nl, j)));
        }
        if (old_all && new_all) || window >= RESYNC_WINDOW {
            return None;
        }
        window *= 2;
    }
}

/// The nearest (fewest lines skipped on both sides) `(i, j)`, other than `(0, 0)`,
/// where [`RESYNC_RUN`] lines of `old` and `new` agree, or both end (`*_all`: the
/// slices hold the texts to their end).
fn resync_lines(
    old: &[&str],
    new: &[&str],
    old_all: bool,
    new_all: bool,
) -> Option<(usize, usize)> {
    let mut positions: std::collections::HashMap<&str, Vec<usize>> = Default::default();
    for (j, line) in new.iter().enumerate() {
        positions.entry(line).or_default().push(j);
    }
    let agree = |i: usize, j: usize| {
        let run = RESYNC_RUN.min(old.len() - i).min(new.len() - j);
        let long_enough = run == RESYNC_RUN
            || (old_all && new_all && i + run == old.len() && j + run == new.len());
        long_enough && (0..run).all(|k| old[i + k] == new[j + k])
    };
    let mut best: Option<(usize, usize)> = None;
    for (i, line) in old.iter().enumerate() {
        if best.is_some_and(|(bi, bj)| i >= bi + bj) {
            break;
        }
        for &j in positions.get(line).map(Vec::as_slice).unwrap_or(&[]) {
            if best.is_some_and(|(bi, bj)| i + j >= bi + bj) {
                break;
            }
            if (i, j) != (0, 0) && agree(i, j) {
                best = Some((i, j));
                break;
            }
        }
    }
    best
}

/// The line diff of one stretch, spending from the file's budget (see
/// [`crate::text::diff`]).
fn line_ops(old: &[&str], new: &[&str], budget: &mut Budget) -> Vec<Op> {
    sequential_ops(&diff_lines_within(old, new, budget))
}

/// The start of the line `n` lines before the line starting at `at` (or 0).
fn back_lines(bytes: &[u8], mut at: usize, n: usize) -> usize {
    for _ in 0..n {
        if at == 0 {
            break;
        }
        at = bytes[..at - 1]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
    }
    at
}

/// The start of the line `n` lines after the line starting at `at` (or the end).
fn forward_lines(bytes: &[u8], mut at: usize, n: usize) -> usize {
    for _ in 0..n {
        match memchr::memchr(b'\n', &bytes[at..]) {
            Some(i) => at += i + 1,
            None => return bytes.len(),
        }
    }
    at
}

fn count_breaks(s: &str) -> usize {
    scan::count_byte(s.as_bytes(), b'\n')
}

/// One run of a line diff: equal lines, or old lines replaced by new ones.
struct Op {
    equal: bool,
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// Diff runs with positions recomputed by walking both sides in order. The ops'
/// own indices are not relied on: only their order and lengths.
fn sequential_ops(ops: &[DiffOp]) -> Vec<Op> {
    let (mut o, mut n) = (0, 0);
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    for op in ops {
        let (equal, ol, nl) = crate::text::diff::op_lens(op);
        match out.last_mut() {
            // Adjacent changes (a delete then an insert) are one replacement.
            Some(last) if !equal && !last.equal => {
                last.old.end += ol;
                last.new.end += nl;
            }
            _ => out.push(Op {
                equal,
                old: o..o + ol,
                new: n..n + nl,
            }),
        }
        o += ol;
        n += nl;
    }
    out
}

/// Returns (prefix, old_mid_end, new_mid_end): the common prefix and suffix of the two
/// texts, both cut back to whole lines.
fn line_aligned_common_ends(old: &str, new: &str) -> (usize, usize, usize) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = common_prefix_len(a, b);
    if prefix < a.len() || prefix < b.len() {
        // Back off to the start of the line where they differ.
        prefix = a[..prefix]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
    }
    let max_suffix = (a.len() - prefix).min(b.len() - prefix);
    let mut suffix = common_suffix_len(&a[prefix..], &b[prefix..]).min(max_suffix);
    let aligned = |bytes: &[u8], at: usize| at == 0 || bytes[at - 1] == b'\n';
    if !(aligned(a, a.len() - suffix) && aligned(b, b.len() - suffix)) {
        // Move the suffix start forward to just after a newline inside the common part.
        let tail = &a[a.len() - suffix..];
        suffix = match tail.iter().position(|&c| c == b'\n') {
            Some(i) => suffix - (i + 1),
            None => 0,
        };
    }
    // Give the diff its context lines from the common ends.
    for _ in 0..CONTEXT {
        if prefix == 0 {
            break;
        }
        prefix = a[..prefix - 1]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
    }
    for _ in 0..CONTEXT {
        let tail = &a[a.len() - suffix..];
        match tail.iter().position(|&c| c == b'\n') {
            Some(i) => suffix -= i + 1,
            None => suffix = 0,
        }
        if suffix == 0 {
            break;
        }
    }
    (prefix, a.len() - suffix, b.len() - suffix)
}

/// The first `max` lines of `s`, each keeping its terminator.
fn split_keep_ends_max(s: &str, max: usize) -> Vec<&str> {
    let mut lines = Vec::with_capacity(max.min(1024));
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', s.as_bytes()) {
        if lines.len() == max {
            return lines;
        }
        lines.push(&s[start..=nl]);
        start = nl + 1;
    }
    if start < s.len() && lines.len() < max {
        lines.push(&s[start..]);
    }
    lines
}

fn split_keep_ends(s: &str) -> Vec<&str> {
    // A byte scan, not a char iterator: this runs on whole middles of large files.
    let mut lines = Vec::with_capacity(s.len() / 24 + 1);
    let mut start = 0;
    scan::for_each_byte(s.as_bytes(), b'\n', |nl| {
        lines.push(&s[start..=nl]);
        start = nl + 1;
    });
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

/// Adds the edit replacing `old[start..end]` with `text`, trimmed to the characters
/// that really change. A boundary never falls between `\r` and `\n`: editors treat the
/// pair as one line break and would clamp such a position.
fn push_minimal_edit(
    edits: &mut Vec<Edit>,
    cursor: &mut PointCursor,
    old: &str,
    start: usize,
    end: usize,
    text: &str,
) {
    let before = &old[start..end];
    let mut head = common_char_prefix(before, text);
    let mut tail = common_char_suffix(&before[head..], &text[head..]);
    let src = old.as_bytes();
    while head > 0 && src[start + head - 1] == b'\r' && src.get(start + head) == Some(&b'\n') {
        head -= 1;
    }
    loop {
        let e = end - tail;
        if tail > 0 && e > 0 && src[e - 1] == b'\r' && src.get(e) == Some(&b'\n') {
            tail -= 1;
        } else {
            break;
        }
    }
    let (s, e) = (start + head, end - tail);
    edits.push(Edit {
        range: Range {
            start: cursor.point(s),
            end: cursor.point(e),
        },
        text: text[head..text.len() - tail].to_string(),
    });
}

fn common_char_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, ca), cb)| ca != cb)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
        .min(floor_boundary(b, a.len().min(b.len())))
}

fn common_char_suffix(a: &str, b: &str) -> usize {
    let mut n = 0;
    for (ca, cb) in a.chars().rev().zip(b.chars().rev()) {
        if ca != cb {
            break;
        }
        n += ca.len_utf8();
    }
    n
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Joins edits that touch (end of one == start of next) into one.
fn merge_adjacent(edits: &mut Vec<Edit>) {
    let mut merged: Vec<Edit> = Vec::with_capacity(edits.len());
    for e in edits.drain(..) {
        match merged.last_mut() {
            Some(last) if last.range.end == e.range.start => {
                last.range.end = e.range.end;
                last.text.push_str(&e.text);
            }
            _ => merged.push(e),
        }
    }
    *edits = merged;
}

/// Appends the hunks of one stretch's `ops` to `out`; the stretch's first lines are
/// lines `old_offset` / `new_offset` (0-based) of the two texts.
fn render_hunks(
    out: &mut String,
    ops: &[Op],
    old_lines: &[&str],
    new_lines: &[&str],
    old_offset: usize,
    new_offset: usize,
) {
    let changed: Vec<&Op> = ops.iter().filter(|op| !op.equal).collect();
    // Group changes whose context would touch into hunks.
    let mut groups: Vec<Vec<&Op>> = Vec::new();
    for op in changed {
        match groups.last_mut() {
            Some(g) if op.old.start <= g[g.len() - 1].old.end + 2 * CONTEXT => g.push(op),
            _ => groups.push(vec![op]),
        }
    }
    // The stretch already holds CONTEXT common lines on each side.
    for group in groups {
        let (first, last) = (group[0], group[group.len() - 1]);
        let ctx_before = first.old.start.min(CONTEXT).min(first.new.start);
        let ctx_after = (old_lines.len() - last.old.end)
            .min(CONTEXT)
            .min(new_lines.len() - last.new.end);
        let (hs_old, he_old) = (first.old.start - ctx_before, last.old.end + ctx_after);
        let (hs_new, he_new) = (first.new.start - ctx_before, last.new.end + ctx_after);
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            hunk_range(old_offset + hs_old, he_old - hs_old),
            hunk_range(new_offset + hs_new, he_new - hs_new)
        ));
        let mut o = hs_old;
        for op in &group {
            while o < op.old.start {
                push_line(out, ' ', old_lines[o]);
                o += 1;
            }
            for l in &old_lines[op.old.clone()] {
                push_line(out, '-', l);
            }
            for l in &new_lines[op.new.clone()] {
                push_line(out, '+', l);
            }
            o = op.old.end;
        }
        while o < he_old {
            push_line(out, ' ', old_lines[o]);
            o += 1;
        }
    }
}

fn hunk_range(start0: usize, len: usize) -> String {
    if len == 0 {
        format!("{start0},0")
    } else if len == 1 {
        format!("{}", start0 + 1)
    } else {
        format!("{},{len}", start0 + 1)
    }
}

fn push_line(out: &mut String, sign: char, line: &str) {
    out.push(sign);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests;
