//! Application: a patch's operations, in order, on the call's workspace.
//!
//! Every operation reads and writes the in-memory overlay, so an operation sees what the
//! earlier ones did (Add then Update of one file, Delete then Add). The first failure
//! returns an error and the session drops the overlay: no file changes unless every
//! operation applied. Within one file, all hunks are located in the text as it was
//! before the operation and written together, so a hunk's line numbers and context
//! refer to the same text the agent read.

use super::search::{self, HunkSite};
use super::{FileOp, Format, Hunk, Patch, PathChoice, Sign};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::guard;
use crate::locate::Via;
use crate::text::change_set::Splices;
use crate::text::words::{capitalized, plural};
use crate::text::{count_lines, Text};
use crate::workspace::Workspace;
use serde_json::json;

/// What applying a patch did.
#[derive(Debug, Default)]
pub struct Applied {
    /// One entry per operation, in order: "updated src/a.py (hunk at line 12)".
    pub done: Vec<String>,
    /// How each located hunk matched.
    pub vias: Vec<Via>,
    /// What was tolerated while locating, for `warnings`.
    pub notes: Vec<String>,
}

impl Applied {
    pub fn message(&self) -> String {
        format!("Applied the patch: {}.", self.done.join("; "))
    }

    /// The least exact level any hunk needed (None when no hunk was located).
    pub fn matched_via(&self) -> Option<Via> {
        Via::least_exact(self.vias.iter().copied())
    }
}

/// One file operation of a patch, with what every operation's messages need.
struct Op<'p> {
    patch: &'p Patch,
    op: &'p FileOp,
    /// "operation 2 (Update File: a.py)", for messages.
    label: String,
    allow_placeholders: bool,
}

/// The most hunks one patch may carry (all its files together): refused before any is
/// searched for, each search costing up to a scan of its file.
pub const MAX_HUNKS: usize = 1000;

/// Applies `patch` to `ws`, all operations or (on error) none.
pub fn apply(ws: &mut Workspace, patch: &Patch, allow_placeholders: bool) -> EditResult<Applied> {
    let hunks: usize = patch
        .ops
        .iter()
        .map(|op| match op {
            FileOp::Update { hunks, .. } | FileOp::Delete { hunks, .. } => hunks.len(),
            FileOp::Add { .. } => 0,
        })
        .sum();
    if hunks > MAX_HUNKS {
        return Err(EditError::invalid(format!(
            "The patch has {hunks} hunks, over the limit of {MAX_HUNKS} per call. Nothing was changed. Send it as several patches of at most {MAX_HUNKS} hunks, or replace a heavily changed file whole with create_file."
        ))
        .with_diagnostics(json!({"hunks": hunks, "limit": MAX_HUNKS})));
    }
    let mut out = Applied::default();
    for (k, op) in patch.ops.iter().enumerate() {
        let o = Op {
            patch,
            op,
            label: op_label(op, patch.format, k + 1),
            allow_placeholders,
        };
        match op {
            FileOp::Add { path, content, .. } => add_file(ws, &o, path, content, &mut out)?,
            FileOp::Delete { path, hunks, .. } => delete_file(ws, &o, path, hunks, &mut out)?,
            FileOp::Update {
                path,
                move_to,
                hunks,
                ..
            } => update_file(ws, &o, path, move_to.as_deref(), hunks, &mut out)?,
        }
    }
    Ok(out)
}

