//! The WebAssembly bindings seen from JavaScript: requests and readers are real JS values,
//! results are inspected and applied by JS code. Runs under `cargo test --target
//! wasm32-unknown-unknown` with `wasm-bindgen-test-runner` as the runner, in Node and, with
//! `WASM_BINDGEN_USE_BROWSER=1`, in headless Chromium (`scripts/test-wasm` runs both and
//! checks that each executed every test).
//!
//! What these pin: UTF-16 columns survive the boundary and apply correctly to JS
//! strings with non-ASCII text; refusals come back as values; the conversion loses
//! nothing against the engine's own JSON; statistics round-trip; `toolSchemas()` has
//! the MCP shape. Panic recovery needs the packaged JS wrapper and is tested in Node
//! and Chromium against `pkg/` (tests/js).

#![cfg(target_arch = "wasm32")]

use anchored_edit::wasm::{ignore_filter, tool_schemas, Session};
use js_sys::{Array, Function, Object, Reflect, JSON};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

/// `Session.call` as a JS host calls it, without options.
fn js_call(session: &mut Session, request: JsValue, files: JsValue) -> Result<JsValue, JsValue> {
    session.call(request, files, JsValue::UNDEFINED)
}

/// A JS function built from source (the same in Node and in a browser).
fn js_fn(args: &str, body: &str) -> Function {
    Function::new_with_args(args, body)
}

/// A JS reader `{read(path)}` over these files.
fn reader(files: &[(&str, &str)]) -> JsValue {
    let map = Object::new();
    for (path, text) in files {
        Reflect::set(&map, &JsValue::from_str(path), &JsValue::from_str(text)).unwrap();
    }
    js_fn(
        "files",
        "return { read: (p) => Object.prototype.hasOwnProperty.call(files, p) ? files[p] : undefined };",
    )
    .call1(&JsValue::NULL, &map)
    .unwrap()
}

/// A JS reader whose `read` runs `body` (with `p` the path).
fn reader_with(body: &str) -> JsValue {
    let read = js_fn("p", body);
    let obj = Object::new();
    Reflect::set(&obj, &JsValue::from_str("read"), &read).unwrap();
    obj.into()
}

/// A JS request object parsed from JSON text.
fn request(v: Value) -> JsValue {
    JSON::parse(&v.to_string()).unwrap()
}

fn get(v: &JsValue, path: &str) -> JsValue {
    let mut cur = v.clone();
    for key in path.split('.') {
        cur = match key.parse::<u32>() {
            Ok(i) => Reflect::get_u32(&cur, i).unwrap(),
            Err(_) => Reflect::get(&cur, &JsValue::from_str(key)).unwrap(),
        };
    }
    cur
}

fn get_str(v: &JsValue, path: &str) -> String {
    get(v, path)
        .as_string()
        .unwrap_or_else(|| panic!("{path} is not a string"))
}

fn get_num(v: &JsValue, path: &str) -> f64 {
    get(v, path)
        .as_f64()
        .unwrap_or_else(|| panic!("{path} is not a number"))
}

/// The JS value as serde JSON, through `JSON.stringify` (what a JS host would send on).
fn as_json(v: &JsValue) -> Value {
    serde_json::from_str(&JSON::stringify(v).unwrap().as_string().unwrap()).unwrap()
}

/// JSON equality where numbers are compared as JS compares them (`1.0` is `1`): the
/// engine writes an `f64` 1 as `1.0`, `JSON.stringify` as `1`.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// Whether every object inside `v` is a plain object or array (no Map, no BigInt, no
/// undefined), i.e. exactly what JSON can carry.
fn is_plain_json(v: &JsValue) -> bool {
    js_fn(
        "v",
        "const ok = (x) => x === null || ['string', 'boolean'].includes(typeof x) \
           || (typeof x === 'number' && Number.isFinite(x)) \
           || (Array.isArray(x) && x.every(ok)) \
           || (typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype \
               && Object.values(x).every(ok)); \
         return ok(v);",
    )
    .call1(&JsValue::NULL, v)
    .unwrap()
    .as_bool()
    .unwrap()
}

