use super::*;
use crate::result::apply_edits;
use crate::text::change_set::Splices;
use crate::text::Point;
use proptest::prelude::*;

fn check(old: &str, new: &str) -> (String, Vec<Edit>) {
    let (diff, edits, _, _) = diff_parts(
        OldRows::new(old, None),
        new,
        &ChangeSet::between(old, new),
        "a/f",
        "b/f",
    );
    assert_eq!(
        apply_edits(old, &edits),
        new,
        "edits must rebuild the new text"
    );
    for w in edits.windows(2) {
        assert!(
            w[0].range.end.row < w[1].range.start.row
                || (w[0].range.end.row == w[1].range.start.row
                    && w[0].range.end.column < w[1].range.start.column),
            "sorted, disjoint: {edits:?}"
        );
    }
    (diff, edits)
}

#[test]
fn one_line_change_has_context_and_a_minimal_edit() {
    let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    let new = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    let (diff, edits) = check(old, new);
    assert_eq!(
        diff,
        "--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
    );
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].text, "five");
    assert_eq!(edits[0].range.start, Point { row: 4, column: 0 });
    assert_eq!(edits[0].range.end, Point { row: 4, column: 1 });
}

#[test]
fn far_apart_changes_make_two_hunks_and_two_edits() {
    let old: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let new = old
        .replace("line 3\n", "line three\n")
        .replace("line 27\n", "");
    let (diff, edits) = check(&old, &new);
    assert_eq!(diff.matches("@@ -").count(), 2, "{diff}");
    assert_eq!(edits.len(), 2);
    assert!(diff.contains("@@ -24,7 +24,6 @@"), "{diff}");
}

#[test]
fn missing_final_newline_is_marked() {
    let (diff, _) = check("a\nb", "a\nc");
    assert_eq!(diff, "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    let (diff, _) = check("a\nb", "a\nb\n");
    assert!(
        diff.contains("-b\n\\ No newline at end of file\n+b\n"),
        "{diff}"
    );
}

#[test]
fn edits_never_split_crlf() {
    let (_, edits) = check("a\r\nb\r\n", "a\r\nb\r\nc\r\n");
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].range.start, Point { row: 2, column: 0 });
    let (_, edits) = check("x\r\ny\r\n", "x\r\n");
    assert_eq!(edits[0].range.start, Point { row: 1, column: 0 });
    let (_, edits) = check("x\r\n", "x\n");
    for e in &edits {
        // The edit may touch the \r, but never sits between \r and \n.
        assert!(!(e.range.start.row == 0 && e.range.start.column == 2));
    }
}

#[test]
fn columns_are_utf16_in_edits() {
    let (_, edits) = check("é😀 = 1\n", "é😀 = 2\n");
    assert_eq!(edits[0].range.start, Point { row: 0, column: 6 });
}

