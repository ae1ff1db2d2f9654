//! "Already applied": one rule for every tool that may say it.
//!
//! Agents retry calls whose answer they lost, so an edit whose old text is gone may
//! already stand in the file. Saying so wrongly is worse than a plain refusal: the agent
//! believes a change is made that never was. So the engine says "already applied" only
//! when the file holds the edit's new text where the old text's surroundings place it,
//! uniquely ([`applied`]):
//!
//! - The lines new_str shares with old_str at its start and at its end (unchanged
//!   context) anchor the place; the lines between them are the change, and it must add
//!   something visible (a pure deletion leaves nothing to recognise).
//! - When the caller located old_str (str_replace whose new_str contains old_str) or an
//!   insert's anchor, the file must read new_str around that place: one occurrence of
//!   new_str covering every located range.
//! - Otherwise new_str must occur exactly once in the scope: byte-exact, or, when a
//!   non-blank unchanged line anchors it, tolerantly (an earlier call may have been
//!   re-indented on its way in). With nothing to anchor it, only byte-exact, unique, and
//!   standing as whole lines.

use crate::locate::{self, Candidate, Scope};
use crate::text::{split_lines, with_ending, Text};
use std::ops::Range;

/// An edit as the rule sees it.
pub struct Edit<'a> {
    /// The text the edit replaces (empty for a pure insertion).
    pub old: &'a str,
    /// The text the edit writes, including any unchanged context.
    pub new: &'a str,
    /// Where the caller found old_str or its anchor (empty: nowhere).
    pub located: &'a [Range<usize>],
    /// Whether a tolerant sighting may count (false under `strict`).
    pub tolerant: bool,
}

/// The 1-based line where new_str already stands, when the rule says the edit is
/// applied; None otherwise.
pub fn applied(text: &Text, edit: &Edit, scope: &Scope) -> Option<usize> {
    let old_lines = split_lines(edit.old);
    let new_lines = split_lines(edit.new);
    let (prefix, suffix) = shared_ends(&old_lines, &new_lines);
    let changed = &new_lines[prefix..new_lines.len() - suffix];
    if changed.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let anchored = new_lines[..prefix]
        .iter()
        .chain(&new_lines[new_lines.len() - suffix..])
        .any(|l| !l.trim().is_empty());
    let needle = with_ending(edit.new, text.ending());
    let exact = locate::find_exact(text, &needle, scope);
    let line = |c: &Candidate| c.first_line(text) + 1;
    if !edit.located.is_empty() {
        let covering: Vec<&Candidate> = exact
            .iter()
            .filter(|c| {
                edit.located
                    .iter()
                    .all(|r| c.range.start <= r.start && r.end <= c.range.end)
            })
            .collect();
        return match covering.as_slice() {
            [one] => Some(line(one)),
            _ => None,
        };
    }
    match exact.as_slice() {
        [one] if anchored || whole_lines(text, &one.range) => Some(line(one)),
        [] if anchored && edit.tolerant => {
            let found = locate::find(text, edit.new, scope, false);
            match found.candidates.as_slice() {
                [one] => Some(line(one)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// How many lines old and new share at their start, and then at their end (the two
/// never overlap).
fn shared_ends(old: &[&str], new: &[&str]) -> (usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, suffix)
}

/// Whether `range` starts at a line's start and ends at a line's end.
fn whole_lines(text: &Text, range: &Range<usize>) -> bool {
    let bytes = text.as_str().as_bytes();
    let bom = if text.as_str().starts_with(crate::text::BOM) {
        crate::text::BOM.len_utf8()
    } else {
        0
    };
    let starts = range.start == bom || bytes.get(range.start.wrapping_sub(1)) == Some(&b'\n');
    let ends = range.end == bytes.len()
        || matches!(bytes.get(range.end), Some(b'\n' | b'\r'))
        || bytes.get(range.end.wrapping_sub(1)) == Some(&b'\n');
    starts && ends
}

#[cfg(test)]
mod tests {
    use super::*;

    /// file, old, new, where old was located (as a substring of the file), want line
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        Option<&'static str>,
        Option<usize>,
    );

    #[test]
    fn says_applied_only_where_the_surroundings_place_new_str() {
        let cases: &[Case] = &[
            // The reproduction: a return value nothing anchors, at another indentation.
            (
                "int f() {\n    return 0;\n}\n",
                "        return -1;",
                "        return 0;",
                None,
                None,
            ),
            // Exact, unique, whole lines: applied.
            (
                "int f() {\n        return 0;\n}\n",
                "        return -1;",
                "        return 0;",
                None,
                Some(2),
            ),
            // Exact but not unique: not applied.
            (
                "a\n  return 0;\nb\n  return 0;\n",
                "  return -1;",
                "  return 0;",
                None,
                None,
            ),
            // Exact but part of a longer line: not applied.
            ("xx = 2\n", "x = 1", "x = 2", None, None),
            // Anchored by an unchanged line: a re-indented copy counts when unique.
            (
                "def f():\n    return 0\n",
                "def f():\n        return -1",
                "def f():\n        return 0",
                None,
                Some(1),
            ),
            // Anchored, but new_str stands twice: not applied.
            (
                "def f():\n    y = 0\ndef f():\n    y = 0\n",
                "def f():\n    y = 1",
                "def f():\n    y = 0",
                None,
                None,
            ),
            // A pure deletion leaves nothing to recognise.
            ("a\nc\n", "a\nb\nc", "a\nc", None, None),
            // new_str contains old_str, which was found inside new_str's only occurrence.
            ("a\nb\nz\n", "a", "a\nb", Some("a\nb"), Some(1)),
            // ... but old_str found elsewhere: that occurrence is the place, not applied.
            ("a\nb\na\n", "a", "a\nb", Some("\na\n"), None),
        ];
        for &(file, old, new, located, want) in cases {
            let text = Text::new(file);
            let located: Vec<Range<usize>> = located
                .map(|s| {
                    let at = file.rfind(s).unwrap();
                    let s = s.trim_matches('\n');
                    let at = at + file[at..].find(s).unwrap();
                    std::iter::once(at..at + s.len()).collect()
                })
                .unwrap_or_default();
            let edit = Edit {
                old,
                new,
                located: &located,
                tolerant: true,
            };
            let scope = Scope::whole(&text);
            assert_eq!(
                applied(&text, &edit, &scope),
                want,
                "{file:?} {old:?} → {new:?}"
            );
        }
    }
}
