use super::*;

#[test]
fn counts_lines_like_wc_plus_unterminated_last() {
    let cases: &[(&str, usize)] = &[
        ("", 0),
        ("a", 1),
        ("a\n", 1),
        ("a\nb\n", 2),
        ("a\nb", 2),
        ("\n", 1),
        ("\n\n", 2),
        ("a\r\nb\r\n", 2),
        ("a\r\nb", 2),
    ];
    for &(s, n) in cases {
        assert_eq!(Text::new(s).line_count(), n, "{s:?}");
        assert_eq!(count_lines(s), n, "{s:?}");
        assert_eq!(split_lines(s).len(), n, "{s:?}");
    }
}

#[test]
fn lines_strip_terminators_and_bom_but_ranges_keep_them() {
    let t = Text::new("\u{feff}one\r\ntwo\nthree");
    assert!(t.has_bom());
    assert_eq!(t.line(0), "one");
    assert_eq!(t.line_with_ending(0), "\u{feff}one\r\n");
    assert_eq!(t.line(1), "two");
    assert_eq!(t.line(2), "three");
    assert_eq!(t.lines().collect::<Vec<_>>(), ["one", "two", "three"]);
    assert!(!t.ends_with_newline());
    assert!(t.has_mixed_endings());
}

#[test]
fn detects_endings_per_file_and_near_a_line() {
    assert_eq!(Text::new("a\nb\n").ending(), LineEnding::Lf);
    assert_eq!(Text::new("a\r\nb\r\n").ending(), LineEnding::CrLf);
    assert_eq!(Text::new("no breaks").ending(), LineEnding::Lf);
    let mixed = Text::new("a\r\nb\r\nc\nd\n");
    assert_eq!(mixed.ending(), LineEnding::Lf, "a tie goes to LF");
    assert_eq!(mixed.ending_near(0), LineEnding::CrLf);
    assert_eq!(mixed.ending_near(3), LineEnding::Lf);
    let unterminated = Text::new("a\r\nb\nc\r\nd");
    assert_eq!(
        unterminated.ending_near(3),
        LineEnding::CrLf,
        "last line borrows from the one before"
    );
    assert_eq!(with_ending("x\ny\r\nz", LineEnding::CrLf), "x\r\ny\r\nz");
    assert_eq!(with_ending("x\r\ny\nz", LineEnding::Lf), "x\ny\nz");
}

#[test]
fn offsets_map_to_lines_and_back() {
    let t = Text::new("ab\ncd\n");
    assert_eq!(t.line_of(0), 0);
    assert_eq!(t.line_of(2), 0, "the newline belongs to its line");
    assert_eq!(t.line_of(3), 1);
    assert_eq!(
        t.line_of(6),
        2,
        "the end of a terminated text is the line after the last"
    );
    assert_eq!(t.line_start(1), 3);
    assert_eq!(t.line_start(2), 6);
    assert_eq!(t.lines_range(0, 1), 0..6);
    let u = Text::new("ab\ncd");
    assert_eq!(
        u.line_of(5),
        1,
        "the end of an unterminated text is on its last line"
    );
    assert_eq!(Text::new("").line_of(0), 0);
}

#[test]
fn points_count_utf16_code_units() {
    // emoji (2 UTF-16 units, 4 bytes), CJK (1 unit, 3 bytes), combining mark (1 unit, 2 bytes), tab.
    let s = "a😀b\n漢字x\ne\u{301}y\n\tz\n";
    let t = Text::new(s);
    let at = |needle: &str| t.point(s.find(needle).unwrap());
    assert_eq!(at("b"), Point { row: 0, column: 3 });
    assert_eq!(at("x"), Point { row: 1, column: 2 });
    assert_eq!(at("y"), Point { row: 2, column: 2 });
    assert_eq!(at("z"), Point { row: 3, column: 1 });
    assert_eq!(t.point(s.len()), Point { row: 4, column: 0 });
    assert_eq!(utf16_len("😀😀"), 4);
    // The BOM is part of the host's text, so it counts on row 0.
    let b = "\u{feff}x";
    assert_eq!(Text::new(b).point(b.len()), Point { row: 0, column: 2 });
}

/// A line's hash from `line_hashes_like` equals one of the asked lines' hashes exactly
/// when its full core hash does.
#[test]
fn hashes_like_some_lines_match_exactly_where_the_full_hashes_do() {
    let src = "def f(x):\n    return x\n\n  return  x \n\treturn x\r\n}\n\"q\"\n-- .\nreturn y\n\u{feff}x\n";
    let likes: [&[&str]; 5] = [
        &["return x"],
        &["", "}"],
        &["def f(x):", "  \"q\""],
        &["...", "return\ty"],
        &["é", "x"],
    ];
    for like in likes {
        let fresh = Text::new(src);
        let got = fresh.line_hashes_like(0..fresh.line_count(), like);
        let all = Text::new(src);
        let full = all.line_hashes();
        for l in like {
            let h = hash::core_hash(l);
            for k in 0..full.len() {
                assert_eq!(full[k] == h, got[k] == h, "{like:?}, line {k}");
            }
        }
    }
}

