//! The oracle: our function ranges and brace pairs against tree-sitter's parses.
//!
//! Every source file under `tests/oracle/<lang>/` is parsed by tree-sitter and by the
//! blocks module. Two things are compared:
//! - functions: for every named function / method / constructor with a body that
//!   tree-sitter finds, the first and last line (the first line is the signature's:
//!   attributes, annotations and decorators above it excluded, a C++ `template <…>`
//!   line included), and every function we find that tree-sitter does not;
//! - blocks: for every `{ … }` pair in tree-sitter's tree, the `}` our lexer matches
//!   with the `{`.
//!
//! Every disagreement must be pinned, word for word, in `tests/oracle/known-disagreements.txt`
//! (one per line; `#` starts a comment), and every pinned line must still occur: a new
//! disagreement fails the test, and so does a pinned one that has gone (the list is kept
//! true, so a fix shows as a line to delete and a regression as a line nobody wrote).
#![cfg(not(target_arch = "wasm32"))]

use anchored_edit::blocks::{Analysis, Lang};
use anchored_edit::text::Text;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use tree_sitter::{Language, Node, Parser};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/oracle")
}

/// The pinned disagreements: every line of `known-disagreements.txt` that is neither
/// blank nor a `#` comment.
fn pinned_disagreements() -> BTreeSet<String> {
    let path = corpus_dir().join("known-disagreements.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// What differs between the disagreements found and the pinned ones, as readable lines
/// (empty when they are the same set).
fn unpinned_changes(found: &[String], pinned: &BTreeSet<String>) -> Vec<String> {
    let found: BTreeSet<String> = found.iter().cloned().collect();
    let new = found
        .difference(pinned)
        .map(|d| format!("NEW (fix it, or pin it in known-disagreements.txt): {d}"));
    let gone = pinned
        .difference(&found)
        .map(|d| format!("GONE (delete it from known-disagreements.txt): {d}"));
    new.chain(gone).collect()
}

fn language(ext: &str) -> Option<Language> {
    Some(match ext {
        "rs" => tree_sitter_rust::LANGUAGE.into(),
        "py" => tree_sitter_python::LANGUAGE.into(),
        "js" | "jsx" => tree_sitter_javascript::LANGUAGE.into(),
        "ts" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "tsx" => tree_sitter_typescript::LANGUAGE_TSX.into(),
        "go" => tree_sitter_go::LANGUAGE.into(),
        "c" | "h" => tree_sitter_c::LANGUAGE.into(),
        "cpp" | "cc" | "hpp" => tree_sitter_cpp::LANGUAGE.into(),
        "java" => tree_sitter_java::LANGUAGE.into(),
        _ => return None,
    })
}

/// A function as (name, first line, last line), 1-based.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Func {
    name: String,
    start: usize,
    end: usize,
}

fn text_of(node: Node, src: &[u8]) -> String {
    node.utf8_text(src).unwrap_or("").to_string()
}

const SKIPPED_PRELUDE: &[&str] = &[
    "annotation",
    "marker_annotation",
    "line_comment",
    "block_comment",
    "comment",
    "decorator",
    "attribute_item",
];

/// The first row of `node` not taken by annotations, decorators or comments.
fn start_row(node: Node) -> usize {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if SKIPPED_PRELUDE.contains(&child.kind()) {
            continue;
        }
        if child.kind() == "modifiers" {
            let mut c2 = child.walk();
            if let Some(m) = child
                .children(&mut c2)
                .find(|m| !SKIPPED_PRELUDE.contains(&m.kind()))
            {
                return m.start_position().row;
            }
            continue;
        }
        return child.start_position().row;
    }
    node.start_position().row
}

