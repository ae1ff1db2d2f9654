//! The text model: one file's text, indexed by line.
//!
//! A [`Text`] borrows the exact string a host handed in and never changes it. Every
//! tool locates by byte offsets into that string and writes new text next to the
//! bytes it keeps, so lines nobody meant to touch come out byte-identical: their line
//! endings, a BOM, trailing whitespace, tabs and typographic characters included.
//!
//! Three coordinate systems meet here:
//! - byte offsets into the string (what the engine computes with);
//! - 1-based line numbers (what messages and arguments use);
//! - 0-based `{row, column}` points with columns in UTF-16 code units (what hosts
//!   apply: Pulsar's `Point` and VS Code's `Position` count exactly so).
//!
//! A line is its content plus its terminator (`\n` or `\r\n`); the last line may have
//! no terminator. A text has as many lines as `wc -l` counts, plus one when it does not
//! end with a newline: `"a\nb\n"` and `"a\nb"` have 2 lines, `""` has 0.
//!
//! Also here, because every layer above needs them and none may own them: [`splice`]
//! (the one way new text is written over byte ranges), [`words`] (how messages name
//! lines, counts and whitespace) and [`placeholder`] (which lines stand for code left
//! out, for the guard and the elision recovery alike).

pub mod change_set;
pub mod diff;
pub mod encoding;
pub mod hash;
mod kept;
mod line_map;
pub mod placeholder;
pub mod scan;
mod version;
pub mod words;

pub use kept::Kept;
pub use line_map::LineMap;
pub use version::version_of;

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::ops::Range;

/// A 0-based position with the column in UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub row: usize,
    pub column: usize,
}

/// How lines end in a text (or in one line of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
}

impl LineEnding {
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LineEnding::Lf => "LF",
            LineEnding::CrLf => "CRLF",
        }
    }
}

/// What [`Text::line_hashes_like`] gives a line that is like none of the lines asked for.
pub const NOT_LIKE: u64 = 0x9e37_79b9_7f4a_7c15;

/// The UTF-8 byte order mark, as it appears at the start of a Rust string.
pub const BOM: char = '\u{feff}';

/// One file's text with a line index.
///
/// The index (every line's start) is built on first need, not up front: a call that
/// only asks about a few lines near one place (an exact hit) counts newlines from the
/// nearest place asked before ([`Probe`]) instead of indexing 100 000 lines. The counting
/// is budgeted: once it has read more than twice the text, the index is built, so a
/// text costs at most that plus one index, whatever is asked of it. Bulk readers (the
/// line hashes, [`Text::lines`]) build the index at once.
#[derive(Debug)]
pub struct Text<'a> {
    src: &'a str,
    /// What the text computes about itself once (its line index, line hashes, line
    /// map), shared with later texts of the same kept string ([`Kept`]).
    shared: std::sync::Arc<Shared>,
    /// Newlines in the whole text, counted on first need while there is no index.
    newlines: std::cell::OnceCell<usize>,
    /// Whether the text has a carriage return, and then its line ends (see [`Text::endings`]).
    endings: std::cell::OnceCell<Option<(usize, usize)>>,
    /// The last place asked about while there is no index, and the bytes read since.
    probe: std::cell::Cell<Probe>,
    /// The row [`Text::line_of`] found last with the index.
    last_row: std::cell::Cell<usize>,
    /// Whether an earlier call met this string too ([`Kept`]): then every line's hash is
    /// worth computing once, for this call and the next ones.
    met_again: bool,
}