/// Applies a result's edits to a JS string the way an editor does: rows and UTF-16
/// columns, last edit first.
fn apply_edits_in_js(text: &str, edits: &JsValue) -> String {
    js_fn(
        "text, edits",
        "const starts = [0]; \
         for (let i = 0; i < text.length; i++) if (text[i] === '\\n') starts.push(i + 1); \
         const off = (p) => starts[p.row] + p.column; \
         let out = text; \
         for (const e of [...edits].reverse()) \
           out = out.slice(0, off(e.range.start)) + e.text + out.slice(off(e.range.end)); \
         return out;",
    )
    .call2(&JsValue::NULL, &JsValue::from_str(text), edits)
    .unwrap()
    .as_string()
    .unwrap()
}

/// The UTF-16 index of `needle` in `haystack`, as JS counts it.
fn js_index_of(haystack: &str, needle: &str) -> f64 {
    js_fn("h, n", "return h.indexOf(n);")
        .call2(
            &JsValue::NULL,
            &JsValue::from_str(haystack),
            &JsValue::from_str(needle),
        )
        .unwrap()
        .as_f64()
        .unwrap()
}

const UNICODE: &str = "# héllo 😀 wörld\nlet s = \"😀😀 世界 🎉\"; // 注释\n\tcafé = 1\n";

#[wasm_bindgen_test]
fn edit_columns_are_utf16_and_apply_to_js_strings() {
    // (old_str, new_str, row, the part of the line the minimal edit covers, its text)
    let cases = [
        ("世界", "world", 1, "世界", "world"),
        ("🎉", "🙂🙂", 1, "🎉", "🙂🙂"),
        ("注释", "comment", 1, "注释", "comment"),
        ("😀😀", "x", 1, "😀😀", "x"),
        // The edit is minimal: only the differing characters, after an emoji.
        ("wörld", "world", 0, "ö", "o"),
        ("\tcafé = 1", "\tCAFÉ = 1", 2, "café", "CAFÉ"),
    ];
    for (old, new, row, covered, text) in cases {
        let mut session = Session::new();
        let files = reader(&[("u.rs", UNICODE)]);
        let call = json!({"tool": "str_replace", "arguments": {"path": "u.rs", "old_str": old, "new_str": new}});
        let result = js_call(&mut session, request(call), files).unwrap();
        assert_eq!(get(&result, "ok"), JsValue::TRUE, "{old}");
        let expected = UNICODE.replacen(old, new, 1);
        assert_eq!(get_str(&result, "files.0.new_text"), expected);

        let edits = get(&result, "files.0.edits");
        assert_eq!(Array::from(&edits).length(), 1, "{old}: one minimal edit");
        let line = UNICODE.lines().nth(row).unwrap();
        let start = js_index_of(line, covered);
        assert!(start >= 0.0, "{covered} in {line}");
        let covered_units = js_fn("s", "return s.length;")
            .call1(&JsValue::NULL, &JsValue::from_str(covered))
            .unwrap()
            .as_f64()
            .unwrap();
        assert_eq!(get_num(&edits, "0.range.start.row"), row as f64, "{old}");
        assert_eq!(get_num(&edits, "0.range.start.column"), start, "{old}");
        assert_eq!(get_num(&edits, "0.range.end.row"), row as f64, "{old}");
        assert_eq!(
            get_num(&edits, "0.range.end.column"),
            start + covered_units,
            "{old}"
        );
        assert_eq!(get_str(&edits, "0.text"), text, "{old}");
        assert_eq!(apply_edits_in_js(UNICODE, &edits), expected, "{old}");
    }
}

#[wasm_bindgen_test]
fn multi_line_edits_apply_to_js_strings() {
    let text = "fn a() {\n    \"😀\"\n}\n// 世界\nfn b() {}\n";
    let calls = [
        json!({"tool": "insert", "arguments": {"path": "m.rs", "line": 2, "new_str": "    // 🎉 新\n"}}),
        json!({"tool": "str_replace", "arguments": {"path": "m.rs", "old_str": "    \"😀\"\n}\n// 世界", "new_str": "}"}}),
        // Leaves `fn a() {` open: allowed, the case is about positions, not balance.
        json!({"tool": "delete_lines", "arguments": {"path": "m.rs", "start_line": 2, "end_line": 4, "allow_unbalanced": true}}),
    ];
    for call in calls {
        let mut session = Session::new();
        let result = js_call(
            &mut session,
            request(call.clone()),
            reader(&[("m.rs", text)]),
        )
        .unwrap();
        assert_eq!(get(&result, "ok"), JsValue::TRUE, "{call}");
        let new_text = get_str(&result, "files.0.new_text");
        assert_eq!(
            apply_edits_in_js(text, &get(&result, "files.0.edits")),
            new_text,
            "{call}"
        );
    }
}

