//! Block bounds: the lines a block spans, the partner of a bracket, and when an
//! extent cannot be trusted.
//!
//! Decisions: a brace block runs from its line through the line that closes the last
//! bracket opened on it, growing while the lines it takes in open more; a signature
//! whose `{` starts the next non-blank line (Allman style) takes that line in; a line
//! that opens nothing beyond itself is a block only if it holds a `{ … }` pair. A
//! declaration or statement whose header spans lines (a parameter list, a return type
//! or `where` clause on the next lines, attributes and decorators above, an assignment
//! continued on the next line) is its header through the closing brace of its body,
//! from any first line of that header (see [`Analysis::header_body`]). A
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
        // A header spanning lines: its body `{` decides where the block ends.
        if let Some(k) = self.header_body(line) {
            let e = ev[k];
            if e.partner == NONE {
                return Err(BlockError::Unmatched {
                    line: self.line_of(e.pos as usize),
                    reason: self.unclosed_reason(e.pos as usize),
                });
            }
            last = self.line_of(ev[e.partner as usize].pos as usize);
            opened = true;
        }
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

    /// The event of the body `{` of the declaration or statement whose header starts on
    /// 0-based `line` and reaches a later line, or None.
    ///
    /// The header is walked from the line's start at its level: `( … )` and `[ … ]`
    /// groups are skipped whole; `;`, a closing bracket or a JavaScript boundary `,`
    /// ends it without a body. The first `{` reached is the body when it is on a later
    /// line and either opens a declaration whose header (attributes, decorators and
    /// comments above it included) starts on `line` or below it, or every line break
    /// between `line` and it outside the groups continues the statement (a line ending
    /// in an operator such as `=`, or a next line starting with one, with `{`, `where`,
    /// `extends`, …).
    pub(super) fn header_body(&self, line: usize) -> Option<usize> {
        let raw = self.text.line(line).trim_start();
        if raw.starts_with('#') && !raw.starts_with("#[") && !raw.starts_with("#!") {
            return None; // a preprocessor line (or a `#` comment) heads nothing
        }
        let ev = self.events();
        let mut k = self.event_at(self.text.line_start(line));
        let mut groups: Vec<(usize, usize)> = Vec::new();
        loop {
            let e = ev.get(k)?;
            match e.byte {
                b'(' | b'[' if e.partner != NONE => {
                    let close = ev[e.partner as usize].pos as usize;
                    groups.push((self.line_of(e.pos as usize), self.line_of(close)));
                    k = e.partner as usize + 1;
                }
                // A `{ … }` inside the header (a C++ member initialiser, a TypeScript
                // type literal) is part of it.
                b'{' if e.partner != NONE && self.init_list_braces(e.partner as usize) => {
                    k = e.partner as usize + 1;
                }
                b'{' => break,
                b',' if !(self.lang.is_js() && self.comma_is_boundary(k)) => k += 1,
                _ => return None,
            }
        }
        let body_line = self.line_of(ev[k].pos as usize);
        if body_line == line {
            return None;
        }
        if self.declares(k, line) {
            return Some(k);
        }
        let code_here = !self.code_line(line).trim_ascii().is_empty();
        (code_here && self.continued(line, body_line, &groups)).then_some(k)
    }

    /// Whether the `{` at event `k` opens a declaration whose header, with the
    /// attributes, decorators and comments directly above it, starts at or above
    /// 0-based `line` and not above its first line.
    fn declares(&self, k: usize, line: usize) -> bool {
        let mut memo = super::declarations::Memo::Sparse(Default::default());
        let Some(d) = self.decl_of(k, &mut memo) else {
            return false;
        };
        let start = self.line_of(d.start);
        (self.prelude_start(start)..=start).contains(&line)
    }

    /// Whether every line break from 0-based `first` to `last` that is not inside one
    /// of `groups` (line spans) continues the statement.
    fn continued(&self, first: usize, last: usize, groups: &[(usize, usize)]) -> bool {
        let code_lines: Vec<usize> = (first..=last)
            .filter(|&l| !self.code_line(l).trim_ascii().is_empty())
            .collect();
        code_lines.windows(2).all(|w| {
            let (p, q) = (w[0], w[1]);
            let inside = groups.iter().any(|&(a, b)| a <= p && p < b);
            let (pc, qc) = (
                self.code_line(p).trim_ascii(),
                self.code_line(q).trim_ascii(),
            );
            inside || ends_continued(pc) || starts_continued(qc)
        })
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

/// A line of code that cannot end a statement: it ends with an operator, or it is an
/// attribute or decorator line.
fn ends_continued(code: &[u8]) -> bool {
    let attribute = code.starts_with(b"@") || code.starts_with(b"#[");
    let word = |w: &[u8]| {
        code.ends_with(w)
            && code[..code.len() - w.len()]
                .last()
                .is_none_or(|c| !super::lex::is_ident(*c))
    };
    attribute
        || matches!(
            code.last(),
            Some(b'=' | b':' | b'?' | b'.' | b'+' | b'-' | b'*' | b'|' | b'&' | b'%' | b'^')
        )
        || code.ends_with(b"=>")
        || code.ends_with(b"->")
        || [&b"extends"[..], b"implements", b"where", b"throws"]
            .iter()
            .any(|w| word(w))
}

/// A line of code that continues the one before: it starts with an operator, the body's
/// `{`, or a clause of a header.
fn starts_continued(code: &[u8]) -> bool {
    let word = |w: &[u8]| {
        code.starts_with(w) && code.get(w.len()).is_none_or(|c| !super::lex::is_ident(*c))
    };
    matches!(
        code.first(),
        Some(b'.' | b'?' | b':' | b'=' | b'+' | b'-' | b'*' | b'|' | b'&' | b'{')
    ) || [&b"where"[..], b"extends", b"implements", b"throws"]
        .iter()
        .any(|w| word(w))
}
