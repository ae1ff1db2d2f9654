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
//!
//! This module holds what every language shares: the tokens, the [`Header`] and its
//! token tests, and [`classify`], a short dispatch to one module per language family
//! (as the declaration forms group them): [`rust`], [`go`], [`js`] (JavaScript,
//! TypeScript, TSX), [`kotlin`], [`swift`], [`php`], [`c_like`] (C, C++, Java, C#),
//! [`css`] (CSS, SCSS), [`json`] and [`generic`] (unknown file types). Python and YAML
//! are indentation languages and have no headers (see `blocks::indent`).

mod c_like;
mod css;
mod generic;
mod go;
mod js;
mod json;
mod kotlin;
mod php;
mod rust;
mod swift;

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

/// Keywords (control flow, operators, declarations' own words) that never name a
/// function: `if (…) {`, `return (…)` and `sizeof(…)` before a `{` declare nothing.
/// Shared by the C-like and JavaScript method rules.
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
        Lang::Rust => rust::rust(&h, cx),
        Lang::Go => go::go(&h, cx),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js::js(&h, lang, cx),
        Lang::Kotlin => kotlin::kotlin(&h, cx),
        Lang::Swift => swift::swift(&h, cx),
        Lang::Php => php::php(&h, cx),
        Lang::C | Lang::Cpp | Lang::Java | Lang::CSharp => {
            c_like::c_family(&h, lang, cx).or_else(|| c_like::c_type(&h, lang))
        }
        Lang::Css | Lang::Scss => css::css(&h, cx),
        Lang::Json => json::json(&h, cx),
        Lang::Generic => generic::generic(&h, cx),
        Lang::Python | Lang::Yaml => None,
    }
}

fn method_or_function(cx: &Context) -> Kind {
    match &cx.container {
        Some((_, k)) if k.holds_methods() => Kind::Method,
        _ => Kind::Function,
    }
}
