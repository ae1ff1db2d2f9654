//! From one file's change to what hosts and LLMs receive: a unified diff, the minimal
//! edits (ranges in UTF-16 points), line delta and count.
//!
//! The change is the [`ChangeSet`] the call's writes recorded (the ranges each tool
//! replaced, composed): this module alone turns it into a [`FileChange`], so a patch, a
//! batch and a single replacement are reported alike. Where the ranges are comes from
//! the change set, never from comparing the two whole texts: each range, widened to
//! whole lines ([`regions`]), is line-diffed on its own (a tool that replaced five lines
//! of which one differs reports that one line), and the lines between ranges are
//! context. A file without recorded ranges (a move's destination, `changed_since`) is
//! described by [`ChangeSet::between`], the one range where the texts differ.
//!
//! Speed matters on large files: only the widened ranges are read (a one-line change in
//! a 4 MB file never line-diffs the rest). A large range (a whole-file write) is first
//! cut by a linear scan into equal runs and differing stretches, re-synchronising after
//! each difference on a few equal lines; only the stretches are line-diffed, by
//! [`crate::text::diff`], whose work is bounded whatever the stretch (it reports a
//! replaced block where an exact diff would cost too much, which is still a correct
//! diff).

use crate::result::{Edit, FileChange, Range};
use crate::text::change_set::ChangeSet;
use crate::text::diff::{diff_lines_within, Budget};
use crate::text::scan::{self, common_prefix_len, common_suffix_len};
use crate::text::{count_lines, version_of, PointCursor, Text};
use crate::workspace::Changed;
use similar::DiffOp;
use std::sync::Arc;

/// Lines of context around each hunk in `diff`.
const CONTEXT: usize = 3;

/// Above this many (old × new) lines, a region is cut into stretches before it is
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
    describe_with(change, with_text, None)
}

/// [`describe`], with `old_text`: a text of the original string whose line index is
/// built (a kept string's), so that its rows are looked up, not counted from the start.
pub fn describe_with(change: Changed, with_text: bool, old_text: Option<&Text>) -> FileChange {
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
    let ranges = match change.change.as_ref() {
        Some(c) if fits(c, old, new) => c.clone(),
        _ => ChangeSet::between(old, new),
    };
    let old_label = match change.original {
        Some(_) => format!("a/{}", change.path),
        None => "/dev/null".to_string(),
    };
    let new_path = change.moved_to.as_deref().unwrap_or(&change.path);
    let new_label = match (&change.current, &change.moved_to) {
        (None, None) => "/dev/null".to_string(),
        _ => format!("b/{new_path}"),
    };
    let rows = OldRows::new(old, old_text);
    let (diff, edits, line_delta, old_lines) =
        diff_parts(rows, new, &ranges, &old_label, &new_label);
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

/// The lines `change` (a change of `old` giving `new`) replaces, as `describe` reads
/// them: (0-based lines of `old`, lines of `new`) in order, each range of the change
/// line-diffed on its own. What a rebase carries onto another text.
pub fn changed_lines(
    old: &str,
    new: &str,
    change: &ChangeSet,
) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let between;
    let change = if fits(change, old, new) {
        change
    } else {
        between = ChangeSet::between(old, new);
        &between
    };
    line_changes(OldRows::new(old, None), new, change)
        .0
        .into_iter()
        .map(|c| (c.old, c.new))
        .collect()
}

/// Whether `change` is a change of `old` giving a text of `new`'s length, its ranges
/// on char boundaries of `old` (what slicing by them needs). The workspace records
/// only such changes; this keeps a wrong one from panicking in a release build.
fn fits(change: &ChangeSet, old: &str, new: &str) -> bool {
    change.old_len() == old.len()
        && change.new_len() == new.len()
        && change
            .splices()
            .iter()
            .all(|(r, _)| old.is_char_boundary(r.start) && old.is_char_boundary(r.end))
}

