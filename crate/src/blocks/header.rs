//! Declarations in brace languages: what a `{` opens, told from its header.
//!
//! A `{`'s header is the code between the previous statement boundary at the same
//! level (`;`, a sibling's `}`, the enclosing bracket; in JavaScript also `,`) and the
//! `{` itself. It is read as a short list of tokens (identifiers, punctuation, string
//! placeholders, and bracket groups collapsed to one token each) and matched against
//! the declaration forms of the language: `fn name(…)`, `func (r *T) Name(…)`,
//! `type name(…) const`, `class Name extends …`, `const name = (…) => `, …
//!
//! Comments and literals were blanked by the lexer, so nothing in them can look like
//! a declaration.

use super::lang::Lang;
use super::lex::{is_ident, Event, NONE};
use super::Kind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tk {
    Ident,
    Punct,
    /// A string or other literal placeholder.
    Str,
    /// A bracket group `( … )`, `[ … ]`, `{ … }` (one token).
    Group,
    /// A line break at this level (matters where statements end without `;`).
    Newline,
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Tk,
    pub start: usize,
    pub end: usize,
}

/// A declaration found in a header.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub kind: Kind,
    /// Byte range of the name in the file.
    pub name: (usize, usize),
    /// The name as written (backticks and quotes removed).
    pub name_text: String,
    /// Byte where the declaration starts (modifiers included; attributes,
    /// decorators and comments above excluded).
    pub start: usize,
    /// A qualifier written in the declaration (`Type::method`, Go receivers).
    pub qualifier: Option<String>,
}

/// What the classifier knows about where the header is.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The enclosing type's name and kind, if the header sits directly in one.
    pub container: Option<(String, Kind)>,
    /// The enclosing `{` is an object literal (JavaScript).
    pub in_object: bool,
    /// The header sits directly in a bracket group, not a block.
    pub in_group: bool,
}

pub struct Header<'a> {
    pub code: &'a [u8],
    pub src: &'a [u8],
    pub toks: Vec<Token>,
}

/// Tokenizes `code[a..b]`, collapsing bracket groups via the events' partners.
pub fn tokenize<'a>(
    code: &'a [u8],
    src: &'a [u8],
    events: &[Event],
    a: usize,
    b: usize,
) -> Header<'a> {
    let mut toks = Vec::new();
    let b = b.min(code.len());
    let mut i = a;
    while i < b {
        let c = code[i];
        match c {
            b' ' | b'\t' | b'\r' | 0x0c => i += 1,
            b'\n' => {
                if toks.last().is_some_and(|t: &Token| t.kind != Tk::Newline) {
                    toks.push(Token {
                        kind: Tk::Newline,
                        start: i,
                        end: i + 1,
                    });
                }
                i += 1;
            }
            b'"' => {
                let end = memchr::memchr(b'"', &code[i + 1..b]).map_or(b, |p| i + 1 + p + 1);
                toks.push(Token {
                    kind: Tk::Str,
                    start: i,
                    end,
                });
                i = end;
            }
            b'(' | b'[' | b'{' => {
                let end = match events.binary_search_by_key(&(i as u32), |e| e.pos) {
                    Ok(k) => {
                        let p = events[k].partner;
                        if p == NONE {
                            b
                        } else {
                            (events[p as usize].pos as usize + 1).clamp(i + 1, b.max(i + 1))
                        }
                    }
                    Err(_) => i + 1,
                };
                toks.push(Token {
                    kind: Tk::Group,
                    start: i,
                    end,
                });
                i = end;
            }
            c if is_ident(c) => {
                let s = i;
                while i < b && is_ident(code[i]) {
                    i += 1;
                }
                toks.push(Token {
                    kind: Tk::Ident,
                    start: s,
                    end: i,
                });
            }
            _ => {
                let two = code.get(i..i + 2).unwrap_or(b"");
                let len = if matches!(two, b"::" | b"->" | b"=>" | b"?." | b"&&" | b"||") {
                    2
                } else {
                    1
                };
                toks.push(Token {
                    kind: Tk::Punct,
                    start: i,
                    end: (i + len).min(b),
                });
                i += len;
            }
        }
    }
    while toks.last().is_some_and(|t| t.kind == Tk::Newline) {
        toks.pop();
    }
    Header { code, src, toks }
}

const CONTROL: &[&[u8]] = &[
    b"if",
    b"for",
    b"while",
    b"switch",
    b"catch",
    b"do",
    b"else",
    b"try",
    b"synchronized",
    b"using",
    b"lock",
    b"fixed",
    b"foreach",
    b"unsafe",
    b"checked",
    b"unchecked",
    b"when",
    b"return",
    b"sizeof",
    b"new",
    b"throw",
    b"case",
    b"with",
    b"elif",
    b"guard",
    b"defer",
    b"repeat",
    b"select",
    b"go",
    b"typeof",
    b"await",
    b"yield",
    b"delete",
    b"assert",
    b"function",
    b"alignof",
    b"decltype",
    b"static_assert",
    b"__attribute__",
    b"__declspec",
    b"foreach",
    b"loop",
    b"match",
    b"in",
    b"of",
    b"let",
    b"var",
    b"const",
    b"default",
    b"finally",
    b"instanceof",
    b"void",
    b"goto",
    b"requires",
    b"noexcept",
    b"throws",
];

const TYPE_WORDS: &[&[u8]] = &[
    b"class",
    b"struct",
    b"union",
    b"enum",
    b"interface",
    b"record",
    b"namespace",
    b"trait",
    b"impl",
    b"mod",
    b"object",
    b"protocol",
    b"extension",
    b"actor",
];

