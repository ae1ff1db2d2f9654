//! Unit tests of the cascade, level by level: the case that must recover and the
//! near miss that must not.

use super::*;

/// Runs find + render on the whole file; returns (via, new text) or None.
fn replace(file: &str, old: &str, new: &str) -> Option<(Via, String)> {
    let text = Text::new(file);
    let found = find(&text, old, &Scope::whole(&text), false);
    if found.candidates.len() != 1 {
        return None;
    }
    let c = &found.candidates[0];
    let rendered = c.render(&text, new).ok()?;
    let mut out = file.to_string();
    out.replace_range(c.range.clone(), &rendered);
    Some((c.via, out))
}

fn count(file: &str, old: &str) -> (usize, Option<Via>) {
    let text = Text::new(file);
    let found = find(&text, old, &Scope::whole(&text), false);
    (found.candidates.len(), found.via())
}

#[test]
fn line_endings() {
    let file = "a\r\nb\r\nc\r\n";
    let (via, out) = replace(file, "a\nb\n", "a\nB\nb2\n").unwrap();
    assert_eq!(via, Via::LineEndings);
    assert_eq!(out, "a\r\nB\r\nb2\r\nc\r\n");
    assert_eq!(count(file, "a\nx\n").0, 0);
}

#[test]
fn trailing_whitespace_keeps_the_files_bytes_on_kept_lines() {
    let file = "def f():  \n    x = 1\n    return x\n";
    let (via, out) = replace(file, "def f():\n    x = 1 \n", "def f():\n    x = 2\n").unwrap();
    assert_eq!(via, Via::TrailingWhitespace);
    assert_eq!(out, "def f():  \n    x = 2\n    return x\n");
    assert_eq!(count(file, "def g():\n    x = 1 \n").0, 0);
}

#[test]
fn indentation_reindents_changed_lines_only() {
    let file = "class A:\n    def f(self):\n        if x:\n            y()\n";
    let old = "def f(self):\n    if x:\n        y()\n";
    let new = "def f(self):\n    if x:\n        y()\n        z()\n";
    let (via, out) = replace(file, old, new).unwrap();
    assert_eq!(via, Via::Indentation);
    assert_eq!(
        out,
        "class A:\n    def f(self):\n        if x:\n            y()\n            z()\n"
    );
}

#[test]
fn indentation_unit_change_tabs() {
    let file = "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n";
    let old = "func f() {\n    if x {\n        y()\n    }\n}\n";
    let new = "func f() {\n    if x {\n        y()\n        z()\n    }\n}\n";
    let (via, out) = replace(file, old, new).unwrap();
    assert_eq!(via, Via::Indentation);
    assert_eq!(out, "func f() {\n\tif x {\n\t\ty()\n\t\tz()\n\t}\n}\n");
}

#[test]
fn inconsistent_indentation_is_refused_with_a_reason() {
    let file = "a:\n    b\n      c\n";
    let text = Text::new(file);
    let found = find(&text, "a:\n  b\n  c\n", &Scope::whole(&text), false);
    assert!(found.candidates.is_empty());
    assert!(found.near_misses[0].contains("one consistent amount"));
}

#[test]
fn duplicates_after_normalisation_are_ambiguous() {
    let file = "if a:\n    x = 1\nif b:\n        x = 1\n";
    assert_eq!(count(file, "\tx = 1\n"), (2, Some(Via::Indentation)));
}

#[test]
fn line_numbers() {
    let file = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";
    let old = "     2→    let x = 1;\n     3→    println!(\"{x}\");\n";
    let new = "     2→    let x = 2;\n     3→    println!(\"{x}\");\n";
    let (via, out) = replace(file, old, new).unwrap();
    assert_eq!(via, Via::LineNumbers);
    assert_eq!(
        out,
        "fn main() {\n    let x = 2;\n    println!(\"{x}\");\n}\n"
    );
}

#[test]
fn escaping_corrects_new_backslashes() {
    let file = "s = \"a\\nb\"\n";
    let (via, out) = replace(file, "s = \\\"a\\\\nb\\\"", "s = \\\"a\\\\nc\\\"").unwrap();
    assert_eq!(via, Via::Escaping);
    assert_eq!(out, "s = \"a\\nc\"\n");
}

#[test]
fn mixed_escaping_applies_in_order_or_is_refused() {
    let file = "r = re(\"\\\\d\") + \"\\n\"\n";
    let text = Text::new(file);
    let found = find(
        &text,
        "r = re(\"\\\\d\") + \"\\\\n\"",
        &Scope::whole(&text),
        false,
    );
    assert_eq!(found.via(), Some(Via::Escaping));
    let err = found.candidates[0].render(&text, "x").unwrap_err();
    assert_eq!(err.kind, crate::ErrorKind::EscapeAmbiguous);
    // Runs that pair in order take each pair's ratio: `\\d` stays, `\\n` becomes `\n`.
    let out = found.candidates[0]
        .render(&text, "r = re(\"\\\\d+\") + \"\\\\n\"")
        .unwrap();
    assert_eq!(out, "r = re(\"\\\\d+\") + \"\\n\"");
}

#[test]
fn typography() {
    let file = "print(\"it's done\")  # ok\n";
    let (via, out) = replace(file, "print(“it’s done”)", "print(“it’s finished”)").unwrap();
    assert_eq!(via, Via::Typography);
    assert_eq!(out, "print(\"it's finished\")  # ok\n");
}

