//! apply_patch on real history: this repository's own commits, replayed byte for byte.
//!
//! For each of the last commits (parent → child), every changed text file's unified diff
//! (`git diff`, as agents and tools produce them) and the same hunks in Codex's V4A form
//! are applied with apply_patch to the parent's text; the result must be the child's
//! text exactly. Real edits are what an engine meets: long files, repeated lines, CRLF
//! fixtures, diffs of diffs. The test needs `git` and the repository's history; where
//! either is missing (a source tarball) it says so and checks nothing.
//!
//! `AE_HISTORY_COMMITS=N` replays the last N commits (default 60; `all` for every one).

use anchored_edit::{Session, ToolResult};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn git(args: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo())
        .args(args)
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

fn git_text(args: &[&str]) -> Option<String> {
    String::from_utf8(git(args)?).ok()
}

/// The file at `rev`, when it is UTF-8 text without NUL bytes.
fn text_at(rev: &str, path: &str) -> Option<String> {
    let bytes = git(&["show", &format!("{rev}:{path}")])?;
    let text = String::from_utf8(bytes).ok()?;
    (!text.contains('\0')).then_some(text)
}

/// One changed file: its path and its text before and after (None: absent).
struct Change {
    path: String,
    before: Option<String>,
    after: Option<String>,
}

/// The text files `child` changed against `parent` (renames as delete + add); None when
/// any changed file is not text (the commit is skipped).
fn changes(parent: &str, child: &str) -> Option<Vec<Change>> {
    let list = git_text(&["diff", "--no-renames", "--name-status", parent, child])?;
    let mut out = Vec::new();
    for line in list.lines() {
        let (status, path) = line.split_once('\t')?;
        let before = if status == "A" {
            None
        } else {
            Some(text_at(parent, path)?)
        };
        let after = if status == "D" {
            None
        } else {
            Some(text_at(child, path)?)
        };
        out.push(Change {
            path: path.to_string(),
            before,
            after,
        });
    }
    Some(out)
}

fn apply(files: &BTreeMap<String, String>, patch: &str) -> ToolResult {
    Session::new().call(
        &json!({"tool": "apply_patch", "arguments": {"patch": patch}}),
        files,
    )
}

/// `git diff`'s hunks of one file rewritten as a V4A update (`@@` separators, the same
/// ' ', '-', '+' lines); None when the file has no hunks or ends without a newline on
/// either side (V4A has no marker for it). A hunk header's function context (`@@ -1,2
/// +1,3 @@ fn main() {`) becomes the V4A anchor (`@@ fn main() {`), as Codex writes it:
/// without line numbers, a hunk whose lines repeat in the file is placed by it.
fn v4a_update(path: &str, unified: &str) -> Option<String> {
    if unified.contains("\n\\ No newline at end of file") {
        return None;
    }
    let mut out = format!("*** Begin Patch\n*** Update File: {path}\n");
    let mut hunks = 0;
    let mut in_hunk = false;
    for line in unified.split_inclusive('\n') {
        if line.starts_with("@@") {
            // "@@ -a,b +c,d @@ context": the context, when git found one.
            let context = line.splitn(3, "@@").nth(2).map_or("", str::trim);
            if context.is_empty() {
                out.push_str("@@\n");
            } else {
                out.push_str(&format!("@@ {context}\n"));
            }
            hunks += 1;
            in_hunk = true;
        } else if in_hunk && line.starts_with([' ', '-', '+']) {
            out.push_str(line);
        }
    }
    out.push_str("*** End Patch\n");
    (hunks > 0).then_some(out)
}

