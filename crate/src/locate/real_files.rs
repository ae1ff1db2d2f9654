//! Real source files for the levels' property tests (test code only): the oracle's
//! fixtures in several languages, hand-written and generated (repetitive, so requests
//! quoted from them are often not unique), and two of this crate's own files.

/// (name, text) of every file.
pub const FILES: &[(&str, &str)] = &[
    (
        "hard.py",
        include_str!("../../../tests/oracle/python/hard.py"),
    ),
    (
        "generated.py",
        include_str!("../../../tests/oracle/python/generated.py"),
    ),
    (
        "hard.rs",
        include_str!("../../../tests/oracle/rust/hard.rs"),
    ),
    (
        "generated.rs",
        include_str!("../../../tests/oracle/rust/generated.rs"),
    ),
    (
        "hard.jsx",
        include_str!("../../../tests/oracle/javascript/hard.jsx"),
    ),
    (
        "generated.js",
        include_str!("../../../tests/oracle/javascript/generated.js"),
    ),
    (
        "hard.ts",
        include_str!("../../../tests/oracle/typescript/hard.ts"),
    ),
    (
        "generated.go",
        include_str!("../../../tests/oracle/go/generated.go"),
    ),
    ("hard.c", include_str!("../../../tests/oracle/c/hard.c")),
    (
        "Generated.java",
        include_str!("../../../tests/oracle/java/Generated.java"),
    ),
];

/// The lines of `text` (without line breaks).
pub fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// Lines `from..from + len` of `file` (clamped), joined with `\n`, with a final one.
pub fn quote(file: &[&str], from: usize, len: usize) -> String {
    let from = from % file.len().max(1);
    let to = (from + len.max(1)).min(file.len());
    let mut s = file[from..to].join("\n");
    s.push('\n');
    s
}
