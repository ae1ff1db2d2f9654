//! Indentation blocks: Python and YAML.
//!
//! A block is its header (a logical line: continuation lines inside brackets, after
//! a backslash or inside a triple-quoted string belong to it) and every following line
//! indented deeper. Blank lines inside are part of it; so are comment lines indented
//! deeper. A comment line indented less does not end the block (Python ignores it)
//! but is not its last line either. Decorators above a `def` or `class` are their own
//! lines: the block of a `def` starts at `def`, the block of a decorator line spans
//! the decorators and the definition.

use super::lex::pieces::{Item, Pieces, Shift};
use super::lex::NONE;
use super::{Analysis, BlockError, Event, Kind, Symbol};
use crate::text::scan;

/// Indentation width of 0-based line `l` (a tab advances to the next multiple of 8).
fn indent(a: &Analysis, l: usize) -> usize {
    let mut w = 0;
    for c in a.text.line(l).bytes() {
        match c {
            b' ' => w += 1,
            b'\t' => w = (w / 8 + 1) * 8,
            b'\x0c' => {}
            _ => break,
        }
    }
    w
}

/// Whether 0-based line `l` continues the logical line before it.
fn is_continuation(a: &Analysis, l: usize) -> bool {
    a.continuation
        .get_or_init(|| continuation_flags(a))
        .get(l)
        .copied()
        .unwrap_or(false)
}

/// For every line: whether it starts inside a literal or comment spanning lines,
/// inside brackets, or after a backslash. One pass over lines, spans and events.
fn continuation_flags(a: &Analysis) -> Vec<bool> {
    let n = a.text.line_count();
    let mut flags = Vec::with_capacity(n);
    if n > 0 {
        flags.push(false);
    }
    let mut scan = ContinuationScan::new(a);
    // Line starts walked here, not asked of the text line by line.
    let (src, code) = (a.text.as_str().as_bytes(), a.code());
    let mut prev = 0;
    scan::for_each_byte(src, b'\n', |nl| {
        let pos = nl + 1;
        if pos >= src.len() {
            return;
        }
        flags.push(scan.continues(pos, code.get(prev..pos).unwrap_or(b"")));
        prev = pos;
    });
    flags
}

/// [`continuation_flags`] asking the text for each line: the plain reading it is
/// tested against.
#[cfg(test)]
fn continuation_flags_plain(a: &Analysis) -> Vec<bool> {
    let mut flags = vec![false; a.text.line_count()];
    let mut scan = ContinuationScan::new(a);
    for (l, flag) in flags.iter_mut().enumerate().skip(1) {
        *flag = scan.continues(a.text.line_start(l), a.code_line(l - 1));
    }
    flags
}

/// The spans and brackets open at increasing line starts, for [`continuation_flags`].
struct ContinuationScan<'a> {
    spans: &'a [(usize, usize)],
    events: &'a [Event],
    span: usize,
    event: usize,
    /// Open brackets at the current position, as event indices.
    open: Vec<usize>,
}

impl<'a> ContinuationScan<'a> {
    fn new(a: &'a Analysis) -> Self {
        ContinuationScan {
            spans: &a.lx.multiline,
            events: a.events(),
            span: 0,
            event: 0,
            open: Vec::new(),
        }
    }

    /// Whether the line starting at `pos` (after the line whose code is `prev_code`)
    /// continues the logical line before it; `pos` increases from call to call.
    fn continues(&mut self, pos: usize, prev_code: &[u8]) -> bool {
        let (spans, ev) = (self.spans, self.events);
        while self.span < spans.len() && spans[self.span].1 <= pos {
            self.span += 1;
        }
        let in_span = self.span < spans.len() && spans[self.span].0 < pos;
        while self.event < ev.len() && (ev[self.event].pos as usize) < pos {
            let e = ev[self.event];
            if e.is_open() {
                self.open.push(self.event);
            } else if matches!(e.byte, b')' | b']' | b'}') && e.partner != NONE {
                while let Some(top) = self.open.pop() {
                    if top == e.partner as usize {
                        break;
                    }
                }
            }
            self.event += 1;
        }
        let in_brackets = self.open.iter().any(|&o| {
            let p = ev[o].partner;
            p == NONE || ev[p as usize].pos as usize >= pos
        });
        in_span || in_brackets || trim_end(prev_code).ends_with(b"\\")
    }
}

