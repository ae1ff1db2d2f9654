//! A hunk whose old lines (context and removed) are all blank: blank lines alone place
//! nothing. Every run of as many blank lines is a candidate place, whatever the run
//! around it, so a run of three blank lines admits two places for a two-line context.
//! A unified hunk is placed by its line numbers: at the candidate that starts exactly
//! on its old start line, refused when none does. A V4A hunk (no line numbers) is
//! placed only where the file has exactly one candidate; two or more are `ambiguous`.
//!
//! The file's blank lines are kept byte for byte (whitespace on a blank line is not
//! rewritten); `-` blank lines are removed, `+` lines written in the file's line ending.

use super::search::{ambiguous, mismatch, HunkSite, Placement};
use super::Sign;
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::{in_file_ending, Scope};
use crate::text::words::capitalized;
use crate::text::Text;
use serde_json::json;

/// Most candidate places listed in a refusal.
const LISTED: usize = 12;

/// Whether `site`'s hunk has old lines and all of them are blank.
pub fn blank_only(site: &HunkSite) -> bool {
    let mut old = site.hunk.old_lines().peekable();
    old.peek().is_some() && old.all(|l| l.trim().is_empty())
}

/// 0-based first lines of every run of `k` blank lines that starts at or after line
/// `from` (and ends the file, when `at_end`), at most `cap` of them.
pub fn blank_places(text: &Text, from: usize, k: usize, at_end: bool, cap: usize) -> Vec<usize> {
    let count = text.line_count();
    let mut out = Vec::new();
    let mut run = 0;
    // Walking backwards, `run` is how many blank lines start at line i.
    let mut starts = Vec::new();
    for i in (from..count).rev() {
        run = if text.line(i).trim().is_empty() {
            run + 1
        } else {
            0
        };
        if run >= k && (!at_end || i + k == count) {
            starts.push(i);
        }
    }
    for i in starts.into_iter().rev() {
        if out.len() == cap {
            break;
        }
        out.push(i);
    }
    out
}

/// Places a blank-only hunk (see the module doc), searching from byte `start`.
pub fn place_on_blanks(
    text: &Text,
    start: usize,
    scope: &Scope,
    site: &HunkSite,
) -> EditResult<Placement> {
    let hunk = site.hunk;
    let k = hunk.old_lines().count();
    let ends_file = hunk.end_of_file || hunk.old_no_newline;
    let from = text.line_of(start);
    let places = blank_places(text, from, k, ends_file, LISTED + 1);
    let lines: Vec<usize> = places.iter().map(|i| i + 1).collect();
    let first = match (hunk.line_hint, places.len()) {
        (_, 0) => {
            let needle = format!("{}\n", vec![""; k].join("\n"));
            return Err(mismatch(text, &needle, scope, site));
        }
        (Some(h), _) => match places.iter().find(|&&i| i + 1 == h) {
            Some(&i) => i,
            None => return Err(not_at_line(site, h, k, &lines)),
        },
        (None, 1) => places[0],
        (None, _) => return Err(ambiguous(text, &lines, scope, site, None)),
    };
    let range = text.line_start(first)..text.line_start(first + k);
    // A hunk that carries its own `\r` holds the file's exact bytes: written as is.
    let verbatim = hunk.carries_crs();
    let mut kept = (first..first + k).map(|i| text.line(i));
    let mut written: Vec<&str> = Vec::new();
    for (sign, line) in &hunk.lines {
        match sign {
            Sign::Context if verbatim => {
                kept.next();
                written.push(line);
            }
            Sign::Context => written.push(kept.next().unwrap_or("")),
            Sign::Remove => {
                kept.next();
            }
            Sign::Add => written.push(line),
        }
    }
    let mut block = written.join("\n");
    let at_end = range.end == text.len();
    // As any hunk: the file's unterminated last line takes a newline only when the
    // hunk says the old side had none and the new side has one.
    let newline_after = if at_end && !text.ends_with_newline() {
        hunk.old_no_newline && !hunk.new_no_newline
    } else {
        !(hunk.new_no_newline && at_end)
    };
    if !written.is_empty() && newline_after {
        block.push('\n');
    }
    let note = format!(
        "{} has only blank lines as context; it was placed at line {} ({}).",
        capitalized(site.label),
        first + 1,
        if hunk.line_hint.is_some() {
            "its line number"
        } else {
            "the only place with that many blank lines"
        }
    );
    if !verbatim {
        block = in_file_ending(text, first, &block);
    }
    Ok(Placement {
        range,
        text: block,
        via: None,
        notes: vec![note],
        advances: true,
    })
}

/// A unified blank-only hunk whose line number `h` is not where `k` blank lines are.
fn not_at_line(site: &HunkSite, h: usize, k: usize, lines: &[usize]) -> EditError {
    let shown: Vec<String> = lines.iter().take(LISTED).map(usize::to_string).collect();
    EditError::new(
        ErrorKind::PatchContextMismatch,
        format!(
            "{} has only blank lines as context, and blank lines alone place nothing: its line number {h} is not where {k} blank line{} stand (they do at line{} {}). Nothing was changed. Add 2-3 non-blank unchanged lines around the added ones (lines starting with ' '), or fix the `@@ -{h}` line number, then send the whole patch again.",
            capitalized(site.label),
            if k == 1 { "" } else { "s" },
            if lines.len() == 1 { "" } else { "s" },
            shown.join(", ")
        ),
    )
    .with_diagnostics(json!({"path": site.path, "line_hint": h, "blank_runs_at": lines}))
}
