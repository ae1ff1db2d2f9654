//! The batch in one pass, for the common case: every item is a plain byte-exact
//! old_str found once in its file, far enough from the others that no earlier item
//! can change what it finds. Then the items are located in the files as they were
//! before the batch (one search each), checked, and each file is written once, as one
//! change (`Workspace::splice`), instead of item by item (a rebuild of the file each).
//!
//! The outcome is the one running the items in order gives (`run_item`, the
//! reference): the same text, messages (line numbers as each item saw them), reads
//! noted and warnings (none). A batch that does not qualify returns `None` before
//! anything is written, and runs in order.
//!
//! An item qualifies when it carries no hint or selection (occurrence, line_hint,
//! after/between/function_hint, replace_all, expected_replacements), names its file by
//! the name the call knows it by, its old_str has no `\r` and does not start with `\n`,
//! its new_str has no `\r` and does not contain its
//! old_str (the already-applied check looks around the match), the file has one
//! line-ending style, and old_str occurs exactly once there (overlaps included). Then,
//! for each earlier item on the file, what that item wrote plus as much of the file on
//! each side as old_str is long must not hold old_str across the written part (a match
//! the earlier item would have made), with no third earlier item inside that margin.

use super::str_replace::{self, StrReplaceArgs};
use super::{Ctx, Done, Item};
use crate::args::Args;
use crate::error::EditResult;
use crate::locate::{self, scope, MatchedVia, Via};
use crate::text::Text;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

/// One located item.
struct Found<'p> {
    /// The item's index in the batch.
    index: usize,
    path: &'p str,
    /// The bytes old_str matched (exactly: they are old_str).
    range: Range<usize>,
    /// What the item writes there.
    written: String,
}

/// Runs the whole batch at once, or `None` (nothing done) when it does not qualify.
pub(super) fn run(ctx: &mut Ctx, items: &[EditResult<Args>]) -> Option<Vec<Item>> {
    let mut files: HashMap<String, Arc<String>> = HashMap::new();
    let mut paths = Vec::with_capacity(items.len());
    for item in items {
        let path = qualify(ctx, item.as_ref().ok()?)?;
        if !files.contains_key(&path) {
            let src = ctx.ws.read(&path).ok()?;
            files.insert(path.clone(), one_ending(&src)?);
        }
        paths.push(path);
    }
    let texts: HashMap<&str, Text> = files
        .iter()
        .map(|(p, src)| (p.as_str(), Text::new(src)))
        .collect();
    let mut found = Vec::with_capacity(items.len());
    for (index, (item, path)) in items.iter().zip(&paths).enumerate() {
        found.push(locate(
            index,
            item.as_ref().ok()?,
            path,
            texts.get(path.as_str())?,
        )?);
    }
    let mut by_file: HashMap<&str, Vec<&Found>> = HashMap::new();
    for f in &found {
        by_file.entry(f.path).or_default().push(f);
    }
    let mut shifts = vec![0isize; found.len()];
    for (path, file) in by_file.iter_mut() {
        file.sort_by_key(|f| f.range.start);
        let text = texts.get(path)?.as_str();
        independent(text, file)?;
        line_shifts(text, file, &mut shifts);
    }
    // Qualified: write each file once, then report as the items in order would. A write
    // refused (a character the file's encoding lacks) is left to the items in order,
    // which name the item: nothing of this pass stays.
    let before = ctx.ws.snapshot();
    for (path, file) in &by_file {
        let splices = file
            .iter()
            .map(|f| (f.range.clone(), f.written.clone()))
            .collect();
        if ctx.ws.splice(path, splices).is_err() {
            ctx.ws.restore(before);
            return None;
        }
    }
    let mut out = Vec::with_capacity(found.len());
    for f in &found {
        let text = texts.get(f.path)?;
        let shift = |line: usize| line.checked_add_signed(shifts[f.index]).unwrap_or(line);
        let first = shift(text.line_of(f.range.start));
        let last = shift(text.line_of(f.range.end - 1));
        ctx.note_read(f.path, first..last + 1);
        out.push(Item {
            number: f.index + 1,
            path: Some(f.path.to_string()),
            result: Ok(Done {
                message: format!("Replaced 1 occurrence at line {} of {}.", first + 1, f.path),
                via: Some(MatchedVia::Level(Via::Exact)),
                warnings: Vec::new(),
            }),
        });
    }
    Some(out)
}

