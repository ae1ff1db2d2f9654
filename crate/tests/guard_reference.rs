//! The placeholder guard against a slow reference reading of its rule (issue 25, rule 1:
//! a placeholder is a comment standing where code was deleted).
//!
//! The reference spells the rule out the plain way: the anchors are a longest common
//! subsequence of the two sides' worded lines, found with a full table (O(n·m)); every
//! stretch between anchors is compared line by line; a line's comment run is found by
//! walking back to the previous non-blank line. The engine uses a bounded Myers diff
//! and one pass. On generated edits of code whose worded lines are distinct (so the
//! longest common subsequence is unique), both must give the same stretches, the same
//! losses and the same refused lines.

#![cfg(not(target_arch = "wasm32"))]

use anchored_edit::guard::{
    is_code_line, is_placeholder_after, placeholder_lines_replacing, stands_for_code,
    stretch_losses, Loss,
};
use proptest::prelude::*;
use std::collections::HashSet;

/// Anchors by a full LCS table over the worded lines (ties: keep the old line first).
fn reference_anchors(old: &[&str], new: &[&str]) -> Vec<(usize, usize)> {
    let worded = |t: &[&str]| -> Vec<usize> {
        (0..t.len())
            .filter(|&k| t[k].chars().any(char::is_alphanumeric))
            .collect()
    };
    let (ow, nw) = (worded(old), worded(new));
    let (n, m) = (ow.len(), nw.len());
    let mut table = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] = if old[ow[i]] == new[nw[j]] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        if old[ow[i]] == new[nw[j]] {
            out.push((ow[i], nw[j]));
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Losses by definition: for every new line, the stretch between the anchors around it.
fn reference_losses(old: &[&str], new: &[&str]) -> Vec<Option<Loss>> {
    let old_t: Vec<&str> = old.iter().map(|l| l.trim()).collect();
    let new_t: Vec<&str> = new.iter().map(|l| l.trim()).collect();
    let anchors = reference_anchors(&old_t, &new_t);
    (0..new_t.len())
        .map(|k| {
            if anchors.iter().any(|&(_, b)| b == k) {
                return None;
            }
            // The anchors around line k, on both sides.
            let before = anchors.iter().rev().find(|&&(_, b)| b < k);
            let after = anchors.iter().find(|&&(_, b)| b > k);
            let (oi, ni) = before.map_or((0, 0), |&(a, b)| (a + 1, b + 1));
            let (oe, ne) = after.map_or((old_t.len(), new_t.len()), |&(a, b)| (a, b));
            let (old_seg, new_seg) = (&old_t[oi..oe], &new_t[ni..ne]);
            if old_seg == new_seg {
                return None;
            }
            let removed = old_seg
                .iter()
                .filter(|l| is_code_line(l) && !new_t.contains(l))
                .count();
            let added = new_seg
                .iter()
                .filter(|l| is_code_line(l) && !old_t.contains(l))
                .count();
            Some(Loss { removed, added })
        })
        .collect()
}

/// The refused lines by definition: the previous non-blank line found by walking back.
fn reference_refused(old: &[&str], new: &[&str]) -> Vec<usize> {
    let losses = reference_losses(old, new);
    let kept: HashSet<&str> = old.iter().map(|l| l.trim()).collect();
    (0..new.len())
        .filter(|&k| {
            let Some(loss) = losses[k] else { return false };
            let prev = (0..k).rev().map(|i| new[i]).find(|l| !l.trim().is_empty());
            !kept.contains(new[k].trim())
                && ((loss.removed > 0 && is_placeholder_after(new[k], prev))
                    || (loss.removed > loss.added && stands_for_code(new[k], prev)))
        })
        .collect()
}

const COMMENTS: &[&str] = &[
    "    // ... existing code ...",
    "    # rest of the function unchanged",
    "    // (unchanged)",
    "    // rest of the function remains the same",
    "    // keep the other handlers as is",
    "    // ... rest of impl",
    "    // Setup",
    "    // The index is built once and every level probes the",
    "    // rest of the file for it.",
    "    // TODO: seperate once segfault is fixed...",
    "    # Keep state in per-thread local storage",
    "    /* Append rest of second list */",
    "    ...",
    "    // ... and skip over the match.",
];

/// One line of new text put in where old lines were: a fresh call, a comment, a `}`,
/// a blank, or (index into the replaced range) an old line kept.
#[derive(Clone, Debug)]
enum Piece {
    Fresh(u32),
    Comment(usize),
    Brace,
    Blank,
    Keep(usize),
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => (0u32..1000).prop_map(Piece::Fresh),
        4 => (0..COMMENTS.len()).prop_map(Piece::Comment),
        1 => Just(Piece::Brace),
        1 => Just(Piece::Blank),
        3 => (0usize..40).prop_map(Piece::Keep),
    ]
}

