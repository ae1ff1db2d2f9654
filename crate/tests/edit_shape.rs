//! The signature-change warning: a change inside a body never names the signature; a
//! change of the header line does. One row per language shape of a function header.

use anchored_edit::Session;
use serde_json::json;
use std::collections::BTreeMap;

/// (file, text, old_str, new_str, whether the signature warning must appear)
const CASES: &[(&str, &str, &str, &str, bool)] = &[
    (
        "a.py",
        "class Pool:\n    def connect(self, host):\n        retries = 3\n        return host\n",
        "retries = 3",
        "retries = 5",
        false,
    ),
    (
        "a.py",
        "def f():\n    x = 1\n    y = 2\n    return x + y\n",
        "    x = 1\n",
        "    x = 10\n",
        false,
    ),
    (
        "a.py",
        "def f():\n    x = 1\n    y = 2\n    return x + y\n",
        "def f():",
        "def f(z):",
        true,
    ),
    (
        "a.rs",
        "fn f(a: u32) -> u32 {\n    let b = a + 1;\n    b * 2\n}\n",
        "let b = a + 1;",
        "let b = a + 2;",
        false,
    ),
    (
        "a.rs",
        "fn f(a: u32) -> u32 {\n    let b = a + 1;\n    b * 2\n}\n",
        "fn f(a: u32)",
        "fn f(a: u64)",
        true,
    ),
    (
        "a.c",
        "int f(int a)\n{\n    int b = a + 1;\n    return b * 2;\n}\n",
        "int b = a + 1;",
        "int b = a + 2;",
        false,
    ),
];

#[test]
fn the_signature_warning_names_header_changes_only() {
    for (path, text, old, new, warned) in CASES {
        let files = BTreeMap::from([(path.to_string(), text.to_string())]);
        let r = Session::new().call(
            &json!({"tool": "str_replace", "arguments": {"path": path, "old_str": old, "new_str": new}}),
            &files,
        );
        assert!(r.ok, "{path}: {}", r.headline());
        let got = r.warnings.iter().any(|w| w.contains("The signature of"));
        assert_eq!(got, *warned, "{path} {old:?} → {new:?}: {:?}", r.warnings);
    }
}
