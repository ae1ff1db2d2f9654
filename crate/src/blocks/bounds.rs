//! Block bounds: the lines a block spans, the partner of a bracket, and when an
//! extent cannot be trusted.
//!
//! Decisions: a brace block runs from its line through the line that closes the last
//! bracket opened on it, growing while the lines it takes in open more; a signature
//! whose `{` starts the next non-blank line (Allman style) takes that line in; a line
//! that opens nothing beyond itself is a block only if it holds a `{ … }` pair. A
//! block (or a symbol, when asked strictly) holding a place where the lexer had to
//! recover is refused with the reason, never guessed. Python and YAML blocks are
//! indentation blocks (see `indent`).

use super::lex::{IssueKind, NONE};
use super::{indent, Analysis, Issue, Lang, Symbol};

/// Why a line has no usable block.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockError {
    /// The line opens nothing (0-based line).
    NoBlock { line: usize },
    /// Balance was lost; `line` is the 0-based line of the bracket concerned.
    Unmatched { line: usize, reason: String },
}

impl<'t, 'a> Analysis<'t, 'a> {
    /// The byte of the bracket matching the bracket at byte `pos` (None when `pos` is
    /// not a bracket in code, or it is unmatched).
    pub fn partner_of(&self, pos: usize) -> Option<usize> {
        let ev = self.events();
        let k = self.event_at(pos);
        let e = ev.get(k).filter(|e| e.pos as usize == pos)?;
        (e.partner != NONE).then(|| ev[e.partner as usize].pos as usize)
    }

    /// Refuses a symbol whose extent cannot be trusted: its body bracket is never
    /// closed, or (`strict`) the lexer had to recover inside it.
    pub fn check_symbol(&self, s: &Symbol, strict: bool) -> Result<(), BlockError> {
        if !self.lang.indented() {
            let k = self.event_at(s.body);
            if let Some(e) = self.events().get(k) {
                if e.pos as usize == s.body && e.partner == NONE {
                    return Err(BlockError::Unmatched {
                        line: self.line_of(s.body),
                        reason: self.unclosed_reason(s.body),
                    });
                }
            }
        }
        if strict {
            self.check_region(s.start_line, s.end_line)?;
        }
        Ok(())
    }

    /// The block 0-based line `line` opens, as 0-based inclusive lines.
    pub fn block_at(&self, line: usize) -> Result<(usize, usize), BlockError> {
        if line >= self.text.line_count() {
            return Err(BlockError::NoBlock { line });
        }
        match self.lang {
            Lang::Python => indent::python_block(self, line),
            Lang::Yaml => indent::yaml_block(self, line),
            _ => self.brace_block(line),
        }
    }

    fn brace_block(&self, line: usize) -> Result<(usize, usize), BlockError> {
        let ev = self.events();
        let mut last = line;
        let mut scan_from = line;
        let mut opened = false;
        loop {
            let a = self.text.line_start(scan_from);
            let b = self.text.line_range(last).end;
            let mut new_last = last;
            let mut k = self.event_at(a);
            while k < ev.len() && (ev[k].pos as usize) < b {
                let e = ev[k];
                if e.is_open() {
                    if e.partner == NONE {
                        let l = self.line_of(e.pos as usize);
                        return Err(BlockError::Unmatched {
                            line: l,
                            reason: self.unclosed_reason(e.pos as usize),
                        });
                    }
                    let pl = self.line_of(ev[e.partner as usize].pos as usize);
                    if pl > last {
                        new_last = new_last.max(pl);
                        opened = true;
                    }
                }
                k += 1;
            }
            if new_last > last {
                scan_from = last + 1;
                last = new_last;
                continue;
            }
            // Allman style: the signature ends here and `{` starts the next line.
            if let Some(next) = self.allman_brace(last) {
                scan_from = next;
                last = next;
                opened = true;
                continue;
            }
            break;
        }
        if !opened && !self.one_line_block(line) {
            return Err(BlockError::NoBlock { line });
        }
        self.check_region(line, last)?;
        Ok((line, last))
    }

    /// A `{ … }` pair on the line itself (`fn f() { 1 }`).
    fn one_line_block(&self, line: usize) -> bool {
        let ev = self.events();
        let r = self.text.line_range(line);
        let mut k = self.event_at(r.start);
        while k < ev.len() && (ev[k].pos as usize) < r.end {
            if ev[k].byte == b'{' && ev[k].partner != NONE {
                return true;
            }
            k += 1;
        }
        false
    }

    /// The next line, if the code of line `last` ends a signature and the next
    /// non-blank line starts with `{`.
    fn allman_brace(&self, last: usize) -> Option<usize> {
        let code = self.code_line(last);
        let end = code.iter().rev().find(|c| !c.is_ascii_whitespace())?;
        if matches!(end, b';' | b',' | b'}' | b'{') {
            return None;
        }
        let mut next = last + 1;
        while next < self.text.line_count() && self.text.line(next).trim().is_empty() {
            next += 1;
        }
        let first = self
            .code_line(next)
            .iter()
            .find(|c| !c.is_ascii_whitespace())?;
        (*first == b'{').then_some(next)
    }

    /// Refuses a block whose lines hold a place where the lexer had to recover.
    pub(super) fn check_region(&self, first: usize, last: usize) -> Result<(), BlockError> {
        let range = self.text.lines_range(first, last);
        for is in self.issues() {
            if is.pos >= range.start && is.pos < range.end && is.kind != IssueKind::Unclosed {
                return Err(BlockError::Unmatched {
                    line: self.line_of(is.pos),
                    reason: self.describe_issue(is),
                });
            }
        }
        Ok(())
    }

    /// Why the bracket at `pos` is never closed.
    pub(super) fn unclosed_reason(&self, pos: usize) -> String {
        let cause = self
            .issues()
            .iter()
            .find(|is| is.pos >= pos && is.kind != IssueKind::Unclosed);
        match cause {
            Some(is) => self.describe_issue(is),
            None => "the file ends before it is closed".to_string(),
        }
    }

    pub fn describe_issue(&self, is: &Issue) -> String {
        let line = self.line_of(is.pos) + 1;
        match is.kind {
            IssueKind::UnterminatedString => {
                format!("unterminated {} starting at line {line}", is.what)
            }
            IssueKind::UnterminatedComment => {
                format!("unterminated block comment starting at line {line}")
            }
            IssueKind::StrayClose => {
                format!("`{}` at line {line} closes nothing", is.byte as char)
            }
            IssueKind::Mismatch => {
                let open = self
                    .text
                    .as_str()
                    .as_bytes()
                    .get(is.other)
                    .copied()
                    .unwrap_or(b'?');
                format!(
                    "`{}` at line {line} does not match the `{}` opened at line {}",
                    is.byte as char,
                    open as char,
                    self.line_of(is.other) + 1
                )
            }
            IssueKind::Unclosed => format!("`{}` at line {line} is never closed", is.byte as char),
        }
    }
}
