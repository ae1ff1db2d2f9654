//! The tolerant levels, in cascade order, after the byte-exact search found nothing.
//!
//! | level | forgives | new text gets |
//! |---|---|---|
//! | `line_endings` | CRLF vs LF | the file's line endings |
//! | `trailing_whitespace` | trailing blanks on any line | — |
//! | `indentation` | leading whitespace, when it differs by one consistent rule | re-indented by that rule |
//! | `inner_whitespace` | the length of runs of spaces and tabs inside lines | kept lines keep the file's alignment |
//! | `blank_lines` | the number of blank lines between lines with content, anywhere (see `blank_lines`) | kept gaps keep the file's blank lines |
//! | `line_numbers` | a numbered read's prefixes on every line (then the three above) | prefixes removed |
//! | `escaping` | backslash-run lengths, when they pair consistently | backslashes corrected |
//! | `typography` | curly quotes, dashes, `…`, Unicode spaces | the file's characters |
//! | `elision` | a marker line standing for unquoted lines: a unique chain in the head's definition | the lines written back |
//!
//! Each level is a module with one signature — `applies(&Input) -> bool` (whether it
//! can differ from the levels before) and `level(&Input) -> Answer` (all its
//! candidates, never a pick) — dispatched by one short match each ([`applies`],
//! [`level`]), and a slow `reference` (test code: both sides normalised the level's
//! way, every window compared) that `tests` holds it to on mistakes in requests quoted
//! from real files. Each level verifies the windows the shared index proposes and
//! keeps every match that passes; the first level with any match decides. A level is skipped when it
//! cannot differ from the ones before (no `\r` anywhere: line endings; no backslash:
//! escaping; all ASCII: typography; no numbered or marker line: those two levels).

mod blank_lines;
mod elision;
mod escaping;
mod indentation;
mod inner_whitespace;
mod line_endings;
mod line_numbers;
#[cfg(test)]
mod tests;
mod trailing_whitespace;
mod typography;

use super::fold::Key;
use super::index::LineIndex;
use super::merge::{Merge, Piece, Segment};
use super::needle::{content_end, content_start, settle, verify, Needle, Span};
use super::{Candidate, Fix, Found, Scope, Via};
use crate::text::words;
use crate::text::Text;
use std::sync::Arc;

/// The levels after the byte-exact search, in cascade order: [`Via::ALL`] without its
/// first level, so the order is written once.
const LEVELS: &[Via] = Via::ALL.split_at(1).1;

/// What every level looks at: the request, the scope and the shared line index.
pub(super) struct Input<'a, 't, 'n> {
    pub text: &'a Text<'t>,
    pub raw: &'a str,
    pub needle: &'a Needle<'n>,
    pub scope: &'a Scope,
    pub index: &'a LineIndex<'a>,
    /// The windows the index proposes for `needle`.
    pub windows: &'a [usize],
    pub scope_bytes: &'a [u8],
    /// The call's 1-based `line_hint`, which a one-line numbered request may agree with.
    pub line_hint: Option<usize>,
}

/// A level's answer.
pub(super) enum Answer {
    /// The level matched: its candidates (non-empty) and the note that says what it
    /// forgave.
    Matched(Vec<Candidate>, Option<String>),
    /// No match; why spans that came close were refused (for the refusal's message).
    Missed(Vec<String>),
}

/// Runs the tolerant levels for `raw` in `scope`: the first level with any match
/// decides; a level that cannot differ from the ones before is skipped.
pub fn run(text: &Text, raw: &str, scope: &Scope, line_hint: Option<usize>) -> Found {
    let mut found = Found {
        tried: vec![Via::Exact],
        ..Found::default()
    };
    let needle = Needle::parse(raw);
    if !needle.has_substance() || scope.range.is_empty() {
        return found;
    }
    let index = LineIndex::build(text, scope);
    let windows = index.windows(text, scope, &needle);
    let input = Input {
        text,
        raw,
        needle: &needle,
        scope,
        index: &index,
        windows: &windows,
        scope_bytes: &text.as_str().as_bytes()[scope.range.clone()],
        line_hint,
    };
    for via in LEVELS.iter().copied().filter(|v| applies(*v, &input)) {
        found.tried.push(via);
        match level(via, &input) {
            Answer::Matched(candidates, note) => {
                found.notes.extend(note);
                return decided(candidates, found);
            }
            Answer::Missed(near_misses) => found.near_misses.extend(near_misses),
        }
    }
    found
}

/// Whether level `via` can differ from the levels before it for this input.
fn applies(via: Via, input: &Input) -> bool {
    match via {
        Via::LineEndings => line_endings::applies(input),
        Via::TrailingWhitespace => trailing_whitespace::applies(input),
        Via::Indentation => indentation::applies(input),
        Via::InnerWhitespace => inner_whitespace::applies(input),
        Via::BlankLines => blank_lines::applies(input),
        Via::LineNumbers => line_numbers::applies(input),
        Via::Escaping => escaping::applies(input),
        Via::Typography => typography::applies(input),
        Via::Elision => elision::applies(input),
        Via::Exact => false,
    }
}

/// Runs one level.
fn level(via: Via, input: &Input) -> Answer {
    match via {
        Via::LineEndings => line_endings::level(input),
        Via::TrailingWhitespace => trailing_whitespace::level(input),
        Via::Indentation => indentation::level(input),
        Via::InnerWhitespace => inner_whitespace::level(input),
        Via::BlankLines => blank_lines::level(input),
        Via::LineNumbers => line_numbers::level(input),
        Via::Escaping => escaping::level(input),
        Via::Typography => typography::level(input),
        Via::Elision => elision::level(input),
        Via::Exact => Answer::Missed(Vec::new()),
    }
}

