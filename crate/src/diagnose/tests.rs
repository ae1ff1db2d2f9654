use super::*;
use crate::locate::Scope;

fn report_for(file: &str, needle: &str) -> (EditError, Text<'static>) {
    let file: &'static str = Box::leak(file.to_string().into_boxed_str());
    let text = Text::new(file);
    let err = no_match(
        &text,
        needle,
        &Scope::whole(&text),
        &Subject {
            what: "old_str",
            path: "f.rs",
            tool: "str_replace",
        },
    );
    (err, text)
}

#[test]
fn reports_the_longest_run_and_where_it_diverges() {
    let file = "fn a() {\n    let x = 1;\n    let y = 2;\n    x + y\n}\n";
    let (err, _) = report_for(file, "fn a() {\n    let x = 1;\n    let y = 3;\n");
    assert_eq!(err.kind, ErrorKind::NoMatch);
    let run = &err.diagnostics["longest_matching_run"];
    assert_eq!(run["file_lines"], json!([1, 2]));
    assert_eq!(run["diverges"]["line"], 3);
    assert_eq!(run["diverges"]["found"], "    let y = 2;");
    assert!(
        err.message.contains("its line 3 differs"),
        "{}",
        err.message
    );
    assert_eq!(err.diagnostics["closest"]["start_line"], 1);
    assert!(
        err.message
            .contains("read_lines {path: \"f.rs\", start_line: 1, end_line: 5}"),
        "{}",
        err.message
    );
}

#[test]
fn whitespace_only_differences_are_shown_visibly() {
    let file = "def f():\n\tif x:\n\t\treturn 1\n";
    let (err, _) = report_for(file, "def f():\n    if x:\n        return 1\n");
    let lines = err.diagnostics["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["found"], "\\t\\treturn 1");
    assert_eq!(lines[1]["expected"], "        return 1");
    assert_eq!(lines[1]["whitespace_only"], true);
    assert!(
        err.message.contains("match except for whitespace"),
        "{}",
        err.message
    );
    assert!(err.message.contains("1 tab"), "{}", err.message);
}

#[test]
fn differing_lines_carry_the_raw_line_beside_the_visible_one() {
    // A literal backslash-t in code and a real tab look alike once escaped; the raw
    // twins tell them apart without any unescaping by the host.
    let file = "a = 1\nb = \"\\t\"\r\nc\u{a0}= 3\n";
    let (err, _) = report_for(file, "a = 1\nb = \"\t\"\nc = 3\n");
    let lines = err.diagnostics["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["expected"], "b = \"\\t\"");
    assert_eq!(lines[0]["found"], "b = \"\\t\"");
    assert_eq!(lines[0]["expected_raw"], "b = \"\t\"");
    assert_eq!(lines[0]["found_raw"], "b = \"\\t\"");
    assert_eq!(lines[1]["found"], "c\\u00a0= 3");
    assert_eq!(lines[1]["found_raw"], "c\u{a0}= 3");
    assert_eq!(lines[1]["expected_raw"], "c = 3");
    let diverges = &err.diagnostics["longest_matching_run"]["diverges"];
    assert_eq!(diverges["expected_raw"], "b = \"\t\"");
    assert_eq!(diverges["found_raw"], "b = \"\\t\"");
}

#[test]
fn finds_a_paraphrase_by_its_words_when_no_line_matches() {
    let mut file = String::new();
    for i in 0..200 {
        file.push_str(&format!("fn filler_{i}() {{ call_{i}(); }}\n"));
    }
    file.push_str("fn connect(host: &str, port: u16) -> Conn {\n    Conn::open(host, port)\n}\n");
    let (err, _) = report_for(
        &file,
        "fn connect(host: &str, port: u32) -> Conn {\n    Conn::open(host, port).unwrap()\n}",
    );
    assert_eq!(
        err.diagnostics["closest"]["start_line"], 201,
        "{:#}",
        err.diagnostics
    );
}

#[test]
fn says_when_nothing_is_similar() {
    let (err, _) = report_for("alpha\nbeta\n", "completely_unrelated_identifier()");
    assert!(err.diagnostics.get("closest").is_none());
    assert!(err.message.contains("grep_file"), "{}", err.message);
    assert!(
        err.message.contains("completely_unrelated_identifier"),
        "{}",
        err.message
    );
}

#[test]
fn visible_and_notes() {
    assert_eq!(visible("\ta\r"), "\\ta\\r");
    assert_eq!(
        whitespace_note("  x", "\tx").unwrap(),
        "indentation: the request has 2 spaces, the file has 1 tab"
    );
    assert_eq!(
        whitespace_note("x ", "x").unwrap(),
        "trailing whitespace: the request has 1 space, the file has none"
    );
    assert_eq!(whitespace_note("x", "y"), None);
}

#[test]
fn a_run_reaching_the_end_reports_the_line_before_it() {
    let file = "def save(path, data):\n    write(path, data)\n";
    let (err, _) = report_for(file, "def save(path, text):\n    write(path, data)\n");
    assert!(
        err.message
            .contains("its line 1 differs: expected `def save(path, text):`"),
        "{}",
        err.message
    );
    assert_eq!(
        err.diagnostics["longest_matching_run"]["diverges"]["line"],
        1
    );
}

#[test]
fn explain_recovery_adds_levels_tried_and_near_misses() {
    let file = "a:\n    b\n      c\n";
    let text = Text::new(file);
    let scope = Scope::whole(&text);
    let found = crate::locate::find(&text, "a:\n  b\n  c\n", &scope, false);
    let err = explain_recovery(
        no_match(
            &text,
            "a:\n  b\n  c\n",
            &scope,
            &Subject {
                what: "old_str",
                path: "f.yml",
                tool: "str_replace",
            },
        ),
        &found,
    );
    assert_eq!(
        err.diagnostics["tried"],
        json!(["exact", "trailing_whitespace", "indentation", "blank_lines"])
    );
    assert!(
        err.message.contains("one consistent amount"),
        "{}",
        err.message
    );
    assert_eq!(
        err.diagnostics["recovery"].as_array().map(Vec::len),
        Some(1)
    );
}

#[test]
fn numbered_needles_are_compared_without_their_prefixes() {
    let (err, _) = report_for("x = 1\ny = 2\n", "1\tx = 1\n2\ty = 2\n");
    assert!(
        err.message
            .contains("without them it matches lines 1-2 exactly"),
        "{}",
        err.message
    );
    let (err, _) = report_for(
        "fn a() {\n    let x = 1;\n}\n",
        "1\tfn a() {\n2\t    let y = 1;\n",
    );
    assert_eq!(err.diagnostics["closest"]["start_line"], 1);
    assert!(
        err.message.contains("line-number prefixes"),
        "{}",
        err.message
    );
}

#[test]
fn the_closest_area_scan_stops_at_its_budget_and_says_where() {
    // Every file line equals two needle lines (whole and trimmed): 4 pairs a line, so the
    // 1 000 000-pair budget runs out a quarter of the way through 1 200 000 lines.
    let file = "x\n".repeat(1_200_000);
    let (err, _) = report_for(&file, "x\nx\ny\n");
    let stopped = err.diagnostics["scan_stopped_at_line"].as_u64();
    assert!(
        stopped.is_some_and(|l| l > 200_000 && l < 400_000),
        "{stopped:?}"
    );
    // A needle the budget does not constrain reports no stop.
    let (err, _) = report_for("a\nb\nc\n", "a\nb\nd\n");
    assert!(err.diagnostics.get("scan_stopped_at_line").is_none());
}

mod bound {
    use super::super::{char_counts, similarity, similarity_bound};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The bound that lets the scoring skip a window is never below the score.
        #[test]
        fn the_similarity_bound_is_never_below_the_similarity(
            a in "[ab\n é\u{1e9}(]{0,40}",
            b in "[ab\n é\u{1e9}(]{0,40}",
        ) {
            prop_assert!(similarity_bound(&a, &char_counts(&b)) >= similarity(&a, &b));
        }
    }
}

