//! Balance of a text derived from another by an edit, re-lexing only what changed.
//!
//! [`traced`] lexes a text whole and keeps its [`Traced`] state (per-line lexer
//! checkpoints, resumable snapshots, and in Python what the indentation rule reads of
//! every line). [`retraced`] answers for a text derived from a balanced one: it resumes
//! the lexer at the last snapshot before the first changed byte (with code between the
//! two, so no earlier look-ahead read the changed bytes), lexes until the first line
//! after the change where the lexer's state equals the original's at the same place,
//! and takes the rest from the original: same bytes from the same state lex alike. So
//! the cost is the changed stretch plus at most a snapshot interval, whatever the
//! file's size, unless the edit changes the state for the rest of the file (an opened
//! string), and then the file is lexed to its end. The result carries the new text's
//! own state, spliced, so that the next edit is re-lexed the same way.
//!
//! An edit of an unbalanced text is derived too, by counting lexer issues: each
//! checkpoint carries the issues met before it, so the edited text's count is the
//! original's before the restart, the window's, and the original's after the seam. A
//! count of zero is not trusted (None: the text is lexed whole), so a derived state of
//! an unbalanced original only ever says "unbalanced".
//!
//! Only the answer "balanced or not" comes from here: a caller that gets "not" lexes
//! the text whole ([`super::balance`]) to name the place, so a refusal never rests on
//! this path alone. PHP (whose first `<?` decides how the whole file is read) is
//! always lexed whole.

use super::super::indent::{
    indentation_error, indentation_ok_from, line_info, line_info_lexed, LineInfo,
};
use super::super::lex::pieces::{Pieces, Shift};
use super::super::lex::trace::{lex_traced, relex, Snapshot, SyncTarget, Trace, Window};
use super::super::{Analysis, Lang};
use crate::text::change_set::ChangeSet;
use crate::text::scan::{common_prefix_len, common_suffix_len};
use crate::text::Text;
use std::sync::Arc;

/// A text's balance, with what re-checking a text derived from it needs.
#[derive(Clone, Debug)]
pub struct Traced {
    pub balanced: bool,
    /// The issues the lexer met in the text (unclosed, stray, unterminated…).
    issues: u32,
    trace: Arc<Trace>,
    /// Python: every line as the indentation rule reads it.
    lines: Option<Arc<Pieces<LineInfo>>>,
}

/// Lexes `src` whole by `lang`'s rules and keeps its state.
pub fn traced(src: &str, lang: Lang) -> Traced {
    let (lexed, trace) = lex_traced(src, &lang.syntax());
    let text = Text::new(src);
    let a = Analysis::from_lexed(&text, lang, true, lexed);
    // What `balance_of` answers. Python's lines are read (from the checkpoints) only
    // when the lexer had no issue: a text with one is unbalanced, and the lines of an
    // unbalanced text are never read (an edit of it is derived from its issue counts
    // alone: `retraced`).
    let clean = a.issues().is_empty();
    let issues = u32::try_from(a.issues().len()).unwrap_or(u32::MAX);
    let lines = (lang == Lang::Python && clean).then(|| {
        let starts = trace.checkpoints.iter().map(|c| (c.pos as usize, c.depth));
        line_info_lexed(&a, starts)
    });
    let balanced = clean
        && lines
            .as_ref()
            .is_none_or(|l| indentation_error(l).is_none());
    let lines = lines.map(|l| Arc::new(Pieces::from(l)));
    Traced {
        balanced,
        issues,
        trace: Arc::new(trace),
        lines,
    }
}

/// Where two texts differ: the common prefix's length and the end of the changed
/// stretch in each (the common suffix never overlaps the prefix).
fn changed_stretch(before: &[u8], after: &[u8]) -> (usize, usize, usize) {
    // `text::scan`'s vector compares: slices' `==` is a byte loop in wasm.
    let p = common_prefix_len(before, after);
    let s = common_suffix_len(&before[p..], &after[p..]);
    (p, before.len() - s, after.len() - s)
}

