//! Property tests of the recovery cascade through `Session::call`: arbitrary files,
//! requests quoted from the file with the mistakes the cascade forgives, and plain
//! noise. Nothing may panic, a strict call may only match byte-exactly, a success says
//! how it matched and changes the file, and a refusal changes nothing.

use anchored_edit::Session;
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;

/// Pieces that exercise every level: line breaks of both kinds, indentation,
/// backslashes and quotes, typographic characters, Unicode spaces, markers, numbers.
const FRAGMENTS: &[&str] = &[
    "a", "b", "fn", "x = 1", " ", "  ", "    ", "\t", "\n", "\n", "\r\n", "\\", "\\\\", "\\n",
    "\"", "'", "`", "“", "”", "’", "—", "–", "…", "...", "\u{a0}", "\u{202f}", "// ...", "# ...",
    "...rest", "{", "}", "(", ")", "12\t", "  3→", "4: ", "é", "\u{feff}", "日本",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..48).prop_map(|v| v.concat())
}

/// One of the mistakes models make when quoting, applied to `s`.
fn mistake(s: &str, kind: u8) -> String {
    match kind % 9 {
        0 => s.replace("\r\n", "\n"),
        1 => s.replace('\n', "\r\n"),
        2 => s.lines().map(|l| format!("{l}  \n")).collect(),
        3 => s.lines().map(|l| format!("    {l}\n")).collect(),
        4 => s
            .lines()
            .enumerate()
            .map(|(i, l)| format!("{:>6}\t{l}\n", i + 7))
            .collect(),
        5 => s.replace('\\', "\\\\").replace('"', "\\\""),
        6 => s.replace('"', "“").replace('\'', "’").replace('-', "–"),
        7 => {
            let lines: Vec<&str> = s.lines().collect();
            if lines.len() < 3 {
                return s.to_string();
            }
            format!("{}\n// ...\n{}\n", lines[0], lines[lines.len() - 1])
        }
        _ => s.trim_start().to_string(),
    }
}

/// A prefix of `s` at most `n` chars long, on a char boundary.
fn take_chars(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn call(file: &str, args: serde_json::Value) -> anchored_edit::ToolResult {
    let mut files = BTreeMap::new();
    files.insert("f.txt".to_string(), file.to_string());
    let mut a = args;
    a["path"] = json!("f.txt");
    Session::new().call(&json!({"tool": "str_replace", "arguments": a}), &files)
}

fn check(file: &str, result: &anchored_edit::ToolResult, strict: bool) {
    if !result.ok {
        assert!(result.files.as_ref().is_none_or(Vec::is_empty));
        return;
    }
    let via = result.matched_via.as_deref();
    assert!(via.is_some(), "a success says how it matched");
    if strict {
        assert_eq!(via, Some("exact"), "strict matches byte-exactly only");
    }
    for change in result.files.iter().flatten() {
        assert_ne!(
            change.new_text.as_deref(),
            Some(file),
            "a success changes the file (otherwise it is no_change)"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn noise_never_panics(file in text(), old in text(), new in text(), strict: bool, all: bool) {
        let r = call(&file, json!({"old_str": old, "new_str": new, "strict": strict, "replace_all": all}));
        check(&file, &r, strict);
    }

    #[test]
    fn quoted_with_mistakes_never_panics(
        file in text(),
        skip in 0usize..40,
        len in 1usize..60,
        kind: u8,
        new in text(),
        strict: bool,
        placeholders: bool,
        all: bool,
    ) {
        let from: String = file.chars().skip(skip).collect();
        let quoted = take_chars(&from, len).to_string();
        let old = mistake(&quoted, kind);
        let new = if kind % 2 == 0 { mistake(&new, kind / 2) } else { new };
        let r = call(&file, json!({
            "old_str": old, "new_str": new, "strict": strict,
            "allow_placeholders": placeholders, "replace_all": all,
        }));
        check(&file, &r, strict);
    }

    #[test]
    fn insert_anchors_never_panic(file in text(), anchor in text(), new in text(), kind: u8) {
        let mut files = BTreeMap::new();
        files.insert("f.txt".to_string(), file.clone());
        let anchor = mistake(&anchor, kind);
        let r = Session::new().call(
            &json!({"tool": "insert", "arguments": {"path": "f.txt", "after_content": anchor, "new_str": new}}),
            &files,
        );
        check(&file, &r, false);
    }
}

/// Realistic lines, repeated with several indentations so near-duplicates abound.
const LINES: &[&str] = &[
    "x = 1",
    "return x",
    "}",
    "{",
    "if (a) {",
    "foo(bar);",
    "",
    "// note",
    "print(\"hi\")",
    "y = x + 1",
    "else:",
    "end",
];

fn lines() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        (0usize..3, prop::sample::select(LINES), any::<bool>()),
        1..30,
    )
    .prop_map(|v| {
        v.into_iter()
            .map(|(depth, l, tabs)| {
                let unit = if tabs { "\t" } else { "    " };
                if l.is_empty() {
                    String::new()
                } else {
                    format!("{}{l}", unit.repeat(depth))
                }
            })
            .collect()
    })
}

/// `lines` as a model would quote them with mistake `kind`: other line endings,
/// trailing spaces, 4 more spaces of indentation, `cat -n` numbers from `first`,
/// escaped once more, with curly quotes, or with its middle elided by `// ...`.
fn quote_with_mistake(kind: u8, crlf: bool, first: usize, lines: &[String]) -> String {
    let other = if crlf { "\n" } else { "\r\n" };
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| match kind {
            0 => format!("{l}{other}"),
            1 => format!("{l}  \n"),
            2 if l.is_empty() => "\n".to_string(),
            2 => format!("    {l}\n"),
            3 => format!("{:>6}\t{l}\n", first + i),
            4 => format!("{}\n", l.replace('\\', "\\\\").replace('"', "\\\"")),
            5 => format!("{}\n", l.replace('"', "“").replace('\'', "’")),
            // Elision: every line but the first and the last becomes one marker.
            _ if i == 0 || i + 1 == lines.len() => {
                format!("{l}{}", if crlf { "\r\n" } else { "\n" })
            }
            _ if i == 1 => "// ...\n".to_string(),
            _ => String::new(),
        })
        .collect()
}

