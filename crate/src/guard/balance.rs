//! The syntax-regression guard: refuse an edit that unbalances a balanced file.
//!
//! The session asks [`check`] once per editing call, after the tool ran and before
//! anything is described or written, with every file the call changed (so a batch or
//! patch that opens a block in one edit and closes it in the next is judged on its
//! final text, and a dry run refuses exactly as the commit would). A file is refused
//! when the lexer reads its original text as balanced and its final text as not
//! ([`crate::blocks::balance`]); the refusal names the first unmatched opener or closer,
//! its line, and the override `allow_unbalanced: true`.
//!
//! Not checked, because no regression can be told: created files (no original),
//! deleted files (no final text), files already unbalanced, files whose language the
//! lexer does not know, and a file moved to a name of another language. Which tools are
//! guarded is a property of their spec ([`crate::args::ToolSpec::guarded`]).
//!
//! Cost: a session keeps the lexer's state of the texts it checked ([`Cache`]): an edit
//! of one of them is re-lexed only from the snapshot before the first changed byte to
//! the first line after the change where the lexer is in step with the original again
//! ([`crate::blocks::balance::retraced`]), and the result's state is kept for the next
//! edit. An edit of an unbalanced text (never refused) keeps the state derived for its
//! result while that stays unbalanced. A text met for the first time is lexed whole
//! once. Only a refusal lexes the
//! final text whole again, to name the place (so no refusal rests on the re-lexing).

use crate::blocks::balance::{balanced_untraced, retraced_by, traced, Traced};
use crate::blocks::{balance, Balance, Lang, Unmatched};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::workspace::Changed;
use serde_json::json;
use std::collections::VecDeque;
use std::sync::Arc;

/// Texts kept at most (and their total size), oldest dropped first.
const CACHE_TEXTS: usize = 16;
const CACHE_BYTES: usize = 64 << 20;
/// Texts of one path kept at most (its latest texts: an edit's original and result,
/// and the texts before them that an undo may bring back).
const PATH_TEXTS: usize = 4;

/// The lexer states of the texts a session's guard checked last.
#[derive(Clone, Debug, Default)]
pub struct Cache {
    entries: VecDeque<(String, Arc<String>, Traced)>,
    /// Keep nothing (a session that ends with its one call).
    off: bool,
}

impl Cache {
    /// Stops (or resumes) keeping states: every check then lexes what it needs.
    pub fn set_off(&mut self, off: bool) {
        self.off = off;
        if off {
            self.entries.clear();
        }
    }

    /// The state of `text` at `path`, if kept (the same text, not merely the same name).
    /// The found entry becomes the most recently used (the last dropped).
    fn get(&mut self, path: &str, text: &Arc<String>) -> Option<Traced> {
        // The same allocation first: comparing bytes on the way to it would read an
        // earlier text of the same length up to its first difference.
        let at = |same: fn(&Arc<String>, &Arc<String>) -> bool| {
            self.entries
                .iter()
                .position(|(p, t, _)| p == path && same(t, text))
        };
        let i = at(Arc::ptr_eq).or_else(|| at(same_text))?;
        let entry = self.entries.remove(i)?;
        let state = entry.2.clone();
        self.entries.push_back(entry);
        Some(state)
    }

    fn put(&mut self, path: &str, text: &Arc<String>, state: Traced) {
        if self.off {
            return;
        }
        // By identity only: comparing the bytes of an earlier text of the same path
        // (an edit that keeps the length) read the whole file on every call. An equal
        // text in another allocation stays as a second entry, bounded below; `get`
        // finds either.
        self.entries
            .retain(|(p, t, _)| !(p == path && Arc::ptr_eq(t, text)));
        // A path's earlier texts beyond the last few are of no next call.
        while self.entries.iter().filter(|(p, _, _)| p == path).count() >= PATH_TEXTS {
            let Some(oldest) = self.entries.iter().position(|(p, _, _)| p == path) else {
                break;
            };
            self.entries.remove(oldest);
        }
        self.entries
            .push_back((path.to_string(), text.clone(), state));
        let mut bytes: usize = self.entries.iter().map(|(_, t, _)| t.len()).sum();
        while self.entries.len() > CACHE_TEXTS || (bytes > CACHE_BYTES && self.entries.len() > 1) {
            if let Some((_, t, _)) = self.entries.pop_front() {
                bytes -= t.len();
            }
        }
    }
}

/// Whether two texts are equal: the same allocation, else the same length and bytes
/// (a text read again from disk is equal to the kept one but not the same allocation).
fn same_text(a: &Arc<String>, b: &Arc<String>) -> bool {
    Arc::ptr_eq(a, b) || crate::text::scan::same_bytes(a.as_bytes(), b.as_bytes())
}