impl<'a> Header<'a> {
    fn text(&self, t: &Token) -> &'a [u8] {
        &self.code[t.start..t.end]
    }

    fn is(&self, k: usize, word: &[u8]) -> bool {
        self.toks
            .get(k)
            .is_some_and(|t| t.kind != Tk::Str && self.text(t) == word)
    }

    fn is_ident(&self, k: usize) -> bool {
        self.toks.get(k).is_some_and(|t| t.kind == Tk::Ident)
    }

    fn is_group(&self, k: usize, open: u8) -> bool {
        self.toks
            .get(k)
            .is_some_and(|t| t.kind == Tk::Group && self.code[t.start] == open)
    }

    fn is_punct(&self, k: usize, p: &[u8]) -> bool {
        self.toks
            .get(k)
            .is_some_and(|t| t.kind == Tk::Punct && self.text(t) == p)
    }

    fn name_of(&self, k: usize) -> String {
        let t = &self.toks[k];
        let raw = self.src.get(t.start..t.end).unwrap_or(b"");
        let s = String::from_utf8_lossy(raw);
        s.trim_matches(|c| c == '`' || c == '"' || c == '\'')
            .to_string()
    }

    fn decl(&self, kind: Kind, name: usize, start: usize) -> Decl {
        let t = &self.toks[name];
        Decl {
            kind,
            name: (t.start, t.end),
            name_text: self.name_of(name),
            start: self.toks.get(start).map_or(t.start, |s| s.start),
            qualifier: None,
        }
    }

    /// Index of the first token that is not an attribute, annotation or decorator.
    fn skip_prelude(&self, lang: Lang) -> usize {
        let mut k = 0;
        let n = self.toks.len();
        while k < n {
            let t = &self.toks[k];
            match t.kind {
                Tk::Newline => k += 1,
                Tk::Punct if self.text(t) == b"#" && self.is_group(k + 1, b'[') => k += 2,
                Tk::Punct if self.text(t) == b"@" && self.is_ident(k + 1) => {
                    // `@interface` in Java declares a type; it is not an annotation.
                    if self.is(k + 1, b"interface") {
                        break;
                    }
                    k += 2;
                    while self.is_punct(k, b".") && self.is_ident(k + 1) {
                        k += 2;
                    }
                    if self.is_group(k, b'(') {
                        k += 1;
                    }
                }
                Tk::Group
                    if self.code[t.start] == b'['
                        && matches!(lang, Lang::CSharp | Lang::Cpp | Lang::Generic) =>
                {
                    k += 1
                }
                // C++ access labels and Qt sections: `public:` (not `::`).
                Tk::Ident
                    if matches!(lang, Lang::Cpp)
                        && self.is_punct(k + 1, b":")
                        && matches!(
                            self.text(t),
                            b"public" | b"private" | b"protected" | b"signals" | b"slots"
                        ) =>
                {
                    k += 2
                }
                Tk::Ident
                    if matches!(lang, Lang::Cpp)
                        && self.is_punct(k + 2, b":")
                        && matches!(self.text(t), b"public" | b"private" | b"protected")
                        && self.is(k + 1, b"slots") =>
                {
                    k += 3
                }
                _ => break,
            }
        }
        k
    }

    /// Walks back from `k` over tokens `allowed` accepts, on the same line; returns the
    /// first accepted index (or `k`).
    fn back_over(&self, k: usize, lo: usize, allowed: impl Fn(usize) -> bool) -> usize {
        let mut s = k;
        while s > lo && allowed(s - 1) {
            s -= 1;
        }
        s
    }

    /// Every index of `word` at or after `from`, in order.
    fn all_words<'w>(&'w self, from: usize, word: &'w [u8]) -> impl Iterator<Item = usize> + 'w {
        (from..self.toks.len())
            .filter(move |&k| self.toks[k].kind == Tk::Ident && self.text(&self.toks[k]) == word)
    }

    /// The last top-level index of `word` at or after `from`.
    fn last_word(&self, from: usize, word: &[u8]) -> Option<usize> {
        (from..self.toks.len())
            .rev()
            .find(|&k| self.toks[k].kind == Tk::Ident && self.text(&self.toks[k]) == word)
    }

    /// Skips a `< … >` run starting at `k` (which must be `<`); returns the index after.
    fn skip_angles(&self, k: usize) -> usize {
        if !self.is_punct(k, b"<") {
            return k;
        }
        let mut depth = 0i32;
        let mut j = k;
        while j < self.toks.len() {
            let t = &self.toks[j];
            if t.kind == Tk::Punct {
                match self.text(t) {
                    b"<" => depth += 1,
                    b">" => depth -= 1,
                    b"->" | b"=>" => {}
                    b"{" | b";" => return k,
                    _ => {}
                }
            }
            j += 1;
            if depth <= 0 {
                return j;
            }
        }
        k
    }
}

/// Classifies the header `code[a..b]` (the `{` is at `b`).
pub fn classify(
    lang: Lang,
    code: &[u8],
    src: &[u8],
    events: &[Event],
    a: usize,
    b: usize,
    cx: &Context,
) -> Option<Decl> {
    let h = tokenize(code, src, events, a, b);
    if h.toks.is_empty() {
        return None;
    }
    match lang {
        Lang::Rust => rust(&h, cx),
        Lang::Go => go(&h, cx),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js(&h, lang, cx),
        Lang::Kotlin => kotlin(&h, cx),
        Lang::Swift => swift(&h, cx),
        Lang::Php => php(&h, cx),
        Lang::C | Lang::Cpp | Lang::Java | Lang::CSharp => {
            c_family(&h, lang, cx).or_else(|| c_type(&h, lang))
        }
        Lang::Css | Lang::Scss => css(&h, cx),
        Lang::Json => json(&h, cx),
        Lang::Generic => keyword_fn(
            &h,
            cx,
            &[b"function", b"fn", b"func", b"fun", b"def", b"sub"],
        )
        .or_else(|| c_family(&h, lang, cx))
        .or_else(|| c_type(&h, lang)),
        Lang::Python | Lang::Yaml => None,
    }
}

