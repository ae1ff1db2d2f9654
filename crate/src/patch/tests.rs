//! Grammar tests: what each accepted form parses to, and where each malformed one stops.

use super::grammar::parse;
use super::*;
use crate::error::ErrorKind;

fn ops(patch: &str) -> Vec<FileOp> {
    match parse(patch) {
        Ok(p) => p.patch.ops,
        Err(e) => panic!("{patch:?} was refused: {e}"),
    }
}

fn hunk(lines: &[(Sign, &str)]) -> Vec<(Sign, String)> {
    lines.iter().map(|(s, l)| (*s, l.to_string())).collect()
}

#[test]
fn v4a_operations() {
    let got = ops("*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Delete File: b.txt\n*** Update File: c.py\n*** Move to: d.py\n@@ def f():\n-    pass\n+    return 1\n*** End Patch\n");
    assert_eq!(got.len(), 3);
    assert_eq!(
        got[0],
        FileOp::Add {
            path: "a.txt".into(),
            content: "one\ntwo\n".into(),
            line: 2
        }
    );
    assert!(
        matches!(&got[1], FileOp::Delete { path, hunks, line: 5 } if path.path == "b.txt" && hunks.is_empty())
    );
    let FileOp::Update {
        path,
        move_to,
        hunks,
        ..
    } = &got[2]
    else {
        panic!("not an update: {:?}", got[2]);
    };
    assert_eq!(path.path, "c.py");
    assert_eq!(move_to.as_deref(), Some("d.py"));
    assert_eq!(hunks[0].anchors, vec!["def f():".to_string()]);
    assert_eq!(
        hunks[0].lines,
        hunk(&[(Sign::Remove, "    pass"), (Sign::Add, "    return 1")])
    );
}

#[test]
fn v4a_anchors_stack_and_hunks_split() {
    let got = ops("*** Begin Patch\n*** Update File: a.py\n@@ class B\n@@     def run(self):\n-        x = 1\n+        x = 2\n@@\n-y\n+z\n*** End of File\n*** End Patch");
    let FileOp::Update { hunks, .. } = &got[0] else {
        panic!()
    };
    assert_eq!(hunks.len(), 2);
    assert_eq!(hunks[0].anchors, vec!["class B", "def run(self):"]);
    assert!(hunks[1].anchors.is_empty());
    assert!(hunks[1].end_of_file && !hunks[0].end_of_file);
}

#[test]
fn v4a_leniencies_are_warned() {
    let cases: [(&str, &str); 8] = [
        (
            "*** Begin Patch\n*** Update File: a\n@@ def f(): @@\n-x\n+y\n*** End Patch",
            "trailing ` @@`",
        ),
        (
            "  *** Begin Patch\n*** Update File: a  \n-x\n+y\n *** End Patch",
            "Whitespace around",
        ),
        (
            "<<'EOF'\n*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch\nEOF\n",
            "heredoc",
        ),
        (
            "apply_patch\n*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch",
            "command word",
        ),
        (
            "```diff\n*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch\n```",
            "code fence",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n x\n\n-y\n*** End Patch",
            "no leading space",
        ),
        (
            "*** Begin Patch\r\n*** Update File: a\r\n-x\r\n+y\r\n*** End Patch\r\n",
            "CRLF",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@ -3,2 +3,2 @@\n-x\n+y\n*** End Patch",
            "unified-diff range",
        ),
    ];
    for (patch, warning) in cases {
        let parsed = parse(patch).unwrap_or_else(|e| panic!("{patch:?}: {e}"));
        assert!(
            parsed.warnings.iter().any(|w| w.contains(warning)),
            "{patch:?}: no warning with {warning:?} in {:?}",
            parsed.warnings
        );
    }
    // The same patches written cleanly carry no warning.
    let clean = parse("*** Begin Patch\n*** Update File: a\n@@ def f():\n x\n\n-y\n*** End Patch");
    assert!(clean.is_ok_and(|p| p.warnings.iter().all(|w| !w.contains("trailing"))));
}

#[test]
fn blank_context_inside_hunk_but_not_after_it() {
    let got = ops("*** Begin Patch\n*** Update File: a\n@@\n x\n\n-y\n\n@@\n-z\n*** End Patch");
    let FileOp::Update { hunks, .. } = &got[0] else {
        panic!()
    };
    assert_eq!(
        hunks[0].lines,
        hunk(&[
            (Sign::Context, "x"),
            (Sign::Context, ""),
            (Sign::Remove, "y")
        ])
    );
}

