use super::*;
use crate::locate::real_files::{lines, FILES};
use crate::locate::{find, Via};
use proptest::prelude::*;

#[test]
fn parts_need_text_on_both_sides() {
    let n = Needle::parse("fn a() {\n    // ...\n}\n");
    let p = split(&n).unwrap();
    assert_eq!(p.segments.len(), 2);
    assert_eq!(p.markers, ["// ..."]);
    assert!(p.segments[1].starts_line);
    assert!(split(&Needle::parse("// ...\n}\n")).is_none());
    assert!(split(&Needle::parse("fn a() {\n}\n")).is_none());
}

/// The chains of `old` in `file`, each as the first line of each part.
fn chain_lines(file: &str, old: &str) -> Vec<Vec<usize>> {
    let text = Text::new(file);
    let scope = Scope::whole(&text);
    let index = LineIndex::build(&text, &scope);
    let needle = Needle::parse(old);
    let parts = split(&needle).unwrap();
    let mut refusals = Refusals::default();
    chains(&text, &index, &scope, &parts, Key::Lines, &mut refusals)
        .iter()
        .map(|c| c.iter().map(|s| s.first).collect())
        .collect()
}

#[test]
fn chains_are_unique_within_the_heads_definition() {
    let rust =
        "fn a() {\n    for x in y {\n        f(x);\n    }\n    done\n}\n\nfn b() {\n    tail\n}\n";
    let python = "def f(a,\n      b):\n    \"\"\"Doc.\n\n    More.\n    \"\"\"\n    x = a\n    return x\n\n\ndef g():\n    return x\n";
    let cases: &[(&str, &str, &str, &[&[usize]])] = &[
        // The elided lines close the head's inner block: kept byte for byte.
        (
            "nested head",
            rust,
            "fn a() {\n    for x in y {\n        // ...\n    done\n}\n",
            &[&[0, 4]],
        ),
        (
            "no closing bracket",
            rust,
            "fn a() {\n    for x in y {\n        // ...\n    done\n",
            &[&[0, 4]],
        ),
        // The tail is in `b`, outside `a`.
        (
            "next definition",
            rust,
            "fn a() {\n    for x in y {\n        // ...\n    tail\n}\n",
            &[],
        ),
        // Issue 25, rule 3: the parameter list closes in the elided part; a docstring
        // starts in the head.
        (
            "parameter list",
            python,
            "def f(a,\n    # ...\n    return x\n",
            &[&[0, 7]],
        ),
        (
            "docstring",
            python,
            "def f(a,\n      b):\n    \"\"\"Doc.\n    ...\n    return x\n",
            &[&[0, 7]],
        ),
        // `return x` occurs once in f after the head; g's is outside f.
        (
            "tail once in the definition",
            python,
            "    x = a\n    ...\n    return x\n",
            &[&[6, 7]],
        ),
    ];
    for (name, file, old, want) in cases {
        assert_eq!(&chain_lines(file, old), want, "{name}");
    }
}

#[test]
fn a_part_twice_after_the_head_gives_two_chains() {
    let file = "fn a() {\n    step();\n    x += 1;\n    step();\n    x += 1;\n}\n";
    assert_eq!(
        chain_lines(file, "fn a() {\n    // ...\n    x += 1;\n"),
        [[0, 2], [0, 4]]
    );
    let text = Text::new(file);
    let found = find(
        &text,
        "fn a() {\n    // ...\n    x += 1;\n",
        &Scope::whole(&text),
        false,
    );
    assert_eq!(
        (found.via(), found.candidates.len()),
        (Some(Via::Elision), 2)
    );
}

#[test]
fn a_top_level_head_that_opens_nothing_takes_the_file() {
    let file = "import os\nimport re\n\nx = 1\ny = 2\n";
    assert_eq!(chain_lines(file, "import os\n...\ny = 2\n"), [[0, 4]]);
}

#[test]
fn brackets_do_not_matter_to_the_region() {
    // A Rust signature over several lines: `)`, `where` and `{` continue it.
    let file = "fn f<M, F>(\n    m: M,\n) -> R\nwhere\n    F: Fn(),\n{\n    body();\n    end()\n}\nfn g() {\n    end()\n}\n";
    assert_eq!(
        chain_lines(file, "fn f<M, F>(\n    // ...\n    end()\n"),
        [[0, 7]]
    );
}

/// A request quoted from lines `from..from + len` of `file` with its middle lines
/// replaced by a marker (`at` picks where the head ends).
fn elide(file: &[&str], from: usize, len: usize, at: usize) -> Option<String> {
    let from = from % file.len();
    let to = (from + len).min(file.len());
    if to - from < 3 {
        return None;
    }
    let head_end = from + 1 + at % (to - from - 2);
    let tail_from = head_end + 1 + (at / 3) % (to - head_end - 1);
    let mut s = file[from..head_end].join("\n");
    s.push_str("\n    // ...\n");
    s.push_str(&file[tail_from..to].join("\n"));
    s.push('\n');
    Some(s)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// The chains, and the cascade's candidates and uniqueness, against the
    /// reference on elided requests quoted from real files.
    #[test]
    fn chains_are_what_the_reference_enumerates(
        f in 0..FILES.len(), from in 0usize..400, len in 3usize..14, at in 0usize..40,
    ) {
        let (_, src) = FILES[f];
        let Some(old) = elide(&lines(src), from, len, at) else {
            return Ok(());
        };
        let text = Text::new(src);
        let scope = Scope::whole(&text);
        let needle = Needle::parse(&old);
        let Some(parts) = split(&needle) else {
            return Ok(());
        };
        let index = LineIndex::build(&text, &scope);
        let mut refusals = Refusals::default();
        let got: Vec<Vec<usize>> = chains(&text, &index, &scope, &parts, Key::Lines, &mut refusals)
            .iter()
            .map(|c| c.iter().map(|s| s.first).collect())
            .collect();
        let want = reference(&text, &scope, &parts, Key::Lines);
        if !refusals.too_many {
            prop_assert_eq!(&got, &want);
        }
        let found = find(&text, &old, &scope, false);
        if found.via() == Some(Via::Elision) && !want.is_empty() {
            prop_assert_eq!(found.candidates.len() == 1, want.len() == 1);
            if want.len() == 1 {
                prop_assert_eq!(found.candidates[0].first_line(&text), want[0][0]);
            }
        }
    }
}

#[test]
fn parts_that_never_complete_a_chain_cost_nothing() {
    // 20 000 `a();` lines, then the head, then every `b();` before any `c();`: the
    // walk must not try each pair of `a();` and `b();` before finding no `c();`.
    let mut file = String::from("fn f() {\n");
    file.push_str(&"    b();\n".repeat(20_000));
    file.push_str("    head();\n");
    file.push_str(&"    a();\n    b();\n".repeat(20_000));
    file.push_str("}\n");
    let start = std::time::Instant::now();
    assert!(chain_lines(
        &file,
        "    head();\n    // ...\n    a();\n    // ...\n    b();\n    // ...\n    c();\n"
    )
    .is_empty());
    assert!(start.elapsed().as_secs() < 10);
}
