//! C, C++, Java and C# declarations (and the generic rules' C-like half): functions
//! `type name(params) qualifiers {` with constructors, destructors, operators and
//! qualified names (`A::B::name`), functions returning function pointers, and types
//! (`class`, `struct`, `union`, `enum [class]`, `interface`, `record`, `namespace`,
//! `@interface`).
//!
//! Decisions: a function needs a return type (or nothing) before its name and only
//! qualifiers after its parameters, so `=`, `.` or `->` anywhere marks an expression,
//! not a declaration; a control keyword (`if`, `for`, …) or a type word is never a
//! function name; a group followed by a line break ends a macro invocation on its own
//! line, and the declaration starts after it.

use super::{method_or_function, Context, Decl, Header, Tk, CONTROL};
use crate::blocks::lang::Lang;
use crate::blocks::lex::is_ident;
use crate::blocks::Kind;

const TYPE_WORDS: &[&[u8]] = &[
    b"class",
    b"struct",
    b"union",
    b"enum",
    b"interface",
    b"record",
    b"namespace",
    b"trait",
    b"impl",
    b"mod",
    b"object",
    b"protocol",
    b"extension",
    b"actor",
];

/// `type name(params) qualifiers {` (and constructors, destructors, operators).
pub(super) fn c_family(h: &Header, lang: Lang, cx: &Context) -> Option<Decl> {
    let lo = h.skip_prelude(lang);
    let n = h.toks.len();
    let mut restart = lo;
    let mut g = lo;
    while g < n {
        if !h.is_group(g, b'(') {
            g += 1;
            continue;
        }
        if let Some(d) = c_function_at(h, cx, restart, g) {
            return Some(d);
        }
        if let Some(d) = c_pointer_returning(h, cx, restart, g) {
            return Some(d);
        }
        // A group followed by a line break ends a macro invocation on its own line;
        // the declaration, if any, starts after it.
        let attribute_like = g > 0
            && matches!(
                h.text(&h.toks[g - 1]),
                b"__attribute__"
                    | b"__declspec"
                    | b"alignas"
                    | b"_Alignas"
                    | b"decltype"
                    | b"__attribute"
            );
        if !attribute_like && h.toks.get(g + 1).is_some_and(|t| t.kind == Tk::Newline) {
            restart = g + 1;
            while restart < n && h.toks[restart].kind == Tk::Newline {
                restart += 1;
            }
        }
        g += 1;
    }
    None
}

/// The name token before the parameter group `g`: (its index, where the name starts,
/// whether it is an `operator…`); None when no function name stands there.
fn c_name(h: &Header, lo: usize, g: usize) -> Option<(usize, usize, bool)> {
    let mut name = g - 1;
    let mut name_start = name;
    let t = h.toks[name];
    let mut operator = false;
    if t.kind == Tk::Ident && h.text(&t) == b"operator" {
        operator = true;
    } else if t.kind == Tk::Punct || (t.kind == Tk::Group && h.code[t.start] != b'{') {
        // `operator==(`, `operator()(`, `operator[](`
        let mut k = name;
        while k > lo && k + 4 > name && !h.is(k, b"operator") {
            k -= 1;
        }
        if h.is(k, b"operator") && k < name {
            operator = true;
            name_start = k;
            name = k;
        } else {
            return None;
        }
    } else if t.kind != Tk::Ident {
        return None;
    }
    if !operator {
        let w = h.text(&t);
        if CONTROL.contains(&w) || TYPE_WORDS.contains(&w) {
            return None;
        }
    }
    Some((name, name_start, operator))
}

/// Whether the tokens before the (qualified) name, ending at `pk`, read as a return
/// type: the token before it may end a type, and nothing from `lo` to the name `k` is
/// an expression (`=`, `.`, `->`).
fn c_type_before(h: &Header, lo: usize, k: usize, pk: usize) -> bool {
    let p = h.toks[pk - 1];
    let ok = match p.kind {
        Tk::Ident => !matches!(
            h.text(&p),
            b"new"
                | b"return"
                | b"else"
                | b"case"
                | b"throw"
                | b"goto"
                | b"await"
                | b"yield"
                | b"delete"
                | b"typeof"
                | b"sizeof"
                | b"in"
                | b"is"
                | b"as"
                | b"using"
                | b"if"
                | b"while"
                | b"for"
                | b"switch"
        ),
        Tk::Punct => matches!(h.text(&p), b"*" | b"&" | b"&&" | b">" | b"?" | b"^" | b"%"),
        Tk::Group => matches!(h.code[p.start], b'[' | b'('),
        _ => false,
    };
    if !ok {
        return false;
    }
    // A `=` or `.` anywhere before the name: an expression, not a declaration.
    for j in lo..k {
        if h.is_punct(j, b"=") || h.is_punct(j, b".") || h.is_punct(j, b"->") {
            return false;
        }
    }
    true
}

