//! Rebasing an edit sent against an old version onto the current text.
//!
//! An editing call whose `expected_version` (or an entry of `expected_versions`, or a
//! `multi_replace` item's) names a version the session still holds ([`Living`]) is not
//! refused outright. Decisions:
//!
//! 1. The call runs on the texts the agent read: every stale file's held old text stands
//!    in for the current one, so line arguments (`line_hint`, `insert.line`,
//!    `delete_lines`) mean what the agent meant without shifting by hand. A call that
//!    fails on what the agent read fails with that refusal.
//! 2. For each such file, two line diffs: old → current (what changed since, `D`) and
//!    old → edited (the lines the call writes, `W`), and the lines the call read to
//!    decide where to write (its match, hints' landmarks, line arguments: `Ctx::reads`,
//!    noted by str_replace, multi_replace, insert and the block tools; for a tool that
//!    notes none, [`READ_MARGIN`] line around each written stretch).
//!    When no stretch of `D` overlaps `W` or the reads (an insertion strictly inside a
//!    stretch, or two insertions at one place, count as overlapping; stretches that only
//!    touch do not), `W`'s hunks are applied to the current text, each moved by the
//!    lines `D` added or removed above it, and a warning says so with the shift.
//! 3. Otherwise the call is refused `stale_buffer`, naming the overlapping lines, with
//!    `diagnostics.changed_since`: the unified diff old → current (bounded by
//!    [`MAX_DIFF_LINES`]), so the agent need not read the whole file again.
//!
//! A call that deletes a stale file, or a stale file the host deleted since, always
//! overlaps. Files the call did not send a stale version for are handled as usual.
//! The result is computed against the host's current texts, so hosts apply it as any
//! other; nothing here writes, and a dry run rebases the same way.

use super::living::Living;
use super::workspace;
use crate::args::Args;
use crate::changes::{changed_lines, describe};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::change_set::{ChangeSet, Splices};
use crate::text::diff::diff_lines;
use crate::text::encoding::FileEncoding;
use crate::text::version_of;
use crate::tools::{Ctx, Outcome, StaleRead, Tool};
use crate::workspace::{Changed, Content, Files, Workspace};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

/// Lines around each written stretch taken as read by a tool that notes no reads.
pub const READ_MARGIN: usize = 1;

/// Most lines of `changed_since` in a refusal; the rest is cut with a note.
pub const MAX_DIFF_LINES: usize = 200;

/// An editing call's outcome before it becomes a result: what the tool said and the
/// changes to report against the host's texts.
pub struct Done {
    pub message: String,
    pub warnings: Vec<String>,
    pub matched_via: Option<crate::locate::MatchedVia>,
    pub extra: Map<String, Value>,
    pub changes: Vec<Changed>,
    /// The encodings (not plain UTF-8) of the files the call deleted, for undo_edit.
    pub deleted_encodings: Vec<(String, &'static str)>,
}

/// The host's files, the call's roots and its `encoding` argument.
pub type Host<'a> = (&'a dyn Files, &'a [String], Option<FileEncoding>);

/// The host's files with the held old texts standing in for the stale ones.
struct Rewound<'a> {
    base: &'a dyn Files,
    old: &'a BTreeMap<String, Arc<String>>,
}

impl Files for Rewound<'_> {
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        match self.old.get(path) {
            Some(t) => Ok(Some(t.as_ref().clone())),
            None => self.base.read(path),
        }
    }

    fn read_shared(&self, path: &str) -> EditResult<Option<Arc<String>>> {
        match self.old.get(path) {
            Some(t) => Ok(Some(t.clone())),
            None => self.base.read_shared(path),
        }
    }

    fn identity(&self, path: &str) -> EditResult<Option<String>> {
        self.base.identity(path)
    }

    fn read_for_search(&self, path: &str) -> EditResult<Option<Content>> {
        match self.old.get(path) {
            Some(t) => Ok(Some(Content::Text(t.clone()))),
            None => self.base.read_for_search(path),
        }
    }

    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        self.base.list(folder)
    }

    fn take_list_warnings(&self) -> Vec<String> {
        self.base.take_list_warnings()
    }

    fn read_content(&self, path: &str) -> EditResult<Option<Content>> {
        match self.old.get(path) {
            // Decoded already; the current file's encoding judges the merged text.
            Some(t) => Ok(Some(Content::Text(t.clone()))),
            None => self.base.read_content(path),
        }
    }
}