/// What a [`Text`] computes about its string on first need and never changes: a
/// function of the bytes alone, so texts of one string may share it ([`Kept`]).
#[derive(Debug, Default)]
pub struct Shared {
    /// Every line's start and the text's endings.
    index: std::sync::OnceLock<LineIndex>,
    /// Each line's [core hash](hash::core_hash).
    hashes: std::sync::OnceLock<Vec<u64>>,
    /// Each line's [core ends](hash::core_ends).
    ends: std::sync::OnceLock<Vec<u16>>,
    /// The lines grouped by core hash.
    map: std::sync::OnceLock<LineMap>,
    /// The first byte beyond ASCII, if any ([`Text::is_ascii_in`]).
    first_non_ascii: std::sync::OnceLock<Option<usize>>,
    /// The first backslash, if any ([`Text::has_backslash_in`]).
    first_backslash: std::sync::OnceLock<Option<usize>>,
    /// Facts about the whole text, by name ([`Text::whole_text_fact`]).
    facts: std::sync::Mutex<Vec<(&'static str, bool)>>,
    /// Bytes byte-exact searches of this string have scanned, over the calls that met
    /// it ([`Text::note_scan`]). Not a function of the bytes, but it only picks between
    /// two ways that find the same occurrences.
    scanned: std::sync::atomic::AtomicUsize,
}

/// Where each line starts; `starts.len()` is the line count.
#[derive(Debug)]
struct LineIndex {
    starts: Vec<usize>,
    crlf_lines: usize,
    lf_lines: usize,
}

/// A byte offset whose row is known (`row` newlines before `pos`), how many bytes
/// answering without the index has read so far, and how many questions it answered.
#[derive(Clone, Copy, Debug, Default)]
struct Probe {
    pos: usize,
    row: usize,
    read: usize,
    asked: usize,
}

/// Questions answered by counting before the index is built anyway: each costs a
/// scan's set-up, which the index's lookups beat when there are many (every match of
/// a `replace_all` over 190 000 lines).
const PROBES: usize = 64;

impl LineIndex {
    /// The index of `src`, and each line's [core ends](hash::core_ends) when `ends`
    /// is given (read in the same pass, while each line is in cache).
    fn build(src: &str, ends: Option<&mut Vec<u16>>) -> LineIndex {
        let bytes = src.as_bytes();
        let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
        if !src.is_empty() {
            starts.push(0);
        }
        let (newlines, crlf_lines) = match ends {
            None => scan::index_lines(bytes, &mut starts, |_, _| {}),
            Some(ends) => {
                ends.reserve(bytes.len() / 32 + 1);
                let counts = scan::index_lines(bytes, &mut starts, |start, nl| {
                    ends.push(hash::core_ends_of(&bytes[start..nl]));
                });
                if !src.ends_with('\n') && !src.is_empty() {
                    let last = starts.last().copied().unwrap_or(0);
                    ends.push(hash::core_ends_of(&bytes[last..]));
                }
                counts
            }
        };
        LineIndex {
            starts,
            crlf_lines,
            lf_lines: newlines - crlf_lines,
        }
    }
}

impl<'a> Text<'a> {
    pub fn new(src: &'a str) -> Text<'a> {
        Text::with_shared(src, std::sync::Arc::default(), false)
    }

    /// A text of `src` with what an earlier text of the same string computed
    /// (`shared` must belong to exactly these bytes: [`Kept`] makes sure); `met_again`
    /// when an earlier call met the string.
    fn with_shared(src: &'a str, shared: std::sync::Arc<Shared>, met_again: bool) -> Text<'a> {
        Text {
            src,
            shared,
            met_again,
            newlines: std::cell::OnceCell::new(),
            endings: std::cell::OnceCell::new(),
            probe: std::cell::Cell::new(Probe::default()),
            last_row: std::cell::Cell::new(0),
        }
    }

    fn index(&self) -> &LineIndex {
        self.shared
            .index
            .get_or_init(|| LineIndex::build(self.src, None))
    }

    /// The probe to count from, or None when the index exists, the string was met
    /// before, or counting has read its budget (then the caller uses the index,
    /// building it if need be).
    fn probe(&self) -> Option<Probe> {
        // A string met again ([`Kept`]) builds its index once for every later call.
        if self.met_again || self.shared.index.get().is_some() {
            return None;
        }
        let mut p = self.probe.get();
        p.asked += 1;
        self.probe.set(p);
        (p.asked <= PROBES && p.read <= 2 * self.src.len() + 4096).then_some(p)
    }

    /// The start of 0-based line `idx` (the text's length past the last line), found by
    /// walking newlines from the probe.
    fn walk_to_line(&self, mut p: Probe, idx: usize) -> usize {
        let bytes = self.src.as_bytes();
        if idx == 0 {
            self.probe.set(Probe {
                pos: 0,
                row: 0,
                ..p
            });
            return 0;
        }
        // The start of line idx is just after the idx-th newline.
        let found = if idx <= p.row {
            let behind = memchr::memrchr_iter(b'\n', &bytes[..p.pos]).nth(p.row - idx);
            p.read += behind.map_or(p.pos, |nl| p.pos - nl);
            behind
        } else {
            let ahead = memchr::memchr_iter(b'\n', &bytes[p.pos..]).nth(idx - p.row - 1);
            p.read += ahead.map_or(bytes.len() - p.pos, |k| k + 1);
            ahead.map(|k| p.pos + k)
        };
        match found {
            Some(nl) if nl + 1 < bytes.len() => {
                self.probe.set(Probe {
                    pos: nl + 1,
                    row: idx,
                    ..p
                });
                nl + 1
            }
            _ => {
                self.probe.set(Probe { read: p.read, ..p });
                bytes.len()
            }
        }
    }

    /// Every line's [core hash](hash::core_hash), computed once per text: each level of
    /// the cascade, each search of a call (old_str, then new_str to tell an edit already
    /// made) and the diagnostics probe these instead of rereading the lines.
    pub fn line_hashes(&self) -> &[u64] {
        self.shared.hashes.get_or_init(|| {
            self.index();
            let mut scratch = Vec::new();
            (0..self.line_count())
                .map(|i| hash::core_hash_in(self.line(i), &mut scratch))
                .collect()
        })
    }

    /// The core hashes of lines `lines` for a search that only asks whether a line's
    /// hash is one of `like`'s lines' hashes: a line whose [core ends](hash::core_ends)
    /// no line of `like` has cannot be, and gets [`NOT_LIKE`] instead of its hash
    /// (computing it is most of a tolerant search). The full hashes when they are
    /// already computed, or when one of `like` hashes to [`NOT_LIKE`].
    pub fn line_hashes_like(&self, lines: Range<usize>, like: &[&str]) -> Cow<'_, [u64]> {
        let end = lines.end.min(self.line_count());
        let lines = lines.start.min(end)..end;
        if let Some(all) = self.shared.hashes.get() {
            return Cow::Borrowed(&all[lines]);
        }
        // A string met again (a kept buffer): every hash once, shared with later calls,
        // instead of the asked lines' hashes again on every call.
        if self.met_again || like.iter().any(|l| hash::core_hash(l) == NOT_LIKE) {
            return Cow::Borrowed(&self.line_hashes()[lines]);
        }
        let mut wanted = vec![0u64; 1 << 10];
        for l in like {
            let e = usize::from(hash::core_ends(l));
            wanted[e >> 6] |= 1 << (e & 63);
        }
        let ends = self.shared.ends.get_or_init(|| {
            let mut ends = Vec::new();
            if self.shared.index.get().is_none() {
                let _ = self
                    .shared
                    .index
                    .set(LineIndex::build(self.src, Some(&mut ends)));
                return ends;
            }
            // From the line starts: a line's terminator and a BOM hold no core bytes.
            let (starts, bytes) = (&self.index().starts, self.src.as_bytes());
            let line_ends = starts.iter().skip(1).copied().chain([bytes.len()]);
            starts
                .iter()
                .zip(line_ends)
                .map(|(&start, end)| hash::core_ends_of(&bytes[start..end]))
                .collect()
        });
        let like_at = |k: usize| {
            let e = usize::from(ends[k]);
            wanted[e >> 6] & 1 << (e & 63) != 0
        };
        // Most lines alike (a file of one repeated shape): every later search of this
        // text would hash them again, so hash them all once, kept.
        if lines.clone().filter(|&k| like_at(k)).count() > lines.len() / 4 {
            return Cow::Borrowed(&self.line_hashes()[lines]);
        }
        let mut scratch = Vec::new();
        Cow::Owned(
            lines
                .map(|k| {
                    if like_at(k) {
                        hash::core_hash_in(self.line(k), &mut scratch)
                    } else {
                        NOT_LIKE
                    }
                })
                .collect(),
        )
    }

    /// The lines grouped by core hash ([`LineMap`]), built once per text.
    pub fn line_map(&self) -> &LineMap {
        self.shared
            .map
            .get_or_init(|| LineMap::build(self.line_hashes()))
    }

    /// The line map when it is built, or when the string was met before ([`Kept`]: then
    /// it is built now, once for every later call); None for a text met once, whose
    /// searches scan the lines they ask about instead.
    pub fn kept_line_map(&self) -> Option<&LineMap> {
        match self.shared.map.get() {
            Some(map) => Some(map),
            None => self.met_again.then(|| self.line_map()),
        }
    }

    /// Whether `range` of the text is all ASCII. The text's first byte beyond ASCII is
    /// found once per string (kept with it, [`Kept`]), so a range that contains it, or
    /// ends before it, is answered without reading it; only a range after it is read.
    pub fn is_ascii_in(&self, range: Range<usize>) -> bool {
        let bytes = self.src.as_bytes();
        let first = *self
            .shared
            .first_non_ascii
            .get_or_init(|| bytes.iter().position(|b| !b.is_ascii()));
        !within_or_read(first, &range, || !bytes[range.clone()].is_ascii())
    }

    /// Whether `range` of the text holds a backslash, answered as [`Text::is_ascii_in`].
    pub fn has_backslash_in(&self, range: Range<usize>) -> bool {
        let bytes = self.src.as_bytes();
        let first = *self
            .shared
            .first_backslash
            .get_or_init(|| memchr::memchr(b'\\', bytes));
        within_or_read(first, &range, || {
            memchr::memchr(b'\\', &bytes[range.clone()]).is_some()
        })
    }

    /// `fact` (a function of the bytes alone, named `name`) of the whole text, computed
    /// once per string: a kept string met again answers without reading it.
    pub fn whole_text_fact(&self, name: &'static str, fact: impl FnOnce(&str) -> bool) -> bool {
        let known = |facts: &Vec<(&'static str, bool)>| {
            facts.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
        };
        let lock = || self.shared.facts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = known(&lock()) {
            return v;
        }
        let v = fact(self.src);
        let mut facts = lock();
        if known(&facts).is_none() {
            facts.push((name, v));
        }
        v
    }

    /// Whether [`Text::line_map`] has been built.
    pub fn has_line_map(&self) -> bool {
        self.shared.map.get().is_some()
    }

    /// Adds `bytes` to the bytes byte-exact searches of this string have scanned, and
    /// returns the total before: a caller that searches one text many times (a patch's
    /// hunks, or calls on a kept string) switches to the line map once scanning has
    /// cost more than building it.
    pub fn note_scan(&self, bytes: usize) -> usize {
        use std::sync::atomic::Ordering::Relaxed;
        let before = self.shared.scanned.load(Relaxed);
        self.shared
            .scanned
            .store(before.saturating_add(bytes), Relaxed);
        before
    }

    /// The whole text, exactly as given.
    pub fn as_str(&self) -> &'a str {
        self.src
    }

