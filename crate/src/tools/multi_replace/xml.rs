//! The XML shape of `replacements`: a lenient reader for the XML models write, code
//! inside it unescaped.
//!
//! ```text
//! document  = misc , { ( wrapper | item ) , misc } ;
//! wrapper   = "<" , name - item-name , { attribute } ,    (* any other name, ≤ 8 deep *)
//!             ( "/>" | ">" , misc , { ( wrapper | item ) , misc } , close ) ;
//! item      = "<" , item-name , { attribute } ,
//! item-name = "replacement" | "edit" | "item" ;
//!             ( "/>" | ">" , misc , { field , misc } , close ) ;
//! field     = "<" , name , { attribute } , ( "/>" | ">" , content , close ) ;
//! close     = "</" , name , { white space } , ">" ;    (* the element's own name *)
//! attribute = name , "=" , ( '"' , { char - '"' } , '"' | "'" , { char - "'" } , "'" ) ;
//! content   = { cdata | char } ;    (* raw, up to the first close outside a CDATA *)
//! cdata     = "<![CDATA[" , { char } , "]]>" ;
//! misc      = { white space | "<!--" … "-->" | "<?" … "?>" | "<!DOCTYPE" … ">" } ;
//! name      = name-char , { name-char } ;    (* letters, digits, "_", "-", ":", "." *)
//! ```
//!
//! White space may separate a tag's name, attributes, `=` and `/>`. Nothing may follow
//! the document but `misc`.
//!
//! Design decisions:
//!
//! - A field's content is taken literally up to its closing tag: models write code in
//!   it unescaped, `<` and `&` included. Only a CDATA section can hold the closing tag
//!   itself; its text is kept verbatim, and white space around it is layout.
//! - Items may sit inside any wrapper element (`<replacements>`,
//!   `<multi_replace_string_in_file>`, …): an element that is not an item holds items.
//! - Entities (`&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#n;` `&#xh;`): every item is
//!   read both ways, decoded and literal, and the caller picks by what the file holds
//!   (code often has `&amp;` literally). Whether the whole document was consistently
//!   escaped (some entity, no raw `<` and no `&` that starts none, outside CDATA) is
//!   reported too: it picks the reading when old_str reads the same both ways.
//! - A field (or an item's attribute) is one str_replace argument; its parameter type,
//!   looked up with str_replace's own names and aliases, gives its value: a string pair
//!   reads its child elements (`<start>…</start><end>…</end>`) as an object, or stays
//!   text when they do not read; an integer or boolean is read as one when it reads
//!   as one; everything else, unknown names included, is text.
//! - A refusal is where reading stopped (a byte offset, shown as line and column) and
//!   what was expected there, so the model can fix that spot.

use super::str_replace;
use crate::args::{resolve_name, ParamType};
use serde_json::{Map, Value};

/// Where reading stopped and what was expected there.
pub struct XmlError {
    pub at: usize,
    pub expected: String,
}

type Fields<'a> = Vec<(&'a str, Leaf<'a>)>;

/// An element's content as written (CDATA not yet unwrapped).
#[derive(Clone, Copy)]
struct Leaf<'a> {
    raw: &'a str,
}

/// One item read both ways: entities decoded, and taken literally.
pub struct XmlItem {
    pub decoded: Map<String, Value>,
    pub literal: Map<String, Value>,
}

/// Most wrapper elements nested around the items.
const MAX_WRAPPERS: usize = 8;

/// The items, and whether the document was consistently escaped.
pub fn read(src: &str) -> Result<(Vec<XmlItem>, bool), XmlError> {
    let mut r = Reader { s: src, pos: 0 };
    let mut items: Vec<Fields> = Vec::new();
    elements(&mut r, &mut items, 0)?;
    r.skip();
    if r.pos < r.s.len() {
        return Err(r.error("the end of the text after the last element".into()));
    }
    let consistent = should_decode(&items);
    let objects = items
        .into_iter()
        .map(|fields| XmlItem {
            decoded: to_object(fields.clone(), true),
            literal: to_object(fields, false),
        })
        .collect();
    Ok((objects, consistent))
}

/// Items and the wrapper elements around them (`<replacements>`,
/// `<multi_replace_string_in_file>`, any name that is not an item's), up to the
/// enclosing close tag or the end of the text.
fn elements<'a>(
    r: &mut Reader<'a>,
    items: &mut Vec<Fields<'a>>,
    depth: usize,
) -> Result<(), XmlError> {
    loop {
        r.skip();
        if r.pos >= r.s.len() || r.at_close() {
            return Ok(());
        }
        match r.peek_name() {
            Some(name) if !is_item(name) && depth < MAX_WRAPPERS => {
                let tag = r.open_tag()?;
                if tag.self_closing {
                    continue;
                }
                elements(r, items, depth + 1)?;
                if r.pos >= r.s.len() {
                    return Err(r.error(format!("`</{}>`", tag.name)));
                }
                r.close_tag(tag.name)?;
            }
            _ => items.push(replacement(r)?),
        }
    }
}

