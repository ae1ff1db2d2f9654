//! The `anchored-edit` binary against real directories: writes, refusals, exit codes,
//! path confinement, statistics across runs.
//!
//! Runs against the native binary, or against the npm package's Node server with
//! `AE_NODE_SERVER=<node-server/bin.js>` (scripts/test-npx; `common::executable`).

mod common;

use common::executable;
use serde_json::{json, Value};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

struct Project {
    dir: PathBuf,
}

impl Project {
    fn new(name: &str) -> Project {
        let dir = std::env::temp_dir().join(format!("ae-cli-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Project { dir }
    }

    fn file(&self, rel: &str, text: &str) -> &Project {
        let p = self.dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
        self
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.dir.join(rel)).unwrap()
    }

    /// Runs `anchored-edit call --root DIR <extra>` with `request` on stdin.
    fn call(&self, request: &str, extra: &[&str]) -> (i32, Value, String) {
        let mut child = executable()
            .arg("call")
            .arg("--root")
            .arg(&self.dir)
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(request.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        (
            out.status.code().unwrap_or(-1),
            json,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn tool(&self, tool: &str, args: Value) -> (i32, Value) {
        let (code, json, _) = self.call(&json!({"tool": tool, "arguments": args}).to_string(), &[]);
        (code, json)
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".ae"))
        .collect()
}

#[test]
fn applies_an_edit_and_prints_the_result_without_new_text() {
    let p = Project::new("apply");
    p.file("src/app.py", "def f():\r\n    return 1\r\n");
    let (code, out) = p.tool(
        "str_replace",
        json!({"path": "src/app.py", "old_str": "return 1", "new_str": "return 2"}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(out["ok"], true);
    assert_eq!(out["matched_via"], "exact");
    assert!(
        out["files"][0].get("new_text").is_none(),
        "LLM view has no new_text"
    );
    assert!(out["files"][0]["diff"]
        .as_str()
        .unwrap()
        .contains("+    return 2\r\n"));
    assert_eq!(p.read("src/app.py"), "def f():\r\n    return 2\r\n");
    assert!(
        leftovers(&p.dir.join("src")).is_empty(),
        "no temp files left"
    );
}

#[test]
fn dry_run_flag_and_argument_write_nothing_and_equal_the_commit() {
    let p = Project::new("dry");
    p.file("a.txt", "one\ntwo\n");
    let req = json!({"tool": "str_replace", "arguments": {"path": "a.txt", "old_str": "two", "new_str": "2"}}).to_string();
    let (code, dry, _) = p.call(&req, &["--dry-run"]);
    assert_eq!(code, 0);
    assert_eq!(dry["dry_run"], true);
    assert_eq!(p.read("a.txt"), "one\ntwo\n");
    let (_, dry2) = p.tool(
        "str_replace",
        json!({"path": "a.txt", "old_str": "two", "new_str": "2", "dry_run": true}),
    );
    assert_eq!(p.read("a.txt"), "one\ntwo\n");
    let (code, done, _) = p.call(&req, &[]);
    assert_eq!(code, 0);
    assert_eq!(p.read("a.txt"), "one\n2\n");
    for d in [&dry, &dry2] {
        assert_eq!(d["files"][0]["diff"], done["files"][0]["diff"]);
        assert_eq!(d["files"][0]["edits"], done["files"][0]["edits"]);
    }
    // Reading tools take no dry_run; --dry-run leaves them alone.
    let (code, _, _) = p.call(
        &json!({"tool": "line_count", "arguments": {"path": "a.txt"}}).to_string(),
        &["--dry-run"],
    );
    assert_eq!(code, 0);
}

#[test]
fn a_refusal_exits_1_and_leaves_the_file_byte_identical() {
    let p = Project::new("refuse");
    let original = "\u{feff}x = 1\r\nx = 1\r\nno final newline";
    p.file("a.py", original);
    let (code, out) = p.tool(
        "str_replace",
        json!({"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}),
    );
    assert_eq!(code, 1);
    assert_eq!(out["error"]["kind"], "ambiguous");
    assert_eq!(out["files"], json!([]));
    assert_eq!(fs::read(p.dir.join("a.py")).unwrap(), original.as_bytes());
}

#[test]
fn bom_crlf_and_missing_final_newline_survive_edits_on_disk() {
    let p = Project::new("bytes");
    p.file("w.cs", "\u{feff}a\r\nb\r\nc");
    let (code, _) = p.tool(
        "insert",
        json!({"path": "w.cs", "line": 3, "new_str": "d\n"}),
    );
    assert_eq!(code, 0);
    assert_eq!(p.read("w.cs"), "\u{feff}a\r\nb\r\nc\r\nd");
    let (code, _) = p.tool("delete_lines", json!({"path": "w.cs", "start_line": 4}));
    assert_eq!(code, 0);
    assert_eq!(p.read("w.cs"), "\u{feff}a\r\nb\r\nc");
}

#[test]
fn an_absolute_path_inside_the_root_is_read_and_reported_relative_to_it() {
    let p = Project::new("absolute");
    p.file("src/a.txt", "one\ntwo\n");
    let root = p.dir.canonicalize().unwrap();
    let abs = root
        .join("src")
        .join("a.txt")
        .to_string_lossy()
        .into_owned();
    let spelled = format!("{}/./src/../src/a.txt", root.to_string_lossy());
    let (code, out) = p.tool(
        "str_replace",
        json!({"path": spelled, "old_str": "one", "new_str": "1"}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(out["files"][0]["path"], "src/a.txt", "{out:#}");
    let patch = format!("*** Begin Patch\n*** Update File: {abs}\n@@\n-two\n+2\n*** End Patch\n");
    let (code, out) = p.tool("apply_patch", json!({ "patch": patch }));
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(out["files"][0]["path"], "src/a.txt", "{out:#}");
    assert_eq!(p.read("src/a.txt"), "1\n2\n");
    // Outside: refused by the engine, naming the root and the next call.
    let (code, out) = p.tool("get_document", json!({"path": "/etc/hostname"}));
    assert_eq!(code, 1);
    assert_eq!(out["error"]["kind"], "path_outside_root");
    let message = out["error"]["message"].as_str().unwrap();
    assert!(message.contains(&*root.to_string_lossy()), "{message}");
    assert!(
        message.contains("relative to the project root"),
        "{message}"
    );
}

#[test]
fn paths_outside_the_root_are_refused() {
    let p = Project::new("escape");
    p.file("inside.txt", "ok\n");
    let outside = std::env::temp_dir().join(format!("ae-outside-{}.txt", std::process::id()));
    fs::write(&outside, "secret\n").unwrap();
    let cases = [
        json!({"path": "../outside.txt"}),
        json!({"path": "sub/../../outside.txt"}),
        json!({"path": outside.to_string_lossy()}),
    ];
    for args in cases {
        let (code, out) = p.tool("get_document", args.clone());
        assert_eq!(code, 1, "{args}");
        assert_eq!(out["error"]["kind"], "path_outside_root", "{args}: {out:#}");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.parent().unwrap(), p.dir.join("link")).unwrap();
        let name = outside.file_name().unwrap().to_string_lossy().into_owned();
        let (code, out) = p.tool("get_document", json!({"path": format!("link/{name}")}));
        assert_eq!(
            (code, out["error"]["kind"].as_str()),
            (1, Some("path_outside_root"))
        );
        let (code, out) = p.tool(
            "create_file",
            json!({"path": "link/planted.txt", "content": "x"}),
        );
        assert_eq!(
            (code, out["error"]["kind"].as_str()),
            (1, Some("path_outside_root"))
        );
        assert!(!outside.parent().unwrap().join("planted.txt").exists());
    }
    // An absolute path inside the root is fine.
    let inside = p.dir.join("inside.txt").to_string_lossy().into_owned();
    let (code, out) = p.tool("get_document", json!({"path": inside}));
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(out["content"], "ok\n");
    fs::remove_file(outside).unwrap();
}

#[test]
fn create_file_makes_directories_and_refuses_to_overwrite() {
    let p = Project::new("create");
    let (code, out) = p.tool(
        "create_file",
        json!({"path": "new/deep/x.rs", "content": "fn x() {}\n"}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(p.read("new/deep/x.rs"), "fn x() {}\n");
    let (code, out) = p.tool(
        "create_file",
        json!({"path": "new/deep/x.rs", "content": "other"}),
    );
    assert_eq!(
        (code, out["error"]["kind"].as_str()),
        (1, Some("file_exists"))
    );
    let (code, _) = p.tool(
        "create_file",
        json!({"path": "new/deep/x.rs", "content": "other", "overwrite": true}),
    );
    assert_eq!(code, 0);
    assert_eq!(p.read("new/deep/x.rs"), "other");
}

#[cfg(unix)]
#[test]
fn writes_keep_permissions_and_go_through_symlinks_inside_the_root() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new("perm");
    p.file("bin/run.sh", "echo 1\n");
    fs::set_permissions(p.dir.join("bin/run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink(p.dir.join("bin/run.sh"), p.dir.join("run")).unwrap();
    let (code, _) = p.tool(
        "str_replace",
        json!({"path": "run", "old_str": "1", "new_str": "2"}),
    );
    assert_eq!(code, 0);
    assert_eq!(p.read("bin/run.sh"), "echo 2\n");
    assert!(fs::symlink_metadata(p.dir.join("run"))
        .unwrap()
        .file_type()
        .is_symlink());
    let mode = fs::metadata(p.dir.join("bin/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o755);
}

#[test]
fn binary_and_non_utf8_files_are_refused() {
    let p = Project::new("binary");
    fs::write(p.dir.join("b.bin"), [0u8, 1, 2]).unwrap();
    fs::write(p.dir.join("l.txt"), [b'a', 0xff, b'\n']).unwrap();
    for path in ["b.bin", "l.txt"] {
        let (code, out) = p.tool("get_document", json!({"path": path}));
        assert_eq!(
            (code, out["error"]["kind"].as_str()),
            (1, Some("invalid_arguments")),
            "{path}"
        );
    }
}

/// Files on disk in other encodings: read as bytes, decoded by the engine, written back
/// in their own encoding with every untouched byte identical; a new text the encoding
/// cannot hold is refused and the file keeps its bytes.
#[test]
fn files_in_other_encodings_are_written_back_in_their_own_encoding() {
    let p = Project::new("encodings");
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(
            "x = '\u{e9}'\ny = 1\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    fs::write(p.dir.join("w.py"), utf16).unwrap();
    // windows-1252: "# caf\u{e9}\nx = 1\n"
    fs::write(p.dir.join("l.py"), b"# caf\xe9\nx = 1\n").unwrap();
    let (code, out) = p.tool(
        "str_replace",
        json!({"path": "w.py", "old_str": "y = 1", "new_str": "y = '\u{20ac}'"}),
    );
    assert_eq!(
        (code, out["files"][0]["encoding"].as_str()),
        (0, Some("UTF-16LE")),
        "{out}"
    );
    let want: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(
            "x = '\u{e9}'\ny = '\u{20ac}'\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    assert_eq!(fs::read(p.dir.join("w.py")).unwrap(), want);
    let (code, out) = p.tool(
        "str_replace",
        json!({"path": "l.py", "old_str": "x = 1", "new_str": "x = 2"}),
    );
    assert_eq!(code, 1);
    assert!(
        out["error"]["message"]
            .as_str()
            .unwrap()
            .contains("\"encoding\": \"windows-1252\""),
        "{out}"
    );
    let (code, _) = p.tool(
        "str_replace",
        json!({"path": "l.py", "old_str": "x = 1", "new_str": "x = '\u{e0}'", "encoding": "latin1"}),
    );
    assert_eq!(code, 0);
    assert_eq!(
        fs::read(p.dir.join("l.py")).unwrap(),
        b"# caf\xe9\nx = '\xe0'\n"
    );
    let (code, out) = p.tool(
        "str_replace",
        json!({"path": "l.py", "old_str": "x = '\u{e0}'", "new_str": "x = '\u{65e5}'", "encoding": "latin1"}),
    );
    assert_eq!(
        (code, out["error"]["kind"].as_str()),
        (1, Some("invalid_arguments"))
    );
    assert!(
        out["error"]["message"].as_str().unwrap().contains("U+65E5"),
        "{out}"
    );
    assert_eq!(
        fs::read(p.dir.join("l.py")).unwrap(),
        b"# caf\xe9\nx = '\xe0'\n"
    );
}

#[test]
fn malformed_and_truncated_requests_get_structured_errors() {
    let p = Project::new("malformed");
    let (code, out, _) = p.call(
        r#"{"tool":"str_replace","arguments":{"path":"a","old_str":"x"#,
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(out["error"]["kind"], "invalid_arguments");
    assert!(out["error"]["message"]
        .as_str()
        .unwrap()
        .contains("cut off"));
    let (code, out, _) = p.call("not json", &[]);
    assert_eq!(code, 1);
    assert!(out["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not valid JSON"));
}

#[test]
fn requests_that_are_not_utf8_get_a_json_refusal() {
    // Issue 12 item 7: these exited 2 with an empty stdout.
    let p = Project::new("not-utf8");
    p.file("a.txt", "caf\u{e9}\n");
    let mut request =
        br#"{"tool":"str_replace","arguments":{"path":"a.txt","old_str":"caf"#.to_vec();
    request.extend_from_slice(b"\xe9\",\"new_str\":\"cafe\"}}");
    let req = p.dir.join("req.json");
    fs::write(&req, &request).unwrap();
    let via_stdin = |bytes: &[u8]| {
        let mut child = executable()
            .args(["call", "--root"])
            .arg(&p.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(bytes).unwrap();
        child.wait_with_output().unwrap()
    };
    let via_file = executable()
        .args(["call", "--root"])
        .arg(&p.dir)
        .arg("--request")
        .arg(&req)
        .output()
        .unwrap();
    for out in [via_stdin(&request), via_file, via_stdin(b"\xff\xfe{}")] {
        assert_eq!(out.status.code(), Some(1));
        let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON result");
        assert_eq!(v["error"]["kind"], "invalid_arguments", "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains("not UTF-8"), "{message}");
        assert!(message.contains("Send"), "{message}");
    }
    assert_eq!(p.read("a.txt"), "caf\u{e9}\n");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["frobnicate"],
        vec!["call", "--bogus"],
        vec!["call", "--root", "/definitely/not/here"],
        vec![],
    ] {
        let out = executable()
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = executable().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for word in [
        "call",
        "mcp",
        "--root",
        "--dry-run",
        "--stats",
        "EXIT STATUS",
    ] {
        assert!(help.contains(word), "help lacks {word}");
    }
    let out = executable().arg("tools").output().unwrap();
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(tools
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["name"] == "str_replace"));
}

#[test]
fn request_file_option() {
    let p = Project::new("reqfile");
    p.file("a.txt", "a\n");
    let req = p.dir.join("req.json");
    fs::write(
        &req,
        json!({"tool": "line_count", "arguments": {"path": "a.txt"}}).to_string(),
    )
    .unwrap();
    let out = executable()
        .args(["call", "--root"])
        .arg(&p.dir)
        .arg("--request")
        .arg(&req)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["line_count"], 1);
}

#[test]
fn stats_file_carries_history_across_runs() {
    let p = Project::new("stats");
    p.file("a.py", "x = 1\n");
    let stats = p.dir.join("stats.jsonl");
    let stats_arg = stats.to_string_lossy().into_owned();
    let miss = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "y = 1", "new_str": "y = 2"}}).to_string();
    let mut last = Value::Null;
    for _ in 0..3 {
        let (code, out, _) = p.call(&miss, &["--stats", &stats_arg]);
        assert_eq!(code, 1);
        last = out;
    }
    let message = last["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("3rd refused str_replace on a.py in a row"),
        "{message}"
    );
    let hit = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}}).to_string();
    let (code, _, _) = p.call(&hit, &["--stats", &stats_arg, "--dry-run"]);
    assert_eq!(code, 0);
    let (code, _, _) = p.call(&hit, &["--stats", &stats_arg]);
    assert_eq!(code, 0);
    let (code, out, _) = p.call(
        &json!({"tool": "get_edit_stats", "arguments": {}}).to_string(),
        &["--stats", &stats_arg],
    );
    assert_eq!(code, 0);
    let t = &out["stats"]["str_replace"];
    assert_eq!(t["calls"], 5);
    assert_eq!(t["refused"], 3);
    assert_eq!(t["applied"], 1);
    assert_eq!(t["previewed"], 1);
    assert_eq!(t["dry_runs_committed"], 1);
    assert_eq!(t["errors"]["no_match"], 3);
    assert!(
        out["message"]
            .as_str()
            .unwrap()
            .starts_with("5 edits: 1 applied (20%), 3 refused"),
        "{}",
        out["message"]
    );
    assert_eq!(
        fs::read_to_string(&stats).unwrap().lines().count(),
        5,
        "get_edit_stats itself is not recorded"
    );
}

#[test]
fn a_stats_reset_lasts_into_the_next_run() {
    let p = Project::new("stats-reset");
    p.file("a.py", "x = 1\n");
    let stats = p.dir.join("stats.jsonl");
    let stats_arg = stats.to_string_lossy().into_owned();
    let miss = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "y = 1", "new_str": "y = 2"}}).to_string();
    for _ in 0..2 {
        assert_eq!(p.call(&miss, &["--stats", &stats_arg]).0, 1);
    }
    let reset = json!({"tool": "get_edit_stats", "arguments": {"reset": true}}).to_string();
    let (code, out, _) = p.call(&reset, &["--stats", &stats_arg]);
    assert_eq!(code, 0);
    assert_eq!(
        out["stats"]["str_replace"]["calls"], 2,
        "the reset call reports what it clears"
    );
    // The next run starts from zero: one refusal, not the third in a row.
    let (_, out, _) = p.call(&miss, &["--stats", &stats_arg]);
    let message = out["error"]["message"].as_str().unwrap();
    assert!(!message.contains("in a row"), "{message}");
    let (_, out, _) = p.call(
        &json!({"tool": "get_edit_stats", "arguments": {}}).to_string(),
        &["--stats", &stats_arg],
    );
    assert_eq!(out["stats"]["str_replace"]["calls"], 1, "{out}");
    assert_eq!(fs::read_to_string(&stats).unwrap().lines().count(), 1);
}

#[test]
fn a_patch_adds_updates_deletes_and_moves_files_on_disk_together() {
    let p = Project::new("patch");
    p.file("src/app.py", "def main():\n    retries = 3\n    run()\n");
    p.file("legacy.py", "old = True\n");
    p.file("notes/todo.txt", "one\n");
    let patch = "*** Begin Patch\n\
*** Add File: src/util.py\n+def helper():\n+    return 1\n\
*** Update File: src/app.py\n@@ def main():\n-    retries = 3\n+    retries = 5\n     run()\n\
*** Delete File: legacy.py\n\
*** Update File: notes/todo.txt\n*** Move to: docs/todo.txt\n@@\n-one\n+one\n+two\n\
*** End Patch\n";
    let (code, out) = p.tool("apply_patch", json!({"patch": patch}));
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(p.read("src/util.py"), "def helper():\n    return 1\n");
    assert_eq!(
        p.read("src/app.py"),
        "def main():\n    retries = 5\n    run()\n"
    );
    assert!(!p.dir.join("legacy.py").exists());
    assert!(!p.dir.join("notes/todo.txt").exists());
    assert_eq!(p.read("docs/todo.txt"), "one\ntwo\n");
}

#[test]
fn a_refused_batch_leaves_every_file_byte_identical() {
    let p = Project::new("batch");
    p.file("a.py", "x = 1\r\n");
    p.file("b.py", "\u{feff}y = 2");
    let before_a = fs::read(p.dir.join("a.py")).unwrap();
    let before_b = fs::read(p.dir.join("b.py")).unwrap();
    let (code, out) = p.tool(
        "multi_replace",
        json!({"replacements": [
            {"path": "a.py", "old_str": "x = 1", "new_str": "x = 10"},
            {"path": "b.py", "old_str": "y = 3", "new_str": "y = 30"}]}),
    );
    assert_eq!(code, 1, "{out:#}");
    assert_eq!(out["error"]["kind"], "no_match");
    assert_eq!(fs::read(p.dir.join("a.py")).unwrap(), before_a);
    assert_eq!(fs::read(p.dir.join("b.py")).unwrap(), before_b);
    // The same patch with a failing second hunk: nothing written either.
    let patch = "*** Begin Patch\n*** Update File: a.py\n-x = 1\n+x = 11\n*** Update File: b.py\n-y = 9\n+y = 99\n*** End Patch\n";
    let (code, out) = p.tool("apply_patch", json!({"patch": patch}));
    assert_eq!(
        (code, out["error"]["kind"].as_str()),
        (1, Some("patch_context_mismatch"))
    );
    assert_eq!(fs::read(p.dir.join("a.py")).unwrap(), before_a);
    assert!(leftovers(&p.dir).is_empty());
}

/// The second file's swap fails (injected: the debug build's `ANCHORED_EDIT_FAIL_AT`,
/// so the test runs the same as root or not): the first file is swapped back.
#[test]
fn a_write_that_fails_midway_is_rolled_back_and_reported() {
    let p = Project::new("rollback");
    p.file("a/one.txt", "1\n");
    p.file("b/two.txt", "2\n");
    let request = json!({"tool": "multi_replace", "arguments": {"replacements": [
        {"path": "a/one.txt", "old_str": "1", "new_str": "one"},
        {"path": "b/two.txt", "old_str": "2", "new_str": "two"}]}});
    let out = executable()
        .args(["call", "--root"])
        .arg(&p.dir)
        .env("ANCHORED_EDIT_FAIL_AT", "swap:2")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(request.to_string().as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let out: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(
        (code, out["error"]["kind"].as_str()),
        (1, Some("write_failed")),
        "{out:#}"
    );
    assert_eq!(
        p.read("a/one.txt"),
        "1\n",
        "the first file was swapped back"
    );
    assert_eq!(p.read("b/two.txt"), "2\n");
    assert!(leftovers(&p.dir.join("a")).is_empty() && leftovers(&p.dir.join("b")).is_empty());
}

// `call --dry-run` is a call option of the engine: whatever shape the request has
// (arguments as an object or as a JSON string, `tool`/`arguments` or `name`/`input`),
// nothing is written and the result says `dry_run: true`.
#[test]
fn dry_run_writes_nothing_whatever_the_request_shape() {
    let shapes = [
        r#"{"tool":"str_replace","arguments":{"path":"a.py","old_str":"x = 1","new_str":"x = 2"}}"#,
        r#"{"tool":"str_replace","arguments":"{\"path\":\"a.py\",\"old_str\":\"x = 1\",\"new_str\":\"x = 2\"}"}"#,
        r#"{"name":"str_replace","input":{"path":"a.py","old_str":"x = 1","new_str":"x = 2"}}"#,
        r#"{"name":"str_replace","input":"{\"path\":\"a.py\",\"old_str\":\"x = 1\",\"new_str\":\"x = 2\"}"}"#,
        r#"{"tool":"str_replace","arguments":{"path":"a.py","old_str":"x = 1","new_str":"x = 2","dry_run":false}}"#,
    ];
    let p = Project::new("dry-run-shapes");
    for request in shapes {
        p.file("a.py", "x = 1\n");
        let (code, result, _) = p.call(request, &["--dry-run"]);
        assert_eq!(code, 0, "{request}: {result}");
        assert_eq!(result["dry_run"], Value::Bool(true), "{request}: {result}");
        assert!(result["files"][0]["diff"]
            .as_str()
            .unwrap()
            .contains("+x = 2"));
        assert_eq!(p.read("a.py"), "x = 1\n", "{request}");
    }
    // Without the option the same call writes.
    let (code, _, _) = p.call(shapes[1], &[]);
    assert_eq!(code, 0);
    assert_eq!(p.read("a.py"), "x = 2\n");
}

#[test]
fn every_tool_schema_carries_annotations_and_read_only_matches_dry_run() {
    let out = executable().arg("tools").output().unwrap();
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    for t in tools.as_array().unwrap() {
        let a = &t["annotations"];
        for key in [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ] {
            assert!(a[key].is_boolean(), "{}: {key}", t["name"]);
        }
        assert!(a["title"].as_str().is_some_and(|s| !s.is_empty()));
        // An editing tool takes dry_run; a reading tool does not.
        let takes_dry_run = t["inputSchema"]["properties"].get("dry_run").is_some();
        assert_eq!(
            takes_dry_run,
            a["readOnlyHint"] == Value::Bool(false),
            "{}",
            t["name"]
        );
    }
}

#[test]
fn state_dir_carries_versions_and_undo_between_calls() {
    let p = Project::new("state");
    p.file("a.py", "def a():\n    return 1\n");
    let state = p.dir.join(".state");
    let state = state.to_str().unwrap();
    let run = |tool: &str, args: Value, with_state: bool| {
        let request = json!({"tool": tool, "arguments": args}).to_string();
        let extra: &[&str] = if with_state { &["--state", state] } else { &[] };
        let (code, json, _) = p.call(&request, extra);
        (code, json)
    };
    let (_, read) = run("line_count", json!({"path": "a.py"}), true);
    let version = read["version"].as_str().unwrap().to_string();
    p.file("a.py", "import os\ndef a():\n    return 1\n");
    let edit = json!({"path": "a.py", "old_str": "return 1", "new_str": "return 2", "expected_version": version});
    let (code, out) = run("str_replace", edit.clone(), false);
    assert_eq!(
        (code, out["error"]["kind"].as_str()),
        (1, Some("stale_buffer"))
    );
    let (code, out) = run("str_replace", edit, true);
    assert_eq!(code, 0, "{out}");
    assert!(out["warnings"].to_string().contains("Rebased"), "{out}");
    assert_eq!(p.read("a.py"), "import os\ndef a():\n    return 2\n");
    let (code, out) = run("undo_edit", json!({}), false);
    assert_eq!(code, 1);
    assert!(out["error"]["message"]
        .as_str()
        .unwrap()
        .contains("--state DIR"));
    let (code, out) = run("undo_edit", json!({}), true);
    assert_eq!(code, 0, "{out}");
    assert_eq!(p.read("a.py"), "import os\ndef a():\n    return 1\n");
    let (code, out) = run("undo_edit", json!({}), true);
    assert_eq!(code, 1, "the history is empty now");
    // With --state the session keeps a history: no advice to use --state.
    let message = out["error"]["message"].as_str().unwrap();
    assert!(message.contains("nothing to undo"), "{message}");
    assert!(!message.contains("--state"), "{message}");
}