fn method_or_function(cx: &Context) -> Kind {
    match &cx.container {
        Some((_, k)) if k.holds_methods() => Kind::Method,
        _ => Kind::Function,
    }
}

// ---- Rust ----

fn rust(h: &Header, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(Lang::Rust);
    let modifiers = |k: usize| {
        let t = &h.toks[k];
        match t.kind {
            Tk::Ident => matches!(
                h.text(t),
                b"pub" | b"async" | b"unsafe" | b"const" | b"extern" | b"default"
            ),
            Tk::Str => true,
            Tk::Group => k > 0 && h.is(k - 1, b"pub"),
            _ => false,
        }
    };
    // The first `fn` with a name: later ones are `fn(…)` pointer types.
    if let Some(k) = h.all_words(lo, b"fn").find(|&k| h.is_ident(k + 1)) {
        let start = h.back_over(k, lo, modifiers);
        return Some(h.decl(method_or_function(cx), k + 1, start));
    }
    if h.last_word(lo, b"fn").is_some() {
        return None;
    }
    if let Some(k) = h.last_word(lo, b"impl") {
        let start = h.back_over(k, lo, modifiers);
        // `impl<T> Trait for Type<T> where …`: the type after `for`, else after impl.
        let mut j = h.skip_angles(k + 1);
        let mut name = None;
        while j < h.toks.len() {
            if h.is(j, b"for") {
                name = None;
            } else if h.is(j, b"where") {
                break;
            } else if h.is_ident(j) && !h.is(j, b"dyn") && !h.is(j, b"mut") {
                name = Some(j);
            } else if h.is_punct(j, b"<") {
                j = h.skip_angles(j).max(j + 1);
                continue;
            }
            j += 1;
        }
        let name = name?;
        return Some(h.decl(Kind::Impl, name, start));
    }
    for (word, kind) in [
        (&b"struct"[..], Kind::Struct),
        (b"enum", Kind::Enum),
        (b"trait", Kind::Trait),
        (b"union", Kind::Union),
        (b"mod", Kind::Module),
    ] {
        if let Some(k) = h.last_word(lo, word) {
            if h.is_ident(k + 1) {
                let start = h.back_over(k, lo, modifiers);
                return Some(h.decl(kind, k + 1, start));
            }
        }
    }
    if let Some(k) = h.last_word(lo, b"macro_rules") {
        if h.is_punct(k + 1, b"!") && h.is_ident(k + 2) {
            return Some(h.decl(Kind::Macro, k + 2, k));
        }
    }
    None
}

// ---- Go ----

fn go(h: &Header, cx: &Context) -> Option<Decl> {
    // The first `func` with a name (later ones are `func(…)` types and literals).
    let funcs: Vec<usize> = h.all_words(0, b"func").collect();
    for &k in &funcs {
        if h.is_ident(k + 1) && (h.is_group(k + 2, b'(') || h.is_group(k + 2, b'[')) {
            return Some(h.decl(Kind::Function, k + 1, k));
        }
        let after_name = if h.is_group(k + 3, b'[') {
            k + 4
        } else {
            k + 3
        };
        if h.is_group(k + 1, b'(') && h.is_ident(k + 2) && h.is_group(after_name, b'(') {
            let mut d = h.decl(Kind::Method, k + 2, k);
            d.qualifier = go_receiver(h, &h.toks[k + 1]);
            return Some(d);
        }
    }
    if !funcs.is_empty() {
        return None;
    }
    // `type Name struct {`, or `Name struct {` inside `type ( … )`.
    let n = h.toks.len();
    let kw = n.checked_sub(1)?;
    let kind = if h.is(kw, b"struct") {
        Kind::Struct
    } else if h.is(kw, b"interface") {
        Kind::Interface
    } else {
        return None;
    };
    let mut name = kw.checked_sub(1)?;
    if h.is_group(name, b'[') {
        name = name.checked_sub(1)?;
    }
    if !h.is_ident(name) {
        return None;
    }
    let start = if name > 0 && h.is(name - 1, b"type") {
        name - 1
    } else if cx.in_group {
        name
    } else {
        return None;
    };
    Some(h.decl(kind, name, start))
}

/// The receiver's type name: `(r *Reader[T])` → `Reader`.
fn go_receiver(h: &Header, group: &Token) -> Option<String> {
    let inner = h.code.get(group.start + 1..group.end.saturating_sub(1))?;
    let idents: Vec<&[u8]> = inner
        .split(|c| !is_ident(*c))
        .filter(|w| !w.is_empty())
        .collect();
    let ty = match idents.as_slice() {
        [] => return None,
        [only] => only,
        [_, ty, ..] => ty,
    };
    Some(String::from_utf8_lossy(ty).into_owned())
}

// ---- JavaScript / TypeScript ----

const JS_MODIFIERS: &[&[u8]] = &[
    b"static",
    b"async",
    b"get",
    b"set",
    b"public",
    b"private",
    b"protected",
    b"readonly",
    b"override",
    b"abstract",
    b"declare",
    b"accessor",
    b"export",
    b"default",
];

