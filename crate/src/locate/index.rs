//! The scope's lines indexed once per call, so no tolerant level rescans the file.
//!
//! Every line of the scope that may equal one of the needle's whole lines gets its
//! [core hash](super::fold::core_hash) ([`Text::line_hashes_like`]); the others are
//! never equal to one. A needle's candidate windows are the places
//! where all its whole lines have matching core hashes — found from the rarest of them —
//! and only those windows are verified, level by level, with the real keys. A needle
//! without a whole line (one line, or two partial ones) is anchored on its longest word
//! instead, searched for in the raw text (keys never change words).

use super::fold::{core_hash, longest_word};
use super::needle::{Needle, Shape};
use super::Scope;
use crate::text::hash::FastHash;
use crate::text::Text;
use std::collections::HashMap;

/// Core hashes of the scope's lines.
pub struct LineIndex<'t> {
    /// First line of the scope (0-based) and one past its last.
    pub first: usize,
    pub end: usize,
    text: &'t Text<'t>,
}

impl<'t> LineIndex<'t> {
    pub fn build(text: &'t Text, scope: &Scope) -> LineIndex<'t> {
        let (first, last) = scope.line_span(text);
        if scope.range.is_empty() || text.line_count() == 0 || first > last {
            return LineIndex {
                first: 0,
                end: 0,
                text,
            };
        }
        let end = last.min(text.line_count() - 1) + 1;
        LineIndex { first, end, text }
    }

    /// First file lines of the windows where `needle` may match, in order.
    pub fn windows(&self, text: &Text, scope: &Scope, needle: &Needle) -> Vec<usize> {
        let m = needle.len();
        if m == 0 || m > self.end - self.first {
            return Vec::new();
        }
        let last_start = self.end - m;
        let full: Vec<usize> = (0..m).filter(|&j| needle.shape(j) == Shape::Full).collect();
        if full.is_empty() {
            return self.word_windows(text, scope, needle, last_start);
        }
        let wanted: Vec<u64> = needle.lines.iter().map(|l| core_hash(l)).collect();
        if let Some(map) = self.text.kept_line_map() {
            return self.mapped_windows(map, &full, &wanted, last_start);
        }
        // Only full lines are compared: the others' hashes are never asked for.
        let like: Vec<&str> = full.iter().map(|&j| needle.lines[j].as_ref()).collect();
        let hashes = self.text.line_hashes_like(self.first..self.end, &like);
        let mut counts: HashMap<u64, usize, FastHash> =
            full.iter().map(|&j| (wanted[j], 0)).collect();
        for h in hashes.iter() {
            if let Some(c) = counts.get_mut(h) {
                *c += 1;
            }
        }
        let Some(&anchor) = full
            .iter()
            .min_by_key(|&&j| counts.get(&wanted[j]).copied().unwrap_or(0))
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, h) in hashes.iter().enumerate() {
            if *h != wanted[anchor] || k < anchor {
                continue;
            }
            let i = self.first + k - anchor;
            if i > last_start {
                break;
            }
            if full
                .iter()
                .all(|&j| hashes[i - self.first + j] == wanted[j])
            {
                out.push(i);
            }
        }
        out
    }

    /// [`LineIndex::windows`] from the text's line map (a kept string's): the rarest
    /// full line's lines in scope anchor the windows, as the scan's counts pick it.
    fn mapped_windows(
        &self,
        map: &crate::text::LineMap,
        full: &[usize],
        wanted: &[u64],
        last_start: usize,
    ) -> Vec<usize> {
        let in_scope = |h: u64| map.lines_with_in(h, self.first..self.end);
        let Some(&anchor) = full.iter().min_by_key(|&&j| in_scope(wanted[j]).len()) else {
            return Vec::new();
        };
        let hashes = self.text.line_hashes();
        let mut out = Vec::new();
        for &l in in_scope(wanted[anchor]) {
            if l < self.first + anchor {
                continue;
            }
            let i = l - anchor;
            if i > last_start {
                break;
            }
            if full.iter().all(|&j| hashes[i + j] == wanted[j]) {
                out.push(i);
            }
        }
        out
    }

    /// Windows anchored on the needle's longest word (every window when it has none).
    fn word_windows(
        &self,
        text: &Text,
        scope: &Scope,
        needle: &Needle,
        last_start: usize,
    ) -> Vec<usize> {
        let best = needle
            .lines
            .iter()
            .enumerate()
            .map(|(j, l)| (j, longest_word(l)))
            .max_by_key(|(j, w)| (w.len(), std::cmp::Reverse(*j)));
        let Some((j, word)) = best.filter(|(_, w)| !w.is_empty()) else {
            return (self.first..=last_start).collect();
        };
        let from = text.line_start(self.first);
        let to = scope.range.end.min(text.len()).max(from);
        let hay = &text.as_str().as_bytes()[from..to];
        let mut out: Vec<usize> = Vec::new();
        for hit in memchr::memmem::find_iter(hay, word.as_bytes()) {
            let line = text.line_of(from + hit);
            if line < self.first + j {
                continue;
            }
            let i = line - j;
            if i > last_start {
                break;
            }
            if out.last() != Some(&i) {
                out.push(i);
            }
        }
        out
    }
}
