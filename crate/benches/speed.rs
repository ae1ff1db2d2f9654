//! The speed goals of docs/performance.md, in-process: the three calls of the goal table
//! on 100 000-line real-code files (Python and JavaScript, built by
//! `scripts/bench-inputs.mjs`, which this bench runs when its output is missing), and the
//! worst cases, each on a ≈4 MB file: identical lines rewritten, one 4 MB line, 10 000
//! candidates of a one-word old_str, deeply nested brackets, a patch of 1 000 hunks.
//!
//! Every call goes through `Session::call` with the text shared (`Arc<String>`), as a
//! long-lived host keeps it; `dry_run` so that each iteration sees the same file.
//!
//! The `hosts` group times the goal calls as hosts make them (issue 28): a text the
//! session has never seen on every call with `new_text` wanted (a host that hands the
//! engine its buffer through the reader, as every host did before kept buffers), and a
//! kept text with `new_text` left out (an editor that keeps its buffers in the session
//! and applies `edits`), and an exact hit applied: the next call meets the text the
//! session wrote, as the native server's read cache and an editor's kept buffer hand it
//! back (also with memory moved between calls, as the server's write path moves it).
//! The host's own copy of the text is not timed.
//!
//! Run: `cargo bench -p anchored-edit --bench speed` (one group: `-- goals`, `-- hosts`
//! or `-- worst`).

use anchored_edit::{CallOptions, Session};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

type Files = BTreeMap<String, Arc<String>>;

/// `target/bench-inputs/`, built by the inputs script when missing.
fn inputs() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join("target/bench-inputs");
    if !dir.join("cases.json").exists() {
        let status = std::process::Command::new("node")
            .arg(root.join("scripts/bench-inputs.mjs"))
            .status()
            .expect("node runs scripts/bench-inputs.mjs");
        assert!(status.success(), "scripts/bench-inputs.mjs failed");
    }
    dir
}

fn str_replace(path: &str, args: &Value) -> Value {
    let mut a = args.clone();
    a["path"] = json!(path);
    a["dry_run"] = json!(true);
    json!({"tool": "str_replace", "arguments": a})
}

/// Benches `request` after checking its outcome once (`Ok` or the error kind).
fn bench_call(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    files: &Files,
    request: &Value,
    expect: Option<&str>,
) {
    let mut session = Session::new();
    // Checked inside the closure, which runs only when the filter selects the bench.
    g.bench_function(name, |b| {
        let r = session.call(request, files);
        let kind = r.error_kind().map(|k| k.as_str().to_string());
        assert_eq!(kind.as_deref(), expect, "{name}: {}", r.headline());
        b.iter(|| session.call(request, files))
    });
}

fn goals(c: &mut Criterion) {
    let dir = inputs();
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap()).unwrap();
    let mut g = c.benchmark_group("goals");
    g.sample_size(30).measurement_time(Duration::from_secs(3));
    for name in ["big.py", "big.js"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let files = Files::from([(name.to_string(), Arc::new(text))]);
        let case = &cases[name];
        let calls = [
            ("exact", None),
            ("reindented", None),
            ("miss", Some("no_match")),
        ];
        for (call, expect) in calls {
            let request = str_replace(name, &case[call]);
            bench_call(&mut g, &format!("{name} {call}"), &files, &request, expect);
        }
    }
    g.finish();
}