/// The last line of the logical line starting at `l`.
fn logical_end(a: &Analysis, l: usize) -> usize {
    let mut e = l;
    while e + 1 < a.text.line_count() && is_continuation(a, e + 1) {
        e += 1;
    }
    e
}

/// An opening bracket on lines `first..=last` that is never closed.
fn unclosed_in(a: &Analysis, first: usize, last: usize) -> Option<BlockError> {
    let r = a.text.lines_range(first, last);
    let ev = a.events();
    let mut k = a.event_at(r.start);
    while k < ev.len() && (ev[k].pos as usize) < r.end {
        let e = ev[k];
        if e.is_open() && e.partner == NONE {
            return Some(BlockError::Unmatched {
                line: a.line_of(e.pos as usize),
                reason: a.unclosed_reason(e.pos as usize),
            });
        }
        k += 1;
    }
    None
}

/// The last line of the body under a header at `indent_h` whose logical line ends at
/// `le` (le itself when nothing is indented deeper). `seq_items`: YAML sequences at
/// the key's own indentation count as its body.
fn body_end(a: &Analysis, le: usize, indent_h: usize, seq_items: bool) -> usize {
    let n = a.text.line_count();
    let mut last = le;
    let mut i = le + 1;
    while i < n {
        if is_continuation(a, i) {
            last = i;
            i += 1;
            continue;
        }
        let raw = a.text.line(i);
        if raw.trim().is_empty() {
            i += 1;
            continue;
        }
        let ind = indent(a, i);
        let code_blank = a.code_line(i).trim_ascii().is_empty();
        if code_blank {
            // a comment line
            if ind > indent_h {
                last = i;
            }
            i += 1;
            continue;
        }
        let deeper = ind > indent_h
            || seq_items && ind == indent_h && a.code_line(i).trim_ascii_start().starts_with(b"-");
        if !deeper {
            break;
        }
        last = i;
        i += 1;
    }
    last
}

fn trimmed_code<'x>(a: &'x Analysis, l: usize) -> &'x [u8] {
    a.code_line(l).trim_ascii()
}

fn ends_with_colon(a: &Analysis, first: usize, last: usize) -> bool {
    (first..=last)
        .rev()
        .find_map(|l| trimmed_code(a, l).last().copied())
        .is_some_and(|c| c == b':')
}

pub(super) fn python_block(a: &Analysis, line: usize) -> Result<(usize, usize), BlockError> {
    let n = a.text.line_count();
    let mut header = line;
    // A decorator line opens the decorated definition.
    if trimmed_code(a, line).starts_with(b"@") {
        let mut l = line;
        while l < n {
            let c = trimmed_code(a, l);
            if c.starts_with(b"@") || c.is_empty() {
                l = logical_end(a, l) + 1;
                continue;
            }
            break;
        }
        if l >= n || !is_def(trimmed_code(a, l)) {
            return Err(BlockError::NoBlock { line });
        }
        header = l;
    }
    let le = logical_end(a, header);
    if let Some(err) = unclosed_in(a, line, le) {
        return Err(err);
    }
    let last = if ends_with_colon(a, header, le) {
        body_end(a, le, indent(a, header), false)
    } else if le > line {
        le
    } else {
        return Err(BlockError::NoBlock { line });
    };
    a.check_region(line, last)?;
    Ok((line, last))
}

pub(super) fn yaml_block(a: &Analysis, line: usize) -> Result<(usize, usize), BlockError> {
    let le = logical_end(a, line);
    if let Some(err) = unclosed_in(a, line, le) {
        return Err(err);
    }
    let seq = trimmed_code(a, le).ends_with(b":");
    let last = body_end(a, le, indent(a, line), seq);
    if last == line {
        return Err(BlockError::NoBlock { line });
    }
    a.check_region(line, last)?;
    Ok((line, last))
}

fn is_def(code: &[u8]) -> bool {
    code.starts_with(b"def ")
        || code.starts_with(b"class ")
        || code.starts_with(b"async def ")
        || code.starts_with(b"def\t")
        || code.starts_with(b"class\t")
}

/// `def name`, `async def name`, `class Name` at the start of `code`: kind and name range.
fn def_name(code: &[u8]) -> Option<(Kind, usize, usize)> {
    let (kind, rest) = if let Some(r) = code.strip_prefix(b"async") {
        let r2 = r.trim_ascii_start();
        if r2.len() == r.len() {
            return None;
        }
        (Kind::Function, r2.strip_prefix(b"def")?)
    } else if let Some(r) = code.strip_prefix(b"def") {
        (Kind::Function, r)
    } else if let Some(r) = code.strip_prefix(b"class") {
        (Kind::Class, r)
    } else {
        return None;
    };
    let name = rest.trim_ascii_start();
    if name.len() == rest.len() {
        return None;
    }
    let off = code.len() - name.len();
    let len = name
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c >= 0x80)
        .count();
    if len == 0 {
        return None;
    }
    Some((kind, off, off + len))
}

