//! Where a hunk goes: anchors, then the hunk's old lines, found once, on whole lines.
//!
//! A hunk is searched after the previous hunk of the same file (hunks are in file
//! order) and after each of its `@@` anchors in turn: an anchor moves the start of the
//! search to the line after the first line at or below the current start that contains
//! it. The old lines (context and removed) are then looked up with
//! [`locate::find`] — the same cascade as `str_replace`, so a hunk recovers from exactly
//! the mistakes an `old_str` recovers from — and only matches that start and end on
//! line boundaries count. They must be found exactly once; a unified diff's line number
//! picks the nearest of several equal matches (a tie is refused).
//!
//! `find` reports non-overlapping matches, so a match can hide another one starting
//! inside it (a hunk of repeated lines). The search resumes at the next line of every
//! multi-line match to see those too: ambiguity is never missed.
//!
//! The bytes written come from [`Candidate::render`], so a match found by a tolerant
//! level keeps the file's own bytes where the level says so, and added lines get the
//! file's line ending. A hunk whose lines carry their own `\r` (a diff of a CRLF file)
//! is written byte for byte when it matched exactly.

use super::{Format, Hunk, Sign};
use crate::diagnose::{self, applied, Report};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::{self, in_file_ending, Candidate, Fix, LineRole, Scope, Via};
use crate::text::words::{capitalized, lines_label, visible};
use crate::text::{Text, BOM};
use serde_json::{json, Value};
use std::ops::Range;

/// How many equal matches are collected before a hunk is called ambiguous.
const LISTED: usize = 12;
/// How many are collected when a line number can choose among them.
const WITH_HINT: usize = 200;

/// A hunk and how to name it in messages.
pub struct HunkSite<'a> {
    /// E.g. "hunk 2 of `*** Update File: src/a.py` (patch line 14)".
    pub label: &'a str,
    pub path: &'a str,
    pub hunk: &'a Hunk,
    pub format: Format,
}

/// Where a hunk landed and what it writes there.
#[derive(Debug)]
pub struct Placement {
    /// Bytes of the text replaced (empty for a pure addition).
    pub range: Range<usize>,
    /// The bytes written in their place.
    pub text: String,
    /// How the old lines matched (None for a pure addition).
    pub via: Option<Via>,
    /// What the matching level corrected, for `warnings`.
    pub notes: Vec<String>,
    /// False for lines appended at the end without an anchor: the next hunk is still
    /// searched from where this one started.
    pub advances: bool,
}

/// Places `site.hunk` in `text`, searching from byte `from` (a line start).
pub fn place(text: &Text, from: usize, site: &HunkSite) -> EditResult<Placement> {
    place_with(text, from, site, true)
}

/// [`place`] for a try whose failure may be thrown away: old lines found nowhere
/// answer a bare `patch_context_mismatch`, without the diagnosis (a search of the
/// closest area, as costly as the search itself).
pub fn try_place(text: &Text, from: usize, site: &HunkSite) -> EditResult<Placement> {
    place_with(text, from, site, false)
}

