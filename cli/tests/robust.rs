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

/// Runs one call with a deadline: a hang is a failure, not a stuck test run.
fn call_within(s: &Sandbox, tool: &str, args: serde_json::Value) -> (i32, serde_json::Value) {
    let mut child = s.spawn(&json!({"tool": tool, "arguments": args}), &[]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{tool} did not answer within 30 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    common::parse(child.wait_with_output().unwrap())
}

fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Finding 6: an ignore file is read only when it is a regular file inside the root, not a
/// link, at most 1 MiB; otherwise it is skipped with a warning (native), and the listing
/// answers.
#[test]
fn ignore_files_that_are_links_fifos_or_huge_are_skipped_with_a_warning() {
    type Plant = fn(&Sandbox, &std::path::Path);
    let cases: &[(&str, Plant, &str)] = &[
        (
            "link to an outside file",
            |s, at| {
                std::fs::write(s.outside.join("rules"), "keep.txt\n").unwrap();
                std::os::unix::fs::symlink(s.outside.join("rules"), at).unwrap();
            },
            "a link",
        ),
        (
            "link to /dev/zero",
            |_, at| std::os::unix::fs::symlink("/dev/zero", at).unwrap(),
            "a link",
        ),
        ("FIFO", |_, at| mkfifo(at), "not a regular file"),
        (
            "2 MiB of rules",
            |_, at| std::fs::write(at, "keep.txt\n".repeat(233_017)).unwrap(),
            "over the 1048576-byte limit",
        ),
    ];
    for (name, plant, why) in cases {
        for (folder, file) in [("", ".gitignore"), ("sub", ".ignore")] {
            let s = Sandbox::new(&format!("ignore-{}", name.replace([' ', '/'], "-")));
            s.file("keep.txt", "k\n");
            s.file("sub/keep.txt", "k\n");
            s.file("sub/other.txt", "o\n");
            plant(&s, &s.root.join(folder).join(file));
            for (tool, args) in [
                ("list_files", json!({})),
                ("grep_project", json!({"pattern": "k"})),
                ("find_symbol", json!({"name": "main"})),
            ] {
                let (code, out) = call_within(&s, tool, args);
                assert!(code == 0 || code == 1, "{name} {file} {tool}: {code} {out}");
                if tool == "list_files" {
                    let listed = out.to_string();
                    for path in ["keep.txt", "sub/keep.txt", "sub/other.txt"] {
                        assert!(
                            listed.contains(path),
                            "{name} {file}: {path} not listed: {out}"
                        );
                    }
                    // Both walkers (cli/src/walk.rs, js/host-policy/listing.js) warn in
                    // the engine's words (`ignore_file_skipped`).
                    let path = if folder.is_empty() {
                        file.to_string()
                    } else {
                        format!("{folder}/{file}")
                    };
                    let said = |w: &serde_json::Value| {
                        w.as_str().is_some_and(|w| {
                            w.starts_with(&format!("{path} was not read as ignore rules: "))
                                && w.contains(why)
                        })
                    };
                    assert!(
                        out["warnings"].as_array().is_some_and(|ws| ws
                            .iter()
                            .filter(|w| said(w))
                            .count()
                            == 1),
                        "{name} {file}: {out}"
                    );
                }
            }
        }
    }
}

/// Finding 7: a 64 GB sparse file in the tree (no disk used) is refused from `stat` with
/// a structured error when named, and skipped by the searches; nothing aborts. A FIFO in
/// the tree is never opened.
#[test]
fn a_sparse_giant_and_a_fifo_in_the_tree_get_json_answers() {
    let s = Sandbox::new("giant");
    s.file("a.txt", "fn main() {}\nneedle\n");
    let giant = std::fs::File::create(s.root.join("giant.txt")).unwrap();
    giant.set_len(64 << 30).unwrap();
    mkfifo(&s.root.join("pipe.txt"));
    let cases = [
        (
            "read_lines",
            json!({"path": "giant.txt", "start_line": 1, "end_line": 2}),
            1,
        ),
        (
            "str_replace",
            json!({"path": "giant.txt", "old_str": "a", "new_str": "b"}),
            1,
        ),
        (
            "read_lines",
            json!({"path": "pipe.txt", "start_line": 1, "end_line": 2}),
            1,
        ),
        ("grep_project", json!({"pattern": "needle"}), 0),
        ("find_symbol", json!({"name": "main"}), 0),
        (
            "replace_in_files",
            json!({"glob": "*.txt", "old_str": "needle", "new_str": "pin"}),
            0,
        ),
        ("list_files", json!({}), 0),
    ];
    for (tool, args, want) in cases {
        let (code, out) = call_within(&s, tool, args);
        assert_eq!(code, want, "{tool}: {out}");
        assert!(out.is_object(), "{tool}: no JSON");
        if want == 1 {
            assert_eq!(out["error"]["kind"], "invalid_arguments", "{tool}: {out}");
        }
    }
    assert_eq!(s.read("a.txt"), "fn main() {}\npin\n");
    let (_, out) = call_within(&s, "read_lines", json!({"path": "giant.txt"}));
    assert_eq!(out["error"]["diagnostics"]["bytes"], 64u64 << 30, "{out}");
    // Over the 256 MiB limit but under what Node's readFile takes (2 GiB): refused from
    // stat too, not read whole first.
    let big = std::fs::File::create(s.root.join("big.txt")).unwrap();
    big.set_len(300 << 20).unwrap();
    let (_, out) = call_within(&s, "read_lines", json!({"path": "big.txt"}));
    assert_eq!(out["error"]["diagnostics"]["bytes"], 300u64 << 20, "{out}");
}