fn js(h: &Header, lang: Lang, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(lang);
    let n = h.toks.len();
    if lo >= n {
        return None;
    }
    // The statement the `{` belongs to starts after the last top-level line break
    // that is not inside it; keep it simple: the last line break before a keyword
    // form is where modifiers stop.
    let js_mod = |k: usize| js_modifier(h, k);
    let last = n - 1;

    // function declarations / expressions
    if let Some(k) = h.last_word(lo, b"function") {
        return js_function(h, k, lo, cx);
    }

    // arrow functions: `… => {`
    if h.is_punct(last, b"=>") {
        return js_arrow(h, lo, last, cx);
    }

    // class / interface / enum / namespace
    for (word, kind) in [
        (&b"class"[..], Kind::Class),
        (b"interface", Kind::Interface),
        (b"enum", Kind::Enum),
        (b"namespace", Kind::Module),
        (b"module", Kind::Module),
    ] {
        if let Some(k) = h.last_word(lo, word) {
            if k > lo && h.is_punct(k - 1, b".") {
                continue;
            }
            let start = h.back_over(k, lo, |j| {
                js_mod(j) || h.is(j, b"const") || h.is(j, b"declare")
            });
            if h.is_ident(k + 1) && !h.is(k + 1, b"extends") && !h.is(k + 1, b"implements") {
                let mut d = h.decl(kind, k + 1, start);
                // `namespace A.B.C`
                let mut j = k + 2;
                while h.is_punct(j, b".") && h.is_ident(j + 1) {
                    j += 2;
                }
                if j > k + 2 {
                    let t = &h.toks[j - 1];
                    d.name = (h.toks[k + 1].start, t.end);
                    d.name_text = String::from_utf8_lossy(&h.src[d.name.0..d.name.1]).into_owned();
                }
                return Some(d);
            }
            if kind == Kind::Class {
                // `const Name = class {`, or an anonymous class (its methods are still
                // methods)
                return js_assigned(h, k, lo, cx)
                    .map(|mut d| {
                        d.kind = Kind::Class;
                        d
                    })
                    .or(Some(Decl {
                        kind: Kind::Class,
                        name: (h.toks[k].end, h.toks[k].end),
                        name_text: String::new(),
                        start: h.toks[k].start,
                        qualifier: None,
                    }));
            }
        }
    }

    js_method(h, lo, cx)
}

/// Whether token `k` is a JS/TS modifier (`export`, `async`, `static`, `*`…).
fn js_modifier(h: &Header, k: usize) -> bool {
    let t = &h.toks[k];
    (t.kind == Tk::Ident && JS_MODIFIERS.contains(&h.text(t))) || h.is_punct(k, b"*")
}

/// `function name(…) {` (or `name = function (…) {`), `k` being the `function` token.
fn js_function(h: &Header, k: usize, lo: usize, cx: &Context) -> Option<Decl> {
    let js_mod = |k: usize| js_modifier(h, k);
    let mut j = k + 1;
    if h.is_punct(j, b"*") {
        j += 1;
    }
    if h.is_ident(j) {
        let mut p = j + 1;
        if h.is_punct(p, b"<") {
            p = h.skip_angles(p);
        }
        if !h.is_group(p, b'(') {
            return None;
        }
        let start = h.back_over(k, lo, js_mod);
        return Some(h.decl(method_or_function(cx), j, start));
    }
    if h.is_group(j, b'(') || h.is_punct(j, b"<") {
        // `name = function (…)`, `name: function (…)`
        return js_assigned(h, k, lo, cx);
    }
    None
}

/// An arrow function `… => {` (the header's `last` token is the `=>`).
fn js_arrow(h: &Header, lo: usize, last: usize, cx: &Context) -> Option<Decl> {
    // params: the last top-level `(` group before `=>` after which only a return
    // type follows, or a single identifier
    let mut g = None;
    for k in (lo..last).rev() {
        if h.is_group(k, b'(') {
            if k + 1 == last || h.is_punct(k + 1, b":") {
                g = Some(k);
            }
            break;
        }
    }
    let mut p = match g {
        Some(g) => g,
        None if last > lo && h.is_ident(last - 1) => last - 1,
        None => return None,
    };
    if p > 0 && h.is(p - 1, b"async") {
        p -= 1;
    }
    if p > 0 && h.is_punct(p - 1, b">") {
        // generic parameters `<T>(x: T) =>`
        let mut d = 0;
        let mut k = p - 1;
        loop {
            if h.is_punct(k, b">") {
                d += 1;
            } else if h.is_punct(k, b"<") {
                d -= 1;
                if d == 0 {
                    break;
                }
            }
            if k == 0 {
                return None;
            }
            k -= 1;
        }
        p = k;
    }
    js_assigned(h, p, lo, cx)
}

