//! The placeholder guard: refuse new text that stands for code instead of being code.
//!
//! Models abbreviate: `// ... existing code ...`, `# rest of the function unchanged`,
//! `<!-- ... -->`. An edit tool writes new text literally, so such a line would replace
//! the real code it stands for. Every tool that writes model-authored text asks
//! [`check`] (or [`placeholder_lines`] for line lists such as a patch's added lines)
//! before writing, and refuses with `placeholder_in_new_str` unless the caller sends
//! `allow_placeholders: true`.
//!
//! A line is a placeholder when, once trimmed, it is
//! - a comment (`//`, `#`, `--`, `;`, `%`, `/* */`, `<!-- -->`, `{/* */}`, `(* *)`)
//!   whose words are only an elision: dots (`// ...`, `/* … */`), or a phrase made only of
//!   elision vocabulary that either has dots or says so outright
//!   (`# rest of the function unchanged`, `// (unchanged)`, `// existing code`);
//! - bare dots (`...`, `…`, `[...]`), or dots followed by such a phrase
//!   (`... rest of code`), or `...rest`-like words that are not a spread (a spread
//!   follows a `,`, `{`, `(` or `[` line, or ends with `,`).
//!
//! Where the edit makes real lines disappear (a line of the replaced text that the new
//! text does not keep), a comment line is also judged by its **shape**, whatever its
//! words ([`stands_for_code`]): its text begins or ends with an ellipsis
//! (`// ... rest of impl`, `# ... keep the remaining lines as they are`), or it is a short
//! fragment (no sentence) that says code is kept, omitted, unchanged, the same, the
//! rest, remaining or as before (`// remaining methods`, `# keep the other handlers`).
//! Doc comments (`///`, `//!`, `/**`) are judged by the words only: they are sentences
//! about the code, not stand-ins for it. Without disappearing lines nothing is lost, so
//! an added comment such as `// TODO: more cases...` passes.
//!
//! A line that also occurs in the text being replaced (`old_str`) is never a
//! placeholder: the model is keeping it, not abbreviating. Words outside the elision
//! vocabulary (`// TODO: handle more cases...`, `print("loading...")`) keep a line
//! ordinary, so real comments and string literals pass.

use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::split_lines;
use serde_json::json;
use std::collections::HashSet;

/// A placeholder line of new text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// 1-based line within the new text.
    pub line: usize,
    pub text: String,
}

/// Refuses `new` (the argument named `what`) when it holds placeholder lines that `old`
/// (the text it replaces, named `old_what`) does not; `allow` turns the check off.
pub fn check(new: &str, what: &str, old: Option<(&str, &str)>, allow: bool) -> EditResult<()> {
    if allow {
        return Ok(());
    }
    let found = placeholders(new, old.map(|(_, text)| text));
    if found.is_empty() {
        return Ok(());
    }
    Err(refusal(what, old.map(|(name, _)| name), &found))
}

/// The placeholder lines of `new` that `old` does not contain.
pub fn placeholders(new: &str, old: Option<&str>) -> Vec<Placeholder> {
    let new_lines = split_lines(new);
    let old_lines = old.map(split_lines).unwrap_or_default();
    placeholder_lines(&new_lines, &old_lines)
        .into_iter()
        .map(|k| Placeholder {
            line: k + 1,
            text: new_lines[k].to_string(),
        })
        .collect()
}

/// 0-based indices of the lines of `new_lines` that are placeholders and do not occur
/// (trimmed) among `old_lines`. For patches: pass a hunk's added and removed lines.
pub fn placeholder_lines(new_lines: &[&str], old_lines: &[&str]) -> Vec<usize> {
    let kept: HashSet<&str> = old_lines.iter().map(|l| l.trim()).collect();
    let new_set: HashSet<&str> = new_lines.iter().map(|l| l.trim()).collect();
    let lines_disappear = old_lines
        .iter()
        .any(|l| !l.trim().is_empty() && !new_set.contains(l.trim()));
    let mut out = Vec::new();
    let mut prev: Option<&str> = None;
    for (k, line) in new_lines.iter().enumerate() {
        let placeholder =
            is_placeholder_after(line, prev) || (lines_disappear && stands_for_code(line, prev));
        if !kept.contains(line.trim()) && placeholder {
            out.push(k);
        }
        if !line.trim().is_empty() {
            prev = Some(line);
        }
    }
    out
}