/// The goal calls as hosts make them (see the module documentation).
fn hosts(c: &mut Criterion) {
    let dir = inputs();
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap()).unwrap();
    let mut g = c.benchmark_group("hosts");
    g.sample_size(30).measurement_time(Duration::from_secs(3));
    for name in ["big.py", "big.js"] {
        let text = Arc::new(std::fs::read_to_string(dir.join(name)).unwrap());
        let kept = Files::from([(name.to_string(), Arc::clone(&text))]);
        for call in ["exact", "reindented", "miss"] {
            let request = str_replace(name, &cases[name][call]);
            let mut session = Session::new();
            g.bench_function(format!("{name} {call}, new text, new_text"), |b| {
                b.iter_batched(
                    || Files::from([(name.to_string(), Arc::new(text.as_ref().clone()))]),
                    |files| session.call(&request, &files),
                    criterion::BatchSize::PerIteration,
                )
            });
            let mut session = Session::new();
            let edits_only = CallOptions {
                new_text: false,
                ..CallOptions::default()
            };
            g.bench_function(format!("{name} {call}, kept text, edits only"), |b| {
                b.iter(|| session.call_with(&request, &kept, &edits_only))
            });
        }
        let mut applied = Applied::new(name, &text, &cases[name]["exact"]);
        g.bench_function(format!("{name} exact, applied"), |b| {
            b.iter_custom(|n| applied.time(n, false))
        });
        g.bench_function(
            format!("{name} exact, applied, memory moved between calls"),
            |b| b.iter_custom(|n| applied.time(n, true)),
        );
        // The applied hit's floor with a text held whole: its new text built (one copy of
        // the file around the hit into a new allocation) and dropped.
        let hit = cases[name]["exact"]["old_str"].as_str().unwrap();
        let at = text.find(hit).unwrap() + hit.len();
        g.bench_function(format!("{name} floor: the new text's copy"), |b| {
            b.iter(|| {
                let mut new = String::with_capacity(text.len() + 16);
                new.push_str(&text[..at]);
                new.push_str("  # edited");
                new.push_str(&text[at..]);
                std::hint::black_box(new)
            })
        });
    }
    g.finish();
}

/// An exact hit applied as the native server applies it: the session hands the new text
/// apart (`hand_texts`) and the next call meets that text, as a server's read cache or
/// an editor's kept buffer gives it back. Each timed hit is undone by the reverse
/// replacement, untimed, so every hit meets a text the session just wrote. One session
/// across criterion's samples (each sample calls the routine again).
struct Applied {
    session: Session,
    files: Files,
    forward: Value,
    back: Value,
}

impl Applied {
    fn new(name: &str, text: &Arc<String>, case: &Value) -> Applied {
        let request = |args: &Value| {
            let mut a = args.clone();
            a["path"] = json!(name);
            json!({"tool": "str_replace", "arguments": a})
        };
        let mut session = Session::new();
        session.hand_texts(true);
        Applied {
            session,
            files: Files::from([(name.to_string(), Arc::clone(text))]),
            forward: request(case),
            back: request(&json!({"old_str": case["new_str"], "new_str": case["old_str"]})),
        }
    }

    fn run(&mut self, forward: bool) {
        let options = CallOptions {
            new_text: false,
            ..CallOptions::default()
        };
        let request = if forward { &self.forward } else { &self.back };
        let r = self.session.call_with(request, &self.files, &options);
        assert!(r.ok, "{}", r.headline());
        for (path, new) in self.session.take_texts() {
            self.files.insert(path, new);
        }
    }

    /// `moved`: before each timed hit, 48 MiB freshly allocated and written (untimed), as
    /// between two calls of the native server its durable write, the check's re-read
    /// and the client move memory: the hit then meets its text out of the caches.
    fn time(&mut self, iterations: u64, moved: bool) -> Duration {
        let mut timed = Duration::ZERO;
        for _ in 0..iterations {
            if moved {
                let mut other = vec![0u8; 48 << 20];
                for (k, byte) in other.iter_mut().enumerate().step_by(64) {
                    *byte = k as u8;
                }
                std::hint::black_box(&other);
            }
            let start = std::time::Instant::now();
            self.run(true);
            timed += start.elapsed();
            self.run(false);
        }
        timed
    }
}

/// ≈4 MB of `line(i)` lines.
fn lines_of(line: impl Fn(usize) -> String) -> String {
    let mut s = String::with_capacity(4 << 20);
    let mut i = 0;
    while s.len() < 4 << 20 {
        s.push_str(&line(i));
        s.push('\n');
        i += 1;
    }
    s
}

