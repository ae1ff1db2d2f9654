//! Runs every case of the conformance corpus (`tests/corpus/`, see its README) through
//! the engine and fails on any wrong write, wrong refusal or missed check.

use anchored_edit::{apply_edits, decode_bytes, encode_text, CallOptions, Files, Session};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus")
}

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus dir")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            case_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

/// A case's files: texts (`files`), or bytes when the case has `files_base64` (its
/// `files` then given as their UTF-8 bytes), read as a disk is.
enum CaseFiles {
    Texts(BTreeMap<String, String>),
    Bytes(BTreeMap<String, Vec<u8>>),
}

impl CaseFiles {
    fn of(case: &Value) -> CaseFiles {
        let texts: BTreeMap<String, String> = case["files"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect();
        let Some(encoded) = case["files_base64"].as_object() else {
            return CaseFiles::Texts(texts);
        };
        let mut bytes: BTreeMap<String, Vec<u8>> = texts
            .into_iter()
            .map(|(k, v)| (k, v.into_bytes()))
            .collect();
        for (k, v) in encoded {
            bytes.insert(k.clone(), base64(v.as_str().unwrap_or_default()));
        }
        CaseFiles::Bytes(bytes)
    }

    fn reader(&self) -> &dyn Files {
        match self {
            CaseFiles::Texts(t) => t,
            CaseFiles::Bytes(b) => b,
        }
    }

    /// The text the engine edits for `path` (bytes decoded with the call's `encoding`).
    fn text(&self, path: &str, encoding: Option<&str>) -> String {
        match self {
            CaseFiles::Texts(t) => t.get(path).cloned().unwrap_or_default(),
            CaseFiles::Bytes(b) => b
                .get(path)
                .and_then(|bytes| decode_bytes(path, bytes, encoding).ok())
                .map(|(text, _)| text)
                .unwrap_or_default(),
        }
    }
}

/// Standard base64 (the corpus's `files_base64`), decoded.
fn base64(s: &str) -> Vec<u8> {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|c| *c != b'=' && !c.is_ascii_whitespace()) {
        let v = ABC
            .iter()
            .position(|x| *x == c)
            .expect("a base64 character") as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Whether `path` came out as the case expects: its bytes (`expect.files_base64`,
/// `new_text` encoded as the result says) or its text (`expect.files`).
fn came_out(expect: &Value, path: &str, after: &Value, encoding: Option<&str>) -> Option<String> {
    if let Some(want) = expect["files_base64"].get(path) {
        let got = after.as_str().map(|t| encode_text(t, encoding));
        return match (want.as_str(), got) {
            (Some(b), Some(Ok(bytes))) if base64(b) == bytes => None,
            (None, None) if want.is_null() => None,
            (_, got) => Some(format!(
                "WRONG WRITE in {path}:\n  expected bytes {want}\n  got {got:?} (encoding {encoding:?})"
            )),
        };
    }
    match expect["files"].get(path) {
        None => Some(format!(
            "WRONG WRITE: {path} changed but the case expects it untouched"
        )),
        Some(want) if want != after => Some(format!(
            "WRONG WRITE in {path}:\n  expected {want}\n  got      {after}"
        )),
        _ => None,
    }
}

/// Checks one case; returns a description of every way it failed. A case with `steps`
/// runs them in one session, in order (the corpus README, "Sequences").
fn check_case(case: &Value) -> Vec<String> {
    match case["steps"].as_array() {
        Some(steps) => check_steps(case, steps),
        None => {
            let files = CaseFiles::of(case);
            check_call(&mut Session::new(), &case["call"], &case["expect"], &files).0
        }
    }
}

/// A sequence: each call step checked like a case, on the files the steps before left.
fn check_steps(case: &Value, steps: &[Value]) -> Vec<String> {
    let CaseFiles::Texts(mut files) = CaseFiles::of(case) else {
        return vec!["a sequence's files are texts (files_base64 is for single calls)".into()];
    };
    let mut session = Session::new();
    // The files after each step; 0 = the initial files.
    let mut states = vec![files.clone()];
    let mut problems = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        if let Some(edit) = step["host_edit"].as_object() {
            for (path, text) in edit {
                match text.as_str() {
                    Some(t) => files.insert(path.clone(), t.to_string()),
                    None => files.remove(path),
                };
            }
        } else {
            let call = substitute_versions(&step["call"], &states);
            let now = CaseFiles::Texts(files.clone());
            let (found, result) = check_call(&mut session, &call, &step["expect"], &now);
            problems.extend(found.into_iter().map(|p| format!("step {}: {p}", i + 1)));
            if result.ok && result.dry_run != Some(true) {
                apply_result(&mut files, &result);
            }
        }
        states.push(files.clone());
    }
    problems
}

/// The call with every `"$version:<path>@<N>"` string replaced by the version of that
/// path's text after step N (0: the initial files).
fn substitute_versions(call: &Value, states: &[BTreeMap<String, String>]) -> Value {
    match call {
        Value::String(s) => match s.strip_prefix("$version:").and_then(|r| r.rsplit_once('@')) {
            Some((path, n)) => {
                let n: usize = n.parse().expect("a step number after @");
                let text = states[n].get(path).map(String::as_str).unwrap_or("");
                Value::String(anchored_edit::text::version_of(text))
            }
            None => call.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|v| substitute_versions(v, states)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), substitute_versions(v, states)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Lands a result's changes on the files, as a host does.
fn apply_result(files: &mut BTreeMap<String, String>, result: &anchored_edit::ToolResult) {
    for change in result.files.iter().flatten() {
        let text = change.new_text.clone().unwrap_or_default();
        if change.deleted {
            files.remove(&change.path);
        } else if let Some(dest) = &change.moved_to {
            files.remove(&change.path);
            files.insert(dest.clone(), text);
        } else {
            files.insert(change.path.clone(), text);
        }
    }
}

/// Runs one call in `session` on `files` and checks it against `expect`.
fn check_call(
    session: &mut Session,
    call: &Value,
    expect: &Value,
    files: &CaseFiles,
) -> (Vec<String>, anchored_edit::ToolResult) {
    let mut problems = Vec::new();
    let before = session.clone();
    let result = session.call(call, files.reader());
    let want_ok = expect["ok"].as_bool().unwrap_or(false);
    if result.ok != want_ok {
        problems.push(format!(
            "ok is {}, expected {want_ok}: {}",
            result.ok,
            result.headline()
        ));
        return (problems, result);
    }
    let changes = result.files.clone().unwrap_or_default();
    if result.ok {
        problems.extend(check_host_contract(before, call, files, &result));
    }
    if want_ok {
        let expected: Vec<String> = ["files", "files_base64"]
            .iter()
            .flat_map(|k| expect[*k].as_object().into_iter().flatten())
            .map(|(k, _)| k.clone())
            .collect();
        for change in &changes {
            let after = if change.deleted || change.moved_to.is_some() {
                Value::Null
            } else {
                Value::String(change.new_text.clone().unwrap_or_default())
            };
            let encoding = change.encoding.as_deref();
            problems.extend(came_out(expect, &change.path, &after, encoding));
            if let Some(dest) = &change.moved_to {
                let moved = Value::String(change.new_text.clone().unwrap_or_default());
                if let Some(p) = came_out(expect, dest, &moved, encoding) {
                    problems.push(format!("move to {dest}: {p}"));
                }
            }
        }
        for path in &expected {
            let touched = changes
                .iter()
                .any(|c| &c.path == path || c.moved_to.as_deref() == Some(path.as_str()));
            if !touched {
                problems.push(format!("{path} was expected to change but did not"));
            }
        }
        if let Some(via) = expect["matched_via"].as_str() {
            if result.matched_via.as_deref() != Some(via) {
                problems.push(format!(
                    "matched_via {:?}, expected {via:?}",
                    result.matched_via
                ));
            }
        }
        for w in strings(&expect["warnings_contain"]) {
            if !result.warnings.iter().any(|x| x.contains(&w)) {
                problems.push(format!("no warning contains {w:?}: {:?}", result.warnings));
            }
        }
        problems.extend(check_read(expect, &result));
    } else {
        if !changes.is_empty() {
            problems.push("a refused call reported changed files".into());
        }
        let kind = result.error_kind().map(|k| k.as_str()).unwrap_or("");
        if Some(kind) != expect["error_kind"].as_str() {
            problems.push(format!(
                "error kind {kind:?}, expected {}: {}",
                expect["error_kind"],
                result.headline()
            ));
        }
        let diagnostics = result.error.as_ref().map(|e| &e.diagnostics);
        for key in strings(&expect["diagnostics_keys"]) {
            if diagnostics.and_then(|d| d.get(&key)).is_none() {
                problems.push(format!("diagnostics lack {key:?}: {diagnostics:?}"));
            }
        }
    }
    for m in strings(&expect["message_contains"]) {
        if !result.headline().contains(&m) {
            problems.push(format!("message lacks {m:?}: {}", result.headline()));
        }
    }
    (problems, result)
}

/// What every host relies on: the edits rebuild `new_text` from the text it gave, and
/// a dry run of the same call computes exactly the same changes.
fn check_host_contract(
    mut session: Session,
    call: &Value,
    files: &CaseFiles,
    result: &anchored_edit::ToolResult,
) -> Vec<String> {
    let mut problems = Vec::new();
    let encoding = call["arguments"]["encoding"].as_str();
    for change in result.files.iter().flatten() {
        let before = files.text(&change.path, encoding);
        let rebuilt = apply_edits(&before, &change.edits);
        // A move is reported on its source: the edits turn the source's text into the
        // text that now stands at the destination.
        let want = if change.deleted {
            ""
        } else {
            change.new_text.as_deref().unwrap_or("")
        };
        if rebuilt != want {
            problems.push(format!(
                "edits for {} do not rebuild new_text: {rebuilt:?} vs {want:?}",
                change.path
            ));
        }
    }
    // Whether the tool edits is its annotation's to say (readOnlyHint), never the
    // schema's shape; the dry run is the host's option, never a rewritten request.
    if edits(&result.tool) && result.dry_run == Some(false) {
        let options = CallOptions {
            dry_run: true,
            ..CallOptions::default()
        };
        let dry = session.call_with(call, files.reader(), &options);
        if dry.files != result.files || dry.matched_via != result.matched_via {
            problems.push("the dry run computed different changes than the commit".into());
        }
        if dry.dry_run != Some(true) {
            problems.push("the dry run did not say dry_run: true".into());
        }
    }
    problems
}

/// Whether `tool` edits files, read from its annotations (`readOnlyHint`).
fn edits(tool: &str) -> bool {
    anchored_edit::tools::spec(tool).is_some_and(|s| !s.annotations.read_only)
}

/// Fields of a result that are not what a reading tool read: the call's outcome, its
/// messages, and `path`/`version` (the version is a hash of the text, pinned by the
/// engine's own tests).
const NOT_READ: &[&str] = &[
    "ok",
    "tool",
    "dry_run",
    "matched_via",
    "message",
    "warnings",
    "path",
    "version",
    "files",
    "error",
];

/// A reading tool's success must state what it read (`expect.read`): every field of the
/// result outside [`NOT_READ`] must be listed there with exactly the result's value.
fn check_read(expect: &Value, result: &anchored_edit::ToolResult) -> Vec<String> {
    let mut problems = Vec::new();
    let stated = expect["read"].as_object();
    if edits(&result.tool) {
        if stated.is_some() {
            problems.push(format!(
                "expect.read is for reading tools; {} edits",
                result.tool
            ));
        }
        return problems;
    }
    let Some(stated) = stated else {
        return vec![format!(
            "a reading tool's case must state what it read in expect.read: {}",
            result.to_llm_json()
        )];
    };
    let got = result.to_llm_json();
    for (field, value) in got.as_object().into_iter().flatten() {
        if NOT_READ.contains(&field.as_str()) {
            continue;
        }
        match stated.get(field) {
            None => problems.push(format!(
                "expect.read lacks {field:?} (the result has {value})"
            )),
            Some(want) if want != value => problems.push(format!(
                "read {field:?}:\n  expected {want}\n  got      {value}"
            )),
            _ => {}
        }
    }
    for field in stated.keys() {
        if got.get(field).is_none() {
            problems.push(format!(
                "expect.read states {field:?}, which the result lacks"
            ));
        }
    }
    problems
}

fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(String::from))
            .collect(),
        _ => Vec::new(),
    }
}

/// Every case of the corpus, named `file#name`, in file order.
fn all_cases() -> Vec<(String, Value)> {
    let mut paths = Vec::new();
    case_files(&corpus_dir(), &mut paths);
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable case file");
        let parsed: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: invalid JSON: {e}", path.display()));
        let cases = match parsed {
            Value::Array(a) => a,
            one => vec![one],
        };
        let rel = path
            .strip_prefix(corpus_dir())
            .unwrap_or(&path)
            .display()
            .to_string();
        for case in cases {
            out.push((
                format!("{rel}#{}", case["name"].as_str().unwrap_or("?")),
                case,
            ));
        }
    }
    out
}

