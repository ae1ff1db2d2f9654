//! Elided middles: a request with a line that only says "…" (`...`, `// ...`,
//! `# ... existing code ...`) in place of lines it did not quote.
//!
//! The marker lines cut the request into parts. Elision is a unique chain (issue 25,
//! rule 3):
//! - the first part (the head) must occur once in the scope;
//! - each later part is taken at its only occurrence after the previous part, within
//!   the head's enclosing definition ([`region`]), or the scope when the head is a
//!   top-level line that opens nothing; a part occurring twice there gives two chains,
//!   so the call is `ambiguous` (never the first of them);
//! - the elided lines are written back byte for byte, whatever brackets they open or
//!   close: a `def` whose parameter list closes in the elided part, a docstring that
//!   starts in the head.
//!
//! The region keeps a chain from swallowing the end of one definition and the start
//! of the next. It is read from indentation alone (the cascade does not know the
//! language): the definition is the head's first line when the next line with content
//! is indented deeper (the head opens it), else the nearest line above the head
//! indented less than it; it runs through the lines indented deeper than it and the
//! lines at its own indentation that continue it (`}`, `)`, `]`, `{`, `where`, `else`,
//! `elif`, `except`, `finally`, `catch`).
//!
//! [`reference`] is the same rule written the slow way: every ordered choice of
//! occurrences, compared by the property test in `tests`.

use super::fold::Key;
use super::index::LineIndex;
use super::needle::{verify, Needle, Span};
use super::Scope;
use crate::text::Text;
use std::borrow::Cow;

/// Most chains collected (enough to report an ambiguity).
const MAX_CHAINS: usize = 100;

/// A request cut at its marker lines.
pub struct Parts<'a> {
    pub segments: Vec<Needle<'a>>,
    /// Each marker line, trimmed.
    pub markers: Vec<String>,
}

/// The request's parts, when it has marker lines with something on both sides of each.
pub fn split<'a>(needle: &Needle<'a>) -> Option<Parts<'a>> {
    let texts = needle.texts();
    let marks = crate::text::placeholder::placeholder_lines(&texts, &[]);
    if marks.is_empty() {
        return None;
    }
    let mut segments = Vec::new();
    let mut markers = Vec::new();
    let mut from = 0;
    for (n, &k) in marks
        .iter()
        .chain(std::iter::once(&needle.len()))
        .enumerate()
    {
        let lines: Vec<Cow<'a, str>> = needle.lines.get(from..k)?.to_vec();
        if !lines.iter().any(|l| !l.trim().is_empty()) {
            return None;
        }
        let last = k == needle.len();
        segments.push(Needle {
            lines,
            terminated: if last { needle.terminated } else { true },
            starts_line: n > 0,
        });
        if !last {
            markers.push(needle.lines[k].trim().to_string());
        }
        from = k + 1;
    }
    Some(Parts { segments, markers })
}

/// Why chains were refused, for the no_match message.
#[derive(Default)]
pub struct Refusals {
    /// The head was found but a later part was not, after the previous part within
    /// the head's definition: that region (1-based lines).
    pub outside_region: Option<(usize, usize)>,
    /// The parts give more than [`MAX_CHAINS`] chains.
    pub too_many: bool,
    /// The first part occurs more than once: its 1-based lines.
    pub first_part_at: Vec<usize>,
}

/// Every occurrence of `seg` at `key` whose first line is within `lines` (inclusive),
/// in order (overlapping ones included: each is a possible chain). A part may run on
/// past the region: its lines are quoted, only the elided lines must lie inside.
fn occurrences(
    text: &Text,
    index: &LineIndex<'_>,
    scope: &Scope,
    seg: &Needle,
    key: Key,
    lines: (usize, usize),
) -> Vec<Span> {
    let mut spans: Vec<Span> = index
        .windows(text, scope, seg)
        .into_iter()
        .filter(|&i| i >= lines.0 && i <= lines.1)
        .flat_map(|i| verify(text, seg, i, key))
        .collect();
    spans.sort_by_key(|s| (s.range.start, s.range.end));
    spans.dedup();
    spans
}