/// `*** Add File` (or a unified diff's creation from `/dev/null`).
fn add_file(
    ws: &mut Workspace,
    o: &Op,
    path: &str,
    content: &str,
    out: &mut Applied,
) -> EditResult<()> {
    let path = ws.path(path).map_err(|e| in_op(e, &o.label))?;
    if ws.exists(&path).map_err(|e| in_op(e, &o.label))? {
        // Codex's own apply_patch replaces the file: an agent trained on it
        // means exactly that. A unified diff's `/dev/null` creation does not.
        if o.patch.format != Format::V4a {
            return Err(EditError::new(
                ErrorKind::FileExists,
                format!(
                    "{} adds {path}, but {path} already exists. Nothing was changed. To change it, use `*** Update File: {path}` with hunks; to replace it whole, put `*** Delete File: {path}` before the Add.",
                    capitalized(&o.label)
                ),
            )
            .with_diagnostics(json!({"path": path, "patch_line": o.op.line()})));
        }
        out.notes.push(format!(
            "`*** Add File: {path}` replaced the existing {path} whole (as Codex's apply_patch does); its old text is in this call's diff."
        ));
    }
    let lines: Vec<&str> = content.lines().collect();
    let found = guard::placeholder_lines_in_new_text(&lines);
    guard_placeholders(&path, &lines, found, o.allow_placeholders)?;
    out.done.push(format!(
        "added {path} ({} line{})",
        count_lines(content),
        plural(count_lines(content))
    ));
    ws.write(&path, content.to_string())?;
    Ok(())
}

/// `*** Delete File` (or a unified diff's deletion, whose lines must be the file's).
fn delete_file(
    ws: &mut Workspace,
    o: &Op,
    path: &PathChoice,
    hunks: &[Hunk],
    out: &mut Applied,
) -> EditResult<()> {
    let path = existing(ws, path, &o.label, "deletes")?;
    if !hunks.is_empty() {
        let text = ws.read(&path)?;
        let (splices, _) = located_hunks(
            &text,
            &path,
            hunks,
            o.patch.format,
            &o.label,
            o.allow_placeholders,
            out,
        )?;
        let rest = crate::text::splice(&text, &splices);
        if !rest.trim().is_empty() {
            let t = Text::new(&rest);
            let first = (0..t.line_count())
                .find(|&i| !t.line(i).trim().is_empty())
                .unwrap_or(0);
            return Err(EditError::new(
                ErrorKind::PatchContextMismatch,
                format!(
                    "{} deletes {path}, but {path} has lines the diff does not list (e.g. `{}`). Nothing was changed. To delete the file whatever it holds, send `*** Begin Patch` / `*** Delete File: {path}` / `*** End Patch`.",
                    capitalized(&o.label),
                    t.line(first).trim()
                ),
            )
            .with_diagnostics(json!({"path": path, "patch_line": o.op.line()})));
        }
    }
    ws.delete(&path)?;
    out.done.push(format!("deleted {path}"));
    Ok(())
}

/// `*** Update File`, hunk by hunk, then the optional move.
fn update_file(
    ws: &mut Workspace,
    o: &Op,
    path: &PathChoice,
    move_to: Option<&str>,
    hunks: &[Hunk],
    out: &mut Applied,
) -> EditResult<()> {
    let path = existing(ws, path, &o.label, "updates")?;
    let text = ws.read(&path)?;
    let (splices, lines) = located_hunks(
        &text,
        &path,
        hunks,
        o.patch.format,
        &o.label,
        o.allow_placeholders,
        out,
    )?;
    let hunks_at = match lines.len() {
        0 => String::new(),
        1 => format!(" (hunk at line {})", lines[0]),
        n => format!(" ({n} hunks, at lines {})", join_and(&lines)),
    };
    let dest = match move_to {
        Some(d) => Some(ws.path(d).map_err(|e| in_op(e, &o.label))?),
        None => None,
    };
    match dest {
        Some(dest)
            if dest != path
                && o.patch.format == Format::V4a
                && ws.exists(&dest).map_err(|e| in_op(e, &o.label))? =>
        {
            // Codex's apply_patch overwrites the destination of a move.
            ws.write(&dest, crate::text::splice(&text, &splices))?;
            ws.delete(&path)?;
            out.notes.push(format!(
                "`*** Move to: {dest}` replaced the existing {dest} (as Codex's apply_patch does); its old text is in this call's diff."
            ));
            out.done.push(format!("moved {path} onto {dest}{hunks_at}"));
        }
        Some(dest) if dest != path => {
            if ws.exists(&dest).map_err(|e| in_op(e, &o.label))? {
                return Err(EditError::new(
                    ErrorKind::FileExists,
                    format!(
                        "{} moves {path} to {dest}, but {dest} already exists. Nothing was changed. Move it to a new path, or put `*** Delete File: {dest}` before this operation.",
                        capitalized(&o.label)
                    ),
                )
                .with_diagnostics(json!({"path": dest, "patch_line": o.op.line()})));
            }
            ws.move_file(&path, &dest, crate::text::splice(&text, &splices))?;
            out.done.push(format!("moved {path} to {dest}{hunks_at}"));
        }
        _ => {
            ws.splice(&path, splices)?;
            out.done.push(format!("updated {path}{hunks_at}"));
        }
    }
    Ok(())
}

