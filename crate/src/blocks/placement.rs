//! Placement: the indentation levels a block of whole lines may take where it is
//! inserted (`move_block`'s destination).
//!
//! Decisions. The gap lies between the code line P above it and the code line N below
//! it (blank lines, comment lines and the lines being moved away are skipped).
//!
//! - Python: a level is valid when Python reads the block there as a statement of one
//!   enclosing block and N keeps its meaning. After a header P (`def f():`) only the
//!   level of its body (N's) is valid. Otherwise the valid levels are the widths of the
//!   blocks open at P (P's own and each enclosing one's, Python's indentation stack)
//!   that are not shallower than N: after the last line of a deeper block, its level,
//!   every enclosing level and N's level all are. Several valid levels are several
//!   programs.
//! - Brace languages: where the block stands decides the program; its indentation only
//!   follows the bracket depth there, so one level is valid: after a line that opens a
//!   bracket, N's (the opened block's body); before a closing line, the level of the
//!   first line of the block it closes; otherwise N's (at the end of the file, the
//!   top level).
//! - YAML and files without a code line around the gap: no level is known (empty).
//! - A gap inside a statement (Python: before a continuation line, inside brackets, a
//!   triple-quoted string or after a backslash; brace languages: inside `( … )` or
//!   `[ … ]`; any language: directly after a decorator or attribute line, which would
//!   apply to the block) takes no block: it is reported with the statement's first
//!   line.
//!
//! A level is a width (a tab advances to the next multiple of 8, as in Python) and the
//! indentation text of a line at that width, which a re-indented block takes.

use super::{indent, Analysis, Lang};
use std::ops::Range;

/// An indentation level valid at a gap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The width (tabs to the next multiple of 8).
    pub width: u32,
    /// The indentation of a line at this level (copied by a re-indented block).
    pub lead: String,
    /// The 0-based line of the header that opens the block at this level (None at the
    /// top level or when unknown).
    pub header: Option<usize>,
}

/// The width of an indentation (tabs to the next multiple of 8).
pub fn width_of(lead: &str) -> u32 {
    lead.bytes().fold(0, |w, c| match c {
        b'\t' => (w / 8 + 1) * 8,
        b' ' => w + 1,
        _ => w,
    })
}

