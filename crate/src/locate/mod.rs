//! Finding the place: scopes, the matching cascade, and choosing among candidates.
//!
//! Every tool that edits "the place where this text is" goes through here, in three
//! steps that each have one job:
//!
//! 1. [`scope`] turns landmarks (`after_hint`, `between_hint`, `function_hint`) into the
//!    byte range the search may look at. A landmark that is missing is a refusal
//!    (`scope_not_found`), never a silent widening.
//! 2. [`find`] looks for the needle inside the scope: byte-exact first, then (unless
//!    `strict`) the tolerant levels of the cascade. The first level that finds anything
//!    decides; every candidate carries how it matched and how to turn the caller's
//!    replacement into the bytes to write at that place.
//! 3. [`select`] applies `occurrence`, `line_hint`, `replace_all` and
//!    `expected_replacements`: exactly one candidate (or all, when asked), or a refusal
//!    that lists every candidate line.

pub mod scope;
pub mod select;

pub use scope::Scope;
pub use select::{select, Selection};

use crate::error::EditResult;
use crate::text::{with_ending, Text};
use std::ops::Range;

/// How a candidate was found: the value of `matched_via` in results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Via {
    Exact,
}

impl Via {
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Exact => "exact",
        }
    }
}

/// How to turn the caller's replacement text into the bytes written at a candidate.
#[derive(Clone, Debug, PartialEq)]
pub enum Fix {
    /// Write the replacement as given, with line breaks in the file's ending there.
    Literal,
}

/// One place where the needle matched.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Bytes of the file the match covers.
    pub range: Range<usize>,
    pub via: Via,
    pub fix: Fix,
}

impl Candidate {
    /// 0-based first line of the match.
    pub fn first_line(&self, text: &Text) -> usize {
        text.line_of(self.range.start)
    }

    /// 0-based last line of the match (the line holding its last byte).
    pub fn last_line(&self, text: &Text) -> usize {
        if self.range.end > self.range.start {
            text.line_of(self.range.end - 1)
        } else {
            self.first_line(text)
        }
    }

    /// The bytes to write in place of this match for the caller's `replacement`.
    pub fn render(&self, text: &Text, replacement: &str) -> EditResult<String> {
        match self.fix {
            Fix::Literal => Ok(in_file_ending(text, self.first_line(text), replacement)),
        }
    }
}

/// The outcome of a search: the level that matched and its candidates (empty: none).
#[derive(Debug, Default)]
pub struct Found {
    pub candidates: Vec<Candidate>,
    /// Notes on what the matching level corrected, for `warnings`.
    pub notes: Vec<String>,
}

impl Found {
    pub fn via(&self) -> Option<Via> {
        self.candidates.first().map(|c| c.via)
    }
}

/// Looks for `needle` inside `scope`: byte-exact, non-overlapping, in order.
pub fn find(text: &Text, needle: &str, scope: &Scope, _strict: bool) -> Found {
    Found {
        candidates: find_exact(text, needle, scope),
        notes: Vec::new(),
    }
}

/// Every byte-exact, non-overlapping occurrence of `needle` inside `scope`.
pub fn find_exact(text: &Text, needle: &str, scope: &Scope) -> Vec<Candidate> {
    if needle.is_empty() {
        return Vec::new();
    }
    let hay = &text.as_str().as_bytes()[scope.range.clone()];
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = finder.find(&hay[at..]) {
        let start = scope.range.start + at + i;
        out.push(Candidate {
            range: start..start + needle.len(),
            via: Via::Exact,
            fix: Fix::Literal,
        });
        at += i + needle.len();
    }
    out
}

/// `s` with its line breaks written the way the file writes them near 0-based `line`.
pub fn in_file_ending(text: &Text, line: usize, s: &str) -> String {
    if !s.contains('\n') {
        return s.to_string();
    }
    with_ending(s, text.ending_near(line))
}
