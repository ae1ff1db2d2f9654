//! apply_patch on a large file: a 10-hunk V4A patch on a 100 000-line file, through
//! `Session::call` (parse, locate, apply, and describe the change as diff + edits).
//! Target: ≤ 10 ms.

use anchored_edit::Session;
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::collections::BTreeMap;
use std::hint::black_box;

const LINES: usize = 100_000;
const HUNKS: usize = 10;

/// A Python-like file: functions of 10 lines, each with a unique name.
fn big_file() -> String {
    let mut s = String::with_capacity(LINES * 32);
    for i in 0..LINES / 10 {
        s.push_str(&format!("def handler_{i}(request):\n"));
        s.push_str("    \"\"\"Handle one request.\"\"\"\n");
        s.push_str(&format!("    value = request.get(\"k{i}\")\n"));
        s.push_str("    if value is None:\n");
        s.push_str("        return None\n");
        s.push_str(&format!("    total = value * {i}\n"));
        s.push_str("    log(total)\n");
        s.push_str("    return total\n");
        s.push('\n');
        s.push('\n');
    }
    s
}

/// Ten hunks spread over the file, each under an `@@ def` anchor with context lines.
fn patch() -> String {
    let mut p = String::from("*** Begin Patch\n*** Update File: big.py\n");
    for h in 0..HUNKS {
        let i = h * (LINES / 10 / HUNKS) + 7;
        p.push_str(&format!("@@ def handler_{i}(request):\n"));
        p.push_str(&format!("     value = request.get(\"k{i}\")\n"));
        p.push_str("     if value is None:\n");
        p.push_str("-        return None\n");
        p.push_str("+        return 0\n");
        p.push_str(&format!("     total = value * {i}\n"));
    }
    p.push_str("*** End Patch\n");
    p
}

fn bench(c: &mut Criterion) {
    let files = BTreeMap::from([("big.py".to_string(), big_file())]);
    let request = json!({"tool": "apply_patch", "arguments": {"patch": patch()}});
    let check = Session::new().call(&request, &files);
    assert!(check.ok, "{}", check.headline());
    assert_eq!(check.files.as_ref().map(Vec::len), Some(1));
    c.bench_function("apply_patch_10_hunks_100k_lines", |b| {
        b.iter(|| {
            let r = Session::new().call(black_box(&request), &files);
            black_box(r)
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
