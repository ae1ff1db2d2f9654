//! The needle as lines, and verifying it against a window of file lines under a key.
//!
//! A tolerant match has the same shape as a byte-exact one: the needle may start
//! inside a line (its first line matches the end of a file line) and, when it does not
//! end with a line break, end inside one (its last line matches the start of a file
//! line); every line in between matches a whole file line. A one-line needle without a
//! line break may match anywhere inside a line, several times.
//!
//! Where a key dropped whitespace at a boundary that falls inside a file line, the match
//! is refused: trailing whitespace is forgiven only at line ends, indentation only at
//! line starts.

use super::fold::{fold, key, Key};
use crate::text::{split_lines, strip_ending, Text, BOM};
use std::borrow::Cow;
use std::ops::Range;

/// How one needle line must match its file line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The whole line.
    Full,
    /// The end of the line (the needle's first line).
    Suffix,
    /// The start of the line (the needle's last line, without a line break after it).
    Prefix,
    /// Anywhere in the line (a one-line needle without a line break).
    Substring,
}

/// A needle split into lines.
#[derive(Clone, Debug)]
pub struct Needle<'a> {
    pub lines: Vec<Cow<'a, str>>,
    /// Whether it ends with a line break.
    pub terminated: bool,
    /// Whether its first line must start at a line start (an elided needle's later
    /// parts).
    pub starts_line: bool,
}

