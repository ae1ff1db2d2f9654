//! The peers' own SEARCH/REPLACE test inputs (Roo's multi-search-replace specs, Cline's
//! diff tests, aider's editblock tests; extracted as data into tests/dialects/peers.json,
//! each with its source file) sent as blocks through the harness's tool, with unique-only
//! outcomes: each case's `expect` is `apply` (the text must then be the peer's expected
//! text, or `content` where they differ) or `refuse`. Where the outcome differs from the
//! peer's, `why` says why: a fuzzy-similarity match, several matches, a tolerance.

use anchored_edit::Session;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const PEERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/dialects/peers.json");

/// The call a peer's case is sent as, and the file it edits.
fn call(peer: &str, diff: &str) -> (Value, &'static str) {
    match peer {
        "roo" => (
            json!({"tool": "apply_diff", "arguments": {"path": "test.ts", "diff": diff}}),
            "test.ts",
        ),
        "cline" => (
            json!({"tool": "replace_in_file", "arguments": {"path": "test.ts", "diff": diff}}),
            "test.ts",
        ),
        _ => (
            json!({"tool": "apply_patch", "arguments": {"patch": diff}}),
            "file.txt",
        ),
    }
}

#[test]
fn peers_search_replace_inputs_have_unique_only_outcomes() {
    let text = std::fs::read_to_string(PEERS).expect("tests/dialects/peers.json");
    let all: BTreeMap<String, Vec<Value>> = serde_json::from_str(&text).expect("JSON");
    let mut problems = Vec::new();
    let mut seen = 0;
    for (peer, cases) in &all {
        for case in cases {
            seen += 1;
            let name = format!("{peer}: {}", case["name"].as_str().unwrap_or("?"));
            let (request, path) = call(peer, case["diff"].as_str().unwrap_or_default());
            let mut files = BTreeMap::new();
            files.insert(
                path.to_string(),
                case["original"].as_str().unwrap_or_default().to_string(),
            );
            let result = Session::new().call(&request, &files);
            let got = result
                .files
                .iter()
                .flatten()
                .find(|f| f.path == path)
                .and_then(|f| f.new_text.clone());
            let want = case
                .get("content")
                .or(case.get("peer_content"))
                .and_then(Value::as_str);
            match case["expect"].as_str() {
                Some("apply") if !result.ok => {
                    problems.push(format!(
                        "{name}: expected it applied, got {:?}",
                        result.error
                    ));
                }
                Some("apply") => {
                    let text = got.as_deref().unwrap_or_default();
                    if want.is_some_and(|w| w != text) {
                        problems.push(format!("{name}: expected {want:?}, got {text:?}"));
                    }
                    let has = |key: &str| {
                        case[key]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                    };
                    for part in has("peer_contains") {
                        if !text.contains(part) {
                            problems.push(format!("{name}: the text lacks {part:?}"));
                        }
                    }
                    for part in has("peer_not_contains") {
                        if text.contains(part) {
                            problems.push(format!("{name}: the text has {part:?}"));
                        }
                    }
                    if want.is_none() && !case["peer_contains"].is_array() {
                        problems.push(format!("{name}: an applied case states its text"));
                    }
                }
                Some("refuse") => {
                    if result.ok {
                        problems.push(format!("{name}: expected a refusal, got {got:?}"));
                    }
                }
                other => problems.push(format!("{name}: expect is {other:?}, not apply or refuse")),
            }
            // A refusal here where the peer applies needs its reason; so does a text
            // other than the peer's.
            let differs = (result.ok != case["peer_ok"].as_bool().unwrap_or(false))
                || (case.get("content").is_some() && case.get("peer_content").is_some());
            if differs && !case["why"].is_string() {
                problems.push(format!("{name}: differs from the peer without a `why`"));
            }
        }
    }
    assert!(seen > 50, "{seen} cases");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