fn commits() -> Vec<String> {
    let wanted = std::env::var("AE_HISTORY_COMMITS").unwrap_or_else(|_| "60".into());
    let mut args = vec!["rev-list", "--no-merges", "HEAD"];
    let n;
    if wanted != "all" {
        n = format!("-{}", wanted.parse::<usize>().unwrap_or(60));
        args.push(&n);
    }
    git_text(&args)
        .map(|s| s.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

#[test]
fn this_repositorys_commits_replay_byte_for_byte() {
    let commits = commits();
    if commits.is_empty() {
        eprintln!("history: no git history here; nothing replayed");
        return;
    }
    let (mut unified_files, mut v4a_files, mut replayed, mut v4a_ambiguous) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for child in &commits {
        let parent = format!("{child}^");
        let Some(changed) = changes(&parent, child) else {
            continue;
        };
        replayed += 1;
        for c in changed.iter().filter(|c| c.before != c.after) {
            let mut files = BTreeMap::new();
            if let Some(before) = &c.before {
                files.insert(c.path.clone(), before.clone());
            }
            let Some(diff) = git_text(&["diff", "--no-renames", &parent, child, "--", &c.path])
            else {
                continue;
            };
            let mut forms = vec![("unified", diff.clone())];
            if let (Some(_), Some(_)) = (&c.before, &c.after) {
                if let Some(v4a) = v4a_update(&c.path, &diff) {
                    forms.push(("v4a", v4a));
                }
            }
            for (form, patch) in forms {
                let result = apply(&files, &patch);
                let got = result
                    .files
                    .as_ref()
                    .and_then(|f| f.iter().find(|f| f.path == c.path))
                    .map(|f| if f.deleted { None } else { f.new_text.clone() });
                let ok = result.ok && got.as_ref() == Some(&c.after);
                // V4A carries no line numbers: a hunk whose context and '-' lines occur
                // twice after the previous hunk is rightly refused as ambiguous (an agent
                // adds an `@@` anchor). Only that refusal is not a failure.
                if form == "v4a" && result.error_kind().map(|k| k.as_str()) == Some("ambiguous") {
                    v4a_ambiguous += 1;
                    continue;
                }
                if form == "unified" {
                    unified_files += 1;
                } else {
                    v4a_files += 1;
                }
                if !ok {
                    failures.push(format!(
                        "{} {} ({form}): {}",
                        &child[..10],
                        c.path,
                        if result.ok {
                            "applied, but the text differs from the commit's".to_string()
                        } else {
                            result.headline().chars().take(300).collect()
                        }
                    ));
                }
            }
        }
    }
    eprintln!(
        "history: {replayed} commits, {unified_files} unified file diffs, {v4a_files} V4A updates replayed ({v4a_ambiguous} more refused as ambiguous: no line numbers); {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} replays failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The syntax-regression guard on real history: every commit here was intended, so no
/// changed file may go from balanced (parent) to unbalanced (child); each one that does
/// is a false refusal the guard would have made. Same commits as above
/// (`AE_HISTORY_COMMITS`, default 60, `all` for every one).
#[test]
fn the_syntax_guard_refuses_no_commit_of_this_repository() {
    use anchored_edit::guard::balance::regression_between;
    let commits = commits();
    if commits.is_empty() {
        eprintln!("guard history: no git history here; nothing replayed");
        return;
    }
    let (mut replayed, mut files, mut checked) = (0, 0, 0);
    let mut refusals = Vec::new();
    for child in &commits {
        let Some(changed) = changes(&format!("{child}^"), child) else {
            continue;
        };
        replayed += 1;
        for c in &changed {
            let (Some(before), Some(after)) = (&c.before, &c.after) else {
                continue;
            };
            if before == after {
                continue;
            }
            files += 1;
            checked += usize::from(anchored_edit::blocks::Lang::from_path(&c.path).is_some());
            if let Some(u) = regression_between(before, after, &c.path) {
                refusals.push(format!("{} {}: {}", &child[..10], c.path, u.reason));
            }
        }
    }
    eprintln!(
        "guard history: {replayed} commits, {files} changed files ({checked} in a language the lexer knows); {} false refusals",
        refusals.len()
    );
    assert!(
        refusals.is_empty(),
        "the guard would refuse {} intended edits:\n{}",
        refusals.len(),
        refusals.join("\n")
    );
}
