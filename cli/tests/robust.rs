//! Issue 24's findings that are not the write protocol, on real files: one file named
//! twice in replace_in_files, caps that answer before superlinear work, the walker's
//! bounded reads (ignore files, FIFOs, links to devices, sparse giants).

mod common;

use common::Sandbox;
use serde_json::json;

/// Finding 4: `a.txt` and a link to it (symbolic or hard) in one replace_in_files are one
/// file: edited once, never refused as stale with "send the same call again".
#[test]
fn replace_in_files_naming_one_file_twice_edits_it_once() {
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        ("symlink", &["a.txt", "link.txt"], None),
        ("symlink first", &["link.txt", "a.txt"], None),
        ("hard link", &["a.txt", "hard.txt"], None),
        ("glob", &[], Some("*.txt")),
    ];
    for (name, paths, glob) in cases {
        let s = Sandbox::new(&format!("rif-alias-{}", name.replace(' ', "-")));
        s.file("a.txt", "hello world\n");
        std::os::unix::fs::symlink("a.txt", s.root.join("link.txt")).unwrap();
        std::fs::hard_link(s.root.join("a.txt"), s.root.join("hard.txt")).unwrap();
        let mut args = json!({"old_str": "hello", "new_str": "bye"});
        match glob {
            Some(g) => args["glob"] = json!(g),
            None => args["paths"] = json!(paths),
        }
        let (code, out) = s.call("replace_in_files", args);
        assert_eq!(code, 0, "{name}: {out}");
        assert_eq!(s.read("a.txt"), "bye world\n", "{name}");
        assert!(
            std::fs::symlink_metadata(s.root.join("link.txt"))
                .unwrap()
                .file_type()
                .is_symlink(),
            "{name}"
        );
        assert_eq!(
            s.read("hard.txt"),
            "bye world\n",
            "{name}: the hard link is kept"
        );
        let warnings = out["warnings"].to_string();
        assert!(warnings.contains("other names of a file"), "{name}: {out}");
    }
}

/// Finding 5: path depth, replacements per call and hunks per patch are capped, and a
/// call over a cap is refused `invalid_arguments` before any work (nothing created); a
/// call at the cap is served.
#[test]
fn caps_answer_invalid_arguments_first() {
    let s = Sandbox::new("caps");
    let deep = |n: usize| format!("{}f.txt", "d/".repeat(n));
    let (code, out) = s.call("create_file", json!({"path": deep(257), "content": "x\n"}));
    assert_eq!(code, 1, "{out}");
    assert_eq!(out["error"]["kind"], "invalid_arguments", "{out}");
    assert!(!s.root.join("d").exists(), "nothing created");
    let (code, out) = s.call("create_file", json!({"path": deep(256), "content": "x\n"}));
    assert_eq!(code, 0, "{out}");

    let text: String = (0..1001).map(|i| format!("line {i}\n")).collect();
    s.file("many.txt", &text);
    let items = |n: usize| -> Vec<serde_json::Value> {
        (0..n)
            .map(|i| json!({"path": "many.txt", "old_str": format!("line {i}\n"), "new_str": format!("LINE {i}\n")}))
            .collect()
    };
    let (code, out) = s.call("multi_replace", json!({"replacements": items(1001)}));
    assert_eq!(out["error"]["kind"], "invalid_arguments", "{code} {out}");
    assert_eq!(s.read("many.txt"), text);
    let (code, out) = s.call("multi_replace", json!({"replacements": items(1000)}));
    assert_eq!(code, 0, "{out}");

    s.file("many.txt", &text);
    let patch = |n: usize| -> String {
        let hunks: String = (0..n)
            .map(|i| format!("@@\n-line {i}\n+LINE {i}\n"))
            .collect();
        format!("*** Begin Patch\n*** Update File: many.txt\n{hunks}*** End Patch\n")
    };
    let (code, out) = s.call("apply_patch", json!({"patch": patch(1001)}));
    assert_eq!(out["error"]["kind"], "invalid_arguments", "{code} {out}");
    assert_eq!(s.read("many.txt"), text);
    let (code, out) = s.call("apply_patch", json!({"patch": patch(1000)}));
    assert_eq!(code, 0, "{out}");
}
