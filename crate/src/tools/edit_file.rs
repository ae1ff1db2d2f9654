//! `edit_file`: merge a lazy snippet (the new version of one or more regions, unchanged
//! stretches written as `// ... existing code ...`) into the file, deterministically.
//!
//! The snippet is cut at its **marker lines** (a line that is only an elision, in any
//! comment syntax, or bare `...` / `…`: the placeholder guard's own test). Each
//! **stretch** between markers is placed by its first line (the head) and its last line
//! (the tail), found in order:
//! - the head is searched after the previous stretch, with the recovery cascade, and must
//!   be unique there; when it is not, it widens to the stretch's next lines until it is
//!   (or the call is refused `ambiguous`, naming the stretch and the candidate lines);
//! - the tail is searched between the head and the next stretch's head, widening to the
//!   lines before it in the same way; when it is still not unique and the head line opens
//!   a block whose last line is the tail line, that block's end is the tail (structure,
//!   not a guess); otherwise `ambiguous`.
//! - no marker before the first stretch: it starts at the file's first line; none after
//!   the last: it ends at the file's last line.
//!
//! The file lines from head to tail are replaced by the stretch, re-indented by the rule
//! relating the snippet's anchor lines to the file's; a stretch line equal to a file line
//! of its span (ignoring indentation, trailing whitespace and typography) is written with
//! the file's bytes. Lines outside every span (under a marker) are never touched. A
//! stretch that would remove more than half of its span while the snippet uses markers
//! is refused `placeholder_in_new_str` (the fast-apply models' silent deletion) unless
//! `allow_deletions: true`.

use super::params::*;
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::blocks::Analysis;
use crate::diagnose::Report;
use crate::error::{EditError, EditResult, ErrorKind};
use crate::guard;
use crate::locate::{fold_key, lead, FoldKey, IndentMap, MatchedVia, Scope, Via};
use crate::text::words::lines_label;
use crate::text::{split_lines, Text};
use serde_json::{json, Value};
use std::ops::Range;

pub static SPEC: ToolSpec = ToolSpec {
    name: "edit_file",
    description: "Merge a lazy snippet into a file: code_edit is the new version of one or more \
regions, with unchanged stretches written as a marker line (`// ... existing code ...`, \
`# ... existing code ...`, `<!-- ... existing code ... -->`, or a bare `...`). Each stretch \
between markers is placed by its first and last lines, which must be copied from the file \
(found uniquely, in order; indentation and whitespace slips are recovered). The file's lines \
from a stretch's first line to its last are replaced by the stretch; lines under a marker are \
kept as they are. No marker at the top (bottom) means the snippet starts (ends) at the file's \
first (last) line. Example: {\"path\": \"src/app.js\", \"code_edit\": \"// ... existing code ...\\n\
function retry() {\\n  return 5;\\n}\\n// ... existing code ...\\n\"}",
    params: &[
        PATH,
        Param {
            name: "code_edit",
            aliases: &["snippet", "code", "edit", "content", "new_code"],
            ty: ParamType::String,
            required: true,
            description: "The new version of the regions to change, with marker lines (`// ... existing code ...`) for unchanged stretches.",
        },
        Param {
            name: "instructions",
            aliases: &["instruction", "description"],
            ty: ParamType::String,
            required: false,
            description: "What the edit does, in a sentence (recorded, not used to place it).",
        },
        Param {
            name: "allow_deletions",
            aliases: &[],
            ty: ParamType::Boolean,
            required: false,
            description: "Let a stretch remove more than half of the lines between its first and last line (refused otherwise, as a likely lost placeholder).",
        },
        ALLOW_PLACEHOLDERS,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Merge a lazy snippet",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

/// Byte budget for the line pairing of one stretch with its span (lines × lines); past
/// it only the anchors keep the file's bytes. Keeps any input linear in practice.
const PAIRING_BUDGET: usize = 4_000_000;

/// A stretch of the snippet: its lines and its 1-based number.
struct Stretch<'s> {
    number: usize,
    lines: Vec<&'s str>,
}

/// The snippet cut at its markers.
struct Snippet<'s> {
    stretches: Vec<Stretch<'s>>,
    marker_before: bool,
    marker_after: bool,
    markers: usize,
}

