//! A sequence kept as shared pieces, so that a copy with one stretch replaced shares
//! every item outside the stretch with the original.
//!
//! The balance guard keeps one entry per line of a text (lexer checkpoints, Python's
//! line reading). An edit changes a few lines; copying 100 000 entries to build the
//! edited text's state would cost more than re-lexing the change. Here the items live
//! in `Arc`'d chunks; a [`Pieces`] is a list of ranges of such chunks, each with a
//! position shift (an item after an edit sits `shift` bytes later than where it was
//! recorded). [`Pieces::spliced`] builds "these items before, new ones, those after
//! shifted" in O(pieces + new items), never copying a kept item. When splices have cut
//! the list into too many small pieces it is rebuilt whole (amortised: once per as many
//! splices as it has chunks).
//!
//! Invariant: items are in position order (an item's position is what [`Item::shifted`]
//! moves); a shift applies to every item of its piece.

use std::sync::Arc;

/// Items per chunk when a sequence is built whole.
const CHUNK: usize = 1024;

/// How far items after an edit moved: bytes, lines, and lexer issues met before them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shift {
    pub bytes: i64,
    pub lines: i64,
    pub issues: i64,
}

impl std::ops::Add for Shift {
    type Output = Shift;
    fn add(self, o: Shift) -> Shift {
        Shift {
            bytes: self.bytes + o.bytes,
            lines: self.lines + o.lines,
            issues: self.issues + o.issues,
        }
    }
}

/// What a [`Pieces`] holds: a record that may carry a position.
pub trait Item: Clone {
    /// The same record moved by `by` (items without a position return themselves).
    fn shifted(&self, by: Shift) -> Self;
}

#[derive(Clone, Debug)]
struct Part<T> {
    items: Arc<[T]>,
    start: usize,
    end: usize,
    shift: Shift,
}

/// A sequence of `T` in shared pieces (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Pieces<T> {
    parts: Vec<Part<T>>,
    /// Items before each part (same length as `parts`).
    before: Vec<usize>,
    len: usize,
}

impl<T> Default for Pieces<T> {
    fn default() -> Self {
        Pieces {
            parts: Vec::new(),
            before: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Item> From<Vec<T>> for Pieces<T> {
    fn from(items: Vec<T>) -> Self {
        let mut p = Pieces::default();
        for chunk in items.chunks(CHUNK) {
            p.push_part(Part {
                items: Arc::from(chunk),
                start: 0,
                end: chunk.len(),
                shift: Shift::default(),
            });
        }
        p
    }
}

/// Collects a sequence chunk by chunk (no large buffer grown and copied).
#[derive(Clone, Debug)]
pub struct Builder<T> {
    done: Vec<Arc<[T]>>,
    current: Vec<T>,
}

impl<T> Default for Builder<T> {
    fn default() -> Self {
        Builder {
            done: Vec::new(),
            current: Vec::new(),
        }
    }
}

impl<T: Item> Builder<T> {
    pub fn push(&mut self, item: T) {
        if self.current.len() == CHUNK {
            let full = std::mem::replace(&mut self.current, Vec::with_capacity(CHUNK));
            self.done.push(Arc::from(full));
        } else if self.current.capacity() == 0 {
            self.current.reserve_exact(CHUNK);
        }
        self.current.push(item);
    }

    pub fn last(&self) -> Option<&T> {
        self.current
            .last()
            .or_else(|| self.done.last().and_then(|c| c.last()))
    }

    /// Every item, in order.
    pub fn into_vec(self) -> Vec<T> {
        let mut out: Vec<T> = self.done.iter().flat_map(|c| c.iter().cloned()).collect();
        out.extend(self.current);
        out
    }

    pub fn finish(self) -> Pieces<T> {
        let mut p = Pieces::default();
        let last = (!self.current.is_empty()).then(|| Arc::from(self.current));
        for items in self.done.into_iter().chain(last) {
            let end = items.len();
            p.push_part(Part {
                items,
                start: 0,
                end,
                shift: Shift::default(),
            });
        }
        p
    }
}

impl<T: Item> Pieces<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    fn push_part(&mut self, part: Part<T>) {
        if part.start >= part.end {
            return;
        }
        self.before.push(self.len);
        self.len += part.end - part.start;
        self.parts.push(part);
    }

    /// The part holding item `k` and `k`'s index in its chunk.
    fn locate(&self, k: usize) -> (usize, usize) {
        let p = self.before.partition_point(|&b| b <= k) - 1;
        (p, self.parts[p].start + k - self.before[p])
    }

    /// Item `k` (`k < len`).
    pub fn get(&self, k: usize) -> T {
        let (p, i) = self.locate(k);
        let part = &self.parts[p];
        part.items[i].shifted(part.shift)
    }

    /// The number of leading items for which `pred` holds (`pred` must hold for a
    /// prefix of the sequence, as for `slice::partition_point`).
    pub fn partition_point(&self, pred: impl Fn(&T) -> bool) -> usize {
        // The first part whose last item fails, then within it.
        let p = self
            .parts
            .partition_point(|part| pred(&part.items[part.end - 1].shifted(part.shift)));
        let Some(part) = self.parts.get(p) else {
            return self.len;
        };
        let within =
            part.items[part.start..part.end].partition_point(|t| pred(&t.shifted(part.shift)));
        self.before[p] + within
    }

    /// Every item, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = T> + '_ {
        self.parts.iter().flat_map(|part| {
            part.items[part.start..part.end]
                .iter()
                .map(move |t| t.shifted(part.shift))
        })
    }

    /// Items `from..` in order.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = T> + '_ {
        let (first, skip) = if from >= self.len {
            (self.parts.len(), 0)
        } else {
            let (p, i) = self.locate(from);
            (p, i - self.parts[p].start)
        };
        self.parts[first..]
            .iter()
            .enumerate()
            .flat_map(move |(k, part)| {
                let s = part.start + if k == 0 { skip } else { 0 };
                part.items[s..part.end]
                    .iter()
                    .map(move |t| t.shifted(part.shift))
            })
    }

