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
//! Each level verifies the windows the shared index proposes and keeps every match
//! that passes; the first level with any match decides. A level is skipped when it
//! cannot differ from the ones before (no `\r` anywhere: line endings; no backslash:
//! escaping; all ASCII: typography; no numbered or marker line: those two levels).

use super::blank_lines;
use super::elision::{self, Refusals};
use super::escapes::{self, Escapes};
use super::fold::Key;
use super::indent::{lead, IndentMap, Unit};
use super::index::LineIndex;
use super::merge::{Merge, Piece, Segment};
use super::needle::{content_end, content_start, settle, verify, Needle, Shape, Span};
use super::numbers;
use super::typography::{dashes_agree, TypoTable};
use super::{Candidate, Fix, Found, Scope, Via};
use crate::text::words::{self, visible};
use crate::text::{LineEnding, Text};
use std::cell::OnceCell;
use std::sync::Arc;

/// The levels after the byte-exact search, in cascade order: [`Via::ALL`] without its
/// first level, so the order is written once.
const LEVELS: &[Via] = Via::ALL.split_at(1).1;

/// What every level looks at: the request, the scope and the shared line index.
struct Input<'a, 't, 'n> {
    text: &'a Text<'t>,
    raw: &'a str,
    needle: &'a Needle<'n>,
    scope: &'a Scope,
    index: &'a LineIndex<'a>,
    /// The windows the index proposes for `needle`.
    windows: &'a [usize],
    scope_bytes: &'a [u8],
}

/// A level's answer.
enum Answer {
    /// The level matched: its candidates (non-empty) and the note that says what it
    /// forgave.
    Matched(Vec<Candidate>, Option<String>),
    /// No match; why spans that came close were refused (for the refusal's message).
    Missed(Vec<String>),
}

/// Runs the tolerant levels for `raw` in `scope`: the first level with any match
/// decides; a level that cannot differ from the ones before is skipped.
pub fn run(text: &Text, raw: &str, scope: &Scope) -> Found {
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
        Via::LineEndings => {
            let text = input.text;
            input.raw.contains('\r')
                || text.ending() == LineEnding::CrLf
                || text.has_mixed_endings()
        }
        Via::LineNumbers => numbers::detect(&input.needle.texts()).is_some(),
        Via::Escaping => {
            input.raw.contains('\\') || memchr::memchr(b'\\', input.scope_bytes).is_some()
        }
        Via::Typography => !input.raw.is_ascii() || !input.scope_bytes.is_ascii(),
        Via::Elision => elision::split(input.needle).is_some(),
        Via::BlankLines => blank_lines::applies(input.needle),
        Via::InnerWhitespace => has_run(input.raw.as_bytes()) || has_run(input.scope_bytes),
        Via::Exact | Via::TrailingWhitespace | Via::Indentation => true,
    }
}

/// Whether a line of `bytes` holds a run the inner-whitespace level folds.
fn has_run(bytes: &[u8]) -> bool {
    bytes
        .split(|&b| b == b'\n')
        .any(|line| std::str::from_utf8(line).is_ok_and(super::fold::has_inner_run))
}

/// Runs one level.
fn level(via: Via, input: &Input) -> Answer {
    match via {
        Via::LineEndings => plain(input, Key::Lines, Via::LineEndings),
        Via::TrailingWhitespace => plain(input, Key::TrimEnd, Via::TrailingWhitespace),
        Via::Indentation => indentation(input),
        Via::InnerWhitespace => plain(input, Key::InnerSpaces, Via::InnerWhitespace),
        Via::BlankLines => blank_lines_level(input),
        Via::LineNumbers => line_numbers(input),
        Via::Escaping => escaping(input),
        Via::Typography => typography(input),
        Via::Elision => elision_level(input),
        Via::Exact => Answer::Missed(Vec::new()),
    }
}

/// Leading whitespace, when it differs by one consistent rule.
fn indentation(input: &Input) -> Answer {
    let (text, needle) = (input.text, input.needle);
    let spans = spans_at(text, needle, input.windows, Key::Trim);
    let (candidates, refused) = indented(text, needle, spans, None);
    if let Some(Fix::Merge(m)) = candidates.first().map(|c| &c.fix) {
        let note = m.indent.as_ref().map(|map| {
            format!(
                "Matched {} ignoring indentation: {}.",
                lines_label(text, &candidates[0]),
                map.describe()
            )
        });
        return Answer::Matched(candidates, note);
    }
    Answer::Missed(refused)
}