    pub fn len(&self) -> usize {
        self.src.len()
    }

    pub fn is_empty(&self) -> bool {
        self.src.is_empty()
    }

    pub fn line_count(&self) -> usize {
        if let Some(index) = self.shared.index.get() {
            return index.starts.len();
        }
        let newlines = *self
            .newlines
            .get_or_init(|| scan::count_byte(self.src.as_bytes(), b'\n'));
        newlines + usize::from(!self.src.is_empty() && !self.src.ends_with('\n'))
    }

    /// The text's CRLF and LF line ends, from the index; None, without building it,
    /// for a text with no carriage return at all (every line end is LF).
    fn endings(&self) -> Option<(usize, usize)> {
        if let Some(index) = self.shared.index.get() {
            return Some((index.crlf_lines, index.lf_lines));
        }
        *self.endings.get_or_init(|| {
            memchr::memchr(b'\r', self.src.as_bytes()).map(|_| {
                let index = self.index();
                (index.crlf_lines, index.lf_lines)
            })
        })
    }

    /// Whether the text starts with a UTF-8 byte order mark.
    pub fn has_bom(&self) -> bool {
        self.src.starts_with(BOM)
    }

    /// Whether the last line ends with a line terminator (true for an empty text).
    pub fn ends_with_newline(&self) -> bool {
        self.src.is_empty() || self.src.ends_with('\n')
    }

