//! Indentation: whether a request's indentation differs from the file's by one
//! consistent rule, and re-indenting new lines by that rule.
//!
//! Three rules are recognised, tried in this order on the non-blank lines that start
//! at a line start:
//! - the file has a fixed extra prefix on every line (`file = D + request`), e.g. the
//!   request was copied without the enclosing block's indentation;
//! - the request has a fixed extra prefix (`request = D + file`);
//! - a unit change: the request indents in one unit (a tab, or N spaces) and the file
//!   in another, level for level, possibly shifted by a constant number of levels
//!   (4 spaces → 2 spaces, spaces → tabs).
//!
//! Anything else (one line shifted by 2, the next by 4) is not a consistent difference,
//! and the match is refused: re-indenting by guesswork could change a program.

use std::fmt;

/// One indentation unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Tab,
    Spaces(usize),
}

impl Unit {
    /// The unit of a set of indentations, when they all use one kind of character.
    fn of(leads: &[&str]) -> Option<Unit> {
        let nonempty: Vec<&&str> = leads.iter().filter(|l| !l.is_empty()).collect();
        if nonempty.is_empty() {
            return None;
        }
        if nonempty.iter().all(|l| l.bytes().all(|b| b == b'\t')) {
            return Some(Unit::Tab);
        }
        if nonempty.iter().all(|l| l.bytes().all(|b| b == b' ')) {
            let g = nonempty.iter().fold(0, |g, l| gcd(g, l.len()));
            return Some(Unit::Spaces(g.max(1)));
        }
        None
    }

    /// The unit a file indents by: a tab when more of its indented lines start with a
    /// tab than with a space, else the step most often seen where a line is indented
    /// deeper (in spaces) than the line with content before it. None for a file with
    /// no such step. Reads at most the first 20 000 lines.
    pub fn of_file(lines: impl Iterator<Item = impl AsRef<str>>) -> Option<Unit> {
        let (mut tabs, mut spaced) = (0usize, 0usize);
        let mut steps = std::collections::BTreeMap::<usize, usize>::new();
        let mut prev: Option<usize> = None;
        for line in lines.take(20_000) {
            let line = line.as_ref();
            if line.trim().is_empty() {
                continue;
            }
            let l = lead(line);
            match l.as_bytes().first() {
                Some(b'\t') => tabs += 1,
                Some(b' ') => spaced += 1,
                _ => {}
            }
            let width = l.bytes().all(|b| b == b' ').then_some(l.len());
            if let (Some(p), Some(w)) = (prev, width) {
                if w > p {
                    *steps.entry(w - p).or_default() += 1;
                }
            }
            prev = width;
        }
        if tabs > spaced {
            return Some(Unit::Tab);
        }
        let (&step, _) = steps
            .iter()
            .max_by_key(|(step, n)| (**n, std::cmp::Reverse(**step)))?;
        Some(Unit::Spaces(step))
    }

    /// How many units `lead` is, if it is a whole number of them.
    fn levels(self, lead: &str) -> Option<usize> {
        match self {
            Unit::Tab => lead.bytes().all(|b| b == b'\t').then_some(lead.len()),
            Unit::Spaces(n) => (lead.bytes().all(|b| b == b' ') && lead.len().is_multiple_of(n))
                .then_some(lead.len() / n),
        }
    }

    fn repeat(self, levels: usize) -> String {
        match self {
            Unit::Tab => "\t".repeat(levels),
            Unit::Spaces(n) => " ".repeat(n * levels),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Tab => f.write_str("a tab"),
            Unit::Spaces(1) => f.write_str("1 space"),
            Unit::Spaces(n) => write!(f, "{n} spaces"),
        }
    }
}

/// How the file's indentation relates to the request's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndentMap {
    /// file = prefix + request
    Add(String),
    /// request = prefix + file
    Remove(String),
    /// file level = request level + shift, each in its own unit.
    Units { from: Unit, to: Unit, shift: isize },
    /// Two unit changes fit every matched line and the file's own unit decides
    /// neither (3 tabs for 6 spaces in a file indenting 4: a tab per 6-space level 2
    /// levels shallower, or a tab for 2 spaces). A line both carry alike is carried;
    /// another is refused.
    Either(Box<IndentMap>, Box<IndentMap>),
}