/// The number of blank lines between lines.
fn blank_lines_level(input: &Input) -> Answer {
    let merges = settle(blank_lines::matches(input.text, input.needle, input.scope));
    let Some((span, _)) = merges.first() else {
        return Answer::Missed(Vec::new());
    };
    let note = format!(
        "Matched {} with a different number of blank lines between lines than the request has.",
        span_label(span)
    );
    Answer::Matched(into_candidates(merges), Some(note))
}

/// A numbered read's prefixes on every line, then the three levels before.
fn line_numbers(input: &Input) -> Answer {
    let (text, needle) = (input.text, input.needle);
    let texts = needle.texts();
    let Some(numbering) = numbers::detect(&texts) else {
        return Answer::Missed(Vec::new());
    };
    let (lines, _) = numbering.strip_all(&texts);
    let stripped = Needle {
        lines,
        terminated: needle.terminated,
        starts_line: false,
    };
    if !stripped.has_substance() {
        return Answer::Missed(Vec::new());
    }
    let windows = input.index.windows(text, input.scope, &stripped);
    for key in [Key::Lines, Key::TrimEnd, Key::Trim] {
        let spans = spans_at(text, &stripped, &windows, key);
        let candidates = if key == Key::Trim {
            indented(text, &stripped, spans, Some(numbering)).0
        } else {
            let merges = spans
                .into_iter()
                .map(|s| {
                    let mut m = merge_for(text, &stripped, &s, Via::LineNumbers);
                    m.numbering = Some(numbering);
                    (s, m)
                })
                .collect();
            into_candidates(settle(merges))
        };
        if !candidates.is_empty() {
            let note = format!(
                "Matched {} after removing line-number prefixes ({numbering}, …) from every line of the request; send the file's text without them next time.",
                lines_label(text, &candidates[0])
            );
            return Answer::Matched(candidates, Some(note));
        }
    }
    Answer::Missed(Vec::new())
}

/// Backslash-run lengths, when they pair consistently.
fn escaping(input: &Input) -> Answer {
    let (text, needle) = (input.text, input.needle);
    let merges: Vec<(Span, Merge)> = spans_at(text, needle, input.windows, Key::Escapes)
        .into_iter()
        .filter_map(|s| {
            let mut m = merge_for(text, needle, &s, Via::Escaping);
            let pairs = line_pairs(text, &m);
            let lines: Vec<(&str, &str, usize)> =
                pairs.iter().map(|(r, f, l)| (r.as_str(), *f, *l)).collect();
            let esc = escapes::pair(&lines);
            if matches!(&esc, Escapes::Table(t) if t.changed.is_empty()) {
                return None;
            }
            m.escapes = Some(esc);
            Some((s, m))
        })
        .collect();
    let merges = settle(merges);
    let Some((span, m)) = merges.first() else {
        return Answer::Missed(Vec::new());
    };
    let what = match &m.escapes {
        Some(Escapes::Table(t)) => t.describe(),
        Some(Escapes::Mixed(mixed)) if !mixed.conflicts.is_empty() => format!(
            "the ratio differs between runs ({}), so each is applied in order",
            mixed
                .conflicts
                .iter()
                .take(4)
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ),
        _ => "the request's backslash runs do not pair with the file's the same way everywhere"
            .into(),
    };
    let note = format!(
        "Matched {} ignoring backslash escaping: {what}.",
        span_label(span)
    );
    Answer::Matched(into_candidates(merges), Some(note))
}