fn lead_of(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

impl<'t, 'a> Analysis<'t, 'a> {
    /// The levels a block may take inserted before 0-based line `gap` (the line count:
    /// at the end), the lines in `skip` read as absent; narrowest first. Empty when none
    /// is known.
    /// `Err(line)`: the gap splits the statement that starts at 0-based `line`.
    pub fn gap_levels(&self, gap: usize, skip: Range<usize>) -> Result<Vec<Level>, usize> {
        // Directly after a decorator or attribute line, the block would take it over.
        let above = (0..gap.min(self.text.line_count()))
            .rev()
            .find(|l| !skip.contains(l) && !self.code_line(*l).trim_ascii().is_empty());
        if let Some(p) = above {
            let code = self.code_line(p).trim_ascii();
            let decorates = code.starts_with(b"@") || code.starts_with(b"#[");
            if decorates && self.lang != Lang::Yaml {
                return Err(self.prelude_start(p));
            }
        }
        match self.lang {
            Lang::Python => self.python_gap_levels(gap, skip),
            Lang::Yaml => Ok(Vec::new()),
            _ => {
                if let Some(open) = self.enclosing_group(gap) {
                    return Err(open);
                }
                Ok(self.brace_gap_levels(gap, skip).into_iter().collect())
            }
        }
    }

    /// The 0-based line of the innermost `(` or `[` still open where 0-based line
    /// `gap` starts, if that is the innermost open bracket there.
    fn enclosing_group(&self, gap: usize) -> Option<usize> {
        if gap >= self.text.line_count() {
            return None;
        }
        let pos = self.text.line_start(gap);
        let ev = self.events();
        let mut j = self.event_at(pos);
        while j > 0 {
            j -= 1;
            let e = ev[j];
            if !e.is_open() {
                match e.partner {
                    p if p != super::lex::NONE && (p as usize) < j => j = p as usize,
                    _ => {}
                }
                continue;
            }
            let open_past =
                e.partner == super::lex::NONE || ev[e.partner as usize].pos as usize >= pos;
            if open_past {
                return (e.byte != b'{').then(|| self.line_of(e.pos as usize));
            }
        }
        None
    }

    fn level_at(&self, l: usize, header: Option<usize>) -> Level {
        let lead = lead_of(self.text.line(l));
        Level {
            width: width_of(lead),
            lead: lead.to_string(),
            header,
        }
    }

    fn python_gap_levels(&self, gap: usize, skip: Range<usize>) -> Result<Vec<Level>, usize> {
        let info = indent::line_info(self);
        let start = |l: &usize| !skip.contains(l) && info.get(*l).is_some_and(|i| i.start);
        let above = (0..gap.min(info.len())).rev().find(start);
        // The next line that is neither blank nor a comment: a continuation line there
        // means the gap splits a statement.
        let next = (gap..info.len()).find(|l| {
            let raw = self.text.line(*l).trim();
            !skip.contains(l) && !raw.is_empty() && !raw.starts_with('#')
        });
        if let Some(l) = next.filter(|l| !info[*l].start) {
            return Err(above.unwrap_or(l));
        }
        let below = (gap..info.len()).find(start);
        let below_width = below.map_or(0, |n| info[n].width);
        let Some(p) = above else {
            return Ok(vec![below.map_or(top_level(), |n| self.level_at(n, None))]);
        };
        if info[p].header {
            return Ok(match below {
                Some(n) if info[n].width > info[p].width => vec![self.level_at(n, Some(p))],
                _ => Vec::new(),
            });
        }
        // The indentation stack at P: each level with the line that shows it.
        let mut stack = vec![p];
        let mut width = info[p].width;
        for l in (0..p).rev().filter(|l| start(l)) {
            if width == 0 {
                break;
            }
            if info[l].width < width {
                stack.push(l);
                width = info[l].width;
            }
        }
        let mut levels: Vec<Level> = Vec::new();
        for (i, &l) in stack.iter().enumerate() {
            if info[l].width < below_width {
                break;
            }
            let header = stack.get(i + 1).copied().filter(|&h| info[h].header);
            levels.push(self.level_at(l, header));
        }
        Ok(levels)
    }

    fn brace_gap_levels(&self, gap: usize, skip: Range<usize>) -> Option<Level> {
        let n_lines = self.text.line_count();
        let code = |l: usize| self.code_line(l).trim_ascii();
        let present = |l: &usize| !skip.contains(l) && !code(*l).is_empty();
        let above = (0..gap.min(n_lines)).rev().find(present);
        let Some(n) = (gap..n_lines).find(present) else {
            return Some(top_level());
        };
        let opens = above.is_some_and(|p| matches!(code(p).last(), Some(b'{' | b'(' | b'[')));
        let closes = matches!(code(n).first(), Some(b'}' | b')' | b']'));
        if opens {
            let p = above.unwrap_or(0);
            let deeper = self.level_at(n, None).width > self.level_at(p, None).width;
            return (deeper && !closes).then(|| self.level_at(n, Some(p)));
        }
        if !closes {
            return Some(self.level_at(n, None));
        }
        // Before a closing line: the level of the first line inside what it closes.
        let close = self.text.line_start(n)
            + self
                .code_line(n)
                .iter()
                .position(|c| !c.is_ascii_whitespace())?;
        let open_line = self.line_of(self.partner_of(close)?);
        let first = (open_line + 1..n).find(present)?;
        Some(self.level_at(first, Some(open_line)))
    }
}

fn top_level() -> Level {
    Level {
        width: 0,
        lead: String::new(),
        header: None,
    }
}
