//! Blocks: language-aware bracket and indentation blocks, functions, outlines.
//!
//! Counting braces blindly breaks on the first `{` inside a string, comment, regex or
//! char literal. Here a file is lexed once per call ([`Analysis::new`]) by the rules of
//! its language (chosen from the extension, see [`Lang`]); every question after that
//! is answered from the lexer's output without re-reading the file:
//!
//! - [`Analysis::block_at`]: the block a line opens — from that line through the line
//!   that closes what it opened (brackets), or through its last more-indented line
//!   (Python, YAML);
//! - [`Analysis::outline`]: functions, methods and types with their line ranges;
//! - [`Analysis::find_functions`]: the definitions of one name (`Type.method` and
//!   `Type::method` accepted), without classifying the whole file when the name is
//!   found.
//!
//! Ranges are whole lines. A function's range starts at the first line of its
//! signature (modifiers such as `pub`, `export`, `static`, return types on their own
//! line and C++ `template <…>` included) and ends at the line of its closing brace;
//! decorators, attributes, annotations and comments above the signature are not part
//! of it (see [`Analysis::prelude_start`]).
//!
//! This module holds [`Analysis`] (the lexed file and its line and event lookups);
//! the questions are answered in one module each: `bounds` (blocks and bracket
//! partners), `declarations` (what a `{` opens, with `header` reading the header per
//! language family), `symbols` (kinds, symbols, outline, lookup by name), `indent`
//! (Python and YAML) and `placement` (the indentation levels valid where lines are
//! inserted). `lex` and `lang` are the lexer and the language table.

pub mod balance;
mod bounds;
mod declarations;
mod header;
mod indent;
pub mod lang;
mod lex;
mod placement;
mod symbols;

pub use balance::{balance, Balance, Unmatched};
pub use bounds::BlockError;
pub use lang::Lang;
pub use lex::{Issue, IssueKind};
pub use placement::{width_of, Level};
pub use symbols::{split_query, Kind, Symbol};

use crate::text::Text;
use lex::{Event, Lexed};

/// One file, lexed once, and everything asked of it.
pub struct Analysis<'t, 'a> {
    pub lang: Lang,
    /// False when the extension was unknown and the generic C-like rules were used.
    pub known: bool,
    pub text: &'t Text<'a>,
    lx: Lexed,
    /// Per line: whether it continues the logical line before it (indentation
    /// languages; computed on first use).
    continuation: std::cell::OnceCell<Vec<bool>>,
}

impl<'t, 'a> Analysis<'t, 'a> {
    pub fn new(text: &'t Text<'a>, path: &str) -> Analysis<'t, 'a> {
        let (lang, known) = match Lang::from_path(path) {
            Some(l) => (l, true),
            None => (Lang::Generic, false),
        };
        Analysis::with_lang(text, lang, known)
    }

    pub fn with_lang(text: &'t Text<'a>, lang: Lang, known: bool) -> Analysis<'t, 'a> {
        let lx = lex::lex(text.as_str(), &lang.syntax());
        Analysis::from_lexed(text, lang, known, lx)
    }

    /// An analysis of a text lexed already (by `lang`'s rules).
    fn from_lexed(text: &'t Text<'a>, lang: Lang, known: bool, lx: Lexed) -> Analysis<'t, 'a> {
        Analysis {
            lang,
            known,
            text,
            lx,
            continuation: std::cell::OnceCell::new(),
        }
    }

    /// A warning for results when the language was not recognised.
    pub fn warning(&self, path: &str) -> Option<String> {
        if self.known {
            return None;
        }
        Some(format!(
            "{path}: unknown file type, so blocks were found with generic C-like rules (braces; `//` and `/* */` comments; '…', \"…\" and `…` literals). Check the result."
        ))
    }

    /// The file's bytes with comments and literals blanked.
    pub fn code(&self) -> &[u8] {
        &self.lx.code
    }

    pub fn issues(&self) -> &[Issue] {
        &self.lx.issues
    }

    fn events(&self) -> &[Event] {
        &self.lx.events
    }

    fn line_of(&self, pos: usize) -> usize {
        self.text
            .line_of(pos)
            .min(self.text.line_count().saturating_sub(1))
    }

    /// Code bytes of 0-based line `l`, without its terminator.
    pub fn code_line(&self, l: usize) -> &[u8] {
        if l >= self.text.line_count() {
            return b"";
        }
        let r = self.text.line_range(l);
        let line = self.lx.code.get(r).unwrap_or(b"");
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        line.strip_suffix(b"\r").unwrap_or(line)
    }

    /// Index of the first event at or after byte `pos`.
    fn event_at(&self, pos: usize) -> usize {
        self.events().partition_point(|e| (e.pos as usize) < pos)
    }
}

#[cfg(test)]
mod tests;