/// Where every hunk lands in `text` (sorted, disjoint ranges with their new text: the
/// file's one change), and the 1-based line where each landed, in the patch's order.
fn located_hunks(
    text: &str,
    path: &str,
    hunks: &[Hunk],
    format: Format,
    op: &str,
    allow_placeholders: bool,
    out: &mut Applied,
) -> EditResult<(Splices, Vec<usize>)> {
    let t = Text::new(text);
    let mut from = 0;
    let mut lines = Vec::with_capacity(hunks.len());
    let mut replacements: Splices = Vec::with_capacity(hunks.len());
    for (k, hunk) in hunks.iter().enumerate() {
        guard_hunk(path, hunk, allow_placeholders)?;
        let label = if hunks.len() == 1 {
            format!("the hunk of {op}")
        } else {
            format!("hunk {} of {op} (patch line {})", k + 1, hunk.line)
        };
        let site = HunkSite {
            label: &label,
            path,
            hunk,
            format,
        };
        let placed = place_in_any_order(&t, from, &site, out)?;
        if placed.advances {
            from = from.max(placed.range.end);
        }
        lines.push(t.line_of(placed.range.start).min(t.line_count()) + 1);
        out.vias.extend(placed.via);
        out.notes.extend(placed.notes);
        replacements.push((placed.range, placed.text));
    }
    // Lines appended at the end without an anchor do not move the search on; sorting
    // (stably) puts them after everything else.
    replacements.sort_by_key(|(r, _)| r.start);
    let overlapping = replacements.windows(2).any(|w| w[0].0.end > w[1].0.start);
    if overlapping {
        return Err(EditError::new(
            ErrorKind::OverlappingEdits,
            format!("Two hunks of {op} would change the same lines. Nothing was changed. Merge them into one hunk and send the whole patch again."),
        ));
    }
    Ok((replacements, lines))
}

/// Places a hunk after the previous one, or, when it is not there, anywhere in the file:
/// agents send hunks out of order. It must still be found exactly once, and the overlap
/// check of [`located_hunks`] still refuses two hunks on the same lines. The failed
/// search after the previous hunk is diagnosed only when the whole file fails too
/// (hunks out of order cost a search each, not a search and a diagnosis).
///
/// Places first, then levels: a tolerant match after the previous hunk wins over a
/// byte-exact one before it (the patch's order is the agent's statement of where the
/// hunk goes); the whole file is searched only when the rest of it holds no match.
fn place_in_any_order(
    t: &Text,
    from: usize,
    site: &HunkSite,
    out: &mut Applied,
) -> EditResult<search::Placement> {
    match search::try_place(t, from, site) {
        Err(e) if from > 0 && e.kind == ErrorKind::PatchContextMismatch => {
            match search::try_place(t, 0, site) {
                Ok(placed) => {
                    out.notes.push(before_previous(site));
                    Ok(placed)
                }
                // Found more than once in the whole file says more than "not after it".
                Err(whole) if whole.kind == ErrorKind::Ambiguous => Err(whole),
                // Nowhere: the diagnosis of the search after the previous hunk.
                Err(_) => search::place(t, from, site).and(Err(e)),
            }
        }
        Err(e) if e.kind == ErrorKind::PatchContextMismatch => {
            search::place(t, from, site).and(Err(e))
        }
        other => other,
    }
}

/// The note for a hunk placed before the previous one.
fn before_previous(site: &HunkSite) -> String {
    format!(
        "{} comes before the previous hunk in the file; it was placed where it is found (once, in the whole file).",
        capitalized(site.label)
    )
}

