//! The `blank_lines` level: how many blank lines stand between lines.
//!
//! The request's lines with content must match whole file lines (trailing whitespace
//! forgiven, as the levels before), in order, with only blank lines between them — any
//! number of them, on either side: the request may show one blank line more or fewer
//! than the file anywhere, none where the file has some, some where the file has none.
//! Blank lines are not counted at all, so two places that differ only in their blank
//! lines are both candidates (`ambiguous`), never one of them.
//!
//! Writing keeps the file's bytes: the request's blank lines pair with the file's in
//! order; the last paired one also stands for the file's extra blank lines, and a
//! request blank line the file lacks is [`Piece::absent`] (kept, it writes nothing).
//! Where the file has blank lines the request does not show (a hidden gap), they stay
//! beside the request line new_str keeps on that side; when new_str keeps both lines
//! around it with new lines between them, or keeps neither, which side those lines go
//! is not certain and the call is refused (see [`Merge::gaps`]).
//!
//! [`reference`] is the level's definition written the slow way (both sides without
//! their blank lines, every window compared); the property test in `tests` holds
//! [`matches`] to it.

use super::fold::{core_hash, key, Key};
use super::merge::{Gap, Merge, Piece, Segment};
use super::needle::{content_end, content_start, Needle, Span};
use super::{Scope, Via};
use crate::text::Text;

fn blank(l: &str) -> bool {
    l.trim().is_empty()
}

fn same(a: &str, b: &str) -> bool {
    key(a, Key::TrimEnd) == key(b, Key::TrimEnd)
}

/// Whether `needle` can match at this level: two lines with content or more.
pub fn applies(needle: &Needle) -> bool {
    needle.lines.iter().filter(|l| !blank(l)).count() >= 2
}

/// The request's lines with content (0-based indices in the needle).
fn content_lines(needle: &Needle) -> Vec<usize> {
    (0..needle.len())
        .filter(|&j| !blank(&needle.lines[j]))
        .collect()
}

/// Every match of `needle` in `scope` at this level, each with its merge.
pub fn matches(text: &Text, needle: &Needle, scope: &Scope) -> Vec<(Span, Merge)> {
    if !applies(needle) || scope.range.is_empty() {
        return Vec::new();
    }
    let (lo, hi) = scope.line_span(text);
    let hi = hi.min(text.line_count().saturating_sub(1));
    let wanted = content_lines(needle);
    let first = needle.lines[wanted[0]].as_ref();
    // Lines equal but for trailing whitespace have one core hash (`fold`): the text's
    // kept line hashes pick the candidates, and only those are compared (a scan of
    // every line's key was a third of a diagnosed miss on 100 000 lines).
    let want = core_hash(first);
    let candidates: Vec<usize> = match text.kept_line_map() {
        // A kept string's line map lists them (ascending).
        Some(map) => map.lines_with_in(want, lo..hi + 1).to_vec(),
        None => {
            let hashes = text.line_hashes_like(lo..hi + 1, &[first]);
            (lo..=hi)
                .filter(|&i| hashes.get(i - lo) == Some(&want))
                .collect()
        }
    };
    candidates
        .into_iter()
        .filter(|&i| same(text.line(i), first))
        .filter_map(|i| walk(text, needle, &wanted, i, hi))
        .map(|at| merge_at(text, needle, &wanted, &at, (lo, hi)))
        .collect()
}

/// The file lines the request's lines with content match when the first one is at
/// file line `i`: each next one is the next file line with content. None when one
/// differs or the scope ends first.
fn walk(text: &Text, needle: &Needle, wanted: &[usize], i: usize, hi: usize) -> Option<Vec<usize>> {
    let mut at = vec![i];
    let mut f = i;
    for &j in &wanted[1..] {
        f = (f + 1..=hi).find(|&k| !blank(text.line(k)))?;
        if !same(text.line(f), &needle.lines[j]) {
            return None;
        }
        at.push(f);
    }
    Some(at)
}

/// For each request line, the file lines it stands for (empty: absent).
type Pairs = Vec<Vec<usize>>;