/// The unified diff of `old` → `new`, the edits that turn `old` into `new`, the
/// change in line count and `old`'s line count, found from the ranges of `change` (a
/// change of `old` giving `new`) alone.
fn diff_parts(
    rows: OldRows,
    new: &str,
    change: &ChangeSet,
    old_label: &str,
    new_label: &str,
) -> (String, Vec<Edit>, i64, usize) {
    let old = rows.old;
    let (changed, counted) = line_changes(rows, new, change);
    // The first changed line's start and number are known: the cursor counts from there.
    let mut cursor = changed.first().map_or(PointCursor::new(old), |c| {
        PointCursor::at_line(old, c.old_bytes.start, c.old.start)
    });
    let mut edits = Vec::with_capacity(changed.len());
    for c in &changed {
        let text = &new[c.new_bytes.clone()];
        let (start, end) = (c.old_bytes.start, c.old_bytes.end);
        push_minimal_edit(&mut edits, &mut cursor, old, start, end, text);
    }
    merge_adjacent(&mut edits);
    let mut hunks = String::new();
    let mut rest = changed.as_slice();
    while !rest.is_empty() {
        // Changes whose context would touch are one hunk.
        let mut n = 1;
        while n < rest.len() && rest[n].old.start <= rest[n - 1].old.end + 2 * CONTEXT {
            n += 1;
        }
        render_hunk(&mut hunks, old, new, &rest[..n]);
        rest = &rest[n..];
    }
    let unterminated = |s: &str| i64::from(!s.is_empty() && !s.ends_with('\n'));
    let breaks_delta: i64 = change
        .splices()
        .iter()
        .map(|(r, t)| count_breaks(t) as i64 - count_breaks(&old[r.clone()]) as i64)
        .sum();
    let line_delta = breaks_delta + unterminated(new) - unterminated(old);
    let old_lines = rows.before(old.len(), counted) + unterminated(old) as usize;
    let diff = if hunks.is_empty() {
        String::new()
    } else {
        format!("--- {old_label}\n+++ {new_label}\n{hunks}")
    };
    (diff, edits, line_delta, old_lines)
}

/// Whole lines of the old text replaced by whole lines of the new one: 0-based line
/// numbers and byte ranges in each text.
struct LineChange {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
    old_bytes: std::ops::Range<usize>,
    new_bytes: std::ops::Range<usize>,
}

