//! The words every message is made of: line labels, plurals, visible whitespace.
//!
//! Messages are read by language models, so the same thing is always said the same way:
//! a line range is "line 12" or "lines 12-14" (1-based, inclusive), a count agrees with
//! its noun ("1 line", "2 lines"), a quoted line shows its tabs and carriage returns
//! (`\t`, `\r`), and leading whitespace is described by what it is made of ("1 tab +
//! 2 spaces"). Every module that writes a message takes these from here, so no two
//! messages drift apart in how they name the same thing.

/// "line 12" or "lines 12-14", from 0-based inclusive bounds.
pub fn lines_label(first: usize, last: usize) -> String {
    if first >= last {
        format!("line {}", first + 1)
    } else {
        format!("lines {}-{}", first + 1, last + 1)
    }
}

/// The plural suffix for a count: "" for 1, "s" otherwise.
pub fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) {
        ""
    } else {
        "s"
    }
}

/// A count with its noun in agreement: "1 line", "0 lines", "3 symbols". `noun` is the
/// singular; the plural adds "s".
pub fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", plural(n))
}

/// The string with its first character upper-cased.
pub fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A line with tabs, carriage returns and no-break spaces made visible.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{a0}' => out.push_str("\\u00a0"),
            c => out.push(c),
        }
    }
    out
}

/// "4 spaces", "1 tab", "1 tab + 2 spaces", "none".
pub fn describe_ws(ws: &str) -> String {
    if ws.is_empty() {
        return "none".into();
    }
    let tabs = ws.chars().filter(|&c| c == '\t').count();
    let spaces = ws.chars().filter(|&c| c == ' ').count();
    let other = ws.chars().count() - tabs - spaces;
    let mut parts = Vec::new();
    if tabs > 0 {
        parts.push(format!("{tabs} tab{}", plural(tabs)));
    }
    if spaces > 0 {
        parts.push(format!("{spaces} space{}", plural(spaces)));
    }
    if other > 0 {
        parts.push(format!("{other} other blank{}", plural(other)));
    }
    parts.join(" + ")
}
