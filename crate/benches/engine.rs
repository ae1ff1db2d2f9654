//! Criterion benchmarks of the foundation on a generated 100 000-line (≈4 MB) file:
//! an exact unique str_replace (locate + apply + diff + edits), a no_match with full
//! diagnostics, and a literal grep_file. Run: `cargo bench -p anchored-edit --bench engine`.

use anchored_edit::Session;
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A Rust-like file of `lines` lines: many small functions with repeated bodies, so
/// lines repeat as they do in real code.
pub fn big_file(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 42);
    let mut n = 0;
    while n < lines {
        let f = n / 8;
        let chunk = [
            format!("/// Handles case {f} of the dispatcher table."),
            format!("pub fn handler_{f}(input: &Request, ctx: &mut Context) -> Response {{"),
            "    let mut total = 0usize;".to_string(),
            format!(
                "    for item in input.items.iter().filter(|i| i.kind == {}) {{",
                f % 17
            ),
            "        total += item.weight * ctx.scale;".to_string(),
            "    }".to_string(),
            format!("    Response::new(total, \"handler {f}\")"),
            "}".to_string(),
        ];
        for line in chunk {
            s.push_str(&line);
            s.push('\n');
            n += 1;
        }
    }
    s
}

fn bench(c: &mut Criterion) {
    let text = big_file(100_000);
    // Texts shared with the engine, as a long-lived host keeps them: the figures are the
    // engine's work, not the host's copy of 4 MB.
    let mut files: BTreeMap<String, Arc<String>> = BTreeMap::new();
    files.insert("big.rs".to_string(), Arc::new(text));
    let mut session = Session::new();

    let exact = json!({"tool": "str_replace", "arguments": {"path": "big.rs", "dry_run": true,
        "old_str": "    Response::new(total, \"handler 6000\")", "new_str": "    Response::new(total * 2, \"handler 6000\")"}});
    let r = session.call(&exact, &files);
    assert!(r.ok, "{}", r.headline());
    c.bench_function("str_replace exact unique, 100k lines", |b| {
        b.iter(|| session.call(&exact, &files))
    });

    let miss = json!({"tool": "str_replace", "arguments": {"path": "big.rs", "dry_run": true,
        "old_str": "pub fn handler_6000(input: &Request, context: &mut Context) -> Response {\n    let mut sum = 0usize;\n    for item in input.items.iter().filter(|i| i.kind == 16) {",
        "new_str": "pub fn handler_6000(input: &Request) -> Response {", "strict": true}});
    let r = session.call(&miss, &files);
    assert_eq!(r.error_kind().map(|k| k.as_str()), Some("no_match"));
    c.bench_function("str_replace no_match + diagnostics, 100k lines", |b| {
        b.iter(|| session.call(&miss, &files))
    });

    let grep =
        json!({"tool": "grep_file", "arguments": {"path": "big.rs", "pattern": "handler 6000\")"}});
    assert!(session.call(&grep, &files).ok);
    c.bench_function("grep_file literal, 100k lines", |b| {
        b.iter(|| session.call(&grep, &files))
    });
}

/// Requests that made an unbounded diff take seconds (issue 12): a 2 MB new text over a
/// 2-line file (exact and re-indented matches), and a 100 000-line file rewritten in
/// reverse order, and a file whose every block is rewritten. Every one must answer well
/// under a second.
fn large_requests(c: &mut Criterion) {
    let long = big_file(50_000); // ≈ 2 MB
    let mut files: BTreeMap<String, Arc<String>> = BTreeMap::new();
    files.insert(
        "small.rs".to_string(),
        Arc::new("fn main() {\n    run();\n}\n".to_string()),
    );
    let reversed: String = big_file(100_000)
        .lines()
        .rev()
        .map(|l| format!("{l}\n"))
        .collect();
    files.insert("big.rs".to_string(), Arc::new(big_file(100_000)));
    // 40 blocks of 3 000 lines, each rewritten whole between unique lines: the most work
    // per piece, until the diff's budget is spent.
    let blocks = |prefix: &str, modulo: usize| -> String {
        (0..40)
            .flat_map(|b| {
                std::iter::once(format!("anchor {b}\n"))
                    .chain((0..3_000).map(move |i| format!("{prefix} {b} {}\n", i % modulo)))
            })
            .collect()
    };
    files.insert("blocks.txt".to_string(), Arc::new(blocks("old", 3_000)));
    let rewritten = blocks("new", 7);
    // The first 50 000 lines of big.rs with one changed: no match, full diagnostics.
    let near_miss = long.replacen("handler 3000\")", "handler three thousand\")", 1);
    let mut session = Session::new();
    let cases = [
        (
            "str_replace 2-line file -> 2 MB new_str",
            json!({"tool": "str_replace", "arguments": {
            "path": "small.rs", "dry_run": true, "old_str": "fn main() {\n    run();\n}\n", "new_str": long}}),
        ),
        (
            "str_replace re-indented 2 lines -> 2 MB new_str",
            json!({"tool": "str_replace", "arguments": {
            "path": "small.rs", "dry_run": true, "old_str": "fn main() {\n  run();", "new_str": long}}),
        ),
        (
            "create_file overwrite 100k lines reversed",
            json!({"tool": "create_file", "arguments": {
            "path": "big.rs", "dry_run": true, "overwrite": true, "content": reversed}}),
        ),
        (
            "str_replace no_match, 2 MB old_str, 100k-line file",
            json!({"tool": "str_replace", "arguments": {
            "path": "big.rs", "dry_run": true, "strict": true, "new_str": "x", "old_str": near_miss}}),
        ),
        (
            "create_file overwrite 40 unrelated blocks",
            json!({"tool": "create_file", "arguments": {
            "path": "blocks.txt", "dry_run": true, "overwrite": true, "content": rewritten}}),
        ),
    ];
    let mut group = c.benchmark_group("large requests");
    group.sample_size(10);
    for (name, request) in cases {
        let r = session.call(&request, &files);
        assert!(
            r.ok || name.contains("no_match"),
            "{name}: {}",
            r.headline()
        );
        group.bench_function(name, |b| b.iter(|| session.call(&request, &files)));
    }
    group.finish();
}

criterion_group!(benches, bench, large_requests);
criterion_main!(benches);