/// Rebases a call refused for `stale` versions; None when a stale version is not held
/// (the refusal then stands as it is).
pub fn rebase(
    tool: &Tool,
    args: &Args,
    (files, roots, encoding): Host,
    living: &Living,
    stale: &[StaleRead],
) -> Option<EditResult<Done>> {
    let mut old: BTreeMap<String, (String, Arc<String>)> = BTreeMap::new();
    let mut stale = stale.to_vec();
    // Each round rewinds at least one more file, so this ends.
    loop {
        let before = old.len();
        for s in &stale {
            if !old.contains_key(&s.path) {
                old.insert(
                    s.path.clone(),
                    (s.expected.clone(), living.text_of(&s.path, &s.expected)?),
                );
            }
        }
        if old.len() == before {
            return None;
        }
        let texts: BTreeMap<String, Arc<String>> = old
            .iter()
            .map(|(p, (_, t))| (p.clone(), t.clone()))
            .collect();
        let reader = Rewound {
            base: files,
            old: &texts,
        };
        let mut ctx = Ctx::new(workspace(&reader, roots, encoding));
        match (tool.run)(&mut ctx, args) {
            Ok(Outcome::Edited { message }) => {
                return Some(land(ctx, message, workspace(files, roots, encoding), &old))
            }
            Ok(_) => return None,
            Err(e) if e.kind == ErrorKind::StaleBuffer && !ctx.stale.is_empty() => {
                stale = ctx.stale;
            }
            Err(e) => return Some(Err(e)),
        }
    }
}

/// Lands the changes computed on the old texts on the current ones.
fn land(
    ctx: Ctx,
    message: String,
    mut ws: Workspace,
    old: &BTreeMap<String, (String, Arc<String>)>,
) -> EditResult<Done> {
    let mut warnings = ctx.warnings;
    for c in ctx.ws.changes() {
        let Some((expected, old_text)) = old.get(&c.path) else {
            carry(&mut ws, &c)?;
            continue;
        };
        let current = ws.try_read(&c.path)?;
        let reads: Vec<Range<usize>> = ctx
            .reads
            .iter()
            .filter(|(p, _)| *p == c.path)
            .map(|(_, r)| r.clone())
            .collect();
        let merged = match (&current, &c.current) {
            (Some(cur), Some(edited)) => merge(
                old_text,
                cur,
                (edited, &c.change_set()),
                (!reads.is_empty()).then_some(reads.as_slice()),
            ),
            _ => Err(Overlap::whole()),
        };
        let merged =
            merged.map_err(|o| refusal(&c.path, expected, old_text, current.as_ref(), &o))?;
        let now = current.as_deref().map_or("", String::as_str);
        warnings.push(rebased_warning(&c.path, expected, old_text, now, &merged));
        match &c.moved_to {
            Some(dest) => ws.move_file(&c.path, dest, merged.text)?,
            None => ws.splice(&c.path, merged.splices)?,
        }
    }
    warnings.push(
        "Line numbers in the message above are those of the version you read; the result's diff and edits are against the current text.".to_string(),
    );
    let changes = ws.changes();
    Ok(Done {
        message,
        warnings,
        matched_via: ctx.matched_via,
        extra: ctx.extra,
        deleted_encodings: deleted_encodings(&mut ws, &changes)?,
        changes,
    })
}

/// Does to `ws` what the call did to a file it had no stale version of (the host's text,
/// read again): the call's own ranges, when the text is the one the call changed.
fn carry(ws: &mut Workspace, c: &Changed) -> EditResult<()> {
    match (&c.current, &c.moved_to) {
        (Some(t), Some(dest)) => ws.move_file(&c.path, dest, t.as_ref().clone()),
        (Some(t), None) => {
            let now = ws.try_read(&c.path)?;
            if now.as_deref() == c.original.as_deref() {
                ws.splice(&c.path, c.change_set().splices().to_vec())
            } else {
                ws.write(&c.path, t.as_ref().clone())
            }
        }
        (None, _) => ws.delete(&c.path),
    }
}

/// The encodings (not plain UTF-8) of the files `changes` deletes.
pub fn deleted_encodings(
    ws: &mut Workspace,
    changes: &[Changed],
) -> EditResult<Vec<(String, &'static str)>> {
    let mut out = Vec::new();
    for c in changes.iter().filter(|c| c.current.is_none()) {
        if let Some(name) = ws.encoding_of(&c.path)? {
            out.push((c.path.clone(), name));
        }
    }
    Ok(out)
}

