//! The engine's structure, checked: its layers run one way.
//!
//! Every module has a rank; a module may use (`crate::X`) only modules of its own rank
//! or lower. The layers, bottom up:
//!
//! | rank | modules | job |
//! |------|---------|-----|
//! | 0 | `text`, `error`, `args`, `paths`, `workspace`, `listing`, `buffers`, `result`, `refusals`, `protocol` | text model and words; leaf services every layer may use (errors, argument reading, path policy, the host's files and which of them a listing shows, the texts a host keeps in the engine, the result shape, the hosts' refusals, the write protocol's decisions) |
//! | 1 | `blocks` | language-aware blocks, functions, outlines |
//! | 2 | `locate` | scopes, the matching cascade, choosing among candidates |
//! | 3 | `diagnose` | why a match failed and what to send next |
//! | 4 | `guard`, `patch` | the placeholder policy; patches (grammar, hunk search, application) |
//! | 5 | `changes` | diffs and minimal edits from a file's recorded change (`text::change_set`) |
//! | 6 | `tools` | one module per tool |
//! | 7 | `session`, `stats` | the entry point; statistics (which read the tool table) |
//! | 8 | `wasm` | the WebAssembly bindings |
//!
//! Test code (`tests.rs` files and `#[cfg(test)]` items) is exempt: a test may build
//! its fixtures with anything. Comments are ignored. A new module must be given a rank
//! here, or the test fails.

#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

const RANKS: &[(&str, u8)] = &[
    ("text", 0),
    ("error", 0),
    ("args", 0),
    ("paths", 0),
    ("workspace", 0),
    ("buffers", 0),
    ("listing", 0),
    ("result", 0),
    ("refusals", 0),
    ("protocol", 0),
    ("blocks", 1),
    ("locate", 2),
    ("diagnose", 3),
    ("guard", 4),
    ("patch", 4),
    ("changes", 5),
    ("tools", 6),
    ("session", 7),
    ("stats", 7),
    ("wasm", 8),
];

fn rank(module: &str) -> Option<u8> {
    RANKS.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir` except `tests.rs` files, sorted.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read src dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs")
            && p.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(p);
        }
    }
}

/// The top-level module a source file belongs to (`locate/cascade.rs` → `locate`);
/// None for the crate root.
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src_dir()).expect("under src");
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    match first.strip_suffix(".rs") {
        Some("lib") => None,
        Some(m) => Some(m.to_string()),
        None => Some(first),
    }
}

/// The source without comments, string literals' contents and `#[cfg(test)]` items.
fn code_only(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut lines = src.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            skip_item(&mut lines);
            continue;
        }
        let code = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// Skips the item after a `#[cfg(test)]` line: up to its `;` or its closing brace.
fn skip_item<'a>(lines: &mut impl Iterator<Item = &'a str>) {
    let mut depth = 0i32;
    let mut opened = false;
    for line in lines {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if (opened && depth <= 0) || (!opened && line.trim_end().ends_with(';')) {
            return;
        }
    }
}

/// The top-level modules named by `crate::` paths in `code`, with the line of each use.
fn crate_uses(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let name = item.trim().split("::").next().unwrap_or("").trim();
                    if !name.is_empty() {
                        out.push((n + 1, name.to_string()));
                    }
                }
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((n + 1, name));
            }
            rest = after;
        }
    }
    out
}

/// The items the crate root re-exports (`pub use session::{tool_schemas, Session};`),
/// each with the module it comes from: `crate::Session` is a use of `session`.
fn root_reexports() -> Vec<(String, String)> {
    let lib = std::fs::read_to_string(src_dir().join("lib.rs")).expect("read lib.rs");
    let mut out = Vec::new();
    for stmt in code_only(&lib).split(';') {
        let Some(path) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = path.split_once("::") else {
            continue;
        };
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = item.rsplit("::").next().unwrap_or("").trim();
            if !name.is_empty() {
                out.push((name.to_string(), module.trim().to_string()));
            }
        }
    }
    out
}

