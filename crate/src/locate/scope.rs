//! Scopes: the part of a file a search may look at, from landmarks the caller gives.
//!
//! `after_hint` starts the scope on the line after the one line containing it (the
//! landmark must occur on one line only, within `function_hint`'s function when both
//! are given, else the call is refused as `ambiguous` naming those lines); the search
//! then begins there and several matches resolve to the nearest one after the landmark
//! (pulsar-edit-mcp-server's "begin the search from that line"), see [`Scope::nearest`];
//! `between_hint {start, end}` keeps the lines strictly between the first line
//! containing `start` and the next line after it containing `end`; `function_hint`
//! keeps the lines of one function (from the blocks module). Hints combine by
//! intersection. A landmark that cannot be found is refused with `scope_not_found`:
//! searching the whole file instead could edit a place the caller ruled out.

use crate::args::{edit_distance, Args};
use crate::blocks::{Analysis, BlockError, Symbol};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::Text;
use serde_json::{json, Value};
use std::ops::Range;

/// A byte range of the text, on whole lines, and how it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Scope {
    pub range: Range<usize>,
    /// For messages: "lines 12-40 (after_hint)"; None for the whole file.
    pub label: Option<String>,
    /// The search begins at a landmark (`after_hint`): of several matches the first in
    /// the scope, the nearest after the landmark, is the one meant.
    pub nearest: bool,
}

impl Scope {
    pub fn whole(text: &Text) -> Scope {
        Scope {
            range: 0..text.len(),
            label: None,
            nearest: false,
        }
    }

    /// 0-based lines `first..=last`; an empty scope when `first > last`.
    pub fn lines(text: &Text, first: usize, last: usize, why: &str) -> Scope {
        let range = if first > last || first >= text.line_count() {
            let at = text.line_start(first.min(text.line_count()));
            at..at
        } else {
            text.lines_range(first, last.min(text.line_count() - 1))
        };
        Scope {
            range,
            label: Some(format!("lines {}-{} ({why})", first + 1, last + 1)),
            nearest: false,
        }
    }

    pub fn is_whole(&self) -> bool {
        self.label.is_none()
    }

    /// " in lines 12-40 (after_hint)" or "" — for messages.
    pub fn describe(&self) -> String {
        match &self.label {
            Some(l) => format!(" in {l}"),
            None => String::new(),
        }
    }

    /// 0-based first and last lines covered (first > last when empty).
    pub fn line_span(&self, text: &Text) -> (usize, usize) {
        let first = text.line_of(self.range.start);
        if self.range.is_empty() {
            return (first, first.wrapping_sub(1));
        }
        (first, text.line_of(self.range.end - 1))
    }

    pub fn intersect(self, other: Scope) -> Scope {
        let start = self.range.start.max(other.range.start);
        let end = self.range.end.min(other.range.end).max(start);
        let label = match (self.label, other.label) {
            (Some(a), Some(b)) => Some(format!("{a} ∩ {b}")),
            (a, b) => a.or(b),
        };
        Scope {
            range: start..end,
            label,
            nearest: self.nearest || other.nearest,
        }
    }
}

/// The scope the call's hints allow (the whole file when none is given).
pub fn resolve(text: &Text, args: &Args, path: &str) -> EditResult<Scope> {
    let mut scope = Scope::whole(text);
    let function = match args.opt_str("function_hint") {
        Some(name) => Some(function_scope(text, path, name)?),
        None => None,
    };
    if let Some(hint) = args.opt_str("after_hint") {
        let within = function.clone().unwrap_or_else(|| Scope::whole(text));
        let line = unique_landmark_line(text, hint, &within, path)?;
        let last = text.line_count().saturating_sub(1);
        scope = scope.intersect(Scope::lines(
            text,
            line + 1,
            last,
            &format!("after line {}, after_hint", line + 1),
        ));
        scope.nearest = true;
    }
    if let Some((start, end)) = args.pair("between_hint") {
        let s = first_line_containing(text, start, 0)
            .ok_or_else(|| landmark_missing(path, "between_hint.start", start, "between_hint"))?;
        let e = first_line_containing(text, end, s + 1).ok_or_else(|| {
            EditError::new(
                ErrorKind::ScopeNotFound,
                format!(
                    "between_hint.end {end:?} does not occur after line {} (where between_hint.start was found) in {path}. Send an end landmark copied from a line below line {}, or drop between_hint.",
                    s + 1,
                    s + 1
                ),
            )
        })?;
        scope = scope.intersect(Scope::lines(
            text,
            s + 1,
            e.saturating_sub(1),
            &format!("between lines {} and {}, between_hint", s + 1, e + 1),
        ));
    }
    if let Some(function) = function {
        scope = scope.intersect(function);
    }
    Ok(scope)
}

