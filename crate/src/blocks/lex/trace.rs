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

use super::{Event, Frame, Lexed, Lexer, Resume, Syntax, NONE};
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
    pub expr: bool,
    /// (position, byte) of each open bracket, bottom to top.
    pub frames: Vec<(u32, u8)>,
}

/// The checkpoints and snapshots of one lexed text, in position order.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub checkpoints: Vec<Checkpoint>,
    pub snapshots: Vec<Snapshot>,
}

impl Trace {
    /// The checkpoint at `pos`, if one was recorded there.
    pub fn at(&self, pos: usize) -> Option<&Checkpoint> {
        let k = self
            .checkpoints
            .binary_search_by_key(&pos, |c| c.pos as usize)
            .ok()?;
        self.checkpoints.get(k)
    }
}

/// Where a resumed lex may stop: the first line start at or after `from` whose state
/// equals `before`'s at the same place shifted by `delta` (the edit's length change).
pub struct SyncTarget {
    pub from: usize,
    pub delta: isize,
    pub before: Arc<Trace>,
    /// Only at a clean checkpoint (Python: a logical line must not span the seam).
    pub clean: bool,
}

pub(super) struct Tracer {
    trace: Trace,
    lines_since_snapshot: usize,
    sync: Option<SyncTarget>,
    synced_at: Option<usize>,
    sync_frames: Vec<(u32, u8)>,
}

/// A resumed lex: the issues from its start on, its checkpoints, and where it fell in
/// step with the original (None: it ran to the end).
pub struct Window {
    pub lexed: Lexed,
    pub trace: Trace,
    pub synced_at: Option<usize>,
    /// (position, byte) of every frame open where it fell in step, bottom to top.
    pub sync_frames: Vec<(u32, u8)>,
}

/// Lexes `src` whole, recording its trace.
pub fn lex_traced(src: &str, syn: &Syntax) -> (Lexed, Trace) {
    let w = run(src, syn, None, None);
    (w.lexed, w.trace)
}

/// Lexes `src` from `from` (a snapshot of a text that agrees with `src` up to the
/// first byte after it that differs) until it falls in step with `sync`, if given.
pub fn relex(src: &str, syn: &Syntax, from: &Snapshot, sync: SyncTarget) -> Window {
    run(src, syn, Some(from), Some(sync))
}

fn run(src: &str, syn: &Syntax, from: Option<&Snapshot>, sync: Option<SyncTarget>) -> Window {
    let bytes = src.as_bytes();
    if bytes.len() >= NONE as usize {
        // Positions are u32: a text this large is never read as balanced.
        return Window {
            lexed: super::lex(src, syn),
            trace: Trace::default(),
            synced_at: None,
            sync_frames: Vec::new(),
        };
    }
    let tracer = Some(Box::new(Tracer {
        trace: Trace::default(),
        lines_since_snapshot: SNAPSHOT_LINES,
        sync,
        synced_at: None,
        sync_frames: Vec::new(),
    }));
    let mut lx = Lexer::new(bytes, syn, tracer);
    if let Some(s) = from {
        lx.resume_at(s);
    } else {
        lx.line_start(0);
    }
    lx.run();
    let tracer = lx.tracer.take().map(|t| *t);
    let (trace, synced_at, sync_frames) = tracer
        .map_or((Trace::default(), None, Vec::new()), |t| {
            (t.trace, t.synced_at, t.sync_frames)
        });
    Window {
        lexed: Lexed {
            code: lx.code,
            events: lx.events,
            issues: lx.issues,
            multiline: lx.multiline,
        },
        trace,
        synced_at,
        sync_frames,
    }
}

impl Lexer<'_> {
    /// Starts at snapshot `s`: its brackets open, look-backs stopping at its position.
    fn resume_at(&mut self, s: &Snapshot) {
        let pos = (s.pos as usize).min(self.src.len());
        for &(p, byte) in &s.frames {
            let idx = self.events.len() as u32;
            let parent = self.parent();
            self.events.push(Event {
                pos: p,
                byte,
                partner: NONE,
                parent,
            });
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
        let cp = self.checkpoint(pos);
        t.trace.checkpoints.push(cp);
        t.lines_since_snapshot += 1;
        let holes = self.frames.iter().any(|f| matches!(f, Frame::Hole(..)));
        if t.lines_since_snapshot >= SNAPSHOT_LINES && !holes {
            t.lines_since_snapshot = 0;
            let frames = self
                .frames
                .iter()
                .filter_map(|f| match f {
                    Frame::Bracket(idx) => self.events.get(*idx as usize).map(|e| (e.pos, e.byte)),
                    Frame::Hole(..) => None,
                })
                .collect();
            t.trace.snapshots.push(Snapshot {
                pos: cp.pos,
                expr: cp.expr,
                frames,
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
            t.sync_frames = self.frame_list();
        }
        self.tracer = Some(t);
        synced
    }

    /// (position, byte) of every open frame, bottom to top.
    fn frame_list(&self) -> Vec<(u32, u8)> {
        self.frames
            .iter()
            .filter_map(|f| match f {
                Frame::Bracket(idx) | Frame::Hole(idx, _) => self.events.get(*idx as usize),
            })
            .map(|e| (e.pos, e.byte))
            .collect()
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
        let before = &self.src[..pos.min(self.src.len())];
        let before = before.strip_suffix(b"\n").unwrap_or(before);
        let before = before.strip_suffix(b"\r").unwrap_or(before);
        Checkpoint {
            pos: pos as u32,
            sig,
            depth: self.frames.len() as u32,
            expr,
            clean: self.frames.is_empty() && !before.ends_with(b"\\"),
        }
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
