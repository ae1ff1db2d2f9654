use super::*;

/// Checks that `ops` walk both lists in order and rebuild `new` from `old`; returns the
/// number of equal lines.
fn check(old: &[String], new: &[String], ops: &[DiffOp]) -> usize {
    let (mut o, mut n, mut kept) = (0, 0, 0);
    for op in ops {
        let (tag, or, nr) = op.as_tag_tuple();
        assert_eq!((or.start, nr.start), (o, n), "ops in order: {op:?}");
        if tag == similar::DiffTag::Equal {
            assert_eq!(old[or.clone()], new[nr.clone()], "equal op {op:?}");
            kept += or.len();
        }
        (o, n) = (or.end, nr.end);
    }
    assert_eq!((o, n), (old.len(), new.len()), "ops cover both lists");
    kept
}

fn lines(n: usize, f: impl FnMut(usize) -> String) -> Vec<String> {
    (0..n).map(f).collect()
}

/// A deterministic generator (xorshift).
fn rng(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[test]
fn small_inputs_get_exactly_myers() {
    let mut next = rng(0x9e37_79b9);
    for _ in 0..500 {
        let (la, lb) = (next() % 40, next() % 40);
        let old = lines(la as usize, |_| format!("{}", next() % 5));
        let new = lines(lb as usize, |_| format!("{}", next() % 5));
        let ours = diff_lines(&old, &new);
        check(&old, &new, &ours);
        let theirs = capture_diff_slices(Algorithm::Myers, &old, &new);
        let shape = |ops: &[DiffOp]| -> Vec<_> {
            ops.iter()
                .map(|op| {
                    let (tag, o, n) = op.as_tag_tuple();
                    (tag, o.len(), n.len())
                })
                .collect()
        };
        assert_eq!(shape(&ours), shape(&theirs));
    }
}

#[test]
fn two_lines_replaced_by_a_long_text_keep_the_lines_it_still_has() {
    // The case: a 2-line file, a new text of 100 000 lines holding both old
    // lines far apart. The narrow table finds them: 2 lines kept.
    let old = vec!["fn a() {}\n".to_string(), "}\n".to_string()];
    let mut new = lines(100_000, |i| format!("line {i}\n"));
    new[40_000] = old[0].clone();
    new[90_000] = old[1].clone();
    let ops = diff_lines(&old, &new);
    assert_eq!(check(&old, &new, &ops), 2);
}

#[test]
fn reversed_lines_diff_correctly() {
    let old = lines(60_000, |i| format!("{i}\n"));
    let new: Vec<String> = old.iter().rev().cloned().collect();
    let ops = diff_lines(&old, &new);
    check(&old, &new, &ops);
}

#[test]
fn repeated_lines_diff_correctly() {
    // No line is unique: no anchors, too wide for the table, so one replaced block
    // between the common ends.
    let old = lines(50_000, |i| ["{\n", "}\n", "\n"][i % 3].to_string());
    let new = lines(50_000, |i| ["}\n", "\n", "{\n", "\n"][i % 4].to_string());
    let ops = diff_lines(&old, &new);
    check(&old, &new, &ops);
}

#[test]
fn scattered_changes_in_large_lists_stay_minimal() {
    // 40 000 unique lines with 50 single-line changes: anchors cut the problem into
    // pieces Myers solves exactly, so every unchanged line is kept.
    let old = lines(40_000, |i| format!("line {i}\n"));
    let mut new = old.clone();
    for k in 0..50 {
        new[k * 800 + 7] = format!("changed {k}\n");
    }
    let ops = diff_lines(&old, &new);
    assert_eq!(check(&old, &new, &ops), 40_000 - 50);
}

#[test]
fn random_large_lists_diff_correctly() {
    let mut next = rng(42);
    for round in 0..4 {
        let alphabet = [3, 50, 5_000, 1_000_000][round];
        let old = lines(30_000, |_| format!("{}\n", next() % alphabet));
        let new = lines(25_000, |_| format!("{}\n", next() % alphabet));
        let ops = diff_lines(&old, &new);
        check(&old, &new, &ops);
    }
}

#[test]
fn few_changes_far_apart_in_repeated_lines_stay_minimal() {
    // No unique line and a middle too wide for the table: the distance pass sees two
    // differences and gives the problem to Myers (a coarse fallback here wrote a
    // 135 kB diff for a two-line change).
    let old = lines(14_000, |i| format!("call_{}();\n", i % 50));
    let mut new = old.clone();
    new[17] = "\n".into();
    new[13_017] = "\n".into();
    let ops = diff_lines(&old, &new);
    assert_eq!(check(&old, &new, &ops), 14_000 - 2);
}

#[test]
fn many_unrelated_blocks_between_anchors_stay_within_the_budget() {
    // 40 blocks of 3 000 lines rewritten whole, each between unique lines: every piece
    // costs Myers its most, so the shared budget runs out and later pieces are
    // replaced whole. Still a correct diff that keeps every anchor.
    let mut old = Vec::new();
    let mut new = Vec::new();
    for block in 0..40 {
        old.push(format!("anchor {block}\n"));
        new.push(format!("anchor {block}\n"));
        old.extend((0..3_000).map(|i| format!("old {block} {i}\n")));
        new.extend((0..3_000).map(|i| format!("new {block} {}\n", i % 7)));
    }
    let ops = diff_lines(&old, &new);
    assert!(check(&old, &new, &ops) >= 40);
}