    /// The ending most lines use; LF for a text with no line breaks or a tie.
    pub fn ending(&self) -> LineEnding {
        match self.endings() {
            Some((crlf_lines, lf_lines)) if crlf_lines > lf_lines => LineEnding::CrLf,
            _ => LineEnding::Lf,
        }
    }

    /// True when the text mixes LF and CRLF lines.
    pub fn has_mixed_endings(&self) -> bool {
        self.endings()
            .is_some_and(|(crlf_lines, lf_lines)| crlf_lines > 0 && lf_lines > 0)
    }

    /// The ending to write near 0-based line `idx`: that line's own ending, or the
    /// previous line's when `idx` is the unterminated last line, or the text's majority.
    /// In a mixed file this keeps each region's convention.
    pub fn ending_near(&self, idx: usize) -> LineEnding {
        if !self.has_mixed_endings() {
            return self.ending();
        }
        let probe = |i: usize| -> Option<LineEnding> {
            let r = self.line_range(i);
            let line = &self.src[r];
            if line.ends_with("\r\n") {
                Some(LineEnding::CrLf)
            } else if line.ends_with('\n') {
                Some(LineEnding::Lf)
            } else {
                None
            }
        };
        let n = self.line_count();
        if n == 0 {
            return self.ending();
        }
        let idx = idx.min(n - 1);
        probe(idx)
            .or_else(|| idx.checked_sub(1).and_then(probe))
            .unwrap_or_else(|| self.ending())
    }