/// A method `[modifiers] name(params) [: Type] {` in a class body or object literal.
fn js_method(h: &Header, lo: usize, cx: &Context) -> Option<Decl> {
    let n = h.toks.len();
    let last = n - 1;
    let js_mod = |k: usize| js_modifier(h, k);
    // methods: `[modifiers] name(params) [: Type] {` in a class body or object literal
    let in_class = cx
        .container
        .as_ref()
        .is_some_and(|(_, k)| matches!(k, Kind::Class | Kind::Interface));
    if !(in_class || cx.in_object) {
        return None;
    }
    let mut g = None;
    for k in (lo..n).rev() {
        if h.is_group(k, b'(') {
            g = Some(k);
            break;
        }
        if h.toks[k].kind == Tk::Newline {
            break;
        }
    }
    let g = g?;
    // after the params: nothing, or `: Type`
    if g != last && !h.is_punct(g + 1, b":") {
        return None;
    }
    let mut name = g.checked_sub(1)?;
    if h.is_punct(name, b">") {
        // generic method `name<T>(…)`
        let mut k = name;
        let mut d = 0;
        loop {
            if h.is_punct(k, b">") {
                d += 1;
            } else if h.is_punct(k, b"<") {
                d -= 1;
                if d == 0 {
                    break;
                }
            }
            k = k.checked_sub(1)?;
        }
        name = k.checked_sub(1)?;
    }
    if h.is_punct(name, b"?") || h.is_punct(name, b"!") {
        name = name.checked_sub(1)?;
    }
    let t = h.toks[name];
    let ok_name = match t.kind {
        Tk::Ident => !CONTROL.contains(&h.text(&t)),
        Tk::Str => true,
        _ => false,
    };
    if !ok_name {
        return None;
    }
    let mut name_tok = name;
    if name > 0 && h.is_punct(name - 1, b"#") {
        name_tok = name; // private `#name`: keep the identifier
    }
    let start = h.back_over(
        if name > 0 && h.is_punct(name - 1, b"#") {
            name - 1
        } else {
            name
        },
        lo,
        js_mod,
    );
    // anything else before the modifiers on this line means it is not a method
    if start > lo && h.toks[start - 1].kind != Tk::Newline && !h.is_punct(start - 1, b",") {
        return None;
    }
    Some(h.decl(Kind::Method, name_tok, start))
}

/// `const name = <k…>`, `name = <k…>`, `name: <k…>`: the name before the `=`/`:` that
/// precedes token `k`.
fn js_assigned(h: &Header, k: usize, lo: usize, cx: &Context) -> Option<Decl> {
    let op = k.checked_sub(1)?;
    if op < lo {
        return None;
    }
    if h.is_punct(op, b":") {
        // object property: `name: …`
        let name = op.checked_sub(1)?;
        if !(h.is_ident(name) || h.toks[name].kind == Tk::Str) {
            return None;
        }
        if name > lo && !matches!(h.toks[name - 1].kind, Tk::Newline) && !h.is_punct(name - 1, b",")
        {
            return None;
        }
        return Some(h.decl(Kind::Method, name, name));
    }
    if !h.is_punct(op, b"=") {
        return None;
    }
    // the statement: from the line start (or lo) to `=`
    let mut s = op;
    while s > lo && h.toks[s - 1].kind != Tk::Newline {
        s -= 1;
    }
    let mut j = s;
    while j < op {
        let t = &h.toks[j];
        let w = h.text(t);
        if t.kind == Tk::Ident
            && (JS_MODIFIERS.contains(&w) || matches!(w, b"const" | b"let" | b"var"))
        {
            j += 1;
            continue;
        }
        break;
    }
    if !h.is_ident(j) {
        return None;
    }
    // `a.b.c = function`: only plain names (and `this.x` / `exports.x` style is skipped)
    let after = j + 1;
    let plain = after == op
        || h.is_punct(after, b":")
        || h.is_punct(after, b"?") && h.is_punct(after + 1, b":")
        || h.is_punct(after, b"!") && h.is_punct(after + 1, b":");
    if !plain {
        return None;
    }
    let kind = match &cx.container {
        Some((_, Kind::Class)) => Kind::Method,
        _ => Kind::Function,
    };
    Some(h.decl(kind, j, s))
}

// ---- Kotlin ----

const KOTLIN_MODIFIERS: &[&[u8]] = &[
    b"public",
    b"private",
    b"internal",
    b"protected",
    b"override",
    b"open",
    b"abstract",
    b"final",
    b"suspend",
    b"inline",
    b"operator",
    b"infix",
    b"tailrec",
    b"external",
    b"actual",
    b"expect",
    b"data",
    b"sealed",
    b"enum",
    b"annotation",
    b"inner",
    b"value",
    b"companion",
    b"const",
    b"lateinit",
];

fn kotlin(h: &Header, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(Lang::Kotlin);
    let modifiers = |k: usize| {
        let t = &h.toks[k];
        t.kind == Tk::Ident && KOTLIN_MODIFIERS.contains(&h.text(t))
    };
    let fun = h.last_word(lo, b"fun");
    let ty = [
        (&b"class"[..], Kind::Class),
        (b"interface", Kind::Interface),
        (b"object", Kind::Object),
    ]
    .into_iter()
    .filter_map(|(w, kind)| h.last_word(lo, w).map(|k| (k, kind)))
    .max_by_key(|(k, _)| *k);
    if let Some(k) = fun {
        if ty.is_none_or(|(t, _)| t < k) {
            let mut j = h.skip_angles(k + 1);
            // receiver `Type.` / `Type<T>.`; the name is the last name before `(`
            let mut name = None;
            while j < h.toks.len() && !h.is_group(j, b'(') {
                let t = &h.toks[j];
                if t.kind == Tk::Ident || t.kind == Tk::Str {
                    name = Some(j);
                } else if h.is_punct(j, b"<") {
                    j = h.skip_angles(j).max(j + 1);
                    continue;
                } else if !h.is_punct(j, b".") && !h.is_punct(j, b"?") {
                    return None;
                }
                j += 1;
            }
            let name = name?;
            if !h.is_group(name + 1, b'(') {
                return None;
            }
            let start = h.back_over(k, lo, modifiers);
            return Some(h.decl(method_or_function(cx), name, start));
        }
    }
    if let Some((k, kind)) = ty {
        let start = h.back_over(k, lo, |j| modifiers(j) || h.is(j, b"fun"));
        if h.is_ident(k + 1) {
            return Some(h.decl(kind, k + 1, start));
        }
        return None;
    }
    if let Some(k) = h.last_word(lo, b"constructor") {
        if h.is_group(k + 1, b'(') {
            let start = h.back_over(k, lo, modifiers);
            return Some(h.decl(Kind::Method, k, start));
        }
    }
    None
}

