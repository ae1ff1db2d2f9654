//! Files of unknown type: the generic rules.
//!
//! Decisions: a function keyword of any common language (`function`, `fn`, `func`,
//! `fun`, `def`, `sub`) followed by a name is a function; otherwise the C-like
//! function and type forms are tried.

use super::c_like::{c_family, c_type};
use super::{method_or_function, Context, Decl, Header};
use crate::blocks::lang::Lang;

/// The generic rules, in order: a function keyword, then C-like functions, then types.
pub(super) fn generic(h: &Header, cx: &Context) -> Option<Decl> {
    keyword_fn(
        h,
        cx,
        &[b"function", b"fn", b"func", b"fun", b"def", b"sub"],
    )
    .or_else(|| c_family(h, Lang::Generic, cx))
    .or_else(|| c_type(h, Lang::Generic))
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
