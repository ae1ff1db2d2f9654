//! The `elision` level: marker lines standing for unquoted lines, by a unique chain
//! in the head's definition (the chains and their reference: `locate::elision`). The
//! elided lines are written back.

use super::indentation::file_unit;
use super::{into_candidates, segment_for, span_label, Answer, Input};
use crate::locate::elision::{self, Refusals};
use crate::locate::fold::Key;
use crate::locate::indent::{lead, IndentMap};
use crate::locate::merge::Merge;
use crate::locate::needle::Span;
use crate::locate::Via;
use crate::text::words;
use crate::text::Text;
use std::cell::OnceCell;

/// Whether the request has marker lines with something on both sides of each.
pub fn applies(input: &Input) -> bool {
    elision::split(input.needle).is_some()
}

/// A marker line standing for unquoted lines: a unique chain in the head's definition.
pub fn level(input: &Input) -> Answer {
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

fn elided_label(text: &Text, m: &Merge) -> String {
    m.elided
        .iter()
        .filter(|r| !r.is_empty())
        .map(|r| words::lines_label(text.line_of(r.start), text.line_of(r.end - 1)))
        .collect::<Vec<_>>()
        .join(", ")
}
