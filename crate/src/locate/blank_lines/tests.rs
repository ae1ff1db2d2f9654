use super::*;
use crate::locate::real_files::{lines, quote, FILES};
use crate::locate::{find, Fix};
use proptest::prelude::*;

/// The file after writing `new` at each match of `old` (one text per match), or the
/// refusal's kind.
fn render(file: &str, old: &str, new: &str) -> Vec<Result<String, String>> {
    let text = Text::new(file);
    let needle = Needle::parse(old);
    matches(&text, &needle, &Scope::whole(&text))
        .into_iter()
        .map(|(s, m)| {
            let bytes = m
                .render(&text, new)
                .map_err(|e| e.kind.as_str().to_string())?;
            let mut out = file.to_string();
            out.replace_range(s.range, &bytes);
            Ok(out)
        })
        .collect()
}

fn ok(s: &str) -> Result<String, String> {
    Ok(s.to_string())
}

/// (file, old_str, new_str, the file after writing at each match).
type Case<'a> = (&'a str, &'a str, &'a str, &'a [Result<String, String>]);

#[test]
fn kept_gaps_keep_the_files_size() {
    let cases: &[Case] = &[
        (
            "a\n\n\nb\nc\n",
            "a\n\nb\n",
            "a\n\nB\n",
            &[ok("a\n\n\nB\nc\n")],
        ),
        ("a\nb\n", "a\n\nb\n", "A\n\nb\n", &[ok("A\nb\n")]),
        ("a\n\n\nb\n", "a\n\nb", "a\n\nb2", &[ok("a\n\n\nb2\n")]),
        // No blank line in the request where the file has some (issue 25, rule 2).
        ("a\n\nb\n", "a\nb\n", "a\nB\n", &[ok("a\n\nB\n")]),
        (
            "a\n\n\nb\nc\n",
            "a\nb\nc\n",
            "A\nb\nc\n",
            &[ok("A\n\n\nb\nc\n")],
        ),
        // A blank line more at the start, fewer at the end, any layout.
        (
            "x\na\n\nb\n\n\nc\n",
            "\n\na\nb\n\nc\n",
            "\n\na\nb\n\nC\n",
            &[ok("x\na\n\nb\n\n\nC\n")],
        ),
        (
            "a\n\nb\nc\n",
            "a\nb\n\n\nc",
            "a\nb\n\n\nC",
            &[ok("a\n\nb\nC\n")],
        ),
        // Deleting the line after a hidden gap keeps the gap.
        ("a\n\nb\nc\n", "a\nb\nc\n", "a\nc\n", &[ok("a\n\nc\n")]),
    ];
    for (file, old, new, want) in cases {
        assert_eq!(&render(file, old, new), want, "{file:?} {old:?} -> {new:?}");
    }
}

#[test]
fn lines_added_at_a_hidden_gap_are_refused() {
    // The file's blank line could go on either side of `x();`.
    assert_eq!(
        render("a();\n\nb();\n", "a();\nb();\n", "a();\nx();\nb();\n"),
        [Err("ambiguous".to_string())]
    );
    // Both lines around it changed: the same.
    assert_eq!(
        render("a\n\nb\n", "a\nb\n", "A\nB\n"),
        [Err("ambiguous".to_string())]
    );
}

#[test]
fn two_places_equal_without_blank_lines_are_both_candidates() {
    // Issue 25, rule 2: the request has a blank line the first place lacks and lacks
    // one the second has; the old level took the first.
    let file = "x = 1\ny = 2\nz = 3\n\nx = 1\n\ny = 2\n\nz = 3\n";
    assert_eq!(render(file, "x = 1\n\ny = 2\nz = 3\n", "q\n").len(), 2);
    let text = Text::new(file);
    let needle = Needle::parse("x = 1\n\ny = 2\nz = 3\n");
    assert_eq!(
        reference(&text, &needle, &Scope::whole(&text)),
        [(0, 2), (4, 8)]
    );
}

