//! undo_edit's `undone`: applying each call's step in order, as an editor host does,
//! gives exactly the texts of the merged `files`.

use crate::result::{apply_edits, FileChange, ToolResult};
use crate::Session;
use serde_json::{json, Value};
use std::collections::BTreeMap;

type Texts = BTreeMap<String, String>;

/// Applies a result's changes the way a host does: by `edits` on the text there (never
/// by `new_text`), moves and deletions first, then the new texts. Each applied text must
/// equal the change's `new_text`.
fn apply(texts: &mut Texts, files: &[FileChange]) {
    let mut written = Vec::new();
    for f in files {
        let old = texts.get(&f.path).cloned().unwrap_or_default();
        if f.deleted {
            texts.remove(&f.path);
            continue;
        }
        let new = apply_edits(if f.created { "" } else { &old }, &f.edits);
        assert_eq!(
            Some(&new),
            f.new_text.as_ref(),
            "{}: edits and new_text differ",
            f.path
        );
        if let Some(dest) = &f.moved_to {
            texts.remove(&f.path);
            written.push((dest.clone(), new));
        } else {
            written.push((f.path.clone(), new));
        }
    }
    texts.extend(written);
}

fn call(session: &mut Session, texts: &mut Texts, tool: &str, arguments: Value) -> ToolResult {
    let r = session.call(&json!({"tool": tool, "arguments": arguments}), &*texts);
    assert!(r.ok, "{tool}: {}", r.headline());
    apply(texts, r.files.as_ref().expect("files"));
    r
}

fn patch(body: &str) -> Value {
    json!({"patch": format!("*** Begin Patch\n{body}*** End Patch\n")})
}

/// The steps of an undo_edit result, as `(tool, files)`.
fn steps(result: &ToolResult) -> Vec<(String, Vec<FileChange>)> {
    let undone = result.extra["undone"].as_array().expect("undone");
    undone
        .iter()
        .map(|s| {
            let files = s["files"].as_array().expect("files");
            let files = files.iter().map(file_change).collect();
            (s["tool"].as_str().expect("tool").to_string(), files)
        })
        .collect()
}

/// A FileChange back from its JSON (only what `apply` uses).
fn file_change(v: &Value) -> FileChange {
    let edits = v["edits"].as_array().expect("edits");
    FileChange {
        path: v["path"].as_str().expect("path").into(),
        diff: String::new(),
        edits: edits
            .iter()
            .map(|e| crate::result::Edit {
                range: crate::result::Range {
                    start: point(&e["range"]["start"]),
                    end: point(&e["range"]["end"]),
                },
                text: e["text"].as_str().expect("text").into(),
            })
            .collect(),
        line_delta: 0,
        line_count: 0,
        version: None,
        created: v["created"] == json!(true),
        deleted: v["deleted"] == json!(true),
        moved_to: v["moved_to"].as_str().map(String::from),
        encoding: None,
        new_text: v["new_text"].as_str().map(String::from),
    }
}

fn point(v: &Value) -> crate::text::Point {
    crate::text::Point {
        row: v["row"].as_u64().expect("row") as usize,
        column: v["column"].as_u64().expect("column") as usize,
    }
}

/// (what the case shows, initial files, calls (tool, arguments), the tools of the steps)
type Case = (
    &'static str,
    &'static [(&'static str, &'static str)],
    Vec<(&'static str, Value)>,
    &'static [&'static str],
);

#[test]
fn applying_the_steps_in_order_gives_the_merged_texts() {
    let cases: Vec<Case> = vec![
        (
            "two edits of one file",
            &[("a.py", "x = 1\ny = 2\n")],
            vec![
                (
                    "str_replace",
                    json!({"path": "a.py", "old_str": "x = 1", "new_str": "x = 10"}),
                ),
                (
                    "str_replace",
                    json!({"path": "a.py", "old_str": "x = 10\ny = 2", "new_str": "x = 10\ny = 20\nz = 3"}),
                ),
            ],
            &["str_replace", "str_replace"],
        ),
        (
            "a file created, then edited",
            &[],
            vec![
                ("create_file", json!({"path": "n.py", "content": "a = 1\n"})),
                (
                    "str_replace",
                    json!({"path": "n.py", "old_str": "a = 1", "new_str": "a = 2"}),
                ),
            ],
            &["str_replace", "create_file"],
        ),
        (
            "a file moved, then edited at its new path, then another file deleted",
            &[("a.py", "a = 1\n"), ("b.py", "b = 1\n")],
            vec![
                (
                    "apply_patch",
                    patch("*** Update File: a.py\n*** Move to: c.py\n@@\n-a = 1\n+a = 2\n"),
                ),
                (
                    "str_replace",
                    json!({"path": "c.py", "old_str": "a = 2", "new_str": "a = 3"}),
                ),
                ("apply_patch", patch("*** Delete File: b.py\n")),
            ],
            &["apply_patch", "str_replace", "apply_patch"],
        ),
        (
            "one step only",
            &[("a.py", "x = 1\n")],
            vec![(
                "str_replace",
                json!({"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}),
            )],
            &["str_replace"],
        ),
    ];
    for (what, initial, calls, tools) in cases {
        let start: Texts = initial
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let mut texts = start.clone();
        let mut session = Session::new();
        for (tool, arguments) in &calls {
            call(&mut session, &mut texts, tool, arguments.clone());
        }
        let args = json!({"steps": calls.len()});
        let u = session.call(&json!({"tool": "undo_edit", "arguments": args}), &texts);
        assert!(u.ok, "{what}: {}", u.headline());
        let mut merged = texts.clone();
        apply(&mut merged, u.files.as_ref().expect("files"));
        assert_eq!(merged, start, "{what}: the merged files");
        let mut stepped = texts.clone();
        let steps = steps(&u);
        for (_, files) in &steps {
            apply(&mut stepped, files);
        }
        assert_eq!(stepped, start, "{what}: the steps applied in order");
        let names: Vec<&str> = steps.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(names, tools, "{what}: newest call first");
        assert!(
            u.to_llm_json().get("undone").is_none(),
            "{what}: not for the LLM"
        );
    }
}

#[test]
fn the_steps_leave_out_new_text_when_the_host_does() {
    let mut texts: Texts = [("a.py".to_string(), "x = 1\n".to_string())].into();
    let mut session = Session::new();
    call(
        &mut session,
        &mut texts,
        "str_replace",
        json!({"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}),
    );
    let options = crate::CallOptions {
        dry_run: false,
        new_text: false,
    };
    let u = session.call_with(
        &json!({"tool": "undo_edit", "arguments": {}}),
        &texts,
        &options,
    );
    assert!(u.ok, "{}", u.headline());
    let step = &u.extra["undone"][0]["files"][0];
    assert!(step.get("new_text").is_none());
    assert_eq!(step["edits"][0]["text"], json!("1"));
}
