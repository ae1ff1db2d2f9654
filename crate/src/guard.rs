//! The guards: refuse new text that stands for code instead of being code (here), and
//! edits that unbalance a balanced file ([`balance`], the syntax-regression guard).
//!
//! Models abbreviate: `// ... existing code ...`, `# rest of the function unchanged`,
//! `<!-- ... -->`. An edit tool writes new text literally, so such a line would replace
//! the real code it stands for. Every tool that writes model-authored text asks
//! [`check`] (or [`placeholder_lines_replacing`] for line lists such as a patch hunk's)
//! before writing, and refuses with `placeholder_in_new_str` unless the caller sends
//! `allow_placeholders: true`.
//!
//! **A placeholder is a comment standing where code was deleted.** For an edit (new
//! text replacing old text: str_replace's new_str, a patch hunk's new lines, a replaced
//! block or body, a file overwritten whole) the guard needs both:
//! - the edit deletes code at that stretch: the lines between two kept worded lines
//!   ([`stretch_losses`]) lose a code line whose text does not come back anywhere in the
//!   new text; a pure addition never trips the guard;
//! - a line there reads as an elision (below). Any line of a comment run is judged: a
//!   comment line continues the one above (and is prose) only when the line above is
//!   wrapped prose and this one starts in lower case ([`continues_sentence`]).
//!
//! Where nothing is replaced (create_file, a patch's new file, insert), the words alone
//! decide ([`placeholder_lines_in_new_text`]).
//!
//! A line reads as an elision by its **words** when, once trimmed, it is
//! - a comment (`//`, `#`, `--`, `;`, `%`, `/* */`, `<!-- -->`, `{/* */}`, `(* *)`)
//!   whose words are only an elision: dots (`// ...`, `/* … */`), or a phrase made only of
//!   elision vocabulary that either has dots or says so outright
//!   (`# rest of the function unchanged`, `// (unchanged)`, `// existing code`);
//! - bare dots (`...`, `…`, `[...]`), or dots followed by such a phrase
//!   (`... rest of code`), or `...rest`-like words that are not a spread (a spread
//!   follows a `,`, `{`, `(` or `[` line, or ends with `,`).
//!
//! Words suffice where the stretch loses any code line. Where it loses more code lines
//! than it adds (a modified line comes back as its new version), a comment is also
//! judged by its **shape** ([`stands_for_code`]): dots around its words
//! (`// ... validation ...`), or dots at one end or none with a short fragment that says
//! code is kept, omitted, unchanged, the same, the rest, remaining or as before and has
//! at most two (with dots) or one (without) word outside the elision vocabulary
//! (`// ... rest of impl`, `// remaining methods`, `# keep the other handlers`; not
//! `# Keep state in per-thread local storage`, not `// ... and skip over the match.`).
//! Doc comments (`///`, `//!`, `/**`) are judged by the words only. C preprocessor lines
//! (`#define f(fmt, ...)`) are code, not `#` comments.
//!
//! A line that also occurs in the text being replaced (`old_str`) is never a
//! placeholder: the model is keeping it, not abbreviating. Words outside the elision
//! vocabulary (`// TODO: handle more cases...`, `print("loading...")`) keep a line
//! ordinary, so real comments and string literals pass.

pub mod balance;

use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::split_lines;
use serde_json::json;

pub use crate::text::placeholder::{
    continues_sentence, is_bare_elision, is_code_line, is_placeholder, is_placeholder_after,
    is_prose_comment, is_prose_file, placeholder_lines, placeholder_lines_in_new_text,
    placeholder_lines_replacing, stands_for_code, stretch_losses, Loss,
};

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
    // Replacing nothing (a new file, an empty one) is writing new text.
    let found = match old.filter(|o| !o.trim().is_empty()) {
        Some(old) => placeholder_lines_replacing(&new_lines, &split_lines(old)),
        None => placeholder_lines_in_new_text(&new_lines),
    };
    found
        .into_iter()
        .map(|k| Placeholder {
            line: k + 1,
            text: new_lines[k].to_string(),
        })
        .collect()
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
            // Nothing is deleted: a pure addition never trips the guard.
            let added = ["fn a() {", lazy, "    one();", "    two();", "}"];
            assert!(placeholder_lines(&added, &old).is_empty(), "{lazy:?}");
            // A modified line comes back: the shape alone needs lines to be lost.
            let modified = ["fn a() {", lazy, "    one(1);", "    two(2);", "}"];
            assert_eq!(
                placeholder_lines(&modified, &old).is_empty(),
                !is_placeholder(lazy),
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
        assert!(placeholders("a\n// ... existing code ...\nb\n", Some("a\nb\n")).is_empty());
        let found = placeholders("a\n// ... existing code ...\nb\n", Some("a\nx();\nb\n"));
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