/// Where a stretch goes: file lines `first..=last`, and how its anchors matched.
struct Span {
    first: usize,
    last: usize,
    via: Via,
}

typed_args! {
    /// edit_file's arguments, one field per parameter of [`SPEC`].
    pub struct EditFileArgs<'a> {
        path: &'a str,
        code_edit: &'a str,
        /// Recorded, never acted on.
        instructions: Option<&'a str>,
        allow_deletions: bool,
        allow_placeholders: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_version: Option<&'a str>,
        encoding: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = EditFileArgs::from_args(args);
    let snippet = cut(a.code_edit);
    if snippet.stretches.is_empty() {
        return Err(EditError::invalid(
            "code_edit has only marker lines: there is no code to merge. Send the changed lines between the markers, with their first and last lines copied from the file.",
        ));
    }
    let spans = place_all(&text, &path, &snippet)?;
    let mut replacements = Vec::with_capacity(spans.len());
    let mut placed = Vec::new();
    for (stretch, span) in snippet.stretches.iter().zip(&spans) {
        let (range, new_text) = render(&text, &path, stretch, span, &snippet, &a)?;
        placed.push(json!({
            "stretch": stretch.number,
            "first_line": stretch.lines.first().copied().unwrap_or(""),
            "start_line": span.first + 1,
            "end_line": span.last + 1,
            "matched_via": span.via.as_str(),
        }));
        replacements.push((range, new_text));
    }
    if crate::text::splice(&src, &replacements) == *src {
        return Err(EditError::new(
            ErrorKind::NoChange,
            format!("code_edit matches {path} as it is: merging it changes nothing. Nothing was changed."),
        ));
    }
    ctx.ws.splice(&path, replacements)?;
    ctx.matched_via = Via::least_exact(spans.iter().map(|s| s.via)).map(MatchedVia::Level);
    ctx.extra.insert("stretches".into(), Value::Array(placed));
    let where_: Vec<String> = spans.iter().map(|s| lines_label(s.first, s.last)).collect();
    Ok(Outcome::Edited {
        message: format!(
            "Merged {} stretch{} into {path} ({}).",
            spans.len(),
            if spans.len() == 1 { "" } else { "es" },
            where_.join(", ")
        ),
    })
}

/// Cuts the snippet at marker lines; blank lines at a stretch's edges belong to the
/// marker next to them (they are not anchors).
fn cut(snippet: &str) -> Snippet<'_> {
    let lines = split_lines(snippet);
    let mut out = Snippet {
        stretches: Vec::new(),
        marker_before: false,
        marker_after: false,
        markers: 0,
    };
    let mut current: Vec<&str> = Vec::new();
    let mut seen_code = false;
    for line in lines {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if guard::is_placeholder(line) {
            out.markers += 1;
            if !seen_code {
                out.marker_before = true;
            }
            push_stretch(&mut out.stretches, &mut current);
            out.marker_after = true;
        } else {
            if !line.trim().is_empty() {
                seen_code = true;
                out.marker_after = false;
            }
            current.push(line);
        }
    }
    push_stretch(&mut out.stretches, &mut current);
    out
}

fn push_stretch<'s>(stretches: &mut Vec<Stretch<'s>>, current: &mut Vec<&'s str>) {
    let start = current.iter().position(|l| !l.trim().is_empty());
    let end = current.iter().rposition(|l| !l.trim().is_empty());
    if let (Some(a), Some(b)) = (start, end) {
        stretches.push(Stretch {
            number: stretches.len() + 1,
            lines: current[a..=b].to_vec(),
        });
    }
    current.clear();
}

