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
//! The first part must occur once in the scope: the block check says which later
//! occurrences belong to its block, never which occurrence of the first part was meant.
//! Every chain of parts that passes is a candidate, so a later part that occurs twice
//! in the block makes the request ambiguous rather than silently taking the first.

use super::fold::Key;
use super::index::LineIndex;
use super::needle::{verify, Needle, Span};
use super::Scope;
use crate::text::Text;
use std::borrow::Cow;

/// Most chains collected (enough to report an ambiguity).
const MAX_CHAINS: usize = 100;
/// Most elided lines examined in all, so parts that occur everywhere stay cheap; past
/// it the elision is refused rather than judged on a partial search.
const MAX_LINES_CHECKED: usize = 300_000;

/// A request cut at its marker lines.
pub struct Parts<'a> {
    pub segments: Vec<Needle<'a>>,
    /// Each marker line, trimmed.
    pub markers: Vec<String>,
}

/// The request's parts, when it has marker lines with something on both sides of each.
pub fn split<'a>(needle: &Needle<'a>) -> Option<Parts<'a>> {
    let texts = needle.texts();
    let marks = crate::text::placeholder::placeholder_lines(&texts, &[]);
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
    /// The parts occur in too many places to check every chain.
    pub too_many: bool,
    /// The first part occurs more than once: its 1-based lines.
    pub first_part_at: Vec<usize>,
}

/// The search's state: chains found and the line budget left.
struct Walk<'r> {
    out: Vec<Vec<Span>>,
    lines_left: usize,
    refusals: &'r mut Refusals,
}

/// Every chain of spans (one per part) in order, inside one block, at `key`.
pub fn chains(
    text: &Text,
    index: &LineIndex<'_>,
    scope: &Scope,
    parts: &Parts,
    key: Key,
    refusals: &mut Refusals,
) -> Vec<Vec<Span>> {
    chains_within(text, index, scope, parts, key, refusals, MAX_LINES_CHECKED)
}

fn chains_within(
    text: &Text,
    index: &LineIndex<'_>,
    scope: &Scope,
    parts: &Parts,
    key: Key,
    refusals: &mut Refusals,
    budget: usize,
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
        if per_part.is_empty() && spans.len() > 1 {
            // Which occurrence of the first part is meant is not for the block check
            // to guess: it only rules out later parts outside the first part's block.
            refusals.first_part_at = spans.iter().map(|s| s.first + 1).collect();
            return Vec::new();
        }
        per_part.push(spans);
    }
    let mut walk = Walk {
        out: Vec::new(),
        lines_left: budget,
        refusals,
    };
    extend(text, &per_part, &mut Vec::new(), &mut walk);
    if walk.refusals.too_many {
        return Vec::new();
    }
    if walk.out.is_empty() && walk.refusals.outside_block.is_some() {
        return balanced_chain(text, &per_part).into_iter().collect();
    }
    walk.out
}

/// The second rule, for a head that ends inside a nested block (`for … {`, then the
/// marker, then `return x` / `}`): the elided lines close the block the head ends in,
/// so the per-region check refuses them. The head is unique (checked before); each
/// later part is taken at its first occurrence after the previous one, and the whole
/// span from the head to the tail must be balanced: its bracket depth never drops
/// below zero, stays above zero over every elided line (the elided lines never leave
/// the outermost block the head opened, so they cannot swallow the end of one function
/// and the start of the next), and is zero at its end.
fn balanced_chain(text: &Text, per_part: &[Vec<Span>]) -> Option<Vec<Span>> {
    let head = per_part.first()?.first()?.clone();
    let mut chain = vec![head.clone()];
    let mut depth: i64 = 0;
    let mut next = head.first;
    for spans in per_part.iter().skip(1) {
        let prev_last = chain.last().map(|s| s.first + s.lines - 1)?;
        let span = spans.iter().find(|s| s.first > prev_last)?.clone();
        for i in next..span.first {
            let elided = i > prev_last;
            for delta in brackets(text.line(i)) {
                depth += delta;
                if depth < 0 || (elided && depth < 1) {
                    return None;
                }
            }
            if elided && depth < 1 {
                return None;
            }
        }
        next = span.first;
        chain.push(span);
    }
    let tail = chain.last()?;
    for i in next..tail.first + tail.lines {
        for delta in brackets(text.line(i)) {
            depth += delta;
            if depth < 0 {
                return None;
            }
        }
    }
    (depth == 0).then_some(chain)
}

