//! The `escaping` level: backslash-run lengths, when they pair consistently (see
//! `locate::escapes`). New text gets its backslashes corrected the same way.

use super::{into_candidates, line_pairs, merge_for, span_label, spans_at, Answer, Input};
use crate::locate::escapes::{self, Escapes};
use crate::locate::fold::Key;
use crate::locate::merge::Merge;
use crate::locate::needle::{settle, Span};
use crate::locate::Via;

/// Whether the request or the scope has a backslash.
pub fn applies(input: &Input) -> bool {
    input.raw.contains('\\') || input.text.has_backslash_in(input.scope.range.clone())
}

/// Backslash-run lengths, when they pair consistently.
pub fn level(input: &Input) -> Answer {
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

/// The level's windows the slow way: every window of lines compared with backslash
/// runs folded (the pairing check is the level's own).
#[cfg(test)]
pub fn reference(
    text: &crate::text::Text,
    needle: &crate::locate::needle::Needle,
    scope: &crate::locate::Scope,
) -> Vec<(usize, usize)> {
    super::reference_by_key(text, needle, scope, Key::Escapes, |_| true)
}
