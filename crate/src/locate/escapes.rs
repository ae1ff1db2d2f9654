//! Escaping: pairing the request's backslash runs with the file's, and correcting new
//! text by the same pairing.
//!
//! A line is read as a sequence of *runs*: every maximal run of backslashes, with the
//! character after it, and every quote that no backslash precedes (a run of length 0).
//! Two lines equal under [`Key::Escapes`](super::fold::Key::Escapes) have runs that
//! pair one to one, and each pair says "where the request has n backslashes, the file
//! has f". The pairs must form a function, the [`EscapeTable`]:
//! - a run with backslashes on both sides is keyed by its length (`2 → 1`);
//! - a run with none on one side is keyed by its length *and* the quote it escapes
//!   (`\"` → `"`), because dropping every single backslash elsewhere would turn `\n`
//!   into `n`.
//!
//! The same key mapping to two lengths (`2 → 1` here, `2 → 2` in `\\d` there) is a
//! mixed escaping ([`MixedRuns`]): no table, but the ratios are applied in order. New
//! text's runs (all its lines, in order) must pair one to one with the request's: as
//! many, each before the same character as its pair; each then takes its pair's ratio.
//! Where that pairing fails, nothing is written (`escape_ambiguous`).
//! New text's runs are mapped through the table; a length the table lacks is mapped by
//! the table's one ratio when all of its both-sides pairs agree on one (`2 → 1` and
//! `4 → 2` give 6 → 3), and refused otherwise. No escape sequence is ever interpreted:
//! `\t`, `\n`, `\title` and `\\d` are runs of backslashes like any other.

use super::fold::is_quote;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// One run: its length and the character after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub len: usize,
    pub before: Option<char>,
}

/// Runs of `line` (trailing whitespace ignored), in order.
pub fn runs(line: &str) -> Vec<Run> {
    located_runs(line).into_iter().map(|(_, r)| r).collect()
}

/// Runs of `line` (trailing whitespace ignored), in order, each with the byte range of
/// its backslashes.
fn located_runs(line: &str) -> Vec<(Range<usize>, Run)> {
    let body = line.trim_end();
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let mut j = i;
            while j < bytes.len() && bytes[j] == b'\\' {
                j += 1;
            }
            let before = body[j..].chars().next();
            out.push((i..j, Run { len: j - i, before }));
            i = match before {
                Some(q) if q.is_ascii() && is_quote(q as u8) => j + 1,
                _ => j,
            };
        } else if is_quote(bytes[i]) {
            let run = Run {
                len: 0,
                before: Some(bytes[i] as char),
            };
            out.push((i..i, run));
            i += 1;
        } else {
            i += body[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RunKey {
    /// Backslashes on both sides: keyed by the request's length.
    Len(usize),
    /// None on one side: keyed by the request's length and the quote.
    Quote(usize, char),
}

/// A pair seen while matching: request run → file run, at a file line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPair {
    /// 1-based file line.
    pub line: usize,
    pub request: usize,
    pub file: usize,
    pub before: Option<char>,
}

impl fmt::Display for RunPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |n: usize| {
            if n == 0 {
                "no backslash".to_string()
            } else {
                "\\".repeat(n)
            }
        };
        write!(f, "{} → {}", show(self.request), show(self.file))?;
        match self.before {
            Some(c) => write!(f, " before `{c}`")?,
            None => f.write_str(" at the line end")?,
        }
        write!(f, " (line {})", self.line)
    }
}

/// How the request's backslash runs map to the file's.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EscapeTable {
    map: BTreeMap<RunKey, usize>,
    /// Every non-identical pair, for messages.
    pub changed: Vec<RunPair>,
}

/// The outcome of pairing: a table, or the pairs that contradict each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Escapes {
    Table(EscapeTable),
    Mixed(MixedRuns),
}

/// A mixed escaping: no one table, but every pair in order, for new text whose runs
/// pair with the request's one to one.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MixedRuns {
    /// The pairs that contradict each other, for messages.
    pub conflicts: Vec<RunPair>,
    /// Every pair of every line, in order; `None` when some line's runs do not pair.
    pub ordered: Option<Vec<RunPair>>,
}

/// Why new text's runs cannot take a mixed escaping in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unpaired {
    /// The request's own runs do not pair with the file's line by line.
    Request,
    /// New text has `new` runs where the request has `old`.
    Count { old: usize, new: usize },
    /// The `index`-th run (0-based) differs: it comes before `new` in new text and
    /// before `old` in the request, or its length has no whole counterpart.
    Run {
        index: usize,
        old: Option<char>,
        new: Option<char>,
        len: usize,
    },
}

fn key_of(request: usize, file: usize, before: Option<char>) -> RunKey {
    if request == 0 || file == 0 {
        RunKey::Quote(request, before.unwrap_or('\0'))
    } else {
        RunKey::Len(request)
    }
}

