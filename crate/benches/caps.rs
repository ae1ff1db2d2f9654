//! How the capped inputs of issue 24 finding 5 scale, in-process (docs/performance.md,
//! "Capped inputs"): each input at two sizes, so the slope shows.
//!
//! - `depth N`: create_file of a file under N new folders (the engine's part: the path
//!   is read, normalised and checked; the folders themselves are made by the host).
//! - `items N on L lines`: multi_replace with N one-line items spread over an L-line file.
//! - `hunks N reversed on L lines`: apply_patch with N one-line hunks in reverse file
//!   order (each hunk above the one before it), and the same hunks in file order.
//!
//! Every call goes through `Session::call` with `dry_run`, so each iteration sees the
//! same file. Run: `cargo bench -p anchored-edit --bench caps` (quick look:
//! `-- --quick`, or `-- items` for one input).

use anchored_edit::{CallOptions, Session};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

type Files = BTreeMap<String, Arc<String>>;

fn file(lines: usize) -> Files {
    let text: String = (0..lines)
        .map(|i| format!("line {i} of the file\n"))
        .collect();
    Files::from([("f.txt".to_string(), Arc::new(text))])
}

/// The `n` lines an input edits, spread over a file of `lines` lines.
fn spread(n: usize, lines: usize) -> impl DoubleEndedIterator<Item = usize> {
    let step = (lines / n).max(1);
    (0..n).map(move |i| i * step)
}

fn items(n: usize, lines: usize) -> Value {
    let items: Vec<Value> = spread(n, lines)
        .map(|i| json!({"path": "f.txt", "old_str": format!("line {i} of"), "new_str": format!("LINE {i} of")}))
        .collect();
    json!({"tool": "multi_replace", "arguments": {"replacements": items, "dry_run": true}})
}

fn patch(n: usize, lines: usize, reverse: bool) -> Value {
    let hunk = |i: usize| format!("@@\n-line {i} of the file\n+LINE {i} of the file\n");
    let hunks: String = if reverse {
        spread(n, lines).rev().map(hunk).collect()
    } else {
        spread(n, lines).map(hunk).collect()
    };
    let patch = format!("*** Begin Patch\n*** Update File: f.txt\n{hunks}*** End Patch\n");
    json!({"tool": "apply_patch", "arguments": {"patch": patch, "dry_run": true}})
}

fn depth(n: usize) -> Value {
    let path = format!("{}f.txt", "d/".repeat(n));
    json!({"tool": "create_file", "arguments": {"path": path, "content": "x\n", "dry_run": true}})
}

fn bench(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    files: &Files,
    request: &Value,
) {
    let mut session = Session::new();
    let options = CallOptions::default();
    g.bench_function(name, |b| {
        let r = session.call_with(request, files, &options);
        assert!(r.error_kind().is_none(), "{name}: {}", r.headline());
        b.iter(|| session.call_with(request, files, &options))
    });
}

fn caps(c: &mut Criterion) {
    let mut g = c.benchmark_group("caps");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    let none = Files::new();
    for n in [128, 256] {
        bench(&mut g, &format!("depth {n}"), &none, &depth(n));
    }
    for lines in [20_000, 100_000] {
        let files = file(lines);
        for n in [500, 1000] {
            bench(
                &mut g,
                &format!("items {n} on {lines} lines"),
                &files,
                &items(n, lines),
            );
        }
    }
    for lines in [20_000, 100_000] {
        let files = file(lines);
        for n in [500, 1000] {
            for (order, reverse) in [("reversed", true), ("in order", false)] {
                let name = format!("hunks {n} {order} on {lines} lines");
                bench(&mut g, &name, &files, &patch(n, lines, reverse));
            }
        }
    }
    g.finish();
}

criterion_group!(benches, caps);
criterion_main!(benches);
