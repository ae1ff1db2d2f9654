//! Why a search found nothing, and what to send next.
//!
//! A refused edit is only useful if the agent can fix it in one retry without
//! re-reading the file. For a needle that was not found this module reports:
//! - the longest run of the needle's lines that does occur, consecutively, and the
//!   first line where it diverges (expected vs found);
//! - the closest area (line range, similarity score, the file's text there);
//! - per-line differences there, with whitespace made visible and whitespace-only
//!   differences called out;
//! - the exact next call;
//! - what the recovery cascade tried, and why a level that came close refused
//!   ([`explain_recovery`]): indentation that differs inconsistently, an elision that
//!   would leave its block, or, under `strict`, the match the cascade would have made.
//!
//! It must stay fast on 100 000-line files, so nothing here compares every file line
//! with every needle line: file lines are looked up in small hash maps built from the
//! needle (exact and trimmed), which vote for where the needle would start; only if
//! that finds nothing do identifier tokens vote instead. The few best windows are then
//! scored precisely.
//!
//! [`locate_one`] (in `anchor`) is the one path from a content anchor to a chosen match
//! or a refusal for every tool: find, select, or diagnose. It lives here, not in
//! `locate`, because its refusal is a diagnosis and `locate` sits below this module.

mod anchor;

pub use anchor::{locate_one, Anchor, Located};

pub mod applied;

use crate::error::{EditError, ErrorKind};
use crate::locate::{Found, Scope};
use crate::text::hash::{core_hash, FastHash};
use crate::text::words::{capitalized, describe_ws, lines_label, visible};
use crate::text::{split_lines, Text};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The maps of a report: keyed by lines and words, hashed fast ([`FastHash`]).
type Map<K, V> = HashMap<K, V, FastHash>;

/// How many windows get the precise similarity score.
const WINDOWS_SCORED: usize = 6;

/// Most (file line, needle line) pairs the closest-area scan visits (issue 12: no input
/// may take superlinear time). Ordinary needles never come near it.
/// Spent, the scan stops and the diagnostics say where (`scan_stopped_at_line`).
const SCAN_WORK: usize = 1_000_000;
/// How many differing lines are listed.
const LINES_LISTED: usize = 12;

/// What the refused call was looking for, for messages.
pub struct Subject<'a> {
    /// `"old_str"`, `"after_content"`, a hunk's name…
    pub what: &'a str,
    pub path: &'a str,
    /// The tool to suggest re-sending, e.g. `"str_replace"`.
    pub tool: &'a str,
}

/// The closest area to a needle that was not found.
#[derive(Clone, Debug, PartialEq)]
pub struct Closest {
    /// 0-based first line and number of lines.
    pub first: usize,
    pub len: usize,
    pub score: f64,
}

/// The `no_match` refusal for `needle` in `scope`, with full diagnostics.
///
/// Only the tests call it: tools word the refusal through `locate_one` (Report plus
/// `explain_recovery`), which lacks this function's line-number branch. Wiring it in
/// is a behaviour change left for its own commit.
#[cfg_attr(not(test), allow(dead_code))]
pub fn no_match(text: &Text, needle: &str, scope: &Scope, subject: &Subject) -> EditError {
    // A needle copied from a numbered read is compared without its prefixes, or no line
    // of it would ever look like the file's.
    if let Some(stripped) = crate::locate::without_line_numbers(needle) {
        if let [only] = crate::locate::find_exact(text, &stripped, scope).as_slice() {
            let (a, b) = (only.first_line(text), only.last_line(text));
            return EditError::new(
                ErrorKind::NoMatch,
                format!(
                    "{} was not found in {} as sent: it carries line-number prefixes, and without them it matches {} exactly. Send it again without the prefixes.",
                    subject.what,
                    subject.path,
                    lines_label(a, b)
                ),
            )
            .with_diagnostics(json!({"without_line_numbers": {"start_line": a + 1, "end_line": b + 1}}));
        }
        let mut err = Report::build(text, &stripped, scope).into_error(text, scope, subject);
        err.message.push_str(&format!(
            " (The line-number prefixes of {} were left out of this comparison; send it without them.)",
            subject.what
        ));
        return err;
    }
    let report = Report::build(text, needle, scope);
    report.into_error(text, scope, subject)
}