/// A file the call would unbalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regression {
    /// Where the final text goes (the destination of a move).
    pub path: String,
    pub unmatched: Unmatched,
}

/// Refuses the call with `unbalanced_edit` when it unbalances a balanced file;
/// `allow` (the caller's `allow_unbalanced`) turns the check off.
pub fn check(changes: &[Changed], allow: bool, cache: &mut Cache) -> EditResult<()> {
    if allow {
        return Ok(());
    }
    let found: Vec<Regression> = changes
        .iter()
        .filter_map(|c| regression(c, cache))
        .collect();
    match found.is_empty() {
        true => Ok(()),
        false => Err(refusal(&found)),
    }
}

/// The regression one changed file would suffer, if any; keeps the states it lexed.
pub fn regression(change: &Changed, cache: &mut Cache) -> Option<Regression> {
    let original = change.original.as_ref()?;
    let current = change.current.as_ref()?;
    let path = change.moved_to.as_deref().unwrap_or(&change.path);
    let lang = Lang::from_path(path)?;
    if Lang::from_path(&change.path) != Some(lang) {
        return None;
    }
    if cache.off {
        // Nothing is kept for a next edit (a session of one call: the CLI): the final
        // text alone is lexed, untraced where that is cheaper, and the original only
        // when the final text is unbalanced.
        if let Some(balanced) = balanced_untraced(current, lang) {
            if balanced {
                return None;
            }
            let unmatched = regression_between(original, current, path)?;
            return Some(Regression {
                path: path.to_string(),
                unmatched,
            });
        }
    }
    let before = cache.get(&change.path, original).unwrap_or_else(|| {
        let state = traced(original, lang);
        cache.put(&change.path, original, state.clone());
        state
    });
    // The call's recorded ranges give the changed stretch (no compare of the texts whole).
    let derived = retraced_by(&before, original, current, change.change.as_ref(), lang);
    if !before.balanced {
        // Nothing to refuse. A text derived as still unbalanced keeps its state for the
        // next edit (else that edit lexes it whole); one that may be balanced is lexed
        // whole when an edit meets it.
        if let Some(after) = derived {
            cache.put(path, current, after);
        }
        return None;
    }
    let after = derived.unwrap_or_else(|| traced(current, lang));
    let balanced = after.balanced;
    cache.put(path, current, after);
    if balanced {
        return None;
    }
    match balance(current, path) {
        Balance::Unbalanced(unmatched) => Some(Regression {
            path: path.to_string(),
            unmatched,
        }),
        _ => {
            // The re-lexing said unbalanced where the whole lex does not: the state kept
            // for the next edit is the whole lex's, or that edit would go unchecked.
            cache.put(path, current, traced(current, lang));
            None
        }
    }
}

/// Where `after` is unbalanced when `before` (the same file, `path`) was balanced.
pub fn regression_between(before: &str, after: &str, path: &str) -> Option<Unmatched> {
    let Balance::Unbalanced(unmatched) = balance(after, path) else {
        return None;
    };
    (balance(before, path) == Balance::Balanced).then_some(unmatched)
}

