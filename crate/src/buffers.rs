//! Kept buffers: texts a long-lived host hands the engine once and then only changes.
//!
//! A host that runs the engine in another memory (wasm) pays a copy of the whole file
//! into that memory on every call when it reads through its reader. A host may instead
//! open a buffer (`open`: the text, once), send the changes it applies to it (`edit`:
//! the same shape as a result's `edits`), and close it. Calls read kept texts before
//! the host's reader ([`Buffers::over`]), shared, without a copy; every other path
//! still goes to the reader, which stays the fallback (a host that keeps nothing sees
//! no difference).
//!
//! Invariants: keys are the paths the engine reads (normalised, root-relative; the
//! bindings resolve what the host sends as a tool's path argument would be); a kept
//! text is exactly what the host said the buffer holds. The engine never changes a
//! kept text by itself, not even after an edit it made: the host may reject or
//! transform an edit, so only the host says what its buffer holds now.
//!
//! A host that applied a call's edits forwards them (`edit`). The session already made
//! that text: [`Buffers::expect`] notes, for a kept text a call changed, the call's
//! edits and new text, and a forward of exactly those edits onto exactly that kept text
//! (the same allocation) takes the call's new text instead of splicing: the kept text
//! is still exactly what the host said, and no copy of the file is made (the version
//! store and the undo history hold the text before, so splicing it would copy the whole
//! file first). Any other forward splices.

use crate::error::EditResult;
use crate::result::{Edit, ToolResult};
use crate::text::Point;
use crate::workspace::{Changed, Content, Files};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The kept texts of one session.
#[derive(Default)]
pub struct Buffers {
    texts: BTreeMap<String, Arc<String>>,
    /// By path: what the last call made of that kept text ([`Buffers::expect`]).
    expected: BTreeMap<String, Expected>,
}

/// A call's change to a kept text, as the host will forward it once applied.
struct Expected {
    /// The kept text the call read (the same allocation).
    before: Arc<String>,
    /// The call's edits of that text (a result's `edits`).
    edits: Vec<Edit>,
    /// The text those edits give, made by the call.
    after: Arc<String>,
}

impl Buffers {
    /// Keeps `text` as the content of `path`, replacing what was kept.
    pub fn open(&mut self, path: String, text: String) {
        self.expected.remove(&path);
        self.texts.insert(path, Arc::new(text));
    }

    /// Notes that a call turned the kept text `before` of `path` (the same allocation,
    /// else nothing is noted) into `after` with `edits`: a later [`Buffers::edit`] of
    /// exactly these edits onto that text keeps `after` itself. Returns whether it was
    /// noted.
    pub fn expect(
        &mut self,
        path: &str,
        before: &Arc<String>,
        edits: &[Edit],
        after: &Arc<String>,
    ) -> bool {
        let kept = self.texts.get(path).is_some_and(|t| Arc::ptr_eq(t, before));
        if kept {
            let expected = Expected {
                before: Arc::clone(before),
                edits: edits.to_vec(),
                after: Arc::clone(after),
            };
            self.expected.insert(path.to_string(), expected);
        } else {
            self.expected.remove(path);
        }
        kept
    }

    /// [`Buffers::expect`] for each kept text a call changed where it is: `result` is the
    /// call's result, `applied` the files the session recorded for it
    /// (the session's `last_applied`; empty after a dry run or a refusal).
    pub fn expect_call(&mut self, result: &ToolResult, applied: &[Changed]) {
        let files = result.files.iter().flatten();
        for f in files.filter(|f| !f.deleted && f.moved_to.is_none()) {
            let made = applied
                .iter()
                .find(|c| c.path == f.path && c.moved_to.is_none());
            if let Some((Some(before), Some(after))) = made.map(|c| (&c.original, &c.current)) {
                self.expect(&f.path, before, &f.edits, after);
            }
        }
    }

    /// Applies `edits` to the kept text of `path`, with the meaning of a result's
    /// `edits` ([`crate::result::apply_edits`]): ranges in the text before, UTF-16
    /// columns, sorted and not overlapping. False (nothing kept changes) when `path` is
    /// not kept or the edits are not in order.
    pub fn edit(&mut self, path: &str, edits: &[Edit]) -> bool {
        let expected = self.expected.remove(path);
        let Some(text) = self.texts.get_mut(path) else {
            return false;
        };
        if let Some(x) = expected.filter(|x| Arc::ptr_eq(text, &x.before) && x.edits == edits) {
            // The edits the call made, onto the text it read: its new text, shared.
            *text = x.after;
            return true;
        }
        let Some(spans) = byte_spans(text, edits) else {
            return false;
        };
        // In place when no call holds the text (the usual case): no copy of the file.
        let text = Arc::make_mut(text);
        for (range, e) in spans.iter().zip(edits).rev() {
            text.replace_range(range.clone(), &e.text);
        }
        true
    }

