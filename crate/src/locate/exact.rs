//! The cascade's first level: byte-exact occurrences of the needle.
//!
//! Found with `memmem` over the scope, or — once searches of the same text have
//! scanned it [`SCANS_BEFORE_MAP`] times over (a patch of many hunks searches from
//! each hunk to the end of the file, to know the hunk is unique there) — from the
//! text's [line map](crate::text::LineMap): a needle with a whole line (a line between
//! two of its line breaks) can only occur where a file line has that line's core hash,
//! so only those places are compared byte for byte. Both ways list the same
//! occurrences: the map's yields every occurrence, overlapping ones included, and the
//! non-overlapping ones are then picked left to right exactly as `memmem` finds them.

use super::{Candidate, Fix, Scope, Via};
use crate::text::hash::core_hash;
use crate::text::{strip_ending, Text};

/// How many times over a text is scanned by `memmem` before its line map is built
/// (building it costs a few scans: the core hash of every line and one map).
const SCANS_BEFORE_MAP: usize = 8;

/// Every byte-exact, non-overlapping occurrence of `needle` inside `scope` (and, when
/// there is only one, an occurrence overlapping it, if any).
pub fn find_exact(text: &Text, needle: &str, scope: &Scope) -> Vec<Candidate> {
    if needle.is_empty() {
        return Vec::new();
    }
    if let Some(starts) = by_line_map(text, needle, scope) {
        return pick(needle, &starts);
    }
    let hay = &text.as_str().as_bytes()[scope.range.clone()];
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let mut out = Vec::new();
    let mut at = 0;
    let bytes = text.as_str().as_bytes();
    while let Some(i) = finder.find(&hay[at..]) {
        let mut start = scope.range.start + at + i;
        let end = start + needle.len();
        // A needle starting with a line break must not split a CRLF: its `\r` belongs
        // to the match, or the replacement would leave it behind.
        let prev_end = out
            .last()
            .map_or(scope.range.start, |c: &Candidate| c.range.end);
        if needle.starts_with('\n') && start > prev_end && bytes[start - 1] == b'\r' {
            start -= 1;
        }
        out.push(exact(start..end));
        at += i + needle.len();
    }
    // One match is unique only if no other occurrence overlaps it (`aa` in `aaa`):
    // report such an occurrence too, so the match counts as ambiguous.
    if let [only] = out.as_slice() {
        let from = only.range.start + 1;
        let end = only.range.end;
        if from < end {
            if let Some(i) = finder.find(&text.as_str().as_bytes()[from..scope.range.end]) {
                let start = from + i;
                out.push(exact(start..start + needle.len()));
            }
        }
    }
    out
}

fn exact(range: std::ops::Range<usize>) -> Candidate {
    Candidate {
        range,
        via: Via::Exact,
        fix: Fix::Literal,
    }
}

/// The line-aligned byte-exact occurrences of a needle whose only line break ends it
/// (`X\n`, a patch's one-line hunk), from the line map, once searches of `text` have
/// scanned it [`SCANS_BEFORE_MAP`] times over; `None` for other needles or before then.
/// Two occurrences of such a needle cannot overlap (each ends at its only break), so
/// `memmem`'s non-overlapping occurrences are all of them, and the aligned ones are the
/// file lines that read the needle whole: what [`find_exact`] filtered to line starts
/// gives ([`super::find_lines`]).
pub fn aligned_by_line_map(text: &Text, needle: &str, scope: &Scope) -> Option<Vec<Candidate>> {
    if needle.starts_with('\n') || needle.find('\n') != Some(needle.len().checked_sub(1)?) {
        return None;
    }
    if !text.has_line_map() && text.note_scan(scope.range.len()) < SCANS_BEFORE_MAP * text.len() {
        return None;
    }
    let bytes = text.as_str().as_bytes();
    let reads = |k: usize| {
        let p = text.line_start(k);
        let fits = p >= scope.range.start && p + needle.len() <= scope.range.end;
        (fits && &bytes[p..p + needle.len()] == needle.as_bytes()).then_some(p)
    };
    let first = text.line_of(scope.range.start);
    let lines = text.line_map().lines_with(core_hash(strip_ending(needle)));
    // Line 0 is read whole: its hash may count a byte order mark the needle lacks.
    let mut starts: Vec<usize> = (first == 0)
        .then(|| reads(0))
        .flatten()
        .into_iter()
        .collect();
    let from = lines.partition_point(|&k| k < first.max(1));
    for &k in &lines[from..] {
        if text.line_start(k) + needle.len() > scope.range.end {
            break;
        }
        starts.extend(reads(k));
    }
    Some(
        starts
            .into_iter()
            .map(|p| exact(p..p + needle.len()))
            .collect(),
    )
}

/// [`find_exact`]'s result from every occurrence's start (ascending, overlapping ones
/// included): the non-overlapping ones from the left, as `memmem` finds them, and when
/// that is one, the next occurrence (which overlaps it). Only for needles that do not
/// start with a line break (those may widen a match over a `\r`).
fn pick(needle: &str, starts: &[usize]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut at = 0;
    for &p in starts {
        if p >= at {
            out.push(exact(p..p + needle.len()));
            at = p + needle.len();
        }
    }
    if let [only] = out.as_slice() {
        let first = only.range.start;
        if needle.len() > 1 {
            if let Some(&p) = starts.iter().find(|&&p| p > first) {
                out.push(exact(p..p + needle.len()));
            }
        }
    }
    out
}