#[wasm_bindgen_test]
fn results_equal_the_engines_own_json() {
    let files = [("a.py", UNICODE), ("b.py", "x = 1\r\nx = 1\r\n")];
    let map: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let calls = [
        json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "世界", "new_str": "w", "dry_run": true}}),
        json!({"tool": "str_replace", "arguments": {"path": "b.py", "old_str": "x = 1", "new_str": "x = 2"}}),
        json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "let s = \"😀 世界\";", "new_str": "x"}}),
        json!({"tool": "grep_file", "arguments": {"path": "a.py", "pattern": "😀", "context": 1}}),
        json!({"tool": "read_lines", "arguments": {"path": "a.py", "start_line": 2, "end_line": 3}}),
        json!({"tool": "create_file", "arguments": {"path": "new/c.txt", "content": "ü\n"}}),
        json!({"tool": "get_edit_stats", "arguments": {}}),
        json!({"tool": "nope", "arguments": {}}),
    ];
    let mut native = anchored_edit::Session::new();
    let mut bound = Session::new();
    for call in calls {
        let want = native.call(&call, &map).to_json();
        let got = js_call(&mut bound, request(call.clone()), reader(&files)).unwrap();
        assert!(is_plain_json(&got), "{call}: not plain JSON");
        let got = as_json(&got);
        assert!(same_json(&got, &want), "{call}\n got {got}\nwant {want}");
    }
}

/// Texts cross into wasm through `TextEncoder.encodeInto` in slices (ASCII first, more
/// room when multi-byte characters come): every text must arrive intact.
#[wasm_bindgen_test]
fn texts_of_every_kind_cross_the_boundary_intact() {
    let texts = js_fn(
        "",
        "const big = 'abcdefgh\\n'.repeat(20000); \
         return [ \
           ['', ''], ['a', 'a'], ['é', 'é'], ['😀\\n', '😀\\n'], \
           [big, big], [big + '世界\\n', big + '世界\\n'], ['世界'.repeat(5000) + '\\n', null], \
           ['😀'.repeat(3000) + 'x\\n', null], ['\\ufeffa\\r\\nb', null], \
           ['a\\ud800b\\n', 'a\\ufffdb\\n'], ['\\udc00', '\\ufffd'] ];",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    for pair in Array::from(&texts).iter() {
        let pair = Array::from(&pair);
        let text = pair.get(0);
        let want = if pair.get(1).is_null() {
            text.clone()
        } else {
            pair.get(1)
        };
        let files = Object::new();
        Reflect::set(&files, &JsValue::from_str("t.txt"), &text).unwrap();
        let files = js_fn("files", "return { read: (p) => files[p] };")
            .call1(&JsValue::NULL, &files)
            .unwrap();
        let r = js_call(
            &mut Session::new(),
            request(json!({"tool": "get_document", "arguments": {"path": "t.txt"}})),
            files,
        )
        .unwrap();
        let len = text.as_string().map(|t| t.len()).unwrap_or(0);
        if len == 0 {
            // An empty file has no lines; get_document still answers.
            continue;
        }
        assert_eq!(get(&r, "ok"), JsValue::TRUE, "{len} bytes");
        assert_eq!(get(&r, "content"), want, "text of {len} bytes");
    }
}

#[wasm_bindgen_test]
fn new_text_can_be_left_out() {
    let files = [("a.py", UNICODE)];
    let edit = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "世界", "new_str": "w"}});
    let options = JSON::parse("{\"newText\": false}").unwrap();
    let without = Session::new()
        .call(request(edit.clone()), reader(&files), options)
        .unwrap();
    assert_eq!(get(&without, "files.0.new_text"), JsValue::UNDEFINED);
    let edits = get(&without, "files.0.edits");
    assert_eq!(
        apply_edits_in_js(UNICODE, &edits),
        UNICODE.replacen("世界", "w", 1)
    );
    // Any other options keep it.
    for options in [JsValue::UNDEFINED, JsValue::NULL, Object::new().into()] {
        let with = Session::new()
            .call(request(edit.clone()), reader(&files), options)
            .unwrap();
        assert!(get(&with, "files.0.new_text").is_string());
    }
}

