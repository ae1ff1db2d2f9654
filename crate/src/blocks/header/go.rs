//! Go declarations: `func name(…)`, methods `func (r *T) Name(…)` (type parameters
//! included), `type Name struct` and `type Name interface`.
//!
//! Decisions: the first `func` with a name is the declaration (later ones are `func(…)`
//! types and literals), and a header holding only unnamed `func`s declares nothing; a
//! method's qualifier is its receiver's type name (`(r *Reader[T])` → `Reader`); inside
//! a `type ( … )` group a `Name struct {` is a type without the `type` keyword.

use super::{Context, Decl, Header, Token};
use crate::blocks::lex::is_ident;
use crate::blocks::Kind;

/// The declaration a Go header makes, if any.
pub(super) fn go(h: &Header, cx: &Context) -> Option<Decl> {
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