/// The name of a C / C++ function definition's declarator.
fn c_name(node: Node, src: &[u8]) -> Option<String> {
    let mut d = node.child_by_field_name("declarator")?;
    loop {
        match d.kind() {
            "function_declarator" => break,
            _ => d = d.child_by_field_name("declarator")?,
        }
    }
    let mut n = d.child_by_field_name("declarator")?;
    loop {
        match n.kind() {
            "qualified_identifier" => n = n.child_by_field_name("name")?,
            // `(*name(params))(args)`: the name is inside the parentheses
            "parenthesized_declarator" | "pointer_declarator" | "function_declarator" => {
                n = n
                    .child_by_field_name("declarator")
                    .or_else(|| n.named_child(0))?
            }
            _ => break,
        }
    }
    Some(text_of(n, src))
}

fn has_block_body(node: Node) -> bool {
    node.child_by_field_name("body").is_some_and(|b| {
        matches!(
            b.kind(),
            "statement_block" | "block" | "compound_statement" | "constructor_body"
        )
    })
}

/// tree-sitter's functions in the tree under `node`.
fn ts_functions(node: Node, src: &[u8], ext: &str, out: &mut Vec<Func>) {
    let kind = node.kind();
    let mut push = |name: String, start: usize, end: usize| {
        let name = name.trim_start_matches(['#', '~']).to_string();
        out.push(Func {
            name,
            start: start + 1,
            end: end + 1,
        });
    };
    let end = node.end_position().row;
    match (ext, kind) {
        ("rs", "function_item")
        | ("py", "function_definition")
        | ("go", "function_declaration" | "method_declaration")
        | ("java", "method_declaration" | "constructor_declaration") => {
            if let Some(n) = node.child_by_field_name("name") {
                if node.child_by_field_name("body").is_some() {
                    push(text_of(n, src), start_row(node), end);
                }
            }
        }
        (_, "function_declaration" | "generator_function_declaration" | "method_definition")
            if matches!(ext, "js" | "jsx" | "ts" | "tsx") =>
        {
            if let Some(n) = node.child_by_field_name("name") {
                if has_block_body(node) {
                    push(text_of(n, src), start_row(node), end);
                }
            }
        }
        (_, "variable_declarator" | "pair" | "field_definition" | "public_field_definition")
            if matches!(ext, "js" | "jsx" | "ts" | "tsx") =>
        {
            let name = node
                .child_by_field_name("name")
                .or_else(|| node.child_by_field_name("key"))
                .or_else(|| node.child_by_field_name("property"));
            let value = node.child_by_field_name("value");
            if let (Some(n), Some(v)) = (name, value) {
                if matches!(
                    v.kind(),
                    "arrow_function" | "function_expression" | "function"
                ) && has_block_body(v)
                    && matches!(
                        n.kind(),
                        "identifier" | "property_identifier" | "private_property_identifier"
                    )
                {
                    // The declaration's first line: `const`/`export` for variables.
                    let mut decl = node;
                    if kind == "variable_declarator" {
                        if let Some(p) = node.parent() {
                            decl = p;
                            if let Some(pp) = p.parent() {
                                if pp.kind() == "export_statement" {
                                    decl = pp;
                                }
                            }
                        }
                    }
                    push(text_of(n, src), start_row(decl), v.end_position().row);
                }
            }
        }
        ("c" | "h" | "cpp" | "cc" | "hpp", "function_definition") => {
            if let Some(name) = c_name(node, src) {
                let mut start = start_row(node);
                if let Some(p) = node.parent() {
                    if p.kind() == "template_declaration" {
                        start = p.start_position().row;
                    }
                }
                push(name, start, end);
            }
        }
        _ => {}
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        ts_functions(child, src, ext, out);
    }
}

/// `{`…`}` pairs (byte of each) in the tree under `node`.
fn ts_braces(node: Node, out: &mut Vec<(usize, usize)>) {
    // Python f-string holes: the lexer treats the whole string as one literal.
    if node.kind() == "interpolation" {
        return;
    }
    let n = node.child_count();
    if n >= 2 {
        let first = node.child(0);
        let last = node.child(n - 1);
        if let (Some(f), Some(l)) = (first, last) {
            if f.kind() == "{" && l.kind() == "}" && !f.is_missing() && !l.is_missing() {
                out.push((f.start_byte(), l.start_byte()));
            }
        }
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        ts_braces(child, out);
    }
}

