//! Rust declarations: `fn`, `impl`, `struct`, `enum`, `trait`, `union`, `mod`,
//! `macro_rules!`.
//!
//! Decisions: the first `fn` followed by a name is the function (a later `fn(…)` is a
//! pointer type in the signature), and a header holding only unnamed `fn`s declares
//! nothing; an `impl` is named by the type after `for` when it implements a trait
//! (`impl<T> Trait for Type<T> where …`), else by the type after `impl`; the modifiers
//! `pub`, `pub(…)`, `async`, `unsafe`, `const`, `extern "C"` and `default` belong to
//! the declaration's range.

use super::{method_or_function, Context, Decl, Header, Tk};
use crate::blocks::lang::Lang;
use crate::blocks::Kind;

/// The declaration a Rust header makes, if any.
pub(super) fn rust(h: &Header, cx: &Context) -> Option<Decl> {
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
