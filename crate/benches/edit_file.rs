//! Criterion benchmark of `edit_file`: a lazy snippet of three stretches merged into a
//! generated 100 000-line (≈4 MB) file (goal ≤ 10 ms).
//! Run: `cargo bench -p anchored-edit --bench edit_file`.

use anchored_edit::Session;
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The same Rust-like file as the engine bench: many small functions, repeated lines.
fn big_file(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 42);
    for f in 0..lines.div_ceil(8) {
        s.push_str(&format!(
            "/// Handles case {f} of the dispatcher table.\npub fn handler_{f}(input: &Request, ctx: &mut Context) -> Response {{\n    let mut total = 0usize;\n    for item in input.items.iter().filter(|i| i.kind == {}) {{\n        total += item.weight * ctx.scale;\n    }}\n    Response::new(total, \"handler {f}\")\n}}\n",
            f % 17
        ));
    }
    s
}

fn stretch(f: usize) -> String {
    format!(
        "pub fn handler_{f}(input: &Request, ctx: &mut Context) -> Response {{\n    let mut total = 1usize;\n    for item in input.items.iter().filter(|i| i.kind == {}) {{\n        total += item.weight * ctx.scale;\n    }}\n    Response::new(total, \"handler {f}\")\n}}\n",
        f % 17
    )
}

fn bench(c: &mut Criterion) {
    let mut files: BTreeMap<String, Arc<String>> = BTreeMap::new();
    files.insert("big.rs".to_string(), Arc::new(big_file(100_000)));
    let marker = "// ... existing code ...\n";
    let snippet = format!(
        "{marker}{}{marker}{}{marker}{}{marker}",
        stretch(1000),
        stretch(6000),
        stretch(11000)
    );
    let call = json!({"tool": "edit_file", "arguments": {"path": "big.rs", "dry_run": true, "code_edit": snippet}});
    let mut session = Session::new();
    let r = session.call(&call, &files);
    assert!(r.ok, "{}", r.headline());
    c.bench_function("edit_file 3 stretches, 100k lines", |b| {
        b.iter(|| session.call(&call, &files))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
