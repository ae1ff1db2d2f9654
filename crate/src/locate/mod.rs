//! Finding the place: scopes, the matching cascade, and choosing among candidates.
//!
//! Every tool that edits "the place where this text is" goes through here, in three
//! steps that each have one job:
//!
//! 1. [`scope`] turns landmarks (`after_hint`, `between_hint`, `function_hint`) into the
//!    byte range the search may look at. A landmark that is missing is a refusal
//!    (`scope_not_found`), never a silent widening.
//! 2. [`find`] looks for the needle inside the scope: byte-exact first, then (unless
//!    `strict`) the tolerant levels of the cascade, in order: line endings, trailing
//!    whitespace, indentation, line-number prefixes, escaping, typographic characters,
//!    elided middles. The first level that finds anything decides; every candidate
//!    carries how it matched and how to turn the caller's replacement into the bytes to
//!    write at that place. A level returns *all* its candidates — it never picks one —
//!    so a tolerance can only ever turn "not found" into "found once" or "ambiguous".
//! 3. [`select`](mod@select) applies `occurrence`, `line_hint`, `replace_all` and
//!    `expected_replacements`: exactly one candidate (or all, when asked), or a refusal
//!    that lists every candidate line.
//!
//! The exact path pays for nothing else. The tolerant levels share one index of the
//! scope built once per call (see `index`), compare lines through keys (see `fold`),
//! and write through one merge (see `merge`): lines the caller kept are written with
//! the file's own bytes, only changed lines get the level's corrections.
//!
//! The cascade (`cascade`) is a table: `LEVELS` in order, `applies` (when a level can
//! differ from the ones before) and `level`, each a short match to one module per level
//! (`cascade/<level>.rs`, one signature, each with a slow `reference` its property
//! test compares it with), and `run`, a loop whose body is the rule "the first level
//! with any match decides". A new level is one module and one row. Scopes named by a function
//! (`function_hint`) are resolved here too, through the blocks module below.

pub mod scope;
pub mod select;

mod blank_lines;
mod cascade;
mod elision;
mod escapes;
mod exact;
mod fold;
mod indent;
mod index;
mod merge;
mod needle;
mod numbers;
#[cfg(test)]
mod real_files;
mod typography;

pub use exact::find_exact;
pub use fold::{key as fold_key, Key as FoldKey};
pub use indent::{lead, IndentMap};
pub use merge::{LineRole, Merge};
pub use scope::Scope;
pub use select::{select, Selection};

use crate::error::EditResult;
use crate::text::{with_ending, Text};
use std::ops::Range;
use std::sync::Arc;

/// How a candidate was found: the value of `matched_via` in results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Via {
    Exact,
    LineEndings,
    TrailingWhitespace,
    Indentation,
    InnerWhitespace,
    BlankLines,
    LineNumbers,
    Escaping,
    Typography,
    Elision,
}

impl Via {
    /// Every level, in cascade order.
    pub const ALL: [Via; 10] = [
        Via::Exact,
        Via::LineEndings,
        Via::TrailingWhitespace,
        Via::Indentation,
        Via::InnerWhitespace,
        Via::BlankLines,
        Via::LineNumbers,
        Via::Escaping,
        Via::Typography,
        Via::Elision,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Via::Exact => "exact",
            Via::LineEndings => "line_endings",
            Via::TrailingWhitespace => "trailing_whitespace",
            Via::Indentation => "indentation",
            Via::InnerWhitespace => "inner_whitespace",
            Via::BlankLines => "blank_lines",
            Via::LineNumbers => "line_numbers",
            Via::Escaping => "escaping",
            Via::Typography => "typography",
            Via::Elision => "elision",
        }
    }
}

impl Via {
    /// The one rule for a call that located several texts (a patch's hunks, a batch's
    /// replacements, a snippet's stretches): the least exact level any of them needed.
    pub fn least_exact(vias: impl IntoIterator<Item = Via>) -> Option<Via> {
        vias.into_iter().max()
    }
}

/// How a tool found its place, as `matched_via` reports it: a level of the cascade, or
/// a definition found by name (replace_function_body).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchedVia {
    /// A level of the cascade (`"exact"`, `"indentation"`…).
    Level(Via),
    /// A function found by its name (`"function_name"`).
    FunctionName,
}

impl MatchedVia {
    /// The value of `matched_via` in results and statistics.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchedVia::Level(via) => via.as_str(),
            MatchedVia::FunctionName => "function_name",
        }
    }
}

/// How to turn the caller's replacement text into the bytes written at a candidate.
#[derive(Clone, Debug, PartialEq)]
pub enum Fix {
    /// Write the replacement as given, with line breaks in the file's ending there.
    Literal,
    /// Merge the replacement with the file line by line (tolerant levels).
    Merge(Arc<Merge>),
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
    /// Refused (`escape_ambiguous`, `placeholder_in_new_str`, `invalid_arguments`) when
    /// a tolerant level cannot carry its correction over to the replacement.
    pub fn render(&self, text: &Text, replacement: &str) -> EditResult<String> {
        self.render_with_roles(text, replacement, None)
    }

