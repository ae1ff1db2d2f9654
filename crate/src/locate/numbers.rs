//! Line-number prefixes copied from a numbered read: `  12\t`, `    12→`, `12: `, `12 | `.
//!
//! A request counts as numbered only when *every* line carries a prefix of one style
//! with consecutive numbers (a blank line may show just its number). The `:` and `|`
//! styles, which real text can contain (`8080: http`), also need at least two lines,
//! or, for a single line ([`detect_in`]), a number that agrees with the caller's
//! `line_hint` or with the file: line N of the file is the line without its prefix
//! (trimmed), so `2 | b = 2` counts where line 2 reads `b = 2`.
//! The prefixes are then stripped from the request, and from every line of the new text
//! that carries one in the same style.

use crate::text::Text;
use std::borrow::Cow;
use std::fmt;

/// The separator after the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Tab,
    Arrow,
    Colon,
    Pipe,
    BoxPipe,
}

impl Style {
    const ALL: [Style; 5] = [
        Style::Tab,
        Style::Arrow,
        Style::Colon,
        Style::Pipe,
        Style::BoxPipe,
    ];

    fn sep(self) -> &'static str {
        match self {
            Style::Tab => "\t",
            Style::Arrow => "→",
            Style::Colon => ":",
            Style::Pipe => "|",
            Style::BoxPipe => "│",
        }
    }

    /// Whether real text plausibly has this shape, so one line is not enough.
    fn needs_two_lines(self) -> bool {
        matches!(self, Style::Colon | Style::Pipe | Style::BoxPipe)
    }
}

/// How the request's lines were numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbering {
    pub style: Style,
    /// Whether one space after the separator belongs to the prefix.
    pub space: bool,
    pub first: u64,
}

impl fmt::Display for Numbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = match self.style {
            Style::Tab => "\\t",
            s => s.sep(),
        };
        let pad = if matches!(self.style, Style::Pipe | Style::BoxPipe) {
            " "
        } else {
            ""
        };
        write!(
            f,
            "`{}{pad}{sep}{}`",
            self.first,
            if self.space { " " } else { "" }
        )
    }
}

/// Splits `line` into (number, rest after the separator) for `style`.
fn split(line: &str, style: Style) -> Option<(u64, &str)> {
    let t = line.trim_start_matches([' ', '\t']);
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return None;
    }
    let n: u64 = t[..digits].parse().ok()?;
    let mut rest = &t[digits..];
    if matches!(style, Style::Pipe | Style::BoxPipe) {
        rest = rest.strip_prefix(' ').unwrap_or(rest);
    }
    rest.strip_prefix(style.sep()).map(|r| (n, r))
}

