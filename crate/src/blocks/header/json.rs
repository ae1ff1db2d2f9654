//! JSON: a key whose value is an object.
//!
//! Decisions: only a `"key": {` directly inside an object is a symbol; its name is the
//! key without its quotes, and its range starts at the key.

use super::{Context, Decl, Header, Tk};
use crate::blocks::Kind;

/// The key a JSON header names, if its value is an object.
pub(super) fn json(h: &Header, cx: &Context) -> Option<Decl> {
    if !cx.in_object {
        return None;
    }
    let n = h.toks.len();
    if n >= 2 && h.toks[n - 2].kind == Tk::Str && h.is_punct(n - 1, b":") {
        return Some(h.decl(Kind::Key, n - 2, n - 2));
    }
    None
}
