//! The false-positive side of the placeholder guard's shape rule, measured on real
//! comments: every comment line of the source files under `AE_SCAN_DIR` is judged as if
//! an edit added it while removing lines. Run by hand (it reads a tree outside the repo):
//!
//! `AE_SCAN_DIR=vscode-extension/node_modules cargo test -p anchored-edit --test guard_shape -- --ignored --nocapture`

use anchored_edit::guard::stands_for_code;
use std::path::Path;

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            walk(&p, out);
        } else if kind.is_file()
            && p.extension().and_then(|x| x.to_str()).is_some_and(|x| {
                [
                    "js", "ts", "mjs", "cjs", "py", "rs", "go", "c", "h", "java", "rb", "sh",
                ]
                .contains(&x)
            })
        {
            out.push(p);
        }
    }
}

fn is_comment(t: &str) -> bool {
    ["//", "#", "/*", "--", ";"]
        .iter()
        .any(|c| t.starts_with(c))
}

#[test]
#[ignore]
fn shape_rule_false_positives_on_real_comments() {
    let Ok(dir) = std::env::var("AE_SCAN_DIR") else {
        eprintln!("set AE_SCAN_DIR to a source tree");
        return;
    };
    let mut files = Vec::new();
    walk(Path::new(&dir), &mut files);
    let (mut comments, mut doc, mut flagged, mut doc_flagged) = (0usize, 0usize, 0usize, 0usize);
    let mut samples = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for line in text.lines() {
            let t = line.trim();
            if !is_comment(t) {
                continue;
            }
            let is_doc = ["///", "//!", "/**"].iter().any(|d| t.starts_with(d));
            comments += 1;
            doc += usize::from(is_doc);
            if stands_for_code(line, None) {
                flagged += 1;
                doc_flagged += usize::from(is_doc);
                if samples.len() < 40 {
                    samples.push(t.chars().take(100).collect::<String>());
                }
            }
        }
    }
    println!(
        "{} files, {comments} comment lines ({doc} doc comments); shape rule flags {flagged} ({:.3} %), {doc_flagged} of them doc comments",
        files.len(),
        100.0 * flagged as f64 / comments.max(1) as f64
    );
    for s in samples {
        println!("  {s}");
    }
}
