//! `move_block`: move (or copy) a block verbatim to another place in the same or another
//! file; both files change together or not at all.
//!
//! The block is found as `delete_block` finds it (`start_content` to `end_content`, or to
//! the end of the block it opens with `brace_match`). The blank lines that directly follow
//! it (S of them: one between functions in most brace languages, two between top-level
//! Python definitions) are its separator and leave with it. At the destination the block
//! is set apart from its anchor by the same S blank lines: after an anchor line, S blank
//! lines then the block; before an anchor line, the block then S blank lines. The
//! destination anchor (`after_content` / `before_content`) must be unique in the
//! destination file (as it is before the move) and outside the block.
//!
//! Indentation: the block keeps its bytes when its level is valid where it lands
//! (`Analysis::gap_levels`: after the last line of a deeper Python block, the block's
//! own level is); it is re-indented only when its level is not valid there and exactly
//! one level is; when several are (Python: each a different program) the call is
//! refused as `ambiguous`, naming them. Before an anchor line, that line's level is
//! also a reading (the block as its sibling): taken when the block's own level is not
//! valid, refused as `ambiguous` when both are valid and differ.

use super::params::*;
use super::region::{start_end_region, BRACE_MATCH, END_CONTENT, START_CONTENT};
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::blocks::{width_of, Analysis, Level};
use crate::diagnose::{self, Anchor};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::{lead, Candidate, IndentMap, Scope};
use crate::text::change_set::Splices;
use crate::text::words::lines_label;
use crate::text::Text;

pub static SPEC: ToolSpec = ToolSpec {
    name: "move_block",
    description: "Move (or copy, with copy: true) a block of whole lines to another place, in \
the same file or another (to_path): the block from the line containing start_content through \
the line containing end_content, or with brace_match: true through the end of the block the \
start line opens; the destination is after the line containing after_content or before the \
line containing before_content (unique in the destination). The block keeps its indentation \
where that level is valid (after a nested block's last line, its own level is); it is \
re-indented only where it is not, and refused where several levels are valid. The blank lines \
that followed it go with it. Both files change together. Example: {\"path\": \"src/a.py\", \"start_content\": \"def helper(\", \"brace_match\": \
true, \"to_path\": \"src/util.py\", \"after_content\": \"import os\"}",
    params: &[
        PATH,
        START_CONTENT,
        END_CONTENT,
        BRACE_MATCH,
        OCCURRENCE,
        FUNCTION_HINT,
        Param {
            name: "to_path",
            aliases: &["destination", "dest_path", "target_path", "to_file"],
            ty: ParamType::String,
            required: false,
            description: "The file to move the block into (default: the same file).",
        },
        Param {
            name: "after_content",
            aliases: &["after", "insert_after"],
            ty: ParamType::String,
            required: false,
            description:
                "Text on the destination line the block goes after. Give this or before_content.",
        },
        Param {
            name: "before_content",
            aliases: &["before", "insert_before"],
            ty: ParamType::String,
            required: false,
            description:
                "Text on the destination line the block goes before. Give this or after_content.",
        },
        Param {
            name: "copy",
            aliases: &["duplicate"],
            ty: ParamType::Boolean,
            required: false,
            description: "Copy the block instead of moving it (the source stays).",
        },
        STRICT,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Move a block",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

/// Where the block goes: after (or before) a 0-based line of the destination text.
struct Destination {
    line: usize,
    after: bool,
}

typed_args! {
    /// move_block's arguments, one field per parameter of [`SPEC`].
    pub struct MoveBlockArgs<'a> {
        path: &'a str,
        start_content: &'a str,
        end_content: Option<&'a str>,
        brace_match: bool,
        occurrence: Option<usize>,
        function_hint: Option<&'a str>,
        to_path: Option<&'a str>,
        after_content: Option<&'a str>,
        before_content: Option<&'a str>,
        copy: bool,
        strict: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_version: Option<&'a str>,
        encoding: Option<&'a str>,
    }
}

super::region::region_from_args!(MoveBlockArgs);

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = Analysis::new(&text, &path);
    let m = MoveBlockArgs::from_args(args);
    let (first, last) = start_end_region(ctx, &a, &m.region(), &path, "move_block")?;
    let (gap_before, gap) = separator(&text, first, last);
    let block: Vec<&str> = (first..=last).map(|l| text.line(l)).collect();
    let dest_path = match m.to_path {
        Some(p) => ctx.ws.path(p)?,
        None => path.clone(),
    };
    let same_file = dest_path == path;
    let dest_src = if same_file {
        src.clone()
    } else {
        ctx.ws.read(&dest_path)?
    };
    let dest_text = Text::new(&dest_src);
    let dest = destination(&dest_text, &dest_path, &m)?;
    if same_file && (first - gap_before..=last + gap).contains(&dest.line) {
        return Err(EditError::invalid(format!(
            "The destination (line {}) is inside the block being moved ({}). Nothing was changed. Name a line outside the block as after_content / before_content.",
            dest.line + 1,
            lines_label(first, last)
        )));
    }
    let copy = m.copy;
    let removal = (!copy).then_some((first - gap_before, last + gap));
    let skip = match removal {
        Some((a, b)) if same_file => a..b + 1,
        _ => 0..0,
    };
    let dest_owned;
    let dest_a = if same_file {
        &a
    } else {
        dest_owned = Analysis::new(&dest_text, &dest_path);
        &dest_owned
    };
    let level = block_level(&a, first, last);
    let target = placement(dest_a, &dest, skip, &level, &dest_path)?;
    let inserted = placed_block(&block, gap, &level, target.as_ref(), &dest);
    if same_file {
        ctx.ws
            .splice(&path, splices(&text, removal, Some((&dest, &inserted))))?;
    } else {
        if let Some(r) = removal {
            ctx.ws.splice(&path, splices(&text, Some(r), None))?;
        }
        ctx.ws.splice(
            &dest_path,
            splices(&dest_text, None, Some((&dest, &inserted))),
        )?;
    }
    let verb = if copy { "Copied" } else { "Moved" };
    let side = if dest.after { "after" } else { "before" };
    let reindented = target.map_or(String::new(), |t| {
        format!(
            " Re-indented from column {} to column {}: its own level is not valid there.",
            width_of(&level),
            t.width
        )
    });
    Ok(Outcome::Edited {
        message: format!(
            "{verb} {} of {path} ({} line{}) to {dest_path}, {side} line {}.{reindented}",
            lines_label(first, last),
            last - first + 1,
            if last == first { "" } else { "s" },
            dest.line + 1
        ),
    })
}

