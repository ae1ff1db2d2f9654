//! move_block's levels, as a property over generated files: a top-level function moved
//! after (or before) any line of a generated Python or JavaScript file either is refused
//! or gives a program in which every other definition keeps its place in the nesting
//! (its chain of enclosing definitions), read by tree-sitter and by the engine's own
//! outline; and wherever the top level is valid at the destination (inserting the block
//! there verbatim keeps every other definition's place and parses), the move succeeds,
//! keeps the block's bytes and leaves it at the top level, as before the move.
//! Python results always parse (a re-indented block takes a level valid there).
#![cfg(not(target_arch = "wasm32"))]

use anchored_edit::blocks::{balance, Analysis, Balance};
use anchored_edit::text::Text;
use anchored_edit::{ErrorKind, Session};
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use tree_sitter::{Language, Node, Parser};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Lang {
    Python,
    Js,
}

impl Lang {
    fn path(self) -> &'static str {
        match self {
            Lang::Python => "m.py",
            Lang::Js => "m.js",
        }
    }

    fn grammar(self) -> Language {
        match self {
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Js => tree_sitter_javascript::LANGUAGE.into(),
        }
    }

    fn moved(self) -> &'static str {
        match self {
            Lang::Python => "def moved():\n    return 0\n",
            Lang::Js => "function moved() {\n  return 0;\n}\n",
        }
    }

    /// Item `kind` numbered `n`: every line unique in the file (anchors must be).
    fn item(self, kind: u8, n: usize) -> String {
        match (self, kind % 5) {
            (Lang::Python, 0) => format!("def f{n}():\n    return {n}\n"),
            (Lang::Python, 1) => {
                format!("def f{n}(x{n}):\n    if x{n}:\n        return {n}\n    return -{n}\n")
            }
            (Lang::Python, 2) => format!("def f{n}(x{n}):\n    if x{n}:\n        return {n}\n"),
            (Lang::Python, 4) => format!(
                "@dec{n}\ndef g{n}(x{n}):\n    '''doc {n}\n    more {n}\n    '''\n    return [\n        x{n},\n    ]\n"
            ),
            (Lang::Python, _) => format!(
                "class C{n}:\n    def m{n}(self):\n        return {n}\n\n    def n{n}(self):\n        if self.a{n}:\n            return -{n}\n"
            ),
            (Lang::Js, 0) => format!("function f{n}() {{\n  return {n};\n}}\n"),
            (Lang::Js, 1) => format!(
                "function f{n}(x{n}) {{\n  if (x{n}) {{\n    return {n};\n  }}\n  return -{n};\n}}\n"
            ),
            (Lang::Js, 2) => format!("const k{n} = {n};\n"),
            (Lang::Js, 4) => format!(
                "const o{n} = {{\n  p{n}() {{\n    return run{n}(\n      {n},\n    );\n  }},\n}};\n"
            ),
            (Lang::Js, _) => format!(
                "class C{n} {{\n  m{n}() {{\n    return {n};\n  }}\n\n  n{n}() {{\n    return -{n};\n  }}\n}}\n"
            ),
        }
    }
}

/// A file of `kinds` items with the moved function at `at`, blank-line separated.
fn file(lang: Lang, kinds: &[u8], at: usize) -> String {
    let sep = if lang == Lang::Python { "\n\n" } else { "\n" };
    let mut items: Vec<String> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| lang.item(*k, i + 1))
        .collect();
    items.insert(at.min(items.len()), lang.moved().to_string());
    items.join(sep)
}