    /// Byte range of 0-based line `idx`, terminator included.
    pub fn line_range(&self, idx: usize) -> Range<usize> {
        self.line_start(idx)..self.line_start(idx + 1)
    }

    /// Byte range of 0-based lines `first..=last`, terminators included.
    pub fn lines_range(&self, first: usize, last: usize) -> Range<usize> {
        self.line_start(first)..self.line_start(last + 1)
    }

    /// Byte offset where 0-based line `idx` starts; the text's length for `idx == line_count`.
    pub fn line_start(&self, idx: usize) -> usize {
        match self.probe() {
            Some(p) => self.walk_to_line(p, idx),
            None => self
                .index()
                .starts
                .get(idx)
                .copied()
                .unwrap_or(self.src.len()),
        }
    }

    /// Line `idx` with its terminator.
    pub fn line_with_ending(&self, idx: usize) -> &'a str {
        &self.src[self.line_range(idx)]
    }

    /// Line `idx` without its terminator (and without a BOM on the first line).
    pub fn line(&self, idx: usize) -> &'a str {
        let line = strip_ending(self.line_with_ending(idx));
        if idx == 0 {
            line.strip_prefix(BOM).unwrap_or(line)
        } else {
            line
        }
    }

    /// Every line without terminators, in order.
    pub fn lines(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.index();
        (0..self.line_count()).map(move |i| self.line(i))
    }

    /// The 0-based line that contains byte `offset` (an offset at the very end of a text
    /// that ends with a newline belongs to the line after the last, `line_count()`).
    pub fn line_of(&self, offset: usize) -> usize {
        if offset >= self.src.len() && self.ends_with_newline() {
            return self.line_count();
        }
        let Some(mut p) = self.probe() else {
            return self.indexed_line_of(offset);
        };
        // The row of an offset is the number of newlines before it.
        let offset = offset.min(self.src.len());
        let (from, to) = (p.pos.min(offset), p.pos.max(offset));
        let between = scan::count_byte(&self.src.as_bytes()[from..to], b'\n');
        p.row = if offset >= p.pos {
            p.row + between
        } else {
            p.row - between
        };
        p.read += to - from;
        self.probe.set(Probe { pos: offset, ..p });
        p.row
    }

    /// [`Text::line_of`] from the index: the line asked last or the one after it (callers
    /// mostly ask in order), else a binary search.
    fn indexed_line_of(&self, offset: usize) -> usize {
        let starts = &self.index().starts;
        let holds = |row: usize| {
            starts.get(row).is_some_and(|&s| s <= offset)
                && starts.get(row + 1).is_none_or(|&next| offset < next)
        };
        let last = self.last_row.get();
        let row = if holds(last) {
            last
        } else if holds(last + 1) {
            last + 1
        } else {
            match starts.binary_search(&offset) {
                Ok(i) => i,
                Err(i) => i.saturating_sub(1),
            }
        };
        self.last_row.set(row);
        row
    }

    /// The point of byte `offset`, which must be on a char boundary.
    pub fn point(&self, offset: usize) -> Point {
        let row = self.line_of(offset);
        let start = self.line_start(row);
        Point {
            row,
            column: utf16_len(&self.src[start..offset]),
        }
    }
}

