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

criterion_group!(benches, bench);
criterion_main!(benches);