fn place_with(text: &Text, from: usize, site: &HunkSite, diagnose: bool) -> EditResult<Placement> {
    let hunk = site.hunk;
    let (start, after) = resolve_anchors(text, from, site)?;
    if hunk.is_pure_addition() {
        return place_addition(text, start, site);
    }
    if text.is_empty() && hunk.old_lines().all(|l| l.trim().is_empty()) {
        return fill_empty(text, site);
    }
    if super::blanks::blank_only(site) {
        let scope = Scope {
            range: start..text.len(),
            label: after,
            nearest: false,
        };
        return super::blanks::place_on_blanks(text, start, &scope, site);
    }
    let verbatim = hunk.carries_crs();
    let old: Vec<&str> = hunk.old_lines().collect();
    let eol = if verbatim {
        "\n"
    } else {
        text.ending().as_str()
    };
    let joined = old.join(eol);
    let terminated = format!("{joined}{eol}");
    let scope = Scope {
        range: start..text.len(),
        label: after.clone(),
        nearest: false,
    };

    // (candidate, matched the file's unterminated last line)
    let mut found: Vec<(Candidate, bool)> = Vec::new();
    let mut level_notes = Vec::new();
    let cap = if hunk.line_hint.is_some() {
        WITH_HINT
    } else {
        LISTED
    };
    if !hunk.old_no_newline || text.ends_with_newline() {
        let ends_at_eof = hunk.old_no_newline;
        for c in line_matches(
            text,
            &terminated,
            &scope,
            ends_at_eof,
            cap,
            &mut level_notes,
        ) {
            found.push((c, false));
        }
    }
    if !text.ends_with_newline() {
        for c in line_matches(text, &joined, &scope, true, cap, &mut level_notes) {
            found.push((c, true));
        }
    }
    // The cascade's rule: the most exact level that found anything decides.
    if let Some(best) = found.iter().map(|(c, _)| c.via).min() {
        found.retain(|(c, _)| c.via == best);
    }
    if hunk.end_of_file {
        let src = text.as_str();
        found.retain(|(c, _)| src[c.range.end..].trim().is_empty());
    }
    found.sort_by_key(|(c, _)| c.range.start);
    found.dedup_by_key(|(c, _)| c.range.start);

    let (chosen, unterminated, choice_note) = match found.len() {
        0 if !diagnose => return Err(EditError::new(ErrorKind::PatchContextMismatch, "")),
        0 => return Err(mismatch(text, &terminated, &scope, site)),
        1 => {
            let (c, u) = found.remove(0);
            (c, u, None)
        }
        _ => choose_by_hint(text, found, &scope, site)?,
    };

    let written = hunk_text(text, hunk, &chosen, unterminated, verbatim)?;
    let label = capitalized(site.label);
    let mut notes: Vec<String> = level_notes
        .into_iter()
        .map(|n| format!("{label}: {n}"))
        .collect();
    notes.extend(choice_note);
    Ok(Placement {
        range: chosen.range.clone(),
        text: written,
        via: Some(chosen.via),
        notes,
        advances: true,
    })
}

/// The text a hunk writes over its match `chosen` (`unterminated`: it matched the
/// file's last line without its newline; `verbatim`: the hunk carries its own `\r`).
fn hunk_text(
    text: &Text,
    hunk: &Hunk,
    chosen: &Candidate,
    unterminated: bool,
    verbatim: bool,
) -> EditResult<String> {
    let new: Vec<&str> = hunk.new_lines().collect();
    let mut replacement = new.join("\n");
    let at_end = chosen.range.end == text.len();
    let newline_after = !new.is_empty()
        && if unterminated {
            hunk.old_no_newline && !hunk.new_no_newline
        } else {
            !(hunk.new_no_newline && at_end)
        };
    if newline_after {
        replacement.push('\n');
    }
    Ok(if verbatim && chosen.fix == Fix::Literal {
        replacement
    } else {
        // The hunk's own marks say which lines it keeps: never re-derive that by diffing
        // (a context line stripped of its whitespace would pair with an added blank line).
        chosen.render_with_roles(text, &replacement, Some(&line_roles(hunk)))?
    })
}

/// Each new line's role from the hunk's marks: a context line keeps its old line; a `+`
/// line right after `-` lines stands for one of them (changed); any other `+` is added.
fn line_roles(hunk: &Hunk) -> Vec<LineRole> {
    let mut roles = Vec::new();
    let (mut old, mut removed_run) = (0, 0);
    for (sign, _) in &hunk.lines {
        match sign {
            Sign::Context => {
                roles.push(LineRole::Kept(old));
                old += 1;
                removed_run = 0;
            }
            Sign::Remove => {
                old += 1;
                removed_run += 1;
            }
            Sign::Add if removed_run > 0 => {
                roles.push(LineRole::Changed);
                removed_run -= 1;
            }
            Sign::Add => roles.push(LineRole::Added),
        }
    }
    roles
}