#[test]
fn refusals_name_the_line() {
    let cases: [(&str, ErrorKind, &str); 10] = [
        (
            "*** Begin Patch\n*** Update File: a\n-x\n+y\n",
            ErrorKind::PatchIncomplete,
            "cut off",
        ),
        (
            "*** Begin Patch\n*** Update File: a\nx\n*** End Patch",
            ErrorKind::PatchParse,
            "line 3",
        ),
        (
            "*** Begin Patch\n*** Rename File: a\n*** End Patch",
            ErrorKind::PatchParse,
            "unknown file operation",
        ),
        (
            "*** Begin Patch\n*** Add File: a\nx\n*** End Patch",
            ErrorKind::PatchParse,
            "starts with `+`",
        ),
        (
            "*** Update File: a\n-x\n+y\n*** End Patch",
            ErrorKind::PatchParse,
            "*** Begin Patch",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n-x\n*** End Patch\nmore",
            ErrorKind::PatchParse,
            "after `*** End Patch`",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n*** End Patch",
            ErrorKind::PatchParse,
            "no hunks",
        ),
        (
            "*** Begin Patch\n*** End Patch",
            ErrorKind::PatchParse,
            "no file operation",
        ),
        (
            "def main():\n    print('hi')\n",
            ErrorKind::PatchNotAPatch,
            "*** Update File: path/to/file",
        ),
        (
            "@@ -1 +1 @@\n-x\n+y\n",
            ErrorKind::PatchParse,
            "names no file",
        ),
    ];
    for (patch, kind, text) in cases {
        match parse(patch) {
            Ok(p) => panic!("{patch:?} parsed: {:?}", p.patch),
            Err(e) => {
                assert_eq!(e.kind, kind, "{patch:?}: {}", e.message);
                assert!(e.message.contains(text), "{patch:?}: {}", e.message);
            }
        }
    }
}

#[test]
fn not_a_patch_example_uses_the_guessed_path() {
    let e = parse("# src/app.py\nimport os\n\ndef main():\n    pass\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::PatchNotAPatch);
    assert!(
        e.message.contains("*** Update File: src/app.py"),
        "{}",
        e.message
    );
}

#[test]
fn unified_headers_and_counts() {
    let got = ops("From 123 Mon Sep 17 00:00:00 2001\nSubject: x\n\ndiff --git a/src/x.py b/src/x.py\nindex 1..2 100644\n--- a/src/x.py\n+++ b/src/x.py\n@@ -10,3 +10,3 @@ def f():\n a\n-b\n+c\n d\n-- \n2.40.0\n");
    let FileOp::Update {
        path,
        hunks,
        move_to,
        ..
    } = &got[0]
    else {
        panic!("{got:?}")
    };
    assert_eq!(path.path, "src/x.py");
    assert_eq!(move_to, &None);
    assert_eq!(hunks[0].line_hint, Some(10));
    assert_eq!(hunks[0].lines.len(), 4);
    assert!(
        hunks[0].anchors.is_empty(),
        "a unified section heading is not an anchor"
    );
}

#[test]
fn unified_wrong_counts_read_to_the_next_header() {
    let parsed =
        parse("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n d\n e\n@@ -40,1 +40,1 @@\n-y\n+z\n")
            .unwrap();
    let FileOp::Update { hunks, .. } = &parsed.patch.ops[0] else {
        panic!()
    };
    assert_eq!(hunks.len(), 2);
    assert_eq!(hunks[0].lines.len(), 5);
    assert!(parsed.warnings.iter().any(|w| w.contains("counts")));
}

#[test]
fn unified_counts_separate_a_removed_dashes_line_from_a_header() {
    // The old file had a line "-- x"; counts say it is part of the hunk.
    let got = ops("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n a\n");
    let FileOp::Update { hunks, .. } = &got[0] else {
        panic!()
    };
    assert_eq!(
        hunks[0].lines,
        hunk(&[
            (Sign::Remove, "-- x"),
            (Sign::Add, "++ y"),
            (Sign::Context, "a")
        ])
    );
}

#[test]
fn unified_git_operations() {
    let got = ops("diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\ndiff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\ndiff --git a/p.txt b/q.txt\nsimilarity index 100%\nrename from p.txt\nrename to q.txt\n");
    assert_eq!(
        got[0],
        FileOp::Add {
            path: "new.txt".into(),
            content: "a\nb".into(),
            line: 1
        }
    );
    assert!(
        matches!(&got[1], FileOp::Delete { path, hunks, .. } if path.path == "old.txt" && hunks.len() == 1)
    );
    assert!(
        matches!(&got[2], FileOp::Update { path, move_to: Some(to), hunks, .. } if path.path == "p.txt" && to == "q.txt" && hunks.is_empty())
    );
}

#[test]
fn unified_no_newline_markers() {
    let got = ops("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n");
    let FileOp::Update { hunks, .. } = &got[0] else {
        panic!()
    };
    assert!(hunks[0].old_no_newline && !hunks[0].new_no_newline);
}

#[test]
fn a_lone_closing_wrapper_after_end_patch_is_dropped() {
    let body = "*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch\n";
    for (tail, warning) in [("EOF\n", "heredoc"), ("```\n", "code fence")] {
        let parsed = parse(&format!("{body}{tail}")).unwrap_or_else(|e| panic!("{tail:?}: {e}"));
        assert!(
            parsed.warnings.iter().any(|w| w.contains(warning)),
            "{:?}",
            parsed.warnings
        );
    }
    let prose = parse(&format!("{body}Done.\n")).unwrap_err();
    assert_eq!(prose.kind, ErrorKind::PatchParse);
    assert!(prose.message.contains("after `*** End Patch`"));
}

#[test]
fn a_final_blank_context_line_is_kept() {
    let parsed = parse("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n \n").unwrap();
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let FileOp::Update { hunks, .. } = &parsed.patch.ops[0] else {
        panic!()
    };
    assert_eq!(hunks[0].lines.last(), Some(&(Sign::Context, String::new())));
}