/// Every line's chain of enclosing definitions (their names, outermost first, joined
/// by `/`), keyed by the line's text (trimmed; lines whose text occurs twice and lines
/// of closing brackets left out), read by tree-sitter; None when the text does not
/// parse (tree-sitter finds an error, or the engine's balance check does:
/// tree-sitter's Python grammar takes an empty block).
fn ts_chains(lang: Lang, src: &str) -> Option<BTreeMap<String, String>> {
    if balance(src, lang.path()) != Balance::Balanced {
        return None;
    }
    let mut parser = Parser::new();
    parser.set_language(&lang.grammar()).ok()?;
    let tree = parser.parse(src, None)?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    Some(by_line(src, |row, col| {
        let at = tree_sitter::Point { row, column: col };
        let mut node: Node = root.named_descendant_for_point_range(at, at)?;
        let mut names = Vec::new();
        while let Some(parent) = node.parent() {
            node = parent;
            if DEFINES.contains(&node.kind()) && node.start_position().row < row {
                let name = node.child_by_field_name("name")?;
                names.push(name.utf8_text(src.as_bytes()).ok()?.to_string());
            }
        }
        names.reverse();
        let mut chain = names.join("/");
        // A decorator line belongs to the definition it decorates.
        let is_decorator = src
            .lines()
            .nth(row)
            .is_some_and(|l| l.trim_start().starts_with('@'));
        if let Some(d) = decorated(root, row).filter(|_| is_decorator) {
            chain = format!("{chain}>{}", d.utf8_text(src.as_bytes()).ok()?);
        }
        Some(chain)
    }))
}

/// The name of the definition a decorator on `row` decorates (tree-sitter).
fn decorated(root: Node, row: usize) -> Option<Node> {
    let at = tree_sitter::Point { row, column: 0 };
    let mut node = root.descendant_for_point_range(at, at)?;
    while node.kind() != "decorated_definition" {
        node = node.parent()?;
    }
    node.child_by_field_name("definition")?
        .child_by_field_name("name")
}

const DEFINES: &[&str] = &[
    "function_definition",
    "class_definition",
    "function_declaration",
    "class_declaration",
    "method_definition",
];

/// `chain(row, column of its first character)` for every line with a text of its own.
fn by_line(src: &str, chain: impl Fn(usize, usize) -> Option<String>) -> BTreeMap<String, String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for l in src.lines() {
        *count.entry(l.trim()).or_default() += 1;
    }
    let mut out = BTreeMap::new();
    for (row, l) in src.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with(['}', ')', ']']) || count[t] > 1 {
            continue;
        }
        if let Some(c) = chain(row, l.len() - l.trim_start().len()) {
            out.insert(t.to_string(), c);
        }
    }
    out
}

/// The same chains by the engine's outline (the symbols whose lines enclose the line).
fn engine_chains(lang: Lang, src: &str) -> BTreeMap<String, String> {
    let text = Text::new(src);
    let a = Analysis::new(&text, lang.path());
    let syms = a.outline();
    by_line(src, |row, _| {
        let names: Vec<&str> = syms
            .iter()
            .filter(|o| o.start_line < row && row <= o.end_line)
            .map(|o| o.name.as_str())
            .collect();
        let mut chain = names.join("/");
        if text.line(row).trim_start().starts_with('@') {
            let next = syms.iter().find(|o| o.start_line > row)?;
            chain = format!("{chain}>{}", next.name);
        }
        Some(chain)
    })
}

/// The text with the moved block's lines taken out and put back verbatim after (or
/// before) line `j` of the original (blank lines do not matter to either parser).
fn verbatim(src: &str, j: usize, after: bool, block: (usize, usize)) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let moved: Vec<&str> = lines[block.0..=block.1].to_vec();
    let mut out: Vec<&str> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i == j && !after {
            out.extend(&moved);
        }
        if !(block.0..=block.1).contains(&i) {
            out.push(l);
        }
        if i == j && after {
            out.extend(&moved);
        }
    }
    out.join("\n") + "\n"
}

/// The chains of every line but the moved block's.
fn without(mut m: BTreeMap<String, String>, lang: Lang) -> BTreeMap<String, String> {
    for l in lang.moved().lines() {
        m.remove(l.trim());
    }
    m
}

