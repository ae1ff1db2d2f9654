//! A project directory beside an `outside/` directory, and the binary run on it.
//!
//! `AE_TEST_BIN=/path/to/anchored-edit` runs these tests against another build (an old
//! one, to check that a test fails on the code it was written against).
//! `AE_NODE_SERVER=/path/to/node-server/bin.js` runs them against the npm package's Node
//! server (`node bin.js call|mcp ...`, scripts/test-npx); tests of what only the native
//! binary has (its fault hooks, the project walker's warnings) check [`node`] and skip.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::fs;
use std::io::Write;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The Node server's `bin.js` when `AE_NODE_SERVER` names it.
pub fn node() -> Option<PathBuf> {
    std::env::var_os("AE_NODE_SERVER")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The command under test, before its subcommand: the native binary, or `node bin.js`.
pub fn executable() -> Command {
    match node() {
        Some(js) => {
            let mut c = Command::new(std::env::var_os("AE_NODE").unwrap_or_else(|| "node".into()));
            c.arg(js);
            c
        }
        None => Command::new(bin()),
    }
}

pub fn bin() -> PathBuf {
    std::env::var_os("AE_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_anchored-edit")))
}

/// `base/root` is the project; `base/outside` must never be read or written;
/// `base/state` is the runs' `XDG_STATE_HOME` (where the write journals live).
pub struct Sandbox {
    pub base: PathBuf,
    pub root: PathBuf,
    pub outside: PathBuf,
    pub state: PathBuf,
}

impl Sandbox {
    pub fn new(name: &str) -> Sandbox {
        let base = std::env::temp_dir().join(format!("ae-disk-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let root = base.join("root");
        let outside = base.join("outside");
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(&outside).unwrap();
        let state = base.join("state");
        Sandbox {
            base,
            root,
            outside,
            state,
        }
    }

    pub fn file(&self, rel: &str, text: &str) {
        let p = self.root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.root.join(rel)).unwrap()
    }

    pub fn spawn(&self, request: &Value, env: &[(&str, &str)]) -> Child {
        let mut child = self
            .command()
            .arg("call")
            .arg("--root")
            .arg(&self.root)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(request.to_string().as_bytes());
        drop(stdin);
        child
    }

    /// The command under test, with this sandbox's state directory.
    pub fn command(&self) -> Command {
        let mut c = executable();
        c.env("XDG_STATE_HOME", &self.state);
        c
    }

    /// The files in this root's journal folder (journals, locks): empty when no write
    /// is running or left to recover.
    pub fn journals(&self) -> Vec<String> {
        let mut out = Vec::new();
        for d in fs::read_dir(self.state.join("anchored-edit"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if d.path().is_dir() {
                for f in fs::read_dir(d.path()).into_iter().flatten().flatten() {
                    out.push(f.file_name().to_string_lossy().into_owned());
                }
            }
        }
        out
    }

    pub fn call_env(&self, tool: &str, args: Value, env: &[(&str, &str)]) -> (i32, Value) {
        let child = self.spawn(&json!({"tool": tool, "arguments": args}), env);
        parse(child.wait_with_output().unwrap())
    }

    pub fn call(&self, tool: &str, args: Value) -> (i32, Value) {
        self.call_env(tool, args, &[])
    }

    /// One `mcp` server on this root, initialized, for many calls without a start-up
    /// each (a race needs calls, not process starts).
    pub fn server(&self) -> Server {
        let mut child = self
            .command()
            .arg("mcp")
            .arg("--root")
            .arg(&self.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            lines,
            next: 0,
        };
        server.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }
}

/// A running `mcp` server ([`Sandbox::server`]); killed when dropped.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    next: u64,
}

impl Server {
    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The answer to one request (an answer within 30 s, or the test fails).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("{method}: no answer within 30 s"));
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == id {
                return answer;
            }
        }
    }

    /// A tools/call: 0 or 1 as `call` exits (the result's `isError`), and the whole result.
    pub fn call(&mut self, tool: &str, args: Value) -> (i32, Value) {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let result = answer["result"].clone();
        assert!(!result.is_null(), "{tool}: {answer}");
        (i32::from(result["isError"] == true), result)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = Command::new("chattr")
            .arg("-R")
            .arg("-i")
            .arg(&self.base)
            .output();
        let _ = fs::remove_dir_all(&self.base);
    }
}

pub fn parse(out: Output) -> (i32, Value) {
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json)
}

/// Every file under `dir` (symlinks as `-> target`), sorted, with its bytes.
pub fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let rel = p.strip_prefix(base).unwrap().to_string_lossy().into_owned();
        let meta = fs::symlink_metadata(&p).unwrap();
        if meta.file_type().is_symlink() {
            let t = fs::read_link(&p).unwrap();
            out.push((rel, format!("-> {}", t.display()).into_bytes()));
        } else if meta.is_dir() {
            out.push((format!("{rel}/"), Vec::new()));
            walk(base, &p, out);
        } else if meta.is_file() {
            out.push((rel, fs::read(&p).unwrap()));
        } else {
            out.push((rel, b"(special)".to_vec()));
        }
    }
}

/// Names a commit leaves only if it failed to clean up: staging files and rollback
/// copies under `dir`, and journals (or locks) in the sandbox's state directory beside
/// it (`dir/../state`, see [`Sandbox`]).
pub fn leftovers(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = tree(dir)
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| n.contains(".ae"))
        .collect();
    let state = dir.parent().map(|p| p.join("state/anchored-edit"));
    for d in state.iter().flat_map(fs::read_dir).flatten().flatten() {
        if d.path().is_dir() {
            for f in fs::read_dir(d.path()).into_iter().flatten().flatten() {
                out.push(format!("state: {}", f.file_name().to_string_lossy()));
            }
        }
    }
    out
}
