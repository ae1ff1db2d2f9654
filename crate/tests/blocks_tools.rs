//! The block tools through `Session::call`: reading results, function_hint in the
//! other tools, dry run equal to commit, and never panicking on arbitrary arguments.

use anchored_edit::{ErrorKind, Session};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const RS: &str = "struct Pool;\n\nimpl Pool {\n    fn connect(&self) -> u8 {\n        let s = \"}\";\n        1\n    }\n}\n\nfn connect() -> u8 {\n    2\n}\n\nfn helper() {\n    let x = 1;\n}\n";

fn files() -> BTreeMap<String, String> {
    let mut f = BTreeMap::new();
    f.insert("src/pool.rs".to_string(), RS.to_string());
    f.insert(
        "app.py".to_string(),
        "def f():\n    x = 1\n    return x\n\n\ndef g():\n    x = 1\n    return x\n".to_string(),
    );
    f.insert(
        "notes.weird".to_string(),
        "block {\n  \"}\"\n}\n".to_string(),
    );
    f
}

fn call(tool: &str, args: Value) -> anchored_edit::ToolResult {
    Session::new().call(&json!({"tool": tool, "arguments": args}), &files())
}

fn new_text(r: &anchored_edit::ToolResult, path: &str) -> String {
    r.files
        .as_ref()
        .and_then(|fs| fs.iter().find(|f| f.path == path))
        .and_then(|f| f.new_text.clone())
        .unwrap_or_default()
}

#[test]
fn get_region_reads_exact_lines() {
    let r = call(
        "get_region",
        json!({"path": "src/pool.rs", "start_content": "fn connect(&self)", "brace_match": true}),
    );
    assert!(r.ok, "{}", r.headline());
    assert_eq!(r.start_line, Some(4));
    assert_eq!(r.end_line, Some(7));
    assert_eq!(
        r.content.as_deref(),
        Some("    fn connect(&self) -> u8 {\n        let s = \"}\";\n        1\n    }\n")
    );
    assert!(r.version.is_some());
    let r = call(
        "get_region",
        json!({"path": "src/pool.rs", "start_content": "fn helper", "end_content": "let x"}),
    );
    assert_eq!((r.start_line, r.end_line), (Some(14), Some(15)));
}

#[test]
fn file_summary_lists_symbols() {
    let r = call("file_summary", json!({"path": "src/pool.rs"}));
    assert!(r.ok);
    assert_eq!(r.line_count, Some(16));
    let symbols = &r.extra["symbols"];
    assert_eq!(
        symbols,
        &json!([
            {"name": "Pool", "kind": "impl", "start_line": 3, "end_line": 8},
            {"name": "Pool.connect", "kind": "method", "start_line": 4, "end_line": 7},
            {"name": "connect", "kind": "function", "start_line": 10, "end_line": 12},
            {"name": "helper", "kind": "function", "start_line": 14, "end_line": 16},
        ])
    );
}

#[test]
fn function_hint_scopes_other_tools() {
    // str_replace: `x = 1` is in f and g; function_hint picks g.
    let r = call(
        "str_replace",
        json!({"path": "app.py", "old_str": "    x = 1", "new_str": "    x = 2", "function_hint": "g"}),
    );
    assert!(r.ok, "{}", r.headline());
    assert!(new_text(&r, "app.py").ends_with("def g():\n    x = 2\n    return x\n"));
    // insert after content inside a function
    let r = call(
        "insert",
        json!({"path": "app.py", "after_content": "x = 1", "new_str": "    y = 0\n", "function_hint": "f"}),
    );
    assert!(r.ok, "{}", r.headline());
    assert!(new_text(&r, "app.py").starts_with("def f():\n    x = 1\n    y = 0\n"));
    // qualified names
    let r = call(
        "str_replace",
        json!({"path": "src/pool.rs", "old_str": "1\n", "new_str": "3\n", "function_hint": "Pool::connect"}),
    );
    assert!(r.ok, "{}", r.headline());
    // unknown function: scope_not_found with the closest name
    let r = call(
        "str_replace",
        json!({"path": "app.py", "old_str": "x = 1", "new_str": "x = 2", "function_hint": "gg"}),
    );
    assert_eq!(r.error_kind(), Some(ErrorKind::ScopeNotFound));
    assert!(r.headline().contains("`g` (line 6)"), "{}", r.headline());
    // two definitions: ambiguous, with the qualified way out
    let r = call(
        "str_replace",
        json!({"path": "src/pool.rs", "old_str": "1", "new_str": "5", "function_hint": "connect"}),
    );
    assert_eq!(r.error_kind(), Some(ErrorKind::Ambiguous));
    assert!(r.headline().contains("Pool.connect"), "{}", r.headline());
}

