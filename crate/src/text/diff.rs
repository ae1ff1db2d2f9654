//! Line diffs with bounded work: every diff the engine runs goes through [`diff_lines`].
//!
//! `similar`'s Myers diff costs about D² steps for D differing lines, whatever the
//! lengths: two lines replaced by 100 000 took seconds. A deadline would bound it, but
//! wasm has no clock and a deadline makes results depend on machine speed. The bound
//! here is on work, so the same input always gives the same diff:
//!
//! 1. Lines are interned to integers once (one hash per line).
//! 2. A greedy Myers distance pass, stopped after a bounded number of rounds, tells
//!    whether the problem has few enough differences for Myers to be cheap (its work is
//!    then about the pass's). Every ordinary edit passes, and gets exactly the diff
//!    Myers always gave it.
//! 3. Any other is trimmed of its common first and last lines, then cut at the lines
//!    that occur once on each side, in an order both sides share (patience anchors); the
//!    pieces between anchors are solved the same way, to [`MAX_DEPTH`] levels.
//! 4. A piece without anchors but narrow (one side short, as when two lines are
//!    replaced by a long text) gets an exact longest-common-subsequence table when it
//!    has at most [`TABLE_MAX_CELLS`] cells.
//! 5. Anything else is reported as one replaced block: still a correct diff, not
//!    minimal only for inputs no person edits by hand.
//!
//! Passes, Myers runs and tables spend from one [`Budget`] per result (all the pieces
//! and stretches of one file's diff share it); once it is spent, what is left is
//! replaced whole.
//! Besides the budget, each level does linear work (hashing, counting, a longest
//! increasing subsequence in n log n): O((n + m) · log(n + m) · MAX_DEPTH) in all.

use similar::{capture_diff_slices, Algorithm, DiffOp};
use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Range;

/// Steps of work (distance passes, Myers, tables) one diff may spend in all; past
/// it, what is left is replaced whole. A Myers run is charged D² (its search visits
/// about that many diagonals) plus what its distance pass took; the budget is about
/// 0.2 s of work at the worst.
pub const WORK_BUDGET: usize = 60_000_000;

/// Most steps one distance pass may take: a problem whose pass ends within this goes
/// to Myers, whose work is then about the same.
pub const MYERS_MAX_WORK: usize = 50_000_000;

/// Most cells of the exact table for a narrow problem (one byte of backtrack each).
pub const TABLE_MAX_CELLS: usize = 4_000_000;

/// How many times a piece is cut at anchors before it is replaced whole.
pub const MAX_DEPTH: usize = 6;

/// Work left for the diffs of one result (shared by its pieces, so that many pieces
/// cost no more than one).
pub struct Budget {
    left: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget { left: WORK_BUDGET }
    }
}

impl Budget {
    fn spend(&mut self, steps: usize) {
        self.left = self.left.saturating_sub(steps);
    }
}

/// An op's shape: whether its lines are equal, and how many lines of the old and of
/// the new sequence it covers (what callers walking the ops in order need).
pub fn op_lens(op: &DiffOp) -> (bool, usize, usize) {
    match *op {
        DiffOp::Equal { len, .. } => (true, len, len),
        DiffOp::Delete { old_len, .. } => (false, old_len, 0),
        DiffOp::Insert { new_len, .. } => (false, 0, new_len),
        DiffOp::Replace {
            old_len, new_len, ..
        } => (false, old_len, new_len),
    }
}

/// The diff of two line lists as `similar` ops, in order, each op's indices being where
/// it starts in the whole lists.
pub fn diff_lines<T: Hash + Eq>(old: &[T], new: &[T]) -> Vec<DiffOp> {
    diff_lines_within(old, new, &mut Budget::default())
}

/// [`diff_lines`] spending from a budget shared with other diffs.
pub fn diff_lines_within<T: Hash + Eq>(old: &[T], new: &[T], budget: &mut Budget) -> Vec<DiffOp> {
    let (a, b) = intern(old, new);
    let mut out = Vec::new();
    let mut p = Problem {
        a: &a,
        b: &b,
        budget,
        out: &mut out,
    };
    p.solve(0..a.len(), 0..b.len(), MAX_DEPTH);
    out
}

/// Both lists as small integers, equal lines getting equal numbers.
fn intern<T: Hash + Eq>(old: &[T], new: &[T]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&T, u32> = HashMap::with_capacity(old.len() + new.len());
    let mut id = |line| {
        let next = ids.len() as u32;
        *ids.entry(line).or_insert(next)
    };
    let a = old.iter().map(&mut id).collect();
    let b = new.iter().map(&mut id).collect();
    (a, b)
}

struct Problem<'a> {
    a: &'a [u32],
    b: &'a [u32],
    budget: &'a mut Budget,
    out: &'a mut Vec<DiffOp>,
}