#[wasm_bindgen_test]
fn a_request_as_json_text_means_the_same_as_the_object() {
    let call = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "😀 wörld", "new_str": "x", "dry_run": true}});
    let files = [("a.py", UNICODE)];
    let from_object = js_call(&mut Session::new(), request(call.clone()), reader(&files)).unwrap();
    let from_text = js_call(
        &mut Session::new(),
        JsValue::from_str(&call.to_string()),
        reader(&files),
    )
    .unwrap();
    assert_eq!(as_json(&from_object), as_json(&from_text));
    assert_eq!(get(&from_object, "dry_run"), JsValue::TRUE);
    assert!(get_str(&from_object, "files.0.new_text").contains("# héllo x\n"));
    // `undefined` members are dropped, as JSON.stringify (and so a JSON transport) does.
    let with_undefined = js_fn(
        "",
        "return {tool: 'line_count', arguments: {path: 'a.py', start_line: undefined}};",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let r = js_call(&mut Session::new(), with_undefined, reader(&files)).unwrap();
    assert_eq!(get(&r, "ok"), JsValue::TRUE);
    assert_eq!(get_num(&r, "line_count"), 3.0);
}

/// Refusals come back as `{ok: false, error: {kind, message}}` with `files: []`.
#[wasm_bindgen_test]
fn refusals_are_values() {
    let files = [("a.py", "a = 1\nb = 2\na = 1\n")];
    let edit = |args: Value| json!({"tool": "str_replace", "arguments": args});
    // (request, reader, kind, a piece of the message)
    let cases: Vec<(JsValue, JsValue, &str, &str)> = vec![
        (
            request(edit(json!({"path": "a.py", "old_str": "zzz", "new_str": "y"}))),
            reader(&files),
            "no_match",
            "a.py",
        ),
        (
            request(edit(json!({"path": "a.py", "old_str": "a = 1", "new_str": "y"}))),
            reader(&files),
            "ambiguous",
            "lines 1 and 3",
        ),
        (
            request(edit(json!({"path": "gone.py", "old_str": "a", "new_str": "b"}))),
            reader(&files),
            "file_not_found",
            "gone.py",
        ),
        (
            request(edit(json!({"path": "../x.py", "old_str": "a", "new_str": "b"}))),
            reader(&files),
            "path_outside_root",
            "..",
        ),
        (
            request(edit(json!({"path": "a.py", "old_sttr": "a", "new_str": "b"}))),
            reader(&files),
            "invalid_arguments",
            "old_str",
        ),
        (
            JsValue::from_str("{\"tool\": \"str_replace\", \"arguments\": {\"path\": \"a.py\", \"old_str\": \"a"),
            reader(&files),
            "invalid_arguments",
            "cut off",
        ),
        (
            js_fn("", "return {tool: 'str_replace', arguments: {path: 'a.py', old_str: 1n}};")
                .call0(&JsValue::NULL)
                .unwrap(),
            reader(&files),
            "invalid_arguments",
            "cannot be turned into JSON",
        ),
        (JsValue::UNDEFINED, reader(&files), "invalid_arguments", "not null"),
        // The host refuses a path by throwing an object with an engine error kind: that
        // kind and message reach the agent unchanged.
        (
            // (A relative path: the engine's own path rule refuses absolute ones first.)
            request(json!({"tool": "get_document", "arguments": {"path": "link/passwd"}})),
            reader_with(
                "throw Object.assign(new Error('link/passwd leads out of the workspace through a symlink; send a path inside it.'), {kind: 'path_outside_root'});",
            ),
            "path_outside_root",
            "leads out of the workspace through a symlink",
        ),
        // Any other thrown value: invalid_arguments naming the path and the reason.
        (
            request(json!({"tool": "get_document", "arguments": {"path": "img.png"}})),
            reader_with("throw new Error('binary file');"),
            "invalid_arguments",
            "could not read `img.png`: binary file",
        ),
        (
            request(json!({"tool": "get_document", "arguments": {"path": "img.png"}})),
            reader_with("throw {kind: 'not_a_kind', message: 'odd'};"),
            "invalid_arguments",
            "could not read `img.png`: odd",
        ),
        (
            request(json!({"tool": "get_document", "arguments": {"path": "n.txt"}})),
            reader_with("return 42;"),
            "invalid_arguments",
            "returned number, not text",
        ),
    ];
    for (req, files, kind, fragment) in cases {
        let described = JSON::stringify(&req)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_else(|| "a request JSON cannot carry".into());
        let result = js_call(&mut Session::new(), req, files).unwrap();
        assert!(is_plain_json(&result), "{described}");
        assert_eq!(get(&result, "ok"), JsValue::FALSE, "{described}");
        assert_eq!(get_str(&result, "error.kind"), kind, "{described}");
        let message = get_str(&result, "error.message");
        assert!(message.contains(fragment), "{described}: {message}");
        assert_eq!(Array::from(&get(&result, "files")).length(), 0);
    }
}