// ---- Swift ----

const SWIFT_MODIFIERS: &[&[u8]] = &[
    b"public",
    b"private",
    b"fileprivate",
    b"internal",
    b"open",
    b"static",
    b"class",
    b"final",
    b"override",
    b"mutating",
    b"nonmutating",
    b"convenience",
    b"required",
    b"dynamic",
    b"indirect",
    b"lazy",
    b"weak",
    b"unowned",
    b"nonisolated",
    b"async",
];

fn swift(h: &Header, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(Lang::Swift);
    let modifiers = |k: usize| {
        let t = &h.toks[k];
        (t.kind == Tk::Ident && SWIFT_MODIFIERS.contains(&h.text(t)))
            || (t.kind == Tk::Group && k > 0 && h.is_ident(k - 1))
    };
    if let Some(k) = h.last_word(lo, b"func") {
        let j = k + 1;
        if h.is_ident(j) || h.toks.get(j).is_some_and(|t| t.kind == Tk::Str) {
            let start = h.back_over(k, lo, modifiers);
            return Some(h.decl(method_or_function(cx), j, start));
        }
        if h.toks.get(j).is_some_and(|t| t.kind == Tk::Punct) {
            // operator functions: `func == (…)`
            let start = h.back_over(k, lo, modifiers);
            return Some(h.decl(method_or_function(cx), j, start));
        }
        return None;
    }
    for word in [&b"init"[..], b"deinit", b"subscript"] {
        if let Some(k) = h.last_word(lo, word) {
            let next_ok = word == b"deinit"
                || h.is_group(k + 1, b'(')
                || (h.is_punct(k + 1, b"?") || h.is_punct(k + 1, b"!")) && h.is_group(k + 2, b'(')
                || h.is_punct(k + 1, b"<");
            if next_ok && (k == lo || h.toks[k - 1].kind == Tk::Newline || modifiers(k - 1)) {
                let start = h.back_over(k, lo, modifiers);
                return Some(h.decl(Kind::Method, k, start));
            }
        }
    }
    let ty = [
        (&b"class"[..], Kind::Class),
        (b"struct", Kind::Struct),
        (b"enum", Kind::Enum),
        (b"protocol", Kind::Interface),
        (b"extension", Kind::Impl),
        (b"actor", Kind::Class),
    ]
    .into_iter()
    .filter_map(|(w, kind)| h.last_word(lo, w).map(|k| (k, kind)))
    .max_by_key(|(k, _)| *k);
    if let Some((k, kind)) = ty {
        if h.is_ident(k + 1) {
            let start = h.back_over(k, lo, modifiers);
            let mut d = h.decl(kind, k + 1, start);
            // `extension Foo.Bar`
            let mut j = k + 2;
            while h.is_punct(j, b".") && h.is_ident(j + 1) {
                j += 2;
            }
            if j > k + 2 {
                d = h.decl(kind, j - 1, start);
            }
            return Some(d);
        }
    }
    None
}

// ---- PHP ----

fn php(h: &Header, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(Lang::Php);
    let modifiers = |k: usize| {
        let t = &h.toks[k];
        t.kind == Tk::Ident
            && matches!(
                h.text(t),
                b"public"
                    | b"private"
                    | b"protected"
                    | b"static"
                    | b"abstract"
                    | b"final"
                    | b"readonly"
            )
    };
    if let Some(k) = h.last_word(lo, b"function") {
        let mut j = k + 1;
        if h.is_punct(j, b"&") {
            j += 1;
        }
        if h.is_ident(j) && h.is_group(j + 1, b'(') {
            let start = h.back_over(k, lo, modifiers);
            return Some(h.decl(method_or_function(cx), j, start));
        }
        return None;
    }
    for (word, kind) in [
        (&b"class"[..], Kind::Class),
        (b"interface", Kind::Interface),
        (b"trait", Kind::Trait),
        (b"enum", Kind::Enum),
        (b"namespace", Kind::Module),
    ] {
        if let Some(k) = h.last_word(lo, word) {
            if h.is_ident(k + 1) && !(k > lo && h.is(k - 1, b"new")) {
                let start = h.back_over(k, lo, modifiers);
                return Some(h.decl(kind, k + 1, start));
            }
        }
    }
    None
}

// ---- C, C++, Java, C# ----

/// `type name(params) qualifiers {` (and constructors, destructors, operators).
fn c_family(h: &Header, lang: Lang, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(lang);
    let n = h.toks.len();
    let mut restart = lo;
    let mut g = lo;
    while g < n {
        if !h.is_group(g, b'(') {
            g += 1;
            continue;
        }
        if let Some(d) = c_function_at(h, cx, restart, g) {
            return Some(d);
        }
        if let Some(d) = c_pointer_returning(h, cx, restart, g) {
            return Some(d);
        }
        // A group followed by a line break ends a macro invocation on its own line;
        // the declaration, if any, starts after it.
        let attribute_like = g > 0
            && matches!(
                h.text(&h.toks[g - 1]),
                b"__attribute__"
                    | b"__declspec"
                    | b"alignas"
                    | b"_Alignas"
                    | b"decltype"
                    | b"__attribute"
            );
        if !attribute_like && h.toks.get(g + 1).is_some_and(|t| t.kind == Tk::Newline) {
            restart = g + 1;
            while restart < n && h.toks[restart].kind == Tk::Newline {
                restart += 1;
            }
        }
        g += 1;
    }
    None
}

