use super::*;
use crate::result::apply_edits;
use crate::text::Point;

fn check(old: &str, new: &str) -> (String, Vec<Edit>) {
    let (diff, edits, _, _) = diff_parts(old, new, "a/f", "b/f");
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
        let (_, _, delta, old_lines) = diff_parts(old, new, "a", "b");
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
