//! Elided middles: a request with a line that only says "…" (`...`, `// ...`,
//! `# ... existing code ...`) in place of lines it did not quote.
//!
//! The marker lines cut the request into parts; each part must match (whole lines
//! after the first), in order, and the lines between two consecutive parts — what a
//! marker stands for — must lie inside one block, or the marker could swallow the end
//! of one function and the start of the next. The check is deliberately small and pure:
//! - brackets: counted over the elided lines (outside quotes and line comments), their
//!   depth must never drop below where it started: the elided lines close nothing
//!   opened before them;
//! - indentation: every non-blank elided line is indented at least as deep as the
//!   shallower of the lines around it, and deeper than the line before when that line
//!   opens a block (the line after is deeper than it).
//!
//! Every chain of parts that passes is a candidate, so a part that occurs twice in the
//! block makes the request ambiguous rather than silently taking the first.

use super::fold::Key;
use super::index::LineIndex;
use super::needle::{verify, Needle, Span};
use super::Scope;
use crate::guard;
use crate::text::Text;
use std::borrow::Cow;

/// Most chains collected (enough to report an ambiguity).
const MAX_CHAINS: usize = 100;

/// A request cut at its marker lines.
pub struct Parts<'a> {
    pub segments: Vec<Needle<'a>>,
    /// Each marker line, trimmed.
    pub markers: Vec<String>,
}

/// The request's parts, when it has marker lines with something on both sides of each.
pub fn split<'a>(needle: &Needle<'a>) -> Option<Parts<'a>> {
    let texts = needle.texts();
    let marks = guard::placeholder_lines(&texts, &[]);
    if marks.is_empty() {
        return None;
    }
    let mut segments = Vec::new();
    let mut markers = Vec::new();
    let mut from = 0;
    for (n, &k) in marks
        .iter()
        .chain(std::iter::once(&needle.len()))
        .enumerate()
    {
        let lines: Vec<Cow<'a, str>> = needle.lines.get(from..k)?.to_vec();
        if !lines.iter().any(|l| !l.trim().is_empty()) {
            return None;
        }
        let last = k == needle.len();
        segments.push(Needle {
            lines,
            terminated: if last { needle.terminated } else { true },
            starts_line: n > 0,
        });
        if !last {
            markers.push(needle.lines[k].trim().to_string());
        }
        from = k + 1;
    }
    Some(Parts { segments, markers })
}

/// Why chains were refused, for the no_match message.
#[derive(Default)]
pub struct Refusals {
    /// The first elided region (1-based lines) that left its block.
    pub outside_block: Option<(usize, usize)>,
}

/// Every chain of spans (one per part) in order, inside one block, at `key`.
pub fn chains(
    text: &Text,
    index: &LineIndex,
    scope: &Scope,
    parts: &Parts,
    key: Key,
    refusals: &mut Refusals,
) -> Vec<Vec<Span>> {
    let mut per_part: Vec<Vec<Span>> = Vec::with_capacity(parts.segments.len());
    for seg in &parts.segments {
        // Every occurrence of the part, overlapping ones included: each is a possible
        // chain, so a repeated part shows up as an ambiguity.
        let mut spans: Vec<Span> = index
            .windows(text, scope, seg)
            .into_iter()
            .flat_map(|i| verify(text, seg, i, key))
            .collect();
        spans.sort_by_key(|s| (s.range.start, s.range.end));
        spans.dedup();
        if spans.is_empty() {
            return Vec::new();
        }
        per_part.push(spans);
    }
    let mut out = Vec::new();
    let mut chain = Vec::new();
    extend(text, &per_part, &mut chain, &mut out, refusals);
    out
}

