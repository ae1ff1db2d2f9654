//! Properties of apply_patch and multi_replace through the public API: they never
//! panic on any input, and the unified diff the engine reports for any change, applied
//! by apply_patch to the old text, gives back the new text.

use anchored_edit::{Session, ToolResult};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn call(files: &BTreeMap<String, String>, tool: &str, arguments: Value) -> ToolResult {
    Session::new().call(&json!({"tool": tool, "arguments": arguments}), files)
}

fn one_file(path: &str, text: &str) -> BTreeMap<String, String> {
    BTreeMap::from([(path.to_string(), text.to_string())])
}

/// Texts made of lines that stress the grammar: diff markers, `\r`, blanks, no final newline.
fn tricky_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just(String::new()),
        Just(" ".to_string()),
        Just("-".to_string()),
        Just("--- a".to_string()),
        Just("+++ b".to_string()),
        Just("@@ -1 +1 @@".to_string()),
        Just("*** End Patch".to_string()),
        Just("\\ x".to_string()),
        Just("a".to_string()),
        Just("b".to_string()),
        Just("fn f() {".to_string()),
        Just("}".to_string()),
        "[a-c \t]{0,4}",
        "\\PC{0,6}",
    ];
    let ending = prop_oneof![Just("\n"), Just("\n"), Just("\n"), Just("\r\n"), Just("\r")];
    (prop::collection::vec((line, ending), 0..12), any::<bool>()).prop_map(|(lines, cut)| {
        let mut s: String = lines.into_iter().map(|(l, e)| format!("{l}{e}")).collect();
        if cut && s.ends_with('\n') {
            s.pop();
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    /// The diff reported for old → new, applied to old, gives new.
    #[test]
    fn reported_diff_applies_back(old in tricky_text(), new in tricky_text()) {
        prop_assume!(old != new);
        let files = one_file("f.txt", &old);
        let written = call(&files, "create_file", json!({"path": "f.txt", "content": new, "overwrite": true}));
        prop_assert!(written.ok, "{}", written.headline());
        let diff = written.files.as_ref().unwrap()[0].diff.clone();
        let applied = call(&files, "apply_patch", json!({"patch": diff}));
        prop_assert!(applied.ok, "diff {:?} refused: {}", diff, applied.headline());
        let change = &applied.files.as_ref().unwrap()[0];
        prop_assert_eq!(change.new_text.as_deref(), Some(new.as_str()), "diff {:?}", diff);
        // Our own diffs are well formed: nothing about them needed tolerating.
        let tolerated = applied.warnings.iter().any(|w| w.contains("counts") || w.contains("no leading space"));
        prop_assert!(!tolerated, "diff {:?}: {:?}", diff, applied.warnings);
    }

    /// Any text as a patch: a result, never a panic, and a refusal changes nothing.
    #[test]
    fn apply_patch_never_panics(patch in "\\PC*", file in tricky_text()) {
        let r = call(&one_file("a.txt", &file), "apply_patch", json!({"patch": patch}));
        if !r.ok {
            prop_assert!(r.files.as_ref().is_none_or(Vec::is_empty));
        }
    }

    /// Patch-shaped text: markers, hunks and paths shuffled.
    #[test]
    fn patch_like_text_never_panics(lines in prop::collection::vec(patch_line(), 0..16), file in tricky_text()) {
        let patch = lines.join("\n");
        let files = BTreeMap::from([("a.txt".to_string(), file.clone()), ("b.txt".to_string(), file)]);
        let r = call(&files, "apply_patch", json!({"patch": patch}));
        if !r.ok {
            prop_assert!(r.files.as_ref().is_none_or(Vec::is_empty));
        }
    }

    /// Any JSON as `replacements`: a result, never a panic.
    #[test]
    fn multi_replace_never_panics_on_json(value in json_value(), atomic in any::<bool>()) {
        let files = one_file("a.txt", "x = 1\ny = 2\nx = 1\n");
        let _ = call(&files, "multi_replace", json!({"replacements": value, "atomic": atomic}));
        let _ = call(&files, "multi_replace", json!({"replacements": value.to_string()}));
    }

    /// XML-shaped text as `replacements`: a result, never a panic.
    #[test]
    fn multi_replace_never_panics_on_xml(parts in prop::collection::vec(xml_piece(), 0..14)) {
        let files = one_file("a.txt", "x = 1\ny = 2\n");
        let xml = parts.concat();
        let _ = call(&files, "multi_replace", json!({"replacements": xml, "atomic": false}));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The same on files large enough that the diff is cut into stretches.
    #[test]
    fn reported_diff_of_a_large_file_applies_back(edits in prop::collection::vec((0usize..7000, 0u8..4, "[a-c{} ]{0,3}"), 1..14)) {
        let old: String = (0..7000)
            .map(|i| match i % 9 {
                0 => "\n".to_string(),
                4 => "}\n".to_string(),
                _ => format!("  call_{}();\n", i % 50),
            })
            .collect();
        let mut lines: Vec<String> = old.lines().map(str::to_string).collect();
        for (at, kind, text) in edits {
            let at = at.min(lines.len() - 1);
            match kind {
                0 => lines[at] = text,
                1 => lines.insert(at, text),
                2 => { lines.remove(at); }
                _ => {
                    let next = (at + 1).min(lines.len() - 1);
                    lines.swap(at, next);
                }
            }
        }
        let new: String = lines.iter().map(|l| format!("{l}\n")).collect();
        prop_assume!(old != new);
        let files = one_file("big.txt", &old);
        let written = call(&files, "create_file", json!({"path": "big.txt", "content": new, "overwrite": true}));
        prop_assert!(written.ok, "{}", written.headline());
        let diff = written.files.as_ref().unwrap()[0].diff.clone();
        prop_assert!(diff.len() < 20_000, "diff of {} bytes", diff.len());
        let applied = call(&files, "apply_patch", json!({"patch": diff}));
        prop_assert!(applied.ok, "refused: {}", applied.headline());
        let change = &applied.files.as_ref().unwrap()[0];
        prop_assert!(change.new_text.as_deref() == Some(new.as_str()));
    }
}

fn patch_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("*** Begin Patch".to_string()),
        Just("*** End Patch".to_string()),
        Just("*** Update File: a.txt".to_string()),
        Just("*** Add File: c.txt".to_string()),
        Just("*** Delete File: b.txt".to_string()),
        Just("*** Move to: d.txt".to_string()),
        Just("*** End of File".to_string()),
        Just("@@".to_string()),
        Just("@@ a @@".to_string()),
        Just("@@ -1,2 +1,3 @@".to_string()),
        Just("--- a/a.txt".to_string()),
        Just("+++ b/a.txt".to_string()),
        Just("--- /dev/null".to_string()),
        Just("diff --git a/a.txt b/e.txt".to_string()),
        Just("rename from a.txt".to_string()),
        Just("rename to e.txt".to_string()),
        Just("\\ No newline at end of file".to_string()),
        Just("```".to_string()),
        Just("<<'EOF'".to_string()),
        Just("EOF".to_string()),
        Just(String::new()),
        "[ +-][a-c]{0,3}\r?",
        "\\PC{0,8}",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        prop_oneof![
            Just("a.txt".to_string()),
            Just("x = 1".to_string()),
            Just("x = 2".to_string()),
            "\\PC{0,10}"
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        let key = prop_oneof![
            Just("path".to_string()),
            Just("old_str".to_string()),
            Just("new_str".to_string()),
            Just("oldString".to_string()),
            Just("occurrence".to_string()),
            Just("replace_all".to_string()),
            Just("between_hint".to_string()),
            Just("expected_version".to_string()),
            "[a-z_]{1,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key, inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn xml_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<replacements>".to_string()),
        Just("</replacements>".to_string()),
        Just("<replacement>".to_string()),
        Just("</replacement>".to_string()),
        Just("<path>a.txt</path>".to_string()),
        Just("<old_str>x = 1</old_str>".to_string()),
        Just("<new_str>x = 2</new_str>".to_string()),
        Just("<oldString><![CDATA[y = 2]]></oldString>".to_string()),
        Just("<new_str/>".to_string()),
        Just("<between_hint><start>x</start><end>y</end></between_hint>".to_string()),
        Just("<occurrence>2</occurrence>".to_string()),
        Just("<![CDATA[".to_string()),
        Just("]]>".to_string()),
        Just("&lt;&amp;&#x41;&#99999999;&".to_string()),
        Just("<!-- c -->".to_string()),
        Just("<replacement path='a.txt'>".to_string()),
        Just("<".to_string()),
        Just("</".to_string()),
        "\\PC{0,6}",
    ]
}

#[test]
fn dry_run_reports_what_a_commit_writes() {
    let files = one_file("a.py", "def f():\n    return 1\n");
    let patch = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch";
    let dry = call(
        &files,
        "apply_patch",
        json!({"patch": patch, "dry_run": true}),
    );
    let real = call(&files, "apply_patch", json!({"patch": patch}));
    assert!(dry.ok && real.ok);
    assert_eq!(dry.dry_run, Some(true));
    assert_eq!(dry.files, real.files);
    assert!(dry.headline().starts_with("Dry run"));
}

#[test]
fn apply_patch_reports_moves_once_with_their_text() {
    let files = one_file("old/name.py", "a = 1\n");
    let r = call(
        &files,
        "apply_patch",
        json!({"patch": "*** Begin Patch\n*** Update File: old/name.py\n*** Move to: new/name.py\n@@\n-a = 1\n+a = 2\n*** End Patch"}),
    );
    assert!(r.ok, "{}", r.headline());
    let changes = r.files.unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].path, "old/name.py");
    assert_eq!(changes[0].moved_to.as_deref(), Some("new/name.py"));
    assert_eq!(changes[0].new_text.as_deref(), Some("a = 2\n"));
    assert!(changes[0]
        .diff
        .contains("--- a/old/name.py\n+++ b/new/name.py\n"));
    assert!(r
        .message
        .unwrap()
        .contains("moved old/name.py to new/name.py"));
}

