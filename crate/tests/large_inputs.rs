//! Large adversarial requests (issue 12): each must give the right answer; their time is
//! measured in `benches/engine.rs` ("large requests"), not here.

use anchored_edit::Session;
use serde_json::json;
use std::collections::BTreeMap;

/// Code-like lines that repeat (braces, bodies), as in real files.
fn code(lines: usize) -> String {
    (0..lines)
        .map(|i| match i % 8 {
            0 => format!("fn handler_{}() {{\n", i / 8),
            7 => "}\n".to_string(),
            _ => format!("    step_{}();\n", i % 5),
        })
        .collect()
}

#[test]
fn a_long_new_str_over_a_two_line_file_is_written_exactly() {
    let files = BTreeMap::from([("a.rs".to_string(), "fn main() {\n}\n".to_string())]);
    let long = code(60_000);
    let r = Session::new().call(
        &json!({"tool": "str_replace", "arguments": {"path": "a.rs", "old_str": "fn main() {\n}\n", "new_str": long}}),
        &files,
    );
    assert!(r.ok, "{}", r.headline());
    let change = &r.files.as_ref().unwrap()[0];
    assert_eq!(change.new_text.as_deref(), Some(long.as_str()));
    assert_eq!(change.line_count, 60_000);
}

#[test]
fn a_long_old_str_that_does_not_match_is_refused_with_diagnostics() {
    // A 50 000-line old_str with one line changed, against a 100 000-line file whose
    // lines repeat: the closest-area scan visits a bounded number of line pairs.
    let text = code(100_000);
    let mut needle: Vec<String> = code(50_000).lines().map(|l| format!("{l}\n")).collect();
    needle[25_001] = "    not_in_the_file();\n".to_string();
    let files = BTreeMap::from([("big.rs".to_string(), text.clone())]);
    let r = Session::new().call(
        &json!({"tool": "str_replace", "arguments": {"path": "big.rs", "old_str": needle.concat(), "new_str": "x", "strict": true}}),
        &files,
    );
    assert_eq!(
        r.error_kind().map(|k| k.as_str()),
        Some("no_match"),
        "{}",
        r.headline()
    );
}