    /// Forgets `path`; false when it was not kept.
    pub fn close(&mut self, path: &str) -> bool {
        self.expected.remove(path);
        self.texts.remove(path).is_some()
    }

    /// The kept text of `path`.
    pub fn get(&self, path: &str) -> Option<&Arc<String>> {
        self.texts.get(path)
    }

    /// Files that are the kept texts first, then `fallback`.
    pub fn over<'a>(&'a self, fallback: &'a dyn Files) -> Layered<'a> {
        Layered {
            kept: self,
            fallback,
        }
    }
}

/// The byte ranges of `edits` in `text`, found in one forward pass (no line index);
/// None when the edits go backwards or overlap.
fn byte_spans(text: &str, edits: &[Edit]) -> Option<Vec<std::ops::Range<usize>>> {
    let mut cursor = Cursor {
        text,
        row: 0,
        at: 0,
    };
    let mut out: Vec<std::ops::Range<usize>> = Vec::with_capacity(edits.len());
    for e in edits {
        let start = cursor.offset(e.range.start)?;
        let end = cursor.offset(e.range.end)?;
        if end < start || out.last().is_some_and(|r| start < r.end) {
            return None;
        }
        out.push(start..end);
    }
    Some(out)
}

/// Byte offsets of points of non-decreasing rows.
struct Cursor<'a> {
    text: &'a str,
    /// The row whose line starts at byte `at`.
    row: usize,
    at: usize,
}

impl Cursor<'_> {
    /// The byte offset of `p`, clamped to its line's end (and to the text's end past the
    /// last line), as `apply_edits` reads it; None when `p` is on a row before the last.
    fn offset(&mut self, p: Point) -> Option<usize> {
        let bytes = self.text.as_bytes();
        if p.row < self.row {
            return None;
        }
        if self.row < p.row {
            // Newlines counted a block at a time (an edit in the middle of 100 000 lines
            // was 50 000 `memchr` calls); past the last line: the text's end.
            self.at += crate::text::scan::line_start(&bytes[self.at..], p.row - self.row);
            self.row = p.row;
        }
        let mut units = 0;
        for (i, c) in self.text[self.at..].char_indices() {
            if units >= p.column || c == '\n' {
                return Some(self.at + i);
            }
            units += c.len_utf16();
        }
        Some(bytes.len())
    }
}

/// [`Files`] reading kept texts first ([`Buffers::over`]).
pub struct Layered<'a> {
    kept: &'a Buffers,
    fallback: &'a dyn Files,
}