/// Places every stretch: heads in order, then each tail before the next head.
fn place_all(text: &Text, path: &str, snippet: &Snippet) -> EditResult<Vec<Span>> {
    let n = snippet.stretches.len();
    let last_line = text.line_count().saturating_sub(1);
    let mut heads = Vec::with_capacity(n);
    let mut from = 0;
    for (i, st) in snippet.stretches.iter().enumerate() {
        let head = if i == 0 && !snippet.marker_before {
            (0, Via::Exact)
        } else {
            let (line, via) = find_anchor(text, path, st, from, text.line_count(), End::Head)?;
            (line, via)
        };
        from = head.0 + 1;
        heads.push(head);
    }
    let mut spans = Vec::with_capacity(n);
    for (i, st) in snippet.stretches.iter().enumerate() {
        let (first, head_via) = heads[i];
        let bound = heads.get(i + 1).map_or(text.line_count(), |h| h.0);
        let (last, tail_via) = if i + 1 == n && !snippet.marker_after {
            (last_line, Via::Exact)
        } else if st.lines.len() == 1 {
            (first, head_via)
        } else {
            match find_anchor(text, path, st, first, bound, End::Tail) {
                Ok(found) => found,
                Err(e) => block_end(text, path, st, first).ok_or(e)?,
            }
        };
        if last < first || last >= bound.max(first + 1) {
            return Err(misplaced(path, st, first, last));
        }
        spans.push(Span {
            first,
            last,
            via: head_via.max(tail_via),
        });
    }
    Ok(spans)
}

/// Which end of a stretch an anchor is.
#[derive(Clone, Copy, PartialEq)]
enum End {
    Head,
    Tail,
}

/// The file line of a stretch's head (its first line) or tail (its last line) within
/// file lines `from..to`, widened into the stretch until it is unique.
fn find_anchor(
    text: &Text,
    path: &str,
    st: &Stretch,
    from: usize,
    to: usize,
    end: End,
) -> EditResult<(usize, Via)> {
    let range = line_bytes(text, from, to);
    let scope = Scope {
        range,
        label: None,
        nearest: false,
    };
    let mut previous: Vec<usize> = Vec::new();
    for k in 1..=st.lines.len() {
        let part = match end {
            End::Head => &st.lines[..k],
            End::Tail => &st.lines[st.lines.len() - k..],
        };
        let (starts, via) = matching_lines(text, from, to, part);
        match starts.len() {
            1 => {
                let line = match end {
                    End::Head => starts[0],
                    End::Tail => starts[0] + k - 1,
                };
                return Ok((line, via));
            }
            0 if k == 1 => return Err(not_found(text, path, st, end, &part.join("\n"), &scope)),
            0 => return Err(ambiguous(path, st, end, &previous, k - 1)),
            _ => previous = starts,
        }
    }
    Err(ambiguous(path, st, end, &previous, st.lines.len()))
}

/// The recovery levels an anchor line may match through, most exact first: the first
/// level with any match decides (the cascade's rule), on whole lines only.
const LEVELS: [(Via, FoldKey); 4] = [
    (Via::Exact, FoldKey::Lines),
    (Via::TrailingWhitespace, FoldKey::TrimEnd),
    (Via::Indentation, FoldKey::Trim),
    (Via::Typography, FoldKey::Typography),
];

/// File lines in `from..to` where `part` starts, line for line, at the first level
/// that finds any.
fn matching_lines(text: &Text, from: usize, to: usize, part: &[&str]) -> (Vec<usize>, Via) {
    let to = to.min(text.line_count());
    if from >= to || part.len() > to - from {
        return (Vec::new(), Via::Exact);
    }
    let last_start = to - part.len();
    for (via, key) in LEVELS {
        let wanted: Vec<String> = part
            .iter()
            .map(|l| anchor_key(l, key).into_owned())
            .collect();
        if wanted[0].trim().is_empty() {
            continue;
        }
        let starts: Vec<usize> = (from..=last_start)
            .filter(|&l| {
                (0..part.len()).all(|i| anchor_key(text.line(l + i), key).as_ref() == wanted[i])
            })
            .collect();
        if !starts.is_empty() {
            return (starts, via);
        }
    }
    (Vec::new(), Via::Exact)
}

