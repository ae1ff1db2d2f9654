//! CSS and SCSS: rules, and SCSS's `@mixin` / `@function`.
//!
//! Decisions: a rule is named by its selector with whitespace collapsed (cut to 80
//! characters with `…`); a `{` inside a bracket group is not a rule; `@mixin` and
//! `@function` followed by a name are functions.

use super::{Context, Decl, Header};
use crate::blocks::lang::Lang;
use crate::blocks::Kind;

/// The rule (or SCSS mixin / function) a CSS header opens, if any.
pub(super) fn css(h: &Header, cx: &Context) -> Option<Decl> {
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
