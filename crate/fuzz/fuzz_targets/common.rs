//! Files every target runs against: shapes the engine treats specially (CRLF, a BOM, no
//! final newline, tabs, braces, Unicode), so that fuzzed calls reach past path checks.

use anchored_edit::ToolResult;
use std::collections::BTreeMap;

pub fn files() -> BTreeMap<String, String> {
    BTreeMap::from([
        (
            "a.py".to_string(),
            "import os\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n".to_string(),
        ),
        (
            "src/lib.rs".to_string(),
            "fn main() {\r\n\tlet x = \"a\\\\b\";\r\n\tprintln!(\"{x}\");\r\n}\r\n".to_string(),
        ),
        ("b.txt".to_string(), "\u{feff}héllo — “world”\nx = 1\ny = 2".to_string()),
        ("empty.txt".to_string(), String::new()),
    ])
}

/// What must hold for any result: a refusal carries no file changes, and every change
/// of a success names a file and has a diff or a new text.
pub fn check(result: &ToolResult) {
    let json = result.to_json();
    if !result.ok {
        assert!(
            result.files.as_ref().is_none_or(Vec::is_empty),
            "a refusal changed files: {json}"
        );
    }
    assert!(json.is_object());
}
