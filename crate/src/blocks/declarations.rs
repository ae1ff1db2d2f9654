//! Declarations: which declaration a `{` opens, from the header before it.
//!
//! Decisions: a header starts after the previous statement boundary at the same level;
//! `( … )` and `[ … ]` groups are skipped whole, and so are the `{ … }`s that belong to
//! a header (C++ braced member initialisers, TypeScript type literals); a JavaScript
//! `,` is a boundary only inside an object literal or a bracket group. The enclosing
//! `{`s are classified first, top-down and memoised, so a method knows its container
//! (which becomes its qualifier when it writes none). A Java or C# `new Type(…) {` is an
//! anonymous class. The header itself is read in `header`.

use super::header::{classify, Context, Decl};
use super::lex::{is_ident, NONE};
use super::{Analysis, Kind, Lang};
use std::collections::HashMap;

/// Declarations already classified, by `{` event index: dense for a whole-file
/// outline, sparse for a lookup that classifies a few headers.
pub(super) enum Memo {
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

impl<'t, 'a> Analysis<'t, 'a> {
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
    pub(super) fn comma_is_boundary(&self, k: usize) -> bool {
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
    pub(super) fn init_list_braces(&self, close: usize) -> bool {
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
    pub(super) fn decl_of(&self, k: usize, memo: &mut Memo) -> Option<Decl> {
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
}