/// The `placeholder_in_new_str` refusal for `found` lines of the argument `what`.
pub fn refusal(what: &str, against: Option<&str>, found: &[Placeholder]) -> EditError {
    let lines: Vec<String> = found.iter().map(|p| p.line.to_string()).collect();
    let label = match lines.len() {
        1 => format!("line {}", lines[0]),
        _ => format!(
            "lines {} and {}",
            lines[..lines.len() - 1].join(", "),
            lines[lines.len() - 1]
        ),
    };
    let shown: Vec<String> = found
        .iter()
        .take(3)
        .map(|p| format!("`{}`", p.text.trim()))
        .collect();
    let (verb, them, belong, it) = if found.len() == 1 {
        ("looks", "that line", "belongs", "it")
    } else {
        ("look", "those lines", "belong", "them")
    };
    let not_in = against
        .map(|a| format!(", and {a} does not contain {it}"))
        .unwrap_or_default();
    EditError::new(
        ErrorKind::PlaceholderInNewStr,
        format!(
            "{what} {label} ({}) {verb} like a placeholder for code left out{not_in}. This tool writes {what} literally, so the file would get {them} instead of the code. Nothing was changed. Send {what} with the complete text, or add allow_placeholders: true if {them} really {belong} in the file.",
            shown.join(", ")
        ),
    )
    .with_diagnostics(json!({
        "placeholders": found.iter().map(|p| json!({"line": p.line, "text": p.text})).collect::<Vec<_>>()
    }))
}

/// Whether `line` alone reads as a placeholder (no context: `...rest` counts).
pub fn is_placeholder(line: &str) -> bool {
    is_placeholder_after(line, None)
}

/// Whether `line` is a placeholder, given the previous non-blank line (which tells a
/// spread such as `...rest` inside an object literal from an elision).
pub fn is_placeholder_after(line: &str, prev: Option<&str>) -> bool {
    let t = line.trim();
    if t.is_empty() {
        return false;
    }
    if let Some(inner) = comment_body(t) {
        return !is_prose(t, inner, prev) && elision_phrase(inner, false);
    }
    bare_elision(t, prev)
}

/// A comment that is about code rather than a stand-in for it, unless it has dots:
/// a doc comment, a comment that quotes code in backticks (documentation of
/// placeholders), or the continuation of the comment on the line above.
fn is_prose(t: &str, inner: &str, prev: Option<&str>) -> bool {
    if inner.contains("...") || inner.contains('…') {
        return false;
    }
    let doc = ["///", "//!", "/**"].iter().any(|d| t.starts_with(d));
    let continues = prev.is_some_and(|p| comment_body(p.trim()).is_some());
    doc || continues || inner.contains('`')
}

/// Whether a comment line has the shape of a stand-in for code (see the module doc):
/// an ellipsis at the start or end of its text, or a short fragment whose words say
/// code is kept, left out or the same. Judged only where real lines disappear; `prev`
/// is the previous non-blank line (a comment continuing it is prose).
pub fn stands_for_code(line: &str, prev: Option<&str>) -> bool {
    let t = line.trim();
    let Some(inner) = comment_body(t) else {
        return false;
    };
    let inner = inner.trim();
    // `...name` right after the dots is a spread in commented-out code, not an elision.
    let dots = |s: &str| {
        let rest = s.strip_prefix("...").or_else(|| s.strip_prefix('…'));
        rest.is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$'))
            || s == "..."
    };
    let trailing = |s: &str| s.ends_with("...") || s.ends_with('…');
    let unwrapped = inner.trim_matches(|c| matches!(c, '(' | ')' | '[' | ']'));
    if dots(inner) || dots(unwrapped) || trailing(inner) || trailing(unwrapped) {
        return true;
    }
    !is_prose(t, inner, prev) && says_code_is_kept(inner)
}