fn python_symbol(a: &Analysis, l: usize, stack: &[(usize, Kind, String)]) -> Option<Symbol> {
    if is_continuation(a, l) {
        return None;
    }
    let line = a.code_line(l);
    let lead = line.len() - line.trim_ascii_start().len();
    let (mut kind, s, e) = def_name(&line[lead..])?;
    let name = String::from_utf8_lossy(&line[lead + s..lead + e]).into_owned();
    let ind = indent(a, l);
    let parent = stack.iter().rev().find(|(i, _, _)| *i < ind);
    let container = match parent {
        Some((_, Kind::Class, n)) => {
            if kind == Kind::Function {
                kind = Kind::Method;
            }
            Some(n.clone())
        }
        _ => None,
    };
    let end_line = python_block(a, l).map(|(_, e)| e).unwrap_or(l);
    let start = a.text.line_start(l) + lead;
    let body = a.text.line_range(logical_end(a, l)).end;
    Some(Symbol {
        name,
        kind,
        start_line: l,
        end_line,
        name_line: l,
        container,
        start,
        end: a.text.line_range(end_line).end,
        body,
    })
}

pub(super) fn python_outline(a: &Analysis) -> Vec<Symbol> {
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Kind, String)> = Vec::new();
    for l in 0..a.text.line_count() {
        let code = trimmed_code(a, l);
        if code.is_empty() {
            continue;
        }
        let ind = indent(a, l);
        if !is_continuation(a, l) {
            while stack.last().is_some_and(|(i, _, _)| *i >= ind) {
                stack.pop();
            }
        }
        if !(code.starts_with(b"def") || code.starts_with(b"class") || code.starts_with(b"async")) {
            continue;
        }
        if let Some(s) = python_symbol(a, l, &stack) {
            let kind = if s.kind == Kind::Class {
                Kind::Class
            } else {
                Kind::Function
            };
            stack.push((ind, kind, s.name.clone()));
            out.push(s);
        }
    }
    out
}

/// `def name` / `class name` lines found by searching the name, not every line.
pub(super) fn python_find(a: &Analysis, name: &str) -> Vec<Symbol> {
    let code = a.code();
    let finder = memchr::memmem::Finder::new(name.as_bytes());
    let mut out: Vec<Symbol> = Vec::new();
    let mut at = 0;
    while let Some(p) = finder.find(&code[at..]) {
        let hit = at + p;
        at = hit + name.len().max(1);
        let l = a.line_of(hit);
        if out.last().is_some_and(|s| s.start_line == l) {
            continue;
        }
        let line = a.code_line(l);
        let lead = line.len() - line.trim_ascii_start().len();
        let Some((_, s, e)) = def_name(&line[lead..]) else {
            continue;
        };
        if a.text.line_start(l) + lead + s != hit || e - s != name.len() {
            continue;
        }
        // The enclosing definitions, found by walking up less-indented lines.
        let stack = python_parents(a, l);
        if let Some(sym) = python_symbol(a, l, &stack) {
            out.push(sym);
        }
    }
    out
}

/// The chain of `def`/`class` lines enclosing line `l`, outermost first.
fn python_parents(a: &Analysis, l: usize) -> Vec<(usize, Kind, String)> {
    let mut chain = Vec::new();
    let mut ind = indent(a, l);
    let mut k = l;
    while k > 0 && ind > 0 {
        k -= 1;
        let code = trimmed_code(a, k);
        if code.is_empty() || is_continuation(a, k) {
            continue;
        }
        let i = indent(a, k);
        if i < ind {
            ind = i;
            if let Some((kind, s, e)) = def_name(code) {
                let name = String::from_utf8_lossy(&code[s..e]).into_owned();
                let kind = if kind == Kind::Class {
                    Kind::Class
                } else {
                    Kind::Function
                };
                chain.push((i, kind, name));
            }
        }
    }
    chain.reverse();
    chain
}