fn extend(text: &Text, per_part: &[Vec<Span>], chain: &mut Vec<Span>, walk: &mut Walk) {
    let s = chain.len();
    if s == per_part.len() {
        walk.out.push(chain.clone());
        return;
    }
    let Some(prev) = chain.last().cloned() else {
        for span in &per_part[s] {
            if walk.out.len() >= MAX_CHAINS || walk.refusals.too_many {
                return;
            }
            chain.push(span.clone());
            extend(text, per_part, chain, walk);
            chain.pop();
        }
        return;
    };
    // Every later part's span elides the lines from here to its start: one scan over
    // growing regions serves them all.
    let prev_last = prev.first + prev.lines - 1;
    let before = (prev.first..=prev_last)
        .rev()
        .map(|i| text.line(i))
        .find(|l| !l.trim().is_empty())
        .map(width);
    let shallowest_after = per_part[s]
        .iter()
        .filter_map(|span| first_width(text, span))
        .min();
    let mut scan = Scan {
        next: prev_last + 1,
        depth: 0,
        closed: false,
        shallowest: None,
    };
    for span in &per_part[s] {
        if walk.out.len() >= MAX_CHAINS || walk.refusals.too_many {
            return;
        }
        if span.first <= prev_last {
            continue;
        }
        let cost = span.first.saturating_sub(scan.next);
        if cost > walk.lines_left {
            walk.refusals.too_many = true;
            return;
        }
        walk.lines_left -= cost;
        scan.advance(text, span.first);
        if scan.closed {
            // A bracket opened before the elided lines closed inside them; every later
            // span elides those lines too.
            walk.refusals
                .outside_block
                .get_or_insert((prev_last + 2, span.first));
            break;
        }
        let (Some(a), Some(b)) = (before, first_width(text, span)) else {
            // A part of blank lines only: nothing to compare indentation with.
            chain.push(span.clone());
            extend(text, per_part, chain, walk);
            chain.pop();
            continue;
        };
        // Deeper than the line before when it opens a block, else no shallower than
        // the shallower of the two lines around.
        let floor = if a < b { a + 1 } else { b };
        if scan.shallowest.is_some_and(|w| w < floor) {
            walk.refusals
                .outside_block
                .get_or_insert((prev_last + 2, span.first));
            let any_floor = shallowest_after.map_or(0, |m| if a < m { a + 1 } else { m });
            if scan.shallowest.is_some_and(|w| w < any_floor) {
                // Shallower than any later span could allow: none of them can pass.
                break;
            }
            continue;
        }
        chain.push(span.clone());
        extend(text, per_part, chain, walk);
        chain.pop();
    }
}

/// The elided lines seen so far after one part: bracket depth and shallowest line.
struct Scan {
    /// The next line to take in.
    next: usize,
    depth: i64,
    /// A bracket opened before the region closed inside it.
    closed: bool,
    shallowest: Option<usize>,
}

impl Scan {
    /// Takes in the lines up to (not including) `to`.
    fn advance(&mut self, text: &Text, to: usize) {
        while self.next < to && !self.closed {
            let line = text.line(self.next);
            for delta in brackets(line) {
                self.depth += delta;
                if self.depth < 0 {
                    self.closed = true;
                    break;
                }
            }
            if !line.trim().is_empty() {
                let w = width(line);
                self.shallowest = Some(self.shallowest.map_or(w, |s| s.min(w)));
            }
            self.next += 1;
        }
    }
}

/// Columns of a line's indentation (a tab counts 4).
fn width(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The indentation of a span's first non-blank line.
fn first_width(text: &Text, span: &Span) -> Option<usize> {
    (span.first..span.first + span.lines)
        .map(|i| text.line(i))
        .find(|l| !l.trim().is_empty())
        .map(width)
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
    fn past_the_budget_the_elision_is_refused() {
        let file = format!("fn a() {{\n{}    end()\n}}\n", "    step();\n".repeat(20));
        let text = Text::new(&file);
        let scope = Scope::whole(&text);
        let index = LineIndex::build(&text, &scope);
        let needle = Needle::parse("fn a() {\n    // ...\n    end()\n");
        let parts = split(&needle).unwrap();
        let mut refusals = Refusals::default();
        let found = chains_within(&text, &index, &scope, &parts, Key::Lines, &mut refusals, 10);
        assert!(found.is_empty() && refusals.too_many);
        let mut refusals = Refusals::default();
        let found = chains_within(
            &text,
            &index,
            &scope,
            &parts,
            Key::Lines,
            &mut refusals,
            100,
        );
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn a_head_inside_a_nested_block_needs_a_balanced_span() {
        let file = "fn a() {\n    for x in y {\n        f(x);\n    }\n    done\n}\n\nfn b() {\n    tail\n}\n";
        let text = Text::new(file);
        let scope = Scope::whole(&text);
        let index = LineIndex::build(&text, &scope);
        let find = |old: &str| {
            let needle = Needle::parse(old);
            let parts = split(&needle).unwrap();
            let mut refusals = Refusals::default();
            chains(&text, &index, &scope, &parts, Key::Lines, &mut refusals)
        };
        let found = find("fn a() {\n    for x in y {\n        // ...\n    done\n}\n");
        assert_eq!(found.len(), 1);
        assert_eq!((found[0][1].first, found[0][1].lines), (4, 2));
        // The tail is in `b`: the elided lines close `a` on the way.
        assert!(find("fn a() {\n    for x in y {\n        // ...\n    tail\n}\n").is_empty());
        // No closing bracket in the tail: the span ends one deep.
        assert!(find("fn a() {\n    for x in y {\n        // ...\n    done\n").is_empty());
    }

    #[test]
    fn brackets_skip_strings_and_comments() {
        assert_eq!(brackets("f(\"{\", x) // }"), vec![1, -1]);
        assert_eq!(brackets("it's { # }"), vec![1]);
        assert_eq!(brackets("fn f<'a>(x: &'a str) {"), vec![1, -1, 1]);
    }
}
