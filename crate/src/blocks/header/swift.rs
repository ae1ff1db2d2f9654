//! Swift declarations: `func` (operator functions included), `init`, `deinit`,
//! `subscript`, `class`, `struct`, `enum`, `protocol`, `extension`, `actor`.
//!
//! Decisions: an operator function `func == (…)` is named by its operator; `init`,
//! `deinit` and `subscript` are methods only where they start the declaration (after
//! modifiers at most); an `extension Foo.Bar` is named by its last component;
//! `protocol` is an interface, `extension` an impl, `actor` a class; modifiers
//! (`public`, `mutating`, `override`, `private(set)`, …) belong to the declaration's
//! range.

use super::{method_or_function, Context, Decl, Header, Tk};
use crate::blocks::lang::Lang;
use crate::blocks::Kind;

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

/// The declaration a Swift header makes, if any.
pub(super) fn swift(h: &Header, cx: &Context) -> Option<Decl> {
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
