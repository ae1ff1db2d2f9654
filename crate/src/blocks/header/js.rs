//! JavaScript and TypeScript (and TSX) declarations: `function` declarations and
//! expressions, arrow functions, class / interface / enum / namespace, methods in
//! class bodies and object literals.
//!
//! Decisions: an anonymous function or arrow is named by what it is assigned to
//! (`const name = (…) =>`, `name: function (…)`, `a.b = function`, plain names only);
//! modifiers (`export`, `default`, `async`, `static`, accessors, TypeScript's
//! visibility words, `*`) belong to the declaration's range; a method is
//! `[modifiers] name(params) [: Type] {` directly in a class body or object literal, and
//! anything else before its modifiers on the line means it is not one.

use super::{method_or_function, Context, Decl, Header, Tk, CONTROL};
use crate::blocks::lang::Lang;
use crate::blocks::Kind;

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

/// The declaration a JavaScript or TypeScript header makes, if any.
pub(super) fn js(h: &Header, lang: Lang, cx: &Context) -> Option<Decl> {
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