/// Adds to a refusal for a needle that was not found what the recovery cascade did:
/// the levels tried (`diagnostics.tried`) and, in the message and
/// `diagnostics.recovery`, why the levels that came close refused.
pub fn explain_recovery(mut err: EditError, found: &Found) -> EditError {
    for note in &found.near_misses {
        err.message.push(' ');
        err.message.push_str(note);
    }
    if !err.diagnostics.is_object() {
        err.diagnostics = json!({});
    }
    err.diagnostics["tried"] = found.tried.iter().map(|v| v.as_str()).collect();
    if !found.near_misses.is_empty() {
        err.diagnostics["recovery"] = json!(found.near_misses);
    }
    err
}

/// The analysis behind a `no_match`, reusable by tools that word their own message.
pub struct Report<'n> {
    needle_lines: Vec<&'n str>,
    /// Longest consecutive exact run: (needle line, file line, length).
    run: Option<(usize, usize, usize)>,
    /// The line where the scan's work budget ran out (`SCAN_WORK`), if it did.
    stopped_at: Option<usize>,
    pub closest: Option<Closest>,
}

impl<'n> Report<'n> {
    pub fn build(text: &Text, needle: &'n str, scope: &Scope) -> Report<'n> {
        let needle_lines = split_lines(needle);
        let (first, last) = scope.line_span(text);
        if needle_lines.is_empty() || first > last || text.line_count() == 0 {
            return Report {
                needle_lines,
                run: None,
                stopped_at: None,
                closest: None,
            };
        }
        let last = last.min(text.line_count() - 1);

        // Needle line → its indices, exact and trimmed.
        let mut exact: Map<&str, Vec<usize>> = Map::default();
        let mut trimmed: Map<&str, Vec<usize>> = Map::default();
        for (j, l) in needle_lines.iter().enumerate() {
            exact.entry(l).or_default().push(j);
            let t = l.trim();
            if !t.is_empty() {
                trimmed.entry(t).or_default().push(j);
            }
        }

        let Scanned {
            run: best_run,
            votes,
            stopped_at,
        } = scan_scope(text, first, last, &needle_lines, &exact, &trimmed);

        // Candidate windows: best voted starts, then token votes if lines gave little.
        let mut starts: Vec<(isize, usize)> = votes.into_iter().collect();
        starts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let substantive_lines = needle_lines.iter().filter(|l| l.trim().len() >= 3).count();
        let strong = starts
            .first()
            .is_some_and(|&(_, v)| 2 * v >= substantive_lines.max(1));
        // Most likely first (where the longest run puts the needle, then by votes), so
        // that the scoring can skip windows that cannot beat the best one scored.
        let mut windows: Vec<usize> = best_run
            .map(|(j, i, _)| i.saturating_sub(j).max(first))
            .into_iter()
            .collect();
        windows.extend(
            starts
                .iter()
                .take(WINDOWS_SCORED)
                .map(|&(s, _)| s.clamp(first as isize, last as isize) as usize),
        );
        if !strong {
            windows.extend(token_windows(text, &needle_lines, first, last));
        }
        let mut seen = std::collections::HashSet::new();
        windows.retain(|w| seen.insert(*w));

        let closest = closest_window(text, &needle_lines, windows, last);

        Report {
            needle_lines,
            run: best_run,
            stopped_at,
            closest,
        }
    }

    /// Per-line differences between the needle and the closest area, aligned by line.
    pub fn line_differences(&self, text: &Text) -> Vec<Value> {
        let Some(c) = &self.closest else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for k in 0..c.len.min(self.needle_lines.len()) {
            let expected = self.needle_lines[k];
            let found = text.line(c.first + k);
            if expected == found {
                continue;
            }
            // `expected`/`found` are for reading (whitespace made visible, escaped);
            // the `_raw` twins are the exact lines, for hosts that render them.
            let mut entry = json!({
                "line": c.first + k + 1,
                "expected": visible(expected),
                "found": visible(found),
                "expected_raw": expected,
                "found_raw": found,
            });
            if let Some(note) = whitespace_note(expected, found) {
                entry["whitespace_only"] = Value::Bool(true);
                entry["note"] = Value::String(note);
            }
            out.push(entry);
            if out.len() == LINES_LISTED {
                break;
            }
        }
        out
    }

    /// True when the closest area differs from the needle only in whitespace.
    pub fn whitespace_only(&self, text: &Text) -> bool {
        let Some(c) = &self.closest else {
            return false;
        };
        c.len == self.needle_lines.len()
            && (0..c.len).all(|k| self.needle_lines[k].trim() == text.line(c.first + k).trim())
    }

    pub fn diagnostics(&self, text: &Text) -> Value {
        let mut d = json!({});
        if let Some(c) = &self.closest {
            let end = c.first + c.len;
            let content: String = (c.first..end).map(|i| text.line_with_ending(i)).collect();
            d["closest"] = json!({
                "start_line": c.first + 1,
                "end_line": end,
                "score": (c.score * 100.0).round() / 100.0,
                "text": content,
            });
            d["lines"] = Value::Array(self.line_differences(text));
        }
        if let Some((j, i, len)) = self.run {
            let mut run = json!({
                "needle_lines": [j + 1, j + len],
                "file_lines": [i + 1, i + len],
            });
            if let Some((nj, fi)) = self.divergence(text) {
                run["diverges"] = json!({
                    "needle_line": nj + 1,
                    "line": fi + 1,
                    "expected": visible(self.needle_lines[nj]),
                    "found": visible(text.line(fi)),
                    "expected_raw": self.needle_lines[nj],
                    "found_raw": text.line(fi),
                });
            }
            d["longest_matching_run"] = run;
        }
        if let Some(line) = self.stopped_at {
            // The budget keeps a pathological file from costing more: what is above was
            // found in the lines before this one.
            d["scan_stopped_at_line"] = json!(line + 1);
        }
        d
    }

    /// Where the longest run stops matching: the needle line just after it, or, when
    /// the run reaches the needle's end, the one just before it (needle index, file line).
    fn divergence(&self, text: &Text) -> Option<(usize, usize)> {
        let (j, i, len) = self.run?;
        if j + len < self.needle_lines.len() && i + len < text.line_count() {
            Some((j + len, i + len))
        } else if j > 0 && i > 0 {
            Some((j - 1, i - 1))
        } else {
            None
        }
    }

    /// The `no_match` error with message and diagnostics.
    pub fn into_error(self, text: &Text, scope: &Scope, subject: &Subject) -> EditError {
        let what = subject.what;
        let path = subject.path;
        let where_ = scope.describe();
        let mut msg = format!("{what} was not found in {path}{where_}.");
        if let Some((j, i, len)) = self.run {
            if len < self.needle_lines.len() {
                msg.push_str(&format!(
                    " Its {} {} {}",
                    lines_label(j, j + len - 1),
                    if len == 1 { "matches" } else { "match" },
                    lines_label(i, i + len - 1)
                ));
                if let Some((nj, fi)) = self.divergence(text) {
                    msg.push_str(&format!(
                        "; its line {} differs: expected {}, found {}.",
                        nj + 1,
                        quote(self.needle_lines[nj]),
                        quote(text.line(fi))
                    ));
                } else {
                    msg.push('.');
                }
            }
        }
        match &self.closest {
            Some(c) if self.whitespace_only(text) => {
                let label = capitalized(&lines_label(c.first, c.first + c.len.max(1) - 1));
                msg.push_str(&format!(
                    " {label} {} except for whitespace ({}). Copy {what} exactly from diagnostics.closest.text.",
                    if c.len > 1 { "match" } else { "matches" },
                    self.first_whitespace_note(text)
                        .unwrap_or_else(|| "see diagnostics.lines".into())
                ));
            }
            Some(c) => {
                let from = c.first.saturating_sub(2) + 1;
                let to = (c.first + c.len + 2).min(text.line_count());
                msg.push_str(&format!(
                    " Closest area: {} (similarity {:.2}); diagnostics.lines shows the differing lines. Call read_lines {{path: \"{path}\", start_line: {from}, end_line: {to}}} and send {} again with {what} copied exactly from it.",
                    lines_label(c.first, c.first + c.len.max(1) - 1),
                    c.score,
                    subject.tool
                ));
            }
            None => {
                let word = distinctive_word(&self.needle_lines);
                let grep = if word.is_empty() {
                    String::new()
                } else {
                    format!(
                        "grep_file {{path: \"{path}\", pattern: {}}} or read it with ",
                        serde_json::to_string(&word).unwrap_or_default()
                    )
                };
                msg.push_str(&format!(
                    " Nothing similar is there either. Find the place with {grep}get_document {{path: \"{path}\"}}, then send {} again with {what} copied exactly from the file.",
                    subject.tool
                ));
            }
        }
        let diagnostics = self.diagnostics(text);
        EditError::new(ErrorKind::NoMatch, msg).with_diagnostics(diagnostics)
    }

    fn first_whitespace_note(&self, text: &Text) -> Option<String> {
        let c = self.closest.as_ref()?;
        (0..c.len).find_map(|k| {
            let note = whitespace_note(self.needle_lines[k], text.line(c.first + k))?;
            Some(format!("line {}: {note}", c.first + k + 1))
        })
    }
}

/// The window most similar to the needle (0..=1, at least 0.3), of the `windows`
/// proposed as start lines; `last` is the scope's last line. The answer does not
/// depend on the windows' order (ties go to the first line), but a window whose
/// [`similarity_bound`] is below the best score so far is not scored, so the likeliest
/// go first: scoring an unrelated window (a character diff) is most of a miss's cost.
fn closest_window(
    text: &Text,
    needle_lines: &[&str],
    windows: Vec<usize>,
    last: usize,
) -> Option<Closest> {
    let m = needle_lines.len();
    let needle_joined = needle_lines.join("\n");
    let needle_counts = char_counts(&needle_joined);
    let mut best: Option<Closest> = None;
    for start in windows {
        let len = m.min(last + 1 - start);
        let window: Vec<&str> = (start..start + len).map(|i| text.line(i)).collect();
        let window = window.join("\n");
        if best
            .as_ref()
            .is_some_and(|b| similarity_bound(&window, &needle_counts) < b.score)
        {
            continue;
        }
        let c = Closest {
            first: start,
            len,
            score: similarity(&window, &needle_joined),
        };
        let better = best.as_ref().is_none_or(|b| {
            c.score
                .partial_cmp(&b.score)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.first.cmp(&c.first))
                .is_gt()
        });
        if better {
            best = Some(c);
        }
    }
    best.filter(|c| c.score >= 0.3)
}