/// The block's separator: `(blank lines before it that leave with it, S)`. S is the
/// number of blank lines directly after it; a block that ends the file has none after,
/// so the blank lines before it are its separator instead (the file does not end in
/// the blank lines that used to separate it).
fn separator(text: &Text, first: usize, last: usize) -> (usize, usize) {
    let blank = |l: usize| text.line(l).trim().is_empty();
    let after = (last + 1..text.line_count())
        .take_while(|&l| blank(l))
        .count();
    if last + 1 + after < text.line_count() {
        return (0, after);
    }
    let before = (0..first).rev().take_while(|&l| blank(l)).count();
    (before, before.max(after))
}

/// The destination anchor: exactly one of after_content / before_content, found once.
fn destination(text: &Text, path: &str, m: &MoveBlockArgs) -> EditResult<Destination> {
    let (needle, after, what) = match (m.after_content, m.before_content) {
        (Some(n), None) => (n, true, "after_content"),
        (None, Some(n)) => (n, false, "before_content"),
        _ => {
            return Err(EditError::invalid(
                "move_block needs exactly one of after_content / before_content: text on the destination line the block goes after or before (copied from the file).",
            ))
        }
    };
    if needle.trim().is_empty() {
        return Err(EditError::invalid(format!(
            "{what} is empty. Send text copied from the destination line."
        )));
    }
    let scope = Scope::whole(text);
    // Several matches are refused here, not by the selection rules: `occurrence`
    // chooses among start_content's matches, so it cannot name a destination.
    let ambiguous = |candidates: &[Candidate]| {
        (candidates.len() > 1).then(|| ambiguous_destination(text, path, what, candidates))
    };
    let anchor = Anchor {
        strict: m.strict,
        when_found: Some(&ambiguous),
        ..Anchor::landmark(needle, what, path, "move_block")
    };
    let located = diagnose::locate_one(text, &scope, &anchor)?;
    let only = &located.chosen[0];
    // After a multi-line anchor means after its last line.
    Ok(Destination {
        line: if after {
            only.last_line(text)
        } else {
            only.first_line(text)
        },
        after,
    })
}

/// The refusal of a destination anchor found in several places.
fn ambiguous_destination(
    text: &Text,
    path: &str,
    what: &str,
    candidates: &[Candidate],
) -> EditError {
    let n = candidates.len();
    let lines: Vec<String> = candidates
        .iter()
        .take(12)
        .map(|c| (c.first_line(text) + 1).to_string())
        .collect();
    EditError::new(
        ErrorKind::Ambiguous,
        format!(
            "{what} occurs {n} times in {path} (lines {}). Nothing was changed. Send {what} with more of the line (or the whole line) so that it names one place.",
            lines.join(", ")
        ),
    )
    .with_diagnostics(serde_json::json!({"candidates": candidates.iter().map(|c| c.first_line(text) + 1).collect::<Vec<_>>()}))
}

/// The indentation of the block's first code line (its first non-blank line when it
/// holds no code).
fn block_level(a: &Analysis, first: usize, last: usize) -> String {
    let text = a.text;
    let line = (first..=last)
        .find(|&l| !a.code_line(l).trim_ascii().is_empty())
        .or_else(|| (first..=last).find(|&l| !text.line(l).trim().is_empty()))
        .map_or("", |l| text.line(l));
    lead(line).to_string()
}

