//! The lexer: one pass over a file that tells code from strings, comments and other
//! literals, and matches brackets.
//!
//! Its output is what every later step works on:
//! - `code`: the file's bytes with every comment blanked (spaces, line breaks kept) and
//!   every literal blanked between a `"` at its first byte and a `"` at its last. It has
//!   the file's length and line breaks, so offsets and line numbers carry over, and a
//!   search in it only finds code;
//! - `events`: every bracket (and `;`, and in JavaScript `,`) in code, in order, each
//!   bracket with its partner and the bracket it sits in;
//! - `issues`: where the lexer had to recover (an unterminated string or comment, a
//!   closing bracket that matches nothing), so a refusal can say why balance was lost.
//!
//! The loop only stops at bytes that can start something (a table per language);
//! strings and comments are skipped with `memchr`. Literals that contain code
//! (JavaScript `${…}`, Kotlin `${…}`, Swift `\(…)`, C# `{…}`, PHP `{$…}`, JSX `{…}`)
//! are handled with a frame stack, not recursion, so no input can exhaust the stack.

use super::lang::{Backtick, Quote, Syntax};

pub mod pieces;
mod stops;
pub mod trace;

/// No partner / no parent.
pub const NONE: u32 = u32::MAX;

/// A bracket or separator in code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub pos: u32,
    /// One of `{ } ( ) [ ] ;` (and `,` in JavaScript/TypeScript).
    pub byte: u8,
    /// For a bracket: the index of its partner event, or NONE when unmatched.
    pub partner: u32,
    /// The index of the opening bracket this event sits in, or NONE at top level.
    pub parent: u32,
}

impl Event {
    pub fn is_open(&self) -> bool {
        matches!(self.byte, b'{' | b'(' | b'[')
    }
}

/// Where the lexer had to recover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IssueKind {
    /// A string (or char, regex, template…) not closed where it must be.
    UnterminatedString,
    UnterminatedComment,
    /// A closing bracket with no opening one.
    StrayClose,
    /// A closing bracket of the wrong kind; `other` is the opening bracket's position.
    Mismatch,
    /// An opening bracket never closed.
    Unclosed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issue {
    pub kind: IssueKind,
    /// Where the string / comment / bracket starts.
    pub pos: usize,
    /// The byte concerned (`"`, `{`, …), for messages.
    pub byte: u8,
    /// For `Mismatch`: the opening bracket's position.
    pub other: usize,
    /// What it was, for messages ("string", "template literal", "block comment", …).
    pub what: &'static str,
}

/// The lexer's output.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    pub code: Vec<u8>,
    pub events: Vec<Event>,
    pub issues: Vec<Issue>,
    /// Comments and literals that span a line break, as byte ranges (Python needs
    /// them to tell continuation lines).
    pub multiline: Vec<(usize, usize)>,
}

/// Lexes `src` by `syn`.
pub fn lex(src: &str, syn: &Syntax) -> Lexed {
    let bytes = src.as_bytes();
    if bytes.len() >= NONE as usize {
        // Positions are u32; a text this large is not something to edit by blocks.
        return Lexed {
            code: Vec::new(),
            events: Vec::new(),
            issues: vec![Issue {
                kind: IssueKind::UnterminatedString,
                pos: 0,
                byte: b' ',
                other: 0,
                what: "file too large to analyse",
            }],
            multiline: Vec::new(),
        };
    }
    let mut lx = Lexer::new(bytes, syn, None, None);
    lx.run();
    Lexed {
        code: lx.code,
        events: lx.events,
        issues: lx.issues,
        multiline: lx.multiline,
    }
}

/// The bytes the lexer stops at in code; line breaks only when it records line states.
fn interesting_table(syn: &Syntax, lines: bool) -> [bool; 256] {
    let mut t = [false; 256];
    for &b in b"{}()[];\"'" {
        t[b as usize] = true;
    }
    t[b'\n' as usize] = lines;
    if syn.slash_comments || syn.block_comments || syn.regex {
        t[b'/' as usize] = true;
    }
    if syn.hash_comments || syn.preprocessor || syn.rust_raw || syn.swift {
        t[b'#' as usize] = true;
    }
    if syn.backtick != Backtick::None {
        t[b'`' as usize] = true;
    }
    if syn.jsx || syn.php {
        t[b'<' as usize] = true;
    }
    if syn.php {
        t[b'?' as usize] = true;
    }
    if syn.regex {
        t[b',' as usize] = true;
    }
    if syn.yaml {
        t[b'|' as usize] = true;
        t[b'>' as usize] = true;
    }
    t
}

/// How a literal with holes continues after a hole closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resume {
    /// JavaScript template literal, started at `start`.
    Template { start: usize },
    /// A `"…"` / `"""…"""` string with `${…}` / `\(…)` / `{…}` / `{$…}` holes.
    Str {
        start: usize,
        quotes: u8,
        escapes: bool,
        multiline: bool,
    },
    /// Inside a JSX tag's attributes, `depth` elements deep.
    JsxTag { start: usize, depth: u32 },
    /// Among a JSX element's children, `depth` elements deep.
    JsxChildren { start: usize, depth: u32 },
}

#[derive(Clone, Copy, Debug)]
enum Frame {
    Bracket(u32),
    Hole(u32, Resume),
}

/// How a scan of a literal ended.
enum Scan {
    /// Continue in code at this position.
    Done(usize),
    /// A hole opens at this position (its opening bracket byte); resume after it closes.
    Hole(usize, Resume),
}

