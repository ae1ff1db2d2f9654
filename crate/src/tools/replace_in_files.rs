//! `replace_in_files`: one replacement across many files, all or nothing.
//!
//! Each file is searched with `str_replace`'s search ([`locate::find`]: byte-exact,
//! then the recovery cascade) and its placeholder guard applies to `new_str`. Across
//! the project the cascade's own rule holds: the first level that finds anything
//! decides. So when `old_str` occurs byte-exact in any file, only byte-exact
//! occurrences are replaced (the tolerant levels never run: a search costs one
//! substring scan per file); only when it occurs nowhere as written do the tolerant
//! levels run over every file, and then the least tolerant level that matched decides
//! (files that matched only through a looser level are left alone and named in a
//! warning).
//!
//! Uniqueness per occurrence: an exact occurrence is certain; a recovered one is used
//! only when it is the only match in its file, and matches that overlap are refused.
//! Either refusal (`ambiguous`) refuses the whole call: every file stays unchanged.
//!
//! Every occurrence has an id, `path:line` (1-based first line; `path:line#k` for the
//! k-th on one line, k ≥ 2). The dry run lists them with a diff each; `only` (ids)
//! restricts a commit to those; `expected_replacements` refuses when the number to be
//! replaced differs. Files are read one at a time; only those with occurrences are
//! kept (their new texts are the call's result).