#[test]
fn layers_run_one_way() {
    let reexports = root_reexports();
    let mut files = Vec::new();
    sources(&src_dir(), &mut files);
    assert!(files.len() > 20, "found only {} sources", files.len());
    let mut wrong = Vec::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let shown = file.strip_prefix(src_dir()).unwrap().display().to_string();
        let Some(own) = rank(&module) else {
            wrong.push(format!(
                "{shown}: module `{module}` has no rank in tests/layers.rs"
            ));
            continue;
        };
        let code = code_only(&std::fs::read_to_string(file).expect("read source"));
        for (line, mut used) in crate_uses(&code) {
            if let Some((_, module)) = reexports.iter().find(|(name, _)| *name == used) {
                used = module.clone();
            }
            match rank(&used) {
                Some(r) if r > own => wrong.push(format!(
                    "{shown}:{line}: `{module}` (rank {own}) uses `crate::{used}` (rank {r}), a layer to its right"
                )),
                None => wrong.push(format!(
                    "{shown}:{line}: `crate::{used}` names a module with no rank"
                )),
                _ => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layer order:\n{}",
        wrong.join("\n")
    );
}

/// The longest an engine function may be, in lines (signature to closing brace).
const MAX_FN_LINES: usize = 100;

/// Functions allowed to be longer because they are data tables, not logic.
const DATA_TABLES: &[&str] = &[
    // Per-language lexical syntax: one struct literal per language.
    "blocks/lang.rs::syntax",
];

/// Functions over the limit that are still to be split (issue 13, "Files with one
/// job"). The list may only shrink: a function listed here that is now short enough
/// fails the test until it is removed from the list.
const NOT_YET_SPLIT: &[&str] = &[];

/// `(name, lines)` of every `fn` in `code` (as `code_only` leaves it), measured from
/// the `fn` line to the brace that closes its body at the same indentation.
fn function_lengths(code: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(at) = find_fn_keyword(trimmed) else {
            continue;
        };
        let name: String = trimmed[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let indent = line.len() - trimmed.len();
        let close = " ".repeat(indent) + "}";
        let end = lines[i..]
            .iter()
            .position(|l| l.starts_with(&close) && l.len() - l.trim_start().len() == indent);
        // A declaration without a body (a trait method) ends on its own line.
        let declaration = lines[i].trim_end().ends_with(';');
        if let (Some(n), false) = (end, declaration) {
            out.push((name, n + 1));
        }
    }
    out
}

/// Where `fn ` starts in a line that declares a function (after `pub`, `const`…).
fn find_fn_keyword(trimmed: &str) -> Option<usize> {
    let mut rest = trimmed;
    let mut at = 0;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "unsafe ",
        "async ",
    ] {
        if let Some(r) = rest.strip_prefix(prefix) {
            at += prefix.len();
            rest = r;
        }
    }
    rest.starts_with("fn ").then_some(at)
}

#[test]
fn no_engine_function_is_over_100_lines() {
    let mut files = Vec::new();
    sources(&src_dir(), &mut files);
    let mut long = Vec::new();
    for file in &files {
        let shown = file.strip_prefix(src_dir()).unwrap().display().to_string();
        let code = code_only(&std::fs::read_to_string(file).expect("read source"));
        for (name, n) in function_lengths(&code) {
            if n > MAX_FN_LINES {
                long.push((format!("{shown}::{name}"), n));
            }
        }
    }
    let mut wrong: Vec<String> = long
        .iter()
        .filter(|(id, _)| {
            !DATA_TABLES.contains(&id.as_str()) && !NOT_YET_SPLIT.contains(&id.as_str())
        })
        .map(|(id, n)| format!("{id} has {n} lines (at most {MAX_FN_LINES})"))
        .collect();
    for listed in NOT_YET_SPLIT {
        if !long.iter().any(|(id, _)| id == listed) {
            wrong.push(format!(
                "{listed} is short enough now: remove it from NOT_YET_SPLIT"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
