//! The README and the docs say what the code does; these tests fail when they drift.
//!
//! - README.md is the front door: at most 300 lines, and its one example call gives,
//!   run on `examples/project` today, exactly the output it shows.
//! - Every relative link in README.md and docs/ names a file (and heading) that exists.
//! - Every tool and argument has its entry in docs/tools.md (generated; see
//!   `tools_doc.rs`), every error kind its section in docs/errors.md and its name in
//!   docs/design.md, every `matched_via` level of the corpus its section in
//!   docs/recovery.md.

use anchored_edit::{tool_schemas, ErrorKind, Session};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const README_MAX_LINES: usize = 300;

/// Docs that other branches add: a link to one of them may precede the file. Remove an
/// entry once its file is on main.
const PENDING: &[&str] = &[];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn readme_is_at_most_300_lines() {
    let lines = read("README.md").lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; the front door stays at most {README_MAX_LINES}. \
         Move reference material to a file under docs/ and link it."
    );
}

/// The request between `<<'EOF'` and `EOF`, and the ```json block after it.
fn example_call(readme: &str) -> (Value, Value) {
    let start = readme
        .find("<<'EOF'\n")
        .expect("README shows one call as <<'EOF' … EOF")
        + 8;
    let end = start
        + readme[start..]
            .find("\nEOF\n")
            .expect("the call ends with EOF");
    let request: Value = serde_json::from_str(&readme[start..end]).expect("the call is JSON");
    let json = end + readme[end..].find("```json\n").expect("its output follows") + 8;
    let json_end = json + readme[json..].find("\n```").expect("the output block ends");
    let output: Value = serde_json::from_str(&readme[json..json_end]).expect("output is JSON");
    (request, output)
}

fn project_files(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).expect("examples/project") {
        let path = entry.expect("an entry").path();
        let name = format!(
            "{prefix}{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        if path.is_dir() {
            project_files(&path, &format!("{name}/"), out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.insert(name, text);
        }
    }
}

#[test]
fn readme_call_gives_the_output_it_shows() {
    let (request, shown) = example_call(&read("README.md"));
    let mut files = BTreeMap::new();
    project_files(&root().join("examples/project"), "", &mut files);
    let result = Session::new().call(&request, &files).to_llm_json();
    assert_eq!(
        result,
        shown,
        "README.md's \"One call\" shows an output the engine no longer gives. Run the \
         commands shown there and paste the output. The engine gives:\n{}",
        serde_json::to_string_pretty(&result).unwrap_or_default()
    );
}

/// The README says that `edits` rows count from 0 while messages count lines from 1, with
/// the example's own numbers: "row N above is line N+1", true of the output it shows (the
/// edit's row, and the `+` line of its diff).
#[test]
fn readme_says_edit_rows_count_from_0_and_lines_from_1() {
    let readme = read("README.md");
    let (_, shown) = example_call(&readme);
    let at = readme
        .find(" above is line ")
        .expect("README says which line the example's edit row is (\"row N above is line M\")");
    let row: u64 = readme[..at]
        .rsplit("row ")
        .next()
        .and_then(|n| n.trim().parse().ok())
        .expect("\"row N above\"");
    let line: u64 = readme[at + " above is line ".len()..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect("\"is line M\"");
    let file = &shown["files"][0];
    assert_eq!(
        file["edits"][0]["range"]["start"]["row"], row,
        "the row the README names"
    );
    assert_eq!(line, row + 1, "rows count from 0, lines from 1");
    // The diff's hunk header counts from 1: the changed line is `line`.
    let diff = file["diff"].as_str().expect("a diff");
    let hunk = diff.split("@@ -").nth(1).expect("a hunk");
    let start: u64 = hunk
        .split(',')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("hunk start");
    let minus = hunk
        .lines()
        .skip(1)
        .position(|l| l.starts_with('-'))
        .expect("a removed line");
    assert_eq!(
        start + minus as u64,
        line,
        "the diff's changed line is line {line}"
    );
}

/// Markdown files the links are checked in.
fn doc_files() -> Vec<String> {
    let mut out = vec!["README.md".to_string()];
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") {
            out.push(format!("docs/{name}"));
        }
    }
    out.sort();
    out
}