/// Every span of `needle` at `key` among `windows`, in order (overlapping ones too:
/// each level validates them, then [`settle`]s).
pub(super) fn spans_at(text: &Text, needle: &Needle, windows: &[usize], key: Key) -> Vec<Span> {
    windows
        .iter()
        .flat_map(|&i| verify(text, needle, i, key))
        .collect()
}

/// The merge for one span of `needle`, without corrections.
pub(super) fn merge_for(text: &Text, needle: &Needle, span: &Span, via: Via) -> Merge {
    let segment = segment_for(text, needle, span);
    let last = span.first + span.lines - 1;
    Merge {
        via,
        segments: vec![segment],
        elided: Vec::new(),
        markers: Vec::new(),
        elided_lines: 0,
        gaps: Vec::new(),
        first_partial: span.first_partial(text),
        at_eof_without_newline: needle.terminated && !text.line_with_ending(last).ends_with('\n'),
        ending: text.ending_near(span.first),
        numbering: None,
        indent: None,
        escapes: None,
        typography: None,
        lines: (span.first + 1, last + 1),
    }
}

/// Each request line of `needle` with the bytes of its file line inside `span`.
pub(super) fn segment_for(text: &Text, needle: &Needle, span: &Span) -> Segment {
    let m = needle.len();
    let pieces = (0..m)
        .map(|j| {
            let li = span.first + j;
            let start = if j == 0 {
                span.range.start
            } else {
                content_start(text, li)
            };
            let line_end = text.line_range(li).end;
            let end = if j + 1 == m {
                span.range.end.min(content_end(text, li))
            } else {
                content_end(text, li)
            };
            let term = if j + 1 < m || needle.terminated {
                content_end(text, li)..line_end
            } else {
                line_end..line_end
            };
            Piece {
                content: start.min(end)..end,
                term,
                absent: false,
            }
        })
        .collect();
    Segment {
        request: needle.lines.iter().map(|l| l.to_string()).collect(),
        pieces,
    }
}

/// (request line, file bytes it matched, 1-based file line) for every line of `m`.
pub(super) fn line_pairs<'t>(text: &Text<'t>, m: &Merge) -> Vec<(String, &'t str, usize)> {
    let src = text.as_str();
    m.segments
        .iter()
        .flat_map(|s| s.request.iter().zip(&s.pieces))
        .map(|(r, p)| {
            (
                r.clone(),
                &src[p.content.clone()],
                text.line_of(p.content.start) + 1,
            )
        })
        .collect()
}

pub(super) fn candidate(span: &Span, m: Merge) -> Candidate {
    Candidate {
        range: span.range.clone(),
        via: m.via,
        fix: Fix::Merge(Arc::new(m)),
    }
}

pub(super) fn into_candidates(merges: Vec<(Span, Merge)>) -> Vec<Candidate> {
    merges.into_iter().map(|(s, m)| candidate(&s, m)).collect()
}

/// The level that found `candidates` decides: they are the result.
pub(super) fn decided(candidates: Vec<Candidate>, mut found: Found) -> Found {
    if let Some(via) = candidates.first().map(|c| c.via) {
        if found.tried.last() != Some(&via) {
            found.tried.push(via);
        }
    }
    found.candidates = candidates;
    found
}

pub(super) fn span_label(s: &Span) -> String {
    if s.lines <= 1 {
        format!("line {}", s.first + 1)
    } else {
        format!("lines {}-{}", s.first + 1, s.first + s.lines)
    }
}

pub(super) fn lines_label(text: &Text, c: &Candidate) -> String {
    words::lines_label(c.first_line(text), c.last_line(text))
}

/// Line endings, trailing whitespace and inner whitespace: no corrections besides the
/// file's bytes. The spans and candidates, when any matched.
fn plain(input: &Input, key: Key, via: Via) -> Option<(Vec<Span>, Vec<Candidate>)> {
    let (text, needle) = (input.text, input.needle);
    let spans = spans_at(text, needle, input.windows, key);
    if spans.is_empty() {
        return None;
    }
    let merges: Vec<(Span, Merge)> = spans
        .into_iter()
        .map(|s| {
            let m = merge_for(text, needle, &s, via);
            (s, m)
        })
        .collect();
    let merges = settle(merges);
    let spans: Vec<Span> = merges.iter().map(|(s, _)| s.clone()).collect();
    Some((spans, into_candidates(merges)))
}

/// Every window of whole file lines in `scope` (first, last) whose lines equal the
/// request's under `key`, kept when `accept(first)`: the shape of every key level's
/// reference. A one-line request without a line break may match inside a line; the
/// reference compares whole lines only, so such requests are not compared.
#[cfg(test)]
fn reference_by_key(
    text: &Text,
    needle: &Needle,
    scope: &Scope,
    key: Key,
    accept: impl Fn(usize) -> bool,
) -> Vec<(usize, usize)> {
    use super::fold::key as fold;
    let (lo, hi) = scope.line_span(text);
    let m = needle.len();
    if m == 0 || scope.range.is_empty() {
        return Vec::new();
    }
    let hi = hi.min(text.line_count().saturating_sub(1));
    (lo..=hi)
        .filter(|&i| i + m <= hi + 1)
        .filter(|&i| (0..m).all(|j| fold(text.line(i + j), key) == fold(&needle.lines[j], key)))
        .filter(|&i| accept(i))
        .map(|i| (i, i + m - 1))
        .collect()
}
