//! `grep_project`: the lines matching a string or regex across the project's files.
//!
//! Files are searched one at a time in path order; a file is split into lines only
//! when the pattern occurs in it, so a search costs one scan per file (memchr's SIMD
//! substring search, or the `regex` crate's, whose time is linear in the input). The
//! search stops at `max_results` matching lines, after checking that one more exists
//! (which makes `truncated` exact).

use super::grep_file::{
    matching_lines, search_regex, CONTEXT, DEFAULT_MAX, IGNORE_CASE, MAX_RESULTS, PATTERN, REGEX,
};
use super::project::{scope, searchable_text, FOLDER, GLOB};
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, ToolSpec};
use crate::error::{EditError, EditResult};
use crate::text::words::plural;
use crate::text::Text;
use serde_json::{json, Map, Value};

pub static SPEC: ToolSpec = ToolSpec {
    name: "grep_project",
    description: "Find the lines containing `pattern` (a literal string, or a regex with \
regex: true; Rust regex syntax) across the project's files (hidden and .gitignore'd files \
skipped, binary files skipped). Returns matches [{path, line, text}] in path and line order, \
context lines around them when asked, and truncated when max_results was reached. Narrow \
with glob and path. Example: {\"pattern\": \"fn connect\", \"glob\": \"*.rs\", \"context\": 1}",
    params: &[
        PATTERN,
        REGEX,
        IGNORE_CASE,
        GLOB,
        FOLDER,
        CONTEXT,
        MAX_RESULTS,
    ],
    annotations: Annotations {
        title: "Search the project",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

/// Longer lines are shown cut (minified files would otherwise flood the answer).
const MAX_LINE_CHARS: usize = 400;

/// What the search has gathered so far.
#[derive(Default)]
struct Found {
    matches: Vec<Value>,
    context_lines: Vec<Value>,
    /// ripgrep-like: `path:line:text` for matches, `path-line-text` for context.
    content: String,
    files_with_matches: usize,
    truncated: bool,
}

typed_args! {
    /// grep_project's arguments, one field per parameter of [`SPEC`].
    pub struct GrepProjectArgs<'a> {
        pattern: &'a str,
        regex: bool,
        ignore_case: bool,
        glob: Option<&'a str>,
        path: Option<&'a str>,
        context: Option<usize>,
        max_results: Option<usize>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = GrepProjectArgs::from_args(args);
    let pattern = a.pattern;
    if pattern.is_empty() {
        return Err(EditError::invalid(
            "`pattern` is empty. Send the text to look for.",
        ));
    }
    let re = search_regex(pattern, a.regex, a.ignore_case)?;
    let paths = scope(ctx, SPEC.name, a.path, a.glob)?.paths;
    let max = a.max_results.unwrap_or(DEFAULT_MAX);
    let context = a.context.unwrap_or(0).min(100);
    let finder = memchr::memmem::Finder::new(pattern.as_bytes());
    let mut found = Found::default();
    for path in &paths {
        let Some(src) = searchable_text(ctx, path) else {
            continue;
        };
        let hit = match &re {
            Some(re) => re.is_match(&src),
            None => finder.find(src.as_bytes()).is_some(),
        };
        if !hit {
            continue;
        }
        if found.matches.len() >= max {
            found.truncated = true;
            break;
        }
        let text = Text::new(&src);
        let lines = matching_lines(&text, pattern, re.as_ref());
        if lines.is_empty() {
            continue; // a regex match only at the end of the text, after its last line
        }
        found.files_with_matches += 1;
        let room = max - found.matches.len();
        found.truncated |= lines.len() > room;
        add_file(
            &mut found,
            path,
            &text,
            &lines[..lines.len().min(room)],
            context,
        );
    }
    Ok(finish(ctx, found, pattern, paths.len(), max, context))
}

/// Adds one file's matching `lines` (0-based) and their context.
fn add_file(found: &mut Found, path: &str, text: &Text, lines: &[usize], context: usize) {
    let n = text.line_count();
    let mut last_shown: Option<usize> = None;
    if !found.content.is_empty() && context > 0 {
        found.content.push_str("--\n");
    }
    for &l in lines {
        let from = l
            .saturating_sub(context)
            .max(last_shown.map_or(0, |s| s + 1));
        if last_shown.is_some_and(|s| from > s + 1) {
            found.content.push_str("--\n");
        }
        for k in from..=(l + context).min(n.saturating_sub(1)) {
            let line = clip(text.line(k));
            let is_match = lines.binary_search(&k).is_ok();
            let sep = if is_match { ':' } else { '-' };
            found
                .content
                .push_str(&format!("{path}{sep}{}{sep}{line}\n", k + 1));
            let entry = json!({"path": path, "line": k + 1, "text": line});
            if is_match {
                found.matches.push(entry);
            } else {
                found.context_lines.push(entry);
            }
            last_shown = Some(k);
        }
    }
}

/// The line, cut to [`MAX_LINE_CHARS`] characters with a trailing `…` when longer.
fn clip(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

fn finish(
    ctx: &mut Ctx,
    found: Found,
    pattern: &str,
    searched: usize,
    max: usize,
    context: usize,
) -> Outcome {
    let count = found.matches.len();
    let message = if count == 0 {
        format!(
            "No line contains {pattern:?} in the {searched} file{} searched.",
            plural(searched)
        )
    } else {
        format!(
            "{count}{} matching line{} in {} file{} ({searched} file{} searched).",
            if found.truncated { "+" } else { "" },
            plural(count),
            found.files_with_matches,
            plural(found.files_with_matches),
            plural(searched)
        )
    };
    if found.truncated {
        ctx.warnings.push(format!(
            "Only the first {max} matching lines are listed; raise max_results or narrow with glob, path or a longer pattern."
        ));
    }
    let mut extra = Map::new();
    extra.insert("matches".into(), Value::Array(found.matches));
    if context > 0 {
        extra.insert("context_lines".into(), Value::Array(found.context_lines));
    }
    extra.insert("files_listed".into(), Value::from(searched));
    extra.insert("truncated".into(), Value::Bool(found.truncated));
    Outcome::Found {
        message,
        content: (count > 0).then_some(found.content),
        extra,
    }
}