/// The name token before the parameter group `g`: (its index, where the name starts,
/// whether it is an `operator…`); None when no function name stands there.
fn c_name(h: &Header, lo: usize, g: usize) -> Option<(usize, usize, bool)> {
    let mut name = g - 1;
    let mut name_start = name;
    let t = h.toks[name];
    let mut operator = false;
    if t.kind == Tk::Ident && h.text(&t) == b"operator" {
        operator = true;
    } else if t.kind == Tk::Punct || (t.kind == Tk::Group && h.code[t.start] != b'{') {
        // `operator==(`, `operator()(`, `operator[](`
        let mut k = name;
        while k > lo && k + 4 > name && !h.is(k, b"operator") {
            k -= 1;
        }
        if h.is(k, b"operator") && k < name {
            operator = true;
            name_start = k;
            name = k;
        } else {
            return None;
        }
    } else if t.kind != Tk::Ident {
        return None;
    }
    if !operator {
        let w = h.text(&t);
        if CONTROL.contains(&w) || TYPE_WORDS.contains(&w) {
            return None;
        }
    }
    Some((name, name_start, operator))
}

/// Whether the tokens before the (qualified) name, ending at `pk`, read as a return
/// type: the token before it may end a type, and nothing from `lo` to the name `k` is
/// an expression (`=`, `.`, `->`).
fn c_type_before(h: &Header, lo: usize, k: usize, pk: usize) -> bool {
    let p = h.toks[pk - 1];
    let ok = match p.kind {
        Tk::Ident => !matches!(
            h.text(&p),
            b"new"
                | b"return"
                | b"else"
                | b"case"
                | b"throw"
                | b"goto"
                | b"await"
                | b"yield"
                | b"delete"
                | b"typeof"
                | b"sizeof"
                | b"in"
                | b"is"
                | b"as"
                | b"using"
                | b"if"
                | b"while"
                | b"for"
                | b"switch"
        ),
        Tk::Punct => matches!(h.text(&p), b"*" | b"&" | b"&&" | b">" | b"?" | b"^" | b"%"),
        Tk::Group => matches!(h.code[p.start], b'[' | b'('),
        _ => false,
    };
    if !ok {
        return false;
    }
    // A `=` or `.` anywhere before the name: an expression, not a declaration.
    for j in lo..k {
        if h.is_punct(j, b"=") || h.is_punct(j, b".") || h.is_punct(j, b"->") {
            return false;
        }
    }
    true
}

fn c_function_at(h: &Header, cx: &Context, lo: usize, g: usize) -> Option<Decl> {
    if g <= lo {
        return None;
    }
    // The name: an identifier (`operator…` and `~Name` handled), possibly qualified.
    let (name, name_start, operator) = c_name(h, lo, g)?;
    let mut qualified = false;
    let mut destructor = false;
    let mut k = name_start;
    if k > lo && h.is_punct(k - 1, b"~") {
        destructor = true;
        k -= 1;
    }
    let mut qualifier = None;
    while k >= lo + 2 && h.is_punct(k - 1, b"::") {
        // `A::B::name`, `A<T>::name`
        let mut q = k - 2;
        if h.is_punct(q, b">") {
            let mut d = 0;
            loop {
                if h.is_punct(q, b">") {
                    d += 1;
                } else if h.is_punct(q, b"<") {
                    d -= 1;
                    if d == 0 {
                        break;
                    }
                }
                if q <= lo {
                    return None;
                }
                q -= 1;
            }
            q = q.checked_sub(1)?;
        }
        if !h.is_ident(q) {
            break;
        }
        if qualifier.is_none() {
            qualifier = Some(h.name_of(q));
        }
        qualified = true;
        k = q;
    }
    if k > lo && h.is_punct(k - 1, b"::") {
        // `::name` (global qualifier)
        k -= 1;
        qualified = true;
    }
    // What precedes the (qualified) name: a type, or nothing.
    let mut pk = k;
    while pk > lo && h.toks[pk - 1].kind == Tk::Newline {
        pk -= 1;
    }
    let has_type = pk > lo;
    if has_type {
        if !c_type_before(h, lo, k, pk) {
            return None;
        }
    } else {
        let ctor = cx
            .container
            .as_ref()
            .is_some_and(|(c, _)| c.as_bytes() == h.text(&h.toks[name]));
        if !(ctor || qualified || destructor) {
            return None;
        }
    }
    // After the parameters: qualifiers only (no `=`, no member access).
    let assigned = h.toks[g + 1..]
        .iter()
        .any(|t| t.kind == Tk::Punct && matches!(h.text(t), b"=" | b"." | b"?." | b"=>"));
    if assigned {
        return None;
    }
    let mut d = h.decl(method_or_function(cx), name, lo);
    if operator {
        let end = h.toks[g - 1].end;
        d.name = (h.toks[name].start, end);
        let raw = String::from_utf8_lossy(&h.src[d.name.0..d.name.1]).into_owned();
        d.name_text = raw.split_whitespace().collect::<Vec<_>>().join("");
    }
    if destructor {
        d.name_text = format!("~{}", d.name_text);
    }
    if qualifier.is_some() {
        d.qualifier = qualifier;
        if matches!(d.kind, Kind::Function) {
            d.kind = Kind::Method;
        }
    }
    Some(d)
}