fn our_functions(a: &Analysis) -> Vec<Func> {
    a.outline()
        .into_iter()
        .filter(|s| s.kind.is_function())
        .map(|s| Func {
            name: s.name.trim_start_matches('~').to_string(),
            start: s.start_line + 1,
            end: s.end_line + 1,
        })
        .collect()
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn oracle_agreement() {
    let mut paths = Vec::new();
    // One folder per language; files at the top (the generator) are not corpus.
    for dir in std::fs::read_dir(corpus_dir())
        .expect("tests/oracle")
        .flatten()
    {
        if dir.path().is_dir() {
            files(&dir.path(), &mut paths);
        }
    }
    paths.sort();
    let mut per_lang: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut fn_total, mut fn_agree) = (0usize, 0usize);
    let (mut br_total, mut br_agree) = (0usize, 0usize);
    let mut disagreements = Vec::new();
    let mut broken = Vec::new();
    for path in &paths {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let Some(language) = language(ext) else {
            continue;
        };
        let src = std::fs::read_to_string(path).expect("readable corpus file");
        let rel = path
            .strip_prefix(corpus_dir())
            .unwrap_or(path)
            .display()
            .to_string();
        let mut parser = Parser::new();
        parser.set_language(&language).expect("grammar loads");
        let tree = parser.parse(&src, None).expect("tree-sitter parses");
        if tree.root_node().has_error() {
            broken.push(rel.clone());
            continue;
        }
        let text = Text::new(&src);
        let analysis = Analysis::new(&text, &rel);
        assert!(
            Lang::from_path(&rel).is_some(),
            "{rel}: language not recognised"
        );

        // functions
        let mut theirs = Vec::new();
        ts_functions(tree.root_node(), src.as_bytes(), ext, &mut theirs);
        let mut ours = our_functions(&analysis);
        let lang_entry = per_lang.entry(ext.to_string()).or_default();
        for f in &theirs {
            fn_total += 1;
            lang_entry.0 += 1;
            let exact = ours.iter().position(|o| o == f);
            match exact {
                Some(i) => {
                    ours.remove(i);
                    fn_agree += 1;
                }
                None => {
                    let near = ours
                        .iter()
                        .position(|o| o.name == f.name && (o.start == f.start || o.end == f.end));
                    let got = match near {
                        Some(i) => {
                            let o = ours.remove(i);
                            format!("lines {}-{}", o.start, o.end)
                        }
                        None => "not found".to_string(),
                    };
                    disagreements.push(format!(
                        "{rel}: function {} tree-sitter lines {}-{}, ours {got}",
                        f.name, f.start, f.end
                    ));
                }
            }
        }
        for o in ours {
            fn_total += 1;
            lang_entry.0 += 1;
            disagreements.push(format!(
                "{rel}: function {} lines {}-{} found by us only",
                o.name, o.start, o.end
            ));
        }
        lang_entry.1 += theirs.len();

        // brace pairs
        let mut pairs = Vec::new();
        ts_braces(tree.root_node(), &mut pairs);
        for (open, close) in pairs {
            br_total += 1;
            match analysis.partner_of(open) {
                Some(c) if c == close => br_agree += 1,
                got => disagreements.push(format!(
                    "{rel}: `{{` at line {} closes at line {} for tree-sitter, ours {}",
                    text.line_of(open) + 1,
                    text.line_of(close) + 1,
                    got.map_or("none".to_string(), |c| format!(
                        "line {}",
                        text.line_of(c) + 1
                    ))
                )),
            }
        }
    }
    assert!(
        broken.is_empty(),
        "corpus files tree-sitter cannot parse cleanly: {broken:?}"
    );
    let total = fn_total + br_total;
    let agree = fn_agree + br_agree;
    let pct = 100.0 * agree as f64 / total.max(1) as f64;
    eprintln!("oracle: functions {fn_agree}/{fn_total}, brace pairs {br_agree}/{br_total}, agreement {pct:.2} %");
    for (ext, (_, n)) in &per_lang {
        eprintln!("  .{ext}: {n} tree-sitter functions");
    }
    for d in &disagreements {
        eprintln!("  DISAGREE {d}");
    }
    let ts_functions_total: usize = per_lang.values().map(|v| v.1).sum();
    assert!(
        ts_functions_total >= 300,
        "the corpus needs ≥ 300 functions, has {ts_functions_total}"
    );
    assert!(
        per_lang.len() >= 6,
        "the corpus needs ≥ 6 languages, has {}",
        per_lang.len()
    );
    let changes = unpinned_changes(&disagreements, &pinned_disagreements());
    assert!(
        changes.is_empty(),
        "the disagreements differ from tests/oracle/known-disagreements.txt:\n  {}",
        changes.join("\n  ")
    );
}