/// Moves `moved` after or before every non-blank line outside it and checks the rule.
fn check_every_destination(lang: Lang, src: &str) -> Result<(), TestCaseError> {
    let before = ts_chains(lang, src).expect("generated file parses");
    let engine_before = engine_chains(lang, src);
    prop_assert_eq!(&before, &engine_before, "engine outline differs:\n{}", src);
    let lines: Vec<&str> = src.lines().collect();
    let first = lines.iter().position(|l| l.contains("moved()")).unwrap();
    let n = lang.moved().lines().count();
    let block = (first, first + n - 1);
    let path = lang.path();
    let head = lang.moved().lines().next().unwrap().trim();
    for (j, line) in lines.iter().enumerate() {
        let unique = lines.iter().filter(|o| o.contains(line)).count() == 1;
        if !unique || line.trim().is_empty() || (first.saturating_sub(2)..=block.1 + 2).contains(&j)
        {
            continue;
        }
        for after in [true, false] {
            let side = if after {
                "after_content"
            } else {
                "before_content"
            };
            let mut files = BTreeMap::new();
            files.insert(path.to_string(), src.to_string());
            let call = json!({"tool": "move_block", "arguments": {
                "path": path, "start_content": lang.moved().lines().next().unwrap(),
                "brace_match": true, side: line}});
            let r = Session::new().call(&call, &files);
            let expected = verbatim(src, j, after, block);
            let top_level_valid = ts_chains(lang, &expected).is_some_and(|c| {
                c.get(head).is_some_and(|m| m.is_empty())
                    && without(c, lang) == without(before.clone(), lang)
            });
            let what = format!("{side} {line:?} (line {})\n{src}", j + 1);
            if !r.ok {
                prop_assert!(
                    !top_level_valid,
                    "refused where the top level is valid: {what}\n{}",
                    r.headline()
                );
                let splits = r.error_kind() == Some(ErrorKind::InvalidArguments)
                    && r.headline().contains("inside the statement");
                prop_assert!(
                    splits || r.error_kind() == Some(ErrorKind::Ambiguous),
                    "{what}\n{}",
                    r.headline()
                );
                continue;
            }
            // No file in the result: the move changed nothing (the block already stood there).
            let out = r
                .files
                .as_ref()
                .and_then(|fs| fs.first())
                .and_then(|f| f.new_text.clone())
                .unwrap_or_else(|| src.to_string());
            let chains = ts_chains(lang, &out);
            if lang == Lang::Python {
                prop_assert!(chains.is_some(), "does not parse: {what}\n---\n{out}");
            }
            let Some(chains) = chains else { continue };
            prop_assert_eq!(
                without(chains.clone(), lang),
                without(before.clone(), lang),
                "another definition moved in the nesting: {}\n---\n{}",
                what,
                out
            );
            prop_assert_eq!(
                without(engine_chains(lang, &out), lang),
                without(engine_before.clone(), lang),
                "engine outline: another definition moved: {}\n---\n{}",
                what,
                out
            );
            if top_level_valid {
                prop_assert_eq!(chains.get(head).map(String::as_str), Some(""), "{}", what);
                prop_assert!(
                    out.contains(lang.moved()),
                    "bytes not kept: {what}\n---\n{out}"
                );
                let engine = engine_chains(lang, &out);
                prop_assert_eq!(engine.get(head).map(String::as_str), Some(""), "{}", what);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn python_top_level_moves_keep_their_level(kinds in prop::collection::vec(0u8..5, 1..5), at in 0usize..5) {
        check_every_destination(Lang::Python, &file(Lang::Python, &kinds, at))?;
    }

    #[test]
    fn js_top_level_moves_keep_their_level(kinds in prop::collection::vec(0u8..5, 1..5), at in 0usize..5) {
        check_every_destination(Lang::Js, &file(Lang::Js, &kinds, at))?;
    }
}