#[wasm_bindgen_test]
fn calls_without_a_reader_see_no_files() {
    let mut session = Session::new();
    let stats = js_call(
        &mut session,
        request(json!({"tool": "get_edit_stats"})),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(get(&stats, "ok"), JsValue::TRUE);
    let read = js_call(
        &mut session,
        request(json!({"tool": "get_document", "arguments": {"path": "a.py"}})),
        JsValue::NULL,
    )
    .unwrap();
    assert_eq!(get_str(&read, "error.kind"), "file_not_found");
}

/// A `files` argument that is not a reader is the host's bug, not the agent's: it throws.
#[wasm_bindgen_test]
fn a_files_argument_without_read_throws_a_type_error() {
    let call = request(json!({"tool": "line_count", "arguments": {"path": "a.py"}}));
    for files in [
        JsValue::from_str("a.py"),
        Object::new().into(),
        reader_with("return 'x';")
            .dyn_into::<Object>()
            .map(|o| {
                Reflect::set(&o, &JsValue::from_str("read"), &JsValue::from(3)).unwrap();
                o.into()
            })
            .unwrap(),
    ] {
        let thrown = js_call(&mut Session::new(), call.clone(), files).unwrap_err();
        assert!(thrown.is_instance_of::<js_sys::TypeError>());
    }
    // The session still works after the throw.
    let mut session = Session::new();
    let _ = js_call(&mut session, call.clone(), JsValue::from(1));
    let ok = js_call(&mut session, call, reader(&[("a.py", "x\n")])).unwrap();
    assert_eq!(get_num(&ok, "line_count"), 1.0);
}

#[wasm_bindgen_test]
fn statistics_round_trip() {
    let files = [("a.py", "a = 1\nb = 2\n")];
    let mut session = Session::new();
    let calls = [
        json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "b = 2", "new_str": "b = 3", "dry_run": true}}),
        json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "b = 2", "new_str": "b = 3"}}),
        json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "zzz", "new_str": "y"}}),
        json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "zzz", "new_str": "y"}}),
        json!({"tool": "grep_file", "arguments": {"path": "a.py", "pattern": "a"}}),
    ];
    for call in calls {
        js_call(&mut session, request(call), reader(&files)).unwrap();
    }
    let saved = session.stats_json();
    let stats: Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(stats["tools"]["str_replace"]["calls"], 4);
    assert_eq!(stats["tools"]["str_replace"]["refused"], 2);
    assert_eq!(stats["tools"]["str_replace"]["dry_runs_committed"], 1);

    let mut restored = Session::new();
    restored.load_stats(&saved).unwrap();
    assert_eq!(restored.stats_json(), saved);
    let summary = |s: &mut Session| {
        let r = js_call(
            s,
            request(json!({"tool": "get_edit_stats"})),
            JsValue::UNDEFINED,
        )
        .unwrap();
        get_str(&r, "summary")
    };
    assert_eq!(summary(&mut restored), summary(&mut session));
    // The refusal streak survives too: a third no_match in a row gets the advice.
    let third = js_call(&mut restored,
            request(json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "zzz", "new_str": "y"}})),
            reader(&files),
        )
        .unwrap();
    assert!(get_str(&third, "error.message").contains("3rd refused str_replace"));

    // Bad input is refused and changes nothing.
    let before = restored.stats_json();
    for bad in ["", "{", "[]", "{\"tools\": 3}"] {
        assert!(restored.load_stats(bad).is_err(), "{bad:?}");
        assert_eq!(restored.stats_json(), before);
    }
}