#[test]
fn elision() {
    let file = "fn a() {\n    let x = 1;\n    let y = 2;\n    x + y\n}\nfn b() {\n    x + y\n}\n";
    let old = "fn a() {\n    // ...\n    x + y\n}\n";
    let new = "fn a() {\n    // ...\n    x * y\n}\n";
    let (via, out) = replace(file, old, new).unwrap();
    assert_eq!(via, Via::Elision);
    assert_eq!(
        out,
        "fn a() {\n    let x = 1;\n    let y = 2;\n    x * y\n}\nfn b() {\n    x + y\n}\n"
    );
}

#[test]
fn elision_does_not_cross_blocks() {
    let file = "fn a() {\n    let x = 1;\n}\nfn b() {\n    done()\n}\n";
    let text = Text::new(file);
    let found = find(
        &text,
        "fn a() {\n    ...\n    done()\n",
        &Scope::whole(&text),
        false,
    );
    assert!(found.candidates.is_empty());
    assert!(!found.near_misses.is_empty());
}

#[test]
fn paraphrase_is_never_matched() {
    let file = "def total(items):\n    return sum(items)\n";
    assert_eq!(
        count(file, "def total(things):\n    return sum(things)\n").0,
        0
    );
    assert_eq!(count(file, "def total(items):\n  return sum(item)\n").0, 0);
}

#[test]
fn strict_reports_what_would_match() {
    let file = "a  \nb\n";
    let text = Text::new(file);
    let found = find(&text, "a\nb\n", &Scope::whole(&text), true);
    assert!(found.candidates.is_empty());
    assert!(
        found.near_misses[0].contains("trailing_whitespace"),
        "{:?}",
        found.near_misses
    );
}

#[test]
fn exact_needle_starting_with_a_break_keeps_crlf_whole() {
    let file = "a\r\nfoo\r\n";
    let text = Text::new(file);
    let found = find(&text, "\nfoo", &Scope::whole(&text), false);
    assert_eq!(found.candidates[0].range, 1..6);
}

#[test]
fn exact_crlf_extension_never_overlaps_the_previous_match() {
    let file = "a\r\n\r\n\r\nb";
    let text = Text::new(file);
    let found = find(&text, "\n\r", &Scope::whole(&text), false);
    for w in found.candidates.windows(2) {
        assert!(w[0].range.end <= w[1].range.start);
    }
}

#[test]
fn replace_all_refuses_overlapping_elided_matches() {
    let mut files = std::collections::BTreeMap::new();
    files.insert(
        "t.rs".to_string(),
        "fn f() {\n    a();\n    t\n    t\n}\n".to_string(),
    );
    let r = crate::Session::new().call(
        &serde_json::json!({"tool": "str_replace", "arguments": {"path": "t.rs",
            "old_str": "fn f() {\n    // ...\n    t\n", "new_str": "fn f() {\n    // ...\n    u\n",
            "replace_all": true}}),
        &files,
    );
    assert_eq!(r.error_kind(), Some(crate::ErrorKind::Ambiguous));
    assert!(r.headline().contains("overlapping"), "{}", r.headline());
}

#[test]
fn overlapping_occurrences_make_a_single_match_ambiguous() {
    assert_eq!(count("x aaa y", "aa").0, 2, "exact");
    assert_eq!(count("a\nb\na\nb\na\n", "a\nb\na\n").0, 2, "exact, lines");
    assert_eq!(
        count("“a”“a”“a”", "\"a\"\"a\"").0,
        2,
        "typography, in one line"
    );
    assert_eq!(
        count("  n\n  n\n  n\n", "n\n\tn\n").0,
        2,
        "indentation, lines"
    );
}

#[test]
fn a_span_refused_at_its_level_does_not_hide_an_overlapping_one() {
    // Lines 4-5 and 5-6 both match once indentation is ignored; 6-7 matches only with
    // an inconsistent indentation. Two valid overlapping matches: ambiguous.
    let file = "x = 1\nx = 1\nx = 1\n        }\n        }\n        }\n}\nx = 1\n";
    assert_eq!(
        count(file, "            }\n            }\n"),
        (2, Some(Via::Indentation))
    );
}

#[test]
fn elision_needs_a_unique_first_part() {
    let file: String = (0..3000)
        .map(|_| "def f():\n    x = 1\n    return 1\n")
        .collect();
    let text = Text::new(&file);
    let found = find(
        &text,
        "def f():\n    ...\n    return 1\n",
        &Scope::whole(&text),
        false,
    );
    assert!(found.candidates.is_empty());
    assert!(
        found.near_misses[0].contains("occurs 3000 times"),
        "{:?}",
        found.near_misses
    );
}

#[test]
fn elision_tails_in_later_functions_are_cut_off_cheaply() {
    // Every later `return 1` dedents out of `g`: one chain, found without scanning the
    // rest of the file for it.
    let file: String = (0..3000)
        .map(|_| "def f():\n    x = 1\n    return 1\n")
        .collect();
    let one = "def g():\n    x = 1\n    return 1\n".to_string() + &file;
    let text = Text::new(&one);
    let found = find(
        &text,
        "def g():\n    ...\n    return 1\n",
        &Scope::whole(&text),
        false,
    );
    assert_eq!(found.candidates.len(), 1);
    assert_eq!(found.candidates[0].last_line(&text), 2);
}