use super::params::*;
use super::project::{scope, searchable_text, FOLDER, GLOB};
use super::{check_versions, str_replace, Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::{self, Candidate, MatchedVia, Scope, Via};
use crate::text::words::plural;
use crate::text::Text;
use serde_json::{json, Value};
use std::ops::Range;
use std::sync::Arc;

pub static SPEC: ToolSpec = ToolSpec {
    name: "replace_in_files",
    description: "Replace old_str by new_str in many files at once, all or nothing: in the \
files matching glob (hidden and .gitignore'd files skipped), or in the files listed in \
paths. Every occurrence is replaced; each is found like str_replace finds text (whitespace \
and quoting slips recovered only when the match is unique in its file; an ambiguous one \
refuses the whole call). Run with dry_run: true first: it lists each occurrence with an id \
(\"path:line\") and its diff; then send only: [ids] to replace just those, and \
expected_replacements to refuse if the count differs. \
Example: {\"old_str\": \"fetch_user(\", \"new_str\": \"load_user(\", \"glob\": \"*.py\", \"dry_run\": true}",
    params: &[
        Param {
            name: "old_str",
            aliases: &["old_string", "old_text", "search", "old"],
            ty: ParamType::String,
            required: true,
            description: "The exact text to replace, as the files have it.",
        },
        Param {
            name: "new_str",
            aliases: &["new_string", "new_text", "replace", "replacement", "new"],
            ty: ParamType::String,
            required: true,
            description: "The text to put in its place (empty to delete). Written literally.",
        },
        GLOB,
        Param {
            name: "paths",
            aliases: &["files", "file_paths"],
            ty: ParamType::StringList,
            required: false,
            description: "The files to edit, relative to the project root (instead of glob).",
        },
        FOLDER,
        Param {
            name: "expected_replacements",
            aliases: &["expected_count", "count"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "How many occurrences you expect to replace (after `only`); refused if the count differs.",
        },
        Param {
            name: "only",
            aliases: &["ids", "occurrences"],
            ty: ParamType::StringList,
            required: false,
            description: "Replace only these occurrences: ids (\"path:line\") from a dry run.",
        },
        STRICT,
        ALLOW_PLACEHOLDERS,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSIONS,
    ],
    annotations: Annotations {
        title: "Replace across files",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

/// One place `old_str` was found.
struct Occurrence {
    id: String,
    /// 1-based first line.
    line: usize,
    range: Range<usize>,
    bytes: String,
    diff: String,
}

/// One file's occurrences, with its text (kept: it is going to change).
struct FilePlan {
    path: String,
    text: Arc<String>,
    via: Via,
    occurrences: Vec<Occurrence>,
}

typed_args! {
    /// replace_in_files' arguments, one field per parameter of [`SPEC`].
    pub struct ReplaceInFilesArgs<'a> {
        old_str: &'a str,
        new_str: &'a str,
        glob: Option<&'a str>,
        paths: Option<Vec<&'a str>>,
        path: Option<&'a str>,
        expected_replacements: Option<usize>,
        only: Option<Vec<&'a str>>,
        strict: bool,
        allow_placeholders: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_versions: Option<&'a Value>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = ReplaceInFilesArgs::from_args(args);
    let (old, new, strict) = (a.old_str, a.new_str, a.strict);
    str_replace::check_old_new(
        old,
        new,
        a.allow_placeholders,
        "Send the text to replace as the files have it.",
    )?;
    check_versions(ctx, args)?;
    let files = target_files(ctx, &a)?;
    let mut plans = search(ctx, &files, old, new, true)?;
    let mut loose = Vec::new();
    if plans.is_empty() && !strict {
        plans = search(ctx, &files, old, new, false)?;
        let Some(least) = plans.iter().map(|p| p.via).min() else {
            return Err(nowhere(old, files.len()));
        };
        loose = plans
            .iter()
            .filter(|p| p.via != least)
            .map(|p| p.path.clone())
            .collect();
        plans.retain(|p| p.via == least);
    }
    if plans.is_empty() {
        return Err(nowhere(old, files.len()));
    }
    one_plan_per_file(ctx, &mut plans)?;
    select_only(&mut plans, a.only)?;
    let count: usize = plans.iter().map(|p| p.occurrences.len()).sum();
    if let Some(expected) = a.expected_replacements {
        if expected != count {
            return Err(count_mismatch(expected, &plans));
        }
    }
    write(ctx, &plans)?;
    if !loose.is_empty() {
        ctx.warnings.push(format!(
            "old_str matched {} only through a looser recovery than the other files, so {} left alone: {}. Edit them with str_replace if they are meant too.",
            loose.len(),
            if loose.len() == 1 { "it was" } else { "they were" },
            loose.join(", ")
        ));
    }
    ctx.matched_via = Via::least_exact(plans.iter().map(|p| p.via)).map(MatchedVia::Level);
    let listed: Vec<Value> = plans.iter().flat_map(occurrences_json).collect();
    ctx.extra.insert("occurrences".into(), Value::Array(listed));
    let ids: Vec<&str> = plans
        .iter()
        .flat_map(|p| p.occurrences.iter().map(|o| o.id.as_str()))
        .collect();
    Ok(Outcome::Edited {
        message: format!(
            "Replaced {count} occurrence{} in {} file{}: {}{}.",
            plural(count),
            plans.len(),
            plural(plans.len()),
            ids[..ids.len().min(20)].join(", "),
            if ids.len() > 20 {
                ", … (all in occurrences)"
            } else {
                ""
            }
        ),
    })
}

/// The files the call covers: `paths` (each must exist), or those `glob` selects, each
/// once as written.
fn target_files(ctx: &mut Ctx, a: &ReplaceInFilesArgs) -> EditResult<Vec<String>> {
    match (&a.paths, a.glob) {
        (Some(_), Some(_)) => Err(EditError::invalid(
            "replace_in_files takes glob or paths, not both. Send one: glob: \"*.py\" for every matching file, or paths: [\"a.py\", \"b.py\"].",
        )),
        (None, None) => Err(EditError::invalid(
            "replace_in_files needs glob (e.g. \"*.py\", \"src/**/*.ts\") or paths (a list of files). Send one of them.",
        )),
        (None, Some(glob)) => Ok(scope(ctx, SPEC.name, a.path, Some(glob))?.paths),
        (Some(paths), None) => {
            let mut out = Vec::new();
            for raw in paths {
                let path = ctx.ws.path(raw)?;
                if !ctx.ws.exists(&path)? {
                    return Err(crate::workspace::not_found(&path));
                }
                if !out.contains(&path) {
                    out.push(path);
                }
            }
            Ok(out)
        }
    }
}

/// Keeps one plan per file: a file reached by two names (a link inside the root, a hard
/// link; the host's identity) is edited once, under its first name, and a warning names
/// the others. Asked only of files with occurrences, so a listing costs no extra `stat`.
fn one_plan_per_file(ctx: &mut Ctx, plans: &mut Vec<FilePlan>) -> EditResult<()> {
    let mut aliases = Vec::new();
    let mut kept = Vec::with_capacity(plans.len());
    for plan in plans.drain(..) {
        let name = ctx.ws.name_of(&plan.path)?;
        if name == plan.path {
            kept.push(plan);
        } else {
            aliases.push(format!("{} (= {name})", plan.path));
        }
    }
    *plans = kept;
    if !aliases.is_empty() {
        ctx.warnings.push(format!(
            "Edited once under its first name, as other names of a file already covered: {}.",
            aliases.join(", ")
        ));
    }
    Ok(())
}

/// Every file's occurrences: byte-exact only (`exact`), or through the cascade.
fn search(
    ctx: &Ctx,
    files: &[String],
    old: &str,
    new: &str,
    exact: bool,
) -> EditResult<Vec<FilePlan>> {
    let finder = memchr::memmem::Finder::new(old.as_bytes());
    let mut plans = Vec::new();
    for path in files {
        let Some(src) = searchable_text(ctx, path) else {
            continue;
        };
        if exact && finder.find(src.as_bytes()).is_none() {
            continue;
        }
        if let Some(plan) = plan_file(path, src, old, new)? {
            plans.push(plan);
        }
    }
    Ok(plans)
}

/// One file's occurrences of `old` and what to write at each, or None when none.
fn plan_file(path: &str, src: Arc<String>, old: &str, new: &str) -> EditResult<Option<FilePlan>> {
    let text = Text::new(&src);
    let found = locate::find(&text, old, &Scope::whole(&text), false);
    let Some(via) = found.via() else {
        return Ok(None);
    };
    let candidates = &found.candidates;
    let lines = || -> String {
        let l: Vec<String> = candidates
            .iter()
            .map(|c| (c.first_line(&text) + 1).to_string())
            .collect();
        l.join(", ")
    };
    let overlap = candidates
        .windows(2)
        .any(|w| w[1].range.start < w[0].range.end);
    if overlap || (via != Via::Exact && candidates.len() > 1) {
        let why = if overlap {
            "overlapping matches".to_string()
        } else {
            format!("{} matches that differ from old_str ({}), and a recovered match is used only when it is the only one in its file", candidates.len(), via.as_str())
        };
        return Err(EditError::new(
            ErrorKind::Ambiguous,
            format!(
                "old_str is ambiguous in {path}: {why} (lines {}). Nothing was changed in any file. Send old_str exactly as {path} has it at the place you mean, or edit {path} alone with str_replace and occurrence.",
                lines()
            ),
        )
        .with_diagnostics(json!({"path": path, "lines": candidates.iter().map(|c| c.first_line(&text) + 1).collect::<Vec<_>>(), "matched_via": via.as_str()})));
    }
    let mut occurrences: Vec<Occurrence> = Vec::with_capacity(candidates.len());
    for c in candidates {
        let bytes = c.render(&text, new).map_err(|e| EditError {
            message: format!("{path}: {}", e.message),
            ..e
        })?;
        let line = c.first_line(&text) + 1;
        let same_line = occurrences.iter().filter(|o| o.line == line).count();
        let id = match same_line {
            0 => format!("{path}:{line}"),
            k => format!("{path}:{line}#{}", k + 1),
        };
        let diff = occurrence_diff(&text, c, &bytes, &id);
        occurrences.push(Occurrence {
            id,
            line,
            range: c.range.clone(),
            bytes,
            diff,
        });
    }
    Ok(Some(FilePlan {
        path: path.to_string(),
        text: src.clone(),
        via,
        occurrences,
    }))
}

/// The lines an occurrence spans, before (`-`) and after (`+`), under an `@@ id @@` line.
fn occurrence_diff(text: &Text, c: &Candidate, bytes: &str, id: &str) -> String {
    let (first, last) = (c.first_line(text), c.last_line(text));
    let start = text.line_start(first);
    let end = text.line_start(last) + text.line_with_ending(last).len();
    let src = text.as_str();
    let before = &src[start..end];
    let after = format!(
        "{}{bytes}{}",
        &src[start..c.range.start],
        &src[c.range.end..end]
    );
    let mut diff = format!("@@ {id} @@\n");
    for line in before.lines() {
        diff.push_str(&format!("-{line}\n"));
    }
    for line in after.lines() {
        diff.push_str(&format!("+{line}\n"));
    }
    diff
}

/// Keeps only the occurrences `only` names; an id that names none refuses.
fn select_only(plans: &mut Vec<FilePlan>, only: Option<Vec<&str>>) -> EditResult<()> {
    let Some(only) = only else {
        return Ok(());
    };
    let ids: Vec<&str> = only.iter().map(|s| s.trim()).collect();
    let unknown: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| {
            !plans
                .iter()
                .any(|p| p.occurrences.iter().any(|o| o.id == *id))
        })
        .collect();
    if !unknown.is_empty() || ids.is_empty() {
        let known: Vec<&str> = plans
            .iter()
            .flat_map(|p| p.occurrences.iter().map(|o| o.id.as_str()))
            .take(30)
            .collect();
        return Err(EditError::invalid(format!(
            "only names {} that {} not an occurrence of old_str: {}. Nothing was changed. The occurrences are: {}. Send only with ids from that list (run with dry_run: true to see each one's diff).",
            if unknown.len() == 1 { "an id" } else { "ids" },
            if unknown.len() == 1 { "is" } else { "are" },
            if ids.is_empty() { "(empty list)".to_string() } else { unknown.join(", ") },
            known.join(", ")
        )));
    }
    for plan in plans.iter_mut() {
        plan.occurrences.retain(|o| ids.contains(&o.id.as_str()));
    }
    plans.retain(|p| !p.occurrences.is_empty());
    Ok(())
}

/// Writes each file's replacements into the workspace (nothing reaches the host
/// unless the whole call succeeds).
fn write(ctx: &mut Ctx, plans: &[FilePlan]) -> EditResult<()> {
    let changes = plans.iter().any(|p| {
        p.occurrences
            .iter()
            .any(|o| p.text.get(o.range.clone()) != Some(o.bytes.as_str()))
    });
    if !changes {
        return Err(EditError::new(
            ErrorKind::NoChange,
            "old_str matched, but new_str differs from each match only in what the match forgives, so no file would change. Nothing was changed. Send new_str with the change you mean.",
        ));
    }
    // One file named twice (a link and its target): written once, by its first name.
    let mut written: Vec<(String, Arc<String>)> = Vec::new();
    for plan in plans {
        let name = ctx.ws.name_of(&plan.path)?;
        if written.iter().any(|(n, t)| *n == name && **t == *plan.text) {
            continue;
        }
        // The search read without keeping; the edit is made on the text read for it.
        if *ctx.ws.read(&plan.path)? != *plan.text {
            return Err(EditError::new(
                ErrorKind::StaleBuffer,
                format!(
                    "{} changed while replace_in_files was reading the project. Nothing was changed in any file. Send the same call again.",
                    plan.path
                ),
            ));
        }
        let replacements: Vec<(Range<usize>, String)> = plan
            .occurrences
            .iter()
            .map(|o| (o.range.clone(), o.bytes.clone()))
            .collect();
        ctx.ws.splice(&plan.path, replacements)?;
        written.push((name, plan.text.clone()));
    }
    Ok(())
}

fn occurrences_json(plan: &FilePlan) -> Vec<Value> {
    plan.occurrences
        .iter()
        .map(|o| json!({"id": o.id, "path": plan.path, "line": o.line, "matched_via": plan.via.as_str(), "diff": o.diff}))
        .collect()
}

fn nowhere(old: &str, files: usize) -> EditError {
    let first = old.lines().next().unwrap_or("");
    EditError::new(
        ErrorKind::NoMatch,
        format!(
            "old_str (first line {first:?}) occurs in none of the {files} file{} searched, not even after recovery. Nothing was changed. Find it first with grep_project {{pattern: \"…\"}} and copy old_str from a match.",
            plural(files)
        ),
    )
}

fn count_mismatch(expected: usize, plans: &[FilePlan]) -> EditError {
    let count: usize = plans.iter().map(|p| p.occurrences.len()).sum();
    let ids: Vec<&str> = plans
        .iter()
        .flat_map(|p| p.occurrences.iter().map(|o| o.id.as_str()))
        .take(30)
        .collect();
    EditError::new(
        ErrorKind::OccurrenceOutOfRange,
        format!(
            "expected_replacements is {expected}, but {count} occurrence{} would be replaced: {}{}. Nothing was changed. Check them with dry_run: true, then send only: [ids] for the ones you mean, or expected_replacements: {count}.",
            plural(count),
            ids.join(", "),
            if count > ids.len() { ", …" } else { "" }
        ),
    )
    .with_diagnostics(json!({"expected": expected, "found": count, "ids": ids}))
}