/// Applies the hunk's `@@` anchors from `from`; returns where the hunk's search starts
/// and a label for that scope ("after the `@@ def f` anchor at line 12").
fn resolve_anchors(
    text: &Text,
    from: usize,
    site: &HunkSite,
) -> EditResult<(usize, Option<String>)> {
    let hunk = site.hunk;
    let mut start = from;
    let mut label = (from > 0).then(|| {
        format!(
            "lines {}-{} (after the previous hunk)",
            text.line_of(from) + 1,
            text.line_count()
        )
    });
    let first_old = hunk.old_lines().next().map(str::trim);
    for (k, anchor) in hunk.anchors.iter().enumerate() {
        let scope = Scope {
            range: start..text.len(),
            label: label.clone(),
            nearest: false,
        };
        // The cascade's first level is byte-exact and its first candidate the earliest:
        // look for that one occurrence directly instead of collecting every occurrence
        // to the end of a large file, and run the cascade only when there is none.
        let hay = &text.as_str().as_bytes()[start..];
        let line = match memchr::memmem::find(hay, anchor.as_bytes()) {
            Some(i) => text.line_of(start + i),
            None => {
                let found = locate::find(text, anchor, &scope, false);
                let Some(c) = found.candidates.first() else {
                    return Err(anchor_missing(text, anchor, &scope, site));
                };
                c.first_line(text)
            }
        };
        // `@@ def f():` followed by ` def f():` names the hunk's own first line.
        let last = k + 1 == hunk.anchors.len();
        let next = if last && first_old == Some(anchor.trim()) {
            line
        } else {
            line + 1
        };
        start = text.line_start(next);
        label = Some(format!(
            "lines {}-{} (after the `@@ {anchor}` anchor at line {})",
            next + 1,
            text.line_count(),
            line + 1
        ));
    }
    Ok((start, label))
}

/// A hunk of `+` lines only: after its anchor, at the end with `*** End of File` or
/// without anchor (as Codex does), or where a unified diff's empty file or top says.
fn place_addition(text: &Text, start: usize, site: &HunkSite) -> EditResult<Placement> {
    let hunk = site.hunk;
    let mut notes = Vec::new();
    let (at, advances) = if hunk.end_of_file {
        (text.len(), false)
    } else if !hunk.anchors.is_empty() {
        (start, true)
    } else if site.format == Format::Unified {
        match hunk.line_hint {
            Some(0) => (0, true),
            _ if text.is_empty() => (0, true),
            Some(h) if h >= text.line_count() => (text.len(), false),
            _ => {
                return Err(EditError::new(
                    ErrorKind::PatchContextMismatch,
                    format!(
                        "{} only adds lines and has no unchanged line to find its place by (line numbers in a diff are only hints). Nothing was changed. Send it with 2-3 unchanged context lines around the added ones (lines starting with ' '), then send the whole patch again.",
                        capitalized(site.label)
                    ),
                ))
            }
        }
    } else {
        if !text.is_empty() {
            notes.push(format!(
                "{} has no context lines and no `@@` anchor, so its lines were added at the end of {}.",
                capitalized(site.label),
                site.path
            ));
        }
        (text.len(), false)
    };
    let new: Vec<&str> = hunk.new_lines().collect();
    let joined = new.join("\n");
    let unterminated_end = at == text.len() && !text.ends_with_newline();
    let mut block = if unterminated_end {
        // Keep "no newline at end of file": the break goes before the new lines.
        format!("\n{joined}")
    } else if hunk.new_no_newline && at == text.len() {
        joined
    } else {
        format!("{joined}\n")
    };
    if !hunk.carries_crs() {
        block = in_file_ending(text, text.line_of(at).saturating_sub(1), &block);
    }
    Ok(Placement {
        range: at..at,
        text: block,
        via: None,
        notes,
        advances,
    })
}