/// The stretch `change` (the ranges of `before` that give `after`) covers: the start
/// of its first range and the end of its last, in each text; None when it is not a
/// change of `before` into a text of `after`'s length (then the texts are compared).
/// Bytes outside it are equal in both texts, so it may only be wider than
/// [`changed_stretch`]'s, which re-lexes a little more and answers alike.
fn recorded_stretch(
    change: &ChangeSet,
    before: &[u8],
    after: &[u8],
) -> Option<(usize, usize, usize)> {
    if change.old_len() != before.len() || change.new_len() != after.len() {
        return None;
    }
    let splices = change.splices();
    let (Some(first), Some(last)) = (splices.first(), splices.last()) else {
        return Some((before.len(), before.len(), after.len()));
    };
    let before_end = last.0.end;
    let after_end = (before_end + after.len()).checked_sub(before.len())?;
    Some((first.0.start, before_end, after_end))
}

/// The last snapshot at or before `p` with code between it and `p` (or at the file's
/// start), clean where `clean` is asked.
fn restart(before: &Traced, src: &[u8], p: usize, clean: bool) -> Option<Snapshot> {
    let snaps = &before.trace.snapshots;
    let k = snaps.partition_point(|s| s.pos as usize <= p);
    (0..k).rev().map(|i| snaps.get(i)).find(|s| {
        let pos = s.pos as usize;
        let code_between = pos == 0 || src[pos..p].iter().any(|c| !c.is_ascii_whitespace());
        let ok_clean = !clean || before.trace.at(pos).is_some_and(|c| c.clean);
        code_between && ok_clean
    })
}

/// The balance of `after`, derived from `before_src` (whose state `before` is), and its
/// own state; None when it cannot be derived (the caller then uses [`traced`]).
///
/// From a balanced text the answer is derived either way. From an unbalanced one only
/// "still unbalanced" is: its lexer issues are counted (those met before the restart,
/// the window's, and those met after the seam, which lex alike), and when none are
/// left the text is lexed whole (so a text read as balanced never rests on a count).
/// A Python text unbalanced by its indentation alone (no lexer issue) is not derived.
pub fn retraced(before: &Traced, before_src: &str, after_src: &str, lang: Lang) -> Option<Traced> {
    retraced_by(before, before_src, after_src, None, lang)
}

/// [`retraced`], with the ranges that turned `before_src` into `after_src` when the
/// caller recorded them (`change`): the changed stretch is then read from them instead
/// of found by comparing the two texts whole.
pub fn retraced_by(
    before: &Traced,
    before_src: &str,
    after_src: &str,
    change: Option<&ChangeSet>,
    lang: Lang,
) -> Option<Traced> {
    if lang == Lang::Php || (!before.balanced && before.issues == 0) {
        return None;
    }
    let (b, a) = (before_src.as_bytes(), after_src.as_bytes());
    let (p, before_end, after_end) = change
        .and_then(|c| recorded_stretch(c, b, a))
        .unwrap_or_else(|| changed_stretch(b, a));
    let python = lang == Lang::Python;
    let snap = restart(before, b, p, python)?;
    let issues_before = before.trace.at(snap.pos as usize)?.issues;
    let mut shift = Shift {
        bytes: a.len() as i64 - b.len() as i64,
        lines: newlines(&a[p..after_end]) as i64 - newlines(&b[p..before_end]) as i64,
        issues: 0,
    };
    let target = SyncTarget {
        from: after_end,
        delta: shift.bytes as isize,
        before: before.trace.clone(),
        clean: python,
        issues_before,
    };
    let w = relex(after_src, &lang.syntax(), &snap, target);
    let met = i64::from(issues_before) + w.issues.len() as i64;
    let issues = match w.synced_at {
        // Met after the seam in the original: the same, moved by the difference.
        Some(at) => {
            let seam = before.trace.at((at as i64 - shift.bytes) as usize)?.issues;
            shift.issues = met - i64::from(seam);
            met + i64::from(before.issues) - i64::from(seam)
        }
        None => met,
    };
    let issues = u32::try_from(issues).ok()?;
    if !before.balanced && issues == 0 {
        return None;
    }
    let mut balanced = issues == 0;
    let lines = match (&before.lines, balanced) {
        (Some(lines), true) => {
            let (spliced, same_from) = splice_lines(lines, after_src, &snap, &w, shift);
            balanced = indentation_ok_from(&spliced, snap.line as usize, same_from);
            Some(Arc::new(spliced))
        }
        // An unbalanced text's lines are never read (its edits are not derived from
        // them), and a text derived from one has none (see `traced`).
        _ => None,
    };
    let trace = splice_trace(&before.trace, &snap, w, shift);
    Some(Traced {
        balanced,
        issues,
        trace: Arc::new(trace),
        lines,
    })
}

