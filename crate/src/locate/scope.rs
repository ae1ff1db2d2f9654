//! Scopes: the part of a file a search may look at, from landmarks the caller gives.
//!
//! `after_hint` starts the scope on the line after the first line containing it;
//! `between_hint {start, end}` keeps the lines strictly between the first line
//! containing `start` and the next line after it containing `end`; `function_hint`
//! keeps the lines of one function (from the blocks module). Hints combine by
//! intersection. A landmark that cannot be found is refused with `scope_not_found`:
//! searching the whole file instead could edit a place the caller ruled out.

use crate::args::Args;
use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::Text;
use std::ops::Range;

/// A byte range of the text, on whole lines, and how it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Scope {
    pub range: Range<usize>,
    /// For messages: "lines 12-40 (after_hint)"; None for the whole file.
    pub label: Option<String>,
}

impl Scope {
    pub fn whole(text: &Text) -> Scope {
        Scope {
            range: 0..text.len(),
            label: None,
        }
    }

    /// 0-based lines `first..=last`; an empty scope when `first > last`.
    pub fn lines(text: &Text, first: usize, last: usize, why: &str) -> Scope {
        let range = if first > last || first >= text.line_count() {
            let at = text.line_start(first.min(text.line_count()));
            at..at
        } else {
            text.lines_range(first, last.min(text.line_count() - 1))
        };
        Scope {
            range,
            label: Some(format!("lines {}-{} ({why})", first + 1, last + 1)),
        }
    }

    pub fn is_whole(&self) -> bool {
        self.label.is_none()
    }

    /// " in lines 12-40 (after_hint)" or "" — for messages.
    pub fn describe(&self) -> String {
        match &self.label {
            Some(l) => format!(" in {l}"),
            None => String::new(),
        }
    }

    /// 0-based first and last lines covered (first > last when empty).
    pub fn line_span(&self, text: &Text) -> (usize, usize) {
        let first = text.line_of(self.range.start);
        if self.range.is_empty() {
            return (first, first.wrapping_sub(1));
        }
        (first, text.line_of(self.range.end - 1))
    }

    pub fn intersect(self, other: Scope) -> Scope {
        let start = self.range.start.max(other.range.start);
        let end = self.range.end.min(other.range.end).max(start);
        let label = match (self.label, other.label) {
            (Some(a), Some(b)) => Some(format!("{a} ∩ {b}")),
            (a, b) => a.or(b),
        };
        Scope {
            range: start..end,
            label,
        }
    }
}

/// The scope the call's hints allow (the whole file when none is given).
pub fn resolve(text: &Text, args: &Args, path: &str) -> EditResult<Scope> {
    let mut scope = Scope::whole(text);
    if let Some(hint) = args.opt_str("after_hint") {
        let line = first_line_containing(text, hint, 0)
            .ok_or_else(|| landmark_missing(path, "after_hint", hint, "after_hint"))?;
        let last = text.line_count().saturating_sub(1);
        scope = scope.intersect(Scope::lines(
            text,
            line + 1,
            last,
            &format!("after line {}, after_hint", line + 1),
        ));
    }
    if let Some((start, end)) = args.pair("between_hint") {
        let s = first_line_containing(text, start, 0)
            .ok_or_else(|| landmark_missing(path, "between_hint.start", start, "between_hint"))?;
        let e = first_line_containing(text, end, s + 1).ok_or_else(|| {
            EditError::new(
                ErrorKind::ScopeNotFound,
                format!(
                    "between_hint.end {end:?} does not occur after line {} (where between_hint.start was found) in {path}. Send an end landmark copied from a line below line {}, or drop between_hint.",
                    s + 1,
                    s + 1
                ),
            )
        })?;
        scope = scope.intersect(Scope::lines(
            text,
            s + 1,
            e.saturating_sub(1),
            &format!("between lines {} and {}, between_hint", s + 1, e + 1),
        ));
    }
    if let Some(name) = args.opt_str("function_hint") {
        scope = scope.intersect(crate::tools::function_scope(text, args, path, name)?);
    }
    Ok(scope)
}

/// 0-based index of the first line at or after `from` that contains `needle`.
pub fn first_line_containing(text: &Text, needle: &str, from: usize) -> Option<usize> {
    if needle.is_empty() || from >= text.line_count() {
        return None;
    }
    let start = text.line_start(from);
    let hay = &text.as_str()[start..];
    // A landmark copied with its line break still names that line.
    let needle = needle.trim_end_matches(['\n', '\r']);
    if needle.is_empty() {
        return None;
    }
    memchr::memmem::find(hay.as_bytes(), needle.as_bytes()).map(|i| text.line_of(start + i))
}

fn landmark_missing(path: &str, what: &str, needle: &str, arg: &str) -> EditError {
    EditError::new(
        ErrorKind::ScopeNotFound,
        format!(
            "{what} {needle:?} does not occur in {path}. Send {arg} with text copied from a line of the file (grep_file {{path: \"{path}\", pattern: \"…\"}} finds it), or drop {arg}."
        ),
    )
}
