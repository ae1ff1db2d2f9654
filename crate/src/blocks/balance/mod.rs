//! Balance: whether the lexer reads a whole file as closed.
//!
//! A file is *balanced* when the lexer ([`super::lex`]) had nothing to recover from
//! (every bracket closed by its partner, every string, template literal and block
//! comment terminated) and, in Python, its indentation is consistent (see
//! [`super::indent::python_indentation`]). Otherwise [`balance`] names the first place
//! where that fails: an unmatched opener or closer and its line. A cause comes before
//! its consequence: an unterminated string, a stray or mismatched closer is named before
//! any opener left unclosed (usually left so by that cause); among equals, the first in
//! the file.
//!
//! Only languages the lexer knows by extension are judged; for any other path the
//! answer is [`Balance::Unknown`], never a guess with the generic rules. YAML is judged
//! by its quotes and flow brackets only (its indentation has no wrong shape to find).
//!
//! [`balance`] is one whole lex (linear, see `docs/syntax-guard.md`). For a text derived
//! from another by an edit, [`retraced`] re-lexes only the changed stretch from the
//! other's kept state ([`traced`]); see `relex`.

mod relex;

pub use relex::{retraced, retraced_by, traced, Traced};

use super::lex::{Issue, IssueKind};
use super::{Analysis, Lang};
use crate::text::Text;

/// What the lexer makes of a whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Balance {
    /// Every opener closed, every closer opened, indentation consistent.
    Balanced,
    /// The first place where balance is lost.
    Unbalanced(Unmatched),
    /// The path's extension names no language the lexer knows.
    Unknown,
}

/// The first unmatched opener or closer of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched {
    /// 1-based line.
    pub line: usize,
    /// The opener or closer as the file spells it (`{`, `"`, `/*`, `` ` ``), or
    /// `indentation`.
    pub token: String,
    /// One sentence: what is unmatched, where (e.g. "`{` at line 12 is never closed").
    pub reason: String,
}

/// The balance of `src`, lexed as the language of `path`.
pub fn balance(src: &str, path: &str) -> Balance {
    let Some(lang) = Lang::from_path(path) else {
        return Balance::Unknown;
    };
    let text = Text::new(src);
    let a = Analysis::with_lang(&text, lang, true);
    balance_of(&a)
}

/// Whether `src` is balanced by `lang`'s rules (what [`balance`] calls `Balanced`),
/// lexed without keeping states, where that is cheaper than [`traced`]: in every
/// language but Python (None there), whose indentation rule [`traced`] reads from the
/// lexer's checkpoints in one pass.
pub fn balanced_untraced(src: &str, lang: Lang) -> Option<bool> {
    if lang == Lang::Python {
        return None;
    }
    let text = Text::new(src);
    Some(balance_of(&Analysis::with_lang(&text, lang, true)) == Balance::Balanced)
}

/// The balance of a file already lexed (unknown languages included: the caller chose
/// the rules).
pub fn balance_of(a: &Analysis) -> Balance {
    let first = a
        .issues()
        .iter()
        .min_by_key(|is| (is.kind == IssueKind::Unclosed, is.pos));
    if let Some(is) = first {
        return Balance::Unbalanced(Unmatched {
            line: a.line_of(is.pos) + 1,
            token: token(a, is),
            reason: a.describe_issue(is),
        });
    }
    if a.lang == Lang::Python {
        if let Some((line, reason)) = super::indent::python_indentation(a) {
            return Balance::Unbalanced(Unmatched {
                line: line + 1,
                token: "indentation".to_string(),
                reason,
            });
        }
    }
    Balance::Balanced
}

/// The opener or closer an issue is about, as the file spells it.
fn token(a: &Analysis, is: &Issue) -> String {
    let src = a.text.as_str().as_bytes();
    let at = |k: usize| src.get(is.pos + k).copied().unwrap_or(b' ');
    match is.kind {
        IssueKind::UnterminatedComment => "/*".to_string(),
        IssueKind::UnterminatedString => {
            // Skip a string prefix (r, b, f, @, $) to the quote itself.
            let quote = (0..4)
                .map(at)
                .find(|c| matches!(c, b'"' | b'\'' | b'`' | b'<'))
                .unwrap_or(is.byte);
            (quote as char).to_string()
        }
        IssueKind::Unclosed if is.what == "hole" && is.pos > 0 && src[is.pos - 1] == b'$' => {
            "${".to_string()
        }
        _ => (is.byte as char).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (path, text, expected: "balanced", "unknown", or "line token")
    const CASES: &[(&str, &str, &str)] = &[
        ("a.rs", "fn f() {\n    let s = \"}\";\n}\n", "balanced"),
        ("a.rs", "fn f() {\n    let s = 1;\n", "1 {"),
        ("a.rs", "fn f() {\n}\n}\n", "3 }"),
        ("a.rs", "fn f() {\n    let s = \"x;\n}\n", "2 \""),
        ("a.rs", "fn f() {\n    /* open\n}\n", "2 /*"),
        ("a.rs", "fn f() { g(] }\n", "1 ]"),
        ("a.js", "const a = `x ${y} z`;\n", "balanced"),
        ("a.js", "const a = `x ${y z`;\n", "1 `"),
        ("a.js", "const a = `x\n", "1 `"),
        ("a.js", "if (a) { b(); }}\n", "1 }"),
        ("a.go", "func f() {\n\ts := `a\n}\n", "2 `"),
        ("a.css", "a { color: red;\n", "1 {"),
        ("a.json", "{\"a\": [1, 2}\n", "1 }"),
        ("a.py", "def f():\n    return (1,\n", "2 ("),
        ("a.py", "def f():\n    return 1\n", "balanced"),
        (
            "a.py",
            "def f():\n    if x:\n        pass\n      y = 1\n",
            "4 indentation",
        ),
        (
            "a.py",
            "def f():\n    x = 1\n        y = 2\n",
            "3 indentation",
        ),
        ("a.py", "def f():\nx = 1\n", "2 indentation"),
        ("a.py", "class A:\n", "1 indentation"),
        (
            "a.py",
            "x = [\n        1,\n  2]\nif x:  # a comment:\n    pass\n",
            "balanced",
        ),
        (
            "a.py",
            "s = '''\n  a\n      b\n'''\ndef f(): return 1\n",
            "balanced",
        ),
        ("a.py", "if a: \\\n        b\n", "balanced"),
        ("README.md", "unclosed ( [ {\n", "unknown"),
        ("Makefile", "a: (\n", "unknown"),
    ];

    fn verdict(path: &str, src: &str) -> String {
        match balance(src, path) {
            Balance::Balanced => "balanced".to_string(),
            Balance::Unknown => "unknown".to_string(),
            Balance::Unbalanced(u) => format!("{} {}", u.line, u.token),
        }
    }

    #[test]
    fn each_file_is_read_as_balanced_or_its_first_unmatched_place_is_named() {
        for (path, src, want) in CASES {
            assert_eq!(verdict(path, src), *want, "{path}: {src:?}");
        }
    }
}