/// Asked without the index (counting from the last place asked, within a budget), a
/// text answers every line question as its index does, in any order of questions.
mod lazy_index {
    use super::super::Text;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Ask {
        LineOf(usize),
        LineStart(usize),
        LineRange(usize),
        LinesRange(usize, usize),
        Count,
        Ending,
        Mixed,
    }

    fn ask() -> impl Strategy<Value = Ask> {
        prop_oneof![
            (0usize..40).prop_map(Ask::LineOf),
            (0usize..12).prop_map(Ask::LineStart),
            (0usize..12).prop_map(Ask::LineRange),
            (0usize..12, 0usize..4).prop_map(|(a, b)| Ask::LinesRange(a, a + b)),
            Just(Ask::Count),
            Just(Ask::Ending),
            Just(Ask::Mixed),
        ]
    }

    fn answer(text: &Text, ask: &Ask) -> String {
        let lines = text.line_count();
        match *ask {
            Ask::LineOf(o) => format!("{}", text.line_of(o)),
            Ask::LineStart(i) => format!("{}", text.line_start(i)),
            Ask::LineRange(i) if i < lines => format!("{:?}", text.line_range(i)),
            Ask::LinesRange(a, b) if b < lines => format!("{:?}", text.lines_range(a, b)),
            Ask::LineRange(_) | Ask::LinesRange(..) => String::new(),
            Ask::Count => format!("{lines}"),
            Ask::Ending => format!("{:?}", text.ending()),
            Ask::Mixed => format!("{}", text.has_mixed_endings()),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn answers_match_the_index(
            src in "[ab\r\n]{0,30}",
            asks in proptest::collection::vec(ask(), 1..12),
        ) {
            let lazy = Text::new(&src);
            let indexed = Text::new(&src);
            let _ = indexed.lines().count();
            for ask in &asks {
                prop_assert_eq!(answer(&lazy, ask), answer(&indexed, ask), "{:?} {:?}", src, ask);
            }
        }
    }

    /// However questions jump about, counting stops after reading twice the text and
    /// the index answers from then on.
    #[test]
    fn counting_is_budgeted() {
        let src = "x\n".repeat(5000);
        let text = Text::new(&src);
        for k in 0..200 {
            let o = if k % 2 == 0 { 0 } else { src.len() - 1 };
            assert_eq!(text.line_of(o), if k % 2 == 0 { 0 } else { 4999 });
        }
        assert!(text.shared.index.get().is_some());
    }
}

/// The core ends read while the index is built are each line's own.
#[test]
fn core_ends_read_with_the_index_are_each_lines() {
    let long: String = (0..500)
        .map(|i| format!("  l{i} = '{i}';\r\n\t\n"))
        .collect();
    for src in [
        "",
        "a",
        "a\n",
        " x \r\n\ty\n",
        "\u{feff}ab\nc",
        "a\n\n b",
        long.as_str(),
    ] {
        let fused = Text::new(src);
        let _ = fused.line_hashes_like(0..usize::MAX, &["zz"]);
        let expected: Vec<u16> = Text::new(src).lines().map(hash::core_ends).collect();
        assert_eq!(fused.shared.ends.get(), Some(&expected), "{src:?}");
    }
}

mod first_bytes {
    use super::super::{Kept, Text};
    use proptest::prelude::*;
    use std::sync::Arc;

    proptest! {
        /// Whether a range is ASCII or holds a backslash, answered from the text's first
        /// such byte, is what reading the range says, on a text met once and on a kept
        /// string met again (whose first bytes an earlier call found).
        #[test]
        fn first_bytes_answer_as_reading_the_range_does(
            src in "[a\\\\é\n]{0,24}",
            ranges in prop::collection::vec((0usize..25, 0usize..25), 1..6),
        ) {
            let arc = Arc::new(src.clone());
            let kept = Kept::default();
            let first = kept.text(&arc);
            let again = kept.text(&arc);
            let fresh = Text::new(&src);
            for (a, b) in ranges {
                let (a, b) = (a.min(src.len()), b.min(src.len()));
                let (a, b) = (a.min(b), a.max(b));
                let bytes = &src.as_bytes()[a..b];
                for t in [&first, &again, &fresh] {
                    prop_assert_eq!(t.is_ascii_in(a..b), bytes.is_ascii());
                    prop_assert_eq!(t.has_backslash_in(a..b), bytes.contains(&b'\\'));
                }
            }
        }
    }
}

/// A whole-text fact is computed once per string: a kept string met again answers from
/// what the first text found, each name on its own.
#[test]
fn a_whole_text_fact_is_computed_once_per_kept_string() {
    let arc = std::sync::Arc::new("a  b\n".to_string());
    let kept = Kept::default();
    let calls = std::cell::Cell::new(0);
    let fact = |t: &str| {
        calls.set(calls.get() + 1);
        t.contains("  ")
    };
    assert!(kept.text(&arc).whole_text_fact("run", fact));
    assert!(kept.text(&arc).whole_text_fact("run", fact));
    assert!(!kept.text(&arc).whole_text_fact("tab", |t| t.contains('\t')));
    assert_eq!(calls.get(), 1);
    assert!(Text::new("a  b\n").whole_text_fact("run", fact));
    assert_eq!(calls.get(), 2, "a text met once computes it");
}
