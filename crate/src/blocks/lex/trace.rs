//! Per-line lexer states, so that a text derived from another by an edit is re-lexed
//! only where it differs.
//!
//! A full lex can record, at every line start where the lexer is in code (not inside a
//! literal or comment), a [`Checkpoint`]: a hash of the open frames (each bracket's
//! byte, each literal hole's kind; never positions) and the answer of
//! `expression_position` there. Two texts whose bytes agree from such a line on, and
//! whose checkpoints there are equal, lex alike from there to the end: every later
//! decision depends only on the bytes ahead, the frames' kinds, and (through
//! `expression_position`) the last code token before the line, which the checkpoint
//! carries. Every few lines where no hole is open, a [`Snapshot`] also keeps the open
//! brackets themselves, so lexing can resume there ([`relex`]).
//!
//! Look-ahead never crosses a checkpoint except through whitespace (a JSX tag name
//! followed by blank lines), so a resumed lex starts from a snapshot with code between
//! it and the first changed byte (see `blocks::balance`).
//!
//! Each checkpoint also counts the issues the lexer met before it (not part of the
//! state): issues met after a line where two texts are in step are the same in both,
//! so an edit's issues can be counted without lexing the rest.
//!
//! A snapshot keeps the open brackets' kinds, not where they opened: a resumed lex
//! answers only "balanced or not" (a refusal lexes the text whole to name a place), so
//! the positions it reports for brackets opened before its start mean nothing. That
//! way a kept snapshot stays valid, unchanged, after an edit before it: the trace of an
//! edited text shares every checkpoint and snapshot outside the edit with the
//! original's ([`Pieces`]), shifted by the edit's length.

use super::pieces::{Builder, Item, Pieces, Shift};
use super::{Frame, Issue, Lexer, Resume, Syntax, NONE};
use std::sync::Arc;

/// Lines between two snapshots (a resumed lex re-reads at most this many unchanged
/// lines).
const SNAPSHOT_LINES: usize = 32;

/// The lexer's state at the start of a line where it is in code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    pub pos: u32,
    /// A hash of the open frames' kinds, bottom to top.
    pub sig: u64,
    pub depth: u32,
    /// `expression_position` at `pos` (languages with regex or JSX; false elsewhere).
    pub expr: bool,
    /// No frame open, and the line before does not end with a backslash: a logical
    /// line starts here (Python).
    pub clean: bool,
    /// The issues the lexer met before this line start (not part of the state: an
    /// edit's re-lex counts the issues of the text it derives from these).
    pub issues: u32,
}

impl Item for Checkpoint {
    fn shifted(&self, by: Shift) -> Checkpoint {
        Checkpoint {
            pos: (i64::from(self.pos) + by.bytes) as u32,
            issues: (i64::from(self.issues) + by.issues) as u32,
            ..*self
        }
    }
}

impl Checkpoint {
    fn same_state(&self, other: &Checkpoint) -> bool {
        self.sig == other.sig
            && self.depth == other.depth
            && self.expr == other.expr
            && self.clean == other.clean
    }
}

/// The open brackets at a line start where no hole is open: where lexing can resume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub pos: u32,
    /// The 0-based line starting at `pos`.
    pub line: u32,
    pub expr: bool,
    /// The byte of each open bracket, bottom to top (shared with the snapshot before
    /// when equal).
    pub kinds: Arc<[u8]>,
}

impl Item for Snapshot {
    fn shifted(&self, by: Shift) -> Snapshot {
        Snapshot {
            pos: (i64::from(self.pos) + by.bytes) as u32,
            line: (i64::from(self.line) + by.lines) as u32,
            expr: self.expr,
            kinds: self.kinds.clone(),
        }
    }
}

/// The checkpoints and snapshots of one lexed text, in position order.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub checkpoints: Pieces<Checkpoint>,
    pub snapshots: Pieces<Snapshot>,
}

impl Trace {
    /// The checkpoint at `pos`, if one was recorded there.
    pub fn at(&self, pos: usize) -> Option<Checkpoint> {
        let k = self.checkpoints.partition_point(|c| (c.pos as usize) < pos);
        (k < self.checkpoints.len())
            .then(|| self.checkpoints.get(k))
            .filter(|c| c.pos as usize == pos)
    }
}

