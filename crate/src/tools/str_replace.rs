//! `str_replace`: replace text found by content.

use super::params::*;
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::diagnose::{self, applied, Anchor, Located, Report};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::guard;
use crate::locate::{self, scope, Candidate, Selection};
use crate::text::Text;
use serde_json::json;
use std::ops::Range;

pub static SPEC: ToolSpec = ToolSpec {
    name: "str_replace",
    description: "Replace text in a file, found by its content (not by line numbers). \
old_str must occur exactly once in the scope, unless you pass occurrence (N-th match), \
line_hint (nearest to that line), replace_all, or expected_replacements. Narrow the search \
with after_hint, between_hint {start, end} or function_hint. Copy old_str from the file with \
enough surrounding lines to be unique; new_str is written literally (no regex, no `$1`). \
Small quoting slips (indentation, trailing spaces, CRLF/LF, line-number prefixes, \
over-escaped backslashes, curly quotes, a `// ...` line standing for unchanged lines) are \
recovered only when the match stays unique; matched_via and warnings say what was corrected \
(strict: true turns this off). Lines like `// ... existing code ...` in new_str are refused, \
since they would be written literally. If old_str is not found, the result shows the closest \
area and the differing lines. \
Example: {\"path\": \"src/app.py\", \"old_str\": \"    retries = 3\\n\", \"new_str\": \"    retries = 5\\n\"}",
    params: &[
        PATH_OR_SYMBOL,
        Param {
            name: "old_str",
            aliases: &["old_string", "old_text", "search", "old"],
            ty: ParamType::String,
            required: true,
            description: "The exact text to replace, copied from the file (whole lines are safest).",
        },
        Param {
            name: "new_str",
            aliases: &["new_string", "new_text", "replace", "replacement", "new"],
            ty: ParamType::String,
            required: true,
            description: "The text to put in its place (empty to delete). Written literally.",
        },
        Param {
            name: "replace_all",
            aliases: &["all"],
            ty: ParamType::Boolean,
            required: false,
            description: "Replace every occurrence in the scope.",
        },
        OCCURRENCE,
        Param {
            name: "expected_replacements",
            aliases: &["expected_count", "count"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "How many occurrences you expect to replace; refused if the count differs. A count above 1 replaces them all.",
        },
        FUNCTION_HINT,
        Param {
            name: "line_hint",
            aliases: &["near_line", "line_number_hint", "line"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "Choose the occurrence nearest this 1-based line (two equally near are refused).",
        },
        Param {
            name: "after_hint",
            aliases: &["after"],
            ty: ParamType::String,
            required: false,
            description: "Begin the search on the line after the one line containing this text (it must occur on one line); of several matches the nearest after it is used.",
        },
        Param {
            name: "between_hint",
            aliases: &["between"],
            ty: ParamType::StringPair(&["start", "end"]),
            required: false,
            description: "Only search strictly between the first line containing `start` and the next line containing `end`.",
        },
        STRICT,
        ALLOW_PLACEHOLDERS,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Replace text",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

typed_args! {
    /// str_replace's arguments, one field per parameter of [`SPEC`].
    pub struct StrReplaceArgs<'a> {
        path: Option<&'a str>,
        old_str: &'a str,
        new_str: &'a str,
        replace_all: bool,
        occurrence: Option<usize>,
        expected_replacements: Option<usize>,
        function_hint: Option<&'a str>,
        line_hint: Option<usize>,
        after_hint: Option<&'a str>,
        between_hint: Option<(&'a str, &'a str)>,
        strict: bool,
        allow_placeholders: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_version: Option<&'a str>,
        encoding: Option<&'a str>,
    }
}

impl StrReplaceArgs<'_> {
    /// Which of old_str's matches the call picks.
    pub fn selection(&self) -> Selection {
        Selection {
            replace_all: self.replace_all,
            occurrence: self.occurrence,
            expected: self.expected_replacements,
            line_hint: self.line_hint,
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let done = replace(ctx, args)?;
    Ok(Outcome::Edited {
        message: done.message,
    })
}

/// What one str_replace did.
pub struct Replaced {
    pub path: String,
    pub message: String,
    /// Each replaced range of the text before the call, with the length of the bytes
    /// written in its place (multi_replace refuses items that overlap earlier ones).
    pub spans: Vec<(Range<usize>, usize)>,
}

/// str_replace itself, on `ctx`: shared by `str_replace` and every item of
/// `multi_replace`, so both parse, match, recover and refuse identically.
pub fn replace(ctx: &mut Ctx, args: &Args) -> EditResult<Replaced> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = StrReplaceArgs::from_args(args);
    let (old, new, strict) = (a.old_str, a.new_str, a.strict);
    check_request(&path, old, new, a.allow_placeholders)?;
    let scope = scope::resolve(&text, args, &path)?;
    let sel = a.selection();
    let when_missing = |_: &Report| already_there(&text, old, new, &scope, &path, strict);
    let when_found = |candidates: &[Candidate]| {
        if sel.occurrence.is_none() && !sel.replace_all && sel.expected.is_none() {
            applied_around(&text, old, new, candidates, &scope, &path)
        } else {
            None
        }
    };
    let anchor = Anchor {
        needle: old,
        what: "old_str",
        path: &path,
        tool: "str_replace",
        strict,
        selection: sel.clone(),
        can_take_all: true,
        missing_kind: None,
        when_missing: Some(&when_missing),
        when_found: Some(&when_found),
    };
    let Located {
        chosen,
        via,
        found_notes,
        select_notes: notes,
    } = diagnose::locate_one(&text, &scope, &anchor)?;
    if let Some(pair) = chosen
        .windows(2)
        .find(|w| w[1].range.start < w[0].range.end)
    {
        // Tolerant matches (an elided old_str with two possible tails) may overlap;
        // replacing both would write one over the other.
        return Err(EditError::new(
            ErrorKind::Ambiguous,
            format!(
                "old_str matches overlapping text in {path} (starting at lines {} and {}), so they cannot all be replaced. Nothing was changed. Send occurrence: N to choose one, or more context in old_str.",
                pair[0].first_line(&text) + 1,
                pair[1].first_line(&text) + 1
            ),
        ));
    }
    let mut replacements = Vec::with_capacity(chosen.len());
    for c in &chosen {
        replacements.push((c.range.clone(), c.render(&text, new)?));
    }
    if replacements
        .iter()
        .all(|(range, bytes)| src.get(range.clone()) == Some(bytes.as_str()))
    {
        return Err(EditError::new(
            ErrorKind::NoChange,
            format!(
                "old_str matched line {} of {path} via {}, and new_str differs from it only in what that match forgives, so the file would not change. Nothing was changed. Send new_str with the change you mean.",
                chosen[0].first_line(&text) + 1,
                via.map_or("exact", |v| v.as_str())
            ),
        ));
    }
    ctx.note_located(&path, &text, &scope, &chosen, a.line_hint);
    ctx.ws.splice(&path, replacements.clone())?;
    let spans = replacements
        .iter()
        .map(|(range, text)| (range.clone(), text.len()))
        .collect();

    ctx.matched_via = via.map(crate::locate::MatchedVia::Level);
    ctx.warnings.extend(found_notes);
    ctx.warnings
        .extend(chosen.first().and_then(|c| c.render_note(new)));
    ctx.warnings.extend(notes);
    let lines: Vec<String> = chosen
        .iter()
        .map(|c| (c.first_line(&text) + 1).to_string())
        .collect();
    let message = if chosen.len() == 1 {
        format!("Replaced 1 occurrence at line {} of {path}.", lines[0])
    } else {
        format!(
            "Replaced {} occurrences in {path} (lines {}).",
            chosen.len(),
            lines.join(", ")
        )
    };
    Ok(Replaced {
        path,
        message,
        spans,
    })
}

/// Refuses a request that cannot be an edit, before any search: nothing to find, no
/// change, or placeholders in new_str.
pub(super) fn check_request(
    path: &str,
    old: &str,
    new: &str,
    allow_placeholders: bool,
) -> EditResult<()> {
    let advice = format!(
        "To add text use insert {{path: \"{path}\", line: N | after_content: \"…\", new_str: \"…\"}}; to write a whole file use create_file."
    );
    check_old_new(old, new, allow_placeholders, &advice)
}

/// The checks every old_str → new_str tool makes first (str_replace, replace_in_files):
/// old_str not empty (`empty_advice` says what to send instead), new_str different,
/// no placeholder in new_str.
pub(super) fn check_old_new(
    old: &str,
    new: &str,
    allow_placeholders: bool,
    empty_advice: &str,
) -> EditResult<()> {
    if old.is_empty() {
        return Err(EditError::invalid(format!(
            "old_str is empty, so there is nothing to find. {empty_advice}"
        )));
    }
    if old == new {
        return Err(EditError::new(
            ErrorKind::NoChange,
            "old_str and new_str are identical, so the edit would change nothing. Send the new text in new_str.",
        ));
    }
    guard::check(new, "new_str", Some(("old_str", old)), allow_placeholders)
}

/// old_str is absent but new_str is present where old_str's surroundings place it:
/// the edit was most likely applied by an earlier call (agents retry calls whose answer
/// they lost). The rule is [`applied::applied`]'s, shared with insert and apply_patch.
fn already_there(
    text: &Text,
    old: &str,
    new: &str,
    scope: &locate::Scope,
    path: &str,
    strict: bool,
) -> Option<EditError> {
    let edit = applied::Edit {
        old,
        new,
        located: &[],
        tolerant: !strict,
    };
    let line = applied::applied(text, &edit, scope)?;
    Some(
        EditError::new(
            ErrorKind::AlreadyApplied,
            format!(
                "old_str is not in {path}, but new_str already is (line {line}), where old_str's unchanged lines place it: this edit looks applied already, probably by an earlier call. Nothing was changed. If more is needed, read lines near {line} and send a new edit."
            ),
        )
        .with_diagnostics(json!({"new_str_at_line": line})),
    )
}

/// new_str contains old_str, and the text around the only match already reads new_str:
/// applying again would duplicate the added part.
fn applied_around(
    text: &Text,
    old: &str,
    new: &str,
    candidates: &[locate::Candidate],
    scope: &locate::Scope,
    path: &str,
) -> Option<EditError> {
    if candidates.len() != 1 || !new.contains(old) {
        return None;
    }
    let located = [candidates[0].range.clone()];
    let edit = applied::Edit {
        old,
        new,
        located: &located,
        tolerant: false,
    };
    let line = applied::applied(text, &edit, scope)?;
    Some(EditError::new(
        ErrorKind::AlreadyApplied,
        format!(
            "{path} already reads new_str at line {line} (old_str occurs only inside it): this edit looks applied already, probably by an earlier call. Nothing was changed. To apply it once more anyway, send the same call with occurrence: 1."
        ),
    ))
}
