//! Blocks: language-aware bracket and indentation blocks, functions, outlines.
//!
//! Counting braces blindly breaks on the first `{` inside a string, comment, regex or
//! char literal. Here a file is lexed once per call ([`Analysis::new`]) by the rules of
//! its language (chosen from the extension, see [`Lang`]); every question after that
//! is answered from the lexer's output without re-reading the file:
//!
//! - [`Analysis::block_at`]: the block a line opens — from that line through the line
//!   that closes what it opened (brackets), or through its last more-indented line
//!   (Python, YAML);
//! - [`Analysis::outline`]: functions, methods and types with their line ranges;
//! - [`Analysis::find_functions`]: the definitions of one name (`Type.method` and
//!   `Type::method` accepted), without classifying the whole file when the name is
//!   found.
//!
//! Ranges are whole lines. A function's range starts at the first line of its
//! signature (modifiers such as `pub`, `export`, `static`, return types on their own
//! line and C++ `template <…>` included) and ends at the line of its closing brace;
//! decorators, attributes, annotations and comments above the signature are not part
//! of it (see [`Analysis::prelude_start`]).

mod header;
mod indent;
pub mod lang;
mod lex;

pub use lang::Lang;
pub use lex::{Issue, IssueKind};

use crate::text::Text;
use header::{classify, Context, Decl};
use lex::{is_ident, Event, Lexed, NONE};
use std::collections::HashMap;

/// What a symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Interface,
    Trait,
    Impl,
    Module,
    Object,
    Record,
    Union,
    Macro,
    /// A CSS rule.
    Rule,
    /// A JSON / YAML key whose value is a block.
    Key,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Function => "function",
            Kind::Method => "method",
            Kind::Class => "class",
            Kind::Struct => "struct",
            Kind::Enum => "enum",
            Kind::Interface => "interface",
            Kind::Trait => "trait",
            Kind::Impl => "impl",
            Kind::Module => "module",
            Kind::Object => "object",
            Kind::Record => "record",
            Kind::Union => "union",
            Kind::Macro => "macro",
            Kind::Rule => "rule",
            Kind::Key => "key",
        }
    }

    /// Functions directly inside this are methods.
    pub fn holds_methods(self) -> bool {
        matches!(
            self,
            Kind::Class
                | Kind::Struct
                | Kind::Enum
                | Kind::Interface
                | Kind::Trait
                | Kind::Impl
                | Kind::Object
                | Kind::Record
                | Kind::Union
        )
    }

    pub fn is_function(self) -> bool {
        matches!(self, Kind::Function | Kind::Method)
    }
}

/// A function, method or type, with 0-based inclusive line numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    pub name: String,
    pub kind: Kind,
    pub start_line: usize,
    pub end_line: usize,
    /// The line holding the name.
    pub name_line: usize,
    /// The enclosing type (or the qualifier written in the definition: `impl Foo`,
    /// `func (r *Foo)`, `Foo::bar`).
    pub container: Option<String>,
    /// Byte where the declaration starts, and byte after its last one.
    pub start: usize,
    pub end: usize,
    /// Byte where the body starts: its `{`, or (Python) the end of the header line.
    pub body: usize,
}

impl Symbol {
    /// `Type.name` when there is a container, else `name`.
    pub fn qualified(&self) -> String {
        match &self.container {
            Some(c) if !c.is_empty() => format!("{c}.{}", self.name),
            _ => self.name.clone(),
        }
    }
}

/// Why a line has no usable block.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockError {
    /// The line opens nothing (0-based line).
    NoBlock { line: usize },
    /// Balance was lost; `line` is the 0-based line of the bracket concerned.
    Unmatched { line: usize, reason: String },
}

/// Declarations already classified, by `{` event index: dense for a whole-file
/// outline, sparse for a lookup that classifies a few headers.
enum Memo {
    Dense(Vec<Option<Option<Decl>>>),
    Sparse(HashMap<u32, Option<Decl>>),
}

impl Memo {
    fn get(&self, k: u32) -> Option<&Option<Decl>> {
        match self {
            Memo::Dense(v) => v.get(k as usize).and_then(|x| x.as_ref()),
            Memo::Sparse(m) => m.get(&k),
        }
    }

