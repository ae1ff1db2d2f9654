//! Line keys: what two lines must share to match at a tolerant level.
//!
//! Each tolerant level compares lines through a [`Key`]: the line with what that level
//! forgives folded away (trailing whitespace, indentation, backslash-run lengths,
//! typographic characters). Keys only ever drop or replace whitespace, backslashes and
//! punctuation; letters, digits and `_` pass unchanged and are never joined. That is
//! what makes the [core hash](core_hash) (a hash of the characters no key touches) a
//! sound pre-filter for every level, and an identifier taken from a needle a sound
//! search anchor.
//!
//! Where a match starts or ends inside a line, [`Folded`] maps folded bytes back to
//! the original line: each folded byte belongs to a *group* (one original character,
//! or a backslash run with the quote it escapes) and a match may only start and end
//! on group boundaries.

pub use crate::text::hash::core_hash;
use std::borrow::Cow;

/// What a tolerant level compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The line's content as is (line endings are never part of it).
    Lines,
    /// Without trailing whitespace.
    TrimEnd,
    /// Without leading and trailing whitespace.
    Trim,
    /// Without trailing whitespace; a backslash run before a quote is dropped, any other
    /// run counts as one backslash.
    Escapes,
    /// Without trailing whitespace; typographic quotes, dashes, ellipses and Unicode
    /// spaces read as their ASCII forms.
    Typography,
    /// Without trailing whitespace; a run of spaces and tabs after the line's first
    /// non-blank character reads as one space (formatter alignment). The indentation
    /// is compared as is, and a run never matches no space at all.
    InnerSpaces,
    /// [`Key::Typography`], and every run of dashes (`-`, `--`, `—`, `–-`) reads as one
    /// `-`. Looser than the rule it serves (`--` or `-` for `—` or `–`, `—` for `--`):
    /// the typography level keeps a match only when each pair of runs is one the rule
    /// allows ([`dashes_agree`](super::typography::dashes_agree)), so `i--` never
    /// matches `i-`.
    TypographyDashes,
}

impl Key {
    fn trims_lead(self) -> bool {
        self == Key::Trim
    }

    fn trims_trail(self) -> bool {
        self != Key::Lines
    }

    /// Whether folding `line` with this key drops characters at its start / end.
    pub fn trims(self, line: &str) -> (bool, bool) {
        (
            self.trims_lead() && line.starts_with(char::is_whitespace),
            self.trims_trail() && line.ends_with(char::is_whitespace),
        )
    }
}

/// Quote characters a backslash run may escape (and that an escaping mistake may
/// leave unescaped).
pub fn is_quote(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'`')
}

/// A dash: `-` or a character whose ASCII form is `-`.
pub fn is_dash(c: char) -> bool {
    c == '-' || typographic(c) == Some("-")
}

/// The ASCII form of a typographic character, if it has one.
pub fn typographic(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => "\"",
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
        | '\u{2212}' => "-",
        '\u{2026}' => "...",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => " ",
        _ => return None,
    })
}

/// The bounds of the part of `line` a key keeps: (start, end).
fn kept(line: &str, key: Key) -> (usize, usize) {
    let end = if key.trims_trail() {
        line.trim_end().len()
    } else {
        line.len()
    };
    let start = if key.trims_lead() {
        (line.len() - line.trim_start().len()).min(end)
    } else {
        0
    };
    (start, end)
}

/// The key of `line` (no offsets kept).
pub fn key(line: &str, key: Key) -> Cow<'_, str> {
    let (start, end) = kept(line, key);
    let body = &line[start..end];
    match key {
        Key::Lines | Key::TrimEnd | Key::Trim => Cow::Borrowed(body),
        Key::Escapes if !body.contains('\\') => Cow::Borrowed(body),
        Key::Typography if body.is_ascii() => Cow::Borrowed(body),
        Key::InnerSpaces if !has_inner_run(body) => Cow::Borrowed(body),
        Key::TypographyDashes if body.is_ascii() && !body.contains("--") => Cow::Borrowed(body),
        _ => Cow::Owned(fold(line, key).s),
    }
}

/// A line folded by a key, with where each folded byte came from.
#[derive(Debug)]
pub struct Folded {
    pub s: String,
    /// Per folded byte: the start of its group in the original line.
    group_start: Vec<usize>,
    /// Per folded byte: the end of its group in the original line.
    group_end: Vec<usize>,
    /// Where the kept part of the line starts in the original.
    origin: usize,
}

impl Folded {
    /// The original offset where a match beginning at folded byte `p` begins, if `p`
    /// is a group boundary.
    pub fn start_at(&self, p: usize) -> Option<usize> {
        if p == self.s.len() {
            return Some(self.group_end.last().copied().unwrap_or(self.origin));
        }
        if p > 0 && self.group_start[p] == self.group_start[p - 1] {
            return None;
        }
        self.group_start.get(p).copied()
    }

    /// The original offset where a match ending before folded byte `q` ends, if `q` is
    /// a group boundary.
    pub fn end_at(&self, q: usize) -> Option<usize> {
        if q == 0 {
            return Some(self.origin);
        }
        if q < self.s.len() && self.group_start[q] == self.group_start[q - 1] {
            return None;
        }
        self.group_end.get(q - 1).copied()
    }
}