pub(super) fn yaml_outline(a: &Analysis) -> Vec<Symbol> {
    let mut out = Vec::new();
    for l in 0..a.text.line_count() {
        let code = a.code_line(l);
        if code.is_empty() || code[0].is_ascii_whitespace() || code[0] == b'-' || code[0] == b'#' {
            continue;
        }
        let Some(colon) = code.iter().position(|c| *c == b':') else {
            continue;
        };
        let Ok((_, end)) = yaml_block(a, l) else {
            continue;
        };
        let key = String::from_utf8_lossy(
            &a.text.as_str().as_bytes()[a.text.line_start(l)..a.text.line_start(l) + colon],
        )
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .to_string();
        out.push(Symbol {
            name: key,
            kind: Kind::Key,
            start_line: l,
            end_line: end,
            name_line: l,
            container: None,
            start: a.text.line_start(l),
            end: a.text.line_range(end).end,
            body: a.text.line_start(l),
        });
    }
    out
}

/// What Python's indentation rule reads of one line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineInfo {
    /// Indentation width (tabs to the next multiple of 8).
    pub width: u32,
    /// A logical line starts here (not blank, not a comment, not a continuation).
    pub start: bool,
    /// The logical line starting here ends with `:`.
    pub header: bool,
}

/// Every line's [`LineInfo`], in one pass over the lines (a logical line's header flag
/// is its last code byte so far, set when the next logical line starts). Reads as
/// [`line_info_plain`] does, line by line with the helpers above (tested).
pub(super) fn line_info(a: &Analysis) -> Vec<LineInfo> {
    let cont = a.continuation.get_or_init(|| continuation_flags(a));
    read_lines(a, |l, _, _| cont.get(l).copied().unwrap_or(false))
}

/// [`line_info`] of a text the lexer read without an issue, from the line starts where
/// it was in code (`code_starts`: position and open brackets, ascending; the balance
/// guard's checkpoints) instead of the block finder's continuation pass. Without an
/// issue, a line continues the one before exactly when it starts inside a literal
/// (no line start in code there), inside brackets, or after a backslash (tested equal).
pub(super) fn line_info_lexed(
    a: &Analysis,
    code_starts: impl Iterator<Item = (usize, u32)>,
) -> Vec<LineInfo> {
    let mut starts = code_starts.peekable();
    read_lines(a, |l, pos, before| {
        if l == 0 {
            return false;
        }
        while starts.next_if(|&(p, _)| p < pos).is_some() {}
        let clean = starts
            .peek()
            .is_some_and(|&(p, depth)| p == pos && depth == 0);
        !clean || before.ends_with(b"\\")
    })
}

/// The one pass of [`line_info`]; `continues(l, start, code)`: whether line `l`, which
/// starts at byte `start`, continues the line before, whose code without trailing
/// whitespace is `code`. Lines are split here (after each `\n`, as `Text` does), not
/// asked of the text one by one.
fn read_lines(
    a: &Analysis,
    mut continues: impl FnMut(usize, usize, &[u8]) -> bool,
) -> Vec<LineInfo> {
    let src = a.text.as_str().as_bytes();
    let code = a.code();
    let mut out = Vec::with_capacity(src.len() / 32 + 1);
    // The logical line being read and its last code byte so far.
    let mut open: Option<usize> = None;
    let mut last = 0u8;
    let mut before: &[u8] = b"";
    for_each_line(src, |start, next| {
        let l = out.len();
        out.push(LineInfo::default());
        // Its code without trailing whitespace (leading whitespace does not matter).
        let trimmed = trim_end(code.get(start..next).unwrap_or(b""));
        let cont = continues(l, start, before);
        before = trimmed;
        if open.is_some() && cont {
            if let Some(&c) = trimmed.last() {
                last = c;
            }
            return;
        }
        if let Some(s) = open.take() {
            out[s].header = last == b':';
        }
        let Some(&c) = trimmed.last() else {
            return;
        };
        if cont {
            return;
        }
        open = Some(l);
        last = c;
        let mut line = &src[start..next];
        if l == 0 {
            line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
        }
        out[l] = LineInfo {
            width: width_of(line),
            start: true,
            header: false,
        };
    });
    if let Some(s) = open {
        out[s].header = last == b':';
    }
    out
}

/// Calls `f(start, end)` for every line of `src` (`end` past its `\n`), split as
/// `Text` splits lines.
fn for_each_line(src: &[u8], mut f: impl FnMut(usize, usize)) {
    let mut start = 0;
    scan::for_each_byte(src, b'\n', |nl| {
        f(start, nl + 1);
        start = nl + 1;
    });
    if start < src.len() {
        f(start, src.len());
    }
}

