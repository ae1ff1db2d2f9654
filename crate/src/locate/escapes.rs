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
//! mixed escaping: the match is reported, but nothing is written (`escape_ambiguous`).
//! New text's runs are mapped through the table; a length the table lacks is mapped by
//! the table's one ratio when all of its both-sides pairs agree on one (`2 → 1` and
//! `4 → 2` give 6 → 3), and refused otherwise. No escape sequence is ever interpreted:
//! `\t`, `\n`, `\title` and `\\d` are runs of backslashes like any other.

use super::fold::is_quote;
use std::collections::BTreeMap;
use std::fmt;

/// One run: its length and the character after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub len: usize,
    pub before: Option<char>,
}

/// Runs of `line` (trailing whitespace ignored), in order.
pub fn runs(line: &str) -> Vec<Run> {
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
            out.push(Run { len: j - i, before });
            i = match before {
                Some(q) if q.is_ascii() && is_quote(q as u8) => j + 1,
                _ => j,
            };
        } else if is_quote(bytes[i]) {
            out.push(Run {
                len: 0,
                before: Some(bytes[i] as char),
            });
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
    Mixed(Vec<RunPair>),
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
    for &(request, file, line) in lines {
        let (a, b) = (runs(request), runs(file));
        if a.len() != b.len() {
            return Escapes::Mixed(Vec::new());
        }
        for (x, y) in a.iter().zip(&b) {
            let pair = RunPair {
                line,
                request: x.len,
                file: y.len,
                before: y.before,
            };
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
        Escapes::Mixed(conflicts)
    }
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
        let Escapes::Mixed(runs) = table(r"\\d \\n", r"\\d \n") else {
            panic!("expected mixed")
        };
        assert_eq!(runs.len(), 2);
        assert!(runs[1].to_string().contains("before `n`"));
    }

    #[test]
    fn unescaped_quotes_stay_when_the_file_has_them_unescaped_too() {
        let Escapes::Table(t) = table(r#"say(\"hi\")"#, r#"say("hi")"#) else {
            panic!()
        };
        assert_eq!(t.apply(r#"say(\"hi\", 'x')"#).unwrap(), r#"say("hi", 'x')"#);
    }
}