    fn contains(&self, k: u32) -> bool {
        self.get(k).is_some()
    }

    fn insert(&mut self, k: u32, d: Option<Decl>) {
        match self {
            Memo::Dense(v) => {
                if let Some(slot) = v.get_mut(k as usize) {
                    *slot = Some(d);
                }
            }
            Memo::Sparse(m) => {
                m.insert(k, d);
            }
        }
    }
}

/// One file, lexed once, and everything asked of it.
pub struct Analysis<'t, 'a> {
    pub lang: Lang,
    /// False when the extension was unknown and the generic C-like rules were used.
    pub known: bool,
    pub text: &'t Text<'a>,
    lx: Lexed,
    /// Per line: whether it continues the logical line before it (indentation
    /// languages; computed on first use).
    continuation: std::cell::OnceCell<Vec<bool>>,
}

impl<'t, 'a> Analysis<'t, 'a> {
    pub fn new(text: &'t Text<'a>, path: &str) -> Analysis<'t, 'a> {
        let (lang, known) = match Lang::from_path(path) {
            Some(l) => (l, true),
            None => (Lang::Generic, false),
        };
        Analysis::with_lang(text, lang, known)
    }

    pub fn with_lang(text: &'t Text<'a>, lang: Lang, known: bool) -> Analysis<'t, 'a> {
        let lx = lex::lex(text.as_str(), &lang.syntax());
        Analysis {
            lang,
            known,
            text,
            lx,
            continuation: std::cell::OnceCell::new(),
        }
    }

    /// A warning for results when the language was not recognised.
    pub fn warning(&self, path: &str) -> Option<String> {
        if self.known {
            return None;
        }
        Some(format!(
            "{path}: unknown file type, so blocks were found with generic C-like rules (braces; `//` and `/* */` comments; '…', \"…\" and `…` literals). Check the result."
        ))
    }

    /// The file's bytes with comments and literals blanked.
    pub fn code(&self) -> &[u8] {
        &self.lx.code
    }

    pub fn issues(&self) -> &[Issue] {
        &self.lx.issues
    }

    fn events(&self) -> &[Event] {
        &self.lx.events
    }

    fn line_of(&self, pos: usize) -> usize {
        self.text
            .line_of(pos)
            .min(self.text.line_count().saturating_sub(1))
    }

    /// Code bytes of 0-based line `l`, without its terminator.
    pub fn code_line(&self, l: usize) -> &[u8] {
        if l >= self.text.line_count() {
            return b"";
        }
        let r = self.text.line_range(l);
        let line = self.lx.code.get(r).unwrap_or(b"");
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        line.strip_suffix(b"\r").unwrap_or(line)
    }

    /// Index of the first event at or after byte `pos`.
    fn event_at(&self, pos: usize) -> usize {
        self.events().partition_point(|e| (e.pos as usize) < pos)
    }

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