/// The item's file (its path as the call knows it), when the item qualifies by its
/// arguments alone.
fn qualify(ctx: &mut Ctx, args: &Args) -> Option<String> {
    let a = StrReplaceArgs::from_args(args);
    let plain = a.occurrence.is_none()
        && a.line_hint.is_none()
        && a.after_hint.is_none()
        && a.between_hint.is_none()
        && a.function_hint.is_none()
        && !a.replace_all
        && a.expected_replacements.is_none()
        && a.expected_version.is_none();
    let (old, new) = (a.old_str, a.new_str);
    // An old_str holding a `\r`, or starting with the `\n` of a `\r\n`, can leave a
    // lone `\r` or `\n`: the file's ending style, which later items write, changes.
    if !plain || old.is_empty() || old.contains('\r') || old.starts_with('\n') {
        return None;
    }
    if new.contains('\r') || new.contains(old) {
        return None;
    }
    let path = ctx.ws.path(a.path?).ok()?;
    str_replace::check_request(&path, old, new, a.allow_placeholders).ok()?;
    (ctx.ws.name_of(&path).ok()? == path).then_some(path)
}

/// `src` when its line breaks are all `\n` or all `\r\n`, with no other `\r`: then the
/// ending each item writes is the file's, before and after the earlier items.
fn one_ending(src: &Arc<String>) -> Option<Arc<String>> {
    let cr = memchr::memchr_iter(b'\r', src.as_bytes()).count();
    let crlf = memchr::memmem::find_iter(src.as_bytes(), b"\r\n").count();
    let lf = memchr::memchr_iter(b'\n', src.as_bytes()).count();
    (cr == crlf && (crlf == 0 || crlf == lf)).then(|| src.clone())
}

/// Locates one item in its file as it was before the batch, when old_str occurs there
/// once and the item would change it.
fn locate<'p>(index: usize, args: &Args, path: &'p str, text: &Text) -> Option<Found<'p>> {
    let a = StrReplaceArgs::from_args(args);
    let scope = scope::resolve(text, args, path).ok()?;
    if scope.label.is_some() || scope.range != (0..text.len()) {
        return None;
    }
    let [c] = locate::find_exact(text, a.old_str, &scope)
        .try_into()
        .ok()?;
    let written = c.render(text, a.new_str).ok()?;
    if text.as_str().get(c.range.clone()) == Some(written.as_str()) {
        return None;
    }
    Some(Found {
        index,
        path,
        range: c.range,
        written,
    })
}

/// `None` when an item's old_str could meet what an earlier item on the file wrote
/// (`file`: the file's items sorted by place), or two items overlap.
fn independent(text: &str, file: &[&Found]) -> Option<()> {
    if file.windows(2).any(|w| w[0].range.end > w[1].range.start) {
        return None;
    }
    for (p, j) in file.iter().enumerate() {
        for k in file.iter().filter(|k| k.index > j.index) {
            let margin = k.range.len() - 1;
            let from = j.range.start.saturating_sub(margin);
            let to = (j.range.end + margin).min(text.len());
            // A third earlier item inside the margin would change the window.
            let left = file[..p].iter().rev().take_while(|i| i.range.end > from);
            let right = file[p + 1..].iter().take_while(|i| i.range.start < to);
            if left.chain(right).any(|i| i.index < k.index) {
                return None;
            }
            let head = text.get(from..j.range.start)?;
            let tail = text.get(j.range.end..to)?;
            if crosses(head, &j.written, tail, &text[k.range.clone()]) {
                return None;
            }
        }
    }
    Some(())
}

/// Whether `needle` occurs in `head + written + tail` touching `written` (or, when
/// `written` is empty, across the point between `head` and `tail`).
fn crosses(head: &str, written: &str, tail: &str, needle: &str) -> bool {
    let window = format!("{head}{written}{tail}");
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let (lo, hi) = (head.len(), head.len() + written.len());
    let mut at = 0;
    while let Some(i) = finder.find(&window.as_bytes()[at..]) {
        let start = at + i;
        let end = start + needle.len();
        // Touching the written bytes, or (nothing written) spanning the point.
        let touches = if written.is_empty() {
            start < lo && end > lo
        } else {
            start < hi && end > lo
        };
        if touches {
            return true;
        }
        at = start + 1;
    }
    false
}

/// Each item's line shift: how many lines the earlier items above it on the file
/// added (the line numbers it saw, running after them).
fn line_shifts(text: &str, file: &[&Found], shifts: &mut [isize]) {
    let lines = |s: &str| memchr::memchr_iter(b'\n', s.as_bytes()).count() as isize;
    for (p, k) in file.iter().enumerate() {
        shifts[k.index] = file[..p]
            .iter()
            .filter(|j| j.index < k.index)
            .map(|j| lines(&j.written) - lines(&text[j.range.clone()]))
            .sum();
    }
}
