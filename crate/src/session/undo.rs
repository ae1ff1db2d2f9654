//! `undo_edit`: the last applied calls taken back, as an ordinary edit result.
//!
//! Decisions:
//! - A call comes back whole or not at all: every file it changed is checked first (the
//!   file must still hold exactly what the call wrote, and a moved file's old path must
//!   still be free); any file that differs refuses the undo `stale_buffer`, naming every
//!   such file, with `diagnostics.changed_since` ({path: unified diff of what the call
//!   wrote → what is there now}).
//! - `steps: N` takes back the last N calls, newest first, in one workspace (each call
//!   is checked against the texts the later ones' undo leaves), and returns one result
//!   whose `files` are the whole change (hosts that write files as a whole apply them),
//!   plus `undone`: each call's own changes, newest first, each relative to the texts
//!   the one before leaves ([`Workspace::changes_since`]). Editor hosts apply those one
//!   after another, one undo step of the editor per call taken back.
//! - The result is the same shape as any edit's (files with diff, edits, new_text), so
//!   every host applies it as it applies any edit. The texts restored existed before,
//!   so the syntax-regression guard does not judge them.
//! - An undo is not itself recorded as a call that can be undone (send the edit again
//!   to redo); it takes the calls off the history when it lands.

use super::living::{Applied, Living};
use super::rebase::changed_since;
use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::change_set::Splices;
use crate::workspace::{Changed, Workspace};
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// What taking back calls changes: the whole change, and each call's step of it.
pub struct Undone {
    /// The message saying which calls were taken back.
    pub message: String,
    /// Every file that differs from what the host holds now.
    pub changes: Vec<Changed>,
    /// Per call taken back, newest first: its tool and its changes, relative to the
    /// texts the step before leaves.
    pub steps: Vec<(String, Vec<Changed>)>,
}

/// The changes that take back the last `steps` calls, and the message saying so.
pub fn undo(living: &Living, steps: usize, mut ws: Workspace) -> EditResult<Undone> {
    let held = living.history_len();
    if held == 0 {
        return Err(EditError::new(ErrorKind::NoChange, nothing_to_undo(living)));
    }
    if steps > held {
        return Err(EditError::invalid(format!(
            "steps is {steps}, but this session remembers only {held} applied call(s). Nothing was changed. Send undo_edit {{steps: {held}}} to take back all of them."
        )));
    }
    let calls = living.newest(steps);
    let mut each = Vec::with_capacity(calls.len());
    for call in &calls {
        check(&mut ws, call)?;
        let before = ws.snapshot();
        revert(&mut ws, call)?;
        each.push((call.tool.clone(), ws.changes_since(&before)));
    }
    let names: Vec<String> = calls
        .iter()
        .map(|c| {
            let paths: Vec<&str> = c.files.iter().map(|f| f.path.as_str()).collect();
            format!("{} ({})", c.tool, paths.join(", "))
        })
        .collect();
    let message = format!(
        "Undid {} call(s), newest first: {}.",
        calls.len(),
        names.join("; ")
    );
    Ok(Undone {
        message,
        changes: ws.into_changes(),
        steps: each,
    })
}

/// Refuses unless every file of `call` still holds what the call left.
fn check(ws: &mut Workspace, call: &Applied) -> EditResult<()> {
    let mut changed = Map::new();
    for f in &call.files {
        let at = f.moved_to.as_deref().unwrap_or(&f.path);
        let now = ws.try_read(at)?;
        if !same(&now, &f.current) {
            let diff = match (&f.current, &now) {
                (Some(wrote), now) => Value::String(changed_since(at, wrote, now.as_ref())),
                (None, Some(_)) => json!("(the call deleted it; it exists again)"),
                (None, None) => Value::Null,
            };
            changed.insert(at.to_string(), diff);
        }
        if f.moved_to.is_some() && ws.try_read(&f.path)?.is_some() {
            changed.insert(
                f.path.clone(),
                json!("(the call moved it away; a file is there again)"),
            );
        }
    }
    if changed.is_empty() {
        return Ok(());
    }
    let paths: Vec<&str> = changed.keys().map(String::as_str).collect();
    Err(EditError::new(
        ErrorKind::StaleBuffer,
        format!(
            "Cannot undo {}: {} changed since that call wrote {}. Nothing was changed. diagnostics.changed_since shows what changed; to take the edit back anyway, read {} and edit it with str_replace.",
            call.tool,
            paths.join(", "),
            if paths.len() == 1 { "it" } else { "them" },
            if paths.len() == 1 { "it" } else { "them" },
        ),
    )
    .with_diagnostics(json!({"changed_since": changed})))
}

fn same(a: &Option<Arc<String>>, b: &Option<Arc<String>>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => Arc::ptr_eq(x, y) || x == y,
        (None, None) => true,
        _ => false,
    }
}

/// Puts back what `call` found: created files removed first (a move may go back to
/// where a created file stood), then moves back, then restored and rewritten texts (a
/// file the call deleted and then moved another onto gets its own text back last).
fn revert(ws: &mut Workspace, call: &Applied) -> EditResult<()> {
    for f in call.files.iter().filter(|f| f.original.is_none()) {
        ws.delete(&f.path)?;
    }
    for f in &call.files {
        if let (Some(before), Some(dest)) = (&f.original, &f.moved_to) {
            ws.move_file(dest, &f.path, before.as_ref().clone())?;
        }
    }
    for f in call.files.iter().filter(|f| f.moved_to.is_none()) {
        if let Some(before) = &f.original {
            if let Some(back) = inverse(ws, f)? {
                ws.splice(&f.path, back)?;
                continue;
            }
            // A deleted file comes back in the encoding it had (recorded with the call).
            let encoding = f.encoding.filter(|_| f.current.is_none());
            ws.recreate(&f.path, before.as_ref().clone(), encoding)?;
        }
    }
    Ok(())
}

/// The ranges that take back what `f`'s call wrote, when the call recorded them and the
/// file holds that text now (not after a move back onto its path); None: restore the
/// whole text.
fn inverse(ws: &mut Workspace, f: &Changed) -> EditResult<Option<Splices>> {
    let (Some(before), Some(change)) = (&f.original, &f.change) else {
        return Ok(None);
    };
    if f.current.is_none() || !same(&ws.try_read(&f.path)?, &f.current) {
        return Ok(None);
    }
    Ok(Some(change.invert(before).splices().to_vec()))
}

/// The refusal of `undo_edit` with no history. Advice on keeping a history is given only
/// where it applies: a session that keeps none is a per-call host's (the `call` command
/// without `--state DIR`, which turned history off); a long-lived session (MCP, an
/// editor) has simply applied nothing yet.
fn nothing_to_undo(living: &Living) -> &'static str {
    if living.is_on() {
        "There is nothing to undo: this session has applied no edit that it still remembers (dry runs and refused calls are not recorded). Nothing was changed."
    } else {
        "There is nothing to undo: each `anchored-edit call` without --state DIR is a session of its own and keeps no history. Nothing was changed. Run every call with `anchored-edit call --state DIR` to undo across calls."
    }
}

#[cfg(test)]
mod tests;