/// A short fragment (at most eight words, no sentence end) with a word or phrase saying
/// code is kept, left out or the same: `remaining methods`, `keep the rest as is`.
fn says_code_is_kept(inner: &str) -> bool {
    let lower = inner.to_lowercase();
    if lower.trim_end().ends_with(['.', '?', '!', ':']) {
        return false;
    }
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || words.len() > 8 {
        return false;
    }
    const SIGNAL: [&str; 9] = [
        "unchanged",
        "omitted",
        "elided",
        "remaining",
        "untouched",
        "unmodified",
        "keep",
        "kept",
        "existing",
    ];
    const PHRASES: [[&str; 2]; 5] = [
        ["rest", "of"],
        ["the", "rest"],
        ["as", "before"],
        ["the", "same"],
        ["same", "as"],
    ];
    words.iter().any(|w| SIGNAL.contains(w))
        || words.windows(2).any(|p| PHRASES.iter().any(|q| p == q))
}

/// Whether `path` is prose (Markdown, reStructuredText, AsciiDoc, plain text), where a
/// bare `...` line is text (an ellided quotation, a column of an example), not code
/// left out. Comment-shaped placeholders (`<!-- ... existing ... -->`) are still judged.
pub fn is_prose_file(path: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    matches!(
        ext.as_deref(),
        Some("md" | "markdown" | "mdx" | "rst" | "adoc" | "txt")
    )
}

/// Whether `line` is a bare elision (`...`, `[...]`, `... rest`), not a comment.
pub fn is_bare_elision(line: &str) -> bool {
    comment_body(line.trim()).is_none() && is_placeholder(line)
}

/// The text of a line that is wholly a comment, without its comment syntax.
fn comment_body(t: &str) -> Option<&str> {
    const WRAPPED: [(&str, &str); 5] = [
        ("<!--", "-->"),
        ("{/*", "*/}"),
        ("/*", "*/"),
        ("(*", "*)"),
        ("\"\"\"", "\"\"\""),
    ];
    for (open, close) in WRAPPED {
        if t.len() >= open.len() + close.len() && t.starts_with(open) && t.ends_with(close) {
            return t.get(open.len()..t.len() - close.len());
        }
    }
    if let Some(rest) = t.strip_prefix("//") {
        return Some(rest.trim_start_matches(['/', '!']));
    }
    for lead in ['#', ';', '%'] {
        if t.starts_with(lead) {
            return Some(t.trim_start_matches(lead));
        }
    }
    if let Some(rest) = t.strip_prefix("--") {
        return Some(rest.trim_start_matches('-'));
    }
    None
}

/// A line that is not a comment: dots, bracketed dots, or dots and elision words.
fn bare_elision(t: &str, prev: Option<&str>) -> bool {
    if matches!(
        t,
        "[...]" | "(...)" | "{...}" | "<...>" | "[…]" | "(…)" | "{…}" | "<…>"
    ) {
        return true;
    }
    let rest = if let Some(r) = t.strip_prefix("...") {
        r.trim_start_matches('.')
    } else if let Some(r) = t.strip_prefix('…') {
        r
    } else {
        return false;
    };
    if rest.trim().is_empty() || rest.trim_start().starts_with(['(', '[']) {
        return elision_phrase(rest, true);
    }
    // `...word`: a spread or rest element unless it reads as an elision.
    if !rest.starts_with(char::is_whitespace) {
        let word = rest.trim_end_matches([',', ';']);
        let is_ident = word.chars().all(|c| c.is_alphanumeric() || c == '_');
        if is_ident {
            let lazy = LAZY_SPREAD_WORDS.contains(&word.to_lowercase().as_str());
            let in_literal = t.ends_with(',')
                || prev.is_some_and(|p| p.trim_end().ends_with([',', '{', '(', '[']));
            return lazy && !in_literal;
        }
    }
    elision_phrase(rest, true)
}