/// A function returning a function pointer: `void (*name(int x))(int) {`.
fn c_pointer_returning(h: &Header, cx: &Context, lo: usize, g: usize) -> Option<Decl> {
    let t = h.toks[g];
    if g <= lo || !h.is_ident(g - 1) || !h.is_group(g + 1, b'(') {
        return None;
    }
    let inner = h.code.get(t.start + 1..t.end.saturating_sub(1))?;
    let stars = inner
        .iter()
        .take_while(|c| **c == b'*' || c.is_ascii_whitespace())
        .count();
    if stars == 0 || !inner[..stars].contains(&b'*') {
        return None;
    }
    let rest = &inner[stars..];
    let len = rest.iter().take_while(|c| is_ident(**c)).count();
    if len == 0 || rest[len..].trim_ascii_start().first() != Some(&b'(') {
        return None;
    }
    let a = t.start + 1 + stars;
    let name = String::from_utf8_lossy(h.src.get(a..a + len)?).into_owned();
    Some(Decl {
        kind: method_or_function(cx),
        name: (a, a + len),
        name_text: name,
        start: h.toks[lo].start,
        qualifier: None,
    })
}

/// `class Name …`, `struct Name …`, `namespace a::b`, `@interface Name`.
fn c_type(h: &Header, lang: Lang) -> Option<Decl> {
    let lo = h.skip_prelude(lang);
    let n = h.toks.len();
    let mut k = lo;
    while k < n {
        let t = &h.toks[k];
        if t.kind == Tk::Group || h.is_punct(k, b"=") {
            return None;
        }
        if t.kind == Tk::Ident {
            let kind = match h.text(t) {
                b"class" | b"record" => Some(Kind::Class),
                b"struct" => Some(Kind::Struct),
                b"union" => Some(Kind::Union),
                b"enum" => Some(Kind::Enum),
                b"interface" => Some(Kind::Interface),
                b"namespace" => Some(Kind::Module),
                _ => None,
            };
            if let Some(mut kind) = kind {
                if h.is_punct(k.wrapping_sub(1), b"@") {
                    kind = Kind::Interface;
                }
                if h.is(k, b"record") {
                    kind = Kind::Record;
                }
                // `enum class X`, `enum struct X`
                let mut j = k + 1;
                if kind == Kind::Enum && (h.is(j, b"class") || h.is(j, b"struct")) {
                    j += 1;
                }
                // the name: the last identifier (or qualified path) before `:`,
                // `<`, `(`, `extends`, `implements`, `where`, `final`, or the end
                let mut name = None;
                let mut first = None;
                while j < n {
                    let t = &h.toks[j];
                    if t.kind == Tk::Ident {
                        let w = h.text(t);
                        if matches!(
                            w,
                            b"extends"
                                | b"implements"
                                | b"where"
                                | b"final"
                                | b"sealed"
                                | b"permits"
                        ) {
                            break;
                        }
                        if first.is_none() {
                            first = Some(j);
                        }
                        name = Some(j);
                        j += 1;
                    } else if h.is_punct(j, b"::") || h.is_punct(j, b".") {
                        j += 1;
                    } else if h.is_group(j, b'[') {
                        j += 1; // attributes between keyword and name
                    } else {
                        break;
                    }
                }
                let name = name?;
                let mut d = h.decl(kind, name, lo);
                if kind == Kind::Module {
                    if let Some(f) = first {
                        d.name = (h.toks[f].start, h.toks[name].end);
                        d.name_text =
                            String::from_utf8_lossy(&h.src[d.name.0..d.name.1]).into_owned();
                    }
                }
                return Some(d);
            }
        }
        k += 1;
    }
    None
}

// ---- CSS, JSON, generic ----

fn css(h: &Header, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(Lang::Css);
    let n = h.toks.len();
    if lo >= n {
        return None;
    }
    if h.is_punct(lo, b"@") && (h.is(lo + 1, b"mixin") || h.is(lo + 1, b"function")) {
        if h.is_ident(lo + 2) {
            return Some(h.decl(Kind::Function, lo + 2, lo));
        }
        return None;
    }
    if cx.container.is_some() || cx.in_group {
        return None;
    }
    let a = h.toks[lo].start;
    let b = h.toks[n - 1].end;
    let raw = String::from_utf8_lossy(h.src.get(a..b).unwrap_or(b""));
    let mut name: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.chars().count() > 80 {
        name = name.chars().take(79).collect::<String>() + "…";
    }
    Some(Decl {
        kind: Kind::Rule,
        name: (h.toks[lo].start, h.toks[lo].end),
        name_text: name,
        start: a,
        qualifier: None,
    })
}

fn json(h: &Header, cx: &Context) -> Option<Decl> {
    if !cx.in_object {
        return None;
    }
    let n = h.toks.len();
    if n >= 2 && h.toks[n - 2].kind == Tk::Str && h.is_punct(n - 1, b":") {
        return Some(h.decl(Kind::Key, n - 2, n - 2));
    }
    None
}

fn keyword_fn(h: &Header, cx: &Context, words: &[&[u8]]) -> Option<Decl> {
    for w in words {
        if let Some(k) = h.last_word(0, w) {
            if h.is_ident(k + 1) {
                return Some(h.decl(method_or_function(cx), k + 1, k));
            }
        }
    }
    None
}