struct Lexer<'s> {
    src: &'s [u8],
    /// `code` from `code_base` on, as far as a literal or comment was blanked (a lex
    /// resumed in the middle of a text copies only what it blanks); beyond it, code
    /// is the source's bytes (see `code_at`).
    code: Vec<u8>,
    code_base: usize,
    events: Vec<Event>,
    issues: Vec<Issue>,
    multiline: Vec<(usize, usize)>,
    frames: Vec<Frame>,
    syn: Syntax,
    stops: stops::Stops,
    /// Jump through string bodies with `memchr` (false: byte by byte; tests compare).
    fast: bool,
    /// Where lexing starts (0, or a resumed line start, see `trace`).
    start: usize,
    /// Code before `floor` is not lexed here: a look back that reaches it takes
    /// `floor_expr` as the answer of `expression_position` (see `trace`).
    floor: usize,
    floor_expr: bool,
    /// Per-line states, recorded for the syntax guard's re-lexing (see `trace`).
    tracer: Option<Box<trace::Tracer>>,
}

pub fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// JavaScript keywords after which `/` starts a regex and `<` an element.
const EXPRESSION_KEYWORDS: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
    b"default",
];

/// Hole frames deeper than this are treated as text (adversarial nesting).
const MAX_FRAMES: usize = 10_000;