/// The `unbalanced_edit` refusal.
pub fn refusal(found: &[Regression]) -> EditError {
    let what: Vec<String> = found
        .iter()
        .map(|r| format!("{}: {}", r.path, r.unmatched.reason))
        .collect();
    EditError::new(
        ErrorKind::UnbalancedEdit,
        format!(
            "This edit would unbalance {} (balanced before the edit). Nothing was changed. Send the edit with every opener it adds closed and every closer it adds opened (one multi_replace or apply_patch call may open in one place and close in another); if the file is meant to stay unbalanced for now, send the same call with allow_unbalanced: true.",
            what.join("; ")
        ),
    )
    .with_diagnostics(json!({
        "unbalanced": found.iter().map(|r| json!({
            "path": r.path,
            "line": r.unmatched.line,
            "token": r.unmatched.token,
            "reason": r.unmatched.reason,
        })).collect::<Vec<_>>()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (path, before, after, refused)
    const CASES: &[(&str, &str, &str, bool)] = &[
        ("a.rs", "fn f() {\n}\n", "fn f() {\n", true),
        ("a.rs", "fn f() {\n", "fn f() {\n    g();\n", false), // already unbalanced
        ("a.rs", "fn f() {\n}\n", "fn f() {\n    g();\n}\n", false),
        ("a.txt", "(\n)\n", "(\n", false), // unknown language
        ("a.py", "def f():\n    pass\n", "def f():\npass\n", true),
        ("a.js", "const a = `x`;\n", "const a = `x;\n", true),
    ];

    #[test]
    fn a_balanced_file_made_unbalanced_is_a_regression_and_nothing_else_is() {
        for (path, before, after, refused) in CASES {
            assert_eq!(
                regression_between(before, after, path).is_some(),
                *refused,
                "{path}: {before:?} -> {after:?}"
            );
        }
    }

    /// A session that keeps no states (the CLI) answers as one that keeps them.
    #[test]
    fn keeping_states_or_not_gives_the_same_answers() {
        for (path, before, after, refused) in CASES {
            for off in [false, true] {
                let mut cache = Cache::default();
                cache.set_off(off);
                let change = Changed {
                    path: path.to_string(),
                    original: Some(Arc::new(before.to_string())),
                    current: Some(Arc::new(after.to_string())),
                    moved_to: None,
                    encoding: None,
                    change: None,
                };
                let found = regression(&change, &mut cache);
                assert_eq!(found.is_some(), *refused, "{path} off={off}: {after:?}");
            }
        }
    }

    /// A host that edits one kept text call after call (each result a new allocation
    /// with the same bytes) keeps that text's state: it is met again each call and not
    /// lexed again; a path keeps at most PATH_TEXTS texts.
    #[test]
    fn a_text_edited_again_and_again_keeps_its_state() {
        let mut cache = Cache::default();
        let original = Arc::new("fn f() {\n    g(1);\n}\n".repeat(50));
        for _ in 0..3 * PATH_TEXTS {
            let current = Arc::new(original.replacen("g(1)", "g(2)", 1));
            let change = Changed {
                path: "a.rs".into(),
                original: Some(original.clone()),
                current: Some(current),
                moved_to: None,
                encoding: None,
                change: None,
            };
            assert!(regression(&change, &mut cache).is_none());
            let kept = |t: &Arc<String>| cache.entries.iter().any(|(_, k, _)| Arc::ptr_eq(k, t));
            assert!(kept(&original), "the original's state was dropped");
            assert!(cache.entries.len() <= PATH_TEXTS, "{}", cache.entries.len());
        }
    }

    /// An unbalanced text edited again and again (each result the next call's original,
    /// as a server or an editor hands it back) keeps a state derived from the one
    /// before: nothing is lexed whole after the first call. The edit that balances it
    /// keeps nothing (the next edit lexes it whole), and the edit after that is checked.
    #[test]
    fn an_unbalanced_text_edited_again_and_again_keeps_a_derived_state() {
        let mut cache = Cache::default();
        let body = "fn f() {\n    g(1);\n}\n".repeat(200);
        let mut text = Arc::new(format!("{body}fn open() {{\n"));
        let edit = |cache: &mut Cache, from: &Arc<String>, to: String| {
            let to = Arc::new(to);
            let change = Changed {
                path: "a.rs".into(),
                original: Some(from.clone()),
                current: Some(to.clone()),
                moved_to: None,
                encoding: None,
                change: None,
            };
            (regression(&change, cache), to)
        };
        for k in 0..3 * PATH_TEXTS {
            let next = text.replacen("g(1)", &format!("g({k})"), 1);
            let (found, next) = edit(&mut cache, &text, next);
            assert!(found.is_none(), "an unbalanced original is never refused");
            let state = cache.entries.iter().find(|(_, t, _)| Arc::ptr_eq(t, &next));
            assert!(
                state.is_some_and(|(_, _, s)| !s.balanced),
                "edit {k}: the result's derived state is kept"
            );
            text = next;
        }
        let (found, balanced) = edit(&mut cache, &text, body.clone());
        assert!(found.is_none());
        assert!(
            !cache
                .entries
                .iter()
                .any(|(_, t, _)| Arc::ptr_eq(t, &balanced)),
            "a text that may be balanced keeps no derived state"
        );
        let (found, _) = edit(&mut cache, &balanced, body.replacen("}\n", "\n", 1));
        assert!(found.is_some(), "the balanced text's next edit is checked");
    }

    #[test]
    fn the_refusal_names_the_place_and_the_override() {
        let u = regression_between("fn f() {\n}\n", "fn f() {\n  g();\n", "src/a.rs").unwrap();
        let e = refusal(&[Regression {
            path: "src/a.rs".into(),
            unmatched: u,
        }]);
        assert_eq!(e.kind, ErrorKind::UnbalancedEdit);
        for part in ["src/a.rs", "`{` at line 1", "allow_unbalanced: true"] {
            assert!(e.message.contains(part), "{part} in {}", e.message);
        }
    }
}