/// A hunk on an empty file whose old lines are all blank (models often quote an empty
/// file as one blank line): its added lines become the file.
fn fill_empty(text: &Text, site: &HunkSite) -> EditResult<Placement> {
    let added: Vec<&str> = site.hunk.added_lines().collect();
    let mut block = added.join("\n");
    if !added.is_empty() && !site.hunk.new_no_newline {
        block.push('\n');
    }
    Ok(Placement {
        range: 0..0,
        text: in_file_ending(text, 0, &block),
        via: None,
        notes: vec![format!(
            "{} is empty; {}'s blank ' '/'-' lines were ignored and its '+' lines written.",
            site.path, site.label
        )],
        advances: true,
    })
}

/// Every match of `needle` in `scope` that starts at a line start (and, with
/// `at_eof`, ends the text), including matches hidden inside other matches; at most
/// `cap`, in file order. Notes from the matching levels are added to `notes`.
fn line_matches(
    text: &Text,
    needle: &str,
    scope: &Scope,
    at_eof: bool,
    cap: usize,
    notes: &mut Vec<String>,
) -> Vec<Candidate> {
    let mut search = Collect {
        text,
        needle,
        needle_lines: needle.matches('\n').count() + 1,
        scope_end: scope.range.end,
        at_eof,
        cap,
        notes,
        out: Vec::new(),
    };
    let found = locate::find_lines(text, needle, scope);
    search.note(found.notes);
    for c in &found.candidates {
        search.take(c);
        search.hidden_in(c);
        if search.full() {
            break;
        }
    }
    let mut out = search.out;
    out.sort_by_key(|c| c.range.start);
    out.dedup_by_key(|c| c.range.start);
    out
}

/// The state of [`line_matches`].
struct Collect<'s, 't> {
    text: &'s Text<'t>,
    needle: &'s str,
    needle_lines: usize,
    scope_end: usize,
    at_eof: bool,
    cap: usize,
    notes: &'s mut Vec<String>,
    out: Vec<Candidate>,
}

impl Collect<'_, '_> {
    fn full(&self) -> bool {
        self.out.len() >= self.cap
    }

    fn note(&mut self, notes: Vec<String>) {
        for n in notes {
            if !self.notes.contains(&n) {
                self.notes.push(n);
            }
        }
    }

    /// Keeps `c` if it is on whole lines.
    fn take(&mut self, c: &Candidate) {
        let line = self.text.line_of(c.range.start);
        // A BOM belongs to no line's content: a match of line 1 starts after it.
        let bom = if line == 0 && self.text.has_bom() {
            BOM.len_utf8()
        } else {
            0
        };
        let aligned = self.text.line_start(line) + bom == c.range.start
            && (!self.at_eof || c.range.end == self.text.len());
        if aligned && !self.full() {
            self.out.push(c.clone());
        }
    }

    /// Matches that start on a later line inside `c` (`find` skips overlapping ones).
    /// The window searched reaches as far past `c` as the needle is long.
    fn hidden_in(&mut self, c: &Candidate) {
        let text = self.text;
        let mut pos = text.line_start(text.line_of(c.range.start) + 1);
        let window_end = text
            .line_start(text.line_of(c.range.end) + self.needle_lines + 1)
            .min(self.scope_end);
        while pos < c.range.end && pos < window_end && !self.full() {
            let window = Scope {
                range: pos..window_end,
                label: None,
                nearest: false,
            };
            let found = locate::find(text, self.needle, &window, false);
            self.note(found.notes);
            let Some(h) = found
                .candidates
                .first()
                .filter(|h| h.range.start < c.range.end)
            else {
                return;
            };
            self.take(h);
            let next = text.line_start(text.line_of(h.range.start) + 1);
            if next <= pos {
                return;
            }
            pos = next;
        }
    }
}