/// Every occurrence of `needle` in `scope`, from the text's line map; `None` when the
/// needle has no whole line, starts with a line break, or `memmem` is still cheaper.
fn by_line_map(text: &Text, needle: &str, scope: &Scope) -> Option<Vec<usize>> {
    if needle.starts_with('\n') {
        return None;
    }
    // The needle's whole lines: those between two of its line breaks.
    let first_break = needle.find('\n')?;
    let inner = &needle[first_break + 1..];
    let whole: Vec<&str> = inner
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .collect();
    if whole.is_empty() {
        return None;
    }
    if !text.has_line_map() && text.note_scan(scope.range.len()) < SCANS_BEFORE_MAP * text.len() {
        return None;
    }
    let map = text.line_map();
    // The whole line with the fewest equal-hash file lines anchors the search: its
    // `j`-th whole line sits on file line `k` when the occurrence starts on line `k - j - 1`.
    let (j, lines) = whole
        .iter()
        .enumerate()
        .map(|(j, l)| (j, map.lines_with(core_hash(strip_ending(l)))))
        .min_by_key(|(_, lines)| lines.len())?;
    let head = first_break + 1;
    let bytes = text.as_str().as_bytes();
    let from = lines.partition_point(|&k| k < text.line_of(scope.range.start) + j + 1);
    let mut starts = Vec::new();
    for &k in &lines[from..] {
        // The occurrence's first break is the one that ends line `k - j - 1`.
        let Some(p) = text.line_start(k - j).checked_sub(head) else {
            continue;
        };
        if p + needle.len() > scope.range.end {
            break;
        }
        if p >= scope.range.start && &bytes[p..p + needle.len()] == needle.as_bytes() {
            starts.push(p);
        }
    }
    Some(starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text and needle over `a`, `\n`, `\r` up to a few bytes, every scope from a
    /// line start: the line map finds exactly what `memmem` finds.
    #[test]
    fn the_line_map_finds_what_memmem_finds() {
        let all = |max: usize| -> Vec<String> {
            let mut out = vec![String::new()];
            let mut last = vec![String::new()];
            for _ in 0..max {
                last = last
                    .iter()
                    .flat_map(|s| ["a", "\n", "\r"].map(|c| format!("{s}{c}")))
                    .collect();
                out.extend(last.iter().cloned());
            }
            out
        };
        let needles: Vec<String> = all(5)
            .into_iter()
            .filter(|n| n.matches('\n').count() >= 2)
            .collect();
        for src in all(7) {
            for needle in &needles {
                let plain = Text::new(&src);
                let mapped = Text::new(&src);
                mapped.line_map();
                for line in 0..plain.line_count().max(1) {
                    let scope = Scope {
                        range: plain.line_start(line)..src.len(),
                        label: None,
                        nearest: false,
                    };
                    assert_eq!(
                        find_exact(&plain, needle, &scope),
                        find_exact(&mapped, needle, &scope),
                        "{src:?} {needle:?} from line {line}"
                    );
                }
            }
        }
    }

    /// The same for a whole-line search (`find_lines`, a patch hunk's exact level) of a
    /// needle whose only line break ends it, from every offset: the line map's aligned
    /// occurrences are exactly memmem's filtered to line starts.
    #[test]
    fn the_line_map_finds_the_one_line_occurrences_memmem_finds() {
        let all = |max: usize| -> Vec<String> {
            let mut out = vec![String::new()];
            let mut last = vec![String::new()];
            for _ in 0..max {
                last = last
                    .iter()
                    .flat_map(|s| ["a", " ", "\n", "\r", "\u{feff}"].map(|c| format!("{s}{c}")))
                    .collect();
                out.extend(last.iter().cloned());
            }
            out
        };
        let needles: Vec<String> = all(3)
            .into_iter()
            .filter(|n| n.find('\n').is_some_and(|i| i + 1 == n.len()))
            .collect();
        for src in all(4) {
            let plain = Text::new(&src);
            let mapped = Text::new(&src);
            mapped.line_map();
            for needle in &needles {
                for start in (0..=src.len()).filter(|&i| src.is_char_boundary(i)) {
                    let scope = Scope {
                        range: start..src.len(),
                        label: None,
                        nearest: false,
                    };
                    assert_eq!(
                        crate::locate::find_lines(&plain, needle, &scope).candidates,
                        crate::locate::find_lines(&mapped, needle, &scope).candidates,
                        "{src:?} {needle:?} from {start}"
                    );
                }
            }
        }
    }

    /// Many whole-line searches of one text for one-line needles (a patch's hunks, in
    /// any order) stop scanning it whole each time: the line map is built and answers.
    #[test]
    fn many_one_line_searches_of_a_text_use_its_line_map() {
        let src: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        let text = Text::new(&src);
        for i in (0..200).rev() {
            let scope = Scope {
                range: 0..src.len(),
                label: None,
                nearest: false,
            };
            let found = crate::locate::find_lines(&text, &format!("line {i}\n"), &scope);
            assert_eq!(found.candidates.len(), 1);
            assert_eq!(found.candidates[0].range.start, text.line_start(i));
        }
        assert!(text.has_line_map());
    }
}