/// The one line of `within` containing the `after_hint` landmark: a landmark on
/// several lines does not say where the search begins.
fn unique_landmark_line(text: &Text, hint: &str, within: &Scope, path: &str) -> EditResult<usize> {
    let lines = lines_containing(text, hint, within);
    match lines.as_slice() {
        [] => Err(landmark_missing(path, "after_hint", hint, "after_hint")),
        [line] => Ok(*line),
        _ => {
            let shown: Vec<String> = lines.iter().take(12).map(|l| (l + 1).to_string()).collect();
            Err(EditError::new(
                ErrorKind::Ambiguous,
                format!(
                    "after_hint {hint:?} occurs on {} lines of {path}{} (lines {}), so where the search begins is not certain. Send after_hint copied from one line that occurs once (more of that line's text), or drop after_hint and send line_hint: <line>.",
                    lines.len(),
                    within.describe(),
                    shown.join(", ")
                ),
            )
            .with_diagnostics(json!({"after_hint_lines": lines.iter().map(|l| l + 1).collect::<Vec<_>>()})))
        }
    }
}

/// 0-based lines of `within` on which `needle` starts (each line once).
fn lines_containing(text: &Text, needle: &str, within: &Scope) -> Vec<usize> {
    // A landmark copied with its line break still names that line.
    let needle = needle.trim_end_matches(['\n', '\r']);
    if needle.is_empty() {
        return Vec::new();
    }
    let hay = &text.as_str().as_bytes()[within.range.clone()];
    let mut lines: Vec<usize> = memchr::memmem::find_iter(hay, needle.as_bytes())
        .map(|i| text.line_of(within.range.start + i))
        .collect();
    lines.dedup();
    lines
}

/// 0-based index of the first line at or after `from` that contains `needle`.
pub fn first_line_containing(text: &Text, needle: &str, from: usize) -> Option<usize> {
    if needle.is_empty() || from >= text.line_count() {
        return None;
    }
    let start = text.line_start(from);
    let hay = &text.as_str()[start..];
    // A landmark copied with its line break still names that line.
    let needle = needle.trim_end_matches(['\n', '\r']);
    if needle.is_empty() {
        return None;
    }
    memchr::memmem::find(hay.as_bytes(), needle.as_bytes()).map(|i| text.line_of(start + i))
}

fn landmark_missing(path: &str, what: &str, needle: &str, arg: &str) -> EditError {
    EditError::new(
        ErrorKind::ScopeNotFound,
        format!(
            "{what} {needle:?} does not occur in {path}. Send {arg} with text copied from a line of the file (grep_file {{path: \"{path}\", pattern: \"…\"}} finds it), or drop {arg}."
        ),
    )
}

/// The scope of the function named `name` (`Type.method` accepted): the file is lexed
/// by its language (from `path`) and the definition found by name.
pub fn function_scope(text: &Text, path: &str, name: &str) -> EditResult<Scope> {
    function_scope_in(&Analysis::new(text, path), path, name)
}

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

/// The symbols as diagnostics: their count and up to 100 of them.
pub fn symbols_json(symbols: &[Symbol]) -> Value {
    json!({"count": symbols.len(), "candidates": symbols.iter().take(100).map(|s| json!({
        "name": s.qualified(), "kind": s.kind.as_str(),
        "line": s.start_line + 1, "end_line": s.end_line + 1,
    })).collect::<Vec<_>>()})
}

/// A block the analysis could not delimit, as the refusal a tool sends (`what` names
/// the argument whose line was asked about).
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
