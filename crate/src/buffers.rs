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

use crate::error::EditResult;
use crate::result::Edit;
use crate::text::Point;
use crate::workspace::{Content, Files};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The kept texts of one session.
#[derive(Default)]
pub struct Buffers {
    texts: BTreeMap<String, Arc<String>>,
}

impl Buffers {
    /// Keeps `text` as the content of `path`, replacing what was kept.
    pub fn open(&mut self, path: String, text: String) {
        self.texts.insert(path, Arc::new(text));
    }

    /// Applies `edits` to the kept text of `path`, with the meaning of a result's
    /// `edits` ([`crate::result::apply_edits`]): ranges in the text before, UTF-16
    /// columns, sorted and not overlapping. False (nothing kept changes) when `path` is
    /// not kept or the edits are not in order.
    pub fn edit(&mut self, path: &str, edits: &[Edit]) -> bool {
        let Some(text) = self.texts.get_mut(path) else {
            return false;
        };
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
