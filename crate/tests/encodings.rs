//! Round trips: every text file under `tests/` (the project's own, not `node_modules`)
//! and every text of the conformance corpus, encoded in each supported encoding where
//! it is representable, then decoded as the engine decodes a file and encoded again,
//! must come back byte-exact (docs/encodings.md).

use anchored_edit::{decode_bytes, encode_text};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The encodings checked, with whether a BOM is written first (the BOM is then the
/// text's first character, detected without the argument).
const ENCODINGS: &[(&str, bool)] = &[
    ("utf-8", false),
    ("utf-8", true),
    ("utf-16le", true),
    ("utf-16be", true),
    ("utf-16le", false),
    ("windows-1252", false),
    ("shift_jis", false),
    ("euc-jp", false),
    ("euc-kr", false),
    ("gbk", false),
    ("big5", false),
];

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.file_name().is_some_and(|n| n == "node_modules") {
            continue;
        }
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every text: the files under `tests/` that are UTF-8, and the corpus's file texts.
fn texts() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    walk(&tests_dir(), &mut paths);
    let mut out = Vec::new();
    for p in paths {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let name = p.display().to_string();
        if p.extension().is_some_and(|x| x == "json") && name.contains("corpus") {
            if let Ok(v) = serde_json::from_str::<Value>(&text) {
                corpus_texts(&name, &v, &mut out);
            }
        }
        out.push((name, text));
    }
    out
}

fn corpus_texts(name: &str, v: &Value, out: &mut Vec<(String, String)>) {
    let cases = match v {
        Value::Array(a) => a.iter().collect(),
        one => vec![one],
    };
    for case in cases {
        for (path, text) in case["files"].as_object().into_iter().flatten() {
            if let Some(t) = text.as_str() {
                out.push((format!("{name}#{path}"), t.to_string()));
            }
        }
    }
}

#[test]
fn every_test_text_round_trips_byte_exact_in_every_encoding_that_holds_it() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, text) in texts() {
        if text.contains('\0') {
            continue; // binary whatever the encoding: refused, checked in the corpus
        }
        let plain = text.strip_prefix('\u{feff}').unwrap_or(&text);
        for &(label, bom) in ENCODINGS {
            let source = if bom {
                format!("\u{feff}{plain}")
            } else {
                plain.to_string()
            };
            let Ok(bytes) = encode_text(&source, Some(label)) else {
                continue; // not representable in this encoding
            };
            // A legacy argument on bytes that are valid UTF-8 with non-ASCII text is
            // refused by design; the file is then read as UTF-8, without the argument.
            let argument = (!bom).then_some(label);
            let decoded = decode_bytes(&name, &bytes, argument)
                .or_else(|_| decode_bytes(&name, &bytes, None));
            checked += 1;
            match decoded {
                Ok((back, encoding)) => {
                    let again = encode_text(&back, Some(encoding)).unwrap_or_default();
                    if back != source || again != bytes {
                        failures.push(format!("{name} in {label} (BOM {bom}): not byte-exact"));
                    }
                }
                Err(e) => failures.push(format!("{name} in {label}: {}", e.message)),
            }
        }
    }
    assert!(checked > 5_000, "only {checked} round trips");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("encodings: {checked} round trips byte-exact");
}