fn lead(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// A region quoted with one forgivable mistake, one line changed: when the engine
    /// accepts it at the level that forgives that mistake, the result is exactly the
    /// file with that one line changed (re-indented as the file indents it), and every
    /// other byte as it was.
    #[test]
    fn quoted_region_lands_where_it_was_quoted(
        file_lines in lines(),
        crlf: bool,
        at in 0usize..30,
        len in 1usize..5,
        changed in 0usize..5,
        kind in 0u8..7,
    ) {
        let n = file_lines.len();
        let a = at % n;
        let b = (a + len).min(n);
        // An elided request changes its first line (the middle is what it leaves out).
        let k = if kind == 6 { a } else { a + changed % (b - a) };
        let eol = if crlf { "\r\n" } else { "\n" };
        let file: String = file_lines.iter().map(|l| format!("{l}{eol}")).collect();
        let region: Vec<String> = file_lines[a..b].to_vec();
        let mut new_region = region.clone();
        new_region[k - a] = format!("{}zzz_changed", lead(&region[k - a]));

        // The mistake, applied to old_str and new_str alike.
        let level = [
            "line_endings", "trailing_whitespace", "indentation", "line_numbers", "escaping",
            "typography", "elision",
        ][kind as usize];
        let quote = |ls: &[String]| quote_with_mistake(kind, crlf, a + 1, ls);
        let old = quote(&region);
        let new = quote(&new_region);
        let mut expected_lines = file_lines.clone();
        expected_lines[k] = if kind == 1 {
            format!("{}  ", new_region[k - a])
        } else {
            new_region[k - a].clone()
        };
        let expected: String = expected_lines.iter().map(|l| format!("{l}{eol}")).collect();

        let r = call(&file, json!({"old_str": old, "new_str": new}));
        if r.ok && r.matched_via.as_deref() == Some(level) {
            let got = r.files.as_ref().and_then(|f| f.first()).and_then(|c| c.new_text.clone());
            prop_assert_eq!(got.as_deref(), Some(expected.as_str()), "{:?} {:?}", old, new);
        }
    }
}