fn extend(
    text: &Text,
    per_part: &[Vec<Span>],
    chain: &mut Vec<Span>,
    out: &mut Vec<Vec<Span>>,
    refusals: &mut Refusals,
) {
    let s = chain.len();
    if s == per_part.len() {
        out.push(chain.clone());
        return;
    }
    for span in &per_part[s] {
        if out.len() >= MAX_CHAINS {
            return;
        }
        if let Some(prev) = chain.last() {
            let prev_last = prev.first + prev.lines - 1;
            if span.first <= prev_last {
                continue;
            }
            match inside_one_block(text, prev, span) {
                Region::Inside => {}
                Region::Closes => {
                    refusals
                        .outside_block
                        .get_or_insert((prev_last + 2, span.first));
                    // Later spans only take in more lines, which still close the block.
                    break;
                }
                Region::Dedents => {
                    refusals
                        .outside_block
                        .get_or_insert((prev_last + 2, span.first));
                    continue;
                }
            }
        }
        chain.push(span.clone());
        extend(text, per_part, chain, out, refusals);
        chain.pop();
    }
}

enum Region {
    Inside,
    /// A bracket opened before the elided lines is closed inside them.
    Closes,
    /// An elided line is shallower than the block around it.
    Dedents,
}

/// Columns of a line's indentation (a tab counts 4).
fn width(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// Checks the lines strictly between `prev` and `next`.
fn inside_one_block(text: &Text, prev: &Span, next: &Span) -> Region {
    let from = prev.first + prev.lines;
    let to = next.first;
    let mut depth: i64 = 0;
    for i in from..to {
        for delta in brackets(text.line(i)) {
            depth += delta;
            if depth < 0 {
                return Region::Closes;
            }
        }
    }
    let before = (prev.first..from)
        .rev()
        .map(|i| text.line(i))
        .find(|l| !l.trim().is_empty());
    let after = (to..next.first + next.lines)
        .map(|i| text.line(i))
        .find(|l| !l.trim().is_empty());
    let (Some(before), Some(after)) = (before, after) else {
        return Region::Inside;
    };
    let (a, b) = (width(before), width(after));
    let floor = if a < b { a + 1 } else { b };
    let shallow = (from..to)
        .map(|i| text.line(i))
        .any(|l| !l.trim().is_empty() && width(l) < floor);
    if shallow {
        Region::Dedents
    } else {
        Region::Inside
    }
}

/// +1 / -1 for each bracket of `line` outside quotes and line comments.
fn brackets(line: &str) -> Vec<i64> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let prev = if k > 0 { chars[k - 1] } else { ' ' };
        k += 1;
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '`' => quote = Some(c),
            '\'' if !prev.is_alphanumeric() && !is_lifetime(&chars[k..]) => quote = Some(c),
            '/' if chars.get(k) == Some(&'/') => break,
            '#' if prev.is_whitespace() => break,
            '{' | '(' | '[' => out.push(1),
            '}' | ')' | ']' => out.push(-1),
            _ => {}
        }
    }
    out
}

/// Whether what follows an apostrophe reads as a Rust lifetime (`'a`, `'static`)
/// rather than a quoted character or string.
fn is_lifetime(after: &[char]) -> bool {
    match after {
        [c, next, ..] => (c.is_alphabetic() || *c == '_') && *next != '\'',
        [c] => c.is_alphabetic(),
        [] => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_need_text_on_both_sides() {
        let n = Needle::parse("fn a() {\n    // ...\n}\n");
        let p = split(&n).unwrap();
        assert_eq!(p.segments.len(), 2);
        assert_eq!(p.markers, ["// ..."]);
        assert!(p.segments[1].starts_line);
        assert!(split(&Needle::parse("// ...\n}\n")).is_none());
        assert!(split(&Needle::parse("fn a() {\n}\n")).is_none());
    }

    #[test]
    fn brackets_skip_strings_and_comments() {
        assert_eq!(brackets("f(\"{\", x) // }"), vec![1, -1]);
        assert_eq!(brackets("it's { # }"), vec![1]);
        assert_eq!(brackets("fn f<'a>(x: &'a str) {"), vec![1, -1, 1]);
    }
}