/// Words after `...` that make `...word` an elision rather than a spread.
const LAZY_SPREAD_WORDS: [&str; 8] = [
    "rest",
    "remaining",
    "etc",
    "more",
    "other",
    "others",
    "existing",
    "unchanged",
];

/// Whether `inner` (a comment's text, or what follows leading dots) is an elision.
fn elision_phrase(inner: &str, after_dots: bool) -> bool {
    let s = inner.trim().to_lowercase();
    let dots = after_dots || s.contains("...") || s.contains('…');
    let words: Vec<&str> = s
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return dots;
    }
    if !words.iter().all(|w| VOCABULARY.contains(w)) {
        return false;
    }
    dots || words.iter().any(|w| OUTRIGHT.contains(w))
        || words
            .windows(2)
            .any(|p| p == ["rest", "of"] || p == ["as", "before"])
}

/// Words that say "left out" without any dots.
const OUTRIGHT: [&str; 8] = [
    "unchanged",
    "existing",
    "omitted",
    "elided",
    "unmodified",
    "untouched",
    "brevity",
    "etc",
];

/// Every word an elision phrase may use; one word outside it makes a real comment.
const VOCABULARY: &[&str] = &[
    "a",
    "above",
    "all",
    "and",
    "any",
    "are",
    "as",
    "be",
    "before",
    "below",
    "block",
    "blocks",
    "body",
    "brevity",
    "case",
    "cases",
    "change",
    "changes",
    "class",
    "classes",
    "code",
    "component",
    "components",
    "config",
    "configuration",
    "constants",
    "content",
    "contents",
    "declarations",
    "definitions",
    "elided",
    "else",
    "elsewhere",
    "entries",
    "etc",
    "everything",
    "existing",
    "exports",
    "field",
    "fields",
    "file",
    "for",
    "from",
    "function",
    "functions",
    "goes",
    "handler",
    "handlers",
    "helper",
    "helpers",
    "here",
    "html",
    "identical",
    "implementation",
    "import",
    "imports",
    "in",
    "is",
    "it",
    "its",
    "keep",
    "kept",
    "line",
    "lines",
    "logic",
    "markup",
    "members",
    "method",
    "methods",
    "module",
    "more",
    "no",
    "of",
    "omitted",
    "on",
    "options",
    "original",
    "other",
    "others",
    "previous",
    "previously",
    "properties",
    "props",
    "queries",
    "query",
    "remain",
    "remaining",
    "remains",
    "rest",
    "routes",
    "same",
    "script",
    "section",
    "sections",
    "settings",
    "so",
    "stays",
    "stay",
    "styles",
    "template",
    "test",
    "tests",
    "that",
    "the",
    "this",
    "to",
    "types",
    "unchanged",
    "unmodified",
    "untouched",
    "variables",
    "was",
    "were",
    "with",
    "your",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_in_any_comment_syntax() {
        for line in [
            "// ... existing code ...",
            "    // ...",
            "# rest of the function unchanged",
            "/* ... */",
            "// (unchanged)",
            "<!-- ... -->",
            "{/* ... */}",
            "-- ... rest of the query",
            "% ...",
            "; ... more handlers ...",
            "# … other methods …",
            "// existing imports",
            "...",
            "…",
            "[...]",
            "... rest of code",
            "...rest",
            "// rest of file",
            "# Remaining cases unchanged",
            "/// ... same as before",
        ] {
            assert!(is_placeholder(line), "{line:?} should be a placeholder");
        }
    }

    #[test]
    fn ordinary_lines_are_not_placeholders() {
        for line in [
            "// TODO: handle more cases...",
            "print(\"loading...\")",
            "    \"...\",",
            "# Title",
            "// Other methods",
            "// Remaining cases",
            "...props,",
            "...props",
            "return [...items];",
            "---",
            "// check that the file exists",
            "x = f(...)",
            "... print(x)",
            "// rest parameters are collected here",
            "//!   (`# rest of the function unchanged`, `// (unchanged)`, `// existing code`);",
            "/// Keeps the rest of the buffer unchanged",
            "",
        ] {
            assert!(
                !is_placeholder(line),
                "{line:?} should not be a placeholder"
            );
        }
    }

    #[test]
    fn lazy_comments_are_recognised_by_shape_where_lines_disappear() {
        let old = ["fn a() {", "    one();", "    two();", "}"];
        for lazy in [
            "    // ... rest of impl",
            "    # ... keep the remaining lines as they are",
            "    // ... (pop unchanged)",
            "    // ... remaining methods",
            "    // keep the other handlers as is",
            "    -- same as before",
            "    /* rest of the loop body */",
        ] {
            let new = ["fn a() {", lazy, "}"];
            assert_eq!(placeholder_lines(&new, &old), vec![1], "{lazy:?}");
            // Nothing disappears: judged by its words alone, as before.
            let added = ["fn a() {", lazy, "    one();", "    two();", "}"];
            let by_words = is_placeholder(lazy);
            assert_eq!(
                placeholder_lines(&added, &old).is_empty(),
                !by_words,
                "{lazy:?}"
            );
        }
        for real in [
            "    // Remove the remaining entries once the queue drains.",
            "    /// Returns the remaining capacity",
            "    // Retry the request with a longer timeout",
            "    // rest parameters are collected here, then forwarded to the handler below",
            "    let rest = ...;",
        ] {
            let new = ["fn a() {", real, "}"];
            assert!(placeholder_lines(&new, &old).is_empty(), "{real:?}");
        }
    }

    #[test]
    fn a_comment_continuing_the_one_above_is_prose() {
        assert!(!is_placeholder_after(
            "// rest of the file for it.",
            Some("// The index is built once and every level probes the")
        ));
        assert!(is_placeholder_after(
            "// rest of the file unchanged",
            Some("x = 1")
        ));
        assert!(is_placeholder_after(
            "// ... rest of the file",
            Some("// setup")
        ));
    }

    #[test]
    fn a_spread_inside_a_literal_is_code() {
        assert!(!is_placeholder_after("  ...rest", Some("  a: 1,")));
        assert!(!is_placeholder_after("  ...rest", Some("const o = {")));
        assert!(is_placeholder_after("  ...rest", Some("  doThings();")));
    }

    #[test]
    fn lines_kept_from_old_are_not_flagged() {
        let old = "const o = {\n  ...rest\n};\n// ...\n";
        let new = "const o = {\n  a: 1,\n  ...rest\n};\n// ...\n";
        assert!(placeholders(new, Some(old)).is_empty());
        let found = placeholders("a\n// ... existing code ...\nb\n", Some("a\nb\n"));
        assert_eq!(
            found,
            vec![Placeholder {
                line: 2,
                text: "// ... existing code ...".into()
            }]
        );
    }

    #[test]
    fn refusal_lists_every_line_and_allow_overrides() {
        let new = "fn a() {\n    // ...\n}\n# rest unchanged\n";
        let err = check(new, "new_str", Some(("old_str", "fn a() {}\n")), false).unwrap_err();
        assert_eq!(err.kind, ErrorKind::PlaceholderInNewStr);
        assert!(err.message.contains("lines 2 and 4"), "{}", err.message);
        assert!(err.message.contains("allow_placeholders: true"));
        assert_eq!(err.diagnostics["placeholders"][1]["line"], 4);
        assert!(check(new, "new_str", None, true).is_ok());
    }
}
