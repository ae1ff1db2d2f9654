//! Blocks on a generated 100 000-line file: finding one function by name (target
//! ≤ 5 ms, lexing included) and the whole outline (target ≤ 20 ms).
//!
//! `cargo bench -p anchored-edit --bench blocks`

use anchored_edit::blocks::Analysis;
use anchored_edit::text::Text;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

/// A Rust-like file of `lines` lines: impls with methods, free functions, strings and
/// comments holding braces.
fn rust_file(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 32);
    let mut n = 0;
    let mut i = 0;
    while n < lines {
        s.push_str(&format!(
            "/// Doc for item {i} with {{ braces }}\nimpl Item{i} {{\n    pub fn method_{i}(&self, x: u32) -> u32 {{\n        let s = \"}} {{\";\n        if x > {i} {{\n            return x - 1; // }}\n        }}\n        x + s.len() as u32\n    }}\n}}\n\nfn free_{i}(a: &str) -> usize {{\n    a.len()\n}}\n\n"
        ));
        n += 15;
        i += 1;
    }
    s
}

fn python_file(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 28);
    let mut n = 0;
    let mut i = 0;
    while n < lines {
        s.push_str(&format!(
            "class Item{i}:\n    def method_{i}(self, x):\n        s = '}} {{'\n        if x > {i}:\n            return x - 1  # }}\n        return x\n\n\ndef free_{i}(a):\n    return len(a)\n\n\n"
        ));
        n += 12;
        i += 1;
    }
    s
}

fn bench(c: &mut Criterion) {
    let rs = rust_file(100_000);
    let py = python_file(100_000);
    let rs_text = Text::new(&rs);
    let py_text = Text::new(&py);
    assert!(rs_text.line_count() >= 100_000 && py_text.line_count() >= 100_000);
    let target = "free_3000";
    assert_eq!(
        Analysis::new(&rs_text, "big.rs")
            .find_functions(target)
            .len(),
        1
    );
    assert_eq!(
        Analysis::new(&py_text, "big.py")
            .find_functions(target)
            .len(),
        1
    );

    c.bench_function("find_function/rust_100k_lines", |b| {
        b.iter(|| {
            let a = Analysis::new(&rs_text, "big.rs");
            black_box(a.find_functions(black_box(target)))
        })
    });
    c.bench_function("find_function/python_100k_lines", |b| {
        b.iter(|| {
            let a = Analysis::new(&py_text, "big.py");
            black_box(a.find_functions(black_box(target)))
        })
    });
    c.bench_function("file_summary/rust_100k_lines", |b| {
        b.iter(|| {
            let a = Analysis::new(&rs_text, "big.rs");
            black_box(a.outline())
        })
    });
    c.bench_function("file_summary/python_100k_lines", |b| {
        b.iter(|| {
            let a = Analysis::new(&py_text, "big.py");
            black_box(a.outline())
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