/// Where a rebase could not go: `ours` (lines the call reads or writes) overlaps
/// `theirs` (lines changed since), both 0-based in the old text.
#[derive(Debug, PartialEq)]
pub struct Overlap {
    ours: Range<usize>,
    theirs: Range<usize>,
    whole: bool,
}

impl Overlap {
    fn whole() -> Overlap {
        Overlap {
            ours: 0..0,
            theirs: 0..0,
            whole: true,
        }
    }
}

/// A rebased text, the ranges of the current text that give it, and where its first
/// hunk went.
#[derive(Debug, PartialEq)]
pub struct Merged {
    pub text: String,
    /// The call's changed lines moved onto the current text: its byte ranges and their
    /// new texts.
    pub splices: Splices,
    /// First line (0-based) of the first hunk in the old text, and in the current one.
    pub first: Option<(usize, usize)>,
    /// Line stretches changed since (old text's lines).
    pub changed: Vec<Range<usize>>,
}

/// Applies the call's change of `old` (`edited`, and the ranges the call recorded that
/// give it) to `current`, when the changes `old` → `current` (the host's, diffed: no
/// ranges are recorded for them) do not overlap the lines it changes or `reads` (0-based
/// old lines). A tool that notes no reads (None: apply_patch, edit_file, move_block,
/// replace_function_body, whose matches are hunks, stretches and blocks) is taken to
/// read [`READ_MARGIN`] line around every stretch it writes, as a patch's context would.
pub fn merge(
    old: &str,
    current: &str,
    (edited, change): (&str, &ChangeSet),
    reads: Option<&[Range<usize>]>,
) -> Result<Merged, Overlap> {
    let o: Vec<&str> = old.split_inclusive('\n').collect();
    let c: Vec<&str> = current.split_inclusive('\n').collect();
    let e: Vec<&str> = edited.split_inclusive('\n').collect();
    let since = stretches(&o, &c);
    let ours = joined(changed_lines(old, edited, change));
    let margins: Vec<Range<usize>> = match reads {
        Some(_) => Vec::new(),
        None => ours
            .iter()
            .map(|(r, _)| r.start.saturating_sub(READ_MARGIN)..(r.end + READ_MARGIN).min(o.len()))
            .collect(),
    };
    let reads = reads.unwrap_or(&margins);
    for x in ours.iter().map(|(r, _)| r).chain(reads) {
        if let Some((y, _)) = since.iter().find(|(y, _)| overlaps(x, y)) {
            return Err(Overlap {
                ours: x.clone(),
                theirs: y.clone(),
                whole: false,
            });
        }
    }
    // Where each line of the current text starts (and its end).
    let mut starts = Vec::with_capacity(c.len() + 1);
    starts.push(0);
    for l in &c {
        starts.push(starts[starts.len() - 1] + l.len());
    }
    let mut splices = Splices::with_capacity(ours.len());
    let mut at = 0;
    let mut first = None;
    for (w, new) in &ours {
        let shift: isize = since
            .iter()
            .filter(|(y, _)| y.end <= w.start)
            .map(|(y, n)| n.len() as isize - y.len() as isize)
            .sum();
        let start = w
            .start
            .checked_add_signed(shift)
            .ok_or_else(Overlap::whole)?;
        let end = start + w.len();
        if start < at || c.get(start..end) != o.get(w.clone()) {
            return Err(Overlap::whole());
        }
        first.get_or_insert((w.start, start));
        splices.push((starts[start]..starts[end], e[new.clone()].concat()));
        at = end;
    }
    Ok(Merged {
        text: crate::text::splice(current, &splices),
        splices,
        first,
        changed: since.into_iter().map(|(y, _)| y).collect(),
    })
}

/// Whether two line ranges conflict: they share a line, an insertion falls strictly
/// inside the other, or both insert at one place (their order would be a guess).
fn overlaps(x: &Range<usize>, y: &Range<usize>) -> bool {
    match (x.is_empty(), y.is_empty()) {
        (false, false) => x.start < y.end && y.start < x.end,
        (true, false) => y.start < x.start && x.start < y.end,
        (false, true) => x.start < y.start && y.start < x.end,
        (true, true) => x.start == y.start,
    }
}