fn is_item(name: &str) -> bool {
    matches!(name, "replacement" | "edit" | "item")
}

fn replacement<'a>(r: &mut Reader<'a>) -> Result<Fields<'a>, XmlError> {
    let at = r.pos;
    let tag = r.open_tag()?;
    if !is_item(tag.name) {
        r.pos = at;
        return Err(r.error(format!("`<replacement>`, found `<{}>`", tag.name)));
    }
    let mut fields: Fields = tag
        .attrs
        .iter()
        .map(|(k, v)| (*k, Leaf { raw: v }))
        .collect();
    if tag.self_closing {
        return Ok(fields);
    }
    loop {
        r.skip();
        if r.at_close() {
            r.close_tag(tag.name)?;
            return Ok(fields);
        }
        if r.pos >= r.s.len() {
            return Err(r.error(format!("`</{}>`", tag.name)));
        }
        let child = r.open_tag()?;
        let raw = if child.self_closing {
            ""
        } else {
            r.content(child.name)?
        };
        fields.push((child.name, Leaf { raw }));
    }
}

/// Decode entities only if the text was consistently escaped: some entity, no raw
/// `<`, and every `&` starts an entity (outside CDATA).
fn should_decode(items: &[Fields]) -> bool {
    let mut any_entity = false;
    for (_, leaf) in items.iter().flatten() {
        for part in outside_cdata(leaf.raw) {
            if part.contains('<') {
                return false;
            }
            for (i, _) in part.match_indices('&') {
                if entity_at(&part[i..]).is_none() {
                    return false;
                }
                any_entity = true;
            }
        }
    }
    any_entity
}

fn to_object(fields: Fields, decode: bool) -> Map<String, Value> {
    let mut obj = Map::new();
    for (name, leaf) in fields {
        let ty = resolve_name(&str_replace::SPEC, name).map(|p| p.ty);
        let value = match ty {
            Some(ParamType::StringPair(_)) => pair(leaf.raw, decode),
            Some(ParamType::Integer { .. }) => {
                let t = text(leaf.raw, decode);
                match t.trim().parse::<i64>() {
                    Ok(n) => Value::from(n),
                    Err(_) => Value::String(t),
                }
            }
            Some(ParamType::Boolean) => {
                let t = text(leaf.raw, decode);
                match t.trim().to_ascii_lowercase().as_str() {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ => Value::String(t),
                }
            }
            _ => Value::String(text(leaf.raw, decode)),
        };
        obj.insert(name.to_string(), value);
    }
    obj
}

/// `<start>…</start><end>…</end>` → `{"start": …, "end": …}`; plain text stays text.
fn pair(raw: &str, decode: bool) -> Value {
    let mut r = Reader { s: raw, pos: 0 };
    let mut obj = Map::new();
    loop {
        r.skip();
        if r.pos >= r.s.len() {
            break;
        }
        let Ok(tag) = r.open_tag() else {
            return Value::String(text(raw, decode));
        };
        let content = if tag.self_closing {
            Ok("")
        } else {
            r.content(tag.name)
        };
        match content {
            Ok(c) => {
                obj.insert(tag.name.to_string(), Value::String(text(c, decode)));
            }
            Err(_) => return Value::String(text(raw, decode)),
        }
    }
    Value::Object(obj)
}

/// The text of an element: CDATA sections verbatim, the rest decoded if asked.
/// Whitespace around CDATA sections is layout, not content.
fn text(raw: &str, decode: bool) -> String {
    let has_cdata = raw.contains("<![CDATA[");
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    loop {
        match rest.find("<![CDATA[") {
            Some(i) => {
                push_text(&mut out, &rest[..i], decode, has_cdata);
                let body = &rest[i + 9..];
                match body.find("]]>") {
                    Some(j) => {
                        out.push_str(&body[..j]);
                        rest = &body[j + 3..];
                    }
                    None => {
                        out.push_str(body);
                        break;
                    }
                }
            }
            None => {
                push_text(&mut out, rest, decode, has_cdata);
                break;
            }
        }
    }
    out
}

fn push_text(out: &mut String, part: &str, decode: bool, beside_cdata: bool) {
    if beside_cdata && part.trim().is_empty() {
        return;
    }
    if !decode {
        out.push_str(part);
        return;
    }
    let mut rest = part;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        match entity_at(&rest[i..]) {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[i + len..];
            }
            None => {
                out.push('&');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
}

/// The pieces of `raw` outside CDATA sections.
fn outside_cdata(raw: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut rest = raw;
    while let Some(i) = rest.find("<![CDATA[") {
        parts.push(&rest[..i]);
        match rest[i..].find("]]>") {
            Some(j) => rest = &rest[i + j + 3..],
            None => return parts,
        }
    }
    parts.push(rest);
    parts
}

/// The character an entity at the start of `s` stands for, and its length.
fn entity_at(s: &str) -> Option<(char, usize)> {
    let end = s
        .char_indices()
        .take(12)
        .find(|(_, c)| *c == ';')
        .map(|(i, _)| i)?;
    let name = &s[1..end];
    let c = match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        "apos" => '\'',
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse::<u32>().ok()?,
            };
            char::from_u32(code)?
        }
    };
    Some((c, end + 1))
}

