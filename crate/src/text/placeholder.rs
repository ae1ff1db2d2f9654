//! Placeholder lines: lines that stand for code left out instead of being code.
//!
//! This is the classification only (which lines read as `// ... existing code ...`);
//! what to do about them is decided above: the guard refuses them in new text, the
//! elision recovery in `locate` reads them in old text as "lines left out here". Both
//! ask the same functions, so a line is a placeholder for both or for neither. The
//! rules are listed in the guard's module doc.

use std::collections::HashSet;

/// 0-based indices of the lines of `new_lines` that are placeholders. With `old_lines`
/// empty, `new_lines` is new text (a new file, an elision's marks): judged by its words
/// alone. Otherwise `new_lines` replaces `old_lines` and the rule is
/// [`placeholder_lines_replacing`]'s.
pub fn placeholder_lines(new_lines: &[&str], old_lines: &[&str]) -> Vec<usize> {
    if old_lines.is_empty() {
        return placeholder_lines_in_new_text(new_lines);
    }
    placeholder_lines_replacing(new_lines, old_lines)
}

/// 0-based indices of the lines of new text (nothing replaced: `create_file`, a patch's
/// new file) whose words read as an elision (any line of a comment run).
pub fn placeholder_lines_in_new_text(new_lines: &[&str]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut prev: Option<&str> = None;
    for (k, line) in new_lines.iter().enumerate() {
        if is_placeholder_after(line, prev) {
            out.push(k);
        }
        if !line.trim().is_empty() {
            prev = Some(line);
        }
    }
    out
}

/// 0-based indices of the lines of `new_lines` that stand where the edit from
/// `old_lines` deletes code (a placeholder is a comment standing where code was
/// deleted). Each line of new text that the old text does not have lies in a changed
/// stretch ([`stretch_losses`]); it is a placeholder when
/// - its words read as an elision ([`is_placeholder_after`]) and the stretch deletes a
///   code line (one that does not come back anywhere in the new text), or
/// - its shape does ([`stands_for_code`]) and the stretch deletes more code lines than
///   it adds (a modified line comes back as its new version).
///
/// A pure addition never trips it.
pub fn placeholder_lines_replacing(new_lines: &[&str], old_lines: &[&str]) -> Vec<usize> {
    let losses = stretch_losses(new_lines, old_lines);
    let kept: HashSet<&str> = old_lines.iter().map(|l| l.trim()).collect();
    let mut out = Vec::new();
    let mut prev: Option<&str> = None;
    for (k, line) in new_lines.iter().enumerate() {
        if let Some(loss) = losses[k] {
            if !kept.contains(line.trim()) && trips(line, prev, loss) {
                out.push(k);
            }
        }
        if !line.trim().is_empty() {
            prev = Some(line);
        }
    }
    out
}

/// The verdict for one line of a changed stretch that deletes `loss`.
fn trips(line: &str, prev: Option<&str>, loss: Loss) -> bool {
    (loss.removed > 0 && is_placeholder_after(line, prev))
        || (loss.removed > loss.added && stands_for_code(line, prev))
}

/// What one changed stretch of an edit does to code lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loss {
    /// Code lines of the stretch's old side whose text (trimmed) the new text nowhere has.
    pub removed: usize,
    /// Code lines of the stretch's new side whose text (trimmed) the old text nowhere has.
    pub added: usize,
}

/// For each line of `new_lines`: None when the edit from `old_lines` keeps it, else the
/// [`Loss`] of its changed stretch. Stretches lie between **anchors**: the lines with a
/// word (a letter or digit) that a line diff of the two sides' worded lines (trimmed)
/// keeps. Between two consecutive anchors (or an anchor and an end), the old and the
/// new lines are one stretch unless they are equal; lines without a word (`}`, blank)
/// never anchor, so a stretch does not depend on which of several `}` a diff keeps.
/// Code lines are non-blank lines that are not wholly comments ([`is_code_line`]).
pub fn stretch_losses(new_lines: &[&str], old_lines: &[&str]) -> Vec<Option<Loss>> {
    let old_t: Vec<&str> = old_lines.iter().map(|l| l.trim()).collect();
    let new_t: Vec<&str> = new_lines.iter().map(|l| l.trim()).collect();
    let worded = |t: &[&str]| -> Vec<usize> { (0..t.len()).filter(|&k| has_word(t[k])).collect() };
    let (old_w, new_w) = (worded(&old_t), worded(&new_t));
    let old_words: Vec<&str> = old_w.iter().map(|&k| old_t[k]).collect();
    let new_words: Vec<&str> = new_w.iter().map(|&k| new_t[k]).collect();
    let mut anchors = Vec::new();
    for op in crate::text::diff::diff_lines(&old_words, &new_words) {
        if let similar::DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            anchors.extend((0..len).map(|d| (old_w[old_index + d], new_w[new_index + d])));
        }
    }
    losses_between(&old_t, &new_t, &anchors)
}