/// How many chars a [`similarity`] reads of each text (the first `CAP`).
const SIMILARITY_CAP: usize = 4000;

/// The chars [`similarity`] reads of `s`, counted in 256 buckets by code point, and
/// how many there are.
fn char_counts(s: &str) -> ([u32; 256], usize) {
    let mut counts = [0u32; 256];
    let mut n = 0;
    for c in s.chars().take(SIMILARITY_CAP) {
        counts[(c as u32 & 0xff) as usize] += 1;
        n += 1;
    }
    (counts, n)
}

/// An upper bound of `similarity(a, b)` from `b`'s [`char_counts`]: a common
/// subsequence holds no more of a char (of a bucket, which only adds) than either text
/// has, and the ratio is computed as `similar` computes it, so it is never below.
fn similarity_bound(a: &str, b: &([u32; 256], usize)) -> f64 {
    let (a_counts, a_len) = char_counts(a);
    let (b_counts, b_len) = b;
    let common: u32 = a_counts.iter().zip(b_counts).map(|(x, y)| *x.min(y)).sum();
    if a_len + b_len == 0 {
        return 1.0;
    }
    f64::from(2.0 * common as f32 / (a_len + b_len) as f32)
}

/// Windows whose lines share the most identifier tokens with the needle.
fn token_windows(text: &Text, needle_lines: &[&str], first: usize, last: usize) -> Vec<usize> {
    let mut tokens: Map<&str, ()> = Map::default();
    for l in needle_lines {
        for t in identifiers(l) {
            tokens.insert(t, ());
        }
    }
    if tokens.is_empty() {
        return Vec::new();
    }
    let m = needle_lines.len();
    let scores: Vec<u32> = (first..=last)
        .map(|i| {
            identifiers(text.line(i))
                .filter(|t| tokens.contains_key(t))
                .count() as u32
        })
        .collect();
    // Sliding window sums of length m.
    let mut best: Vec<(u32, usize)> = Vec::new();
    let mut sum: u32 = scores.iter().take(m).sum();
    let consider = |sum: u32, start: usize, best: &mut Vec<(u32, usize)>| {
        if sum == 0 {
            return;
        }
        best.push((sum, start));
        if best.len() > 4 * WINDOWS_SCORED {
            best.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            best.truncate(WINDOWS_SCORED);
        }
    };
    consider(sum, first, &mut best);
    for k in m..scores.len() {
        sum = sum + scores[k] - scores[k - m];
        consider(sum, first + k + 1 - m, &mut best);
    }
    best.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    best.truncate(WINDOWS_SCORED);
    best.into_iter().map(|(_, s)| s).collect()
}