/// A range of `change` widened to whole lines of both texts (ranges that then share or
/// touch a line are one region): byte ranges of the old and the new text.
#[derive(Debug, PartialEq)]
struct Region {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// The regions of `change` (a change of `old`), in order. A range starts at the start
/// of its first line; it ends where it ends when that is a line start in both texts
/// (or the end of the text), else at the end of its last old line.
fn regions(old: &str, change: &ChangeSet) -> Vec<Region> {
    let bytes = old.as_bytes();
    let mut out: Vec<Region> = Vec::new();
    let mut shift: isize = 0;
    for (r, text) in change.splices() {
        let start = bytes[..r.start]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        // Splices never touch, so the byte before a range is one the change keeps.
        let new_ends_line = match text.as_bytes().last() {
            Some(&c) => c == b'\n',
            None => r.start == 0 || bytes[r.start - 1] == b'\n',
        };
        let old_ends_line = r.end == 0 || bytes[r.end - 1] == b'\n';
        let end = if r.end == old.len() || (old_ends_line && new_ends_line) {
            r.end
        } else {
            forward_lines(bytes, r.end, 1)
        };
        let new_start = (start as isize + shift) as usize;
        shift += text.len() as isize - r.len() as isize;
        let new_end = (end as isize + shift) as usize;
        match out.last_mut() {
            // Ranges that share a line, or touch, are diffed together.
            Some(last) if start <= last.old.end => {
                last.old.end = end;
                last.new.end = new_end;
            }
            _ => out.push(Region {
                old: start..end,
                new: new_start..new_end,
            }),
        }
    }
    out
}

/// The changed lines of `change`: each region line-diffed on its own (cut into
/// stretches when large), in order; and how far the old text's breaks were counted
/// (an offset and the breaks before it), for [`OldRows::before`] to go on from.
fn line_changes(rows: OldRows, new: &str, change: &ChangeSet) -> (Vec<LineChange>, (usize, usize)) {
    let old = rows.old;
    let mut out = Vec::new();
    let mut budget = Budget::default();
    // Lines of the old text before `old_at`, and how many more the new text has there.
    let (mut old_at, mut old_line, mut shift) = (0, 0, 0isize);
    for region in regions(old, change) {
        // Lines the region keeps at its ends (a tool that replaced more than it
        // changed) are skipped before the size of what is line-diffed is judged.
        let (om, nm) = (&old[region.old.clone()], &new[region.new.clone()]);
        let (same, o_end, n_end) = common_line_ends(om, nm);
        old_line = rows.before(region.old.start + same, (old_at, old_line));
        let new_line = (old_line as isize + shift) as usize;
        let middle = Region {
            old: region.old.start + same..region.old.start + o_end,
            new: region.new.start + same..region.new.start + n_end,
        };
        diff_region(
            old,
            new,
            &middle,
            (old_line, new_line),
            &mut budget,
            &mut out,
        );
        let (ob, nb) = (count_breaks(om), count_breaks(nm));
        shift += nb as isize - ob as isize;
        old_line += count_breaks(&om[same..]);
        old_at = region.old.end;
    }
    (out, (old_at, old_line))
}

/// Line-diffs one region (whose first lines are `lines` of the two texts), cut into
/// stretches when large, adding its changed lines to `out`.
fn diff_region(
    old: &str,
    new: &str,
    region: &Region,
    (old_line, new_line): (usize, usize),
    budget: &mut Budget,
    out: &mut Vec<LineChange>,
) {
    let (om, nm) = (&old[region.old.clone()], &new[region.new.clone()]);
    let (mut o_at, mut n_at, mut o_lines, mut n_lines) = (0, 0, 0, 0);
    for s in stretches(om, nm) {
        o_lines += count_breaks(&om[o_at..s.old.start]);
        n_lines += count_breaks(&nm[n_at..s.new.start]);
        (o_at, n_at) = (s.old.start, s.new.start);
        let old_lines = split_keep_ends(&om[s.old.clone()]);
        let new_lines = split_keep_ends(&nm[s.new.clone()]);
        let old_offsets = offsets(&old_lines, region.old.start + s.old.start);
        let new_offsets = offsets(&new_lines, region.new.start + s.new.start);
        let (ol, nl) = (old_line + o_lines, new_line + n_lines);
        for op in line_ops(&old_lines, &new_lines, budget) {
            if !op.equal {
                out.push(LineChange {
                    old: ol + op.old.start..ol + op.old.end,
                    new: nl + op.new.start..nl + op.new.end,
                    old_bytes: old_offsets[op.old.start]..old_offsets[op.old.end],
                    new_bytes: new_offsets[op.new.start]..new_offsets[op.new.end],
                });
            }
        }
    }
}

/// Returns (prefix, old_end, new_end): the lines `old` and `new` (whole lines each)
/// share at their start and end, as byte lengths, cut back to whole lines.
fn common_line_ends(old: &str, new: &str) -> (usize, usize, usize) {
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
    (prefix, a.len() - suffix, b.len() - suffix)
}

/// The byte offset of each of `lines` (and of their end), the first being at `at`.
fn offsets(lines: &[&str], mut at: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(lines.len() + 1);
    for l in lines {
        out.push(at);
        at += l.len();
    }
    out.push(at);
    out
}

/// Appends the hunk of `group` (changes in order whose context touches) to `out`,
/// with up to [`CONTEXT`] lines of the old text around it.
fn render_hunk(out: &mut String, old: &str, new: &str, group: &[LineChange]) {
    let (first, last) = (&group[0], &group[group.len() - 1]);
    let bytes = old.as_bytes();
    let from = back_lines(bytes, first.old_bytes.start, CONTEXT);
    let to = forward_lines(bytes, last.old_bytes.end, CONTEXT);
    let before = split_keep_ends(&old[from..first.old_bytes.start]);
    let after = split_keep_ends(&old[last.old_bytes.end..to]);
    let (b, a) = (before.len(), after.len());
    out.push_str(&format!(
        "@@ -{} +{} @@\n",
        hunk_range(first.old.start - b, b + last.old.end - first.old.start + a),
        hunk_range(first.new.start - b, b + last.new.end - first.new.start + a)
    ));
    let mut kept = before;
    for (k, c) in group.iter().enumerate() {
        if k > 0 {
            kept = split_keep_ends(&old[group[k - 1].old_bytes.end..c.old_bytes.start]);
        }
        for l in &kept {
            push_line(out, ' ', l);
        }
        for l in split_keep_ends(&old[c.old_bytes.clone()]) {
            push_line(out, '-', l);
        }
        for l in split_keep_ends(&new[c.new_bytes.clone()]) {
            push_line(out, '+', l);
        }
    }
    for l in &after {
        push_line(out, ' ', l);
    }
}

/// A differing part of a region (byte ranges on whole lines, context included).
struct Stretch {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// Cuts a region into stretches to line-diff separately. A region small enough to
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

/// The line breaks of the old text before an offset: looked up in the line index of a
/// text of that very string when the caller has one built (a kept string's), else
/// counted.
#[derive(Clone, Copy)]
struct OldRows<'o, 't> {
    old: &'o str,
    text: Option<&'t Text<'t>>,
}

impl<'o, 't> OldRows<'o, 't> {
    /// `text` is used only when it is a text of `old` itself (the same bytes in memory).
    fn new(old: &'o str, text: Option<&'t Text<'t>>) -> OldRows<'o, 't> {
        let text = text.filter(|t| std::ptr::eq(t.as_str(), old));
        OldRows { old, text }
    }

    /// The breaks in `old[..pos]`, given `known`, the breaks in `old[..at]` (`at <= pos`).
    fn before(&self, pos: usize, (at, known): (usize, usize)) -> usize {
        match self.text {
            Some(t) => t.line_of(pos),
            None => known + count_breaks(&self.old[at..pos]),
        }
    }
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
    // A byte scan, not a char iterator: this runs on whole regions of large files.
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
