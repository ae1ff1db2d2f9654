//! Placeholder lines: lines that stand for code left out instead of being code.
//!
//! This is the classification only (which lines read as `// ... existing code ...`);
//! what to do about them is decided above: the guard refuses them in new text, the
//! elision recovery in `locate` reads them in old text as "lines left out here". Both
//! ask the same functions, so a line is a placeholder for both or for neither. The
//! rules are listed in the guard's module doc.

use std::collections::HashSet;

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

/// Whether `line` is a comment in a prose file: only markup comments (`<!-- -->`) are;
/// a `#` line there is a heading and `//` is text, so neither can stand for code.
pub fn is_prose_comment(line: &str) -> bool {
    line.trim_start().starts_with("<!--")
}

/// Whether `line` is a bare elision (`...`, `[...]`, `... rest`), not a comment.
pub fn is_bare_elision(line: &str) -> bool {
    comment_body(line.trim()).is_none() && is_placeholder(line)
}