/// Identifier-like words of at least two characters.
fn identifiers(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 2 && !w.bytes().all(|b| b.is_ascii_digit()))
}

/// The needle's rarest-looking word, to suggest for grep: its longest identifier.
fn distinctive_word(lines: &[&str]) -> String {
    lines
        .iter()
        .flat_map(|l| identifiers(l))
        .max_by_key(|w| w.len())
        .unwrap_or("")
        .to_string()
}

/// Similarity in 0..=1 of two short texts (compared char by char, capped in length).
pub fn similarity(a: &str, b: &str) -> f64 {
    let cut = |s: &str| -> String { s.chars().take(SIMILARITY_CAP).collect() };
    let (a, b) = (cut(a), cut(b));
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    f64::from(similar::TextDiff::from_chars(a.as_str(), b.as_str()).ratio())
}

fn quote(line: &str) -> String {
    let shown: String = visible(line.trim_end()).chars().take(120).collect();
    format!("`{shown}`")
}

/// Describes how two lines differ when they differ only in whitespace.
pub fn whitespace_note(expected: &str, found: &str) -> Option<String> {
    if expected == found || expected.trim() != found.trim() {
        return None;
    }
    let lead = |s: &str| s.len() - s.trim_start().len();
    let (el, fl) = (&expected[..lead(expected)], &found[..lead(found)]);
    if el != fl {
        return Some(format!(
            "indentation: {} has {}, the file has {}",
            "the request",
            describe_ws(el),
            describe_ws(fl)
        ));
    }
    let (et, ft) = (
        &expected[expected.trim_end().len()..],
        &found[found.trim_end().len()..],
    );
    if et != ft {
        return Some(format!(
            "trailing whitespace: the request has {}, the file has {}",
            describe_ws(et),
            describe_ws(ft)
        ));
    }
    Some("whitespace inside the line differs".into())
}