/// [`stretch_losses`] given the anchors (pairs of kept old and new line indices, in
/// increasing order on both sides).
pub fn losses_between(
    old_t: &[&str],
    new_t: &[&str],
    anchors: &[(usize, usize)],
) -> Vec<Option<Loss>> {
    let old_set: HashSet<&str> = old_t.iter().copied().collect();
    let new_set: HashSet<&str> = new_t.iter().copied().collect();
    let mut out = vec![None; new_t.len()];
    let (mut i, mut j) = (0, 0);
    let ends = anchors.iter().copied().chain([(old_t.len(), new_t.len())]);
    for (a, b) in ends {
        let (old_seg, new_seg) = (&old_t[i..a], &new_t[j..b]);
        if old_seg != new_seg {
            let loss = Loss {
                removed: old_seg
                    .iter()
                    .filter(|l| is_code_line(l) && !new_set.contains(*l))
                    .count(),
                added: new_seg
                    .iter()
                    .filter(|l| is_code_line(l) && !old_set.contains(*l))
                    .count(),
            };
            out[j..b].fill(Some(loss));
        }
        (i, j) = (a + 1, b + 1);
    }
    out
}

/// Whether a line has a letter or digit (a line that can anchor a stretch).
fn has_word(l: &str) -> bool {
    l.chars().any(char::is_alphanumeric)
}

/// Whether a trimmed line is code: not blank, not wholly a comment, not the inside of
/// a block comment (`* text`, `*/`).
pub fn is_code_line(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty()
        && comment_body(t).is_none()
        && !(t == "*" || t.starts_with("* ") || t.starts_with("*/"))
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
/// placeholders), or the continuation of a sentence the comment line above began.
fn is_prose(t: &str, inner: &str, prev: Option<&str>) -> bool {
    if inner.contains("...") || inner.contains('…') {
        return false;
    }
    let doc = ["///", "//!", "/**"].iter().any(|d| t.starts_with(d));
    doc || inner.contains('`') || continues_sentence(inner, prev)
}

/// Whether a comment's text `inner` goes on with a sentence of the comment line `prev`:
/// `prev` is wrapped prose (a comment of at least [`WRAPPED_PROSE`] characters of text
/// that does not end a sentence or a clause), and `inner` starts with a lower-case
/// letter. Any other line of a comment run is judged on its own: `// (unchanged)` or
/// `// rest of the function remains the same` under `// Setup` is still an elision.
pub fn continues_sentence(inner: &str, prev: Option<&str>) -> bool {
    let Some(above) = prev.and_then(|p| comment_body(p.trim())) else {
        return false;
    };
    let above = above.trim();
    let open_ended = !above.ends_with(['.', ':', ';', '!', '?', ')', ']', '}', '…']);
    let lower = inner.trim_start().starts_with(|c: char| c.is_lowercase());
    above.chars().count() >= WRAPPED_PROSE && open_ended && lower
}

/// Shortest comment text read as a wrapped line of prose (shorter lines are headings
/// or fragments, after which each comment line stands alone).
pub const WRAPPED_PROSE: usize = 40;

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
    let leads = dots(inner) || dots(unwrapped);
    let ends = trailing(inner) || trailing(unwrapped);
    let words = words_of(unwrapped);
    let text_words = words.len();
    if (leads && ends) || text_words == 0 && (leads || ends) {
        // `// ... validation ...`, `/* … */`: dots around (or instead of) the words.
        return true;
    }
    if leads || ends {
        return says_code_is_kept(&words, 2);
    }
    !is_prose(t, inner, prev) && !ends_sentence(inner) && says_code_is_kept(&words, 1)
}

/// The lower-case words of a comment's text.
fn words_of(inner: &str) -> Vec<String> {
    inner
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn ends_sentence(inner: &str) -> bool {
    inner.trim_end().ends_with(['.', '?', '!', ':'])
}

/// A short fragment (at most eight words) with a word or phrase saying code is kept,
/// left out or the same, and at most `outside` words that are not elision vocabulary:
/// `remaining methods`, `keep the rest as is`, `rest of the loop body`; not
/// `keep state in per-thread local storage`.
fn says_code_is_kept(words: &[String], outside: usize) -> bool {
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
    let signal = words.iter().any(|w| SIGNAL.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|p| PHRASES.iter().any(|q| p[0] == q[0] && p[1] == q[1]));
    let foreign = words
        .iter()
        .filter(|w| !VOCABULARY.contains(&w.as_str()))
        .count();
    signal && foreign <= outside
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
    if is_preprocessor(t) {
        return None;
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

/// A C preprocessor line (`#define f(fmt, ...)`, `#include`, `#if 0`): code, though
/// it starts like a `#` comment.
fn is_preprocessor(t: &str) -> bool {
    const DIRECTIVES: [&str; 13] = [
        "define", "include", "if", "ifdef", "ifndef", "elif", "else", "endif", "pragma", "undef",
        "error", "warning", "import",
    ];
    let Some(rest) = t.strip_prefix('#') else {
        return false;
    };
    // `# if the list is empty` (with a space) is a comment in Python and shell.
    DIRECTIVES.iter().any(|d| {
        rest.strip_prefix(d)
            .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
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
