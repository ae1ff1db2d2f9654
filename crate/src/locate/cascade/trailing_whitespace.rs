//! The `trailing_whitespace` level: blanks at line ends. Kept lines keep the file's.

use super::{lines_label, plain, Answer, Input};
use crate::locate::fold::Key;
use crate::locate::Via;

/// Always tried.
pub fn applies(_input: &Input) -> bool {
    true
}

/// Every match ignoring trailing whitespace.
pub fn level(input: &Input) -> Answer {
    let Some((spans, candidates)) = plain(input, Key::TrimEnd, Via::TrailingWhitespace) else {
        return Answer::Missed(Vec::new());
    };
    let (text, needle) = (input.text, input.needle);
    let differing = (0..needle.len())
        .find(|&j| {
            let n = needle.lines[j].as_ref();
            let f = text.line(spans[0].first + j);
            n != f && n.trim_end() == f.trim_end()
        })
        .map(|j| format!(" (it differs on line {})", spans[0].first + j + 1))
        .unwrap_or_default();
    let note = format!(
        "Matched {} ignoring trailing whitespace{differing}.",
        lines_label(text, &candidates[0])
    );
    Answer::Matched(candidates, Some(note))
}

/// The level the slow way: every window of lines compared without trailing blanks.
#[cfg(test)]
pub fn reference(
    text: &crate::text::Text,
    needle: &crate::locate::needle::Needle,
    scope: &crate::locate::Scope,
) -> Vec<(usize, usize)> {
    super::reference_by_key(text, needle, scope, Key::TrimEnd, |_| true)
}
