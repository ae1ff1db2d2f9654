//! Property: no input makes the engine panic, and every answer keeps the contract
//! (a refusal changes nothing; a success's edits rebuild its new text).

use anchored_edit::{apply_edits, tool_schemas, Session};
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Text made of the pieces that trip edit engines: line breaks of both kinds,
/// backslashes, quotes, tabs, non-ASCII and Unicode spaces, markers, braces.
fn tricky_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        "b",
        "x = 1",
        "fn f() {",
        "}",
        "{",
        "\n",
        "\r\n",
        "\r",
        "\t",
        "    ",
        " ",
        "\\",
        "\\\\",
        "\"",
        "'",
        "`",
        "é",
        "😀",
        "漢",
        "\u{a0}",
        "\u{2019}",
        "\u{feff}",
        "...",
        "// ... existing code ...",
        "@@",
        "*** Begin Patch",
        "-",
        "+",
        "$1",
        "12: ",
        "  3\t",
        "def g():",
        "#",
        "/*",
        "*/",
        "(",
        ")",
        "[",
        "]",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (0u64..20).prop_map(|n| json!(n)),
        tricky_text().prop_map(Value::String),
        Just(json!("a.txt")),
        Just(json!("b.py")),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn tool_names() -> Vec<String> {
    tool_schemas()
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|t| t["name"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Parameter names per tool, from the published schemas.
fn param_names(tool: &str) -> Vec<String> {
    tool_schemas()
        .as_array()
        .and_then(|a| a.iter().find(|t| t["name"] == tool).cloned())
        .and_then(|t| t["inputSchema"]["properties"].as_object().cloned())
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

fn call_strategy() -> impl Strategy<Value = (String, Value, BTreeMap<String, String>)> {
    let names = tool_names();
    (
        prop::sample::select(names),
        prop::collection::vec((0usize..64, json_value()), 0..8),
        tricky_text(),
        tricky_text(),
        any::<bool>(),
    )
        .prop_map(|(tool, picks, file_a, file_b, with_path)| {
            let params = param_names(&tool);
            let mut args = Map::new();
            for (i, v) in picks {
                let key = if params.is_empty() || i >= params.len() * 2 {
                    format!("unknown_{i}")
                } else {
                    params[i % params.len()].clone()
                };
                args.insert(key, v);
            }
            if with_path && params.iter().any(|p| p == "path") {
                args.insert("path".into(), json!("a.txt"));
            }
            let mut files = BTreeMap::new();
            files.insert("a.txt".to_string(), file_a);
            files.insert("b.py".to_string(), file_b);
            (tool, Value::Object(args), files)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, .. ProptestConfig::default() })]

    #[test]
    fn any_call_gets_a_structured_answer((tool, args, files) in call_strategy()) {
        let mut session = Session::new();
        let result = session.call(&json!({"tool": tool, "arguments": args}), &files);
        if result.ok {
            for change in result.files.iter().flatten() {
                let before = files.get(&change.path).map(String::as_str).unwrap_or("");
                let rebuilt = apply_edits(before, &change.edits);
                let after = if change.deleted { "" } else { change.new_text.as_deref().unwrap_or("") };
                prop_assert_eq!(rebuilt, after);
            }
        } else {
            prop_assert!(result.files.as_ref().is_none_or(|f| f.is_empty()));
            prop_assert!(!result.headline().is_empty());
        }
        // The JSON a host receives always serialises.
        prop_assert!(serde_json::to_string(&result.to_json()).is_ok());
    }

    #[test]
    fn any_request_text_gets_a_structured_answer(text in ".{0,200}") {
        let files: BTreeMap<String, String> = BTreeMap::new();
        let result = Session::new().call_json(&text, &files);
        prop_assert!(result.ok || result.error.is_some());
    }

    #[test]
    fn str_replace_with_tricky_strings((file, old, new) in (tricky_text(), tricky_text(), tricky_text()), strict in any::<bool>()) {
        let mut files = BTreeMap::new();
        files.insert("a.txt".to_string(), file.clone());
        let result = Session::new().call(&json!({"tool": "str_replace", "arguments": {
            "path": "a.txt", "old_str": old, "new_str": new, "strict": strict}}), &files);
        if result.ok {
            let change = &result.files.as_ref().unwrap()[0];
            prop_assert_eq!(apply_edits(&file, &change.edits), change.new_text.clone().unwrap());
        }
    }
}