#[test]
fn multi_replace_results_report_each_item() {
    let files = BTreeMap::from([
        ("a.py".to_string(), "x = 1\n".to_string()),
        ("b.py".to_string(), "y = 1\n".to_string()),
    ]);
    let r = call(
        &files,
        "multi_replace",
        json!({"atomic": false, "replacements": [
            {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"},
            {"path": "b.py", "old_str": "nope", "new_str": "z"},
            {"path": "b.py", "old_str": "y = 1", "new_str": "y = 2"}]}),
    );
    assert!(r.ok, "{}", r.headline());
    let results = r.extra["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["ok"], true);
    assert_eq!(results[1]["ok"], false);
    assert_eq!(results[1]["error"]["kind"], "no_match");
    assert!(results[1]["error"]["diagnostics"].is_object());
    assert_eq!(results[2]["ok"], true);
    assert_eq!(r.files.unwrap().len(), 2);
}

#[test]
fn multi_replace_atomic_failure_carries_full_diagnostics() {
    let files = one_file("a.py", "def f():\n    retries = 3\n    return retries\n");
    let r = call(
        &files,
        "multi_replace",
        json!({"replacements": [
            {"path": "a.py", "old_str": "def f():", "new_str": "def g():"},
            {"path": "a.py", "old_str": "    retries = 4\n    return retries\n", "new_str": "    return 4\n"}]}),
    );
    assert!(!r.ok);
    let e = r.error.unwrap();
    assert_eq!(e.kind.as_str(), "no_match");
    assert!(e.message.contains("Replacement 2 of 2"), "{}", e.message);
    let failed = &e.diagnostics["failed"][0];
    assert_eq!(failed["replacement"], 2);
    assert!(failed["diagnostics"]["closest"].is_object(), "{failed}");
    assert_eq!(e.diagnostics["results"][0]["ok"], true);
}

#[test]
fn multi_replace_checks_expected_version_against_the_text_before_the_batch() {
    let text = "a = 1\nb = 2\n";
    let files = one_file("a.py", text);
    let read = call(
        &files,
        "read_lines",
        json!({"path": "a.py", "start_line": 1, "end_line": 2}),
    );
    let version = read.version.unwrap();
    let r = call(
        &files,
        "multi_replace",
        json!({"replacements": [
            {"path": "a.py", "old_str": "a = 1", "new_str": "a = 3", "expected_version": version},
            {"path": "a.py", "old_str": "b = 2", "new_str": "b = 4", "expected_version": version}]}),
    );
    assert!(r.ok, "{}", r.headline());
    let stale = call(
        &files,
        "multi_replace",
        json!({"replacements": [{"path": "a.py", "old_str": "a = 1", "new_str": "a = 3", "expected_version": "0000"}]}),
    );
    assert_eq!(stale.error_kind().map(|k| k.as_str()), Some("stale_buffer"));
}
