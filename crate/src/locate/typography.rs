//! Typographic characters: which of the request's quotes, dashes, ellipses and spaces
//! stand for which of the file's, and writing new lines with the file's.
//!
//! Lines equal under [`Key::Typography`](super::fold::Key::Typography) are walked side
//! by side; every place where they use different characters for the same ASCII form
//! (`“` for `"`, `...` for `…`, a space for a no-break space) is a pair. Identical
//! occurrences of those characters are pairs too, so a character the file writes two
//! ways (`"` kept here, `“` there) maps to nothing: changed lines of new text then keep
//! it as written. Lines the request did not change are written with the file's own
//! bytes anyway, so only changed lines are converted.
//!
//! A run of dashes is one unit: `--` pairs with `—` as a whole, so a changed line's `--`
//! becomes the file's `—` when the file writes it one way. Which runs may pair is
//! [`dashes_agree`]'s rule (`--` or `-` for `—` or `–` and back; ASCII runs only with
//! themselves), checked on every match the level finds.

use super::fold::{is_dash, typographic};
use std::collections::BTreeMap;

/// The ASCII characters typographic ones read as.
fn is_target(c: char) -> bool {
    matches!(c, '\'' | '"' | '-' | '.' | ' ')
}

/// Request characters (or `...`) → every way the file writes them at those places.
/// A character maps when the file writes it one way, different from the request's.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TypoTable {
    map: BTreeMap<String, Vec<String>>,
}

/// The characters of `line` (trailing whitespace ignored) with their ASCII forms; a run
/// of dashes is one unit that reads as `-`.
fn units(line: &str) -> Vec<(&str, String)> {
    let body = line.trim_end();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(c) = body[i..].chars().next() {
        let end = if is_dash(c) {
            body[i..]
                .find(|d: char| !is_dash(d))
                .map_or(body.len(), |n| i + n)
        } else {
            i + c.len_utf8()
        };
        let orig = &body[i..end];
        let folded = if is_dash(c) {
            "-".to_string()
        } else {
            typographic(c).map_or_else(|| orig.to_string(), str::to_string)
        };
        out.push((orig, folded));
        i = end;
    }
    out
}

/// Whether a request's run of dashes may stand for the file's: the same run; one dash
/// character for another (`-` for `–`); or `--` for one typographic dash (`—`, `–`),
/// either way. `--` never stands for `-`, nor `---` for anything but itself.
fn dash_runs_agree(request: &str, file: &str) -> bool {
    let single = |s: &str| s.chars().count() == 1;
    let typographic_one = |s: &str| single(s) && s != "-";
    request == file
        || (single(request) && single(file))
        || (request == "--" && typographic_one(file))
        || (typographic_one(request) && file == "--")
}

/// Whether every run of dashes in the request lines stands for the file's run at the
/// same place as [`dash_runs_agree`] allows. Lines are compared as
/// [`Key::TypographyDashes`](super::fold::Key::TypographyDashes) matched them.
pub fn dashes_agree(lines: &[(&str, &str)]) -> bool {
    lines.iter().all(|(request, file)| {
        let dashes = |l: &str| -> Vec<String> {
            units(l)
                .into_iter()
                .filter(|(o, _)| o.chars().next().is_some_and(is_dash))
                .map(|(o, _)| o.to_string())
                .collect()
        };
        let (a, b) = (dashes(request), dashes(file));
        a.len() == b.len() && a.iter().zip(&b).all(|(r, f)| dash_runs_agree(r, f))
    })
}

impl TypoTable {
    fn record(&mut self, request: &str, file: &str) {
        let seen = self.map.entry(request.to_string()).or_default();
        if !seen.iter().any(|f| f == file) {
            seen.push(file.to_string());
        }
    }

    /// The file's way of writing `request`, when it has exactly one (and it differs).
    fn mapped(&self, request: &str) -> Option<&str> {
        match self.map.get(request)?.as_slice() {
            [one] if one != request => Some(one),
            _ => None,
        }
    }