/// Changed lines that touch on both sides as one stretch.
fn joined(lines: Vec<(Range<usize>, Range<usize>)>) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::with_capacity(lines.len());
    for (a, b) in lines {
        match out.last_mut() {
            Some((x, y)) if x.end == a.start && y.end == b.start => {
                x.end = a.end;
                y.end = b.end;
            }
            _ => out.push((a, b)),
        }
    }
    out
}

/// The stretches where `a` and `b` differ: (lines of `a`, lines of `b`), in order.
fn stretches(a: &[&str], b: &[&str]) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    for op in diff_lines(a, b) {
        let (equal, da, db) = crate::text::diff::op_lens(&op);
        if !equal {
            match out.last_mut() {
                Some((x, y)) if x.end == i && y.end == j => {
                    x.end += da;
                    y.end += db;
                }
                _ => out.push((i..i + da, j..j + db)),
            }
        }
        i += da;
        j += db;
    }
    out
}

/// 1-based "lines A-B" of a 0-based range (an empty range: where it inserts).
fn lines_label(r: &Range<usize>) -> String {
    match r.len() {
        0 if r.start == 0 => "before line 1".to_string(),
        0 => format!("between lines {} and {}", r.start, r.start + 1),
        1 => format!("line {}", r.start + 1),
        _ => format!("lines {}-{}", r.start + 1, r.end),
    }
}

fn rebased_warning(path: &str, expected: &str, old: &str, now: &str, m: &Merged) -> String {
    let changed: Vec<String> = m.changed.iter().take(5).map(lines_label).collect();
    let shift = match m.first {
        Some((was, is)) if was != is => format!(
            ", moved {} {} line(s) (line {} of the version you read is line {} now)",
            if is > was { "down" } else { "up" },
            is.abs_diff(was),
            was + 1,
            is + 1
        ),
        _ => " at the same line numbers".to_string(),
    };
    format!(
        "Rebased: {path} changed since the version you read ({expected}; changed: {} of it; {} then, {} now). Your edit touches none of those lines, so it was applied to the current text{shift}.",
        changed.join(", "),
        crate::text::words::counted(crate::text::count_lines(old), "line"),
        crate::text::count_lines(now)
    )
}

/// The `stale_buffer` refusal of an edit that overlaps what changed since.
fn refusal(
    path: &str,
    expected: &str,
    old: &Arc<String>,
    current: Option<&Arc<String>>,
    o: &Overlap,
) -> EditError {
    let now = current.map_or_else(|| "(deleted)".to_string(), |t| version_of(t));
    let where_ = if o.whole {
        match current {
            None => "the file was deleted since".to_string(),
            Some(_) => "your edit deletes the file".to_string(),
        }
    } else {
        format!(
            "{} of the version you read changed since, and your edit reads or writes {} there",
            lines_label(&o.theirs),
            lines_label(&o.ours)
        )
    };
    let next = match current {
        Some(_) => format!(
            "diagnostics.changed_since shows what changed since your read: send the edit again against the current text, with expected_version: \"{now}\""
        ),
        None => "Read the project's files again before editing it".to_string(),
    };
    let diff = changed_since(path, old, current);
    EditError::new(
        ErrorKind::StaleBuffer,
        format!(
            "{path} changed since you read it (expected_version {expected}, now {now}) and the change overlaps your edit: {where_}. Nothing was changed. {next}."
        ),
    )
    .with_diagnostics(json!({
        "expected_version": expected,
        "current_version": now,
        "changed_since": diff,
    }))
}

/// The unified diff `old` → `current`, cut after [`MAX_DIFF_LINES`] lines.
pub fn changed_since(path: &str, old: &Arc<String>, current: Option<&Arc<String>>) -> String {
    let change = describe(
        Changed {
            path: path.to_string(),
            original: Some(old.clone()),
            current: current.cloned(),
            moved_to: None,
            encoding: None,
            change: None,
        },
        false,
    );
    let lines: Vec<&str> = change.diff.split_inclusive('\n').collect();
    if lines.len() <= MAX_DIFF_LINES {
        return change.diff;
    }
    let mut cut: String = lines[..MAX_DIFF_LINES].concat();
    cut.push_str(&format!(
        "... ({} more lines of diff; read the file for the rest)\n",
        lines.len() - MAX_DIFF_LINES
    ));
    cut
}

#[cfg(test)]
mod tests;