/// Pairs the runs of each `(request line, file line)` pair (1-based file line numbers).
pub fn pair(lines: &[(&str, &str, usize)]) -> Escapes {
    let mut table = EscapeTable::default();
    let mut first_seen: BTreeMap<RunKey, RunPair> = BTreeMap::new();
    let mut conflicts: Vec<RunPair> = Vec::new();
    let mut ordered = Vec::new();
    for &(request, file, line) in lines {
        let (a, b) = (runs(request), runs(file));
        if a.len() != b.len() {
            return Escapes::Mixed(MixedRuns::default());
        }
        for (x, y) in a.iter().zip(&b) {
            let pair = RunPair {
                line,
                request: x.len,
                file: y.len,
                before: y.before,
            };
            ordered.push(pair.clone());
            let key = key_of(x.len, y.len, y.before);
            match table.map.get(&key) {
                Some(&f) if f != y.len => {
                    let same = |a: &RunPair, b: &RunPair| {
                        (a.request, a.file, a.before) == (b.request, b.file, b.before)
                    };
                    if let Some(first) = first_seen.get(&key) {
                        if !conflicts.iter().any(|c| same(c, first)) {
                            conflicts.push(first.clone());
                        }
                    }
                    if !conflicts.iter().any(|c| same(c, &pair)) {
                        conflicts.push(pair);
                    }
                    continue;
                }
                Some(_) => {}
                None => {
                    table.map.insert(key, y.len);
                    first_seen.insert(key, pair.clone());
                }
            }
            if x.len != y.len
                && !table
                    .changed
                    .iter()
                    .any(|p| (p.request, p.file, p.before) == (x.len, y.len, y.before))
            {
                table.changed.push(pair);
            }
        }
    }
    if conflicts.is_empty() {
        Escapes::Table(table)
    } else {
        Escapes::Mixed(MixedRuns {
            conflicts,
            ordered: Some(ordered),
        })
    }
}

impl MixedRuns {
    /// `lines` (new text, all of it) with each backslash run given its paired request
    /// run's ratio, in order: the `k`-th run of new text pairs with the `k`-th run of
    /// the request, and must come before the same character. A run as long as its pair
    /// takes the file's length; another length is scaled when that gives a whole number.
    pub fn apply_in_order<S: AsRef<str>>(&self, lines: &[S]) -> Result<Vec<String>, Unpaired> {
        let ordered = self.ordered.as_ref().ok_or(Unpaired::Request)?;
        let located: Vec<Vec<(Range<usize>, Run)>> =
            lines.iter().map(|l| located_runs(l.as_ref())).collect();
        let count = located.iter().map(Vec::len).sum::<usize>();
        if count != ordered.len() {
            return Err(Unpaired::Count {
                old: ordered.len(),
                new: count,
            });
        }
        let mut pairs = ordered.iter().enumerate();
        let mut out = Vec::with_capacity(lines.len());
        for (line, runs) in lines.iter().zip(&located) {
            let line = line.as_ref();
            let mut fixed = String::with_capacity(line.len());
            let mut at = 0;
            for (range, run) in runs {
                let Some((index, pair)) = pairs.next() else {
                    return Err(Unpaired::Request);
                };
                let unpaired = || Unpaired::Run {
                    index,
                    old: pair.before,
                    new: run.before,
                    len: run.len,
                };
                if pair.before != run.before {
                    return Err(unpaired());
                }
                let len = scale(run.len, pair.request, pair.file).ok_or_else(unpaired)?;
                fixed.push_str(&line[at..range.start]);
                fixed.push_str(&"\\".repeat(len));
                at = range.end;
            }
            fixed.push_str(&line[at..]);
            out.push(fixed);
        }
        Ok(out)
    }
}

/// A new run of `len` where the request had `request` and the file `file`.
fn scale(len: usize, request: usize, file: usize) -> Option<usize> {
    if len == request {
        return Some(file);
    }
    let scaled = len.checked_mul(file)?;
    (request > 0 && file > 0 && scaled.is_multiple_of(request)).then_some(scaled / request)
}

impl EscapeTable {
    /// The one file/request ratio all both-sides pairs share, as (file, request).
    fn ratio(&self) -> Option<(usize, usize)> {
        let mut ratio: Option<(usize, usize)> = None;
        for (k, &f) in &self.map {
            if let RunKey::Len(n) = *k {
                match ratio {
                    None => ratio = Some((f, n)),
                    Some((rf, rn)) if rf * n != f * rn => return None,
                    _ => {}
                }
            }
        }
        ratio
    }