/// What one lex recorded, in position order.
#[derive(Clone, Debug, Default)]
pub struct Recorded {
    pub checkpoints: Builder<Checkpoint>,
    pub snapshots: Builder<Snapshot>,
}

/// Where a resumed lex may stop: the first line start at or after `from` whose state
/// equals `before`'s at the same place shifted by `delta` (the edit's length change).
pub struct SyncTarget {
    pub from: usize,
    pub delta: isize,
    pub before: Arc<Trace>,
    /// Only at a clean checkpoint (Python: a logical line must not span the seam).
    pub clean: bool,
    /// The issues the original's lexer met before the snapshot the lex resumes at
    /// (its checkpoint's count): the resumed lex's checkpoints count on from it.
    pub issues_before: u32,
}

pub(super) struct Tracer {
    trace: Recorded,
    lines_since_snapshot: usize,
    /// A line start already counted, and its 0-based line number.
    counted: (usize, u32),
    /// Issues met before the lex started (a resumed lex: the original's, up to there).
    issues_before: u32,
    sync: Option<SyncTarget>,
    synced_at: Option<usize>,
}

/// A resumed lex: the issues from its start on, its checkpoints, and where it fell in
/// step with the original (None: it ran to the end).
pub struct Window {
    pub issues: Vec<Issue>,
    pub trace: Recorded,
    pub synced_at: Option<usize>,
}

/// Lexes `src` whole, recording its trace.
pub fn lex_traced(src: &str, syn: &Syntax) -> (super::Lexed, Trace) {
    let bytes = src.as_bytes();
    if bytes.len() >= NONE as usize {
        // Positions are u32: a text this large is never read as balanced.
        return (super::lex(src, syn), Trace::default());
    }
    let mut lx = Lexer::new(bytes, syn, Some(Tracer::new(None, (0, 0))), None);
    lx.line_start(0);
    lx.run();
    let recorded = lx.tracer.take().map(|t| t.trace).unwrap_or_default();
    let lexed = super::Lexed {
        code: lx.code,
        events: lx.events,
        issues: lx.issues,
        multiline: lx.multiline,
    };
    let trace = Trace {
        checkpoints: recorded.checkpoints.finish(),
        snapshots: recorded.snapshots.finish(),
    };
    (lexed, trace)
}

impl Tracer {
    fn new(sync: Option<SyncTarget>, counted: (usize, u32)) -> Box<Tracer> {
        Box::new(Tracer {
            trace: Recorded::default(),
            lines_since_snapshot: SNAPSHOT_LINES,
            counted,
            issues_before: sync.as_ref().map_or(0, |s| s.issues_before),
            sync,
            synced_at: None,
        })
    }

    /// A tracer with nothing to fall in step with (tests).
    #[cfg(test)]
    pub(super) fn for_test() -> Box<Tracer> {
        Tracer::new(None, (0, 0))
    }

    /// The 0-based line starting at `pos` (at or after the last one counted).
    fn line_of(&mut self, src: &[u8], pos: usize) -> u32 {
        let (from, line) = self.counted;
        let more = memchr::memchr_iter(b'\n', &src[from.min(pos)..pos]).count() as u32;
        self.counted = (pos, line + more);
        line + more
    }
}

/// Lexes `src` from `from` (a snapshot of a text that agrees with `src` up to the
/// first byte after it that differs) until it falls in step with `sync`, if given.
pub fn relex(src: &str, syn: &Syntax, from: &Snapshot, sync: SyncTarget) -> Window {
    let bytes = src.as_bytes();
    if bytes.len() >= NONE as usize {
        return Window {
            issues: super::lex(src, syn).issues,
            trace: Recorded::default(),
            synced_at: None,
        };
    }
    let pos = (from.pos as usize).min(bytes.len());
    let tracer = Tracer::new(Some(sync), (pos, from.line));
    let mut lx = Lexer::new(bytes, syn, Some(tracer), Some(pos));
    lx.resume_at(from);
    lx.run();
    let (trace, synced_at) = lx
        .tracer
        .take()
        .map_or((Recorded::default(), None), |t| (t.trace, t.synced_at));
    Window {
        issues: lx.issues,
        trace,
        synced_at,
    }
}

