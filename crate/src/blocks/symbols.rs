//! Symbols: what a declaration is ([`Kind`]), its extent ([`Symbol`]), the outline,
//! the lookup of one name, and where a definition's prelude starts.
//!
//! Decisions: a symbol's range runs from its declaration's start to the line of its
//! closing bracket (the file's end when never closed). A lookup by name finds the name
//! in code and classifies only the headers it occurs in; names that search cannot see
//! (backticks, operators) fall back to the whole outline. A qualifier matches the
//! container or its last component; functions win over types of the same name.

use super::declarations::Memo;
use super::header::Decl;
use super::lex::{is_ident, NONE};
use super::{indent, Analysis, Lang};
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

impl<'t, 'a> Analysis<'t, 'a> {
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
