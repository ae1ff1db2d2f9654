//! The one-pass ways of applying many edits to one file (issue 24, "linear in every
//! input") against slow references, through the public API:
//!
//! - `multi_replace` (one search per item in the file as it was, one write) gives what
//!   its items give one after the other as separate `str_replace` calls: the same text
//!   and the same per-item messages (line numbers as each item saw them), or a refusal
//!   when one of those calls is refused.
//! - `apply_patch` places one-line hunks sent in reverse file order exactly where the
//!   same hunks in file order land (the line map answers the whole-file search).

use anchored_edit::{Session, ToolResult};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

type Files = BTreeMap<String, String>;

fn call(files: &Files, tool: &str, arguments: Value) -> ToolResult {
    Session::new().call(&json!({"tool": tool, "arguments": arguments}), files)
}

fn new_text(r: &ToolResult) -> Option<String> {
    r.files.as_ref()?.first()?.new_text.clone()
}

/// The items one by one as str_replace calls: the final text and each message, or
/// None when one is refused.
fn one_by_one(text: &str, items: &[(String, String)]) -> Option<(String, Vec<String>)> {
    let mut now = text.to_string();
    let mut messages = Vec::new();
    for (old, new) in items {
        let files = Files::from([("f.txt".to_string(), now.clone())]);
        let r = call(
            &files,
            "str_replace",
            json!({"path": "f.txt", "old_str": old, "new_str": new}),
        );
        if !r.ok {
            return None;
        }
        now = new_text(&r).unwrap_or(now);
        messages.push(r.message.clone().unwrap_or_default());
    }
    Some((now, messages))
}

/// Checks multi_replace against [`one_by_one`] on `text`.
fn agrees(text: &str, items: &[(String, String)]) -> Result<(), TestCaseError> {
    let files = Files::from([("f.txt".to_string(), text.to_string())]);
    let replacements: Vec<Value> = items
        .iter()
        .map(|(o, n)| json!({"path": "f.txt", "old_str": o, "new_str": n}))
        .collect();
    let batch = call(
        &files,
        "multi_replace",
        json!({"replacements": replacements}),
    );
    match one_by_one(text, items) {
        Some((want, messages)) if batch.ok => {
            prop_assert_eq!(new_text(&batch).unwrap_or_else(|| text.to_string()), want);
            let each: Vec<String> = messages
                .iter()
                .enumerate()
                .map(|(i, m)| format!("[{}] {m}", i + 1))
                .collect();
            let s = if items.len() == 1 { "" } else { "s" };
            let head = format!("Applied all {} replacement{s}: ", items.len());
            let want = format!("{head}{}", each.join(" "));
            prop_assert_eq!(batch.message.as_deref(), Some(want.as_str()));
        }
        // An item matching what an earlier one wrote is refused as a batch, though
        // the separate calls take it.
        Some(_) => prop_assert_eq!(
            batch.error_kind().map(|k| k.as_str()),
            Some("overlapping_edits"),
            "{}",
            batch.headline()
        ),
        None => prop_assert!(!batch.ok, "the batch applied: {:?}", batch.message),
    }
    Ok(())
}

/// An item that takes the `\r` of a `\r\n` leaves the file's endings mixed: a later
/// item's new line is written as the separate calls write it (found by the property
/// below: `zz\r\nQ\n` against `zz\nQ\n`).
#[test]
fn an_item_that_splits_a_crlf_keeps_the_in_order_endings() {
    let items = [("2 a\r", "Q"), ("x", "zz\n")].map(|(o, n)| (o.to_string(), n.to_string()));
    agrees("x2 a\r\n", &items).unwrap();
    let items = [("\nb", "Q"), ("a", "zz\n")].map(|(o, n)| (o.to_string(), n.to_string()));
    agrees("a\r\nb\r\n", &items).unwrap();
}

/// Lines of a few words, so that old_strs taken from them repeat now and then.
fn text() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("a"),
        Just("b"),
        Just("x1"),
        Just("x2"),
        Just("y"),
        Just("zz")
    ];
    let line = prop::collection::vec(word, 1..4).prop_map(|w| w.join(" "));
    (prop::collection::vec(line, 1..24), any::<bool>()).prop_map(|(lines, crlf)| {
        let eol = if crlf { "\r\n" } else { "\n" };
        lines.iter().map(|l| format!("{l}{eol}")).collect()
    })
}