/// `line.trim_ascii_end()`, dropping runs of 8 spaces a word at a time first: in
/// code, comments and literals are blanked to spaces, and Python has many such lines.
fn trim_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut end = line.len();
    while end >= 8 && line[end - 8..end] == *b"        " {
        end -= 8;
    }
    line[..end].trim_ascii_end()
}

/// Indentation width of a line's bytes (as [`indent`]).
fn width_of(line: &[u8]) -> u32 {
    let mut w = 0;
    for &c in line {
        match c {
            b' ' => w += 1,
            b'\t' => w = (w / 8 + 1) * 8,
            b'\x0c' => {}
            _ => break,
        }
    }
    w
}

/// [`line_info`] read line by line with the block finder's helpers: the plain
/// reading the one-pass version is tested against.
#[cfg(test)]
pub(super) fn line_info_plain(a: &Analysis) -> Vec<LineInfo> {
    let n = a.text.line_count();
    let mut out = vec![LineInfo::default(); n];
    let mut l = 0;
    while l < n {
        if trimmed_code(a, l).is_empty() || is_continuation(a, l) {
            l += 1;
            continue;
        }
        let le = logical_end(a, l);
        out[l] = LineInfo {
            width: indent(a, l) as u32,
            start: true,
            header: ends_with_colon(a, l, le),
        };
        l = le + 1;
    }
    out
}

/// The first indentation error Python would stop at, as (0-based line, why), or None.
///
/// Logical lines only (continuation lines inside brackets, strings or after a
/// backslash, blank lines and comment lines are skipped, as Python's tokenizer skips
/// them): a line after a header ending with `:` must be indented deeper; any other line
/// may not be indented deeper than the line before it, and a dedent must return to a
/// width an enclosing line had. Tabs advance to the next multiple of 8, as in Python.
pub(super) fn python_indentation(a: &Analysis) -> Option<(usize, String)> {
    indentation_error(&line_info(a))
}

/// [`python_indentation`] over lines already read.
pub(super) fn indentation_error(lines: &[LineInfo]) -> Option<(usize, String)> {
    let mut state = IndentState::new();
    for (l, info) in lines.iter().enumerate().filter(|(_, i)| i.start) {
        if let Some(e) = state.read(l, info) {
            return Some(e);
        }
    }
    state.end()
}

/// The indentation rule between two lines: the widths of the enclosing blocks (the
/// stack Python's tokenizer keeps) and a header still waiting for its block.
struct IndentState {
    stack: Vec<u32>,
    header: Option<usize>,
}

impl IndentState {
    fn new() -> IndentState {
        IndentState {
            stack: vec![0],
            header: None,
        }
    }

    /// The state after every logical line before line `from`, read backwards from
    /// there, for lines with no indentation error before `from`. Without an error the
    /// stack after a line holds exactly its width and, going back, each width smaller
    /// than every one after it (a width stays until a smaller one dedents past it), so
    /// the walk stops at the first line of width 0 (most files: a top-level line).
    fn before(lines: &Pieces<LineInfo>, from: usize) -> IndentState {
        let mut state = IndentState::new();
        let mut widths = Vec::new();
        for l in (0..from.min(lines.len())).rev() {
            let info = lines.get(l);
            if !info.start {
                continue;
            }
            if widths.is_empty() {
                state.header = info.header.then_some(l);
            }
            if widths.last().is_none_or(|&w| info.width < w) {
                widths.push(info.width);
            }
            if info.width == 0 {
                break;
            }
        }
        state
            .stack
            .extend(widths.into_iter().rev().filter(|&w| w > 0));
        state
    }

    /// Reads logical line `l`: the error Python would stop at there, if any.
    fn read(&mut self, l: usize, info: &LineInfo) -> Option<(usize, String)> {
        let w = info.width;
        let top = self.stack.last().copied().unwrap_or(0);
        if let Some(h) = self.header.take() {
            if w <= top {
                return Some((
                    l,
                    format!("line {} ends with `:` but line {} is not indented under it (expected an indented block)", h + 1, l + 1),
                ));
            }
            self.stack.push(w);
        } else if w > top {
            return Some((
                l,
                format!(
                    "line {} is indented deeper than the statement before it (unexpected indent)",
                    l + 1
                ),
            ));
        } else {
            while self.stack.last().is_some_and(|&t| t > w) {
                self.stack.pop();
            }
            if self.stack.last().copied().unwrap_or(0) != w {
                return Some((
                    l,
                    format!("line {} is dedented to a width no enclosing line has (unindent does not match)", l + 1),
                ));
            }
        }
        if info.header {
            self.header = Some(l);
        }
        None
    }