struct Tag<'a> {
    name: &'a str,
    attrs: Vec<(&'a str, &'a str)>,
    self_closing: bool,
}

struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn rest(&self) -> &'a str {
        self.s.get(self.pos..).unwrap_or("")
    }

    fn error(&self, expected: String) -> XmlError {
        XmlError {
            at: self.pos,
            expected,
        }
    }

    /// Skips whitespace, comments, the XML declaration and a doctype.
    fn skip(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            let (open, close) = if trimmed.starts_with("<!--") {
                ("<!--", "-->")
            } else if trimmed.starts_with("<?") {
                ("<?", "?>")
            } else if trimmed.starts_with("<!DOCTYPE") {
                ("<!DOCTYPE", ">")
            } else {
                return;
            };
            match trimmed[open.len()..].find(close) {
                Some(i) => self.pos += open.len() + i + close.len(),
                None => self.pos = self.s.len(),
            }
        }
    }

    fn at_close(&self) -> bool {
        self.rest().starts_with("</")
    }

    fn peek_name(&self) -> Option<&'a str> {
        let rest = self.rest().strip_prefix('<')?;
        let end = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    }

    fn name(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
        self.pos += end;
        &rest[..end]
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn open_tag(&mut self) -> Result<Tag<'a>, XmlError> {
        if !self.rest().starts_with('<') {
            return Err(self.error("`<` opening an element".into()));
        }
        self.pos += 1;
        let name = self.name();
        if name.is_empty() {
            return Err(self.error("an element name after `<`".into()));
        }
        let mut attrs = Vec::new();
        loop {
            self.skip_ws();
            let rest = self.rest();
            if rest.starts_with("/>") {
                self.pos += 2;
                return Ok(Tag {
                    name,
                    attrs,
                    self_closing: true,
                });
            }
            if rest.starts_with('>') {
                self.pos += 1;
                return Ok(Tag {
                    name,
                    attrs,
                    self_closing: false,
                });
            }
            let attr = self.name();
            if attr.is_empty() {
                return Err(self.error(format!("`>` to end the `<{name}` tag")));
            }
            self.skip_ws();
            if !self.rest().starts_with('=') {
                return Err(self.error(format!("`=` after the attribute `{attr}`")));
            }
            self.pos += 1;
            self.skip_ws();
            let quote = match self.rest().chars().next() {
                Some(q @ ('"' | '\'')) => q,
                _ => return Err(self.error(format!("a quoted value for `{attr}`"))),
            };
            self.pos += 1;
            let rest = self.rest();
            let Some(end) = rest.find(quote) else {
                return Err(self.error(format!("the closing {quote} of `{attr}`")));
            };
            attrs.push((attr, &rest[..end]));
            self.pos += end + 1;
        }
    }

    /// `</name>` (whitespace before `>` allowed).
    fn close_tag(&mut self, name: &str) -> Result<(), XmlError> {
        let rest = self.rest();
        let after = rest
            .strip_prefix("</")
            .and_then(|r| r.strip_prefix(name))
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('>'));
        match after {
            Some(r) => {
                self.pos = self.s.len() - r.len();
                Ok(())
            }
            None => Err(self.error(format!("`</{name}>`"))),
        }
    }

    /// The raw content of element `name` up to its closing tag; CDATA sections may
    /// contain anything, including `</name>`.
    fn content(&mut self, name: &str) -> Result<&'a str, XmlError> {
        let start = self.pos;
        let close = format!("</{name}");
        let mut search = start;
        loop {
            let hay = self.s.get(search..).unwrap_or("");
            let cdata = hay.find("<![CDATA[");
            let closing = hay.find(&close);
            match (cdata, closing) {
                (Some(c), Some(e)) if c < e => match hay[c..].find("]]>") {
                    Some(j) => search += c + j + 3,
                    None => {
                        self.pos = search + c;
                        return Err(self.error("`]]>` to end the CDATA section".into()));
                    }
                },
                (_, Some(e)) => {
                    let at = search + e;
                    let after = &self.s[at + close.len()..];
                    let trimmed = after.trim_start();
                    if let Some(r) = trimmed.strip_prefix('>') {
                        let content = &self.s[start..at];
                        self.pos = self.s.len() - r.len();
                        return Ok(content);
                    }
                    // `</name_other>`: keep looking.
                    search = at + close.len();
                }
                (_, None) => {
                    self.pos = self.s.len();
                    return Err(XmlError {
                        at: self.s.len(),
                        expected: format!(
                            "`</{name}>` to close `<{name}>` (the text may have been cut off)"
                        ),
                    });
                }
            }
        }
    }
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.')
}

/// 1-based line and column (in chars) of byte `at` in `s`.
pub fn line_column(s: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    let before = &s[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
