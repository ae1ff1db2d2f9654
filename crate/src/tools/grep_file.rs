//! `grep_file`: find the lines of one file that contain a string or match a regex.

use super::params::*;
use super::{line_json, Ctx, Outcome, Reading};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult};
use crate::text::{version_of, Text};
use serde_json::{Map, Value};

pub static SPEC: ToolSpec = ToolSpec {
    name: "grep_file",
    description: "Find the lines of a file containing `pattern` (a literal string, or a regex \
with regex: true; Rust regex syntax). Returns matches [{line, text}] with 1-based line \
numbers, optional context lines around them, and the file's version. \
Example: {\"path\": \"src/app.py\", \"pattern\": \"def connect\", \"context\": 2}",
    params: &[
        PATH,
        PATTERN,
        REGEX,
        IGNORE_CASE,
        CONTEXT,
        MAX_RESULTS,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Search one file",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

/// Matching lines reported when `max_results` is not given.
pub(super) const DEFAULT_MAX: usize = 100;

/// `pattern`, as grep_file and grep_project take it.
pub(super) const PATTERN: Param = Param {
    name: "pattern",
    aliases: &["query", "search", "needle"],
    ty: ParamType::String,
    required: true,
    description: "The text to look for (literal unless regex is true).",
};

/// `regex`, as grep_file and grep_project take it.
pub(super) const REGEX: Param = Param {
    name: "regex",
    aliases: &["is_regex", "use_regex"],
    ty: ParamType::Boolean,
    required: false,
    description:
        "Treat pattern as a regular expression (multi-line mode: ^ and $ match at line ends).",
};

/// `ignore_case`, as grep_file and grep_project take it.
pub(super) const IGNORE_CASE: Param = Param {
    name: "ignore_case",
    aliases: &["case_insensitive"],
    ty: ParamType::Boolean,
    required: false,
    description: "Match without regard to case.",
};

/// `context`, as grep_file and grep_project take it.
pub(super) const CONTEXT: Param = Param {
    name: "context",
    aliases: &["context_lines"],
    ty: ParamType::Integer { min: 0 },
    required: false,
    description: "Lines of context to show before and after each match (default 0).",
};

/// `max_results`, as grep_file and grep_project take it.
pub(super) const MAX_RESULTS: Param = Param {
    name: "max_results",
    aliases: &["limit", "max_count"],
    ty: ParamType::Integer { min: 1 },
    required: false,
    description: "Report at most this many matching lines (default 100).",
};

/// The regex a search uses: None for a plain literal search (neither `regex` nor
/// `ignore_case`). Multi-line (`^`/`$` at line ends), with size limits so that no
/// pattern takes unbounded time or memory to build. Shared with `grep_project`.
pub(super) fn search_regex(
    pattern: &str,
    regex: bool,
    ignore_case: bool,
) -> EditResult<Option<regex::Regex>> {
    if !(regex || ignore_case) {
        return Ok(None);
    }
    let source = if regex {
        pattern.to_string()
    } else {
        regex::escape(pattern)
    };
    regex::RegexBuilder::new(&source)
        .multi_line(true)
        .case_insensitive(ignore_case)
        .size_limit(1 << 22)
        .dfa_size_limit(1 << 24)
        .build()
        .map(Some)
        .map_err(|e| {
            EditError::invalid(format!(
                "pattern is not a valid regex: {}. Fix it, or send regex: false to search for the literal text.",
                e.to_string().lines().last().unwrap_or("")
            ))
        })
}

/// The 0-based lines of `text` holding a match of `pattern`, or of `re` when given,
/// in order, each once.
pub(super) fn matching_lines(text: &Text, pattern: &str, re: Option<&regex::Regex>) -> Vec<usize> {
    let src = text.as_str();
    let mut lines: Vec<usize> = Vec::new();
    let mut push = |line: usize| {
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    };
    if let Some(re) = re {
        for m in re.find_iter(src) {
            if m.start() == src.len() && text.ends_with_newline() {
                continue; // the empty position after the final newline is not a line
            }
            push(text.line_of(m.start()));
        }
    } else {
        for at in memchr::memmem::find_iter(src.as_bytes(), pattern.as_bytes()) {
            push(text.line_of(at));
        }
    }
    lines
}

/// "3 matching lines in a.py (lines 4, 9, 12)." (at most ten lines listed).
fn summary(path: &str, pattern: &str, lines: &[usize], total: usize) -> String {
    let listed: Vec<String> = lines.iter().take(10).map(|l| (l + 1).to_string()).collect();
    match total {
        0 => format!("No line of {path} contains {pattern:?}."),
        _ => format!(
            "{total} matching line{} in {path}{}{}.",
            crate::text::words::plural(total),
            if listed.is_empty() {
                String::new()
            } else {
                format!(
                    " (line{} {}",
                    crate::text::words::plural(total),
                    listed.join(", ")
                )
            },
            if listed.is_empty() {
                ""
            } else if total > listed.len() {
                ", …)"
            } else {
                ")"
            }
        ),
    }
}

typed_args! {
    /// grep_file's arguments, one field per parameter of [`SPEC`].
    pub struct GrepFileArgs<'a> {
        path: &'a str,
        pattern: &'a str,
        regex: bool,
        ignore_case: bool,
        context: Option<usize>,
        max_results: Option<usize>,
        encoding: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = GrepFileArgs::from_args(args);
    let pattern = a.pattern;
    if pattern.is_empty() {
        return Err(EditError::invalid(
            "`pattern` is empty. Send the text to look for.",
        ));
    }
    let max = a.max_results.unwrap_or(DEFAULT_MAX);
    let context = a.context.unwrap_or(0).min(1000);

    let re = search_regex(pattern, a.regex, a.ignore_case)?;
    let mut lines = matching_lines(&text, pattern, re.as_ref());

    let total = lines.len();
    lines.truncate(max);
    let matches: Vec<Value> = lines.iter().map(|&l| line_json(&text, l)).collect();

    // Shown lines: each match with its context, groups separated by "--".
    let n = text.line_count();
    let mut shown: Vec<usize> = Vec::new();
    for &l in &lines {
        let from = l
            .saturating_sub(context)
            .max(shown.last().map_or(0, |s| s + 1));
        for k in from..=(l + context).min(n.saturating_sub(1)) {
            shown.push(k);
        }
    }
    let mut content = String::new();
    let mut context_lines = Vec::new();
    let mut prev: Option<usize> = None;
    for &k in &shown {
        if prev.is_some_and(|p| p + 1 != k) {
            content.push_str("--\n");
        }
        content.push_str(text.line_with_ending(k));
        if !content.ends_with('\n') {
            content.push('\n');
        }
        if lines.binary_search(&k).is_err() {
            context_lines.push(line_json(&text, k));
        }
        prev = Some(k);
    }

    let mut extra = Map::new();
    extra.insert("matches".into(), Value::Array(matches));
    if context > 0 {
        extra.insert("context_lines".into(), Value::Array(context_lines));
    }
    extra.insert("total_matches".into(), Value::from(total));
    if total > max {
        extra.insert("truncated".into(), Value::Bool(true));
    }
    let message = summary(&path, pattern, &lines, total);
    if total > max {
        ctx.warnings.push(format!(
            "Only the first {max} of {total} matching lines are listed; raise max_results or narrow the pattern."
        ));
    }
    Ok(Outcome::Read(Reading {
        path,
        content,
        start_line: shown.first().map_or(0, |l| l + 1),
        end_line: shown.last().map_or(0, |l| l + 1),
        line_count: Some(n),
        version: version_of(&src),
        message: Some(message),
        extra,
    }))
}