impl Problem<'_> {
    fn solve(&mut self, o: Range<usize>, n: Range<usize>, depth: usize) {
        if self.try_myers(o.clone(), n.clone()) {
            return;
        }
        let (a, b) = (self.a, self.b);
        let head = a[o.clone()]
            .iter()
            .zip(&b[n.clone()])
            .take_while(|(x, y)| x == y)
            .count();
        let tail = a[o.start + head..o.end]
            .iter()
            .rev()
            .zip(b[n.start + head..n.end].iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        equal(o.start, n.start, head, self.out);
        self.middle(
            o.start + head..o.end - tail,
            n.start + head..n.end - tail,
            depth,
        );
        equal(o.end - tail, n.end - tail, tail, self.out);
    }

    /// Runs Myers when a distance pass within budget shows it cheap.
    fn try_myers(&mut self, o: Range<usize>, n: Range<usize>) -> bool {
        let len = o.len() + n.len();
        let left = self.budget.left;
        let max_d = (left.min(MYERS_MAX_WORK) / len.max(1))
            .min(left.isqrt())
            .min(len);
        let (found, d, steps) = distance_within(&self.a[o.clone()], &self.b[n.clone()], max_d);
        self.budget.spend(steps);
        if found {
            self.budget.spend(d * d + len);
            myers(self.a, o, self.b, n, self.out);
        }
        found
    }

    /// A problem with no common first or last line.
    fn middle(&mut self, o: Range<usize>, n: Range<usize>, depth: usize) {
        if o.is_empty() || n.is_empty() {
            return myers(self.a, o, self.b, n, self.out);
        }
        let anchors = if depth > 0 {
            anchors(self.a, o.clone(), self.b, n.clone())
        } else {
            Vec::new()
        };
        if anchors.is_empty() {
            let cells = o.len().saturating_mul(n.len());
            if cells <= TABLE_MAX_CELLS && cells <= self.budget.left {
                self.budget.spend(cells);
                return table(self.a, o, self.b, n, self.out);
            }
            return replace(o, n, self.out);
        }
        let (mut i, mut j) = (o.start, n.start);
        for (x, y) in anchors {
            self.solve(i..x, j..y, depth - 1);
            equal(x, y, 1, self.out);
            (i, j) = (x + 1, y + 1);
        }
        self.solve(i..o.end, j..n.end, depth - 1);
    }
}

/// Whether `a` becomes `b` with at most `max_d` lines deleted or inserted (Myers'
/// greedy forward pass, stopped after `max_d` rounds), with how many (when it does)
/// and the steps the pass took.
fn distance_within(a: &[u32], b: &[u32], max_d: usize) -> (bool, usize, usize) {
    let (n, m) = (a.len() as isize, b.len() as isize);
    if (n - m).unsigned_abs() > max_d {
        return (false, 0, 1);
    }
    let max_d = max_d as isize;
    let off = max_d + 1;
    // v[off + k]: the furthest x reached on diagonal k = x - y.
    let mut v = vec![0isize; 2 * max_d as usize + 3];
    let mut steps = 0;
    for d in 0..=max_d {
        for k in (-d..=d).step_by(2) {
            let at = (off + k) as usize;
            let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
                v[at + 1]
            } else {
                v[at - 1] + 1
            };
            let mut y = x - k;
            let from = x;
            while x < n && y >= 0 && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            steps += 1 + (x - from) as usize;
            v[at] = x;
            if x >= n && y >= m {
                return (true, d as usize, steps);
            }
        }
    }
    (false, 0, steps)
}

/// Positions `(i, j)` of lines occurring once in `a[o]` and once in `b[n]`, the longest
/// chain of them increasing on both sides.
fn anchors(a: &[u32], o: Range<usize>, b: &[u32], n: Range<usize>) -> Vec<(usize, usize)> {
    // Per line: (count in a, position in a, count in b, position in b).
    let mut seen: HashMap<u32, (u32, usize, u32, usize)> = HashMap::new();
    for i in o {
        let e = seen.entry(a[i]).or_insert((0, i, 0, 0));
        e.0 += 1;
        e.1 = i;
    }
    for j in n.clone() {
        if let Some(e) = seen.get_mut(&b[j]) {
            e.2 += 1;
            e.3 = j;
        }
    }
    // Unique pairs in the order of `b`.
    let mut pairs: Vec<(usize, usize)> = n
        .filter_map(|j| match seen.get(&b[j]) {
            Some(&(1, i, 1, at)) if at == j => Some((i, j)),
            _ => None,
        })
        .collect();
    pairs.shrink_to_fit();
    increasing_chain(&pairs)
}