/// The longest exact run of needle lines: (needle start, file start, length).
type Run = (usize, usize, usize);

/// One pass over the scope's lines: the longest exact run of needle lines (needle
/// start, file start, length) and, per candidate start line, the votes of lines that
/// match trimmed. Bounded by `SCAN_WORK` visited (file line, needle line) pairs.
fn scan_scope(
    text: &Text,
    first: usize,
    last: usize,
    needle_lines: &[&str],
    exact: &Map<&str, Vec<usize>>,
    trimmed: &Map<&str, Vec<usize>>,
) -> Scanned {
    let mut run_prev: Map<usize, usize> = Map::default(); // needle j → run length ending at previous file line
    let mut best_run: Option<(usize, usize, usize)> = None;
    let mut votes: Map<isize, usize> = Map::default();
    // last_substantive[j]: the last needle line ≤ j with 3+ characters (+1; 0: none),
    // so a run's check is O(1) rather than a scan of the run.
    let mut last_substantive = Vec::with_capacity(needle_lines.len());
    let mut seen = 0;
    for (j, l) in needle_lines.iter().enumerate() {
        if l.trim().len() >= 3 {
            seen = j + 1;
        }
        last_substantive.push(seen);
    }
    // Pairs (file line, needle line) visited; a repeated line in a huge needle
    // against a huge file would make the scan quadratic, so it stops at a bound
    // (deterministic: the same input always stops at the same line).
    let mut work = 0usize;
    let mut stopped_at = None;
    let mut previous = None;
    for i in wanted_lines(text, first, last, needle_lines) {
        // Runs are of consecutive lines: a line between breaks them.
        if previous != i.checked_sub(1) {
            run_prev.clear();
        }
        previous = Some(i);
        let line = text.line(i);
        let mut run_cur: Map<usize, usize> = Map::default();
        if let Some(js) = exact.get(line) {
            work += js.len();
            for &j in js {
                let len = if j > 0 {
                    run_prev.get(&(j - 1)).copied().unwrap_or(0) + 1
                } else {
                    1
                };
                run_cur.insert(j, len);
                let substantive = last_substantive[j] > j + 1 - len;
                if substantive && best_run.is_none_or(|(_, _, b)| len > b) {
                    best_run = Some((j + 1 - len, i + 1 - len, len));
                }
            }
        }
        run_prev = run_cur;
        if let Some(js) = trimmed.get(line.trim()) {
            work += js.len();
            for &j in js {
                *votes.entry(i as isize - j as isize).or_default() += 1;
            }
        }
        if work > SCAN_WORK {
            // The scan stops at the next line (deterministic, whatever comes next).
            stopped_at = (i < last).then_some(i + 1);
            break;
        }
    }
    Scanned {
        run: best_run,
        votes,
        stopped_at,
    }
}