    /// Items `..k` as parts (shared).
    fn push_prefix(&self, out: &mut Pieces<T>, k: usize) {
        for (p, part) in self.parts.iter().enumerate() {
            let b = self.before[p];
            if b >= k {
                break;
            }
            let take = (k - b).min(part.end - part.start);
            out.push_part(Part {
                end: part.start + take,
                ..part.clone()
            });
        }
    }

    /// Items `k..` as parts (shared), each `by` bytes later.
    fn push_suffix(&self, out: &mut Pieces<T>, k: usize, by: Shift) {
        for (p, part) in self.parts.iter().enumerate() {
            let b = self.before[p];
            let n = part.end - part.start;
            if b + n <= k {
                continue;
            }
            let skip = k.saturating_sub(b);
            out.push_part(Part {
                start: part.start + skip,
                shift: part.shift + by,
                ..part.clone()
            });
        }
    }

    /// Items `..keep`, then `new`, then (when given) items `from..` each `by` bytes
    /// later.
    pub fn spliced(&self, keep: usize, new: Vec<T>, rest: Option<(usize, Shift)>) -> Pieces<T> {
        let mut out = Pieces::default();
        self.push_prefix(&mut out, keep);
        let new = Pieces::from(new);
        new.push_suffix(&mut out, 0, Shift::default());
        if let Some((from, by)) = rest {
            self.push_suffix(&mut out, from, by);
        }
        if out.parts.len() > 32 + 2 * out.len / CHUNK {
            // Cut too small by earlier splices: one copy, in full chunks again.
            return Pieces::from(out.iter().collect::<Vec<_>>());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    impl Item for u32 {
        fn shifted(&self, by: Shift) -> u32 {
            (i64::from(*self) + by.bytes) as u32
        }
    }

    proptest! {
        /// Splicing pieces gives what splicing a plain vector gives, many times over.
        #[test]
        fn splicing_pieces_agrees_with_splicing_a_vector(
            len in 0usize..5000,
            splices in proptest::collection::vec((0usize..6000, 0usize..300, 0usize..40, 0i64..50), 1..40),
            // (the sequence stays sorted: what follows new items moves past them)
        ) {
            let mut plain: Vec<u32> = (0..len as u32).map(|k| k * 3).collect();
            let mut pieces = Pieces::from(plain.clone());
            for (at, cut, new, extra) in splices {
                let by = Shift { bytes: new as i64 + extra, ..Shift::default() };
                let keep = at.min(plain.len());
                let from = (keep + cut).min(plain.len());
                let base = if keep > 0 { plain[keep - 1] } else { 0 };
                let added: Vec<u32> = (0..new as u32).map(|k| base + k).collect();
                let mut next = plain[..keep].to_vec();
                next.extend(&added);
                next.extend(plain[from..].iter().map(|v| v.shifted(by)));
                pieces = pieces.spliced(keep, added, Some((from, by)));
                plain = next;
                prop_assert_eq!(pieces.len(), plain.len());
                prop_assert_eq!(pieces.iter().collect::<Vec<_>>(), plain.clone());
                for k in [0, plain.len() / 3, plain.len().saturating_sub(1)] {
                    if k < plain.len() {
                        prop_assert_eq!(pieces.get(k), plain[k]);
                        prop_assert_eq!(pieces.iter_from(k).collect::<Vec<_>>(), plain[k..].to_vec());
                    }
                }
                let probe = plain.get(plain.len() / 2).copied().unwrap_or(0);
                prop_assert_eq!(pieces.partition_point(|v| *v < probe), plain.partition_point(|v| *v < probe));
            }
        }
    }
}