    /// The file's length for a request run, if the table can place it.
    fn map_run(&self, run: Run) -> Option<usize> {
        let quote = run.before.filter(|c| c.is_ascii() && is_quote(*c as u8));
        if let Some(q) = quote {
            if let Some(&f) = self.map.get(&RunKey::Quote(run.len, q)) {
                return Some(f);
            }
            if run.len == 0 {
                return Some(0);
            }
        }
        if let Some(&f) = self.map.get(&RunKey::Len(run.len)) {
            return Some(f);
        }
        let (f, n) = self.ratio()?;
        let scaled = run.len * f;
        (scaled.is_multiple_of(n) && scaled / n >= 1).then_some(scaled / n)
    }

    /// `line` with every backslash run corrected; the first run the table cannot place
    /// is the error.
    pub fn apply(&self, line: &str) -> Result<String, Run> {
        let bytes = line.as_bytes();
        let mut out = String::with_capacity(line.len());
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'\\' || is_quote(b) {
                let mut j = i;
                while j < bytes.len() && bytes[j] == b'\\' {
                    j += 1;
                }
                let before = line[j..].chars().next();
                let run = Run { len: j - i, before };
                if run.len == 0 || before.is_some_and(|c| c.is_ascii() && is_quote(c as u8)) {
                    // A quote, escaped or not: the run and the quote together.
                    let f = self.map_run(run).ok_or(run)?;
                    out.push_str(&"\\".repeat(f));
                    out.push(bytes[j] as char);
                    i = j + 1;
                } else {
                    let f = self.map_run(run).ok_or(run)?;
                    out.push_str(&"\\".repeat(f));
                    i = j;
                }
            } else {
                let c = line[i..].chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
        Ok(out)
    }

    /// "\\\\ → \\ before `n`, \\\" → \"" for notes.
    pub fn describe(&self) -> String {
        self.changed
            .iter()
            .take(4)
            .map(|p| {
                let mut s = p.to_string();
                if let Some(i) = s.find(" (line") {
                    s.truncate(i);
                }
                s
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(request: &str, file: &str) -> Escapes {
        pair(&[(request, file, 1)])
    }

    #[test]
    fn over_escaped_json_in_json() {
        let Escapes::Table(t) = table(r#"{\"a\": \"x\\ny\"}"#, r#"{"a": "x\ny"}"#) else {
            panic!("expected a table")
        };
        assert_eq!(
            t.apply(r#"{\"a\": \"x\\ny\\tz\"}"#).unwrap(),
            r#"{"a": "x\ny\tz"}"#
        );
        // The uniform ratio 2 → 1 places a run of 4.
        assert_eq!(t.apply(r"a\\\\b").unwrap(), r"a\\b");
        // A single backslash before `n` cannot be placed: neither 1 → 0 nor 1 → 1 follows.
        assert_eq!(
            t.apply(r"a\nb"),
            Err(Run {
                len: 1,
                before: Some('n')
            })
        );
    }

    #[test]
    fn under_escaped_regex() {
        let Escapes::Table(t) = table(r#"re.compile("\d+\s")"#, r#"re.compile("\\d+\\s")"#) else {
            panic!("expected a table")
        };
        assert_eq!(
            t.apply(r#"re.compile("\d+\.\d")"#).unwrap(),
            r#"re.compile("\\d+\\.\\d")"#
        );
    }

    #[test]
    fn mixed_ratios_are_reported_with_their_runs() {
        let Escapes::Mixed(mixed) = table(r"\\d \\n", r"\\d \n") else {
            panic!("expected mixed")
        };
        assert_eq!(mixed.conflicts.len(), 2);
        assert!(mixed.conflicts[1].to_string().contains("before `n`"));
    }

    #[test]
    fn mixed_ratios_apply_in_order_when_new_runs_pair() {
        let Escapes::Mixed(mixed) = table(r"\\d \\n", r"\\d \n") else {
            panic!("expected mixed")
        };
        assert_eq!(
            mixed.apply_in_order(&[r"\\d+ \\n", ""]).unwrap(),
            vec![r"\\d+ \n".to_string(), String::new()]
        );
        // An extra run, a run before another character, a length with no whole ratio.
        assert_eq!(
            mixed.apply_in_order(&[r"\\d \\n \\t"]),
            Err(Unpaired::Count { old: 2, new: 3 })
        );
        assert!(matches!(
            mixed.apply_in_order(&[r"\\n \\d"]),
            Err(Unpaired::Run { index: 0, .. })
        ));
        assert!(matches!(
            mixed.apply_in_order(&[r"\\d \\\n"]),
            Err(Unpaired::Run {
                index: 1,
                len: 3,
                ..
            })
        ));
    }

    #[test]
    fn unescaped_quotes_stay_when_the_file_has_them_unescaped_too() {
        let Escapes::Table(t) = table(r#"say(\"hi\")"#, r#"say("hi")"#) else {
            panic!()
        };
        assert_eq!(t.apply(r#"say(\"hi\", 'x')"#).unwrap(), r#"say("hi", 'x')"#);
    }
}
