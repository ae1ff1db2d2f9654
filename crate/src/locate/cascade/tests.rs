//! Each key level against its reference, through the whole cascade, on the mistakes
//! that level forgives applied to requests quoted from real files.

use super::{
    escaping, indentation, inner_whitespace, line_endings, line_numbers, trailing_whitespace,
    typography,
};
use crate::locate::needle::Needle;
use crate::locate::real_files::{lines, quote, FILES};
use crate::locate::{find, Scope, Via};
use crate::text::Text;
use proptest::prelude::*;

type Reference = fn(&Text, &Needle, &Scope) -> Vec<(usize, usize)>;
type Mistake = fn(&str) -> String;

/// Each level, its reference, and the mistake it forgives.
const LEVELS: &[(Via, Reference, Mistake)] = &[
    (Via::LineEndings, line_endings::reference, |s| {
        s.replace('\n', "\r\n")
    }),
    (
        Via::TrailingWhitespace,
        trailing_whitespace::reference,
        |s| {
            s.lines()
                .enumerate()
                .map(|(i, l)| {
                    if i % 2 == 0 {
                        format!("{l}  \n")
                    } else {
                        format!("{l}\n")
                    }
                })
                .collect()
        },
    ),
    (Via::Indentation, indentation::reference, |s| {
        s.lines()
            .map(|l| {
                if l.trim().is_empty() {
                    "\n".to_string()
                } else {
                    format!("    {l}\n")
                }
            })
            .collect()
    }),
    (Via::InnerWhitespace, inner_whitespace::reference, |s| {
        s.lines()
            .map(|l| {
                let lead = &l[..l.len() - l.trim_start().len()];
                format!("{lead}{}\n", l.trim_start().replacen(' ', "   ", 1))
            })
            .collect()
    }),
    (Via::LineNumbers, line_numbers::reference, |s| {
        s.lines()
            .enumerate()
            .map(|(i, l)| format!("{:>6}\t{l}\n", i + 40))
            .collect()
    }),
    (Via::Escaping, escaping::reference, |s| {
        s.replace('\\', "\\\\")
    }),
    (Via::Typography, typography::reference, |s| {
        s.replace('"', "\u{201c}")
            .replace('\'', "\u{2019}")
            .replace("...", "\u{2026}")
    }),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whole-line windows the reference sees are what the cascade sees: a window the
    /// reference finds is found (by this level or one before it); two make the level's
    /// answer ambiguous; every candidate of the level is a reference window or starts
    /// inside its first line (the first request line may be the end of a file line).
    #[test]
    fn each_level_sees_what_its_reference_sees(
        l in 0..LEVELS.len(), f in 0..FILES.len(), from in 0usize..600, len in 2usize..6,
    ) {
        let (via, reference, mistake) = LEVELS[l];
        let (_, src) = FILES[f];
        let quoted = quote(&lines(src), from, len);
        // The shared index proposes windows by words: a request of brackets alone is
        // left to the exact search.
        prop_assume!(quoted.chars().any(char::is_alphanumeric));
        let old = mistake(&quoted);
        let text = Text::new(src);
        let scope = Scope::whole(&text);
        let want = reference(&text, &Needle::parse(&old), &scope);
        let found = find(&text, &old, &scope, false);
        if !want.is_empty() {
            prop_assert!(found.via().is_some_and(|v| v <= via), "{:?} missed {:?}: {:?}", via, want, found.via());
        }
        if found.via() == Some(via) {
            for c in &found.candidates {
                let first = c.first_line(&text);
                let partial = c.range.start != text.line_start(first);
                prop_assert!(partial || want.iter().any(|w| w.0 == first), "{:?}: {} not in {:?}", via, first, want);
            }
            if want.len() >= 2 {
                prop_assert!(found.candidates.len() >= 2, "{:?} took one of {:?}", via, want);
            }
        }
    }
}
