//! The `line_endings` level: CRLF against LF. New text gets the file's line endings.

use super::{lines_label, plain, Answer, Input};
use crate::locate::fold::Key;
use crate::locate::Via;
use crate::text::LineEnding;

/// Whether the request or the file has a `\r` (else the exact search decided).
pub fn applies(input: &Input) -> bool {
    let text = input.text;
    input.raw.contains('\r') || text.ending() == LineEnding::CrLf || text.has_mixed_endings()
}

/// Every match ignoring line endings.
pub fn level(input: &Input) -> Answer {
    let Some((spans, candidates)) = plain(input, Key::Lines, Via::LineEndings) else {
        return Answer::Missed(Vec::new());
    };
    let text = input.text;
    let request = if input.raw.contains("\r\n") {
        "CRLF"
    } else {
        "LF"
    };
    let note = format!(
        "Matched {} ignoring line endings: the request has {request}, the file {} there.",
        lines_label(text, &candidates[0]),
        text.ending_near(spans[0].first).name()
    );
    Answer::Matched(candidates, Some(note))
}

/// The level the slow way: every window of lines compared without line endings.
#[cfg(test)]
pub fn reference(
    text: &crate::text::Text,
    needle: &crate::locate::needle::Needle,
    scope: &crate::locate::Scope,
) -> Vec<(usize, usize)> {
    super::reference_by_key(text, needle, scope, Key::Lines, |_| true)
}