/// Points of increasing offsets in a text, found without a line index: for callers
/// that need a few positions in a large text (the edits of one change) and would
/// otherwise index every line of it.
pub struct PointCursor<'a> {
    src: &'a str,
    pos: usize,
    row: usize,
    line_start: usize,
}

impl<'a> PointCursor<'a> {
    pub fn new(src: &'a str) -> PointCursor<'a> {
        PointCursor {
            src,
            pos: 0,
            row: 0,
            line_start: 0,
        }
    }

    /// A cursor that starts at `line_start`, the start of 0-based line `row`, so that
    /// the text before it is not scanned again.
    pub fn at_line(src: &'a str, line_start: usize, row: usize) -> PointCursor<'a> {
        let line_start = line_start.min(src.len());
        PointCursor {
            src,
            pos: line_start,
            row,
            line_start,
        }
    }

    /// The point of `offset` (a char boundary, not before the previous offset asked).
    pub fn point(&mut self, offset: usize) -> Point {
        let offset = offset.clamp(self.pos, self.src.len());
        let seg = &self.src.as_bytes()[self.pos..offset];
        let newlines = scan::count_byte(seg, b'\n');
        if newlines > 0 {
            self.row += newlines;
            if let Some(last) = memchr::memrchr(b'\n', seg) {
                self.line_start = self.pos + last + 1;
            }
        }
        self.pos = offset;
        Point {
            row: self.row,
            column: utf16_len(&self.src[self.line_start..offset]),
        }
    }
}

/// A line without its `\n` or `\r\n`.
pub fn strip_ending(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// Whether a byte of a kind whose first occurrence in the text is `first` lies in
/// `range`: no occurrence, or the first one past the range, is no; the first one in the
/// range is yes; a range after the first one is `read`.
fn within_or_read(first: Option<usize>, range: &Range<usize>, read: impl FnOnce() -> bool) -> bool {
    match first {
        None => false,
        Some(p) if p >= range.end => false,
        Some(p) if p >= range.start => true,
        Some(_) => read(),
    }
}

/// Length of `s` in UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.chars().map(char::len_utf16).sum()
}

/// Rewrites every line break of `s` (`\n` or `\r\n`) as `ending`.
pub fn with_ending(s: &str, ending: LineEnding) -> String {
    let lf = s.replace("\r\n", "\n");
    match ending {
        LineEnding::Lf => lf,
        LineEnding::CrLf => lf.replace('\n', "\r\n"),
    }
}

/// Splits `s` into lines without terminators, the way [`Text`] counts them.
pub fn split_lines(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let body = s.strip_suffix('\n').unwrap_or(s);
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// Counts lines the way [`Text`] does.
pub fn count_lines(s: &str) -> usize {
    if s.is_empty() {
        0
    } else {
        scan::count_byte(s.as_bytes(), b'\n') + usize::from(!s.ends_with('\n'))
    }
}

/// `src` with each byte range replaced by its text (ranges sorted, not overlapping).
pub fn splice(src: &str, replacements: &[(Range<usize>, String)]) -> String {
    let added: usize = replacements.iter().map(|(_, t)| t.len()).sum();
    let mut out = String::with_capacity(src.len() + added);
    let mut at = 0;
    for (range, text) in replacements {
        out.push_str(&src[at..range.start]);
        out.push_str(text);
        at = range.end;
    }
    out.push_str(&src[at..]);
    out
}

#[cfg(test)]
mod tests;
