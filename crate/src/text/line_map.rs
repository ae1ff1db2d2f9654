//! A text's lines grouped by [core hash](super::hash::core_hash): which lines may equal
//! a given line, without reading the others.
//!
//! Built once per text, on demand, from [`Text::line_hashes`](super::Text::line_hashes):
//! one pass counts each hash's lines, a second writes the line numbers into one array,
//! grouped by hash and ascending within a group (so a search from a line on is a binary
//! search into its group). Equal lines have equal core hashes, so a line missing from a
//! hash's group can never equal a line with that hash; a collision only adds a line to
//! verify.

use super::hash::FastHash;
use std::collections::HashMap;

/// Line numbers grouped by core hash.
#[derive(Debug, Default)]
pub struct LineMap {
    /// Every line number, grouped by hash, ascending within a group.
    lines: Vec<usize>,
    /// A hash's group: its start in `lines` and its length.
    groups: HashMap<u64, (usize, usize), FastHash>,
}

impl LineMap {
    /// The map of lines whose core hashes are `hashes` (line `k` has `hashes[k]`).
    pub fn build(hashes: &[u64]) -> LineMap {
        let mut groups: HashMap<u64, (usize, usize), FastHash> =
            HashMap::with_capacity_and_hasher(hashes.len() / 2 + 1, FastHash::default());
        for &h in hashes {
            groups.entry(h).or_insert((0, 0)).1 += 1;
        }
        // Each group's start; its length counts up again while the lines are written.
        let mut next = 0;
        for group in groups.values_mut() {
            group.0 = next;
            next += group.1;
            group.1 = 0;
        }
        let mut lines = vec![0; hashes.len()];
        for (k, h) in hashes.iter().enumerate() {
            if let Some(group) = groups.get_mut(h) {
                lines[group.0 + group.1] = k;
                group.1 += 1;
            }
        }
        LineMap { lines, groups }
    }

    /// The lines whose core hash is `hash`, ascending.
    pub fn lines_with(&self, hash: u64) -> &[usize] {
        match self.groups.get(&hash) {
            Some(&(start, len)) => &self.lines[start..start + len],
            None => &[],
        }
    }

    /// The lines whose core hash is `hash` within `lines`, ascending (a binary search
    /// into the group at each end).
    pub fn lines_with_in(&self, hash: u64, lines: std::ops::Range<usize>) -> &[usize] {
        let group = self.lines_with(hash);
        let from = group.partition_point(|&k| k < lines.start);
        let to = group.partition_point(|&k| k < lines.end).max(from);
        &group[from..to]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A group's lines within a range are those a filter of the group keeps.
        #[test]
        fn lines_within_a_range_are_the_groups_lines_there(
            hashes in prop::collection::vec(0u64..4, 0..60),
            hash in 0u64..5,
            (a, b) in (0usize..70, 0usize..70),
        ) {
            let map = LineMap::build(&hashes);
            let want: Vec<usize> = map.lines_with(hash).iter().copied().filter(|k| (a..b).contains(k)).collect();
            prop_assert_eq!(map.lines_with_in(hash, a..b), &want[..]);
        }
    }
}
