//! The placeholder guard's false refusals on real history: every hunk of
//! `tests/history/added-comments.txt` (hunks that add comment lines, extracted from the
//! histories of public repositories in Go, C, Python and Rust by
//! `scripts/extract-added-comments.py`; the file's header names them and their commits)
//! is sent through `apply_patch` (V4A and unified) and `str_replace` on a file that is the
//! hunk's old lines. Every one of them was written by a person on purpose, so none may be
//! refused as a placeholder (`placeholder_in_new_str`).

#![cfg(not(target_arch = "wasm32"))]

use anchored_edit::{Session, ToolResult};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

/// One hunk: where it comes from and its lines with their diff sign.
struct Record {
    origin: String,
    path: String,
    lines: Vec<String>,
}

fn records() -> Vec<Record> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/history/added-comments.txt");
    let text = std::fs::read_to_string(&file).expect("tests/history/added-comments.txt");
    let mut out: Vec<Record> = Vec::new();
    for line in text.lines() {
        if let Some(head) = line.strip_prefix("@ ") {
            let mut parts = head.splitn(3, ' ');
            let (name, commit, path) = (parts.next(), parts.next(), parts.next());
            out.push(Record {
                origin: format!("{} {}", name.unwrap_or(""), commit.unwrap_or("")),
                path: path.unwrap_or("").to_string(),
                lines: Vec::new(),
            });
        } else if let Some(r) = out.last_mut() {
            r.lines.push(line.to_string());
        }
    }
    out
}

fn side(r: &Record, skip: char) -> String {
    let mut s = String::new();
    for l in &r.lines {
        if !l.starts_with(skip) {
            s.push_str(&l[1..]);
            s.push('\n');
        }
    }
    s
}

fn call(files: &BTreeMap<String, String>, tool: &str, arguments: serde_json::Value) -> ToolResult {
    Session::new().call(&json!({"tool": tool, "arguments": arguments}), files)
}

#[test]
fn no_comment_added_by_real_commits_is_refused_as_a_placeholder() {
    let records = records();
    let mut comments = 0;
    let mut calls = 0;
    let mut refusals = Vec::new();
    for r in &records {
        comments += r
            .lines
            .iter()
            .filter(|l| {
                let t = l.trim_start_matches('+').trim_start();
                l.starts_with('+') && ["//", "#", "/*", "*"].iter().any(|c| t.starts_with(c))
            })
            .count();
        let (old, new) = (side(r, '+'), side(r, '-'));
        let files = BTreeMap::from([(r.path.clone(), old.clone())]);
        let body = r.lines.join("\n");
        let old_count = old.lines().count();
        let new_count = new.lines().count();
        let v4a = format!(
            "*** Begin Patch\n*** Update File: {}\n@@\n{body}\n*** End Patch\n",
            r.path
        );
        let unified = format!(
            "--- a/{0}\n+++ b/{0}\n@@ -1,{old_count} +1,{new_count} @@\n{body}\n",
            r.path
        );
        let mut results = vec![
            ("v4a", call(&files, "apply_patch", json!({"patch": v4a}))),
            (
                "unified",
                call(&files, "apply_patch", json!({"patch": unified})),
            ),
        ];
        if !old.trim().is_empty() {
            results.push((
                "str_replace",
                call(
                    &files,
                    "str_replace",
                    json!({"path": r.path, "old_str": old, "new_str": new}),
                ),
            ));
        }
        for (form, result) in results {
            calls += 1;
            if result.error_kind().map(|k| k.as_str()) == Some("placeholder_in_new_str") {
                refusals.push(format!(
                    "{} {} ({form}): {}",
                    r.origin,
                    r.path,
                    result.headline().chars().take(200).collect::<String>()
                ));
            }
        }
    }
    eprintln!(
        "added comments: {} hunks, {comments} added comment lines, {calls} calls; {} placeholder refusals",
        records.len(),
        refusals.len()
    );
    assert!(records.len() > 1000, "the data file is missing hunks");
    assert!(
        refusals.is_empty(),
        "{} real comments refused as placeholders:\n{}",
        refusals.len(),
        refusals.join("\n")
    );
}