/// The lines of `first..=last` whose core hash is a needle line's (every line equal to
/// a needle line, whole or trimmed, has one), ascending. A kept text's line map gives
/// them from the needle lines' groups, without a pass over every line, unless those
/// groups hold over a quarter of the scope (a needle of blank lines and braces); else
/// one pass over the lines' hashes ([`wanted_lines_scanned`], the reference).
fn wanted_lines(text: &Text, first: usize, last: usize, needle_lines: &[&str]) -> Vec<usize> {
    let Some(map) = text.kept_line_map() else {
        return wanted_lines_scanned(text, first, last, needle_lines);
    };
    let groups = needle_groups(map, needle_lines, first..last + 1);
    if groups.iter().map(|g| g.len()).sum::<usize>() > (last + 1 - first) / 4 {
        return wanted_lines_scanned(text, first, last, needle_lines);
    }
    merged(&groups)
}

/// The lines of `lines` in the line map's group of each distinct core hash of the
/// needle lines.
fn needle_groups<'m>(
    map: &'m crate::text::LineMap,
    needle_lines: &[&str],
    lines: std::ops::Range<usize>,
) -> Vec<&'m [usize]> {
    let mut hashes: Vec<u64> = needle_lines.iter().map(|l| core_hash(l)).collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes
        .iter()
        .map(|&h| map.lines_with_in(h, lines.clone()))
        .collect()
}

/// The lines of `groups` (disjoint, each ascending) merged, ascending.
fn merged(groups: &[&[usize]]) -> Vec<usize> {
    let mut lines: Vec<usize> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    lines.sort_unstable();
    lines
}

/// [`wanted_lines`] by a pass over the hashes of every line in `first..=last`.
fn wanted_lines_scanned(
    text: &Text,
    first: usize,
    last: usize,
    needle_lines: &[&str],
) -> Vec<usize> {
    let wanted: Map<u64, ()> = needle_lines.iter().map(|l| (core_hash(l), ())).collect();
    let hashes = text.line_hashes_like(first..last + 1, needle_lines);
    (first..)
        .zip(hashes.iter())
        .filter(|(_, h)| wanted.contains_key(*h))
        .map(|(i, _)| i)
        .collect()
}

/// What [`scan_scope`] found.
struct Scanned {
    run: Option<Run>,
    votes: Map<isize, usize>,
    stopped_at: Option<usize>,
}

#[cfg(test)]
mod tests;