/// A line's key at one level. Typography folds after trimming, so it also forgives
/// indentation. The key borrows the line when nothing is folded: a scan allocates only
/// for lines that fold.
fn anchor_key(line: &str, key: FoldKey) -> std::borrow::Cow<'_, str> {
    let line = if key == FoldKey::Typography {
        line.trim()
    } else {
        line
    };
    fold_key(line, key)
}

/// The tail by structure: the head line opens a block whose last line is the stretch's
/// last line (compared ignoring whitespace).
fn block_end(text: &Text, path: &str, st: &Stretch, head: usize) -> Option<(usize, Via)> {
    let (_, end) = Analysis::new(text, path).block_at(head).ok()?;
    let tail = st.lines.last()?.trim();
    (end > head && text.line(end).trim() == tail).then_some((end, Via::Exact))
}

/// Byte range of file lines `from..to` (0-based, `to` exclusive).
fn line_bytes(text: &Text, from: usize, to: usize) -> Range<usize> {
    let start = if from >= text.line_count() {
        text.len()
    } else {
        text.line_start(from)
    };
    let end = if to >= text.line_count() {
        text.len()
    } else {
        text.line_start(to)
    };
    start..end.max(start)
}

/// The bytes replacing a stretch's span, and that span's byte range.
fn render(
    text: &Text,
    path: &str,
    st: &Stretch,
    span: &Span,
    snippet: &Snippet,
    a: &EditFileArgs,
) -> EditResult<(Range<usize>, String)> {
    let file_lines: Vec<&str> = (span.first..=span.last).map(|l| text.line(l)).collect();
    let indent = reindent_rule(st, &file_lines);
    let mut out_lines: Vec<String> = Vec::with_capacity(st.lines.len());
    for line in &st.lines {
        let l = lead(line);
        let moved = match (&indent, line.trim().is_empty()) {
            (_, true) => String::new(),
            (Some(map), false) => match map.apply(l) {
                Some(new_lead) => format!("{new_lead}{}", &line[l.len()..]),
                None => line.to_string(),
            },
            (None, false) => line.to_string(),
        };
        out_lines.push(moved);
    }
    let kept = keep_file_bytes(&file_lines, &mut out_lines);
    let removed = file_lines.len() - kept;
    if snippet.markers > 0 && removed * 2 > file_lines.len() && !a.allow_deletions {
        return Err(silent_deletion(path, st, span, removed));
    }
    let old_text = file_lines.join("\n");
    guard::check(
        &out_lines.join("\n"),
        "code_edit",
        Some(("the file", &old_text)),
        a.allow_placeholders,
    )?;
    let range = text.lines_range(span.first, span.last);
    let ending = text.ending_near(span.first).as_str();
    let mut new_text = out_lines.join(ending);
    let span_text = &text.as_str()[range.clone()];
    if span_text.ends_with('\n') {
        new_text.push_str(ending);
    }
    Ok((range, new_text))
}

/// How the snippet's indentation maps to the file's, from the anchor lines.
fn reindent_rule(st: &Stretch, file_lines: &[&str]) -> Option<IndentMap> {
    let mut pairs = vec![(lead(st.lines[0]), lead(file_lines[0]))];
    if let (Some(s), Some(f)) = (st.lines.last(), file_lines.last()) {
        if st.lines.len() > 1 && !s.trim().is_empty() {
            pairs.push((lead(s), lead(f)));
        }
    }
    IndentMap::derive(&pairs).filter(|m| !m.is_identity())
}