/// Items whose old_str is a piece of `text` (start, length drawn) and whose new_str
/// is a few words, perhaps over two lines.
fn items(text: &str, picks: &[(usize, usize, usize)]) -> Vec<(String, String)> {
    let news = ["Q", "a b", "", "b\nc", "x1 x2", "zz\n"];
    picks
        .iter()
        .filter_map(|&(at, len, new)| {
            let start = at % text.len();
            let end = (start + 1 + len % 8).min(text.len());
            let old = text.get(start..end)?;
            (!old.trim().is_empty()).then(|| (old.to_string(), news[new % news.len()].to_string()))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// multi_replace = its items as separate str_replace calls, in order.
    #[test]
    fn multi_replace_gives_what_its_items_give_one_by_one(
        text in text(),
        picks in prop::collection::vec((0usize..4096, 0usize..64, 0usize..6), 1..6),
    ) {
        let items = items(&text, &picks);
        prop_assume!(!items.is_empty());
        agrees(&text, &items)?;
    }

    /// Whole lines of a file of distinct lines, in any order: the case the one pass
    /// takes, including items on neighbouring lines and items that add lines.
    #[test]
    fn multi_replace_of_distinct_lines_gives_what_they_give_one_by_one(
        lines in 2usize..60,
        picks in prop::collection::vec((0usize..60, 0usize..6), 1..12),
    ) {
        let text: String = (0..lines).map(|i| format!("line {i} of the file\n")).collect();
        let news = ["LINE", "line\nextra", "", "two\nnew\nlines", "of", "x"];
        let mut seen = std::collections::BTreeSet::new();
        let items: Vec<(String, String)> = picks
            .iter()
            .filter(|(l, _)| *l < lines && seen.insert(*l))
            .map(|&(l, n)| (format!("line {l} of"), format!("{} {l} of", news[n])))
            .collect();
        prop_assume!(!items.is_empty());
        agrees(&text, &items)?;
    }
}

/// An item that finds what an earlier one wrote (the separate calls take it; the batch
/// refuses), and one that is unique only once an earlier item rewrote its twin (taken
/// in order, as the separate calls take it).
#[test]
fn items_that_depend_on_earlier_ones_keep_the_in_order_meaning() {
    let text = "alpha\nbeta\ngamma\nbeta\n";
    let wrote = [
        ("alpha".to_string(), "delta".to_string()),
        ("delta".to_string(), "omega".to_string()),
    ];
    agrees(text, &wrote).unwrap();
    let twin = [
        ("beta\ngamma".to_string(), "BETA\ngamma".to_string()),
        ("beta".to_string(), "bet".to_string()),
    ];
    agrees(text, &twin).unwrap();
    let files = Files::from([("f.txt".to_string(), text.to_string())]);
    let r = call(
        &files,
        "multi_replace",
        json!({"replacements": twin.iter().map(|(o, n)| json!({"path": "f.txt", "old_str": o, "new_str": n})).collect::<Vec<_>>()}),
    );
    assert_eq!(new_text(&r).as_deref(), Some("alpha\nBETA\ngamma\nbet\n"));
}

/// N one-line hunks in reverse file order land where the same hunks in file order do.
#[test]
fn reversed_one_line_hunks_land_where_in_order_ones_do() {
    let text: String = (0..3000)
        .map(|i| format!("line {i} of the file\n"))
        .collect();
    let files = Files::from([("f.txt".to_string(), text.clone())]);
    let lines: Vec<usize> = (0..300).map(|i| i * 10 + i % 7).collect();
    let hunk = |i: &usize| format!("@@\n-line {i} of the file\n+LINE {i} of the file\n");
    let patch =
        |hunks: String| format!("*** Begin Patch\n*** Update File: f.txt\n{hunks}*** End Patch\n");
    let in_order = call(
        &files,
        "apply_patch",
        json!({"patch": patch(lines.iter().map(hunk).collect())}),
    );
    let reversed = call(
        &files,
        "apply_patch",
        json!({"patch": patch(lines.iter().rev().map(hunk).collect())}),
    );
    assert!(
        in_order.ok && reversed.ok,
        "{} / {}",
        in_order.headline(),
        reversed.headline()
    );
    let want: String = (0..3000)
        .map(|i| {
            let word = if lines.contains(&i) { "LINE" } else { "line" };
            format!("{word} {i} of the file\n")
        })
        .collect();
    assert_eq!(new_text(&in_order).as_deref(), Some(want.as_str()));
    assert_eq!(new_text(&reversed).as_deref(), Some(want.as_str()));
}