    /// [`Candidate::render`] with each replacement line's role given by the caller
    /// (see [`LineRole`]): a patch hunk knows which lines it keeps.
    pub fn render_with_roles(
        &self,
        text: &Text,
        replacement: &str,
        roles: Option<&[LineRole]>,
    ) -> EditResult<String> {
        match &self.fix {
            Fix::Literal => Ok(in_file_ending(text, self.first_line(text), replacement)),
            Fix::Merge(m) => m.render_with_roles(text, replacement, roles),
        }
    }

    /// What rendering `replacement` here corrects, for `warnings`.
    pub fn render_note(&self, replacement: &str) -> Option<String> {
        match &self.fix {
            Fix::Literal => None,
            Fix::Merge(m) => m.note(replacement),
        }
    }
}

/// The outcome of a search: the level that matched and its candidates (empty: none).
#[derive(Debug, Default)]
pub struct Found {
    pub candidates: Vec<Candidate>,
    /// Notes on what the matching level corrected, for `warnings`.
    pub notes: Vec<String>,
    /// When nothing matched: what tolerant levels saw but refused (or, under `strict`,
    /// what they would have matched), for the refusal's message.
    pub near_misses: Vec<String>,
    /// The levels tried, in order.
    pub tried: Vec<Via>,
}

impl Found {
    pub fn via(&self) -> Option<Via> {
        self.candidates.first().map(|c| c.via)
    }
}

/// Looks for `needle` inside `scope`: byte-exact, then (unless `strict`) the tolerant
/// levels in order. Candidates are non-overlapping and in file order.
pub fn find(text: &Text, needle: &str, scope: &Scope, strict: bool) -> Found {
    find_near(text, needle, scope, strict, None)
}

/// [`find`] given the call's 1-based `line_hint`: a single line numbered in a style
/// that needs two lines (`2 | b = 2`) counts as numbered when its number is the hint.
pub fn find_near(
    text: &Text,
    needle: &str,
    scope: &Scope,
    strict: bool,
    line_hint: Option<usize>,
) -> Found {
    let exact = find_exact(text, needle, scope);
    if !exact.is_empty() {
        return Found {
            candidates: exact,
            tried: vec![Via::Exact],
            ..Found::default()
        };
    }
    if !strict {
        return cascade::run(text, needle, scope, line_hint);
    }
    let mut found = Found {
        tried: vec![Via::Exact],
        ..Found::default()
    };
    let would = cascade::run(text, needle, scope, line_hint);
    if let Some(via) = would.via() {
        let what = match (would.candidates.len(), would.notes.first()) {
            (1, Some(note)) => note.clone(),
            (n, _) => format!("it matches {n} places."),
        };
        found.near_misses.push(format!(
            "With strict: true only byte-exact text matches. Without strict it would match via {}: {what}",
            via.as_str()
        ));
    }
    found
}

/// [`find`] for callers that place whole lines (patch hunks): a byte-exact occurrence
/// that starts inside a line does not decide, so a hunk whose first line is blank where
/// the file's holds spaces goes on to the tolerant levels, which match whole lines.
pub fn find_lines(text: &Text, needle: &str, scope: &Scope) -> Found {
    let exact = find_lines_exact(text, needle, scope);
    if !exact.candidates.is_empty() {
        return exact;
    }
    cascade::run(text, needle, scope, None)
}

/// [`find_lines`]' byte-exact level alone: the occurrences that start a line.
pub fn find_lines_exact(text: &Text, needle: &str, scope: &Scope) -> Found {
    let exact: Vec<Candidate> = match exact::aligned_by_line_map(text, needle, scope) {
        Some(aligned) => aligned,
        None => find_exact(text, needle, scope)
            .into_iter()
            .filter(|c| text.line_start(text.line_of(c.range.start)) == c.range.start)
            .collect(),
    };
    Found {
        candidates: exact,
        tried: vec![Via::Exact],
        ..Found::default()
    }
}

/// `needle` without the line-number prefixes of a numbered read (`  12\t`, `12: `, …),
/// when every line carries one; for diagnostics that compare it with the file.
pub fn without_line_numbers(needle: &str) -> Option<String> {
    let lines = crate::text::split_lines(needle);
    let numbering = numbers::detect(&lines)?;
    let (stripped, _) = numbering.strip_all(&lines);
    let mut out = stripped.join("\n");
    if needle.ends_with('\n') {
        out.push('\n');
    }
    Some(out)
}

/// `s` with its line breaks written the way the file writes them near 0-based `line`.
pub fn in_file_ending(text: &Text, line: usize, s: &str) -> String {
    if !s.contains('\n') {
        return s.to_string();
    }
    with_ending(s, text.ending_near(line))
}

#[cfg(test)]
mod tests;