/// Folds `line` with `key`, keeping offsets.
pub fn fold(line: &str, key: Key) -> Folded {
    let (start, end) = kept(line, key);
    let body = &line[start..end];
    let mut out = Folded {
        s: String::with_capacity(body.len()),
        group_start: Vec::with_capacity(body.len()),
        group_end: Vec::with_capacity(body.len()),
        origin: start,
    };
    let mut push = |text: &str, from: usize, to: usize| {
        out.s.push_str(text);
        for _ in 0..text.len() {
            out.group_start.push(start + from);
            out.group_end.push(start + to);
        }
    };
    let bytes = body.as_bytes();
    let lead_len = body.len() - body.trim_start_matches([' ', '\t']).len();
    let mut i = 0;
    while i < body.len() {
        let c = body[i..].chars().next().unwrap_or(' ');
        let next = i + c.len_utf8();
        match key {
            Key::Escapes if c == '\\' => {
                let mut j = i;
                while j < bytes.len() && bytes[j] == b'\\' {
                    j += 1;
                }
                match bytes.get(j) {
                    Some(&q) if is_quote(q) => {
                        push(&body[j..j + 1], i, j + 1);
                        i = j + 1;
                    }
                    _ => {
                        push("\\", i, j);
                        i = j;
                    }
                }
                continue;
            }
            Key::InnerSpaces if (c == ' ' || c == '\t') && i >= lead_len => {
                let run = body[i..].len() - body[i..].trim_start_matches([' ', '\t']).len();
                push(" ", i, i + run);
                i += run;
                continue;
            }
            Key::TypographyDashes if is_dash(c) => {
                let run = body[i..]
                    .find(|d: char| !is_dash(d))
                    .map_or(body.len(), |n| i + n);
                push("-", i, run);
                i = run;
                continue;
            }
            Key::Typography | Key::TypographyDashes => match typographic(c) {
                Some(ascii) => push(ascii, i, next),
                None => push(&body[i..next], i, next),
            },
            _ => push(&body[i..next], i, next),
        }
        i = next;
    }
    out
}

/// Whether `body` has a run [`Key::InnerSpaces`] folds: two blanks, or a tab, after
/// its indentation.
pub fn has_inner_run(body: &str) -> bool {
    let inner = body.trim_start_matches([' ', '\t']).trim_end();
    inner.contains("  ") || inner.contains('\t')
}

/// The longest run of letters, digits and `_` in `s` (ASCII), which every key keeps
/// intact: a sound anchor to search the raw text for.
pub fn longest_word(s: &str) -> &str {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .max_by_key(|w| w.len())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_fold_only_what_their_level_forgives() {
        assert_eq!(key("  a = 1  ", Key::Lines), "  a = 1  ");
        assert_eq!(key("  a = 1  ", Key::TrimEnd), "  a = 1");
        assert_eq!(key("\t a = 1 \t", Key::Trim), "a = 1");
        assert_eq!(key(r#"s = \"a\\nb\""#, Key::Escapes), r#"s = "a\nb""#);
        assert_eq!(key(r#"re(\\\\d+)"#, Key::Escapes), r#"re(\d+)"#);
        assert_eq!(key("“a” – b…\u{a0}", Key::Typography), "\"a\" - b...");
        assert_eq!(key("   ", Key::Trim), "");
        assert_eq!(
            key("  \"a\":   1,\t// x ", Key::InnerSpaces),
            "  \"a\": 1, // x"
        );
        assert_eq!(key("\t\"a\": 1,", Key::InnerSpaces), "\t\"a\": 1,");
        assert_ne!(key("a=1", Key::InnerSpaces), key("a = 1", Key::InnerSpaces));
        assert_eq!(
            key("a -- b — c –- d", Key::TypographyDashes),
            "a - b - c - d"
        );
        assert_eq!(key("i-- and --x", Key::Typography), "i-- and --x");
    }

    #[test]
    fn folded_offsets_map_back_on_group_boundaries() {
        let f = fold(r#"x = \"ab\""#, Key::Escapes);
        assert_eq!(f.s, r#"x = "ab""#);
        // The folded quote at 4 stands for `\"` at 4..6.
        assert_eq!(f.start_at(4), Some(4));
        assert_eq!(f.end_at(5), Some(6));
        let t = fold("a…b", Key::Typography);
        assert_eq!(t.s, "a...b");
        assert_eq!(t.start_at(1), Some(1));
        assert_eq!(t.start_at(2), None, "inside the ellipsis");
        assert_eq!(t.end_at(4), Some(4));
        assert_eq!(t.end_at(3), None);
        let s = fold("a   = 1", Key::InnerSpaces);
        assert_eq!(s.s, "a = 1");
        assert_eq!(s.start_at(2), Some(4));
        assert_eq!(s.end_at(2), Some(4));
        let w = fold("    x  ", Key::Trim);
        assert_eq!(w.s, "x");
        assert_eq!(w.start_at(0), Some(4));
        assert_eq!(w.end_at(1), Some(5));
    }

    #[test]
    fn core_hash_ignores_what_keys_fold() {
        let a = core_hash("    say(\"hi\") — ok…  ");
        assert_eq!(a, core_hash("say(“hi”) - ok..."));
        assert_eq!(a, core_hash("\tsay(\\\"hi\\\") -- ok"));
        assert_ne!(a, core_hash("say(\"ho\") - ok"));
    }

    #[test]
    fn longest_word_is_ascii_identifier_run() {
        assert_eq!(longest_word("  foo(bar_baz, x)"), "bar_baz");
        assert_eq!(longest_word("—…"), "");
    }
}
