//! The `blank_lines` level: the number of blank lines between two lines.
//!
//! The request's lines with content must match whole file lines (trailing whitespace
//! forgiven, as the levels before), in order; between two of them the request has a
//! run of `a >= 1` blank lines where the file has `b >= 0` (one where the file has
//! two, or none). Where the request has no blank line, the file must have none: a
//! blank line the call does not show could sit on either side of an added line.
//!
//! Writing keeps the file's bytes: the request's blank lines pair with the file's in
//! order; the last paired one also stands for the file's extra blank lines, and a
//! request blank line the file lacks is [`Piece::absent`] (kept, it writes nothing).
//! So a kept gap keeps the file's gap, whatever its size.

use super::fold::{key, Key};
use super::merge::{Merge, Piece, Segment};
use super::needle::{content_end, content_start, Needle, Span};
use super::{Scope, Via};
use crate::text::Text;

/// Whether `needle` can match at this level: it starts and ends with a line with
/// content and has a blank line between two such lines.
pub fn applies(needle: &Needle) -> bool {
    let blank = |l: &str| l.trim().is_empty();
    let (Some(first), Some(last)) = (needle.lines.first(), needle.lines.last()) else {
        return false;
    };
    !blank(first) && !blank(last) && needle.lines.iter().any(|l| blank(l))
}

/// Every match of `needle` in `scope` at this level, each with its merge.
pub fn matches(text: &Text, needle: &Needle, scope: &Scope) -> Vec<(Span, Merge)> {
    if !applies(needle) || scope.range.is_empty() {
        return Vec::new();
    }
    let (first, last) = scope.line_span(text);
    let last = last.min(text.line_count().saturating_sub(1));
    let want = key(&needle.lines[0], Key::TrimEnd);
    (first..=last)
        .filter(|&i| key(text.line(i), Key::TrimEnd) == want)
        .filter_map(|i| walk(text, needle, i, last))
        .map(|(pairs, end_line)| merge_at(text, needle, &pairs, end_line))
        .collect()
}

/// For each request line, the file lines it stands for (empty: absent), walking from
/// file line `i`; None when the request does not match there. Also the last file line.
fn walk(text: &Text, needle: &Needle, i: usize, last: usize) -> Option<(Vec<Vec<usize>>, usize)> {
    let blank = |l: &str| l.trim().is_empty();
    let mut pairs: Vec<Vec<usize>> = vec![vec![i]];
    let mut f = i + 1;
    let mut j = 1;
    while j < needle.len() {
        let run = (j..needle.len())
            .take_while(|&k| blank(&needle.lines[k]))
            .count();
        let file_run = (f..=last).take_while(|&k| blank(text.line(k))).count();
        if run == 0 && file_run > 0 {
            return None;
        }
        for k in 0..run {
            let lines: Vec<usize> = if k + 1 == run.min(file_run) {
                (f + k..f + file_run).collect()
            } else if k < file_run {
                vec![f + k]
            } else {
                Vec::new()
            };
            pairs.push(lines);
        }
        f += file_run;
        j += run;
        if f > last || key(text.line(f), Key::TrimEnd) != key(&needle.lines[j], Key::TrimEnd) {
            return None;
        }
        pairs.push(vec![f]);
        f += 1;
        j += 1;
    }
    Some((pairs, f - 1))
}

/// The merge writing a replacement at one match.
fn merge_at(text: &Text, needle: &Needle, pairs: &[Vec<usize>], end_line: usize) -> (Span, Merge) {
    let start_line = pairs[0][0];
    let n = pairs.len();
    let pieces: Vec<Piece> = pairs
        .iter()
        .enumerate()
        .map(|(j, lines)| match (lines.first(), lines.last()) {
            (Some(&a), Some(&b)) => {
                let end = text.line_range(b).end;
                let term = if j + 1 < n || needle.terminated {
                    content_end(text, a)..end
                } else {
                    end..end
                };
                Piece {
                    content: content_start(text, a)..content_end(text, a),
                    term,
                    absent: false,
                }
            }
            _ => Piece {
                content: 0..0,
                term: 0..0,
                absent: true,
            },
        })
        .collect();
    let end = if needle.terminated {
        text.line_range(end_line).end
    } else {
        content_end(text, end_line)
    };
    let span = Span {
        first: start_line,
        lines: end_line + 1 - start_line,
        range: content_start(text, start_line)..end,
    };
    let merge = Merge {
        via: Via::BlankLines,
        segments: vec![Segment {
            request: needle.lines.iter().map(|l| l.to_string()).collect(),
            pieces,
        }],
        elided: Vec::new(),
        markers: Vec::new(),
        elided_lines: 0,
        first_partial: false,
        at_eof_without_newline: needle.terminated
            && !text.line_with_ending(end_line).ends_with('\n'),
        ending: text.ending_near(start_line),
        numbering: None,
        indent: None,
        escapes: None,
        typography: None,
        lines: (start_line + 1, end_line + 1),
    };
    (span, merge)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(file: &str, old: &str, new: &str) -> Vec<String> {
        let text = Text::new(file);
        let needle = Needle::parse(old);
        matches(&text, &needle, &Scope::whole(&text))
            .into_iter()
            .map(|(s, m)| {
                let mut out = file.to_string();
                out.replace_range(s.range, &m.render(&text, new).unwrap());
                out
            })
            .collect()
    }

    #[test]
    fn kept_gaps_keep_the_files_size() {
        let file = "a\n\n\nb\nc\n";
        assert_eq!(render(file, "a\n\nb\n", "a\n\nB\n"), ["a\n\n\nB\nc\n"]);
        assert_eq!(render("a\nb\n", "a\n\nb\n", "A\n\nb\n"), ["A\nb\n"]);
        assert_eq!(render("a\n\n\nb\n", "a\n\nb", "a\n\nb2"), ["a\n\n\nb2\n"]);
    }

    #[test]
    fn a_gap_the_request_lacks_is_not_forgiven() {
        assert!(render("a\n\nb\n", "a\nb\n", "a\nx\nb\n").is_empty());
        assert!(render("a\n\nb\n", "\na\n\nb\n", "x").is_empty());
    }
}