fn c_function_at(h: &Header, cx: &Context, lo: usize, g: usize) -> Option<Decl> {
    if g <= lo {
        return None;
    }
    // The name: an identifier (`operator…` and `~Name` handled), possibly qualified.
    let (name, name_start, operator) = c_name(h, lo, g)?;
    let mut qualified = false;
    let mut destructor = false;
    let mut k = name_start;
    if k > lo && h.is_punct(k - 1, b"~") {
        destructor = true;
        k -= 1;
    }
    let mut qualifier = None;
    while k >= lo + 2 && h.is_punct(k - 1, b"::") {
        // `A::B::name`, `A<T>::name`
        let mut q = k - 2;
        if h.is_punct(q, b">") {
            let mut d = 0;
            loop {
                if h.is_punct(q, b">") {
                    d += 1;
                } else if h.is_punct(q, b"<") {
                    d -= 1;
                    if d == 0 {
                        break;
                    }
                }
                if q <= lo {
                    return None;
                }
                q -= 1;
            }
            q = q.checked_sub(1)?;
        }
        if !h.is_ident(q) {
            break;
        }
        if qualifier.is_none() {
            qualifier = Some(h.name_of(q));
        }
        qualified = true;
        k = q;
    }
    if k > lo && h.is_punct(k - 1, b"::") {
        // `::name` (global qualifier)
        k -= 1;
        qualified = true;
    }
    // What precedes the (qualified) name: a type, or nothing.
    let mut pk = k;
    while pk > lo && h.toks[pk - 1].kind == Tk::Newline {
        pk -= 1;
    }
    let has_type = pk > lo;
    if has_type {
        if !c_type_before(h, lo, k, pk) {
            return None;
        }
    } else {
        let ctor = cx
            .container
            .as_ref()
            .is_some_and(|(c, _)| c.as_bytes() == h.text(&h.toks[name]));
        if !(ctor || qualified || destructor) {
            return None;
        }
    }
    // After the parameters: qualifiers only (no `=`, no member access).
    let assigned = h.toks[g + 1..]
        .iter()
        .any(|t| t.kind == Tk::Punct && matches!(h.text(t), b"=" | b"." | b"?." | b"=>"));
    if assigned {
        return None;
    }
    let mut d = h.decl(method_or_function(cx), name, lo);
    if operator {
        let end = h.toks[g - 1].end;
        d.name = (h.toks[name].start, end);
        let raw = String::from_utf8_lossy(&h.src[d.name.0..d.name.1]).into_owned();
        d.name_text = raw.split_whitespace().collect::<Vec<_>>().join("");
    }
    if destructor {
        d.name_text = format!("~{}", d.name_text);
    }
    if qualifier.is_some() {
        d.qualifier = qualifier;
        if matches!(d.kind, Kind::Function) {
            d.kind = Kind::Method;
        }
    }
    Some(d)
}

/// A function returning a function pointer: `void (*name(int x))(int) {`.
fn c_pointer_returning(h: &Header, cx: &Context, lo: usize, g: usize) -> Option<Decl> {
    let t = h.toks[g];
    if g <= lo || !h.is_ident(g - 1) || !h.is_group(g + 1, b'(') {
        return None;
    }
    let inner = h.code.get(t.start + 1..t.end.saturating_sub(1))?;
    let stars = inner
        .iter()
        .take_while(|c| **c == b'*' || c.is_ascii_whitespace())
        .count();
    if stars == 0 || !inner[..stars].contains(&b'*') {
        return None;
    }
    let rest = &inner[stars..];
    let len = rest.iter().take_while(|c| is_ident(**c)).count();
    if len == 0 || rest[len..].trim_ascii_start().first() != Some(&b'(') {
        return None;
    }
    let a = t.start + 1 + stars;
    let name = String::from_utf8_lossy(h.src.get(a..a + len)?).into_owned();
    Some(Decl {
        kind: method_or_function(cx),
        name: (a, a + len),
        name_text: name,
        start: h.toks[lo].start,
        qualifier: None,
    })
}

/// `class Name …`, `struct Name …`, `namespace a::b`, `@interface Name`.
pub(super) fn c_type(h: &Header, lang: Lang) -> Option<Decl> {
    let lo = h.skip_prelude(lang);
    let n = h.toks.len();
    let mut k = lo;
    while k < n {
        let t = &h.toks[k];
        if t.kind == Tk::Group || h.is_punct(k, b"=") {
            return None;
        }
        if t.kind == Tk::Ident {
            let kind = match h.text(t) {
                b"class" | b"record" => Some(Kind::Class),
                b"struct" => Some(Kind::Struct),
                b"union" => Some(Kind::Union),
                b"enum" => Some(Kind::Enum),
                b"interface" => Some(Kind::Interface),
                b"namespace" => Some(Kind::Module),
                _ => None,
            };
            if let Some(mut kind) = kind {
                if h.is_punct(k.wrapping_sub(1), b"@") {
                    kind = Kind::Interface;
                }
                if h.is(k, b"record") {
                    kind = Kind::Record;
                }
                // `enum class X`, `enum struct X`
                let mut j = k + 1;
                if kind == Kind::Enum && (h.is(j, b"class") || h.is(j, b"struct")) {
                    j += 1;
                }
                // the name: the last identifier (or qualified path) before `:`,
                // `<`, `(`, `extends`, `implements`, `where`, `final`, or the end
                let mut name = None;
                let mut first = None;
                while j < n {
                    let t = &h.toks[j];
                    if t.kind == Tk::Ident {
                        let w = h.text(t);
                        if matches!(
                            w,
                            b"extends"
                                | b"implements"
                                | b"where"
                                | b"final"
                                | b"sealed"
                                | b"permits"
                        ) {
                            break;
                        }
                        if first.is_none() {
                            first = Some(j);
                        }
                        name = Some(j);
                        j += 1;
                    } else if h.is_punct(j, b"::") || h.is_punct(j, b".") {
                        j += 1;
                    } else if h.is_group(j, b'[') {
                        j += 1; // attributes between keyword and name
                    } else {
                        break;
                    }
                }
                let name = name?;
                let mut d = h.decl(kind, name, lo);
                if kind == Kind::Module {
                    if let Some(f) = first {
                        d.name = (h.toks[f].start, h.toks[name].end);
                        d.name_text =
                            String::from_utf8_lossy(&h.src[d.name.0..d.name.1]).into_owned();
                    }
                }
                return Some(d);
            }
        }
        k += 1;
    }
    None
}