    /// Pairs the characters of each `(request line, file line)`.
    pub fn pair(lines: &[(&str, &str)]) -> TypoTable {
        let mut table = TypoTable::default();
        for (request, file) in lines {
            let (a, b) = (units(request), units(file));
            let (mut i, mut k) = (0, 0);
            let mut ellipses_mapped = 0;
            while i < a.len() && k < b.len() {
                let (mut ro, mut rf) = (a[i].0.to_string(), a[i].1.clone());
                let (mut fo, mut ff) = (b[k].0.to_string(), b[k].1.clone());
                i += 1;
                k += 1;
                while rf != ff {
                    if rf.len() < ff.len() && i < a.len() {
                        ro.push_str(a[i].0);
                        rf.push_str(&a[i].1);
                        i += 1;
                    } else if ff.len() < rf.len() && k < b.len() {
                        fo.push_str(b[k].0);
                        ff.push_str(&b[k].1);
                        k += 1;
                    } else {
                        break;
                    }
                }
                if rf != ff {
                    break;
                }
                let relevant =
                    |s: &str| s.chars().any(|c| is_target(c) || typographic(c).is_some());
                if ro != fo || relevant(&ro) {
                    if ro == "..." && fo != "..." {
                        ellipses_mapped += 1;
                    }
                    table.record(&ro, &fo);
                }
            }
            // An ellipsis written `...` in both places stays `...`.
            if request.matches("...").count() > ellipses_mapped {
                table.record("...", "...");
            }
        }
        table.map.retain(|k, v| v.iter().any(|f| f != k));
        table
    }

    /// `line` with every mapped request character written the file's way.
    pub fn apply(&self, line: &str) -> String {
        let ellipsis = self.mapped("...");
        let mut out = String::with_capacity(line.len());
        let mut i = 0;
        while i < line.len() {
            if let Some(e) = &ellipsis {
                if line[i..].starts_with("...") {
                    out.push_str(e);
                    i += 3;
                    continue;
                }
            }
            let c = line[i..].chars().next().unwrap_or(' ');
            let end = if is_dash(c) {
                line[i..]
                    .find(|d: char| !is_dash(d))
                    .map_or(line.len(), |n| i + n)
            } else {
                i + c.len_utf8()
            };
            let s = &line[i..end];
            out.push_str(self.mapped(s).unwrap_or(s));
            i = end;
        }
        out
    }

    /// "“ → \", … → ..." (what new text gets), and the request characters the file
    /// writes several ways ("\" → “ or ”"), which new text keeps as written.
    pub fn describe(&self) -> (String, String) {
        let show = |s: &str| match s {
            "\u{a0}" => "no-break space".to_string(),
            " " => "space".to_string(),
            s if s.chars().all(|c| c != ' ' && typographic(c) == Some(" ")) => {
                format!("U+{:04X}", s.chars().next().map_or(0, u32::from))
            }
            s => s.to_string(),
        };
        let mapped: Vec<String> = self
            .map
            .keys()
            .filter_map(|k| self.mapped(k).map(|v| format!("{} → {}", show(k), show(v))))
            .collect();
        let several: Vec<String> = self
            .map
            .iter()
            .filter(|(k, v)| v.len() > 1 && self.mapped(k).is_none())
            .map(|(k, v)| {
                let ways: Vec<String> = v.iter().map(|f| show(f)).collect();
                format!("{} → {}", show(k), ways.join(" or "))
            })
            .collect();
        (mapped.join(", "), several.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curly_quotes_map_to_the_files_straight_ones() {
        let t = TypoTable::pair(&[("print(“hi”) – ok…", "print(\"hi\") - ok...")]);
        assert_eq!(t.apply("print(“bye”) – done…"), "print(\"bye\") - done...");
    }

    #[test]
    fn a_character_the_file_writes_two_ways_is_left_alone() {
        let t = TypoTable::pair(&[("\"a\" and \"b\"", "“a” and “b”")]);
        assert_eq!(t.apply("\"c\""), "\"c\"");
        assert_eq!(t.describe().1, "\" → “ or ”");
    }

    #[test]
    fn ellipsis_sequences_pair_with_one_character() {
        let t = TypoTable::pair(&[("Wait... what", "Wait… what")]);
        assert_eq!(t.apply("So... then"), "So… then");
        let kept = TypoTable::pair(&[("Wait... x(...)", "Wait… x(...)")]);
        assert_eq!(kept.apply("So..."), "So...");
    }

    #[test]
    fn double_hyphens_pair_with_one_typographic_dash() {
        let t = TypoTable::pair(&[("a -- b", "a — b")]);
        assert_eq!(t.apply("c -- d"), "c — d");
        let back = TypoTable::pair(&[("a — b", "a -- b")]);
        assert_eq!(back.apply("c — d"), "c -- d");
        assert!(dashes_agree(&[("a -- b - c", "a — b – c")]));
        assert!(dashes_agree(&[("x — y", "x -- y")]));
        assert!(!dashes_agree(&[("i--", "i-")]));
        assert!(!dashes_agree(&[("--flag", "---flag")]));
        assert!(!dashes_agree(&[("a — b", "a --- b")]));
    }

    #[test]
    fn no_break_spaces() {
        let t = TypoTable::pair(&[("10 km", "10\u{a0}km")]);
        assert_eq!(t.apply("20 km"), "20\u{a0}km");
    }
}