#[test]
fn creation_deletion_and_identity() {
    let (diff, edits) = check("", "a\nb\n");
    assert_eq!(diff, "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    assert_eq!(edits.len(), 1);
    let (diff, _) = check("a\nb\n", "");
    assert_eq!(diff, "--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    let (diff, edits) = check("same\n", "same\n");
    assert!(diff.is_empty() && edits.is_empty());
}

#[test]
fn random_pairs_round_trip() {
    // A small deterministic generator: texts from a tiny alphabet, so that lines repeat.
    let mut seed: u64 = 0x1234_5678;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet = ["a", "b", "\n", "\r\n", "é", "😀", " ", "x\n"];
    for _ in 0..2000 {
        let (a_len, b_len) = (next() % 24, next() % 24);
        let a: String = (0..a_len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let b: String = (0..b_len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        check(&a, &b);
    }
}

/// A text of `n` lines where lines repeat (blank lines, braces) as in code.
fn code_like(n: usize) -> String {
    (0..n)
        .map(|i| match i % 7 {
            0 => String::new(),
            3 => "}".to_string(),
            _ => format!("    line_{i}();"),
        })
        .map(|l| l + "\n")
        .collect()
}

#[test]
fn scattered_changes_in_a_large_file_stay_small_hunks() {
    // 10 000 lines each side: past the size diffed whole, so the middle is cut into
    // stretches; every change must still come out as its own small hunk.
    let old = code_like(10_000);
    let mut lines: Vec<String> = old.lines().map(str::to_string).collect();
    for k in 0..12 {
        let at = 300 + k * 800;
        match k % 3 {
            0 => lines[at] = format!("changed {k}"),
            1 => lines.insert(at, format!("inserted {k}")),
            _ => {
                lines.remove(at);
            }
        }
    }
    let new: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let (diff, edits) = check(&old, &new);
    assert_eq!(diff.matches("\n@@ ").count(), 12, "{diff}");
    assert!(diff.len() < 12 * 400, "diff of {} bytes", diff.len());
    assert_eq!(edits.len(), 12);
}

#[test]
fn large_unrelated_texts_still_diff_correctly() {
    let old = code_like(9_000);
    let new: String = (0..9_000).map(|i| format!("other {i}\n")).collect();
    check(&old, &new);
}

#[test]
fn line_delta_agrees_with_counting() {
    let cases = [
        ("a\nb\n", "a\nb\nc\n"),
        ("a\nb", "a\nb\n"),
        ("a\nb\n", "a\nb"),
        ("", "x"),
        ("x", ""),
        ("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\n5\n6\n7\n8"),
        ("a\r\nb\r\n", "a\r\nq\r\nr\r\nb\r\n"),
    ];
    for (old, new) in cases {
        let change = ChangeSet::between(old, new);
        let (_, _, delta, old_lines) = diff_parts(OldRows::new(old, None), new, &change, "a", "b");
        assert_eq!(
            delta,
            count_lines(new) as i64 - count_lines(old) as i64,
            "{old:?} -> {new:?}"
        );
        assert_eq!(old_lines, count_lines(old), "{old:?} -> {new:?}");
    }
}

#[test]
fn a_long_text_over_a_two_line_file_diffs_correctly() {
    // Issue 12: Myers on 2 old lines against 100 000 new ones took seconds (minutes in
    // a debug build); the bounded diff keeps both old lines, found far apart.
    let old = "fn main() {\n}\n";
    let mut lines: Vec<String> = (0..100_000).map(|i| format!("    step_{i}();\n")).collect();
    lines[10] = "fn main() {\n".into();
    lines[99_000] = "}\n".into();
    let new: String = lines.concat();
    let (diff, edits) = check(old, &new);
    assert_eq!(diff.matches("\n@@ ").count(), 1, "one hunk");
    assert_eq!(edits.len(), 3, "before, between and after the kept lines");
}

/// The result rows of `splices` (a tool's ranges) of `old`, checked to rebuild the new
/// text; and the new text.
fn described(old: &str, splices: Splices) -> (String, Vec<Edit>, String) {
    let change = ChangeSet::from_splices(old, splices).expect("ranges of old");
    let new = change.apply(old).expect("applies");
    let (diff, edits, _, _) = diff_parts(OldRows::new(old, None), &new, &change, "a/f", "b/f");
    assert_eq!(
        apply_edits(old, &edits),
        new,
        "edits must rebuild the new text"
    );
    (diff, edits, new)
}

/// Where equal lines make the diff of the two texts a guess, the result says what the
/// tool did: the lines it replaced, not those a diff would pick (which the reading of
/// whole texts, kept below as `reference`, reported).
#[test]
fn the_lines_a_tool_changed_are_reported_not_those_a_diff_picks() {
    let table: [(&str, Splices, &str, (usize, usize)); 3] = [
        // The first of two equal lines deleted: a diff says the second.
        (
            "x\nx\n",
            vec![(0..2, String::new())],
            "@@ -1,2 +1 @@\n-x\n x\n",
            (0, 1),
        ),
        // A copy of a line put before it: a diff says after it.
        (
            "a\nb\n",
            vec![(0..0, "a\n".into())],
            "@@ -1,2 +1,3 @@\n+a\n a\n b\n",
            (0, 0),
        ),
        // A block moved with its blank line (move_block): a diff moves other lines.
        (
            "f\n\ng\n\nh\n",
            vec![(0..3, String::new()), (5..5, "\nf\n".into())],
            "@@ -1,5 +1,5 @@\n-f\n-\n g\n+\n+f\n \n h\n",
            (0, 2),
        ),
    ];
    for (old, splices, hunk, rows) in table {
        let (diff, edits, new) = described(old, splices);
        assert_eq!(diff, format!("--- a/f\n+++ b/f\n{hunk}"), "{old:?}");
        let first = &edits[0].range;
        assert_eq!((first.start.row, first.end.row), rows, "{old:?}: {edits:?}");
        let (was, was_edits, _, _) = reference::diff_parts(old, &new, "a/f", "b/f");
        assert_ne!((was, was_edits), (diff, edits), "{old:?}: the diff agrees");
    }
}

/// The same through the workspace: what a tool splices is what `describe` reports.
#[test]
fn describe_reports_the_ranges_the_workspace_recorded() {
    let files: std::collections::BTreeMap<String, String> =
        [("f".to_string(), "x\nx\ny\n".to_string())].into();
    let mut ws = crate::workspace::Workspace::new(&files, &[]);
    ws.splice("f", vec![(0..2, String::new())]).unwrap();
    ws.splice("f", vec![(2..3, "z".into())]).unwrap();
    let change = describe(ws.into_changes().remove(0), false);
    let rows: Vec<_> = change
        .edits
        .iter()
        .map(|e| (e.range.start.row, e.range.end.row))
        .collect();
    assert_eq!(rows, [(0, 1), (2, 2)], "{:?}", change.edits);
    assert_eq!(
        change.diff,
        "--- a/f\n+++ b/f\n@@ -1,3 +1,2 @@\n-x\n x\n-y\n+z\n"
    );
}

/// A file of distinct lines and a tool's ranges whose new lines occur nowhere in it
/// (lines replaced by fresh ones, characters inside a line): the line diff of the two
/// texts is then unambiguous.
fn distinct_edit() -> impl Strategy<Value = (String, Splices)> {
    let op = (0usize..5, 0usize..3, 0usize..3, any::<bool>());
    (
        1usize..30,
        any::<bool>(),
        proptest::collection::vec(op, 0..7),
    )
        .prop_map(|(n, terminated, ops)| {
            let mut old: String = (0..n).map(|i| format!("line {i}\n")).collect();
            if !terminated {
                old.pop();
            }
            let starts: Vec<usize> = (0..n)
                .map(|i| old.match_indices("line ").nth(i).unwrap().0)
                .chain([old.len()])
                .collect();
            let (mut splices, mut line, mut fresh) = (Splices::new(), 0, 0);
            for (gap, len, add, whole_lines) in ops {
                line += gap;
                if line >= n {
                    break;
                }
                let (range, text) = if whole_lines {
                    let end = (line + len).min(n);
                    let text: String = (0..add).map(|k| format!("new {fresh}.{k}\n")).collect();
                    let range = starts[line]..starts[end];
                    line = end;
                    (range, text)
                } else {
                    let at = starts[line] + 2;
                    line += 1;
                    (at..at + len, "X".repeat(add))
                };
                fresh += 1;
                if !range.is_empty() || !text.is_empty() {
                    splices.push((range, text));
                }
            }
            (old, splices)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// Where the diff of the two texts is unambiguous, the rows read from the tool's
    /// ranges are those the old reading (whole texts diffed) gave, byte for byte.
    #[test]
    fn rows_from_the_ranges_equal_the_diff_where_it_is_unambiguous((old, splices) in distinct_edit()) {
        let change = ChangeSet::from_splices(&old, splices).unwrap();
        let new = change.apply(&old).unwrap();
        let ours = diff_parts(OldRows::new(&old, None), &new, &change, "a/f", "b/f");
        let theirs = reference::diff_parts(&old, &new, "a/f", "b/f");
        prop_assert_eq!(&ours, &theirs);
        // Rows looked up in a kept string's line index are the rows counted.
        let kept = crate::text::Kept::default();
        let arc = std::sync::Arc::new(old.clone());
        let _ = kept.text(&arc);
        let indexed = kept.text(&arc);
        indexed.line_start(0);
        prop_assert!(kept.indexed(&arc).is_some());
        let looked_up = diff_parts(OldRows::new(&arc, Some(&indexed)), &new, &change, "a/f", "b/f");
        prop_assert_eq!(looked_up, ours);
    }
}

/// The describe this module had before it read the change set: the ranges found by
/// line-diffing the two whole texts (the common ends skipped, three context lines kept).
/// Kept as the reference the change-set reading must agree with wherever that diff is
/// unambiguous.
mod reference {
    use super::super::*;

    /// The unified diff of `old` → `new`, the edits that turn `old` into `new`, the
    /// change in line count and `old`'s line count, found from the differing middle alone
    /// (the common prefix and suffix hold the same lines on both sides).
    pub fn diff_parts(
        old: &str,
        new: &str,
        old_label: &str,
        new_label: &str,
    ) -> (String, Vec<Edit>, i64, usize) {
        let (prefix, old_mid_end, new_mid_end) = line_aligned_common_ends(old, new);
        let old_mid = &old[prefix..old_mid_end];
        let new_mid = &new[prefix..new_mid_end];
        // The prefix ends at a line start, so its newlines count the lines before it.
        let line_offset = count_breaks(&old[..prefix]);
        let mut cursor = PointCursor::at_line(old, prefix, line_offset);
        let unterminated = |s: &str| i64::from(!s.is_empty() && !s.ends_with('\n'));
        let old_mid_breaks = count_breaks(old_mid);
        let line_delta = count_breaks(new_mid) as i64 - old_mid_breaks as i64 + unterminated(new)
            - unterminated(old);
        // Counted in three parts so that the prefix is not counted twice.
        let old_lines = line_offset
            + old_mid_breaks
            + count_breaks(&old[old_mid_end..])
            + unterminated(old) as usize;

        let mut edits = Vec::new();
        let mut hunks = String::new();
        // Lines of each middle before the current stretch.
        let (mut old_before, mut new_before) = (0, 0);
        let (mut old_at, mut new_at) = (0, 0);
        let mut budget = Budget::default();
        for stretch in stretches(old_mid, new_mid) {
            old_before += count_breaks(&old_mid[old_at..stretch.old.start]);
            new_before += count_breaks(&new_mid[new_at..stretch.new.start]);
            (old_at, new_at) = (stretch.old.start, stretch.new.start);
            let old_lines = split_keep_ends(&old_mid[stretch.old.clone()]);
            let new_lines = split_keep_ends(&new_mid[stretch.new.clone()]);
            let ops = line_ops(&old_lines, &new_lines, &mut budget);
            let mut old_pos = prefix + stretch.old.start; // byte offset in `old` of old_lines[i]
            let mut old_offsets = Vec::with_capacity(old_lines.len() + 1);
            for l in &old_lines {
                old_offsets.push(old_pos);
                old_pos += l.len();
            }
            old_offsets.push(old_pos);
            for op in ops.iter().filter(|op| !op.equal) {
                let start = old_offsets[op.old.start];
                let end = old_offsets[op.old.end];
                let text: String = new_lines[op.new.clone()].concat();
                push_minimal_edit(&mut edits, &mut cursor, old, start, end, &text);
            }
            render_hunks(
                &mut hunks,
                &ops,
                &old_lines,
                &new_lines,
                line_offset + old_before,
                line_offset + new_before,
            );
        }
        merge_adjacent(&mut edits);

        let diff = if hunks.is_empty() {
            String::new()
        } else {
            format!("--- {old_label}\n+++ {new_label}\n{hunks}")
        };
        (diff, edits, line_delta, old_lines)
    }

    /// Returns (prefix, old_mid_end, new_mid_end): the common prefix and suffix of the two
    /// texts, both cut back to whole lines.
    fn line_aligned_common_ends(old: &str, new: &str) -> (usize, usize, usize) {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut prefix = common_prefix_len(a, b);
        if prefix < a.len() || prefix < b.len() {
            // Back off to the start of the line where they differ.
            prefix = a[..prefix]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1);
        }
        let max_suffix = (a.len() - prefix).min(b.len() - prefix);
        let mut suffix = common_suffix_len(&a[prefix..], &b[prefix..]).min(max_suffix);
        let aligned = |bytes: &[u8], at: usize| at == 0 || bytes[at - 1] == b'\n';
        if !(aligned(a, a.len() - suffix) && aligned(b, b.len() - suffix)) {
            // Move the suffix start forward to just after a newline inside the common part.
            let tail = &a[a.len() - suffix..];
            suffix = match tail.iter().position(|&c| c == b'\n') {
                Some(i) => suffix - (i + 1),
                None => 0,
            };
        }
        // Give the diff its context lines from the common ends.
        for _ in 0..CONTEXT {
            if prefix == 0 {
                break;
            }
            prefix = a[..prefix - 1]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |i| i + 1);
        }
        for _ in 0..CONTEXT {
            let tail = &a[a.len() - suffix..];
            match tail.iter().position(|&c| c == b'\n') {
                Some(i) => suffix -= i + 1,
                None => suffix = 0,
            }
            if suffix == 0 {
                break;
            }
        }
        (prefix, a.len() - suffix, b.len() - suffix)
    }

    /// Appends the hunks of one stretch's `ops` to `out`; the stretch's first lines are
    /// lines `old_offset` / `new_offset` (0-based) of the two texts.
    fn render_hunks(
        out: &mut String,
        ops: &[Op],
        old_lines: &[&str],
        new_lines: &[&str],
        old_offset: usize,
        new_offset: usize,
    ) {
        let changed: Vec<&Op> = ops.iter().filter(|op| !op.equal).collect();
        // Group changes whose context would touch into hunks.
        let mut groups: Vec<Vec<&Op>> = Vec::new();
        for op in changed {
            match groups.last_mut() {
                Some(g) if op.old.start <= g[g.len() - 1].old.end + 2 * CONTEXT => g.push(op),
                _ => groups.push(vec![op]),
            }
        }
        // The stretch already holds CONTEXT common lines on each side.
        for group in groups {
            let (first, last) = (group[0], group[group.len() - 1]);
            let ctx_before = first.old.start.min(CONTEXT).min(first.new.start);
            let ctx_after = (old_lines.len() - last.old.end)
                .min(CONTEXT)
                .min(new_lines.len() - last.new.end);
            let (hs_old, he_old) = (first.old.start - ctx_before, last.old.end + ctx_after);
            let (hs_new, he_new) = (first.new.start - ctx_before, last.new.end + ctx_after);
            out.push_str(&format!(
                "@@ -{} +{} @@\n",
                hunk_range(old_offset + hs_old, he_old - hs_old),
                hunk_range(new_offset + hs_new, he_new - hs_new)
            ));
            let mut o = hs_old;
            for op in &group {
                while o < op.old.start {
                    push_line(out, ' ', old_lines[o]);
                    o += 1;
                }
                for l in &old_lines[op.old.clone()] {
                    push_line(out, '-', l);
                }
                for l in &new_lines[op.new.clone()] {
                    push_line(out, '+', l);
                }
                o = op.old.end;
            }
            while o < he_old {
                push_line(out, ' ', old_lines[o]);
                o += 1;
            }
        }
    }
}