impl Files for Layered<'_> {
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        match self.kept.get(path) {
            Some(text) => Ok(Some(text.as_ref().clone())),
            None => self.fallback.read(path),
        }
    }

    fn read_shared(&self, path: &str) -> EditResult<Option<Arc<String>>> {
        match self.kept.get(path) {
            Some(text) => Ok(Some(Arc::clone(text))),
            None => self.fallback.read_shared(path),
        }
    }

    fn identity(&self, path: &str) -> EditResult<Option<String>> {
        self.fallback.identity(path)
    }

    fn read_content(&self, path: &str) -> EditResult<Option<Content>> {
        match self.kept.get(path) {
            Some(text) => Ok(Some(Content::Text(Arc::clone(text)))),
            None => self.fallback.read_content(path),
        }
    }

    fn read_for_search(&self, path: &str) -> EditResult<Option<Content>> {
        match self.kept.get(path) {
            Some(text) => Ok(Some(Content::Text(Arc::clone(text)))),
            None => self.fallback.read_for_search(path),
        }
    }

    /// The host's listing: which files exist is the host's to say (a kept text is read
    /// when the listing names its path).
    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        self.fallback.list(folder)
    }

    fn take_list_warnings(&self) -> Vec<String> {
        self.fallback.take_list_warnings()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::{apply_edits, Range};

    fn edit(a: (usize, usize), b: (usize, usize), text: &str) -> Edit {
        let p = |(row, column)| Point { row, column };
        Edit {
            range: Range {
                start: p(a),
                end: p(b),
            },
            text: text.to_string(),
        }
    }

    #[test]
    fn edits_mean_what_a_results_edits_mean() {
        let old = "fn a() {\n    «x» = 1;\n}\r\nlast";
        let cases: Vec<Vec<Edit>> = vec![
            vec![edit((0, 3), (0, 4), "b")],
            vec![edit((1, 4), (1, 7), "y"), edit((2, 0), (2, 1), "};")],
            vec![edit((0, 0), (0, 0), "// top\n"), edit((3, 4), (3, 4), "\n")],
            vec![edit((1, 99), (2, 0), ""), edit((9, 0), (9, 0), "tail")],
            vec![edit((0, 0), (3, 4), "")],
        ];
        for edits in cases {
            let mut kept = Buffers::default();
            kept.open("a.rs".into(), old.into());
            assert!(kept.edit("a.rs", &edits), "{edits:?}");
            assert_eq!(kept.get("a.rs").unwrap().as_str(), apply_edits(old, &edits));
        }
    }

    #[test]
    fn edits_out_of_order_change_nothing() {
        let mut kept = Buffers::default();
        kept.open("a".into(), "one\ntwo\n".into());
        let backwards = [edit((1, 0), (1, 1), "T"), edit((0, 0), (0, 1), "O")];
        let overlapping = [edit((0, 0), (0, 3), "x"), edit((0, 2), (1, 0), "y")];
        assert!(!kept.edit("a", &backwards));
        assert!(!kept.edit("a", &overlapping));
        assert!(!kept.edit("missing", &[]));
        assert_eq!(kept.get("a").unwrap().as_str(), "one\ntwo\n");
    }

    /// A kept text, a call's edits of it and the text they give (as a session makes them).
    fn called(kept: &mut Buffers, path: &str, edits: &[Edit]) -> (Arc<String>, Arc<String>) {
        let before = Arc::clone(kept.get(path).unwrap());
        let after = Arc::new(apply_edits(&before, edits));
        assert!(kept.expect(path, &before, edits, &after));
        (before, after)
    }

    #[test]
    fn a_forwarded_call_keeps_the_calls_text_and_anything_else_splices() {
        let old = "def a():\n    return 1\n\ndef b():\n    return 2\n";
        let made = vec![edit((1, 11), (1, 12), "10"), edit((4, 11), (4, 12), "20")];
        let other = vec![edit((1, 11), (1, 12), "10")];
        // (what the host does after the call, whether the call's text is kept)
        type Step = fn(&mut Buffers, &[Edit], &[Edit]) -> bool;
        let cases: Vec<(&str, Step, bool)> = vec![
            ("the call's edits", |k, made, _| k.edit("a.py", made), true),
            ("other edits", |k, _, other| k.edit("a.py", other), false),
            (
                "edits in another order",
                |k, made, _| {
                    let mut reversed = made.to_vec();
                    reversed.reverse();
                    !k.edit("a.py", &reversed) && k.edit("a.py", made)
                },
                false,
            ),
            (
                "opened again first",
                |k, made, _| {
                    k.open(
                        "a.py".into(),
                        "def a():\n    return 1\n\ndef b():\n    return 2\n".into(),
                    );
                    k.edit("a.py", made)
                },
                false,
            ),
            (
                "a change of its own first",
                |k, made, _| k.edit("a.py", &[]) && k.edit("a.py", made),
                false,
            ),
        ];
        for (what, step, adopted) in cases {
            let mut kept = Buffers::default();
            kept.open("a.py".into(), old.into());
            let (before, after) = called(&mut kept, "a.py", &made);
            assert!(step(&mut kept, &made, &other), "{what}");
            let now = kept.get("a.py").unwrap();
            assert_eq!(Arc::ptr_eq(now, &after), adopted, "{what}");
            let spliced = if what == "other edits" { &other } else { &made };
            assert_eq!(now.as_str(), apply_edits(old, spliced), "{what}");
            assert_eq!(
                before.as_str(),
                old,
                "{what}: the text before is left as it was"
            );
        }
        // Noted only for the kept text itself, and used once.
        let mut kept = Buffers::default();
        kept.open("a.py".into(), old.into());
        let copy = Arc::new(old.to_string());
        assert!(!kept.expect("a.py", &copy, &made, &copy));
        assert!(!kept.expect("b.py", &copy, &made, &copy));
        let (_, after) = called(&mut kept, "a.py", &made);
        assert!(kept.edit("a.py", &made));
        assert!(kept.edit("a.py", &made));
        assert!(!Arc::ptr_eq(kept.get("a.py").unwrap(), &after));
        let twice = apply_edits(&apply_edits(old, &made), &made);
        assert_eq!(kept.get("a.py").unwrap().as_str(), twice);
    }

    #[test]
    fn kept_texts_are_read_before_the_reader() {
        let mut kept = Buffers::default();
        kept.open("a".into(), "kept".into());
        let disk = BTreeMap::from([
            ("a".to_string(), "disk".to_string()),
            ("b".to_string(), "other".to_string()),
        ]);
        let files = kept.over(&disk);
        assert_eq!(files.read("a").unwrap().as_deref(), Some("kept"));
        assert_eq!(files.read("b").unwrap().as_deref(), Some("other"));
        // A reader that hands over bytes (encodings) is still asked for the others.
        let bytes = BTreeMap::from([("b".to_string(), b"caf\xe9".to_vec())]);
        let layered = kept.over(&bytes);
        assert!(matches!(
            layered.read_content("b").unwrap(),
            Some(Content::Bytes(_))
        ));
        assert!(
            matches!(layered.read_content("a").unwrap(), Some(Content::Text(t)) if t.as_str() == "kept")
        );
        assert!(kept.close("a"));
        assert_eq!(kept.over(&disk).read("a").unwrap().as_deref(), Some("disk"));
    }
}
