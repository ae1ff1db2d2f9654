//! The `inner_whitespace` level: the length of runs of spaces and tabs inside lines.
//! Kept lines keep the file's alignment.

use super::{lines_label, plain, Answer, Input};
use crate::locate::fold::{has_inner_run, Key};
use crate::locate::Via;

/// Whether a line of the request or the scope holds a run this level folds.
pub fn applies(input: &Input) -> bool {
    has_run(input.raw.as_bytes())
        || match input.scope.range == (0..input.text.len()) {
            // Once per string: a kept text met again does not read its lines again.
            true => input
                .text
                .whole_text_fact("inner_run", |t| has_run(t.as_bytes())),
            false => has_run(input.scope_bytes),
        }
}

fn has_run(bytes: &[u8]) -> bool {
    bytes
        .split(|&b| b == b'\n')
        .any(|line| std::str::from_utf8(line).is_ok_and(has_inner_run))
}

/// Every match ignoring the length of inner runs of spaces.
pub fn level(input: &Input) -> Answer {
    let Some((spans, candidates)) = plain(input, Key::InnerSpaces, Via::InnerWhitespace) else {
        return Answer::Missed(Vec::new());
    };
    let (text, needle) = (input.text, input.needle);
    let differing = (0..needle.len())
        .find(|&j| needle.lines[j].as_ref().trim_end() != text.line(spans[0].first + j).trim_end())
        .map(|j| format!(" (first on line {})", spans[0].first + j + 1))
        .unwrap_or_default();
    let note = format!(
        "Matched {} ignoring the length of runs of spaces inside lines{differing}.",
        lines_label(text, &candidates[0])
    );
    Answer::Matched(candidates, Some(note))
}

/// The level the slow way: every window of lines compared with inner runs folded.
#[cfg(test)]
pub fn reference(
    text: &crate::text::Text,
    needle: &crate::locate::needle::Needle,
    scope: &crate::locate::Scope,
) -> Vec<(usize, usize)> {
    super::reference_by_key(text, needle, scope, Key::InnerSpaces, |_| true)
}
