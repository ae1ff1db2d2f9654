//! The `indentation` level: leading whitespace, when it differs by one consistent rule
//! (see `locate::indent`). New lines are re-indented by that rule.

use super::{into_candidates, lines_label, merge_for, spans_at, Answer, Input};
use crate::locate::fold::Key;
use crate::locate::indent::{lead, IndentMap, Unit};
use crate::locate::merge::Merge;
use crate::locate::needle::{content_start, settle, Needle, Shape, Span};
use crate::locate::numbers;
use crate::locate::{Candidate, Fix, Via};
use crate::text::words::visible;
use crate::text::Text;
use std::cell::OnceCell;

/// Always tried.
pub fn applies(_input: &Input) -> bool {
    true
}

/// Leading whitespace, when it differs by one consistent rule.
pub fn level(input: &Input) -> Answer {
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

/// The indentation level's candidates, and descriptions of spans refused for
/// inconsistent indentation.
pub(super) fn indented(
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
pub fn file_unit(text: &Text, unit: &OnceCell<Option<Unit>>) -> Option<Unit> {
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

/// The level the slow way: every window of lines compared without indentation, kept
/// when one rule relates the request's indentation to the file's.
#[cfg(test)]
pub fn reference(
    text: &crate::text::Text,
    needle: &crate::locate::needle::Needle,
    scope: &crate::locate::Scope,
) -> Vec<(usize, usize)> {
    super::reference_by_key(text, needle, scope, Key::Trim, |first| {
        let pairs: Vec<(&str, &str)> = (0..needle.len())
            .filter_map(|j| {
                let (n, f) = (needle.lines[j].as_ref(), text.line(first + j));
                (!n.trim().is_empty() && !f.trim().is_empty()).then(|| (lead(n), lead(f)))
            })
            .collect();
        let unit = OnceCell::new();
        IndentMap::derive_in(&pairs, || file_unit(text, &unit)).is_some()
    })
}