/// The file an Update or Delete names, among its spellings, or `file_not_found`.
fn existing(ws: &mut Workspace, choice: &PathChoice, op: &str, verb: &str) -> EditResult<String> {
    let primary = ws.path(&choice.path).map_err(|e| in_op(e, op))?;
    if ws.exists(&primary).map_err(|e| in_op(e, op))? {
        return Ok(primary);
    }
    for other in &choice.fallbacks {
        if let Ok(p) = ws.path(other) {
            if ws.exists(&p).unwrap_or(false) {
                return Ok(p);
            }
        }
    }
    Err(EditError::new(
        ErrorKind::FileNotFound,
        format!(
            "{} {verb} {primary}, but there is no file at {primary}. Nothing was changed. Check the path (relative to the project root); to create the file, use `*** Add File: {primary}` with every line prefixed by `+`.",
            capitalized(op)
        ),
    )
    .with_diagnostics(json!({"path": primary})))
}

/// The placeholder guard for a hunk: the same rule as str_replace's (a comment that
/// reads as an elision where the hunk deletes code), on the hunk's old lines (context
/// and `-`) and new lines (context and `+`); refusals count among the `+` lines.
fn guard_hunk(path: &str, hunk: &Hunk, allow: bool) -> EditResult<()> {
    if allow {
        return Ok(());
    }
    let new: Vec<&str> = hunk.new_lines().collect();
    let old: Vec<&str> = hunk.old_lines().collect();
    let found = guard::placeholder_lines_replacing(&new, &old);
    if found.is_empty() {
        return Ok(());
    }
    // Index among the new lines -> index among the `+` lines.
    let mut plus = Vec::with_capacity(new.len());
    let mut added = Vec::new();
    for (sign, line) in &hunk.lines {
        match sign {
            Sign::Context => plus.push(None),
            Sign::Add => {
                plus.push(Some(added.len()));
                added.push(line.as_str());
            }
            Sign::Remove => {}
        }
    }
    let found = found.into_iter().filter_map(|k| plus[k]).collect();
    guard_placeholders(path, &added, found, false)
}

/// Refuses with `placeholder_in_new_str` (exactly like str_replace's new_str) the
/// `found` lines of a patch's added lines, unless `allow`.
fn guard_placeholders(
    path: &str,
    added: &[&str],
    found: Vec<usize>,
    allow: bool,
) -> EditResult<()> {
    if allow {
        return Ok(());
    }
    let prose = guard::is_prose_file(path);
    let found: Vec<guard::Placeholder> = found
        .into_iter()
        // In prose only a markup comment can stand for left-out text: a bare `...`
        // is an elided quotation, a `#` line a heading.
        .filter(|&k| !prose || guard::is_prose_comment(added[k]))
        .map(|k| guard::Placeholder {
            line: k + 1,
            text: added[k].to_string(),
        })
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    Err(guard::refusal(
        &format!("the patch's added lines for {path} (counted among the + lines),"),
        None,
        &found,
    ))
}

/// "operation 2 (`*** Update File: src/a.py`, patch line 5)" or "the diff of src/a.py
/// (patch line 5)".
fn op_label(op: &FileOp, format: Format, number: usize) -> String {
    let (marker, path) = match op {
        FileOp::Add { path, .. } => ("Add File", path.as_str()),
        FileOp::Delete { path, .. } => ("Delete File", path.path.as_str()),
        FileOp::Update { path, .. } => ("Update File", path.path.as_str()),
    };
    match format {
        Format::V4a => format!(
            "operation {number} (`*** {marker}: {path}`, patch line {})",
            op.line()
        ),
        Format::Unified => format!("the diff of {path} (patch line {})", op.line()),
    }
}

fn in_op(mut e: EditError, op: &str) -> EditError {
    e.message = format!("In {op}: {}", e.message);
    e
}

fn join_and(lines: &[usize]) -> String {
    let s: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match s.len() {
        0 => String::new(),
        1 => s[0].clone(),
        k => format!("{} and {}", s[..k - 1].join(", "), s[k - 1]),
    }
}
