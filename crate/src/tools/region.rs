//! What the block tools share: finding an anchor line, the block or region it starts,
//! a function's scope, and writing whole lines.
//!
//! Each call builds one [`Analysis`] (one lexing pass) and asks it everything: the
//! function named by `function_hint`, the block an anchor opens, the outline.

use crate::args::{Param, ParamType};
use crate::blocks::Analysis;
use crate::diagnose::{self, locate_one, Anchor, Report};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::scope::{block_error, function_scope_in};
use crate::locate::{self, Scope, Selection};
use crate::text::Text;
use std::ops::Range;

pub const START_CONTENT: Param = Param {
    name: "start_content",
    aliases: &["start", "start_anchor", "from_content"],
    ty: ParamType::String,
    required: true,
    description:
        "Text on the first line of the region (copied from the file; the whole line is taken).",
};
pub const END_CONTENT: Param = Param {
    name: "end_content",
    aliases: &["end", "end_anchor", "to_content"],
    ty: ParamType::String,
    required: false,
    description: "Text on the last line of the region (inclusive): the first line at or after the start line that contains it. Give this or brace_match.",
};
pub const BRACE_MATCH: Param = Param {
    name: "brace_match",
    aliases: &["match_brace", "to_block_end"],
    ty: ParamType::Boolean,
    required: false,
    description: "End the region where the block the start line opens ends (its closing bracket, or its last more-indented line). Give this or end_content.",
};

/// The region arguments the block tools share (delete_block, get_region, move_block,
/// replace_block), taken from each tool's typed arguments.
#[derive(Debug, Clone, Copy)]
pub struct RegionArgs<'a> {
    /// The text of the region's first line (`start_content`, replace_block's `anchor`).
    pub start_content: &'a str,
    pub end_content: Option<&'a str>,
    pub brace_match: bool,
    pub occurrence: Option<usize>,
    pub function_hint: Option<&'a str>,
    pub strict: bool,
}

/// `fn region(&self) -> RegionArgs` for a block tool's typed arguments, whose fields
/// carry the region parameters under their own names (one definition for the tools
/// that share them).
macro_rules! region_from_args {
    ($args:ident) => {
        impl<'a> $args<'a> {
            /// The region arguments.
            pub fn region(&self) -> super::region::RegionArgs<'a> {
                super::region::RegionArgs {
                    start_content: self.start_content,
                    end_content: self.end_content,
                    brace_match: self.brace_match,
                    occurrence: self.occurrence,
                    function_hint: self.function_hint,
                    strict: self.strict,
                }
            }
        }
    };
}
pub(crate) use region_from_args;

/// The scope the call's `function_hint` allows (the whole file without one).
pub fn hint_scope(a: &Analysis, function_hint: Option<&str>, path: &str) -> EditResult<Scope> {
    match function_hint {
        Some(name) => function_scope_in(a, path, name),
        None => Ok(Scope::whole(a.text)),
    }
}

/// The 0-based line of the one match of `needle` (argument `what`) in `scope`.
#[allow(clippy::too_many_arguments)]
pub fn anchor_line(
    ctx: &mut super::Ctx,
    text: &Text,
    r: &RegionArgs,
    path: &str,
    needle: &str,
    what: &str,
    tool: &str,
    scope: &Scope,
) -> EditResult<usize> {
    if needle.trim().is_empty() {
        return Err(EditError::invalid(format!(
            "{what} is empty. Send text copied from the line where the block starts."
        )));
    }
    let anchor = Anchor {
        strict: r.strict,
        selection: Selection {
            occurrence: r.occurrence,
            ..Selection::default()
        },
        ..Anchor::landmark(needle, what, path, tool)
    };
    let located = locate_one(text, scope, &anchor)?;
    if ctx.matched_via.is_none() {
        ctx.matched_via = located.via.map(crate::locate::MatchedVia::Level);
    }
    ctx.warnings.extend(located.found_notes);
    ctx.warnings.extend(located.select_notes);
    let c = &located.chosen[0];
    ctx.note_read(path, c.first_line(text)..c.last_line(text) + 1);
    ctx.note_scope(path, text, scope);
    Ok(c.first_line(text))
}

/// The block 0-based `line` opens, as a tool error when there is none.
pub fn block_lines(
    a: &Analysis,
    path: &str,
    line: usize,
    what: &str,
) -> EditResult<(usize, usize)> {
    a.block_at(line).map_err(|e| block_error(a, path, e, what))
}