#[test]
fn pinned_list_fails_both_ways() {
    let pinned: BTreeSet<String> = ["a.rs: old".to_string()].into();
    let cases: &[(&[&str], &[&str])] = &[
        (&["a.rs: old"], &[]),
        (
            &["a.rs: old", "b.rs: new"],
            &["NEW (fix it, or pin it in known-disagreements.txt): b.rs: new"],
        ),
        (
            &[],
            &["GONE (delete it from known-disagreements.txt): a.rs: old"],
        ),
    ];
    for (found, want) in cases {
        let found: Vec<String> = found.iter().map(|s| s.to_string()).collect();
        assert_eq!(unpinned_changes(&found, &pinned), *want, "found {found:?}");
    }
}

/// brace_match from a function's first line (its signature's, as tree-sitter places
/// it) is the function: `block_at` ends on the function's last line, for every function
/// of the corpus with a body (headers over several lines included: parameter lists,
/// return types on their own line, `template <…>` lines, `where` clauses, `{` on its
/// own line). A Python one-liner (`def f(): return 1`) opens no block, by rule
/// (docs/blocks.md). Before issue 25, 25 of 424 disagreed (a Rust signature over
/// several lines gave its parameter list; C return types and C++ templates on their
/// own line gave no block).
#[test]
fn brace_match_from_a_signature_is_the_function() {
    let mut paths = Vec::new();
    for dir in std::fs::read_dir(corpus_dir())
        .expect("tests/oracle")
        .flatten()
    {
        if dir.path().is_dir() {
            files(&dir.path(), &mut paths);
        }
    }
    paths.sort();
    let (mut total, mut wrong) = (0usize, Vec::new());
    for path in &paths {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let Some(language) = language(ext) else {
            continue;
        };
        let src = std::fs::read_to_string(path).expect("readable corpus file");
        let rel = path
            .strip_prefix(corpus_dir())
            .unwrap_or(path)
            .display()
            .to_string();
        let mut parser = Parser::new();
        parser.set_language(&language).expect("grammar loads");
        let tree = parser.parse(&src, None).expect("tree-sitter parses");
        if tree.root_node().has_error() {
            continue;
        }
        let text = Text::new(&src);
        let a = Analysis::new(&text, &rel);
        let mut theirs = Vec::new();
        ts_functions(tree.root_node(), src.as_bytes(), ext, &mut theirs);
        for f in theirs {
            if ext == "py" && f.start == f.end {
                continue;
            }
            total += 1;
            let got = a.block_at(f.start - 1).map(|(s, e)| (s + 1, e + 1));
            if got != Ok((f.start, f.end)) {
                wrong.push(format!(
                    "{rel}: {} {}-{}: got {got:?}",
                    f.name, f.start, f.end
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {total} functions:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