#[test]
fn dry_run_equals_commit() {
    let calls = [
        (
            "replace_function_body",
            json!({"path": "src/pool.rs", "function_name": "helper", "new_body": "fn helper() {\n    let x = 2;\n}\n"}),
        ),
        (
            "replace_block",
            json!({"path": "src/pool.rs", "anchor": "impl Pool {", "new_block": "impl Pool {}\n"}),
        ),
        (
            "delete_block",
            json!({"path": "app.py", "start_content": "def f", "brace_match": true}),
        ),
        (
            "delete_block",
            json!({"path": "src/pool.rs", "start_content": "fn helper", "end_content": "}"}),
        ),
    ];
    for (tool, args) in calls {
        let commit = call(tool, args.clone());
        let mut dry_args = args.clone();
        dry_args["dry_run"] = json!(true);
        let dry = call(tool, dry_args);
        assert!(
            commit.ok && dry.ok,
            "{tool}: {} / {}",
            commit.headline(),
            dry.headline()
        );
        assert_eq!(
            commit.files, dry.files,
            "{tool}: dry run differs from commit"
        );
        assert_eq!(dry.dry_run, Some(true));
    }
}

#[test]
fn unknown_extension_warns() {
    let r = call(
        "get_region",
        json!({"path": "notes.weird", "start_content": "block {", "brace_match": true}),
    );
    assert!(r.ok, "{}", r.headline());
    assert_eq!(r.end_line, Some(3));
    assert!(
        r.warnings.iter().any(|w| w.contains("generic C-like")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn stale_version_refused() {
    let r = call(
        "replace_block",
        json!({"path": "app.py", "anchor": "def g", "new_block": "def g():\n    pass\n", "expected_version": "nope"}),
    );
    assert_eq!(r.error_kind(), Some(ErrorKind::StaleBuffer));
}

#[test]
fn placeholder_flag_is_accepted() {
    for tool in ["replace_block", "replace_function_body"] {
        let spec = anchored_edit::tools::spec(tool).expect("registered");
        assert!(spec.param("allow_placeholders").is_some(), "{tool}");
    }
}

fn arg_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0i64..30).prop_map(|n| json!(n)),
        prop::sample::select(vec![
            "fn connect",
            "impl Pool {",
            "}",
            "{",
            "def f",
            "x = 1",
            "",
            "\n",
            "connect",
            "Pool.connect",
            "fn helper() {\n}\n",
            "def f():\n    pass\n",
            "    ",
            "\"",
            "'",
            "block {",
            "zzz",
        ])
        .prop_map(|s| json!(s)),
        ".{0,30}".prop_map(|s: String| json!(s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any combination of arguments gets a result, never a panic, and a refusal
    /// changes nothing.
    #[test]
    fn tools_never_panic(
        tool in prop::sample::select(vec!["replace_block", "replace_function_body", "delete_block", "get_region", "file_summary", "str_replace", "insert"]),
        path in prop::sample::select(vec!["src/pool.rs", "app.py", "notes.weird", "missing.rs"]),
        keys in prop::collection::vec(prop::sample::select(vec![
            "anchor", "new_block", "function_name", "new_body", "start_content", "end_content",
            "brace_match", "occurrence", "function_hint", "old_str", "new_str", "after_content",
            "dry_run", "strict",
        ]), 0..6),
        values in prop::collection::vec(arg_value(), 6),
    ) {
        let mut args = serde_json::Map::new();
        args.insert("path".into(), json!(path));
        for (k, v) in keys.iter().zip(values) {
            args.insert((*k).to_string(), v);
        }
        let r = Session::new().call(&json!({"tool": tool, "arguments": Value::Object(args)}), &files());
        if !r.ok {
            prop_assert!(r.files.as_ref().is_none_or(|f| f.is_empty()));
        }
    }
}

/// move_block reports the ranges it changed (issue 25, one change type): the block and
/// the blank lines that leave with it go from the top and arrive after the anchor. A diff
/// of the two texts reported the arrival elsewhere (the blank lines kept in place).
#[test]
fn move_block_reports_the_lines_it_moved() {
    let old = "def a():\n    return 1\n\n\ndef c():\n    return 4\n";
    let files = BTreeMap::from([("m.py".to_string(), old.to_string())]);
    let args = json!({"path": "m.py", "start_content": "def a():", "brace_match": true, "after_content": "    return 4"});
    let r = Session::new().call(&json!({"tool": "move_block", "arguments": args}), &files);
    let change = &r.files.as_ref().expect("files")[0];
    let rows: Vec<_> = change
        .edits
        .iter()
        .map(|e| {
            let (s, t) = (e.range.start, e.range.end);
            ((s.row, s.column), (t.row, t.column), e.text.as_str())
        })
        .collect();
    let moved = "\n\ndef a():\n    return 1\n";
    assert_eq!(rows, [((0, 0), (4, 0), ""), ((6, 0), (6, 0), moved)]);
    assert!(
        change
            .diff
            .ends_with(" def c():\n     return 4\n+\n+\n+def a():\n+    return 1\n"),
        "{}",
        change.diff
    );
}
