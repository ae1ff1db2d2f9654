//! Kotlin declarations: `fun` (extension functions included), `class`, `interface`,
//! `object`, secondary `constructor`s.
//!
//! Decisions: when a header holds both `fun` and a type keyword, the later one decides
//! (`fun interface Name` is an interface); an extension function `fun Type.name(…)` is
//! named by the last name before its parameters; a `constructor(…)` is a method;
//! Kotlin's modifiers (`data`, `sealed`, `suspend`, `companion`, …) belong to the
//! declaration's range.

use super::{method_or_function, Context, Decl, Header, Tk};
use crate::blocks::lang::Lang;
use crate::blocks::Kind;

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

/// The declaration a Kotlin header makes, if any.
pub(super) fn kotlin(h: &Header, cx: &Context) -> Option<Decl> {
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
