//! Every line a client sends `anchored-edit mcp` is answered, with the request's id when
//! it can be read, and the server keeps serving: the cases of `tests/mcp/lines.json`
//! (shared with the npm package's server in `tests/js/mcp-parity.test.mjs`) over real
//! stdio pipes.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The bytes of one case's line (without its line break).
fn line_bytes(case: &Value) -> Vec<u8> {
    if let Some(text) = case["line"].as_str() {
        return text.as_bytes().to_vec();
    }
    let mut out = Vec::new();
    for part in case["parts"].as_array().expect("line or parts") {
        match part {
            Value::String(s) => out.extend_from_slice(s.as_bytes()),
            Value::Array(bytes) => out.extend(bytes.iter().map(|b| b.as_u64().unwrap() as u8)),
            _ => panic!("a part is text or an array of bytes"),
        }
    }
    out
}

#[test]
fn every_line_of_the_table_is_answered_with_its_id() {
    let table: Value = serde_json::from_str(include_str!("../../tests/mcp/lines.json")).unwrap();
    let sandbox = common::Sandbox::new("mcp-lines");
    sandbox.file("a.txt", "hello\n");
    let mut child = Command::new(common::bin())
        .args(["mcp", "--root"])
        .arg(&sandbox.root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut send = |bytes: &[u8]| {
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    let next = |what: &str| -> Value {
        let line = rx
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("no answer within 10 s to {what}"));
        serde_json::from_str(&line).unwrap()
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    send(init.to_string().as_bytes());
    assert_eq!(next("initialize")["id"], 0);
    send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let mut failures = Vec::new();
    for (n, case) in table["cases"].as_array().unwrap().iter().enumerate() {
        let name = case["name"].as_str().unwrap();
        send(&line_bytes(case));
        let answer = next(name);
        if answer["error"]["code"] != case["code"] || answer["id"] != case["id"] {
            failures.push(format!("{name}: {answer}"));
        }
        let ping = json!({"jsonrpc": "2.0", "id": format!("ping-{n}"), "method": "ping"});
        send(ping.to_string().as_bytes());
        let pong = next(&format!("the ping after {name}"));
        assert_eq!(pong["id"], ping["id"], "after {name}: {pong}");
    }
    drop(stdin);
    let _ = child.wait();
    assert!(failures.is_empty(), "{failures:#?}");
    for path in table["untouched"].as_array().unwrap() {
        assert_eq!(sandbox.read(path.as_str().unwrap()), "hello\n");
    }
    for path in table["absent"].as_array().unwrap() {
        assert!(
            !sandbox.root.join(path.as_str().unwrap()).exists(),
            "{path}"
        );
    }
}
