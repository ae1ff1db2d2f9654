//! Recovery cascade timings on a 100 000-line file (targets from the recovery issue):
//! an exact unique hit ≤ 2 ms, a hit at the indentation level ≤ 20 ms, a miss that runs
//! the whole cascade and the diagnostics ≤ 100 ms. Each is measured through
//! `Session::call` (what a host pays: parse, find, render, diff) and, for the search
//! alone, through `locate::find`.
//!
//! Run: `cargo bench -p anchored-edit --bench recovery`

use anchored_edit::locate::{self, Scope};
use anchored_edit::text::Text;
use anchored_edit::Session;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::collections::BTreeMap;
use std::time::Duration;

/// 100 001 lines of Rust-like code with backslashes, quotes and typographic characters,
/// every function distinguished by its number.
fn big_file() -> String {
    let mut s = String::new();
    for i in 0..9091 {
        s.push_str(&format!(
            "fn handler_{i}(req: &Request) -> Response {{\n    let id = req.param(\"id_{i}\");\n    if id.is_empty() {{\n        return Response::bad_request(\"missing id \\\"{i}\\\"\\n\");\n    }}\n    let user = db.find_user(id)?;\n    // “typographic” comment — {i}\n    log::info!(\"handled {{}}\", {i});\n    Response::ok(user)\n}}\n\n"
        ));
    }
    s
}

fn call(session: &mut Session, files: &BTreeMap<String, String>, old: &str, new: &str) -> bool {
    let r = session.call(
        &json!({"tool": "str_replace", "arguments": {"path": "big.rs", "old_str": old, "new_str": new, "dry_run": true}}),
        files,
    );
    r.ok
}

fn bench(c: &mut Criterion) {
    let src = big_file();
    let mut files = BTreeMap::new();
    files.insert("big.rs".to_string(), src.clone());
    let text = Text::new(&src);
    let scope = Scope::whole(&text);
    assert!(text.line_count() >= 100_000);

    let exact = "    let user = db.find_user(id)?;\n    // “typographic” comment — 5000\n";
    let exact_new = "    let user = db.find_user(id)?;\n    // “typographic” comment — 5000!\n";
    // Copied without the function body's indentation: recovered at level 3.
    let indented = "let id = req.param(\"id_5000\");\nif id.is_empty() {\n    return Response::bad_request(\"missing id \\\"5000\\\"\\n\");\n}\n";
    let indented_new = "let id = req.param(\"id_5000\");\nif id.is_empty() || id.len() > 64 {\n    return Response::bad_request(\"missing id \\\"5000\\\"\\n\");\n}\n";
    // A paraphrase (renamed variable) with CRLF line breaks, backslashes and curly
    // quotes: every level runs and fails, then the diagnostics.
    let miss = "    let ident = req.param(\"id_5000\");\r\n    if ident.is_empty() {\r\n        return Response::bad_request(\"missing id \\\"5000\\\"\\n\");\r\n    }\r\n    // “typographic” remark — 5000\r\n";
    // A miss with an elision marker whose parts are found but leave their block.
    let elided_miss =
        "fn handler_5000(req: &Request) -> Response {\n    // ...\n    Response::ok(account)\n}\n";

    // A one-line miss whose longest word is on 27 000 lines: the word-anchored path
    // verifies every one of them at each level.
    let short_miss = "    Response::ok(usr)  ";

    let mut session = Session::new();
    assert!(call(&mut session, &files, exact, exact_new));
    assert!(call(&mut session, &files, indented, indented_new));
    assert!(!call(&mut session, &files, miss, "zzz_absent"));
    assert!(!call(&mut session, &files, elided_miss, "zzz_absent"));
    assert!(!call(&mut session, &files, short_miss, "zzz_absent"));
    assert_eq!(
        locate::find(&text, indented, &scope, false).via(),
        Some(locate::Via::Indentation)
    );

    let mut g = c.benchmark_group("recovery_100k_lines");
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    g.bench_function("find/exact_hit", |b| {
        b.iter(|| locate::find(&text, black_box(exact), &scope, false))
    });
    g.bench_function("find/indentation_hit", |b| {
        b.iter(|| locate::find(&text, black_box(indented), &scope, false))
    });
    g.bench_function("find/miss_whole_cascade", |b| {
        b.iter(|| locate::find(&text, black_box(miss), &scope, false))
    });
    g.bench_function("find/elided_miss", |b| {
        b.iter(|| locate::find(&text, black_box(elided_miss), &scope, false))
    });
    g.bench_function("find/short_miss_common_word", |b| {
        b.iter(|| locate::find(&text, black_box(short_miss), &scope, false))
    });
    g.bench_function("call/exact_hit", |b| {
        b.iter(|| call(&mut session, &files, black_box(exact), exact_new))
    });
    g.bench_function("call/indentation_hit", |b| {
        b.iter(|| call(&mut session, &files, black_box(indented), indented_new))
    });
    g.bench_function("call/miss_cascade_and_diagnostics", |b| {
        b.iter(|| call(&mut session, &files, black_box(miss), "zzz_absent"))
    });
    g.bench_function("call/elided_miss_cascade_and_diagnostics", |b| {
        b.iter(|| call(&mut session, &files, black_box(elided_miss), "zzz_absent"))
    });
    g.bench_function("call/short_miss_common_word", |b| {
        b.iter(|| call(&mut session, &files, black_box(short_miss), "zzz_absent"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