#[wasm_bindgen_test]
fn tool_schemas_have_the_mcp_shape() {
    let schemas = tool_schemas().unwrap();
    assert!(Array::is_array(&schemas));
    assert!(is_plain_json(&schemas));
    let engine = anchored_edit::tool_schemas();
    assert_eq!(as_json(&schemas), engine);
    let list = Array::from(&schemas);
    assert!(list.length() >= 9);
    for tool in list.iter() {
        let name = get_str(&tool, "name");
        assert!(!get_str(&tool, "description").is_empty(), "{name}");
        assert_eq!(get_str(&tool, "inputSchema.type"), "object", "{name}");
        assert!(get(&tool, "inputSchema.properties").is_object(), "{name}");
    }
    let names: Vec<String> = list.iter().map(|t| get_str(&t, "name")).collect();
    for expected in ["str_replace", "insert", "grep_file", "get_edit_stats"] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} in {names:?}"
        );
    }
}

/// A reader's optional `list(folder)` reaches the project tools; without it they refuse
/// saying the host cannot list; a list that is not an array of strings is refused; and
/// `ignoreFilter` applies the engine's ignore rules to a JS listing.
#[wasm_bindgen_test]
fn readers_list_files_for_the_project_tools() {
    let files = js_fn(
        "",
        "const files = {'.gitignore': 'gen/\\n', 'src/a.py': 'x = 1\\n', 'src/gen/b.py': 'x = 2\\n', '.env': 'x'};\
         const read = (p) => Object.prototype.hasOwnProperty.call(files, p) ? files[p] : undefined;\
         return { read, list: (folder) => Object.keys(files).filter((p) => folder === '' || p.startsWith(folder + '/')) };",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let filtered = ignore_filter(
        vec![
            "src/a.py".into(),
            "src/gen/b.py".into(),
            ".env".into(),
            ".gitignore".into(),
        ],
        files.clone(),
    )
    .unwrap();
    assert_eq!(filtered, vec!["src/a.py".to_string()]);
    let mut session = Session::new();
    // The reader's own list is taken as the host's answer (its ignore rules).
    let r = js_call(
        &mut session,
        request(json!({"tool": "grep_project", "arguments": {"pattern": "x ="}})),
        files,
    )
    .unwrap();
    assert_eq!(get_num(&r, "matches.length"), 2.0);
    let r = js_call(
        &mut session,
        request(json!({"tool": "list_files", "arguments": {}})),
        reader(&[("a.py", "x\n")]),
    )
    .unwrap();
    assert_eq!(get_str(&r, "error.kind"), "invalid_arguments");
    assert!(get_str(&r, "error.message").contains("cannot list files"));
    let bad = js_fn("", "return { read: () => undefined, list: () => 42 };")
        .call0(&JsValue::NULL)
        .unwrap();
    let r = js_call(
        &mut session,
        request(json!({"tool": "list_files", "arguments": {}})),
        bad,
    )
    .unwrap();
    assert!(get_str(&r, "error.message").contains("not an array of paths"));
}

/// The scans every edit runs over whole texts, in the build the package ships (simd128,
/// which scripts/test-wasm turns on for these tests too), agree with plain loops on
/// lengths around every block size.
#[wasm_bindgen_test]
fn byte_scans_agree_with_plain_loops() {
    use anchored_edit::text::scan::{common_prefix_len, common_suffix_len, count_byte};
    let mut seed: u32 = 11;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    for len in [
        0usize,
        1,
        15,
        16,
        17,
        63,
        64,
        65,
        255 * 16,
        255 * 16 + 17,
        9000,
    ] {
        let a: Vec<u8> = (0..len)
            .map(|_| b"ab\n\r\xff"[(next() % 5) as usize])
            .collect();
        for byte in [b'\n', b'a', 0xff, 0] {
            let plain = a.iter().filter(|&&b| b == byte).count();
            assert_eq!(count_byte(&a, byte), plain, "{len} {byte}");
        }
        for cut in [0, len / 3, len.saturating_sub(1)] {
            let mut b = a.clone();
            if let Some(x) = b.get_mut(cut) {
                *x = b'#';
            }
            let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            let suffix = a
                .iter()
                .rev()
                .zip(b.iter().rev())
                .take_while(|(x, y)| x == y)
                .count();
            assert_eq!(common_prefix_len(&a, &b), prefix, "{len} {cut}");
            assert_eq!(common_suffix_len(&a, &b), suffix, "{len} {cut}");
            assert_eq!(
                common_prefix_len(&a, &b[..b.len() / 2]),
                prefix.min(len / 2)
            );
        }
    }
}