/// Where the block's level stands at the destination: None to keep its bytes, or the
/// level it is re-indented to; refused when several levels are valid and its own is
/// not. Without a known level (YAML, no code around), the destination line's level.
fn placement(
    dest_a: &Analysis,
    dest: &Destination,
    skip: std::ops::Range<usize>,
    level: &str,
    dest_path: &str,
) -> EditResult<Option<Level>> {
    let gap = dest.line + usize::from(dest.after);
    let levels = dest_a.gap_levels(gap, skip).map_err(|line| {
        EditError::invalid(format!(
            "The destination ({} line {} of {dest_path}) is inside the statement that starts at line {}: the block would split it. Nothing was changed. Name a line outside it as after_content / before_content (its last line, with after_content).",
            if dest.after { "after" } else { "before" },
            dest.line + 1,
            line + 1
        ))
    })?;
    let own = width_of(level);
    let fallback = || {
        let lead = lead(dest_a.text.line(dest.line)).to_string();
        Level {
            width: width_of(&lead),
            lead,
            header: None,
        }
    };
    let kept = levels.iter().find(|l| l.width == own);
    // Before a line, that line's level is a reading of its own: the block as its
    // sibling. (After the last line of a deeper block, that line's level is not.)
    let anchor_width = width_of(lead(dest_a.text.line(dest.line)));
    let sibling = levels
        .iter()
        .find(|l| !dest.after && levels.len() > 1 && l.width == anchor_width);
    let chosen = match (kept, sibling) {
        (Some(k), Some(s)) if k.width != s.width => {
            let two = [k.clone(), s.clone()];
            return Err(several_levels(dest_a.text, dest, dest_path, own, &two));
        }
        (Some(l), _) | (None, Some(l)) => l.clone(),
        (None, None) if levels.len() > 1 => {
            return Err(several_levels(dest_a.text, dest, dest_path, own, &levels))
        }
        (None, None) => levels.into_iter().next().unwrap_or_else(fallback),
    };
    Ok((chosen.lead != level).then_some(chosen))
}

/// The refusal of a destination where several levels are readings of the call.
fn several_levels(
    text: &Text,
    dest: &Destination,
    path: &str,
    own: u32,
    levels: &[Level],
) -> EditError {
    let side = if dest.after { "after" } else { "before" };
    let named: Vec<String> = levels
        .iter()
        .map(|l| match l.header {
            Some(h) => format!(
                "column {} (in `{}`, line {})",
                l.width,
                text.line(h).trim(),
                h + 1
            ),
            None => format!("column {} (top level)", l.width),
        })
        .collect();
    let hint = levels
        .iter()
        .find_map(|l| l.header)
        .map(|h| {
            format!(
                " after_content: \"{}\" puts it first in that block;",
                text.line(h).trim()
            )
        })
        .unwrap_or_default();
    EditError::new(
        ErrorKind::Ambiguous,
        format!(
            "The block (indented {own} columns) can stand {side} line {} of {path} at more than one level, each a different program: {}{}. Nothing was changed. Name a place where one level is valid:{hint} or indent the block at its source first to the level it should take.",
            dest.line + 1,
            named.join(", "),
            if levels.iter().any(|l| l.width == own) { "" } else { " (its own level is not valid there)" }
        ),
    )
    .with_diagnostics(serde_json::json!({"levels": levels.iter().map(|l| l.width).collect::<Vec<_>>()}))
}

/// The block's lines, re-indented from `level` to `target` when given, with its `gap`
/// blank lines on the side facing the anchor.
fn placed_block(
    block: &[&str],
    gap: usize,
    level: &str,
    target: Option<&Level>,
    at: &Destination,
) -> Vec<String> {
    let map = target
        .and_then(|t| IndentMap::derive(&[(level, t.lead.as_str())]))
        .filter(|m| !m.is_identity());
    let mut lines: Vec<String> = block
        .iter()
        .map(|line| match &map {
            Some(m) if !line.trim().is_empty() => {
                let l = lead(line);
                match m.apply(l) {
                    Some(new_lead) => format!("{new_lead}{}", &line[l.len()..]),
                    None => line.to_string(),
                }
            }
            _ => line.to_string(),
        })
        .collect();
    let blanks = std::iter::repeat_n(String::new(), gap);
    if at.after {
        lines.splice(0..0, blanks);
    } else {
        lines.extend(blanks);
    }
    lines
}

/// The ranges of `text` a move replaces: 0-based lines `removal` (inclusive) taken
/// out, and `insert` lines put after (or before) the destination line, in the file's
/// line ending; other bytes are kept. In order (an insertion where the removal starts
/// comes first).
fn splices(
    text: &Text,
    removal: Option<(usize, usize)>,
    insert: Option<(&Destination, &Vec<String>)>,
) -> Splices {
    let ending = text.ending().as_str();
    let mut out: Splices = Vec::with_capacity(2);
    if let Some((a, b)) = removal {
        out.push((text.lines_range(a, b), String::new()));
    }
    if let Some((d, lines)) = insert {
        let at = text.line_start(d.line + usize::from(d.after));
        let mut block = String::new();
        // After an unterminated last line, that line gets its ending first.
        if d.after && at == text.len() && !text.as_str().ends_with('\n') {
            block.push_str(ending);
        }
        for l in lines {
            block.push_str(l);
            block.push_str(ending);
        }
        out.push((at..at, block));
    }
    out.sort_by_key(|(r, _)| (r.start, r.end));
    out
}