/// The region from the anchor `start_content` to `end_content` (inclusive) or to the
/// end of the block it opens (`brace_match`), as 0-based lines.
pub fn start_end_region(
    ctx: &mut super::Ctx,
    a: &Analysis,
    r: &RegionArgs,
    path: &str,
    tool: &str,
) -> EditResult<(usize, usize)> {
    let text = a.text;
    let end = r.end_content;
    let brace = r.brace_match;
    match (end.is_some(), brace) {
        (true, true) => {
            return Err(EditError::invalid(format!(
                "{tool}: give end_content or brace_match: true, not both. end_content ends the region at the line containing it; brace_match ends it where the block the start line opens ends."
            )))
        }
        (false, false) => {
            return Err(EditError::invalid(format!(
                "{tool} needs where the region ends: end_content: \"<text on its last line>\" or brace_match: true (to the end of the block the start line opens). Example: {{path: \"{path}\", start_content: \"fn connect(\", brace_match: true}}."
            )))
        }
        _ => {}
    }
    let scope = hint_scope(a, r.function_hint, path)?;
    let first = anchor_line(
        ctx,
        text,
        r,
        path,
        r.start_content,
        "start_content",
        tool,
        &scope,
    )?;
    if brace {
        return block_lines(a, path, first, "start_content");
    }
    let end = end.unwrap_or("");
    let from = Scope {
        range: text.line_start(first)..scope.range.end.max(text.line_start(first)),
        label: Some(format!("from line {}{}", first + 1, scope.describe())),
        nearest: false,
    };
    let found = locate::find(text, end, &from, r.strict);
    match found.candidates.first() {
        Some(c) => Ok((first, c.last_line(text).max(first))),
        None => {
            let report = Report::build(text, end, &from);
            let mut err = report.into_error(
                text,
                &from,
                &diagnose::Subject {
                    what: "end_content",
                    path,
                    tool,
                },
            );
            err.kind = ErrorKind::AnchorNotFound;
            err.message = format!(
                "end_content does not occur at or after line {} (where start_content is). {}",
                first + 1,
                err.message
            );
            Err(err)
        }
    }
}

/// The replacement of 0-based lines `first..=last` by `new` (whole lines, the file's
/// line endings; an empty `new` deletes them).
pub fn replace_lines(text: &Text, first: usize, last: usize, new: &str) -> (Range<usize>, String) {
    let mut range = text.lines_range(first, last);
    let count = text.line_count();
    let last_unterminated = last + 1 == count && !text.ends_with_newline();
    if new.is_empty() {
        if last_unterminated && first > 0 {
            range.start = text.line_start(first) - text.ending_near(first - 1).as_str().len();
        }
        return (range, String::new());
    }
    let ending = text.ending_near(first);
    let mut out = locate::in_file_ending(text, first, new);
    if last_unterminated {
        if let Some(s) = out.strip_suffix(ending.as_str()) {
            out = s.to_string();
        } else if let Some(s) = out.strip_suffix('\n') {
            out = s.to_string();
        }
    } else if !out.ends_with('\n') {
        out.push_str(ending.as_str());
    }
    (range, out)
}

/// `new` indented by the original's indentation when it was sent flush left (the
/// common slip of quoting a method without its indentation). When only its first line
/// is flush and its last line already stands at the original's indentation (the other
/// common slip: the first line copied from after its indentation), only the first
/// line is indented. Returns the text to write and whether it was re-indented.
pub fn reindent(original_first_line: &str, new: &str) -> (String, bool) {
    let indent: String = original_first_line
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    if indent.is_empty() {
        return (new.to_string(), false);
    }
    let mut non_blank = new.lines().filter(|l| !l.trim().is_empty());
    let first = non_blank.next();
    let flush = first.is_some_and(|l| !l.starts_with([' ', '\t']));
    if !flush {
        return (new.to_string(), false);
    }
    let last = non_blank.next_back();
    let only_first = last.is_some_and(|l| {
        let lead: String = l.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        lead == indent
    });
    let mut out = String::with_capacity(new.len() + indent.len() * 8);
    let mut indented_one = false;
    for piece in new.split_inclusive('\n') {
        if !(piece.trim().is_empty() || only_first && indented_one) {
            out.push_str(&indent);
            indented_one = true;
        }
        out.push_str(piece);
    }
    (out, true)
}