/// Pairs the stretch's lines with its span's (in order, by content ignoring trailing
/// whitespace and typography) and writes paired lines with the file's bytes. Returns how many file
/// lines were kept.
fn keep_file_bytes(file_lines: &[&str], out: &mut [String]) -> usize {
    // Indentation counts (the stretch is already re-indented): a line the snippet moved
    // deeper is a change, not a kept line.
    let norm = |s: &str| fold_key(s, FoldKey::Typography).into_owned();
    if file_lines.len().saturating_mul(out.len()) > PAIRING_BUDGET {
        return 0;
    }
    let a: Vec<String> = file_lines.iter().map(|l| norm(l)).collect();
    let b: Vec<String> = out.iter().map(|l| norm(l)).collect();
    let mut kept = 0;
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &a, &b) {
        if let similar::DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for d in 0..len {
                out[new_index + d] = file_lines[old_index + d].to_string();
            }
            kept += len;
        }
    }
    kept
}

fn anchor_name(end: End) -> &'static str {
    match end {
        End::Head => "first line",
        End::Tail => "last line",
    }
}

fn not_found(
    text: &Text,
    path: &str,
    st: &Stretch,
    end: End,
    needle: &str,
    scope: &Scope,
) -> EditError {
    let report = Report::build(text, needle, scope);
    EditError::new(
        ErrorKind::NoMatch,
        format!(
            "Stretch {} of code_edit (starting `{}`): its {} `{}` is not in {path}{}. Nothing was changed. Each stretch must begin and end with lines copied from the file; read the region (read_lines) and send code_edit again.",
            st.number,
            st.lines[0].trim(),
            anchor_name(end),
            needle.trim(),
            if scope.range.start > 0 { " after the previous stretch" } else { "" },
        ),
    )
    .with_diagnostics(report.diagnostics(text))
}

fn ambiguous(path: &str, st: &Stretch, end: End, lines: &[usize], widened: usize) -> EditError {
    let shown: Vec<String> = lines.iter().take(12).map(|l| (l + 1).to_string()).collect();
    EditError::new(
        ErrorKind::Ambiguous,
        format!(
            "Stretch {} of code_edit (starting `{}`): its {} is not unique in {path} even with {widened} line{} of the stretch (at lines {}). Nothing was changed. Begin (or end) the stretch with a line that occurs once, such as its function's signature, or send a smaller snippet around one place.",
            st.number,
            st.lines[0].trim(),
            anchor_name(end),
            crate::text::words::plural(widened),
            shown.join(", ")
        ),
    )
    .with_diagnostics(json!({"stretch": st.number, "candidates": lines.iter().map(|l| l + 1).collect::<Vec<_>>()}))
}

fn misplaced(path: &str, st: &Stretch, first: usize, last: usize) -> EditError {
    EditError::new(
        ErrorKind::NoMatch,
        format!(
            "Stretch {} of code_edit (starting `{}`) cannot be placed in {path}: its last line was found at line {} and its first at line {}, out of order with the other stretches. Nothing was changed. Send the stretches in file order.",
            st.number,
            st.lines[0].trim(),
            last + 1,
            first + 1
        ),
    )
}

fn silent_deletion(path: &str, st: &Stretch, span: &Span, removed: usize) -> EditError {
    EditError::new(
        ErrorKind::PlaceholderInNewStr,
        format!(
            "Stretch {} of code_edit (starting `{}`) would delete {removed} of the {} lines of {path} between its first and last line ({}), while the snippet uses markers elsewhere: lines left out of a lazy snippet usually mean \"unchanged\", not \"delete\". Nothing was changed. Put a marker line (`// ... existing code ...`) where code stays, or send allow_deletions: true if they really go.",
            st.number,
            st.lines[0].trim(),
            span.last - span.first + 1,
            lines_label(span.first, span.last)
        ),
    )
    .with_diagnostics(json!({"stretch": st.number, "start_line": span.first + 1, "end_line": span.last + 1, "removed": removed}))
}