impl Lexer<'_> {
    /// Starts at snapshot `s`: its brackets open (at its position: where they opened
    /// is not kept), look-backs stopping there.
    fn resume_at(&mut self, s: &Snapshot) {
        let pos = (s.pos as usize).min(self.src.len());
        for &byte in s.kinds.iter() {
            let idx = self.push_event(pos, byte);
            self.frames.push(Frame::Bracket(idx));
        }
        self.start = pos;
        self.floor = pos;
        self.floor_expr = s.expr;
    }

    /// Records the state at line start `pos`; true when it is in step with the
    /// original text (lexing may stop).
    pub(super) fn line_start(&mut self, pos: usize) -> bool {
        let Some(mut t) = self.tracer.take() else {
            return false;
        };
        let mut cp = self.checkpoint(pos);
        cp.issues = t.issues_before + self.issues.len() as u32;
        t.trace.checkpoints.push(cp);
        t.lines_since_snapshot += 1;
        if t.lines_since_snapshot >= SNAPSHOT_LINES
            && !self.frames.iter().any(|f| matches!(f, Frame::Hole(..)))
        {
            t.lines_since_snapshot = 0;
            let kinds: Vec<u8> = self
                .frames
                .iter()
                .filter_map(|f| match f {
                    Frame::Bracket(idx) => self.events.get(*idx as usize).map(|e| e.byte),
                    Frame::Hole(..) => None,
                })
                .collect();
            let kinds = match t.trace.snapshots.last() {
                Some(last) if *last.kinds == *kinds => last.kinds.clone(),
                _ => Arc::from(kinds),
            };
            let line = t.line_of(self.src, pos);
            t.trace.snapshots.push(Snapshot {
                pos: cp.pos,
                line,
                expr: cp.expr,
                kinds,
            });
        }
        let synced = t.sync.as_ref().is_some_and(|s| {
            pos >= s.from
                && (cp.clean || !s.clean)
                && pos as isize - s.delta >= 0
                && s.before
                    .at((pos as isize - s.delta) as usize)
                    .is_some_and(|b| b.same_state(&cp))
        });
        if synced {
            t.synced_at = Some(pos);
        }
        self.tracer = Some(t);
        synced
    }

    fn checkpoint(&self, pos: usize) -> Checkpoint {
        let mut sig: u64 = 0xcbf2_9ce4_8422_2325;
        for f in &self.frames {
            let v = match f {
                Frame::Bracket(idx) => u64::from(self.events[*idx as usize].byte),
                Frame::Hole(idx, r) => {
                    let byte = u64::from(self.events[*idx as usize].byte);
                    byte | resume_kind(r) << 8
                }
            };
            sig = (sig ^ v).wrapping_mul(0x0100_0000_01b3);
        }
        let expr = (self.syn.regex || self.syn.jsx) && self.expression_position(pos);
        Checkpoint {
            pos: pos as u32,
            sig,
            depth: self.frames.len() as u32,
            expr,
            clean: self.frames.is_empty() && !self.code_line_continues(pos),
            issues: 0,
        }
    }

    /// Whether the line before line start `pos` ends in a backslash as Python's line
    /// reading sees it (`indent::read_lines`): its code, comments and literals blanked,
    /// trailing whitespace trimmed. (`x = 1 \   # note` continues there; the raw bytes
    /// end in a comment.)
    fn code_line_continues(&self, pos: usize) -> bool {
        let mut i = pos.min(self.src.len());
        if i > 0 && self.byte(i - 1) == b'\n' {
            i -= 1;
        }
        while i > 0 {
            match self.code_at(i - 1) {
                b'\n' => return false,
                c if c.is_ascii_whitespace() => i -= 1,
                c => return c == b'\\',
            }
        }
        false
    }
}

/// A hole's kind and parameters (never its position), for the state hash.
fn resume_kind(r: &Resume) -> u64 {
    match *r {
        Resume::Template { .. } => 1,
        Resume::Str {
            quotes,
            escapes,
            multiline,
            ..
        } => 2 | u64::from(quotes) << 8 | u64::from(escapes) << 16 | u64::from(multiline) << 17,
        Resume::JsxTag { depth, .. } => 3 | u64::from(depth) << 8,
        Resume::JsxChildren { depth, .. } => 4 | u64::from(depth) << 8,
    }
}
