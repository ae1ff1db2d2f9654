//! One change of one text: ordered, non-overlapping byte ranges of the old text, each
//! replaced by a new text.
//!
//! The one type a write is described by, whoever computes it: a tool that knows the
//! ranges it replaces hands them over ([`ChangeSet::from_splices`]); a write that only
//! has the new text gets the single range where the two texts differ
//! ([`ChangeSet::between`], common prefix and suffix trimmed, no line diff). Two writes
//! of one file in one call are one change ([`ChangeSet::compose`]); taking a change back
//! is its [`ChangeSet::invert`].
//!
//! Invariants (kept by every constructor): ranges are sorted, do not overlap and do
//! not touch (touching ones are joined), fall on char boundaries of the old text, and
//! none is a no-op (empty range with empty text).

use std::ops::Range;

/// Byte ranges of a text, each with the text that replaces it, in order.
pub type Splices = Vec<(Range<usize>, String)>;

/// A change of a text of `old_len` bytes (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeSet {
    old_len: usize,
    splices: Splices,
}

/// One step of a change read left to right: keep, drop or add bytes.
enum Op {
    Retain(usize),
    Delete(usize),
    Insert(String),
}

impl ChangeSet {
    /// No change of a text of `old_len` bytes.
    pub fn identity(old_len: usize) -> ChangeSet {
        ChangeSet {
            old_len,
            splices: Vec::new(),
        }
    }

    /// The change replacing each range of `old` by its text; None when the ranges are
    /// not sorted and disjoint, or a bound is past the end or inside a character.
    pub fn from_splices(old: &str, splices: Splices) -> Option<ChangeSet> {
        let mut at = 0;
        for (r, _) in &splices {
            let inside = r.start >= at && r.start <= r.end && r.end <= old.len();
            if !inside || !old.is_char_boundary(r.start) || !old.is_char_boundary(r.end) {
                return None;
            }
            at = r.end;
        }
        let mut out = ChangeSet::identity(old.len());
        for (r, text) in splices {
            out.push(r, &text);
        }
        Some(out)
    }

    /// The change from `old` to `new` as one range: where they differ, after their
    /// common prefix and suffix (on char boundaries). Linear; no line diff.
    pub fn between(old: &str, new: &str) -> ChangeSet {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut head = crate::text::scan::common_prefix_len(a, b);
        while !old.is_char_boundary(head) || !new.is_char_boundary(head) {
            head -= 1;
        }
        let max_tail = (a.len() - head).min(b.len() - head);
        let mut tail = crate::text::scan::common_suffix_len(&a[head..], &b[head..]).min(max_tail);
        while !old.is_char_boundary(a.len() - tail) || !new.is_char_boundary(b.len() - tail) {
            tail -= 1;
        }
        let mut out = ChangeSet::identity(old.len());
        out.push(head..a.len() - tail, &new[head..b.len() - tail]);
        out
    }

    /// The ranges of the old text and their new texts, in order.
    pub fn splices(&self) -> &[(Range<usize>, String)] {
        &self.splices
    }

    /// The length of the text this change applies to.
    pub fn old_len(&self) -> usize {
        self.old_len
    }

    /// The length of the text this change produces.
    pub fn new_len(&self) -> usize {
        let removed: usize = self.splices.iter().map(|(r, _)| r.len()).sum();
        let added: usize = self.splices.iter().map(|(_, t)| t.len()).sum();
        self.old_len - removed + added
    }

    /// True when the change changes nothing.
    pub fn is_empty(&self) -> bool {
        self.splices.is_empty()
    }

    /// The new text; None when `old` is not the text this change is of (its length
    /// differs).
    pub fn apply(&self, old: &str) -> Option<String> {
        (old.len() == self.old_len
            && self
                .splices
                .iter()
                .all(|(r, _)| old.is_char_boundary(r.start) && old.is_char_boundary(r.end)))
        .then(|| crate::text::splice(old, &self.splices))
    }

    /// The change that takes this one back: from the new text to `old` (the text this
    /// change applies to).
    pub fn invert(&self, old: &str) -> ChangeSet {
        let mut out = ChangeSet::identity(self.new_len());
        let mut shift: isize = 0;
        for (r, text) in &self.splices {
            let start = (r.start as isize + shift) as usize;
            out.splices
                .push((start..start + text.len(), old[r.clone()].to_string()));
            shift += text.len() as isize - r.len() as isize;
        }
        out
    }