/// Targets of `[text](target)` links, without external ones.
fn relative_links(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        if !target.contains("://") && !target.starts_with("mailto:") && !target.contains(' ') {
            out.push(target.to_string());
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// `docs/../README.md` → `README.md`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[test]
fn links_in_readme_and_docs_resolve() {
    let mut broken = Vec::new();
    for file in doc_files() {
        let text = read(&file);
        let dir = Path::new(&file)
            .parent()
            .map(|p| p.to_string_lossy().to_string());
        for link in relative_links(&text) {
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                file.clone()
            } else {
                normalize(&match &dir {
                    Some(d) if !d.is_empty() => format!("{d}/{path}"),
                    _ => path.to_string(),
                })
            };
            if PENDING.contains(&target.as_str()) && !root().join(&target).exists() {
                continue;
            }
            if !root().join(&target).exists() {
                broken.push(format!("{file}: link to {link}: no file {target}"));
                continue;
            }
            if !fragment.is_empty()
                && target.ends_with(".md")
                && !anchors(&read(&target)).iter().any(|a| a == fragment)
            {
                broken.push(format!("{file}: link to {link}: no heading #{fragment}"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn tools_md_documents_every_tool_and_argument() {
    let doc = read("docs/tools.md");
    let mut missing = Vec::new();
    for tool in tool_schemas().as_array().expect("a list") {
        let name = tool["name"].as_str().unwrap_or_default();
        if !doc.contains(&format!("\n## {name}\n")) {
            missing.push(format!("tool {name} has no section"));
        }
        for param in tool["inputSchema"]["properties"]
            .as_object()
            .into_iter()
            .flatten()
        {
            if !doc.contains(&format!("| `{}` |", param.0)) {
                missing.push(format!("{name}: argument `{}` has no row", param.0));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/tools.md is missing (regenerate: UPDATE_DOCS=1 cargo test -p anchored-edit \
         --test tools_doc):\n{}",
        missing.join("\n")
    );
}

#[test]
fn errors_md_and_design_md_document_every_error_kind() {
    let errors = read("docs/errors.md");
    let design = read("docs/design.md");
    let mut missing = Vec::new();
    for kind in ErrorKind::ALL {
        let heading = format!("\n## `{kind}`\n");
        match errors.find(&heading) {
            None => missing.push(format!("docs/errors.md: no section ## `{kind}`")),
            Some(at) => {
                let body = &errors[at + heading.len()..];
                let body = &body[..body.find("\n## ").unwrap_or(body.len())];
                for part in ["**When:**", "**Send next:**"] {
                    if !body.contains(part) {
                        missing.push(format!("docs/errors.md: `{kind}` has no {part}"));
                    }
                }
            }
        }
        if !design.contains(&format!("`{kind}`")) {
            missing.push(format!("docs/design.md: error kinds do not name `{kind}`"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

fn matched_via_values(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("matched_via", Value::String(s)) => out.push(s.clone()),
                    _ => matched_via_values(v, out),
                }
            }
        }
        Value::Array(list) => list.iter().for_each(|v| matched_via_values(v, out)),
        _ => {}
    }
}

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("tests/corpus") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            corpus_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

#[test]
fn recovery_md_documents_every_level_the_corpus_expects() {
    let mut files = Vec::new();
    corpus_files(&root().join("tests/corpus"), &mut files);
    let mut levels = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if let Ok(json) = serde_json::from_str::<Value>(&text) {
            matched_via_values(&json, &mut levels);
        }
    }
    levels.sort();
    levels.dedup();
    assert!(levels.len() > 1, "the corpus expects no recovery level");
    let doc = read("docs/recovery.md");
    let headings: Vec<&str> = doc.lines().filter(|l| l.starts_with("### ")).collect();
    let mut missing = Vec::new();
    for level in &levels {
        let name = format!("`{level}`");
        if !doc.contains(&format!("| {name} |")) {
            missing.push(format!("{level}: no row in the levels table"));
        }
        if level != "exact" && !headings.iter().any(|h| h.contains(&name)) {
            missing.push(format!("{level}: no ### section with its example"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/recovery.md is missing:\n{}",
        missing.join("\n")
    );
}