/// Pairs a run of `a` request blank lines with the file's blank lines `gap` (in
/// order): one to one, the last paired one standing for the file's extra ones.
fn pair_run(a: usize, gap: std::ops::Range<usize>, out: &mut Pairs) {
    let b = gap.len();
    for k in 0..a {
        out.push(if k + 1 == a.min(b) {
            (gap.start + k..gap.end).collect()
        } else if k < b {
            vec![gap.start + k]
        } else {
            Vec::new()
        });
    }
}

/// The merge writing a replacement at one match (`at`: the file line of each request
/// line with content), pairing the request's blank lines with the file's.
fn merge_at(
    text: &Text,
    needle: &Needle,
    wanted: &[usize],
    at: &[usize],
    (lo, hi): (usize, usize),
) -> (Span, Merge) {
    let n = needle.len();
    let mut pairs: Pairs = Vec::with_capacity(n);
    // Leading request blank lines: the file's blank lines just above, the last ones
    // paired first.
    let lead = wanted[0];
    let above = (lo..at[0])
        .rev()
        .take_while(|&k| blank(text.line(k)))
        .take(lead)
        .count();
    pairs.extend((0..lead - above).map(|_| Vec::new()));
    pairs.extend((at[0] - above..at[0]).map(|k| vec![k]));
    let mut gaps = Vec::new();
    for w in 0..wanted.len() {
        pairs.push(vec![at[w]]);
        let (run, gap) = match (wanted.get(w + 1), at.get(w + 1)) {
            (Some(&next_j), Some(&next_f)) => (next_j - wanted[w] - 1, at[w] + 1..next_f),
            _ => {
                // Trailing request blank lines: the file's blank lines just below.
                let run = n - 1 - wanted[w];
                let below = (at[w] + 1..=hi)
                    .take_while(|&k| blank(text.line(k)))
                    .take(run)
                    .count();
                (run, at[w] + 1..at[w] + 1 + below)
            }
        };
        if run == 0 && !gap.is_empty() {
            gaps.push(Gap {
                after: wanted[w],
                bytes: text.line_start(gap.start)..text.line_range(gap.end - 1).end,
                lines: (gap.start + 1, gap.end),
            });
        } else {
            pair_run(run, gap, &mut pairs);
        }
    }
    build(text, needle, &pairs, gaps)
}

/// The span and merge for request lines paired with file lines.
fn build(text: &Text, needle: &Needle, pairs: &[Vec<usize>], gaps: Vec<Gap>) -> (Span, Merge) {
    let real: Vec<usize> = (0..pairs.len()).filter(|&j| !pairs[j].is_empty()).collect();
    let first_j = real[0];
    let last_j = real[real.len() - 1];
    let start_line = pairs[first_j][0];
    let end_line = pairs[last_j][pairs[last_j].len() - 1];
    let pieces: Vec<Piece> = pairs
        .iter()
        .enumerate()
        .map(|(j, lines)| match (lines.first(), lines.last()) {
            (Some(&a), Some(&b)) => {
                let end = text.line_range(b).end;
                let term = if j != last_j || needle.terminated {
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
        gaps,
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

/// The level's definition, the slow way: both sides without their blank lines, every
/// window of the file's lines with content compared with the request's. Each match as
/// its (first, last) file line with content, 0-based.
#[cfg(test)]
pub fn reference(text: &Text, needle: &Needle, scope: &Scope) -> Vec<(usize, usize)> {
    if !applies(needle) || scope.range.is_empty() {
        return Vec::new();
    }
    let (lo, hi) = scope.line_span(text);
    let hi = hi.min(text.line_count().saturating_sub(1));
    let request: Vec<&str> = needle
        .lines
        .iter()
        .map(|l| l.as_ref())
        .filter(|l| !blank(l))
        .collect();
    let file: Vec<usize> = (lo..=hi).filter(|&k| !blank(text.line(k))).collect();
    file.windows(request.len())
        .filter(|w| w.iter().zip(&request).all(|(&f, r)| same(text.line(f), r)))
        .map(|w| (w[0], w[w.len() - 1]))
        .collect()
}

#[cfg(test)]
mod tests;