#[test]
fn corpus() {
    let mut total = 0;
    let mut failures = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for (name, case) in all_cases() {
        total += 1;
        assert!(names.insert(name.clone()), "duplicate case name {name}");
        let problems = check_case(&case);
        if !problems.is_empty() {
            failures.push(format!("{name}\n    {}", problems.join("\n    ")));
        }
    }
    assert!(total > 0, "no corpus cases found");
    assert_none_failed(&failures, total, "corpus cases failed");
    eprintln!("corpus: {total} cases passed");
}

/// Every single-call case on kept strings (the same `Arc<String>` call after call, as
/// editors' kept buffers and the servers' read caches hand them): the second and third
/// calls, which reuse what the first call's texts computed (`text::Kept`: line index,
/// every line's hash, the line map), give exactly the first call's result.
#[test]
fn a_kept_string_met_again_gives_the_same_result() {
    let (mut total, mut failures) = (0, Vec::new());
    for (name, case) in all_cases().iter().filter(|(_, c)| c["call"].is_object()) {
        let CaseFiles::Texts(texts) = CaseFiles::of(case) else {
            continue;
        };
        let files: BTreeMap<String, std::sync::Arc<String>> = texts
            .into_iter()
            .map(|(k, v)| (k, std::sync::Arc::new(v)))
            .collect();
        // Clones of one fresh session: the same state before each call, one `Kept`.
        let fresh = Session::new();
        let results: Vec<Value> = (0..3)
            .map(|_| fresh.clone().call(&case["call"], &files).to_json())
            .collect();
        total += 1;
        if results[1] != results[0] || results[2] != results[0] {
            failures.push(format!(
                "{name}: first {}\n  second {}\n  third {}",
                results[0], results[1], results[2]
            ));
        }
    }
    assert!(total > 100, "{total} cases");
    assert_none_failed(&failures, total, "differ");
}

/// Fails with every failure listed, and how many of `total` they are.
fn assert_none_failed(failures: &[String], total: usize, what: &str) {
    assert!(
        failures.is_empty(),
        "{} of {total} {what}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
