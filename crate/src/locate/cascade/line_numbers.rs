//! The `line_numbers` level: a numbered read's prefixes on every line (detected by
//! `locate::numbers`), then the line endings, trailing whitespace and indentation
//! levels on what remains. Prefixes are removed from new text too.

use super::indentation::indented;
use super::{into_candidates, lines_label, merge_for, spans_at, Answer, Input};
use crate::locate::fold::Key;
use crate::locate::needle::{settle, Needle};
use crate::locate::numbers;
use crate::locate::Via;

/// Whether every line of the request carries a prefix of one numbering style.
pub fn applies(input: &Input) -> bool {
    numbers::detect_in(&input.needle.texts(), input.text, input.line_hint).is_some()
}

/// A numbered read's prefixes on every line, then the three levels before.
pub fn level(input: &Input) -> Answer {
    let (text, needle) = (input.text, input.needle);
    let texts = needle.texts();
    let Some(numbering) = numbers::detect_in(&texts, text, input.line_hint) else {
        return Answer::Missed(Vec::new());
    };
    // Numbered only because the number is the line_hint (line N of the file is not
    // the line): the lines moved since the read, so the stripped line must be unique.
    let by_hint_only = numbers::detect_in(&texts, text, None).is_none();
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
        if by_hint_only && candidates.len() > 1 {
            return Answer::Missed(vec![format!(
                "Without its line-number prefix ({numbering}, agreeing with line_hint) the line occurs {} times; line {} of the file is not that line, so the prefix alone does not say which. Send more lines around it.",
                candidates.len(),
                numbering.first
            )]);
        }
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

/// The level the slow way: the request without its prefixes, every window of lines
/// compared exactly, without trailing blanks, or without indentation (kept when one
/// rule relates the indentation), the first of these that finds any.
#[cfg(test)]
pub fn reference(
    text: &crate::text::Text,
    needle: &Needle,
    scope: &crate::locate::Scope,
) -> Vec<(usize, usize)> {
    let texts = needle.texts();
    let Some(numbering) = numbers::detect_in(&texts, text, None) else {
        return Vec::new();
    };
    let stripped = Needle {
        lines: numbering.strip_all(&texts).0,
        terminated: needle.terminated,
        starts_line: false,
    };
    for key in [Key::Lines, Key::TrimEnd] {
        let found = super::reference_by_key(text, &stripped, scope, key, |_| true);
        if !found.is_empty() {
            return found;
        }
    }
    super::indentation::reference(text, &stripped, scope)
}