/// One minified-like line of ≈4 MB: `var a0=f(0);var a1=f(1);…`.
fn one_line() -> String {
    let mut s = String::with_capacity(4 << 20);
    let mut i = 0;
    while s.len() < 4 << 20 {
        s.push_str(&format!("var a{i}=f({i});"));
        i += 1;
    }
    s.push('\n');
    s
}

/// A V4A patch of 1 000 hunks on `lines_of(handler)`: one line changed every 100 lines.
fn thousand_hunks() -> String {
    let mut p = String::from("*** Begin Patch\n*** Update File: handlers.py\n");
    for h in 0..1_000 {
        let f = h * 25 + 3;
        p.push_str(&format!(
            "@@ def handler_{f}(request):\n     value = request.get(\"k{f}\")\n-    return value * {f}\n+    return value * {f} + 1\n"
        ));
    }
    p.push_str("*** End Patch\n");
    p
}

fn handler(i: usize) -> String {
    let f = i / 4;
    match i % 4 {
        0 => format!("def handler_{f}(request):"),
        1 => format!("    value = request.get(\"k{f}\")"),
        2 => format!("    return value * {f}"),
        _ => String::new(),
    }
}

fn worst(c: &mut Criterion) {
    let identical = lines_of(|_| "    value = value + 1".to_string());
    let candidates = lines_of(|i| {
        if i % 10 == 0 && i < 100_000 {
            format!("    flush(out_{i})")
        } else {
            format!("    total_{i} += weight_{i} * scale")
        }
    });
    let nested = lines_of(|i| {
        if i < 1 << 20 {
            "{".to_string()
        } else {
            "}".to_string()
        }
    });
    let files = Files::from([
        ("identical.py".to_string(), Arc::new(identical)),
        ("one_line.js".to_string(), Arc::new(one_line())),
        ("candidates.py".to_string(), Arc::new(candidates)),
        ("nested.txt".to_string(), Arc::new(nested)),
        ("handlers.py".to_string(), Arc::new(lines_of(handler))),
    ]);
    let sr = |path: &str, old: &str, new: &str, extra: Value| {
        let mut a = json!({"old_str": old, "new_str": new});
        a.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        str_replace(path, &a)
    };
    let none = json!({});
    let calls = [
        (
            "identical lines, all rewritten (replace_all)",
            sr(
                "identical.py",
                "value + 1",
                "value + 2",
                json!({"replace_all": true}),
            ),
            None,
        ),
        (
            "identical lines, one-line miss",
            sr("identical.py", "value = value + 3", "x", none.clone()),
            Some("no_match"),
        ),
        (
            "one 4 MB line, exact hit",
            sr(
                "one_line.js",
                "var a150000=f(150000);",
                "var a150000=g(150000);",
                none.clone(),
            ),
            None,
        ),
        (
            "one 4 MB line, miss",
            sr("one_line.js", "var a150000=f(150001);", "x", none.clone()),
            Some("no_match"),
        ),
        (
            "10 000 candidates, one word",
            sr("candidates.py", "flush", "drain", none.clone()),
            Some("ambiguous"),
        ),
        (
            "10 000 candidates, one-word miss",
            sr("candidates.py", "flusj", "drain", none.clone()),
            Some("no_match"),
        ),
        (
            "nested brackets, exact hit",
            sr("nested.txt", "{\n{\n}\n}\n", "{\n}\n", none.clone()),
            None,
        ),
        (
            "nested brackets, miss",
            sr("nested.txt", "{\n{\n]\n}\n", "{\n}\n", none.clone()),
            Some("no_match"),
        ),
        (
            "patch of 1 000 hunks",
            json!({"tool": "apply_patch", "arguments": {"patch": thousand_hunks(), "dry_run": true}}),
            None,
        ),
    ];
    let mut g = c.benchmark_group("worst");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for (name, request, expect) in calls {
        bench_call(&mut g, name, &files, &request, expect);
    }
    g.finish();
}

criterion_group!(benches, goals, hosts, worst);
criterion_main!(benches);
