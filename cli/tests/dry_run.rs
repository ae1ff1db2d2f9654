//! `call --dry-run` is a call option of the engine: whatever shape the request has
//! (arguments as an object or as a JSON string, `tool`/`arguments` or `name`/`input`),
//! nothing is written and the result says `dry_run: true`.

use serde_json::Value;
use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_anchored-edit");

fn run(root: &std::path::Path, request: &str, extra: &[&str]) -> (i32, Value) {
    let mut child = Command::new(BIN)
        .arg("call")
        .arg("--root")
        .arg(root)
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
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json)
}

#[test]
fn dry_run_writes_nothing_whatever_the_request_shape() {
    let shapes = [
        r#"{"tool":"str_replace","arguments":{"path":"a.py","old_str":"x = 1","new_str":"x = 2"}}"#,
        r#"{"tool":"str_replace","arguments":"{\"path\":\"a.py\",\"old_str\":\"x = 1\",\"new_str\":\"x = 2\"}"}"#,
        r#"{"name":"str_replace","input":{"path":"a.py","old_str":"x = 1","new_str":"x = 2"}}"#,
        r#"{"name":"str_replace","input":"{\"path\":\"a.py\",\"old_str\":\"x = 1\",\"new_str\":\"x = 2\"}"}"#,
        r#"{"tool":"str_replace","arguments":{"path":"a.py","old_str":"x = 1","new_str":"x = 2","dry_run":false}}"#,
    ];
    let root = std::env::temp_dir().join(format!("ae-dry-run-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).unwrap();
    for request in shapes {
        fs::write(root.join("a.py"), "x = 1\n").unwrap();
        let (code, result) = run(&root, request, &["--dry-run"]);
        assert_eq!(code, 0, "{request}: {result}");
        assert_eq!(result["dry_run"], Value::Bool(true), "{request}: {result}");
        assert!(result["files"][0]["diff"]
            .as_str()
            .unwrap()
            .contains("+x = 2"));
        assert_eq!(
            fs::read_to_string(root.join("a.py")).unwrap(),
            "x = 1\n",
            "{request}"
        );
    }
    // Without the option the same call writes.
    let (code, _) = run(&root, shapes[1], &[]);
    assert_eq!(code, 0);
    assert_eq!(fs::read_to_string(root.join("a.py")).unwrap(), "x = 2\n");
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn every_tool_schema_carries_annotations_and_read_only_matches_dry_run() {
    let out = Command::new(BIN).arg("tools").output().unwrap();
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