fn newlines(s: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', s).count()
}

/// The after text's checkpoints and snapshots: the original's up to the restart, the
/// window's, and the original's after the point in step, moved by `shift` (shared, not
/// copied: see `Pieces`).
fn splice_trace(before: &Trace, snap: &Snapshot, w: Window, shift: Shift) -> Trace {
    let restart = snap.pos;
    let seam = w.synced_at.map(|at| (at as i64 - shift.bytes) as u32);
    let keep_c = before.checkpoints.partition_point(|c| c.pos <= restart);
    let new_c = w
        .trace
        .checkpoints
        .into_vec()
        .into_iter()
        .filter(|c| c.pos > restart)
        .collect();
    let rest_c = seam.map(|seam| (before.checkpoints.partition_point(|c| c.pos <= seam), shift));
    let keep_s = before.snapshots.partition_point(|s| s.pos <= restart);
    let new_s = w
        .trace
        .snapshots
        .into_vec()
        .into_iter()
        .filter(|s| s.pos > restart)
        .collect();
    let rest_s = seam.map(|seam| (before.snapshots.partition_point(|s| s.pos <= seam), shift));
    Trace {
        checkpoints: before.checkpoints.spliced(keep_c, new_c, rest_c),
        snapshots: before.snapshots.spliced(keep_s, new_s, rest_s),
    }
}