impl<'a> Needle<'a> {
    pub fn parse(s: &'a str) -> Needle<'a> {
        Needle {
            lines: split_lines(s).into_iter().map(Cow::Borrowed).collect(),
            terminated: s.ends_with('\n'),
            starts_line: false,
        }
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn shape(&self, j: usize) -> Shape {
        let first = j == 0 && !self.starts_line;
        let open_end = j + 1 == self.lines.len() && !self.terminated;
        match (first, open_end) {
            (true, true) => Shape::Substring,
            (true, false) => Shape::Suffix,
            (false, true) => Shape::Prefix,
            (false, false) => Shape::Full,
        }
    }

    /// Whether any line has something besides whitespace (tolerant levels need it).
    pub fn has_substance(&self) -> bool {
        self.lines.iter().any(|l| !l.trim().is_empty())
    }

    pub fn texts(&self) -> Vec<&str> {
        self.lines.iter().map(|l| l.as_ref()).collect()
    }
}

/// Byte offset where line `i`'s content starts (after a BOM on line 0).
pub fn content_start(text: &Text, i: usize) -> usize {
    let start = text.line_range(i).start;
    if i == 0 && text.has_bom() {
        start + BOM.len_utf8()
    } else {
        start
    }
}

/// Byte offset where line `i`'s content ends (before its line break).
pub fn content_end(text: &Text, i: usize) -> usize {
    let r = text.line_range(i);
    r.start + strip_ending(&text.as_str()[r]).len()
}

/// A verified match of a needle: file lines `first..first + lines`, and bytes `range`.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub first: usize,
    pub lines: usize,
    pub range: Range<usize>,
}

impl Span {
    /// Whether the match starts after the start of its first line's content.
    pub fn first_partial(&self, text: &Text) -> bool {
        self.range.start != content_start(text, self.first)
    }
}

/// The matches of `needle` at file lines `i..i + needle.len()` under `k` (several only
/// for a one-line needle occurring several times in its line).
pub fn verify(text: &Text, needle: &Needle, i: usize, k: Key) -> Vec<Span> {
    let m = needle.len();
    if m == 0 || i + m > text.line_count() {
        return Vec::new();
    }
    let mut start = None;
    let mut end = None;
    for j in 0..m {
        let li = i + j;
        let file_line = text.line(li);
        let cs = content_start(text, li);
        let needle_line = needle.lines[j].as_ref();
        match needle.shape(j) {
            Shape::Full => {
                if key(file_line, k) != key(needle_line, k) {
                    return Vec::new();
                }
                if j == 0 {
                    start = Some(cs);
                }
            }
            Shape::Suffix => match suffix_at(file_line, needle_line, k) {
                Some(p) => start = Some(cs + p),
                None => return Vec::new(),
            },
            Shape::Prefix => match prefix_at(file_line, needle_line, k) {
                Some(q) => end = Some(cs + q),
                None => return Vec::new(),
            },
            Shape::Substring => {
                return occurrences(file_line, needle_line, k)
                    .into_iter()
                    .map(|(p, q)| Span {
                        first: li,
                        lines: 1,
                        range: cs + p..cs + q,
                    })
                    .collect();
            }
        }
    }
    let last = i + m - 1;
    let end = match end {
        Some(e) => e,
        None => text.line_range(last).end,
    };
    let start = start.unwrap_or_else(|| content_start(text, i));
    vec![Span {
        first: i,
        lines: m,
        range: start..end,
    }]
}

/// Where in `file_line` a match of `needle_line` as its end starts.
fn suffix_at(file_line: &str, needle_line: &str, k: Key) -> Option<usize> {
    let n = key(needle_line, k);
    // Cheap rejection first: folding with offsets allocates.
    if !key(file_line, k).ends_with(n.as_ref()) {
        return None;
    }
    let f = fold(file_line, k);
    if f.s == n {
        return Some(0);
    }
    let (lead_trimmed, _) = k.trims(needle_line);
    if lead_trimmed || !f.s.ends_with(n.as_ref()) {
        return None;
    }
    f.start_at(f.s.len() - n.len())
}

/// Where in `file_line` a match of `needle_line` as its start ends.
fn prefix_at(file_line: &str, needle_line: &str, k: Key) -> Option<usize> {
    let n = key(needle_line, k);
    if !key(file_line, k).starts_with(n.as_ref()) {
        return None;
    }
    let f = fold(file_line, k);
    if f.s == n {
        return Some(file_line.len());
    }
    let (_, trail_trimmed) = k.trims(needle_line);
    if trail_trimmed || !f.s.starts_with(n.as_ref()) {
        return None;
    }
    f.end_at(n.len())
}

/// Every match of `needle_line` inside `file_line`, overlapping ones included:
/// (start, end) offsets.
fn occurrences(file_line: &str, needle_line: &str, k: Key) -> Vec<(usize, usize)> {
    let n = key(needle_line, k);
    if n.trim().is_empty() || !key(file_line, k).contains(n.as_ref()) {
        return Vec::new();
    }
    let f = fold(file_line, k);
    if f.s == n {
        return vec![(0, file_line.len())];
    }
    let (lead_trimmed, trail_trimmed) = k.trims(needle_line);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = f.s.get(from..).and_then(|rest| rest.find(n.as_ref())) {
        let p = from + found;
        let q = p + n.len();
        // Overlapping occurrences are reported too: the caller keeps them only to show
        // that a single match is not unique.
        from = p + f.s[p..].chars().next().map_or(1, char::len_utf8);
        if (lead_trimmed && p != 0) || (trail_trimmed && q != f.s.len()) {
            continue;
        }
        let start = if p == 0 && lead_trimmed {
            Some(0)
        } else {
            f.start_at(p)
        };
        let end = if q == f.s.len() && trail_trimmed {
            Some(file_line.len())
        } else {
            f.end_at(q)
        };
        if let (Some(s), Some(e)) = (start, end) {
            out.push((s, e));
        }
    }
    out
}

/// The matches a level reports, from all it verified (each with its data): those that
/// do not overlap an earlier one, as a byte-exact search counts them — except that when
/// that leaves one, every match is kept, since one overlapping another means the
/// request is not unique.
pub fn settle<T>(mut items: Vec<(Span, T)>) -> Vec<(Span, T)> {
    items.sort_by_key(|(s, _)| (s.range.start, s.range.end));
    items.dedup_by(|a, b| a.0 == b.0);
    let mut last_end = None;
    let keep: Vec<bool> = items
        .iter()
        .map(|(s, _)| {
            let free = last_end.is_none_or(|e| s.range.start >= e);
            if free {
                last_end = Some(s.range.end);
            }
            free
        })
        .collect();
    if keep.iter().filter(|k| **k).count() == 1 {
        return items;
    }
    items
        .into_iter()
        .zip(keep)
        .filter_map(|(item, k)| k.then_some(item))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_follow_the_needle_boundaries() {
        let n = Needle::parse("a\nb\nc");
        assert_eq!(
            (0..3).map(|j| n.shape(j)).collect::<Vec<_>>(),
            [Shape::Suffix, Shape::Full, Shape::Prefix]
        );
        let t = Needle::parse("a\nb\n");
        assert_eq!(t.shape(1), Shape::Full);
        assert_eq!(Needle::parse("a").shape(0), Shape::Substring);
    }

    #[test]
    fn verify_maps_a_trailing_whitespace_match_to_whole_lines() {
        let src = "x\n  a = 1  \n  b = 2\ny\n";
        let text = Text::new(src);
        let n = Needle::parse("  a = 1\n  b = 2 \n");
        let spans = verify(&text, &n, 1, Key::TrimEnd);
        assert_eq!(spans.len(), 1);
        assert_eq!(&src[spans[0].range.clone()], "  a = 1  \n  b = 2\n");
        assert!(verify(&text, &n, 1, Key::Lines).is_empty());
    }

    #[test]
    fn whitespace_is_forgiven_only_at_line_boundaries() {
        let text = Text::new("foo\tbar\n");
        // "foo " ends with a space the key drops, but "foo" ends mid-line here.
        assert!(verify(&text, &Needle::parse("foo "), 0, Key::TrimEnd).is_empty());
        let spans = verify(&text, &Needle::parse("bar  "), 0, Key::TrimEnd);
        assert_eq!(spans[0].range, 4..7);
    }

    #[test]
    fn substring_finds_every_occurrence_in_the_line() {
        let src = "say(“a”) + say(“a”)";
        let text = Text::new(src);
        let spans = verify(&text, &Needle::parse("say(\"a\")"), 0, Key::Typography);
        assert_eq!(spans.len(), 2);
        assert_eq!(&src[spans[1].range.clone()], "say(“a”)");
    }

    #[test]
    fn bom_is_outside_the_first_line() {
        let src = "\u{feff}a \nb\n";
        let text = Text::new(src);
        let spans = verify(&text, &Needle::parse("a\nb\n"), 0, Key::TrimEnd);
        assert_eq!(spans[0].range, 3..src.len());
    }
}
