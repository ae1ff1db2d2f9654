//! The `typography` level: curly quotes, dashes, `…`, Unicode spaces (see
//! `locate::typography`). Changed lines get the file's characters.

use super::{into_candidates, line_pairs, merge_for, span_label, spans_at, Answer, Input};
use crate::locate::fold::Key;
use crate::locate::merge::Merge;
use crate::locate::needle::{settle, Span};
use crate::locate::typography::{dashes_agree, TypoTable};
use crate::locate::Via;

/// Whether the request or the scope has a character beyond ASCII.
pub fn applies(input: &Input) -> bool {
    !input.raw.is_ascii() || !input.text.is_ascii_in(input.scope.range.clone())
}

/// Curly quotes, dashes, `…`, Unicode spaces.
pub fn level(input: &Input) -> Answer {
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

/// The level the slow way: every window of lines compared with typographic characters
/// folded, kept when the dashes agree.
#[cfg(test)]
pub fn reference(
    text: &crate::text::Text,
    needle: &crate::locate::needle::Needle,
    scope: &crate::locate::Scope,
) -> Vec<(usize, usize)> {
    super::reference_by_key(text, needle, scope, Key::TypographyDashes, |first| {
        let lines: Vec<(&str, &str)> = (0..needle.len())
            .map(|j| (needle.lines[j].as_ref(), text.line(first + j)))
            .collect();
        dashes_agree(&lines)
    })
}
