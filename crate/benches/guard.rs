//! Criterion benchmarks of the syntax-regression guard on 100 000-line files of real
//! code: Python (the interpreter's standard library, `/usr/lib/python3*/`) and
//! JavaScript (the project's `node_modules`), files concatenated in path order until
//! 100 000 lines. Where those are absent, a generated file stands in (the figure then
//! says so). Run: `cargo bench -p anchored-edit --bench guard`.
//!
//! Measured: the balance check of one text (a whole lex); the guard's work for one
//! changed file when the session has seen the text before (the text compared with the
//! kept one, then re-lexed from the edit until in step, `retraced`; and the same when
//! the text is the kept allocation, found by pointer) and when it has not
//! (`traced`, a whole lex keeping the state); and a whole `str_replace` dry run with the
//! guard and with `allow_unbalanced: true` (the guard skipped).

use anchored_edit::blocks::balance::{retraced, traced};
use anchored_edit::blocks::{balance, Balance, Lang};
use anchored_edit::Session;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const LINES: usize = 100_000;

/// Every file under `dir` whose name ends with one of `exts`, sorted.
fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() && !name.starts_with('.') {
            walk(&p, exts, out);
        } else if exts.iter().any(|e| name.ends_with(e)) && !name.ends_with(".min.js") {
            out.push(p);
        }
    }
}

/// Real files under `dirs` concatenated, whole, until at least `LINES` lines, each kept
/// only when the balance check reads it as balanced (so the whole text is balanced).
fn real_code(dirs: &[&str], exts: &[&str], path: &str) -> Option<String> {
    let mut files = Vec::new();
    for d in dirs {
        walk(Path::new(d), exts, &mut files);
    }
    let mut text = String::new();
    let mut lines = 0;
    for f in files {
        let Ok(t) = std::fs::read_to_string(&f) else {
            continue;
        };
        if !t.ends_with('\n') || balance(&t, path) != Balance::Balanced {
            continue;
        }
        lines += t.lines().count();
        text.push_str(&t);
        if lines >= LINES {
            return (balance(&text, path) == Balance::Balanced).then_some(text);
        }
    }
    None
}

fn python_dirs() -> Vec<String> {
    let mut dirs: Vec<String> = std::fs::read_dir("/usr/lib")
        .map(|r| {
            r.flatten()
                .map(|e| e.path().to_string_lossy().into_owned())
                .filter(|p| p.starts_with("/usr/lib/python3."))
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn inputs() -> Vec<(&'static str, String, &'static str)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let js_dirs = [
        format!("{root}/js/node_modules"),
        format!("{root}/web/node_modules"),
    ];
    let js_dirs: Vec<&str> = js_dirs.iter().map(String::as_str).collect();
    let py_dirs = python_dirs();
    let py_dirs: Vec<&str> = py_dirs.iter().map(String::as_str).collect();
    let py = real_code(&py_dirs, &[".py"], "big.py");
    let js = real_code(&js_dirs, &[".js"], "big.js");
    let mut out = Vec::new();
    match py {
        Some(t) => out.push(("python stdlib", t, "big.py")),
        None => eprintln!("no Python standard library found: skipping the Python input"),
    }
    match js {
        Some(t) => out.push(("javascript node_modules", t, "big.js")),
        None => eprintln!("no node_modules found: skipping the JavaScript input"),
    }
    out
}

/// A line in the middle of `text` that a `str_replace` can find uniquely: the first
/// line after the middle that is long and occurs once.
fn unique_line(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    (lines.len() / 2..lines.len())
        .map(|i| lines[i])
        .find(|l| l.trim().len() > 30 && text.matches(*l).count() == 1)
        .expect("a unique line")
        .to_string()
}

fn bench(c: &mut Criterion) {
    for (name, text, path) in inputs() {
        eprintln!(
            "{name}: {} lines, {} bytes",
            text.lines().count(),
            text.len()
        );
        let old = unique_line(&text);
        // Appending a comment keeps balance in both languages.
        let comment = if path.ends_with(".py") {
            "  # guard"
        } else {
            " // guard"
        };
        let new = format!("{old}{comment}");
        let mut files: BTreeMap<String, Arc<String>> = BTreeMap::new();
        files.insert(path.to_string(), Arc::new(text.clone()));
        let mut session = Session::new();
        c.bench_function(&format!("balance check, {name}, 100k lines"), |b| {
            b.iter(|| balance(black_box(&text), path))
        });
        // What the guard does per changed file once the session has seen the text:
        // compare it with the kept one, re-lex from the edit until in step again.
        let lang = Lang::from_path(path).expect("a known language");
        let state = traced(&text, lang);
        let after = text.replacen(&old, &new, 1);
        let kept = Arc::new(text.clone());
        let read = Arc::new(text.clone());
        c.bench_function(
            &format!("guard, one-line edit, text seen before, {name}, 100k lines"),
            |b| {
                b.iter(|| {
                    assert!(kept.as_str() == read.as_str());
                    let r = retraced(black_box(&state), &text, &after, lang).expect("re-lexed");
                    assert!(r.balanced);
                    r
                })
            },
        );
        // The same when the text handed in is the kept allocation (a host keeping its
        // buffer, or the session's own last text): the cache finds it by pointer.
        c.bench_function(
            &format!("guard, one-line edit, text kept (same allocation), {name}, 100k lines"),
            |b| {
                b.iter(|| {
                    assert!(Arc::ptr_eq(&kept, &kept.clone()));
                    let r = retraced(black_box(&state), &text, &after, lang).expect("re-lexed");
                    assert!(r.balanced);
                    r
                })
            },
        );
        c.bench_function(
            &format!("guard, text seen for the first time, {name}, 100k lines"),
            |b| b.iter(|| traced(black_box(&text), lang)),
        );
        for allow in [false, true] {
            let call = json!({"tool": "str_replace", "arguments": {"path": path, "dry_run": true,
                "old_str": old, "new_str": new, "allow_unbalanced": allow}});
            let r = session.call(&call, &files);
            assert!(r.ok, "{}", r.headline());
            let label = if allow {
                "guard skipped (allow_unbalanced)"
            } else {
                "guarded"
            };
            c.bench_function(&format!("str_replace {label}, {name}, 100k lines"), |b| {
                b.iter(|| session.call(&call, &files))
            });
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
