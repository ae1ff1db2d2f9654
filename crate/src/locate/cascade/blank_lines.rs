//! The `blank_lines` level: how many blank lines stand between lines with content
//! (the matching and its reference: `locate::blank_lines`).

use super::{into_candidates, span_label, Answer, Input};
use crate::locate::blank_lines;
use crate::locate::needle::settle;

/// Two lines with content or more.
pub fn applies(input: &Input) -> bool {
    blank_lines::applies(input.needle)
}

/// The number of blank lines between lines.
pub fn level(input: &Input) -> Answer {
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