/// The after text's Python lines: the original's before the restart line, the
/// window's (read from the window alone: the restart is a clean logical-line start),
/// and the original's from the seam on; with the first line taken from the original
/// (None: none is).
fn splice_lines(
    lines: &Pieces<LineInfo>,
    after_src: &str,
    snap: &Snapshot,
    w: &Window,
    shift: Shift,
) -> (Pieces<LineInfo>, Option<usize>) {
    let restart = snap.pos as usize;
    let first = snap.line as usize;
    let end = w.synced_at.unwrap_or(after_src.len());
    let window_src = &after_src[restart..end];
    let text = Text::new(window_src);
    let a = Analysis::with_lang(&text, Lang::Python, true);
    let mut window = line_info(&a);
    match w.synced_at {
        Some(_) => {
            let window_lines = newlines(window_src.as_bytes());
            window.truncate(window_lines);
            let seam_after = first + window_lines;
            let seam_before = (seam_after as i64 - shift.lines) as usize;
            let spliced = lines.spliced(first, window, Some((seam_before, Shift::default())));
            (spliced, Some(seam_after))
        }
        None => (lines.spliced(first, window, None), None),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Balance;
    use super::*;
    use proptest::prelude::*;

    /// Balanced sources, one per language, each long enough to hold several snapshots.
    fn seeds() -> Vec<(&'static str, String)> {
        let rep = |s: &str, n: usize| s.repeat(n);
        vec![
            ("a.rs", rep("fn f<'a>(x: &'a str) -> u32 {\n    let s = \"}\n{\";\n    let r = r#\"(\"#; // }\n    /* { /* } */ */\n    if x.len() > 1 {\n        return 1;\n    }\n    0\n}\n\n", 12)),
            ("a.js", rep("export function f(x) {\n  const t = `a ${x + `b ${x}`} c`;\n  const r = /[(]/g;\n  if (x) {\n    return x / 2; // )\n  }\n  return (\n    <p>{'}'}</p>\n  );\n}\n", 12)),
            ("a.ts", rep("class A<T extends { a: number }> {\n  m(x: T): string {\n    return `${x.a}`;\n  }\n}\n", 20)),
            ("a.py", rep("class A:\n    def f(self, a,\n          b):\n        s = '''\n  }\n'''\n        if a:\n            return [1,\n                2]\n        return b  # :\n\n\ndef g():\n    pass\n", 12)),
            ("a.go", rep("func f() rune {\n\tr := '}'\n\ts := `}\n{`\n\treturn r\n}\n", 20)),
            ("a.css", rep("a { color: red; /* } */ }\nb {\n  content: \"}\";\n}\n", 25)),
            ("a.json", format!("[\n{}  {{\"a\": \"}}\"}}\n]\n", rep("  {\"a\": [1, 2, \"]\"]},\n", 60))),
            ("a.yaml", rep("key: 'it''s'\nlist: [a, b]\nblock: |\n  {(\nother: \"x\"\n", 20)),
        ]
    }

    const ALPHABET: &[&str] = &[
        "{", "}", "(", ")", "[", "]", "\"", "'", "`", "/", "*", "\n", "#", ":", " ", "    ", "x",
        "${", "<p>", "</p>", "\\", "'''", "//", "/*", "*/", "\n    ", "\n\n",
    ];

    fn edit(src: &str, at: usize, len: usize, pieces: &[usize]) -> String {
        let mut at = at % (src.len() + 1);
        while !src.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + len).min(src.len());
        while !src.is_char_boundary(end) {
            end -= 1;
        }
        let new: String = pieces
            .iter()
            .map(|k| ALPHABET[k % ALPHABET.len()])
            .collect();
        format!("{}{}{}", &src[..at], new, &src[end..])
    }

    #[test]
    fn an_edit_in_the_middle_is_relexed_from_near_it_and_in_step_soon_after() {
        for (path, src) in seeds() {
            let lang = Lang::from_path(path).unwrap();
            let state = traced(&src, lang);
            assert!(state.balanced, "{path}");
            let mid = src[src.len() / 2..].find('\n').unwrap() + src.len() / 2 + 1;
            let next = format!("{}{}{}", &src[..mid], "\n", &src[mid..]);
            let b = src.as_bytes();
            let (p, _, after_end) = changed_stretch(b, next.as_bytes());
            let snap = restart(&state, b, p, lang == Lang::Python).unwrap();
            let target = SyncTarget {
                from: after_end,
                delta: 1,
                before: state.trace.clone(),
                clean: lang == Lang::Python,
                issues_before: 0,
            };
            let w = relex(&next, &lang.syntax(), &snap, target);
            let synced = w
                .synced_at
                .unwrap_or_else(|| panic!("{path}: never in step"));
            assert!(
                synced - (snap.pos as usize) < 2000,
                "{path}: relexed {} bytes",
                synced - snap.pos as usize
            );
            assert!(
                retraced(&state, &src, &next, lang).unwrap().balanced,
                "{path}"
            );
        }
    }

    fn all(t: &Traced) -> Vec<super::super::super::lex::trace::Checkpoint> {
        t.trace.checkpoints.iter().collect()
    }

    /// The change from `text` to `next` as one range widened to whole lines of both.
    fn by_lines(text: &str, next: &str) -> ChangeSet {
        let tight = ChangeSet::between(text, next);
        let Some((r, _)) = tight.splices().first() else {
            return tight;
        };
        let head = text[..r.start].rfind('\n').map_or(0, |k| k + 1);
        let tail = text.len() - r.end;
        let tail = text[r.end..].find('\n').map_or(0, |k| tail - k);
        let (end, new_end) = (text.len() - tail, next.len() - tail);
        let splices = vec![(head..end, next[head..new_end].to_string())];
        ChangeSet::from_splices(text, splices).expect("lines of the texts")
    }

    /// Checks that re-lexing `next` from `state` (of `text`) agrees with a whole lex;
    /// returns the state to go on from.
    fn agree(state: &Traced, text: &str, next: &str, path: &str) -> Result<Traced, TestCaseError> {
        let lang = Lang::from_path(path).unwrap();
        let whole = traced(next, lang);
        prop_assert_eq!(
            whole.balanced,
            super::super::balance(next, path) == Balance::Balanced
        );
        let Some(derived) = retraced(state, text, next, lang) else {
            return Ok(whole);
        };
        prop_assert_eq!(derived.balanced, whole.balanced, "{}: {:?}", path, next);
        // The same from a recorded change, as tight as the comparison finds and widened
        // to whole lines on both sides.
        for change in [ChangeSet::between(text, next), by_lines(text, next)] {
            let by = retraced_by(state, text, next, Some(&change), lang);
            let by = by.expect("derived from a recorded change as from the texts");
            prop_assert_eq!(
                by.balanced,
                whole.balanced,
                "{}: {:?} by {:?}",
                path,
                next,
                change
            );
            prop_assert_eq!(
                all(&by),
                all(&whole),
                "{}: {:?} by {:?}",
                path,
                next,
                change
            );
        }
        prop_assert_eq!(all(&derived), all(&whole), "{}: {:?}", path, next);
        // Snapshots may fall on other lines than a whole lex's; each must still be a
        // state of this text at its line start.
        for s in derived.trace.snapshots.iter() {
            let cp = whole.trace.at(s.pos as usize);
            prop_assert!(
                cp.is_some_and(|c| c.depth as usize == s.kinds.len() && c.expr == s.expr),
                "{}: snapshot at {}",
                path,
                s.pos
            );
            prop_assert_eq!(
                s.line as usize,
                newlines(&next.as_bytes()[..s.pos as usize]),
                "{}: line of the snapshot at {}",
                path,
                s.pos
            );
        }
        // (Lines of an unbalanced text are never read, and not kept whole.)
        if whole.balanced {
            let lines = |t: &Traced| t.lines.as_ref().map(|l| l.iter().collect::<Vec<_>>());
            prop_assert_eq!(lines(&derived), lines(&whole), "{}: {:?}", path, next);
        }
        Ok(derived)
    }

    /// An edit that keeps any balanced text balanced: a line break or a comment line
    /// inserted at a line start, or an empty line removed.
    fn keeping_edit(src: &str, path: &str, at: usize, kind: usize) -> String {
        let at = at % (src.len() + 1);
        let line = src[..at].rfind('\n').map_or(0, |k| k + 1);
        // (A YAML comment at column 0 would end a block scalar: a line break instead.)
        let comment = match path.rsplit('.').next() {
            Some("py") => "# c\n",
            Some("yaml") => "\n",
            Some("css") => "/* c */\n",
            _ => "// c\n",
        };
        match kind % 3 {
            0 => format!("{}\n{}", &src[..line], &src[line..]),
            1 => format!("{}{}{}", &src[..line], comment, &src[line..]),
            _ if src[line..].starts_with('\n') => format!("{}{}", &src[..line], &src[line + 1..]),
            _ => src.to_string(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Re-lexing from the edit gives the answer and the state a whole lex gives,
        /// twice in a row (the second from spliced state).
        #[test]
        fn relexing_an_edit_agrees_with_lexing_the_whole_text(
            seed in 0usize..8,
            edits in proptest::collection::vec((0usize..5000, 0usize..12, proptest::collection::vec(0usize..64, 0..4)), 1..3),
        ) {
            let (path, src) = seeds().swap_remove(seed);
            let lang = Lang::from_path(path).unwrap();
            let mut text = src;
            let mut state = traced(&text, lang);
            prop_assert!(state.balanced, "{path} seed is balanced");
            for (at, len, pieces) in edits {
                let next = edit(&text, at, len, &pieces);
                state = agree(&state, &text, &next, path)?;
                text = next;
            }
        }

        /// The same from unbalanced texts (each seed cut short, so that a string, a
        /// comment or brackets stay open, or cut nowhere): edits of them are derived
        /// while they stay unbalanced, with the issues counted per line as a whole
        /// lex counts them.
        #[test]
        fn relexing_an_edit_of_an_unbalanced_text_agrees_with_lexing_the_whole_text(
            seed in 0usize..8,
            cut in 0usize..6000,
            edits in proptest::collection::vec((0usize..5000, 0usize..12, proptest::collection::vec(0usize..64, 0..4)), 1..5),
        ) {
            let (path, src) = seeds().swap_remove(seed);
            let lang = Lang::from_path(path).unwrap();
            let mut cut = cut.min(src.len());
            while !src.is_char_boundary(cut) {
                cut -= 1;
            }
            let mut text = src[..cut].to_string();
            let mut state = traced(&text, lang);
            for (at, len, pieces) in edits {
                let next = edit(&text, at, len, &pieces);
                state = agree(&state, &text, &next, path)?;
                text = next;
            }
        }

        /// The same over long runs of edits that keep the text balanced, each from the
        /// state the one before spliced (many splices of the shared pieces, Python's
        /// indentation re-read from spliced lines).
        #[test]
        fn many_edits_in_a_row_agree_with_lexing_the_whole_text(
            seed in 0usize..8,
            edits in proptest::collection::vec((0usize..5000, 0usize..3), 1..60),
        ) {
            let (path, src) = seeds().swap_remove(seed);
            let mut text = src;
            let mut state = traced(&text, Lang::from_path(path).unwrap());
            for (at, kind) in edits {
                let next = keeping_edit(&text, path, at, kind);
                state = agree(&state, &text, &next, path)?;
                prop_assert!(state.balanced, "{}: {:?}", path, next);
                text = next;
            }
        }
    }
}
