//! What the block tools share: finding an anchor line, the block or region it starts,
//! a function's scope, and writing whole lines.
//!
//! Each call builds one [`Analysis`] (one lexing pass) and asks it everything: the
//! function named by `function_hint`, the block an anchor opens, the outline.

use crate::args::{edit_distance, Args, Param, ParamType};
use crate::blocks::{Analysis, BlockError, Symbol};
use crate::diagnose::{self, Report};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::{self, select, select::Subject, Scope, Selection};
use crate::text::Text;
use serde_json::{json, Value};
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

/// The scope of the function (or, when no function has the name, the type) named
/// `name`, from an analysis already made.
pub fn function_scope_in(a: &Analysis, path: &str, name: &str) -> EditResult<Scope> {
    let found = a.find_functions(name);
    match found.len() {
        0 => Err(scope_not_found(a, path, name)),
        1 => {
            let s = &found[0];
            a.check_symbol(s, false)
                .map_err(|e| block_error(a, path, e, "function_hint"))?;
            Ok(Scope::lines(
                a.text,
                s.start_line,
                s.end_line,
                &format!("function_hint {}", s.qualified()),
            ))
        }
        _ => Err(EditError::new(
            ErrorKind::Ambiguous,
            format!(
                "function_hint {name:?} names {} definitions in {path}: {}. Send a qualified name (e.g. \"{}\") if their types differ, or narrow with line_hint / after_hint instead.",
                found.len(),
                symbol_list(&found),
                found[0].qualified()
            ),
        )
        .with_diagnostics(symbols_json(&found))),
    }
}

/// The `scope_not_found` refusal for a function name, listing the closest names.
pub fn scope_not_found(a: &Analysis, path: &str, name: &str) -> EditError {
    let outline = a.outline();
    let (_, wanted) = crate::blocks::split_query(name);
    let wanted_lower = wanted.to_lowercase();
    let mut ranked: Vec<(usize, &Symbol)> = outline
        .iter()
        .map(|s| {
            let n = s.name.to_lowercase();
            let d = if n.contains(&wanted_lower) || wanted_lower.contains(&n) {
                0
            } else {
                edit_distance(&wanted_lower, &n)
            };
            (d, s)
        })
        .collect();
    ranked.sort_by_key(|(d, s)| (*d, !s.kind.is_function(), s.start_line));
    let closest: Vec<Symbol> = ranked
        .iter()
        .filter(|(d, _)| *d <= (wanted.chars().count() / 2).max(3))
        .take(5)
        .map(|(_, s)| (*s).clone())
        .collect();
    let functions: Vec<&Symbol> = outline.iter().filter(|s| s.kind.is_function()).collect();
    let lang = a.lang.name();
    let mut msg = format!("No function or method named {name:?} in {path} ({lang}).");
    if !closest.is_empty() {
        msg.push_str(&format!(" Closest: {}.", symbol_list(&closest)));
    } else if !functions.is_empty() {
        let some: Vec<Symbol> = functions.iter().take(12).map(|s| (*s).clone()).collect();
        msg.push_str(&format!(
            " It defines {} functions, e.g. {}.",
            functions.len(),
            symbol_list(&some)
        ));
    } else {
        msg.push_str(" No function definitions were found in it.");
    }
    msg.push_str(" Send the name exactly as defined (file_summary lists them all).");
    let listed: Vec<Value> = outline
        .iter()
        .filter(|s| s.kind.is_function())
        .take(100)
        .map(|s| json!({"name": s.qualified(), "line": s.start_line + 1}))
        .collect();
    EditError::new(ErrorKind::ScopeNotFound, msg).with_diagnostics(json!({
        "closest": closest.iter().map(|s| json!({"name": s.qualified(), "kind": s.kind.as_str(), "line": s.start_line + 1})).collect::<Vec<_>>(),
        "functions": listed,
    }))
}

/// "`connect` (line 12), `Pool.connect` (line 40)".
pub fn symbol_list(symbols: &[Symbol]) -> String {
    symbols
        .iter()
        .map(|s| format!("`{}` (line {})", s.qualified(), s.start_line + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn symbols_json(symbols: &[Symbol]) -> Value {
    json!({"count": symbols.len(), "candidates": symbols.iter().take(100).map(|s| json!({
        "name": s.qualified(), "kind": s.kind.as_str(),
        "line": s.start_line + 1, "end_line": s.end_line + 1,
    })).collect::<Vec<_>>()})
}

/// The scope the call's `function_hint` allows (the whole file without one).
pub fn hint_scope(a: &Analysis, args: &Args, path: &str) -> EditResult<Scope> {
    match args.opt_str("function_hint") {
        Some(name) => function_scope_in(a, path, name),
        None => Ok(Scope::whole(a.text)),
    }
}

/// The 0-based line of the one match of `needle` (argument `what`) in `scope`.
#[allow(clippy::too_many_arguments)]
pub fn anchor_line(
    ctx: &mut super::Ctx,
    text: &Text,
    args: &Args,
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
    let found = locate::find(text, needle, scope, args.flag("strict"));
    if found.candidates.is_empty() {
        let report = Report::build(text, needle, scope);
        let mut err = report.into_error(text, scope, &diagnose::Subject { what, path, tool });
        err.kind = ErrorKind::AnchorNotFound;
        return Err(err);
    }
    let sel = Selection {
        occurrence: args.opt_usize("occurrence"),
        ..Selection::default()
    };
    let subject = Subject {
        what,
        path,
        can_take_all: false,
    };
    let via = found.via();
    let (chosen, notes) = select(text, found.candidates, &sel, &subject, scope)?;
    if ctx.matched_via.is_none() {
        ctx.matched_via = via.map(|v| v.as_str().to_string());
    }
    ctx.warnings.extend(found.notes);
    ctx.warnings.extend(notes);
    Ok(chosen[0].first_line(text))
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

pub fn block_error(a: &Analysis, path: &str, err: BlockError, what: &str) -> EditError {
    match err {
        BlockError::NoBlock { line } => {
            let shown = a.text.line(line.min(a.text.line_count().saturating_sub(1))).trim();
            let how = if a.lang.indented() {
                "no more-indented lines follow it and it continues on no other line"
            } else {
                "no bracket is left open at its end and no `{` line follows it"
            };
            EditError::invalid(format!(
                "The line of {what} (line {}: `{shown}`) opens no block: {how}. Send as {what} text from a line that opens a block (a function, class, `if` or loop header), or use str_replace for single lines.",
                line + 1
            ))
        }
        BlockError::Unmatched { line, reason } => EditError::new(
            ErrorKind::BraceUnmatched,
            format!(
                "The block cannot be delimited in {path} ({}): the bracket at line {} cannot be matched: {reason}. Nothing was changed. Fix that first, or edit with str_replace / delete_lines on explicit text or lines.",
                a.lang.name(),
                line + 1
            ),
        )
        .with_diagnostics(json!({"line": line + 1, "reason": reason})),
    }
}

/// The region from the anchor `start_content` to `end_content` (inclusive) or to the
/// end of the block it opens (`brace_match`), as 0-based lines.
pub fn start_end_region(
    ctx: &mut super::Ctx,
    a: &Analysis,
    args: &Args,
    path: &str,
    tool: &str,
) -> EditResult<(usize, usize)> {
    let text = a.text;
    let end = args.opt_str("end_content");
    let brace = args.flag("brace_match");
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
    let scope = hint_scope(a, args, path)?;
    let first = anchor_line(
        ctx,
        text,
        args,
        path,
        args.str("start_content"),
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
    };
    let found = locate::find(text, end, &from, args.flag("strict"));
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