/// A request's blank lines changed the way models change them: `kind` picks one
/// more, one fewer, all removed, or one added between two lines with content.
fn mistake(quoted: &str, kind: u8, at: usize) -> String {
    let mut ls: Vec<&str> = quoted.lines().collect();
    let blanks: Vec<usize> = (0..ls.len()).filter(|&i| ls[i].trim().is_empty()).collect();
    match kind % 4 {
        0 if !blanks.is_empty() => {
            let i = blanks[at % blanks.len()];
            ls.insert(i, "");
        }
        1 if !blanks.is_empty() => {
            ls.remove(blanks[at % blanks.len()]);
        }
        2 => ls.retain(|l| !l.trim().is_empty()),
        _ => {
            if ls.len() > 1 {
                ls.insert(1 + at % (ls.len() - 1), "");
            }
        }
    }
    let mut s = ls.join("\n");
    s.push('\n');
    s
}

/// The first and last file lines with content of a `blank_lines` candidate.
fn content_span(text: &Text, needle: &Needle, fix: &Fix) -> (usize, usize) {
    let Fix::Merge(m) = fix else {
        panic!("a blank_lines candidate merges")
    };
    let lines: Vec<usize> = m.segments[0]
        .pieces
        .iter()
        .zip(&needle.lines)
        .filter(|(p, l)| !p.absent && !blank(l))
        .map(|(p, _)| text.line_of(p.content.start))
        .collect();
    (lines[0], lines[lines.len() - 1])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// The level and the cascade against the reference, on blank-line mistakes in
    /// requests quoted from real files: the same places, so the same uniqueness.
    #[test]
    fn the_level_sees_what_the_reference_sees(
        f in 0..FILES.len(), from in 0usize..400, len in 2usize..9, kind in 0u8..4, at in 0usize..8,
    ) {
        let (_, src) = FILES[f];
        let old = mistake(&quote(&lines(src), from, len), kind, at);
        let text = Text::new(src);
        let needle = Needle::parse(&old);
        let scope = Scope::whole(&text);
        let want = reference(&text, &needle, &scope);
        let got: Vec<(usize, usize)> = matches(&text, &needle, &scope)
            .iter()
            .map(|(_, m)| content_span(&text, &needle, &Fix::Merge(std::sync::Arc::new(m.clone()))))
            .collect();
        prop_assert_eq!(&got, &want);
        let found = find(&text, &old, &scope, false);
        match found.via() {
            Some(Via::BlankLines) => {
                let cands: Vec<(usize, usize)> = found
                    .candidates
                    .iter()
                    .map(|c| content_span(&text, &needle, &c.fix))
                    .collect();
                prop_assert!(cands.iter().all(|c| want.contains(c)));
                prop_assert_eq!(cands.len() == 1, want.len() == 1);
            }
            Some(_) => {}
            None => prop_assert!(want.is_empty(), "the cascade missed {:?}", want),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    /// Writing: a request with blank-line mistakes that changes one line changes that
    /// line only; every other byte of the file (its blank lines too) stays.
    #[test]
    fn one_changed_line_changes_only_that_line(
        f in 0..FILES.len(), from in 0usize..400, len in 2usize..9, kind in 0u8..4, at in 0usize..8, pick in 0usize..8,
    ) {
        let (_, src) = FILES[f];
        let file = lines(src);
        let from = from % file.len();
        let old = mistake(&quote(&file, from, len), kind, at);
        let content: Vec<usize> = (from..(from + len).min(file.len()))
            .filter(|&i| !blank(file[i]))
            .collect();
        prop_assume!(content.len() >= 2);
        let target = content[pick % content.len()];
        let changed = format!("{} /* changed */", file[target].trim_end());
        let new: String = old
            .lines()
            .map(|l| if l == file[target] { format!("{changed}\n") } else { format!("{l}\n") })
            .collect();
        prop_assume!(new.matches("/* changed */").count() == 1);
        let text = Text::new(src);
        let found = find(&text, &old, &Scope::whole(&text), false);
        prop_assume!(found.via() == Some(Via::BlankLines) && found.candidates.len() == 1);
        let c = &found.candidates[0];
        prop_assume!(content_span(&text, &Needle::parse(&old), &c.fix) == (content[0], content[content.len() - 1]));
        let mut out = src.to_string();
        out.replace_range(c.range.clone(), &c.render(&text, &new).unwrap());
        let mut want: Vec<String> = file.iter().map(|l| l.to_string()).collect();
        want[target] = changed;
        prop_assert_eq!(out.lines().collect::<Vec<_>>(), want);
    }
}