    /// This change followed by `next` (a change of the text this one produces), as one
    /// change of the old text. None when `next` is of a text of another length.
    pub fn compose(&self, next: &ChangeSet) -> Option<ChangeSet> {
        if next.old_len != self.new_len() {
            return None;
        }
        let mut a = self.ops().into_iter();
        let mut b = next.ops().into_iter();
        let (mut x, mut y) = (a.next(), b.next());
        let mut out = Builder::new(self.old_len);
        loop {
            match (x.take(), y.take()) {
                (None, None) => break,
                (Some(Op::Delete(n)), other) => {
                    out.delete(n);
                    (x, y) = (a.next(), other);
                }
                (other, Some(Op::Insert(s))) => {
                    out.insert(&s);
                    (x, y) = (other, b.next());
                }
                (Some(Op::Retain(n)), Some(Op::Retain(m))) => {
                    out.retain(n.min(m));
                    (x, y) = rest(n, m, Op::Retain, Op::Retain, &mut a, &mut b);
                }
                (Some(Op::Retain(n)), Some(Op::Delete(m))) => {
                    out.delete(n.min(m));
                    (x, y) = rest(n, m, Op::Retain, Op::Delete, &mut a, &mut b);
                }
                (Some(Op::Insert(s)), Some(Op::Retain(m))) => {
                    let k = s.len().min(m);
                    out.insert(&s[..k]);
                    (x, y) = rest_insert(s, k, m, Op::Retain, &mut a, &mut b);
                }
                (Some(Op::Insert(s)), Some(Op::Delete(m))) => {
                    let k = s.len().min(m);
                    (x, y) = rest_insert(s, k, m, Op::Delete, &mut a, &mut b);
                }
                // Each side's ops cover its text: one running out first is a length
                // mismatch, ruled out above.
                (Some(_), None) | (None, Some(_)) => return None,
            }
        }
        Some(out.finish())
    }

    /// The change as keep / drop / add steps over the whole old text.
    fn ops(&self) -> Vec<Op> {
        let mut ops = Vec::with_capacity(self.splices.len() * 3 + 1);
        let mut at = 0;
        for (r, text) in &self.splices {
            if r.start > at {
                ops.push(Op::Retain(r.start - at));
            }
            if !r.is_empty() {
                ops.push(Op::Delete(r.len()));
            }
            if !text.is_empty() {
                ops.push(Op::Insert(text.clone()));
            }
            at = r.end;
        }
        if self.old_len > at {
            ops.push(Op::Retain(self.old_len - at));
        }
        ops
    }

    /// Adds a splice after the last one, joining it to the last when they touch.
    fn push(&mut self, range: Range<usize>, text: &str) {
        if range.is_empty() && text.is_empty() {
            return;
        }
        match self.splices.last_mut() {
            Some((last, t)) if last.end == range.start => {
                last.end = range.end;
                t.push_str(text);
            }
            _ => self.splices.push((range, text.to_string())),
        }
    }
}

/// What is left of two ops of lengths `n` and `m` after their common `min(n, m)`.
fn rest(
    n: usize,
    m: usize,
    left: fn(usize) -> Op,
    right: fn(usize) -> Op,
    a: &mut impl Iterator<Item = Op>,
    b: &mut impl Iterator<Item = Op>,
) -> (Option<Op>, Option<Op>) {
    match n.cmp(&m) {
        std::cmp::Ordering::Less => (a.next(), Some(right(m - n))),
        std::cmp::Ordering::Equal => (a.next(), b.next()),
        std::cmp::Ordering::Greater => (Some(left(n - m)), b.next()),
    }
}

/// [`rest`] for an insertion `s` of which the first `k` bytes met an op of length `m`.
fn rest_insert(
    s: String,
    k: usize,
    m: usize,
    right: fn(usize) -> Op,
    a: &mut impl Iterator<Item = Op>,
    b: &mut impl Iterator<Item = Op>,
) -> (Option<Op>, Option<Op>) {
    if k < s.len() {
        (Some(Op::Insert(s[k..].to_string())), b.next())
    } else if k < m {
        (a.next(), Some(right(m - k)))
    } else {
        (a.next(), b.next())
    }
}

/// Builds a change from keep / drop / add steps in order.
struct Builder {
    out: ChangeSet,
    at: usize,
}

impl Builder {
    fn new(old_len: usize) -> Builder {
        Builder {
            out: ChangeSet::identity(old_len),
            at: 0,
        }
    }
    fn retain(&mut self, n: usize) {
        self.at += n;
    }
    fn delete(&mut self, n: usize) {
        self.out.push(self.at..self.at + n, "");
        self.at += n;
    }
    fn insert(&mut self, s: &str) {
        self.out.push(self.at..self.at, s);
    }
    fn finish(self) -> ChangeSet {
        self.out
    }
}

#[cfg(test)]
mod tests;