/// The longest subsequence of `pairs` (increasing in `.1`) also increasing in `.0`
/// (patience sorting, n log n).
fn increasing_chain(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tops[k]: index in `pairs` of the smallest last element of a chain of length k + 1.
    let mut tops: Vec<usize> = Vec::new();
    let mut back: Vec<Option<usize>> = vec![None; pairs.len()];
    for (p, &(i, _)) in pairs.iter().enumerate() {
        let k = tops.partition_point(|&t| pairs[t].0 < i);
        back[p] = k.checked_sub(1).map(|k| tops[k]);
        if k == tops.len() {
            tops.push(p);
        } else {
            tops[k] = p;
        }
    }
    let mut chain = Vec::with_capacity(tops.len());
    let mut at = tops.last().copied();
    while let Some(p) = at {
        chain.push(pairs[p]);
        at = back[p];
    }
    chain.reverse();
    chain
}

fn myers(a: &[u32], o: Range<usize>, b: &[u32], n: Range<usize>, out: &mut Vec<DiffOp>) {
    let (mut i, mut j) = (o.start, n.start);
    for op in capture_diff_slices(Algorithm::Myers, &a[o.clone()], &b[n.clone()]) {
        let placed = place(op, i, j);
        let (_, old, new) = placed.as_tag_tuple();
        (i, j) = (old.end, new.end);
        out.push(placed);
    }
}

/// An exact longest common subsequence by table, for a narrow problem.
fn table(a: &[u32], o: Range<usize>, b: &[u32], n: Range<usize>, out: &mut Vec<DiffOp>) {
    let (rows, cols) = (o.len(), n.len());
    // lcs[j]: the LCS length of the rows seen so far (suffixes) against b[n][j..].
    // step[i * cols + j]: 0 take both, 1 skip the old line, 2 skip the new line.
    let mut step = vec![0u8; rows * cols];
    let mut below = vec![0u32; cols + 1];
    let mut row = vec![0u32; cols + 1];
    for i in (0..rows).rev() {
        row[cols] = 0;
        for j in (0..cols).rev() {
            let (v, s) = if a[o.start + i] == b[n.start + j] {
                (below[j + 1] + 1, 0)
            } else if below[j] >= row[j + 1] {
                (below[j], 1)
            } else {
                (row[j + 1], 2)
            };
            row[j] = v;
            step[i * cols + j] = s;
        }
        std::mem::swap(&mut row, &mut below);
    }
    let (mut i, mut j) = (0, 0);
    while i < rows || j < cols {
        if i == rows {
            insert(o.start + i, n.start + j, 1, out);
            j += 1;
        } else if j == cols {
            delete(o.start + i, n.start + j, 1, out);
            i += 1;
        } else {
            match step[i * cols + j] {
                0 => {
                    equal(o.start + i, n.start + j, 1, out);
                    (i, j) = (i + 1, j + 1);
                }
                1 => {
                    delete(o.start + i, n.start + j, 1, out);
                    i += 1;
                }
                _ => {
                    insert(o.start + i, n.start + j, 1, out);
                    j += 1;
                }
            }
        }
    }
}

fn replace(o: Range<usize>, n: Range<usize>, out: &mut Vec<DiffOp>) {
    out.push(DiffOp::Replace {
        old_index: o.start,
        old_len: o.len(),
        new_index: n.start,
        new_len: n.len(),
    });
}

/// Appends equal lines, joining them to an equal run just before.
fn equal(old_index: usize, new_index: usize, len: usize, out: &mut Vec<DiffOp>) {
    if len == 0 {
        return;
    }
    if let Some(DiffOp::Equal { len: last, .. }) = out.last_mut() {
        *last += len;
        return;
    }
    out.push(DiffOp::Equal {
        old_index,
        new_index,
        len,
    });
}

fn delete(old_index: usize, new_index: usize, len: usize, out: &mut Vec<DiffOp>) {
    if let Some(DiffOp::Delete { old_len, .. }) = out.last_mut() {
        *old_len += len;
        return;
    }
    out.push(DiffOp::Delete {
        old_index,
        old_len: len,
        new_index,
    });
}

fn insert(old_index: usize, new_index: usize, len: usize, out: &mut Vec<DiffOp>) {
    if let Some(DiffOp::Insert { new_len, .. }) = out.last_mut() {
        *new_len += len;
        return;
    }
    out.push(DiffOp::Insert {
        old_index,
        new_index,
        new_len: len,
    });
}

/// `op` placed at `(o, n)`: `similar` does not always set the index of the side an
/// op does not touch, so positions are recomputed from the ops' order and lengths.
fn place(op: DiffOp, o: usize, n: usize) -> DiffOp {
    match op {
        DiffOp::Equal { len, .. } => DiffOp::Equal {
            old_index: o,
            new_index: n,
            len,
        },
        DiffOp::Delete { old_len, .. } => DiffOp::Delete {
            old_index: o,
            old_len,
            new_index: n,
        },
        DiffOp::Insert { new_len, .. } => DiffOp::Insert {
            old_index: o,
            new_index: n,
            new_len,
        },
        DiffOp::Replace {
            old_len, new_len, ..
        } => DiffOp::Replace {
            old_index: o,
            old_len,
            new_index: n,
            new_len,
        },
    }
}

#[cfg(test)]
mod tests;
