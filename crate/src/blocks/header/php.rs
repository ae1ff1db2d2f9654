//! PHP declarations: `function` (by-reference `function &name` included), `class`,
//! `interface`, `trait`, `enum`, `namespace`.
//!
//! Decisions: a `function` needs a name and a parameter group, so a closure declares
//! nothing; `new class` is an expression, not a class; visibility, `static`,
//! `abstract`, `final` and `readonly` belong to the declaration's range; a function
//! directly inside a type is a method.

use super::{method_or_function, Context, Decl, Header, Tk};
use crate::blocks::lang::Lang;
use crate::blocks::Kind;

/// The declaration a PHP header makes, if any.
pub(super) fn php(h: &Header, cx: &Context) -> Option<Decl> {
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