/// Several equal matches: a unified diff's line number picks the nearest; otherwise
/// (or on a tie) the hunk is ambiguous.
fn choose_by_hint(
    text: &Text,
    found: Vec<(Candidate, bool)>,
    scope: &Scope,
    site: &HunkSite,
) -> EditResult<(Candidate, bool, Option<String>)> {
    let lines: Vec<usize> = found.iter().map(|(c, _)| c.first_line(text) + 1).collect();
    let Some(hint) = site.hunk.line_hint else {
        return Err(ambiguous(text, &lines, scope, site, None));
    };
    let best = lines.iter().map(|l| l.abs_diff(hint)).min().unwrap_or(0);
    let nearest: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].abs_diff(hint) == best)
        .collect();
    if nearest.len() != 1 {
        return Err(ambiguous(text, &lines, scope, site, Some(hint)));
    }
    let pick = nearest[0];
    let note = format!(
        "{} matches {} places ({}); its line number {hint} chose line {}.",
        capitalized(site.label),
        lines.len(),
        list(&lines),
        lines[pick]
    );
    let (c, u) = found.into_iter().nth(pick).ok_or_else(|| {
        EditError::invalid("internal: the chosen match disappeared; nothing was changed.")
    })?;
    Ok((c, u, Some(note)))
}

pub(super) fn ambiguous(
    text: &Text,
    lines: &[usize],
    scope: &Scope,
    site: &HunkSite,
    hint: Option<usize>,
) -> EditError {
    let tie = match hint {
        Some(h) => format!(" Its line number {h} is equally near more than one of them."),
        None => String::new(),
    };
    let more = if lines.len() >= LISTED {
        " or more"
    } else {
        ""
    };
    let fix = match site.format {
        Format::V4a => "Add an `@@ <line>` anchor naming a line above the place you mean (its function or class line, copied from the file), or more unchanged context lines,",
        Format::Unified => "Add more unchanged context lines around the change (or send it as a V4A patch with an `@@ <function line>` anchor),",
    };
    EditError::new(
        ErrorKind::Ambiguous,
        format!(
            "{} matches {}{more} places in {}{} (starting at {}): its context and '-' lines are not unique there.{tie} Nothing was changed. {fix} and send the whole patch again.",
            capitalized(site.label),
            lines.len(),
            site.path,
            scope.describe(),
            list(lines)
        ),
    )
    .with_diagnostics(json!({
        "path": site.path,
        "patch_line": site.hunk.line,
        "candidates": lines.iter().map(|l| json!({"line": l, "text": text.line(l - 1)})).collect::<Vec<Value>>(),
    }))
}