impl<'s> Lexer<'s> {
    /// A lexer at the start of `src`; `tracer` records line states (the balance guard).
    /// `window`: the position a resumed lex starts at (its `code` then starts there and
    /// holds only what it blanks); None: `code` is the whole text's.
    fn new(
        src: &'s [u8],
        syn: &Syntax,
        tracer: Option<Box<trace::Tracer>>,
        window: Option<usize>,
    ) -> Lexer<'s> {
        Lexer {
            src,
            code: match window {
                None => src.to_vec(),
                Some(_) => Vec::new(),
            },
            code_base: window.unwrap_or(0).min(src.len()),
            // About one event per 12 bytes of JavaScript: growing a large vector copies it.
            events: Vec::with_capacity(src.len() / 12 + 8),
            issues: Vec::new(),
            multiline: Vec::new(),
            frames: Vec::new(),
            syn: *syn,
            stops: stops::Stops::new(interesting_table(syn, tracer.is_some()), true),
            fast: true,
            start: 0,
            floor: 0,
            floor_expr: true,
            tracer,
        }
    }

    fn byte(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    /// The code byte at `i`: the source's byte where no literal or comment was blanked.
    /// (A resumed lex never reads code before its start but the line break there.)
    fn code_at(&self, i: usize) -> u8 {
        match i.checked_sub(self.code_base).and_then(|k| self.code.get(k)) {
            Some(c) => *c,
            None => self.byte(i),
        }
    }

    /// `code[a..b]` for writing, copied in from the source as far as needed (a part
    /// before `code_base` is never written: a resumed lex keeps only its window).
    fn code_mut(&mut self, a: usize, b: usize) -> &mut [u8] {
        let b = b.min(self.src.len()).max(self.code_base);
        let a = a.clamp(self.code_base, b);
        let have = self.code_base + self.code.len();
        if have < b {
            self.code.extend_from_slice(&self.src[have..b]);
        }
        &mut self.code[a - self.code_base..b - self.code_base]
    }

    fn set_code(&mut self, i: usize, c: u8) {
        if let Some(slot) = self.code_mut(i, i + 1).first_mut() {
            *slot = c;
        }
    }

    fn line_start_of(&self, i: usize) -> usize {
        memchr::memrchr(b'\n', &self.src[..i.min(self.src.len())]).map_or(0, |p| p + 1)
    }

    /// Blanks `a..b` in `code`, keeping line breaks.
    fn blank(&mut self, a: usize, b: usize) {
        let b = b.min(self.src.len());
        if a >= b {
            return;
        }
        let mut has_newline = false;
        for c in self.code_mut(a, b) {
            if *c == b'\n' || *c == b'\r' {
                has_newline = true;
            } else {
                *c = b' ';
            }
        }
        if has_newline {
            self.note_multiline(a, b);
        }
    }

    fn note_multiline(&mut self, a: usize, b: usize) {
        if let Some(last) = self.multiline.last_mut() {
            if last.1 >= a {
                last.1 = last.1.max(b);
                return;
            }
        }
        self.multiline.push((a, b));
    }

    /// Marks `a..b` as one literal: `"` at both ends, blank between.
    fn literal(&mut self, a: usize, b: usize) {
        let b = b.min(self.src.len());
        if a >= b {
            return;
        }
        self.blank(a, b);
        self.set_code(a, b'"');
        if b - 1 > a && self.code_at(b - 1) != b'\n' && self.code_at(b - 1) != b'\r' {
            self.set_code(b - 1, b'"');
        }
    }

    fn issue(&mut self, kind: IssueKind, pos: usize, byte: u8, what: &'static str) {
        self.issues.push(Issue {
            kind,
            pos,
            byte,
            other: pos,
            what,
        });
    }

    fn parent(&self) -> u32 {
        match self.frames.last() {
            Some(Frame::Bracket(i) | Frame::Hole(i, _)) => *i,
            None => NONE,
        }
    }

    fn push_event(&mut self, pos: usize, byte: u8) -> u32 {
        let idx = self.events.len() as u32;
        let parent = self.parent();
        self.events.push(Event {
            pos: pos as u32,
            byte,
            partner: NONE,
            parent,
        });
        idx
    }

    fn run(&mut self) {
        let n = self.src.len();
        let mut i = self.start;
        if self.syn.php && i == 0 {
            i = self.php_html(0, true);
        }
        let mut window = stops::Window::default();
        while i < n {
            // Skip to the next byte that can start or end something.
            match self.stops.next(self.src, i, &mut window) {
                Some(k) => i = k,
                None => break,
            }
            let b = self.src[i];
            i = match self.step(i, b) {
                Scan::Done(next) => next.max(i + 1),
                Scan::Hole(at, resume) => self.open_hole(at, resume),
            };
            if b == b'\n' && self.tracer.is_some() && self.line_start(i) {
                // In step with the text this one was derived from: the rest lexes alike.
                return;
            }
        }
        // Every bracket still open is unclosed.
        while let Some(f) = self.frames.pop() {
            let (idx, what) = match f {
                Frame::Bracket(idx) => (idx, "bracket"),
                Frame::Hole(idx, _) => (idx, "hole"),
            };
            if let Some(e) = self.events.get(idx as usize).copied() {
                self.issue(IssueKind::Unclosed, e.pos as usize, e.byte, what);
            }
        }
    }

    fn open_hole(&mut self, at: usize, resume: Resume) -> usize {
        let byte = self.byte(at);
        if self.frames.len() >= MAX_FRAMES {
            // Too deep to follow: resume the literal as text after the opener.
            return match self.resume(at + 1, resume) {
                Scan::Done(next) => next,
                Scan::Hole(next, _) => next + 1,
            };
        }
        let idx = self.push_event(at, byte);
        self.frames.push(Frame::Hole(idx, resume));
        at + 1
    }

    /// One interesting byte in code.
    fn step(&mut self, i: usize, b: u8) -> Scan {
        let syn = self.syn;
        match b {
            b'{' | b'(' | b'[' => {
                if self.frames.len() < MAX_FRAMES {
                    let idx = self.push_event(i, b);
                    self.frames.push(Frame::Bracket(idx));
                }
                Scan::Done(i + 1)
            }
            b'}' | b')' | b']' => self.close(i, b),
            b';' => {
                self.push_event(i, b);
                Scan::Done(i + 1)
            }
            b',' => {
                self.push_event(i, b);
                Scan::Done(i + 1)
            }
            b'\n' => Scan::Done(i + 1),
            b'"' => self.double_quote(i),
            b'\'' => self.single_quote(i),
            b'`' => match syn.backtick {
                Backtick::Template => {
                    self.open_literal(i, i + 1);
                    self.template(i + 1, i)
                }
                Backtick::Raw => self.raw_until(i, i + 1, b"`", true, "raw string"),
                Backtick::Plain => self.raw_until(i, i + 1, b"`", false, "quoted name"),
                Backtick::None => Scan::Done(i + 1),
            },
            b'/' => {
                let next = self.byte(i + 1);
                if next == b'/' && syn.slash_comments {
                    Scan::Done(self.line_comment(i))
                } else if next == b'*' && syn.block_comments {
                    Scan::Done(self.block_comment(i))
                } else if syn.regex && self.expression_position(i) {
                    Scan::Done(self.regex(i))
                } else {
                    Scan::Done(i + 1)
                }
            }
            b'#' => self.hash(i),
            b'<' => {
                if syn.php && self.src[i..].starts_with(b"<<<") {
                    return Scan::Done(self.heredoc(i));
                }
                if syn.jsx && self.expression_position(i) && self.jsx_starts(i) {
                    return self.jsx_tag(i + 1, i, 1);
                }
                Scan::Done(i + 1)
            }
            b'?' => {
                if syn.php && self.byte(i + 1) == b'>' {
                    return Scan::Done(self.php_html(i + 2, false));
                }
                Scan::Done(i + 1)
            }
            b'|' | b'>' => {
                if syn.yaml {
                    return Scan::Done(self.yaml_block_scalar(i));
                }
                Scan::Done(i + 1)
            }
            _ => Scan::Done(i + 1),
        }
    }

    fn close(&mut self, i: usize, b: u8) -> Scan {
        let want = match b {
            b'}' => b'{',
            b')' => b'(',
            _ => b'[',
        };
        let top = self.frames.last().copied();
        let (top_idx, hole) = match top {
            None => {
                self.push_event(i, b);
                self.issue(IssueKind::StrayClose, i, b, "bracket");
                return Scan::Done(i + 1);
            }
            Some(Frame::Bracket(idx)) => (idx, None),
            Some(Frame::Hole(idx, r)) => (idx, Some(r)),
        };
        let open = self.events[top_idx as usize];
        if open.byte == want {
            self.frames.pop();
            let idx = self.push_event(i, b);
            self.events[top_idx as usize].partner = idx;
            self.events[idx as usize].partner = top_idx;
            self.events[idx as usize].parent = open.parent;
            return match hole {
                Some(resume) => self.resume(i + 1, resume),
                None => Scan::Done(i + 1),
            };
        }
        // The wrong kind. If it closes a bracket a few frames down (and no hole lies in
        // between), the brackets above were left open; otherwise it is stray.
        let depth = self.frames.len();
        let mut found = None;
        for k in (depth.saturating_sub(4)..depth).rev() {
            match self.frames[k] {
                Frame::Hole(..) => break,
                Frame::Bracket(idx) => {
                    if self.events[idx as usize].byte == want {
                        found = Some(k);
                        break;
                    }
                }
            }
        }
        self.issues.push(Issue {
            kind: IssueKind::Mismatch,
            pos: i,
            byte: b,
            other: open.pos as usize,
            what: "bracket",
        });
        if let Some(k) = found {
            while self.frames.len() > k + 1 {
                if let Some(Frame::Bracket(idx)) = self.frames.pop() {
                    let e = self.events[idx as usize];
                    self.issue(IssueKind::Unclosed, e.pos as usize, e.byte, "bracket");
                }
            }
            return self.close(i, b);
        }
        self.push_event(i, b);
        Scan::Done(i + 1)
    }

    fn resume(&mut self, i: usize, resume: Resume) -> Scan {
        match resume {
            Resume::Template { start } => self.template(i, start),
            Resume::Str {
                start,
                quotes,
                escapes,
                multiline,
            } => self.string_body(start, i, quotes, escapes, multiline),
            Resume::JsxTag { start, depth } => self.jsx_tag(i, start, depth),
            Resume::JsxChildren { start, depth } => self.jsx_children(i, start, depth),
        }
    }

    // ---- comments ----

    fn line_comment(&mut self, i: usize) -> usize {
        let end = memchr::memchr(b'\n', &self.src[i..]).map_or(self.src.len(), |p| i + p);
        // A trailing '\r' stays as it is.
        self.blank(i, end);
        end
    }

    fn block_comment(&mut self, i: usize) -> usize {
        let n = self.src.len();
        let mut j = i + 2;
        if !self.syn.nested_comments {
            return match memchr::memmem::find(&self.src[j..], b"*/") {
                Some(p) => {
                    self.blank(i, j + p + 2);
                    j + p + 2
                }
                None => {
                    self.blank(i, n);
                    self.issue(IssueKind::UnterminatedComment, i, b'/', "block comment");
                    n
                }
            };
        }
        let mut depth = 1usize;
        while j < n {
            match memchr::memchr2(b'*', b'/', &self.src[j..]) {
                None => break,
                Some(p) => {
                    j += p;
                    if self.src[j] == b'*' && self.byte(j + 1) == b'/' {
                        depth -= 1;
                        j += 2;
                        if depth == 0 {
                            self.blank(i, j);
                            return j;
                        }
                    } else if self.src[j] == b'/' && self.byte(j + 1) == b'*' {
                        depth += 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
            }
        }
        self.blank(i, n);
        self.issue(IssueKind::UnterminatedComment, i, b'/', "block comment");
        n
    }

    fn hash(&mut self, i: usize) -> Scan {
        let syn = self.syn;
        if syn.rust_raw {
            // r#"…"#, br#"…"#, cr#"…"#
            let prefix = self.ident_before(i);
            if matches!(prefix, b"r" | b"br" | b"cr") {
                let mut j = i;
                while self.byte(j) == b'#' {
                    j += 1;
                }
                if self.byte(j) == b'"' {
                    let hashes = j - i;
                    return self.rust_raw(i - prefix.len(), j + 1, hashes);
                }
            }
            return Scan::Done(i + 1);
        }
        if syn.swift {
            let mut j = i;
            while self.byte(j) == b'#' {
                j += 1;
            }
            if self.byte(j) == b'"' {
                let hashes = j - i;
                let triple = self.src[j..].starts_with(b"\"\"\"");
                let open = if triple { 3 } else { 1 };
                let mut close = Vec::with_capacity(3 + hashes);
                close.extend(std::iter::repeat_n(b'"', open));
                close.extend(std::iter::repeat_n(b'#', hashes));
                return self.raw_until(i, j + open, &close, triple, "raw string");
            }
            return Scan::Done(i + 1);
        }
        if syn.preprocessor && self.only_space_before(i) {
            return Scan::Done(self.directive(i));
        }
        if syn.hash_comments {
            if syn.php && self.byte(i + 1) == b'[' {
                return Scan::Done(i + 1); // PHP 8 attribute
            }
            if syn.yaml && i > 0 && !matches!(self.src[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
                return Scan::Done(i + 1);
            }
            return Scan::Done(self.line_comment(i));
        }
        Scan::Done(i + 1)
    }

    fn only_space_before(&self, i: usize) -> bool {
        let ls = self.line_start_of(i);
        self.src[ls..i].iter().all(|c| *c == b' ' || *c == b'\t')
    }

    /// A preprocessor directive through its last continued line.
    fn directive(&mut self, i: usize) -> usize {
        let n = self.src.len();
        let mut j = i;
        loop {
            let end = memchr::memchr(b'\n', &self.src[j..]).map_or(n, |p| j + p);
            let line = &self.src[j..end];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            // Comments inside the directive may hide the continuation backslash.
            if line.ends_with(b"\\") && end < n {
                j = end + 1;
                continue;
            }
            // A block comment opened on the directive line continues past it.
            let seg = &self.src[i..end];
            if let Some(p) = memchr::memmem::rfind(seg, b"/*") {
                if memchr::memmem::find(&seg[p..], b"*/").is_none() {
                    self.blank(i, i + p);
                    return self.block_comment(i + p);
                }
            }
            self.blank(i, end);
            return end;
        }
    }

    // ---- quotes ----

    /// The identifier characters directly before `i` (at most 3 bytes, all of them).
    fn ident_before(&self, i: usize) -> &'s [u8] {
        let mut s = i;
        while s > 0 && is_ident(self.src[s - 1]) && i - s < 4 {
            s -= 1;
        }
        if i - s >= 4 || (s > 0 && is_ident(self.src[s - 1])) {
            return b"";
        }
        &self.src[s..i]
    }

    fn double_quote(&mut self, i: usize) -> Scan {
        let syn = self.syn;
        let prefix = if syn.rust_raw || syn.cpp_raw || syn.python {
            self.ident_before(i)
        } else {
            b""
        };
        if syn.rust_raw {
            match prefix {
                b"r" | b"br" | b"cr" => return self.rust_raw(i - prefix.len(), i + 1, 0),
                b"b" | b"c" => return self.new_string(i - 1, i + 1, 1, true, true),
                _ => {}
            }
        }
        if syn.cpp_raw {
            match prefix {
                b"R" | b"u8R" | b"uR" | b"UR" | b"LR" => {
                    return Scan::Done(self.cpp_raw(i - prefix.len(), i + 1))
                }
                b"u8" | b"u" | b"U" | b"L" => {
                    return self.new_string(i - prefix.len(), i + 1, 1, true, false)
                }
                _ => {}
            }
        }
        let mut start = i;
        if syn.python && !prefix.is_empty() && is_python_prefix(prefix) {
            start = i - prefix.len();
        }
        if syn.csharp {
            let (at, verbatim, interpolated) = self.csharp_prefix(i);
            start = at;
            if verbatim {
                {
                    self.open_literal(start, i + 1);
                    return self.csharp_verbatim(start, i + 1, interpolated);
                }
            }
            if interpolated && !self.src[i..].starts_with(b"\"\"\"") {
                return self.new_string(start, i + 1, 1, true, false);
            }
        }
        if syn.triple && self.src[i..].starts_with(b"\"\"\"") {
            let mut q = 3;
            if syn.csharp {
                while self.byte(i + q) == b'"' {
                    q += 1;
                }
            }
            let escapes = !(syn.csharp || syn.dollar_holes);
            return self.new_string(start, i + q, q.min(255) as u8, escapes, true);
        }
        let multiline = syn.multiline_strings || syn.yaml;
        if syn.yaml && !self.yaml_scalar_start(i) {
            return Scan::Done(i + 1);
        }
        self.new_string(start, i + 1, 1, true, multiline)
    }

    fn csharp_prefix(&self, i: usize) -> (usize, bool, bool) {
        let mut s = i;
        let mut verbatim = false;
        let mut interpolated = false;
        while s > 0 && s + 3 > i && matches!(self.src[s - 1], b'@' | b'$') {
            if self.src[s - 1] == b'@' {
                verbatim = true;
            } else {
                interpolated = true;
            }
            s -= 1;
        }
        (s, verbatim, interpolated)
    }

    /// A new string literal from `start`, content from `j` (see `string_body`).
    fn new_string(
        &mut self,
        start: usize,
        j: usize,
        quotes: u8,
        escapes: bool,
        multiline: bool,
    ) -> Scan {
        self.open_literal(start, j);
        self.string_body(start, j, quotes, escapes, multiline)
    }

    /// The body of a `"`-delimited string opened by `quotes` quote bytes (1 or ≥3),
    /// content starting at `j`. Holes per language; `escapes`: backslash escapes.
    fn string_body(
        &mut self,
        start: usize,
        mut j: usize,
        quotes: u8,
        escapes: bool,
        multiline: bool,
    ) -> Scan {
        let n = self.src.len();
        let syn = self.syn;
        let q = quotes as usize;
        let interp_csharp = syn.csharp && start < n && self.src[start..j].contains(&b'$');
        // Without holes only a backslash, a quote or a line break can matter.
        let jump = self.fast && !syn.dollar_holes && !interp_csharp && !syn.php;
        let seg = j;
        while j < n {
            if jump {
                match memchr::memchr3(b'\\', b'"', b'\n', &self.src[j..]) {
                    Some(k) => j += k,
                    None => break,
                }
            }
            let c = self.src[j];
            match c {
                b'\\' if escapes => {
                    if syn.swift && self.byte(j + 1) == b'(' {
                        return self.hole_in_string(start, seg, j + 1, quotes, escapes, multiline);
                    }
                    j += 2;
                }
                b'"' => {
                    if q == 1 {
                        self.close_piece(seg, j + 1, true);
                        return Scan::Done(j + 1);
                    }
                    let mut run = 0;
                    while self.byte(j + run) == b'"' {
                        run += 1;
                    }
                    if run >= q {
                        let end = j + run;
                        self.close_piece(seg, end, true);
                        return Scan::Done(end);
                    }
                    j += run;
                }
                b'\n' if !multiline && q == 1 => {
                    let backslash = j > 0 && self.src[j - 1] == b'\\'
                        || j > 1 && self.src[j - 1] == b'\r' && self.src[j - 2] == b'\\';
                    if !backslash {
                        self.close_piece(seg, j, false);
                        self.issue(IssueKind::UnterminatedString, start, b'"', "string");
                        return Scan::Done(j);
                    }
                    j += 1;
                }
                b'$' if syn.dollar_holes && self.byte(j + 1) == b'{' => {
                    return self.hole_in_string(start, seg, j + 1, quotes, escapes, multiline);
                }
                b'{' if interp_csharp => {
                    if self.byte(j + 1) == b'{' {
                        j += 2;
                    } else {
                        return self.hole_in_string(start, seg, j, quotes, escapes, multiline);
                    }
                }
                b'{' if syn.php && self.byte(j + 1) == b'$' => {
                    return self.hole_in_string(start, seg, j, quotes, escapes, multiline);
                }
                _ => j += 1,
            }
        }
        self.close_piece(seg, n, false);
        self.issue(IssueKind::UnterminatedString, start, b'"', "string");
        Scan::Done(n)
    }

    fn hole_in_string(
        &mut self,
        start: usize,
        seg: usize,
        at: usize,
        quotes: u8,
        escapes: bool,
        multiline: bool,
    ) -> Scan {
        self.blank(seg, at);
        Scan::Hole(
            at,
            Resume::Str {
                start,
                quotes,
                escapes,
                multiline,
            },
        )
    }

    /// Starts a literal at `start` whose content starts at `content`: `"` at its first
    /// byte, the rest of the opening delimiter blanked.
    fn open_literal(&mut self, start: usize, content: usize) {
        if start < self.src.len() {
            self.set_code(start, b'"');
        }
        self.blank(start + 1, content);
    }

    /// Blanks the piece `seg..end` of a literal; when it ends the literal, its last
    /// byte becomes `"`.
    fn close_piece(&mut self, seg: usize, end: usize, closed: bool) {
        self.blank(seg, end);
        if closed && end > seg && end <= self.src.len() {
            self.set_code(end - 1, b'"');
        }
    }

    fn csharp_verbatim(&mut self, start: usize, mut j: usize, interpolated: bool) -> Scan {
        let n = self.src.len();
        let seg = j;
        while j < n {
            match self.src[j] {
                b'"' if self.byte(j + 1) == b'"' => j += 2,
                b'"' => {
                    self.close_piece(seg, j + 1, true);
                    return Scan::Done(j + 1);
                }
                b'{' if interpolated => {
                    if self.byte(j + 1) == b'{' {
                        j += 2;
                    } else {
                        // Verbatim holes resume as a multi-line string without escapes.
                        self.blank(seg, j);
                        return Scan::Hole(
                            j,
                            Resume::Str {
                                start,
                                quotes: 1,
                                escapes: false,
                                multiline: true,
                            },
                        );
                    }
                }
                _ => j += 1,
            }
        }
        self.close_piece(seg, n, false);
        self.issue(
            IssueKind::UnterminatedString,
            start,
            b'"',
            "verbatim string",
        );
        Scan::Done(n)
    }

    /// A literal from `start` whose content starts at `j` and ends with `close`.
    fn raw_until(
        &mut self,
        start: usize,
        j: usize,
        close: &[u8],
        multiline: bool,
        what: &'static str,
    ) -> Scan {
        let n = self.src.len();
        let hay = &self.src[j.min(n)..];
        let found = memchr::memmem::find(hay, close);
        if !multiline {
            let nl = memchr::memchr(b'\n', hay);
            match (found, nl) {
                (Some(p), Some(l)) if p < l => {}
                (Some(_), None) => {}
                _ => {
                    // Not closed on its line: a stray quote, left as code.
                    return Scan::Done(start + 1);
                }
            }
        }
        match found {
            Some(p) => {
                let end = j + p + close.len();
                self.literal(start, end);
                Scan::Done(end)
            }
            None => {
                self.literal(start, n);
                self.issue(IssueKind::UnterminatedString, start, self.src[start], what);
                Scan::Done(n)
            }
        }
    }

    fn rust_raw(&mut self, start: usize, j: usize, hashes: usize) -> Scan {
        let mut close = Vec::with_capacity(hashes + 1);
        close.push(b'"');
        close.extend(std::iter::repeat_n(b'#', hashes));
        self.raw_until(start, j, &close, true, "raw string")
    }

    /// C++ `R"delim( … )delim"`, content starting at `j` (after the quote).
    fn cpp_raw(&mut self, start: usize, j: usize) -> usize {
        let n = self.src.len();
        let mut k = j;
        while k < n && k - j <= 16 && !matches!(self.src[k], b'(' | b'"' | b'\n' | b' ' | b'\\') {
            k += 1;
        }
        if self.byte(k) != b'(' {
            // Not a raw string after all: an ordinary one.
            return match self.new_string(start, j, 1, true, false) {
                Scan::Done(e) | Scan::Hole(e, _) => e,
            };
        }
        let mut close = Vec::with_capacity(k - j + 2);
        close.push(b')');
        close.extend_from_slice(&self.src[j..k]);
        close.push(b'"');
        match self.raw_until(start, k + 1, &close, true, "raw string") {
            Scan::Done(e) | Scan::Hole(e, _) => e,
        }
    }

    fn single_quote(&mut self, i: usize) -> Scan {
        let syn = self.syn;
        if syn.yaml {
            if !self.yaml_scalar_start(i) {
                return Scan::Done(i + 1);
            }
            return Scan::Done(self.yaml_single(i));
        }
        match syn.single_quote {
            Quote::String => {
                if syn.python {
                    let prefix = self.ident_before(i);
                    let start = if !prefix.is_empty() && is_python_prefix(prefix) {
                        i - prefix.len()
                    } else {
                        i
                    };
                    if self.src[i..].starts_with(b"'''") {
                        return self.single_body(start, i + 3, 3, true);
                    }
                    return self.single_body(start, i + 1, 1, false);
                }
                self.single_body(i, i + 1, 1, syn.multiline_strings)
            }
            Quote::Char | Quote::CharOrLifetime => {
                if syn.digit_separators && i > 0 && self.src[i - 1].is_ascii_alphanumeric() {
                    let mut s = i;
                    while s > 0 && (is_ident(self.src[s - 1]) || self.src[s - 1] == b'\'') {
                        s -= 1;
                    }
                    if self.src[s].is_ascii_digit() {
                        return Scan::Done(i + 1);
                    }
                }
                match self.char_literal_end(i) {
                    Some(end) => {
                        self.literal(i, end);
                        Scan::Done(end)
                    }
                    // A lifetime, a label, or an apostrophe: code.
                    None => Scan::Done(i + 1),
                }
            }
        }
    }

    /// The end of a character literal starting at `i`, if one does.
    fn char_literal_end(&self, i: usize) -> Option<usize> {
        let n = self.src.len();
        let j = i + 1;
        if j >= n {
            return None;
        }
        if self.src[j] == b'\\' {
            // An escape: close within a short distance on this line.
            let mut k = j + 2;
            while k < n && k < j + 14 {
                match self.src[k] {
                    b'\'' => return Some(k + 1),
                    b'\n' => return None,
                    _ => k += 1,
                }
            }
            return None;
        }
        if matches!(self.src[j], b'\n' | b'\r' | b'\'') {
            return None;
        }
        let len = utf8_len(self.src[j]);
        if self.byte(j + len) == b'\'' {
            return Some(j + len + 1);
        }
        if self.syn.single_quote == Quote::CharOrLifetime {
            return None;
        }
        // Multi-character literals ('abcd') in C-like languages.
        let mut k = j + len;
        while k < n && k < j + 8 {
            match self.src[k] {
                b'\'' => return Some(k + 1),
                b'\n' | b'"' | b';' | b'{' | b'}' | b'(' | b')' => return None,
                _ => k += 1,
            }
        }
        None
    }

    /// A `'`-quoted string with backslash escapes, `quotes` long delimiters.
    fn single_body(&mut self, start: usize, mut j: usize, quotes: usize, multiline: bool) -> Scan {
        let n = self.src.len();
        while j < n {
            if self.fast {
                // Only a backslash, a quote or a line break can matter.
                match memchr::memchr3(b'\\', b'\'', b'\n', &self.src[j..]) {
                    Some(k) => j += k,
                    None => break,
                }
            }
            match self.src[j] {
                b'\\' => j += 2,
                b'\'' => {
                    if quotes == 1 {
                        self.literal(start, j + 1);
                        return Scan::Done(j + 1);
                    }
                    if self.src[j..].starts_with(b"'''") {
                        self.literal(start, j + 3);
                        return Scan::Done(j + 3);
                    }
                    j += 1;
                }
                b'\n' if !multiline => {
                    let backslash = j > 0 && self.src[j - 1] == b'\\'
                        || j > 1 && self.src[j - 1] == b'\r' && self.src[j - 2] == b'\\';
                    if !backslash {
                        self.literal(start, j);
                        self.issue(IssueKind::UnterminatedString, start, b'\'', "string");
                        return Scan::Done(j);
                    }
                    j += 1;
                }
                _ => j += 1,
            }
        }
        self.literal(start, n);
        self.issue(IssueKind::UnterminatedString, start, b'\'', "string");
        Scan::Done(n)
    }

    // ---- JavaScript ----

    /// Whether an expression may start at `i`, judged by the previous code token.
    fn expression_position(&self, i: usize) -> bool {
        let mut k = i;
        while k > self.floor && matches!(self.code_at(k - 1), b' ' | b'\t' | b'\n' | b'\r') {
            k -= 1;
        }
        if k == self.floor {
            return self.floor == 0 || self.floor_expr;
        }
        let c = self.code_at(k - 1);
        if is_ident(c) {
            let mut s = k - 1;
            while s > 0 && is_ident(self.code_at(s - 1)) {
                s -= 1;
            }
            let is_word = |w: &[u8]| {
                w.len() == k - s && w.iter().enumerate().all(|(j, c)| self.code_at(s + j) == *c)
            };
            // `x.return / 2` is a property, not the keyword.
            let after_dot = s > 0 && self.code_at(s - 1) == b'.';
            return !after_dot && EXPRESSION_KEYWORDS.iter().any(|w| is_word(w));
        }
        !matches!(c, b')' | b']' | b'"' | b'\'' | b'`')
    }

    fn regex(&mut self, i: usize) -> usize {
        let n = self.src.len();
        let mut j = i + 1;
        let mut class = false;
        while j < n {
            match self.src[j] {
                b'\\' => j += 2,
                b'[' => {
                    class = true;
                    j += 1
                }
                b']' => {
                    class = false;
                    j += 1
                }
                b'/' if !class => {
                    j += 1;
                    while j < n && self.src[j].is_ascii_alphabetic() {
                        j += 1;
                    }
                    self.literal(i, j);
                    return j;
                }
                b'\n' | b'\r' => break,
                _ => j += 1,
            }
        }
        // Not closed on its line: it was a division after all.
        i + 1
    }

    fn template(&mut self, mut j: usize, start: usize) -> Scan {
        let n = self.src.len();
        let seg = j;
        while j < n {
            match memchr::memchr3(b'`', b'\\', b'$', &self.src[j..]) {
                None => break,
                Some(p) => {
                    j += p;
                    match self.src[j] {
                        b'\\' => j += 2,
                        b'`' => {
                            self.close_piece(seg, j + 1, true);
                            return Scan::Done(j + 1);
                        }
                        _ => {
                            if self.byte(j + 1) == b'{' {
                                self.blank(seg, j + 1);
                                return Scan::Hole(j + 1, Resume::Template { start });
                            }
                            j += 1;
                        }
                    }
                }
            }
        }
        self.blank(seg.min(n), n);
        self.issue(
            IssueKind::UnterminatedString,
            start,
            b'`',
            "template literal",
        );
        Scan::Done(n)
    }

    /// Whether `<` at `i` opens a JSX element (or fragment).
    fn jsx_starts(&self, i: usize) -> bool {
        let c = self.byte(i + 1);
        if c == b'>' {
            return true;
        }
        if !(c.is_ascii_alphabetic() || c == b'_' || c == b'$') {
            return false;
        }
        let mut k = i + 1;
        while k < self.src.len()
            && (is_ident(self.src[k]) || matches!(self.src[k], b'.' | b':' | b'-'))
        {
            k += 1;
        }
        while k < self.src.len() && matches!(self.src[k], b' ' | b'\t' | b'\n' | b'\r') {
            k += 1;
        }
        let next = self.byte(k);
        is_ident(next) && next != b'$' || matches!(next, b'>' | b'/' | b'{')
    }

    /// Inside a tag, after `<` (or after an attribute hole closed).
    fn jsx_tag(&mut self, mut j: usize, start: usize, depth: u32) -> Scan {
        let n = self.src.len();
        while j < n {
            match self.src[j] {
                b'/' if self.byte(j + 1) == b'>' => {
                    let depth = depth - 1;
                    if depth == 0 {
                        return Scan::Done(j + 2);
                    }
                    return self.jsx_children(j + 2, start, depth);
                }
                b'>' => return self.jsx_children(j + 1, start, depth),
                b'{' => return Scan::Hole(j, Resume::JsxTag { start, depth }),
                q @ (b'"' | b'\'') => {
                    let end = memchr::memchr(q, &self.src[j + 1..]).map_or(n, |p| j + 1 + p + 1);
                    self.literal(j, end);
                    j = end;
                }
                _ => j += 1,
            }
        }
        self.issue(IssueKind::UnterminatedString, start, b'<', "JSX element");
        Scan::Done(n)
    }

    fn jsx_children(&mut self, mut j: usize, start: usize, mut depth: u32) -> Scan {
        let n = self.src.len();
        let mut seg = j;
        while j < n {
            match memchr::memchr2(b'{', b'<', &self.src[j..]) {
                None => break,
                Some(p) => {
                    j += p;
                    self.blank(seg, j);
                    if self.src[j] == b'{' {
                        return Scan::Hole(j, Resume::JsxChildren { start, depth });
                    }
                    if self.byte(j + 1) == b'/' {
                        // A closing tag.
                        let end = memchr::memchr(b'>', &self.src[j..]).map_or(n, |p| j + p + 1);
                        depth -= 1;
                        if depth == 0 {
                            return Scan::Done(end);
                        }
                        j = end;
                        seg = j;
                        continue;
                    }
                    if self.jsx_starts(j) {
                        return self.jsx_tag(j + 1, start, depth.saturating_add(1));
                    }
                    j += 1;
                    seg = j;
                }
            }
        }
        self.blank(seg.min(n), n);
        self.issue(IssueKind::UnterminatedString, start, b'<', "JSX element");
        Scan::Done(n)
    }

    // ---- PHP ----

    /// Template text (outside `<?php … ?>`) from `i`: blanked up to the next `<?`.
    fn php_html(&mut self, i: usize, at_file_start: bool) -> usize {
        let n = self.src.len();
        if at_file_start {
            // A file that does not start with `<?` but has one later starts as HTML;
            // one without any `<?` is taken as PHP code (a fragment).
            let head = &self.src[..n.min(64)];
            let trimmed = head
                .iter()
                .position(|c| !c.is_ascii_whitespace() && *c != 0xEF && *c != 0xBB && *c != 0xBF)
                .unwrap_or(0);
            if self.src[trimmed..].starts_with(b"<?")
                || memchr::memmem::find(self.src, b"<?").is_none()
            {
                return if self.src[trimmed..].starts_with(b"<?") {
                    trimmed + 2
                } else {
                    0
                };
            }
        }
        match memchr::memmem::find(&self.src[i.min(n)..], b"<?") {
            Some(p) => {
                self.blank(i, i + p);
                i + p + 2
            }
            None => {
                self.blank(i, n);
                n
            }
        }
    }

    fn heredoc(&mut self, i: usize) -> usize {
        let n = self.src.len();
        let mut j = i + 3;
        while matches!(self.byte(j), b' ' | b'\t') {
            j += 1;
        }
        let quoted = matches!(self.byte(j), b'"' | b'\'');
        if quoted {
            j += 1;
        }
        let s = j;
        while j < n && is_ident(self.src[j]) {
            j += 1;
        }
        if j == s {
            return i + 1;
        }
        let id = self.src[s..j].to_vec();
        // The body starts on the next line; it ends at a line that starts (after
        // indentation) with the identifier, not followed by an identifier character.
        let Some(nl) = memchr::memchr(b'\n', &self.src[j..]) else {
            return i + 1;
        };
        let mut line = j + nl + 1;
        while line < n {
            let mut k = line;
            while matches!(self.byte(k), b' ' | b'\t') {
                k += 1;
            }
            if self.src[k..].starts_with(&id) && !is_ident(self.byte(k + id.len())) {
                let end = k + id.len();
                self.literal(i, end);
                return end;
            }
            line = match memchr::memchr(b'\n', &self.src[line..]) {
                Some(p) => line + p + 1,
                None => n,
            };
        }
        self.literal(i, n);
        self.issue(IssueKind::UnterminatedString, i, b'<', "heredoc");
        n
    }

    // ---- YAML ----

    /// Whether a quote at `i` opens a scalar (not an apostrophe inside plain text).
    fn yaml_scalar_start(&self, i: usize) -> bool {
        let mut k = i;
        while k > 0 && matches!(self.src[k - 1], b' ' | b'\t') {
            k -= 1;
        }
        k == 0
            || matches!(
                self.src[k - 1],
                b'\n' | b':' | b'-' | b'[' | b'{' | b',' | b'?'
            )
    }

    fn yaml_single(&mut self, i: usize) -> usize {
        let n = self.src.len();
        let mut j = i + 1;
        while j < n {
            if self.src[j] == b'\'' {
                if self.byte(j + 1) == b'\'' {
                    j += 2;
                    continue;
                }
                self.literal(i, j + 1);
                return j + 1;
            }
            j += 1;
        }
        self.literal(i, n);
        self.issue(IssueKind::UnterminatedString, i, b'\'', "string");
        n
    }

    /// `key: |` / `key: >-`: the following more-indented lines are text.
    fn yaml_block_scalar(&mut self, i: usize) -> usize {
        if !self.yaml_scalar_start(i) {
            return i + 1;
        }
        let n = self.src.len();
        let eol = memchr::memchr(b'\n', &self.src[i..]).map_or(n, |p| i + p);
        let rest = &self.src[i + 1..eol];
        let header_ok = rest
            .iter()
            .all(|c| matches!(c, b'-' | b'+' | b'0'..=b'9' | b' ' | b'\t' | b'\r'))
            || rest.iter().position(|c| *c == b'#').is_some_and(|p| {
                rest[..p]
                    .iter()
                    .all(|c| matches!(c, b'-' | b'+' | b'0'..=b'9' | b' ' | b'\t'))
            });
        if !header_ok || eol >= n {
            return i + 1;
        }
        let ls = self.line_start_of(i);
        let indent = self.src[ls..].iter().take_while(|c| **c == b' ').count();
        let mut line = eol + 1;
        let mut end = eol;
        while line < n {
            let le = memchr::memchr(b'\n', &self.src[line..]).map_or(n, |p| line + p);
            let text = &self.src[line..le];
            let ind = text.iter().take_while(|c| **c == b' ').count();
            let blank = text.iter().all(|c| c.is_ascii_whitespace());
            if !blank && ind <= indent {
                break;
            }
            end = le;
            line = le + 1;
        }
        if end > eol {
            self.blank(eol + 1, end);
        }
        end.max(i + 1)
    }
}

fn is_python_prefix(p: &[u8]) -> bool {
    let lower: Vec<u8> = p.iter().map(|c| c.to_ascii_lowercase()).collect();
    matches!(
        lower.as_slice(),
        b"r" | b"u" | b"b" | b"f" | b"t" | b"br" | b"rb" | b"fr" | b"rf" | b"tr" | b"rt"
    )
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}