/// The leading whitespace of a line.
pub fn lead(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The one level shift between `from` levels in the request and `to` levels in the
/// file that every pair shows, if there is one.
fn shift_of(pairs: &[(&str, &str)], from: Unit, to: Unit) -> Option<isize> {
    let mut shift = None;
    for (n, f) in pairs {
        let d = to.levels(f)? as isize - from.levels(n)? as isize;
        if *shift.get_or_insert(d) != d {
            return None;
        }
    }
    Some(shift.unwrap_or(0))
}

/// The reading of a unit change as `from` standing for a fixed number of the file's
/// spaces, level for level, with no shift, if every pair fits it.
fn proportional(pairs: &[(&str, &str)], from: Unit) -> Option<IndentMap> {
    let mut per: Option<usize> = None;
    for (n, f) in pairs {
        let levels = from.levels(n)?;
        if !f.bytes().all(|b| b == b' ') {
            return None;
        }
        if levels == 0 {
            if !f.is_empty() {
                return None;
            }
            continue;
        }
        if f.len() % levels != 0 || *per.get_or_insert(f.len() / levels) != f.len() / levels {
            return None;
        }
    }
    let per = per.filter(|p| *p > 0)?;
    Some(IndentMap::Units {
        from,
        to: Unit::Spaces(per),
        shift: 0,
    })
}

impl IndentMap {
    /// The rule relating `(request, file)` indentation pairs, if one holds for all.
    pub fn derive(pairs: &[(&str, &str)]) -> Option<IndentMap> {
        Self::derive_with(pairs, || None, false)
    }

    /// [`IndentMap::derive`] for a file that indents by `file_unit` (asked only for a
    /// unit change). The file's lines in the match may all sit at one level (3 tabs in
    /// the request for 6 spaces in the file): their widths alone then read as one level
    /// of 6 spaces, 2 levels shallower, where the file's own unit (2 spaces) reads 3
    /// levels, a tab for 2 spaces. A unit change is read in the file's unit whenever
    /// every pair fits it (issue 25, rule 8); in the widths' greatest common divisor
    /// only when the file has no unit they fit.
    /// When no unit of the file fits and the widths can also be read as a request unit
    /// standing for a fixed number of spaces, level for level (3 tabs for 6 spaces: a
    /// tab for 2), the two readings are both kept ([`IndentMap::Either`]) and a new line
    /// they carry differently is refused.
    pub fn derive_in(
        pairs: &[(&str, &str)],
        file_unit: impl FnOnce() -> Option<Unit>,
    ) -> Option<IndentMap> {
        Self::derive_with(pairs, file_unit, true)
    }

    fn derive_with(
        pairs: &[(&str, &str)],
        file_unit: impl FnOnce() -> Option<Unit>,
        either: bool,
    ) -> Option<IndentMap> {
        let Some(&(n0, f0)) = pairs.first() else {
            return Some(IndentMap::Add(String::new()));
        };
        if let Some(d) = f0.strip_suffix(n0) {
            if pairs
                .iter()
                .all(|(n, f)| f.len() == d.len() + n.len() && f.starts_with(d) && f.ends_with(n))
            {
                return Some(IndentMap::Add(d.to_string()));
            }
        }
        if let Some(d) = n0.strip_suffix(f0) {
            if pairs
                .iter()
                .all(|(n, f)| n.len() == d.len() + f.len() && n.starts_with(d) && n.ends_with(f))
            {
                return Some(IndentMap::Remove(d.to_string()));
            }
        }
        let needle_leads: Vec<&str> = pairs.iter().map(|p| p.0).collect();
        let file_leads: Vec<&str> = pairs.iter().map(|p| p.1).collect();
        let from = Unit::of(&needle_leads)?;
        let to = Unit::of(&file_leads)?;
        if let Some(unit) = file_unit().filter(|u| *u != to) {
            if let Some(shift) = shift_of(pairs, from, unit) {
                return Some(IndentMap::Units {
                    from,
                    to: unit,
                    shift,
                });
            }
        }
        let widths = IndentMap::Units {
            from,
            to,
            shift: shift_of(pairs, from, to)?,
        };
        if !either {
            return Some(widths);
        }
        match proportional(pairs, from) {
            Some(other) if other != widths => {
                Some(IndentMap::Either(Box::new(widths), Box::new(other)))
            }
            _ => Some(widths),
        }
    }

    /// `lead` (a new line's indentation, in the request's style) in the file's style.
    pub fn apply(&self, lead: &str) -> Option<String> {
        match self {
            IndentMap::Add(d) => Some(format!("{d}{lead}")),
            IndentMap::Remove(d) => lead.strip_prefix(d.as_str()).map(str::to_string),
            IndentMap::Units { from, to, shift } => {
                let level = from.levels(lead)? as isize + shift;
                (level >= 0).then(|| to.repeat(level as usize))
            }
            IndentMap::Either(a, b) => {
                let carried = a.apply(lead)?;
                (b.apply(lead)? == carried).then_some(carried)
            }
        }
    }

    /// Whether the map changes nothing.
    pub fn is_identity(&self) -> bool {
        match self {
            IndentMap::Add(d) | IndentMap::Remove(d) => d.is_empty(),
            IndentMap::Units { from, to, shift } => from == to && *shift == 0,
            IndentMap::Either(..) => false,
        }
    }

    /// "the request indents 4 spaces less than the file" and the like.
    pub fn describe(&self) -> String {
        match self {
            IndentMap::Add(d) => format!(
                "the request is indented {} less than the file",
                crate::text::words::describe_ws(d)
            ),
            IndentMap::Remove(d) => format!(
                "the request is indented {} more than the file",
                crate::text::words::describe_ws(d)
            ),
            IndentMap::Units { from, to, shift } => {
                let mut s =
                    format!("the request indents with {from} per level, the file with {to}");
                if *shift != 0 {
                    s.push_str(&format!(
                        ", {} level{} {}",
                        shift.unsigned_abs(),
                        crate::text::words::plural(shift.unsigned_abs()),
                        if *shift > 0 { "deeper" } else { "shallower" }
                    ));
                }
                s
            }
            IndentMap::Either(a, b) => format!(
                "the indentation reads two ways ({}; or {}), and the file's own unit fits neither",
                a.describe(),
                b.describe()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_prefix_either_way() {
        let m = IndentMap::derive(&[("", "    "), ("    ", "        ")]).unwrap();
        assert_eq!(m, IndentMap::Add("    ".into()));
        assert_eq!(m.apply("  ").as_deref(), Some("      "));
        let r = IndentMap::derive(&[("\t\t", "\t"), ("\t\t\t", "\t\t")]).unwrap();
        assert_eq!(r, IndentMap::Remove("\t".into()));
        assert_eq!(
            r.apply("").as_deref(),
            None,
            "cannot dedent below the request's base"
        );
    }

    #[test]
    fn unit_changes() {
        let m = IndentMap::derive(&[("    ", "  "), ("        ", "    "), ("", "")]).unwrap();
        assert_eq!(
            m,
            IndentMap::Units {
                from: Unit::Spaces(4),
                to: Unit::Spaces(2),
                shift: 0
            }
        );
        assert_eq!(m.apply("            ").as_deref(), Some("      "));
        assert_eq!(
            m.apply("   "),
            None,
            "3 spaces is not a whole number of 4-space units"
        );
        let t = IndentMap::derive(&[("  ", "\t\t"), ("    ", "\t\t\t")]).unwrap();
        assert_eq!(t.apply("      ").as_deref(), Some("\t\t\t\t"));
        assert!(t
            .describe()
            .contains("2 spaces per level, the file with a tab"));
    }

    #[test]
    fn a_unit_change_reads_in_the_files_unit() {
        // Issue 25, rule 8: 3 tabs for 6 spaces in a file that indents 2 per level.
        let pairs = [("\t\t\t", "      "), ("\t\t\t", "      ")];
        let m = IndentMap::derive_in(&pairs, || Some(Unit::Spaces(2))).unwrap();
        assert_eq!(m.apply("\t\t\t\t").as_deref(), Some("        "));
        // Without the file's unit, the widths alone read one 6-space level.
        let m = IndentMap::derive(&pairs).unwrap();
        assert_eq!(m.apply("\t\t\t\t").as_deref(), Some("            "));
        // A file unit the pairs do not fit is not used.
        let m = IndentMap::derive_in(&[("\t", "   ")], || Some(Unit::Spaces(2))).unwrap();
        assert_eq!(m.apply("\t\t").as_deref(), Some("      "));
        // No unit fits and two readings do (6 spaces a level, or 2 a tab): a line at
        // the matched level is carried, another refused.
        let m = IndentMap::derive_in(&pairs, || Some(Unit::Spaces(4))).unwrap();
        assert_eq!(m.apply("\t\t\t").as_deref(), Some("      "));
        assert_eq!(m.apply("\t\t\t\t"), None);
    }

    #[test]
    fn a_files_unit_is_its_most_common_step() {
        let file = "a\n  b\n    c\n  d\n      e /* aligned */\n";
        assert_eq!(Unit::of_file(file.lines()), Some(Unit::Spaces(2)));
        assert_eq!(Unit::of_file("a\n\tb\n\t\tc\n".lines()), Some(Unit::Tab));
        assert_eq!(Unit::of_file("a\nb\n".lines()), None);
    }

    #[test]
    fn inconsistent_differences_have_no_map() {
        assert_eq!(IndentMap::derive(&[("", "  "), ("  ", "      ")]), None);
        assert_eq!(IndentMap::derive(&[("\t ", "    "), ("\t", "  ")]), None);
    }
}