/// The refusal for `needle` in `file`, read from a kept string met again (whose
/// candidate lines come from its line map) and from a text met once.
fn kept_and_fresh(file: &str, needle: &str) -> (Value, Value) {
    let subject = Subject {
        what: "old_str",
        path: "f.rs",
        tool: "str_replace",
    };
    let src = std::sync::Arc::new(file.to_string());
    let kept = crate::text::Kept::default();
    let _ = kept.text(&src);
    let again = kept.text(&src);
    assert!(again.kept_line_map().is_some());
    let fresh = Text::new(file);
    let of = |t: &Text| {
        let e = no_match(t, needle, &Scope::whole(t), &subject);
        json!({"message": e.message, "diagnostics": e.diagnostics})
    };
    (of(&again), of(&fresh))
}

#[test]
fn a_kept_text_stops_the_scan_where_a_fresh_one_does() {
    // One line in five is `x`, which equals 100 needle lines whole and trimmed: 200
    // pairs a line, so the budget runs out at the 5 001st `x` (line 25 001, 1-based
    // 25 001): the scan stops at the line after it. The `x` lines are a fifth of the
    // file, so the kept text reads them from its line map.
    let file = "x\na\nb\nc\nd\n".repeat(20_000);
    let needle = format!("{}y\n", "x\n".repeat(100));
    let (kept, fresh) = kept_and_fresh(&file, &needle);
    assert_eq!(kept, fresh);
    assert_eq!(fresh["diagnostics"]["scan_stopped_at_line"], 25_002);
}

mod kept_scan {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// A kept text's candidate lines (from its line map) are those a pass over every
        /// line finds, so its refusals are the same.
        #[test]
        fn a_kept_text_refuses_as_a_fresh_one(
            lines in prop::collection::vec("(a|  a|b|\t b|x y|\\}|)", 0..120),
            needle in prop::collection::vec("(a|  a|b|x y|\\}|c|)", 1..8),
        ) {
            let file: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let needle: String = needle.iter().map(|l| format!("{l}\n")).collect();
            let (kept, fresh) = kept_and_fresh(&file, &needle);
            prop_assert_eq!(kept, fresh);
        }

        /// The needle lines' groups of the line map hold exactly the lines a pass over
        /// every line's hash finds, over any span.
        #[test]
        fn the_line_map_gives_the_lines_a_pass_finds(
            lines in prop::collection::vec("(a|  a|b|\t b|x y|\\}|)", 1..120),
            needle in prop::collection::vec("(a|  a|b|x y|\\}|c|)", 1..8),
            from in 0usize..120,
            span in 0usize..120,
        ) {
            let file: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let needle: Vec<&str> = needle.iter().map(String::as_str).collect();
            let text = Text::new(&file);
            let last = (from + span).min(text.line_count() - 1);
            let first = from.min(last);
            let mapped = merged(&needle_groups(text.line_map(), &needle, first..last + 1));
            prop_assert_eq!(mapped, wanted_lines_scanned(&text, first, last, &needle));
        }
    }
}