/// Curly quotes, dashes, `…`, Unicode spaces.
fn typography(input: &Input) -> Answer {
    let (text, needle) = (input.text, input.needle);
    let merges: Vec<(Span, Merge)> = spans_at(text, needle, input.windows, Key::TypographyDashes)
        .into_iter()
        .filter_map(|s| {
            let mut m = merge_for(text, needle, &s, Via::Typography);
            let pairs = line_pairs(text, &m);
            let lines: Vec<(&str, &str)> = pairs.iter().map(|(r, f, _)| (r.as_str(), *f)).collect();
            if !dashes_agree(&lines) {
                return None;
            }
            m.typography = Some(TypoTable::pair(&lines));
            Some((s, m))
        })
        .collect();
    let merges = settle(merges);
    let Some((span, m)) = merges.first() else {
        return Answer::Missed(Vec::new());
    };
    let (mapped, kept) = m
        .typography
        .as_ref()
        .map(TypoTable::describe)
        .unwrap_or_default();
    let differences = [mapped, kept]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let note = format!(
        "Matched {} ignoring typographic characters ({}).",
        span_label(span),
        if differences.is_empty() {
            "quotes, dashes, spaces".to_string()
        } else {
            differences
        }
    );
    Answer::Matched(into_candidates(merges), Some(note))
}

/// A marker line standing for unquoted lines: a unique chain in the head's definition.
fn elision_level(input: &Input) -> Answer {
    let text = input.text;
    let Some(parts) = elision::split(input.needle) else {
        return Answer::Missed(Vec::new());
    };
    let mut refusals = Refusals::default();
    for key in [Key::Lines, Key::TrimEnd, Key::Trim] {
        let chains = elision::chains(text, input.index, input.scope, &parts, key, &mut refusals);
        if !refusals.first_part_at.is_empty() {
            // A looser key only finds the first part in more places.
            break;
        }
        let merges: Vec<(Span, Merge)> = chains
            .into_iter()
            .filter_map(|chain| elided(text, &parts, &chain, key))
            .collect();
        if let Some((span, m)) = merges.first() {
            let note = elision_note(text, &parts, span, m);
            return Answer::Matched(into_candidates(merges), Some(note));
        }
    }
    Answer::Missed(elision_refusal(&refusals).into_iter().collect())
}

fn elision_note(text: &Text, parts: &elision::Parts, span: &Span, m: &Merge) -> String {
    let markers = parts
        .markers
        .iter()
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if m.elided_lines == 0 {
        format!(
            "Matched {} with {markers} standing for no lines.",
            span_label(span)
        )
    } else {
        format!(
            "Matched {} with {markers} standing for {} line{} of the file ({}).",
            span_label(span),
            m.elided_lines,
            words::plural(m.elided_lines),
            elided_label(text, m)
        )
    }
}

/// Why the elision level refused, when it came close.
fn elision_refusal(refusals: &Refusals) -> Option<String> {
    if !refusals.first_part_at.is_empty() {
        let at = &refusals.first_part_at;
        let shown: Vec<String> = at.iter().take(8).map(usize::to_string).collect();
        Some(format!(
            "The part before the elision marker occurs {} times (lines {}{}), so which lines the marker stands for is not certain; add lines before the marker until that part is unique.",
            at.len(),
            shown.join(", "),
            if at.len() > 8 { ", …" } else { "" }
        ))
    } else if refusals.too_many {
        Some("The parts around the elision marker occur in too many places to check which lines it stands for; quote more lines around the marker.".into())
    } else {
        refusals.outside_region.map(|(from, to)| format!(
            "The part before the elision marker was found once, but the parts after it were not found, in order, after it within lines {from}-{to} (the definition it is in); quote those lines, or choose parts inside one function or block."
        ))
    }
}

/// Every span of `needle` at `key` among `windows`, in order (overlapping ones too:
/// each level validates them, then [`settle`]s).
fn spans_at(text: &Text, needle: &Needle, windows: &[usize], key: Key) -> Vec<Span> {
    windows
        .iter()
        .flat_map(|&i| verify(text, needle, i, key))
        .collect()
}