/// A blank line's bare number (`  12`, maybe with trailing blanks).
fn bare_number(line: &str) -> Option<u64> {
    let t = line.trim();
    if t.is_empty() || t.len() > 9 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// The numbering of `lines`, if every one carries a consecutive prefix of one style.
pub fn detect(lines: &[&str]) -> Option<Numbering> {
    let first_line = lines.iter().find(|l| bare_number(l).is_none())?;
    Style::ALL.into_iter().find_map(|style| {
        let (start, _) = split(first_line, style)?;
        let offset = lines.iter().position(|l| l == first_line)? as u64;
        let first = start.checked_sub(offset)?;
        if style.needs_two_lines() && lines.len() < 2 {
            return None;
        }
        let mut all_spaced = true;
        for (k, line) in lines.iter().enumerate() {
            let want = first + k as u64;
            match split(line, style) {
                Some((n, rest)) if n == want => {
                    if !rest.is_empty() && !rest.starts_with(' ') {
                        all_spaced = false;
                    }
                }
                _ if bare_number(line) == Some(want) => {}
                _ => return None,
            }
        }
        // A tab or arrow is the whole separator; after `:` or `|` one space is part of
        // the prefix when every line has it.
        let space = all_spaced && !matches!(style, Style::Tab | Style::Arrow);
        Some(Numbering {
            style,
            space,
            first,
        })
    })
}

/// [`detect`], and for a single line in a style that needs two lines (`2 | b = 2`,
/// `12: x`): numbered when its number is `hint` (a 1-based `line_hint`) or line N of
/// `text` is the line without its prefix (both trimmed, not blank).
pub fn detect_in(lines: &[&str], text: &Text, hint: Option<usize>) -> Option<Numbering> {
    if let Some(n) = detect(lines) {
        return Some(n);
    }
    let [line] = lines else {
        return None;
    };
    Style::ALL
        .into_iter()
        .filter(|s| s.needs_two_lines())
        .find_map(|style| {
            let (n, rest) = split(line, style)?;
            let space = rest.starts_with(' ');
            let body = rest.trim();
            let at = usize::try_from(n).ok()?;
            let agrees = hint == Some(at)
                || (at >= 1 && at <= text.line_count() && text.line(at - 1).trim() == body);
            (agrees && !body.is_empty()).then_some(Numbering {
                style,
                space,
                first: n,
            })
        })
}

impl Numbering {
    /// `line` without its prefix (a bare number is an empty line); None when it has none.
    pub fn strip<'a>(&self, line: &'a str) -> Option<&'a str> {
        if bare_number(line).is_some() {
            return Some("");
        }
        let (_, rest) = split(line, self.style)?;
        Some(if self.space {
            rest.strip_prefix(' ').unwrap_or(rest)
        } else {
            rest
        })
    }

    /// Every line stripped (lines without a prefix kept as they are), and how many were.
    pub fn strip_all<'a>(&self, lines: &[&'a str]) -> (Vec<Cow<'a, str>>, usize) {
        let mut stripped = 0;
        let out = lines
            .iter()
            .map(|l| match self.strip(l) {
                Some(s) => {
                    stripped += 1;
                    Cow::Borrowed(s)
                }
                None => Cow::Borrowed(*l),
            })
            .collect();
        (out, stripped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_reads_in_common_styles() {
        for (lines, style, space) in [
            (
                vec!["    12\tfn a() {", "    13\t    x", "    14\t}"],
                Style::Tab,
                false,
            ),
            (
                vec!["     7→def f():", "     8→    pass"],
                Style::Arrow,
                false,
            ),
            (vec!["3: a = 1", "4: b = 2"], Style::Colon, true),
            (vec!["3:a = 1", "4:    b = 2"], Style::Colon, false),
            (vec![" 9 | x", "10 | y"], Style::Pipe, true),
        ] {
            let n = detect(&lines).unwrap_or_else(|| panic!("{lines:?}"));
            assert_eq!((n.style, n.space), (style, space), "{lines:?}");
        }
        let n = detect(&["    12\tfn a() {", "    13", "    14\t}"]).unwrap();
        assert_eq!(n.strip("    13"), Some(""));
        assert_eq!(n.strip("    12\tfn a() {"), Some("fn a() {"));
    }

    #[test]
    fn not_numbered() {
        assert_eq!(detect(&["12\tx", "14\ty"]), None, "not consecutive");
        assert_eq!(
            detect(&["8080: http"]),
            None,
            "one `:` line is ordinary text"
        );
        assert_eq!(detect(&["12\tx", "y"]), None, "every line needs its prefix");
        assert_eq!(detect(&["1. first", "2. second"]), None);
        assert!(detect(&["12\tx"]).is_some());
    }

    #[test]
    fn one_line_counts_when_its_number_agrees() {
        let text = Text::new("a = 1\nb = 2\n8080 | c\n");
        // Line 2 of the file is the line without its prefix.
        let n = detect_in(&["2 | b = 2"], &text, None).unwrap();
        assert_eq!(
            (n.style, n.first, n.strip("2 | b = 2")),
            (Style::Pipe, 2, Some("b = 2"))
        );
        assert!(detect_in(&["2: b = 2"], &text, None).is_some());
        // The caller's line_hint agrees.
        assert!(detect_in(&["7 | z"], &text, Some(7)).is_some());
        // Near misses: the number disagrees with the file and the hint; real text.
        assert_eq!(detect_in(&["1 | b = 2"], &text, None), None);
        assert_eq!(
            detect_in(&["2 | b = 2"], &text, Some(1)).map(|n| n.first),
            Some(2)
        );
        assert_eq!(detect_in(&["8080 | c"], &text, None), None);
        assert_eq!(detect_in(&["3 | x"], &text, Some(2)), None);
    }
}