    /// The error at the end of the text (a header with no block), if any.
    fn end(self) -> Option<(usize, String)> {
        self.header.map(|h| {
            (
                h,
                format!(
                    "line {} ends with `:` but no indented block follows it",
                    h + 1
                ),
            )
        })
    }
}

impl Item for LineInfo {
    fn shifted(&self, _: Shift) -> LineInfo {
        *self
    }
}

/// Whether `lines` has no indentation error, for lines derived from a sequence without
/// one: equal to it before line `from`, and (when `same_from` is given) from line
/// `same_from` on. Reads from `from` until, at or after `same_from`, a logical line of
/// width 0 leaves the state as the original's was there (every block closed, the
/// same header flag): the original read on without an error from that state.
pub(super) fn indentation_ok_from(
    lines: &Pieces<LineInfo>,
    from: usize,
    same_from: Option<usize>,
) -> bool {
    let mut state = IndentState::before(lines, from);
    for (k, info) in lines.iter_from(from).enumerate() {
        let l = from + k;
        if !info.start {
            continue;
        }
        if state.read(l, &info).is_some() {
            return false;
        }
        if info.width == 0 && same_from.is_some_and(|s| l >= s) {
            return true;
        }
    }
    state.end().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::Lang;
    use crate::text::Text;
    use proptest::prelude::*;

    /// Pieces of Python: headers, brackets, strings over lines, comments, continuations,
    /// tabs, CRLF, a BOM.
    const PIECES: &[&str] = &[
        "def f(x):",
        "class A:",
        "if x:",
        "    ",
        "\t",
        "  ",
        "\n",
        "\r\n",
        "pass",
        "x = 1",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "'''",
        "\"\"\"",
        "'",
        "\"",
        "# c:",
        "\\",
        ":",
        " ",
        "\x0c",
        "\u{feff}",
        "return [1,",
        "s = '''a:\n'''",
        "y",
        "\n\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// The one-pass reading of Python's lines equals the line-by-line one.
        #[test]
        fn one_pass_line_info_is_the_plain_reading(
            pieces in proptest::collection::vec(0usize..PIECES.len(), 0..200),
        ) {
            let src: String = pieces.iter().map(|&k| PIECES[k]).collect();
            let text = Text::new(&src);
            let a = Analysis::with_lang(&text, Lang::Python, true);
            prop_assert_eq!(line_info(&a), line_info_plain(&a), "{:?}", src);
            prop_assert_eq!(continuation_flags(&a), continuation_flags_plain(&a), "{:?}", src);
            let yaml = Analysis::with_lang(&text, Lang::Yaml, true);
            prop_assert_eq!(continuation_flags(&yaml), continuation_flags_plain(&yaml), "{:?}", src);
        }

        /// Read from the lexer's line starts in code, a text the lexer read without an
        /// issue gives the same lines.
        #[test]
        fn lines_read_from_line_states_are_the_plain_reading(
            pieces in proptest::collection::vec(0usize..BALANCED.len(), 0..120),
        ) {
            let src: String = pieces.iter().map(|&k| BALANCED[k]).collect();
            let (lexed, trace) = crate::blocks::lex::trace::lex_traced(&src, &Lang::Python.syntax());
            let text = Text::new(&src);
            let a = Analysis::from_lexed(&text, Lang::Python, true, lexed);
            if a.issues().is_empty() {
                let starts = trace.checkpoints.iter().map(|c| (c.pos as usize, c.depth));
                prop_assert_eq!(line_info_lexed(&a, starts), line_info_plain(&a), "{:?}", src);
            }
        }
    }

    /// Pieces of Python that keep a text free of lexer issues (mostly).
    const BALANCED: &[&str] = &[
        "def f(x):\n",
        "class A:\n",
        "    ",
        "\t",
        "\n",
        "\r\n",
        "pass\n",
        "x = (1,\n  2)\n",
        "[\n]",
        "{\n}",
        "(",
        ")",
        "'''a:\n b'''",
        "\"\"\"\n\"\"\"",
        "'s'",
        "\"t:\"",
        "# c:\n",
        "# \\\n",
        "x \\\n y\n",
        "if a:  \\  \n",
        ":",
        " ",
        "\u{feff}",
        "'a\\\nb'",
        "y\n",
    ];
}