/// Line endings, trailing whitespace and inner whitespace: no corrections besides the
/// file's bytes.
fn plain(input: &Input, key: Key, via: Via) -> Answer {
    let (text, needle) = (input.text, input.needle);
    let spans = spans_at(text, needle, input.windows, key);
    if spans.is_empty() {
        return Answer::Missed(Vec::new());
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
    let candidates = into_candidates(merges);
    let label = lines_label(text, &candidates[0]);
    let note = if via == Via::LineEndings {
        let request = if input.raw.contains("\r\n") {
            "CRLF"
        } else {
            "LF"
        };
        format!(
            "Matched {label} ignoring line endings: the request has {request}, the file {} there.",
            text.ending_near(spans[0].first).name()
        )
    } else if via == Via::InnerWhitespace {
        let differing = (0..needle.len())
            .find(|&j| {
                needle.lines[j].as_ref().trim_end() != text.line(spans[0].first + j).trim_end()
            })
            .map(|j| format!(" (first on line {})", spans[0].first + j + 1))
            .unwrap_or_default();
        format!("Matched {label} ignoring the length of runs of spaces inside lines{differing}.")
    } else {
        let differing = (0..needle.len())
            .find(|&j| {
                let n = needle.lines[j].as_ref();
                let f = text.line(spans[0].first + j);
                n != f && n.trim_end() == f.trim_end()
            })
            .map(|j| format!(" (it differs on line {})", spans[0].first + j + 1))
            .unwrap_or_default();
        format!("Matched {label} ignoring trailing whitespace{differing}.")
    };
    Answer::Matched(candidates, Some(note))
}

/// The indentation level's candidates, and descriptions of spans refused for
/// inconsistent indentation.
fn indented(
    text: &Text,
    needle: &Needle,
    spans: Vec<Span>,
    numbering: Option<numbers::Numbering>,
) -> (Vec<Candidate>, Vec<String>) {
    let (merges, refused) = indent_merges(text, needle, spans, numbering);
    (into_candidates(settle(merges)), refused)
}

fn indent_merges(
    text: &Text,
    needle: &Needle,
    spans: Vec<Span>,
    numbering: Option<numbers::Numbering>,
) -> (Vec<(Span, Merge)>, Vec<String>) {
    let mut out = Vec::new();
    let mut refused = Vec::new();
    let unit = OnceCell::new();
    for mut span in spans {
        let mut map = indent_map(text, needle, &span, span.first_partial(text), &unit);
        if map.is_none() && !span.first_partial(text) && lead(&needle.lines[0]).is_empty() {
            // The request may start at the first line's first word, like a copy that
            // began after the indentation: the first line then keeps its own.
            let skip = lead(text.line(span.first)).len();
            if skip > 0 && needle.shape(0) != Shape::Full {
                map = indent_map(text, needle, &span, true, &unit);
                if map.is_some() {
                    span.range.start = content_start(text, span.first) + skip;
                }
            }
        }
        match map {
            Some(map) => {
                let via = if numbering.is_some() {
                    Via::LineNumbers
                } else {
                    Via::Indentation
                };
                let mut m = merge_for(text, needle, &span, via);
                m.indent = Some(map);
                m.numbering = numbering;
                out.push((span, m));
            }
            None => {
                if refused.is_empty() {
                    refused.push(inconsistent(text, needle, &span));
                }
            }
        }
    }
    (out, refused)
}

/// The file's indentation unit, read once per call.
fn file_unit(text: &Text, unit: &OnceCell<Option<Unit>>) -> Option<Unit> {
    *unit.get_or_init(|| Unit::of_file((0..text.line_count()).map(|i| text.line(i))))
}

/// The indentation rule between the request and the span, skipping the first line
/// when the match starts inside it.
fn indent_map(
    text: &Text,
    needle: &Needle,
    span: &Span,
    skip_first: bool,
    unit: &OnceCell<Option<Unit>>,
) -> Option<IndentMap> {
    let pairs: Vec<(&str, &str)> = (0..needle.len())
        .filter(|&j| !(j == 0 && skip_first))
        .filter_map(|j| {
            let n = needle.lines[j].as_ref();
            let f = text.line(span.first + j);
            (!n.trim().is_empty() && !f.trim().is_empty()).then(|| (lead(n), lead(f)))
        })
        .collect();
    IndentMap::derive_in(&pairs, || file_unit(text, unit))
}

fn inconsistent(text: &Text, needle: &Needle, span: &Span) -> String {
    let shown: Vec<String> = (0..needle.len())
        .filter_map(|j| {
            let n = needle.lines[j].as_ref();
            let f = text.line(span.first + j);
            (!n.trim().is_empty() && lead(n) != lead(f)).then(|| {
                let show = |ws: &str| {
                    if ws.is_empty() {
                        "none".to_string()
                    } else {
                        format!("`{}`", visible(ws))
                    }
                };
                format!(
                    "line {}: {} in the request, {} in the file",
                    span.first + j + 1,
                    show(lead(n)),
                    show(lead(f))
                )
            })
        })
        .take(3)
        .collect();
    format!(
        "Lines {}-{} match except for indentation, but it does not differ by one consistent amount ({}), so the text was not re-indented.",
        span.first + 1,
        span.first + span.lines,
        shown.join("; ")
    )
}

/// The merge for one span of `needle`, without corrections.
fn merge_for(text: &Text, needle: &Needle, span: &Span, via: Via) -> Merge {
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
fn segment_for(text: &Text, needle: &Needle, span: &Span) -> Segment {
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
fn line_pairs<'t>(text: &Text<'t>, m: &Merge) -> Vec<(String, &'t str, usize)> {
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

/// The whole span and merge of an elided chain at `key`, if its indentation is
/// consistent.
fn elided(text: &Text, parts: &elision::Parts, chain: &[Span], key: Key) -> Option<(Span, Merge)> {
    let first = chain.first()?;
    let last = chain.last()?;
    let mut segments = Vec::new();
    let mut elided_ranges = Vec::new();
    let mut elided_lines = 0;
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for (s, (span, needle)) in chain.iter().zip(&parts.segments).enumerate() {
        if s > 0 {
            let prev = &chain[s - 1];
            let from = prev.first + prev.lines;
            elided_ranges.push(text.line_start(from)..text.line_start(span.first));
            elided_lines += span.first - from;
        }
        segments.push(segment_for(text, needle, span));
        for j in 0..needle.len() {
            if s == 0 && j == 0 && first.first_partial(text) {
                continue;
            }
            let n = needle.lines[j].as_ref();
            let f = text.line(span.first + j);
            if !n.trim().is_empty() && !f.trim().is_empty() {
                pairs.push((lead(n), lead(f)));
            }
        }
    }
    let indent = if key == Key::Trim {
        Some(IndentMap::derive_in(&pairs, || {
            file_unit(text, &OnceCell::new())
        })?)
    } else {
        None
    };
    let last_line = last.first + last.lines - 1;
    let tail = parts.segments.last()?;
    let merge = Merge {
        via: Via::Elision,
        segments,
        elided: elided_ranges,
        markers: parts.markers.clone(),
        elided_lines,
        gaps: Vec::new(),
        first_partial: first.first_partial(text),
        at_eof_without_newline: tail.terminated
            && !text.line_with_ending(last_line).ends_with('\n'),
        ending: text.ending_near(first.first),
        numbering: None,
        indent,
        escapes: None,
        typography: None,
        lines: (first.first + 1, last_line + 1),
    };
    let span = Span {
        first: first.first,
        lines: last_line + 1 - first.first,
        range: first.range.start..last.range.end,
    };
    Some((span, merge))
}

fn candidate(span: &Span, m: Merge) -> Candidate {
    Candidate {
        range: span.range.clone(),
        via: m.via,
        fix: Fix::Merge(Arc::new(m)),
    }
}

fn into_candidates(merges: Vec<(Span, Merge)>) -> Vec<Candidate> {
    merges.into_iter().map(|(s, m)| candidate(&s, m)).collect()
}

/// The level that found `candidates` decides: they are the result.
fn decided(candidates: Vec<Candidate>, mut found: Found) -> Found {
    if let Some(via) = candidates.first().map(|c| c.via) {
        if found.tried.last() != Some(&via) {
            found.tried.push(via);
        }
    }
    found.candidates = candidates;
    found
}

fn span_label(s: &Span) -> String {
    if s.lines <= 1 {
        format!("line {}", s.first + 1)
    } else {
        format!("lines {}-{}", s.first + 1, s.first + s.lines)
    }
}

fn lines_label(text: &Text, c: &Candidate) -> String {
    words::lines_label(c.first_line(text), c.last_line(text))
}

fn elided_label(text: &Text, m: &Merge) -> String {
    m.elided
        .iter()
        .filter(|r| !r.is_empty())
        .map(|r| words::lines_label(text.line_of(r.start), text.line_of(r.end - 1)))
        .collect::<Vec<_>>()
        .join(", ")
}