/// An old text of distinct calls with braces and blanks, and up to three replaced ranges.
fn edit() -> impl Strategy<Value = (Vec<String>, Vec<String>)> {
    let old = prop::collection::vec(0u8..6, 1..30).prop_map(|kinds| {
        kinds
            .iter()
            .enumerate()
            .map(|(k, &kind)| match kind {
                0 => "    }".to_string(),
                1 => String::new(),
                2 => format!("    // note {k}"),
                _ => format!("    old_call_{k}(x);"),
            })
            .collect::<Vec<_>>()
    });
    let cuts = prop::collection::vec(
        (0usize..30, 0usize..8, prop::collection::vec(piece(), 0..6)),
        1..4,
    );
    (old, cuts).prop_map(|(old, mut cuts)| {
        cuts.sort_by_key(|c| c.0);
        let mut new = Vec::new();
        let mut at = 0;
        for (start, len, pieces) in cuts {
            let start = start.clamp(at, old.len());
            let end = (start + len).min(old.len());
            new.extend_from_slice(&old[at..start]);
            let mut kept_from = start;
            for p in pieces {
                match p {
                    Piece::Fresh(n) => new.push(format!("    new_call_{n}(y);")),
                    Piece::Comment(c) => new.push(COMMENTS[c].to_string()),
                    Piece::Brace => new.push("    }".to_string()),
                    Piece::Blank => new.push(String::new()),
                    // Kept lines stay in order, so the common subsequence is unique.
                    Piece::Keep(d) if kept_from < end => {
                        let k = (kept_from + d % (end - kept_from)).min(end - 1);
                        new.push(old[k].clone());
                        kept_from = k + 1;
                    }
                    Piece::Keep(_) => {}
                }
            }
            at = end;
        }
        new.extend_from_slice(&old[at..]);
        (old, new)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn the_guard_reads_deletions_as_the_reference_does((old, new) in edit()) {
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let new: Vec<&str> = new.iter().map(String::as_str).collect();
        prop_assert_eq!(stretch_losses(&new, &old), reference_losses(&old, &new));
        prop_assert_eq!(
            placeholder_lines_replacing(&new, &old),
            reference_refused(&old, &new)
        );
    }
}

#[test]
fn the_reference_reads_the_issue_examples() {
    // A pure addition: nothing refused.
    let old = ["fn a() {", "    one();", "}"];
    let new = [
        "fn a() {",
        "    // ... existing code ...",
        "    one();",
        "}",
    ];
    assert!(reference_refused(&old, &new).is_empty());
    // A comment run over 3 deleted lines: the second line is judged on its own.
    let old = [
        "fn a() {",
        "    // Setup",
        "    one();",
        "    two();",
        "    three();",
        "}",
    ];
    let new = ["fn a() {", "    // Setup", "    // (unchanged)", "}"];
    assert_eq!(reference_refused(&old, &new), vec![2]);
    assert_eq!(placeholder_lines_replacing(&new, &old), vec![2]);
}