/// Every unique chain of spans (one per part), at `key`: the head once in the scope,
/// each later part after the previous one within the head's region.
pub fn chains(
    text: &Text,
    index: &LineIndex<'_>,
    scope: &Scope,
    parts: &Parts,
    key: Key,
    refusals: &mut Refusals,
) -> Vec<Vec<Span>> {
    let (lo, hi) = scope.line_span(text);
    let hi = hi.min(text.line_count().saturating_sub(1));
    let Some(head_seg) = parts.segments.first() else {
        return Vec::new();
    };
    let heads = occurrences(text, index, scope, head_seg, key, (lo, hi));
    if heads.len() > 1 {
        refusals.first_part_at = heads.iter().map(|s| s.first + 1).collect();
        return Vec::new();
    }
    let Some(head) = heads.into_iter().next() else {
        return Vec::new();
    };
    let within = region(text, &head, (lo, hi));
    let mut per_part: Vec<Vec<Span>> = parts.segments[1..]
        .iter()
        .map(|seg| occurrences(text, index, scope, seg, key, within))
        .collect();
    // Only occurrences some chain can complete: every branch the walk takes then ends
    // in a chain, so it stops after MAX_CHAINS of them whatever the parts' counts.
    for s in (0..per_part.len().saturating_sub(1)).rev() {
        let latest = per_part[s + 1].iter().map(|x| x.first).max();
        per_part[s].retain(|sp| latest.is_some_and(|l| l >= sp.first + sp.lines));
    }
    let mut out = Vec::new();
    extend(&per_part, &mut vec![head], &mut out, refusals);
    if refusals.too_many {
        return Vec::new();
    }
    if out.is_empty() {
        refusals
            .outside_region
            .get_or_insert((within.0 + 1, within.1 + 1));
    }
    out
}

/// Every chain continuing `chain` with one occurrence of each later part after the
/// previous one.
fn extend(
    per_part: &[Vec<Span>],
    chain: &mut Vec<Span>,
    out: &mut Vec<Vec<Span>>,
    refusals: &mut Refusals,
) {
    let s = chain.len() - 1;
    if s == per_part.len() {
        if out.len() >= MAX_CHAINS {
            refusals.too_many = true;
        } else {
            out.push(chain.clone());
        }
        return;
    }
    let prev_last = chain.last().map_or(0, |p| p.first + p.lines - 1);
    let after = per_part[s].partition_point(|span| span.first <= prev_last);
    for span in &per_part[s][after..] {
        if refusals.too_many {
            return;
        }
        chain.push(span.clone());
        extend(per_part, chain, out, refusals);
        chain.pop();
    }
}

/// The lines (0-based, inclusive, within `lo..=hi`) a chain headed by `head` may take
/// its later parts from: the head's enclosing definition, or everything after the
/// head when the head is a top-level line that opens nothing.
pub fn region(text: &Text, head: &Span, (lo, hi): (usize, usize)) -> (usize, usize) {
    let content = |i: usize| !text.line(i).trim().is_empty();
    let Some(h) = (head.first..head.first + head.lines).find(|&i| content(i)) else {
        return (head.first, hi);
    };
    let w = width(text.line(h));
    let next = (h + 1..=hi).find(|&i| content(i));
    let anchor = if next.is_some_and(|i| width(text.line(i)) > w) {
        Some(h)
    } else {
        (lo..h)
            .rev()
            .find(|&i| content(i) && width(text.line(i)) < w)
    };
    let Some(anchor) = anchor else {
        return (head.first, hi);
    };
    let aw = width(text.line(anchor));
    let end = (anchor + 1..=hi)
        .find(|&i| {
            let line = text.line(i);
            content(i) && (width(line) < aw || (width(line) == aw && !continues(line)))
        })
        .map_or(hi, |i| i - 1);
    (head.first, end.max(head.first + head.lines - 1).min(hi))
}

/// Whether a line at a definition's own indentation continues it.
fn continues(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with(['}', ')', ']', '{'])
        || ["where", "else", "elif", "except", "finally", "catch"]
            .iter()
            .any(|k| {
                t.strip_prefix(k)
                    .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            })
}

/// The rule the slow way: every ordered choice of one verified position per part
/// (the head unique in the scope, the others after it within its region). Each
/// chain as the first line of each part.
#[cfg(test)]
pub fn reference(text: &Text, scope: &Scope, parts: &Parts, key: Key) -> Vec<Vec<usize>> {
    let (lo, hi) = scope.line_span(text);
    let hi = hi.min(text.line_count().saturating_sub(1));
    let at = |seg: &Needle, (a, b): (usize, usize)| -> Vec<Span> {
        (a..=b)
            .filter(|&i| i + seg.len() <= hi + 1)
            .flat_map(|i| verify(text, seg, i, key))
            .collect()
    };
    let heads = at(&parts.segments[0], (lo, hi));
    let [head] = heads.as_slice() else {
        return Vec::new();
    };
    let within = region(text, head, (lo, hi));
    let mut chains: Vec<Vec<Span>> = vec![vec![head.clone()]];
    for seg in &parts.segments[1..] {
        let spans = at(seg, within);
        chains = chains
            .into_iter()
            .flat_map(|c| {
                let last = c.last().map_or(0, |p| p.first + p.lines - 1);
                spans
                    .iter()
                    .filter(|s| s.first > last)
                    .map(|s| {
                        let mut c = c.clone();
                        c.push(s.clone());
                        c
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    chains
        .into_iter()
        .map(|c| c.iter().map(|s| s.first).collect())
        .collect()
}

/// Columns of a line's indentation (a tab counts 4).
fn width(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

#[cfg(test)]
mod tests;