    // ---- blocks ----

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
    fn check_region(&self, first: usize, last: usize) -> Result<(), BlockError> {
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
    fn unclosed_reason(&self, pos: usize) -> String {
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

    // ---- declarations ----

    /// Where the statement whose `{` is event `k` starts (byte).
    fn header_start(&self, k: usize) -> usize {
        let ev = self.events();
        let mut j = k;
        while j > 0 {
            j -= 1;
            let e = ev[j];
            match e.byte {
                b')' | b']' => {
                    if e.partner != NONE && (e.partner as usize) < j {
                        j = e.partner as usize;
                        continue;
                    }
                    return e.pos as usize + 1;
                }
                b'}' => {
                    if self.init_list_braces(j) {
                        j = e.partner as usize;
                        continue;
                    }
                    return e.pos as usize + 1;
                }
                b',' if !self.comma_is_boundary(j) => continue,
                _ => return e.pos as usize + 1,
            }
        }
        0
    }

    /// A JavaScript `,` separates statements-like parts only inside an object literal
    /// or a bracket group; elsewhere it is part of a header (`Map<K, V>`,
    /// `implements A, B`).
    fn comma_is_boundary(&self, k: usize) -> bool {
        let ev = self.events();
        let p = ev[k].parent;
        if p == NONE {
            return false;
        }
        match ev[p as usize].byte {
            b'{' => self.object_literal(p as usize),
            _ => true,
        }
    }

    /// A `{ … }` that is part of a header, not a block before it: a C++ braced member
    /// initialiser (`Ctor() : a{1}, b{2} {`), a TypeScript type literal in generics
    /// or a return type (`<T extends { id: string }>`, `): { a: number } {`).
    fn init_list_braces(&self, close: usize) -> bool {
        let ts = matches!(self.lang, Lang::TypeScript | Lang::Tsx);
        if self.lang != Lang::Cpp && !ts {
            return false;
        }
        let ev = self.events();
        let e = ev[close];
        if e.partner == NONE || e.partner as usize >= close {
            return false;
        }
        let code = self.code();
        let open = ev[e.partner as usize].pos as usize;
        let before_text = code[..open].trim_ascii_end();
        let before = before_text.last();
        let after = code[e.pos as usize + 1..]
            .iter()
            .find(|c| !c.is_ascii_whitespace());
        if ts {
            let type_position = matches!(before, Some(b':' | b'<' | b'|' | b'&'))
                || before_text.ends_with(b"extends");
            return type_position && matches!(after, Some(b'>' | b'{' | b'|' | b'&' | b'['));
        }
        before.is_some_and(|c| is_ident(*c)) && matches!(after, Some(b',') | Some(b'{'))
    }

    /// The context of the `{` at event `k`: its enclosing type, object literal or group.
    fn context(&self, k: usize, memo: &Memo) -> Context {
        let ev = self.events();
        let p = ev[k].parent;
        if p == NONE {
            return Context::default();
        }
        let pe = ev[p as usize];
        if pe.byte != b'{' {
            return Context {
                in_group: true,
                ..Context::default()
            };
        }
        let container = memo
            .get(p)
            .and_then(|d| d.as_ref())
            .filter(|d| d.kind.holds_methods())
            .map(|d| (d.name_text.clone(), d.kind));
        let in_object = match self.lang {
            Lang::Json => true,
            l if l.is_js() => container.is_none() && self.object_literal(p as usize),
            _ => false,
        };
        Context {
            container,
            in_object,
            in_group: false,
        }
    }

    /// Whether the `{` at event `k` opens a JavaScript object literal (by what precedes).
    fn object_literal(&self, k: usize) -> bool {
        let code = self.code();
        let pos = self.events()[k].pos as usize;
        let mut i = pos;
        while i > 0 && code[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        if i == 0 {
            return false;
        }
        match code[i - 1] {
            b'=' | b':' | b'(' | b',' | b'[' | b'?' | b'|' | b'&' => true,
            b'n' => code[..i].ends_with(b"return"),
            _ => false,
        }
    }

    /// The declaration the `{` at event `k` opens, classifying (and memoising) the
    /// enclosing `{`s first, top-down.
    fn decl_of(&self, k: usize, memo: &mut Memo) -> Option<Decl> {
        let ev = self.events();
        if !memo.contains(k as u32) {
            let mut chain = vec![k as u32];
            let mut p = ev[k].parent;
            while p != NONE && !memo.contains(p) {
                if ev[p as usize].byte == b'{' {
                    chain.push(p);
                }
                p = ev[p as usize].parent;
            }
            for &c in chain.iter().rev() {
                if memo.contains(c) {
                    continue;
                }
                let d = self.classify_at(c as usize, memo);
                memo.insert(c, d);
            }
        }
        memo.get(k as u32).cloned().flatten()
    }

    fn classify_at(&self, k: usize, memo: &Memo) -> Option<Decl> {
        let ev = self.events();
        if ev[k].partner != NONE && self.init_list_braces(ev[k].partner as usize) {
            return None;
        }
        let cx = self.context(k, memo);
        let a = self.header_start(k);
        let b = ev[k].pos as usize;
        let mut d = classify(
            self.lang,
            self.code(),
            self.text.as_str().as_bytes(),
            ev,
            a,
            b,
            &cx,
        );
        if d.is_none()
            && matches!(self.lang, Lang::Java | Lang::CSharp)
            && self.anonymous_class(a, b)
        {
            d = Some(Decl {
                kind: Kind::Class,
                name: (b, b),
                name_text: String::new(),
                start: a,
                qualifier: None,
            });
        }
        if let Some(d) = &mut d {
            if d.qualifier.is_none() {
                if let Some((c, _)) = &cx.container {
                    if !c.is_empty() {
                        d.qualifier = Some(c.clone());
                    }
                }
            }
        }
        d
    }

    /// `new Type(…) {`: an anonymous class body.
    fn anonymous_class(&self, a: usize, b: usize) -> bool {
        let code = &self.code()[a..b];
        let trimmed = code.trim_ascii_end();
        trimmed.ends_with(b")") && memchr::memmem::find(code, b"new ").is_some()
    }

    fn symbol(&self, k: usize, d: &Decl) -> Symbol {
        let ev = self.events();
        let close = ev[k].partner;
        let end = if close == NONE {
            self.text.len()
        } else {
            ev[close as usize].pos as usize + 1
        };
        Symbol {
            name: d.name_text.clone(),
            kind: d.kind,
            start_line: self.line_of(d.start),
            end_line: self.line_of(end.saturating_sub(1).max(d.start)),
            name_line: self.line_of(d.name.0),
            container: d.qualifier.clone(),
            start: d.start,
            end,
            body: ev[k].pos as usize,
        }
    }

    /// Every function, method and type, in file order.
    pub fn outline(&self) -> Vec<Symbol> {
        match self.lang {
            Lang::Python => return indent::python_outline(self),
            Lang::Yaml => return indent::yaml_outline(self),
            _ => {}
        }
        let ev = self.events();
        let mut memo = Memo::Dense(vec![None; ev.len()]);
        let mut out = Vec::new();
        for (k, e) in ev.iter().enumerate() {
            if e.byte != b'{' {
                continue;
            }
            if let Some(d) = self.decl_of(k, &mut memo) {
                if !d.name_text.is_empty() {
                    out.push(self.symbol(k, &d));
                }
            }
        }
        out
    }

    /// The definitions named `query` (functions and methods; types when no function
    /// has that name). `query` may be qualified (`Type.method`, `Type::method`) and may
    /// carry a keyword or parentheses (`fn foo`, `foo()`).
    pub fn find_functions(&self, query: &str) -> Vec<Symbol> {
        let (qualifier, name) = split_query(query);
        if name.is_empty() {
            return Vec::new();
        }
        let fast = name.bytes().all(is_ident) && !self.lang.indented();
        let mut found = if fast {
            self.find_fast(&name)
        } else if self.lang == Lang::Python {
            indent::python_find(self, &name)
        } else {
            self.outline()
                .into_iter()
                .filter(|s| s.name == name)
                .collect()
        };
        if found.is_empty() && fast {
            // Names the fast path cannot see (backtick names, operators).
            found = self
                .outline()
                .into_iter()
                .filter(|s| s.name == name)
                .collect();
        }
        if let Some(q) = &qualifier {
            found.retain(|s| {
                s.container
                    .as_deref()
                    .is_some_and(|c| c == q || c.rsplit(['.', ':']).next() == Some(q.as_str()))
            });
        }
        if found.iter().any(|s| s.kind.is_function()) {
            found.retain(|s| s.kind.is_function());
        }
        found
    }

    /// Finds `name` in code and classifies only the headers it occurs in.
    fn find_fast(&self, name: &str) -> Vec<Symbol> {
        let code = self.code();
        let ev = self.events();
        let needle = name.as_bytes();
        let finder = memchr::memmem::Finder::new(needle);
        let mut memo = Memo::Sparse(HashMap::new());
        let mut out: Vec<Symbol> = Vec::new();
        let mut at = 0;
        while let Some(p) = finder.find(&code[at..]) {
            let hit = at + p;
            at = hit + needle.len();
            let before_ok = hit == 0 || !is_ident(code[hit - 1]);
            let after_ok = code.get(at).is_none_or(|c| !is_ident(*c));
            if !before_ok || !after_ok {
                continue;
            }
            // The `{` that ends the statement the name is in, at the same level.
            let mut k = self.event_at(hit);
            while k < ev.len() {
                let e = ev[k];
                match e.byte {
                    b'(' | b'[' => {
                        if e.partner == NONE {
                            break;
                        }
                        k = e.partner as usize + 1;
                    }
                    b'{' => {
                        if let Some(d) = self.decl_of(k, &mut memo) {
                            if d.name.0 == hit {
                                let s = self.symbol(k, &d);
                                if !out.contains(&s) {
                                    out.push(s);
                                }
                                break;
                            }
                        }
                        if self.lang == Lang::Cpp && e.partner != NONE {
                            let close = e.partner as usize;
                            if self.init_list_braces(close) {
                                k = close + 1;
                                continue;
                            }
                        }
                        break;
                    }
                    b',' if self.lang.is_js() && self.comma_is_boundary(k) => break,
                    b',' => k += 1,
                    _ => break,
                }
            }
        }
        out.sort_by_key(|s| s.start);
        out
    }

    /// The first line of the decorators, attributes, annotations and comments directly
    /// above 0-based line `start` (`start` itself when there are none).
    pub fn prelude_start(&self, start: usize) -> usize {
        let mut first = start;
        let mut l = start;
        while l > 0 {
            let cand = l - 1;
            let raw = self.text.line(cand).trim();
            if raw.is_empty() {
                break;
            }
            let code = self.code_line(cand).trim_ascii();
            let is_comment = code.is_empty();
            let is_attr = code.starts_with(b"@")
                || code.starts_with(b"#[")
                || code.starts_with(b"#![")
                || (matches!(self.lang, Lang::CSharp | Lang::Cpp) && code.starts_with(b"["));
            if is_comment || is_attr {
                first = cand;
                l = cand;
                continue;
            }
            // The last line of a decorator whose arguments span lines.
            if let Some(&last) = code.last() {
                if matches!(last, b')' | b']') {
                    let pos = self.text.line_start(cand)
                        + self
                            .code_line(cand)
                            .iter()
                            .rposition(|c| *c == last)
                            .unwrap_or(0);
                    let k = self.event_at(pos);
                    if let Some(e) = self.events().get(k) {
                        if e.pos as usize == pos && e.partner != NONE {
                            let open = self.events()[e.partner as usize].pos as usize;
                            let ol = self.line_of(open);
                            let oc = self.code_line(ol).trim_ascii();
                            if ol < cand && (oc.starts_with(b"@") || oc.starts_with(b"#[")) {
                                first = ol;
                                l = ol;
                                continue;
                            }
                        }
                    }
                }
            }
            break;
        }
        first
    }
}

/// `Type.method` → (Some("Type"), "method"); `fn foo()` → (None, "foo").
pub fn split_query(query: &str) -> (Option<String>, String) {
    let mut q = query.trim();
    if let Some(i) = q.find('(') {
        q = q[..i].trim_end();
    }
    let mut words: Vec<&str> = q.split_whitespace().collect();
    while words.len() > 1
        && matches!(
            words[0],
            "fn" | "def"
                | "async"
                | "func"
                | "fun"
                | "function"
                | "pub"
                | "static"
                | "public"
                | "private"
                | "protected"
                | "class"
                | "struct"
                | "impl"
                | "method"
                | "void"
                | "export"
        )
    {
        words.remove(0);
    }
    let q = words.last().copied().unwrap_or("");
    for sep in ["::", "->", ".", "#"] {
        if let Some(i) = q.rfind(sep) {
            let (a, b) = (&q[..i], &q[i + sep.len()..]);
            if !a.is_empty() && !b.is_empty() && !b.starts_with(['=', '(', '[']) {
                let qual = a.rsplit(['.', ':']).next().unwrap_or(a);
                return (Some(qual.to_string()), b.to_string());
            }
        }
    }
    (None, q.to_string())
}

#[cfg(test)]
mod tests;
