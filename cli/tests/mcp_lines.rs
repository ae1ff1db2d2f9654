//! Every line a client sends `anchored-edit mcp` is answered, with the request's id when
//! it can be read, and the server keeps serving: the cases of `tests/mcp/lines.json`
//! (shared with the npm package's server in `tests/js/mcp-parity.test.mjs`) over real
//! stdio pipes.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
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
    let mut child = common::executable()
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

/// Resident memory of a process in kB (Linux `/proc`).
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Endurance: 3 000 calls (reads and refused edits, with a bad line every 100) over one
/// connection are all answered within a bounded time, and the server's resident memory
/// grows by less than 64 MiB after a warm-up of 200.
#[test]
fn thousands_of_calls_over_one_connection_keep_memory_bounded() {
    let sandbox = common::Sandbox::new("mcp-endurance");
    sandbox.file("many.txt", "alpha\nbeta\n");
    let mut child = common::executable()
        .args(["mcp", "--root"])
        .arg(&sandbox.root)
        .env("XDG_STATE_HOME", &sandbox.state)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let mut first = String::new();
    writeln!(stdin, "{init}").unwrap();
    stdout.read_line(&mut first).unwrap();
    let first: Value = serde_json::from_str(&first).unwrap_or(Value::Null);
    assert_eq!(first["id"], 0, "{first}");
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let started = std::time::Instant::now();
    let mut exchange = |line: String| -> Value {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let answer = rx
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("no answer within 10 s to {line}"));
        assert!(
            started.elapsed() < Duration::from_secs(150),
            "3 000 calls took over 150 s"
        );
        serde_json::from_str(&answer).unwrap_or_else(|_| panic!("not JSON: {answer:?}"))
    };
    let mut call = |i: usize| {
        let line = if i % 100 == 99 {
            format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":")
        } else {
            let (name, arguments) = if i % 2 == 1 {
                (
                    "read_lines",
                    json!({"path": "many.txt", "start_line": 1, "end_line": 2}),
                )
            } else {
                (
                    "str_replace",
                    json!({"path": "many.txt", "old_str": "gamma", "new_str": "delta"}),
                )
            };
            json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": arguments}}).to_string()
        };
        let answer = exchange(line);
        if i % 100 == 99 {
            assert_eq!(answer["error"]["code"], -32700, "{i}: {answer}");
        } else {
            assert_eq!(answer["id"], i, "{answer}");
            assert!(answer["result"].is_object(), "{i}: {answer}");
        }
    };
    for i in 0..200 {
        call(i);
    }
    let before = rss_kb(pid);
    for i in 200..3_200 {
        call(i);
    }
    let after = rss_kb(pid);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        after < before + 64 * 1024,
        "RSS grew from {before} kB to {after} kB over 3 000 calls"
    );
    assert_eq!(sandbox.read("many.txt"), "alpha\nbeta\n");
}