/// The refusal for old lines that are not in the file: already applied, or the
/// closest area and the differing lines.
pub(super) fn mismatch(text: &Text, needle: &str, scope: &Scope, site: &HunkSite) -> EditError {
    let hunk = site.hunk;
    let old = hunk.old_lines().collect::<Vec<_>>().join("\n");
    let new = hunk.new_lines().collect::<Vec<_>>().join("\n");
    let edit = applied::Edit {
        old: &old,
        new: &new,
        located: &[],
        tolerant: true,
    };
    if let Some(line) = applied::applied(text, &edit, scope) {
        return EditError::new(
            ErrorKind::AlreadyApplied,
            format!(
                "{} is not in {}, but the lines it would produce already are (line {line}), where its context lines place them: this patch looks applied already, probably by an earlier call. Nothing was changed. If more is needed, read the file near line {line} and send a new patch.",
                capitalized(site.label),
                site.path
            ),
        )
        .with_diagnostics(json!({"path": site.path, "patch_line": hunk.line, "line": line}));
    }
    let report = Report::build(text, needle, scope);
    let mut diagnostics = report.diagnostics(text);
    let mut msg = format!(
        "{} was not found in {}{}.",
        capitalized(site.label),
        site.path,
        scope.describe()
    );
    if let Some(div) = diagnostics["longest_matching_run"]["diverges"].as_object() {
        let expected = div["expected"].as_str().unwrap_or("");
        let found = div["found"].as_str().unwrap_or("");
        // Lines that differ only in whitespace would read "expected ``, found ``":
        // say what the whitespace is instead.
        let difference = match diagnose::whitespace_note(expected, found) {
            Some(note) => note,
            None => format!(
                "expected `{}`, found `{}`",
                shorten(expected),
                shorten(found)
            ),
        };
        msg.push_str(&format!(
            " Its old line {} differs from line {} of the file: {difference}.",
            div["needle_line"], div["line"],
        ));
    }
    let read = match &report.closest {
        Some(c) => {
            if report.whitespace_only(text) {
                msg.push_str(&format!(
                    " {} match except for whitespace (diagnostics.lines shows where).",
                    capitalized(&lines_label(c.first, (c.first + c.len).saturating_sub(1)))
                ));
            } else {
                msg.push_str(&format!(
                    " Closest area: {} (similarity {:.2}); diagnostics.lines shows each differing line.",
                    lines_label(c.first, (c.first + c.len).saturating_sub(1)),
                    c.score
                ));
            }
            let from = c.first.saturating_sub(2) + 1;
            let to = (c.first + c.len + 2).min(text.line_count());
            format!(
                "read_lines {{path: \"{}\", start_line: {from}, end_line: {to}}}",
                site.path
            )
        }
        None => {
            msg.push_str(" Nothing similar is in the file.");
            format!("get_document {{path: \"{}\"}}", site.path)
        }
    };
    msg.push_str(&format!(
        " Nothing was changed. Copy the hunk's ' ' and '-' lines exactly from {read} and send the whole patch again."
    ));
    if let Value::Object(d) = &mut diagnostics {
        d.insert("path".into(), json!(site.path));
        d.insert("patch_line".into(), json!(hunk.line));
    }
    EditError::new(ErrorKind::PatchContextMismatch, msg).with_diagnostics(diagnostics)
}

fn shorten(s: &str) -> String {
    let shown: String = s.trim_end().chars().take(100).collect();
    if s.trim_end().chars().count() > 100 {
        format!("{shown}…")
    } else {
        shown
    }
}

fn anchor_missing(text: &Text, anchor: &str, scope: &Scope, site: &HunkSite) -> EditError {
    let report = Report::build(text, anchor, scope);
    let closest = report
        .closest
        .as_ref()
        .map(|c| {
            format!(
                " The most similar line is {}: {}.",
                c.first + 1,
                diagnose_quote(text.line(c.first))
            )
        })
        .unwrap_or_default();
    let mut diagnostics = report.diagnostics(text);
    if let Value::Object(d) = &mut diagnostics {
        d.insert("path".into(), json!(site.path));
        d.insert("patch_line".into(), json!(site.hunk.line));
        d.insert("anchor".into(), json!(anchor));
    }
    EditError::new(
        ErrorKind::PatchContextMismatch,
        format!(
            "The `@@ {anchor}` anchor of {} does not occur in {}{}.{closest} Nothing was changed. An anchor is a line of the file above the change (its function or class line), copied exactly; fix it or drop it, and send the whole patch again.",
            site.label,
            site.path,
            scope.describe()
        ),
    )
    .with_diagnostics(diagnostics)
}

fn diagnose_quote(line: &str) -> String {
    let shown: String = visible(line.trim_end()).chars().take(100).collect();
    format!("`{shown}`")
}

/// "line 12" / "lines 12, 40 and 88".
fn list(lines: &[usize]) -> String {
    let s: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match s.len() {
        0 => String::new(),
        1 => format!("line {}", s[0]),
        k => format!("lines {} and {}", s[..k - 1].join(", "), s[k - 1]),
    }
}
