//! Writing a tolerant match: the replacement merged line by line with the file.
//!
//! Every tolerant level renders the same way. The replacement's lines are diffed
//! against the request's (`old_str`'s) lines: a replacement line equal to a request line
//! is one the caller kept, so the file's own bytes for that line are written (its
//! indentation, trailing whitespace, quotes, escapes and line ending); a changed or added
//! line is the caller's new text and goes through the level's corrections (re-indented,
//! escapes fixed, typography converted, line-number prefix removed). An elided request
//! has several parts, each merged with its part of the replacement, and the lines its
//! marker stood for are written back unchanged in place of the replacement's marker.

use super::escapes::{EscapeTable, Escapes, MixedRuns, Unpaired};
use super::indent::{lead, IndentMap};
use super::numbers::Numbering;
use super::typography::TypoTable;
use super::Via;
use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::diff::diff_lines;
use crate::text::words;
use crate::text::{split_lines, LineEnding, Text};
use serde_json::json;
use similar::DiffTag;
use std::borrow::Cow;
use std::ops::Range;

/// One request line's counterpart in the file: its content bytes and its line break
/// (empty when the match ends before it).
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub content: Range<usize>,
    pub term: Range<usize>,
    /// A request line the file does not have (a blank line the `blank_lines` level
    /// matched to none): kept, it writes nothing.
    pub absent: bool,
}

/// A part of the request and the file lines it matched.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub request: Vec<String>,
    pub pieces: Vec<Piece>,
}

/// File blank lines the request does not show, between two of its lines (the
/// `blank_lines` level): they stay beside the line new_str keeps on their side.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    /// The request line they follow (0-based, in the only segment).
    pub after: usize,
    /// The blank lines' bytes, whole, with their line breaks.
    pub bytes: Range<usize>,
    /// Their file lines (1-based, inclusive), for messages.
    pub lines: (usize, usize),
}

/// Everything needed to write the replacement at one tolerant match.
#[derive(Clone, Debug, PartialEq)]
pub struct Merge {
    pub via: Via,
    pub segments: Vec<Segment>,
    /// Between consecutive segments: the elided file lines (whole, with line breaks).
    pub elided: Vec<Range<usize>>,
    /// The request's marker line (trimmed) for each elided range.
    pub markers: Vec<String>,
    /// How many file lines the markers stand for, in all.
    pub elided_lines: usize,
    /// Blank lines of the file the request does not show (`blank_lines` only).
    pub gaps: Vec<Gap>,
    /// The match starts inside its first line (its first replacement line continues it).
    pub first_partial: bool,
    /// The match ends at the end of a file without a final line break.
    pub at_eof_without_newline: bool,
    pub ending: LineEnding,
    pub numbering: Option<Numbering>,
    pub indent: Option<IndentMap>,
    pub escapes: Option<Escapes>,
    pub typography: Option<TypoTable>,
    /// File lines of the match (1-based, inclusive), for messages.
    pub lines: (usize, usize),
}

/// What a replacement line is to the request's lines: given by the caller when it
/// knows (a patch hunk's ` ` and `+` marks), else found by diffing the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRole {
    /// The request's line `j`, kept: the file's bytes for that line are written.
    Kept(usize),
    /// A new line in place of a request line: the level's corrections apply.
    Changed,
    /// A line with no request line to stand for: indentation follows the file,
    /// characters are the caller's.
    Added,
}

/// One line of output.
enum Item {
    /// A file line kept as is.
    File(Piece),
    /// A new line, corrected.
    New(String),
    /// Elided file lines, written back whole.
    Raw(Range<usize>),
}

impl Merge {
    /// The bytes to write in place of the match for `replacement`.
    pub fn render(&self, text: &Text, replacement: &str) -> EditResult<String> {
        self.render_with_roles(text, replacement, None)
    }

    /// [`Merge::render`] where the caller says which replacement lines keep which
    /// request lines (`roles`, one per replacement line). Used when the request has
    /// one segment and `roles` names its lines; otherwise the lines are diffed.
    pub fn render_with_roles(
        &self,
        text: &Text,
        replacement: &str,
        roles: Option<&[LineRole]>,
    ) -> EditResult<String> {
        let new_lines = split_lines(replacement);
        let new_terminated = replacement.ends_with('\n');
        let new_lines: Vec<Cow<str>> = match &self.numbering {
            Some(n) => n.strip_all(&new_lines).0,
            None => new_lines.into_iter().map(Cow::Borrowed).collect(),
        };
        // A mixed escaping is applied in order, run by run, before anything else; the
        // roles below still compare the lines as sent with old_str's.
        let in_order = match &self.escapes {
            Some(Escapes::Mixed(mixed)) => Some(
                mixed
                    .apply_in_order(&new_lines)
                    .map_err(|why| mixed_escapes(self.lines, mixed, &why))?,
            ),
            _ => None,
        };
        let parts = self.split_at_markers(&new_lines)?;
        if self.indent.as_ref().is_some_and(|m| !m.is_identity()) {
            match self.frame(text, &parts) {
                None => return Err(two_frames(self)),
                Some(true) => {
                    // new_str already sits in the file's frame: written as sent.
                    let mut as_sent = self.clone();
                    as_sent.indent = None;
                    return as_sent.render_with_roles(text, replacement, roles);
                }
                _ => {}
            }
        }
        let mut items = Vec::new();
        let mut counter = 0;
        for (s, segment) in self.segments.iter().enumerate() {
            if s > 0 {
                if let Some(r) = self.elided.get(s - 1) {
                    if !r.is_empty() {
                        items.push(Item::Raw(r.clone()));
                    }
                }
            }
            let part = parts.get(s).map(Vec::as_slice).unwrap_or(&[]);
            let given = roles.filter(|r| {
                self.segments.len() == 1
                    && r.len() == part.len()
                    && r.iter().all(|role| match role {
                        LineRole::Kept(j) => *j < segment.request.len(),
                        _ => true,
                    })
            });
            let roles = match given {
                Some(r) => r.to_vec(),
                None => diff_roles(segment, part),
            };
            let fixed: Vec<(usize, &str)>;
            let part = match &in_order {
                Some(lines) => {
                    fixed = part.iter().map(|&(k, _)| (k, lines[k].as_str())).collect();
                    &fixed[..]
                }
                None => part,
            };
            let base = items.len();
            self.merge_segment(segment, part, &roles, s == 0, &mut counter, &mut items)?;
            if s == 0 && !self.gaps.is_empty() {
                self.place_gaps(&roles, base, &mut items)?;
            }
        }
        Ok(self.assemble(text, &items, new_terminated))
    }

    /// The replacement's lines split at its markers, which must pair with the request's.
    fn split_at_markers<'a>(
        &self,
        lines: &'a [Cow<'a, str>],
    ) -> EditResult<Vec<Vec<(usize, &'a str)>>> {
        let numbered: Vec<(usize, &str)> = lines
            .iter()
            .enumerate()
            .map(|(k, l)| (k, l.as_ref()))
            .collect();
        if self.markers.is_empty() {
            return Ok(vec![numbered]);
        }
        let is_marker = |l: &str| self.markers.iter().any(|m| m == l.trim());
        let found: Vec<&str> = lines
            .iter()
            .map(|l| l.trim())
            .filter(|l| is_marker(l))
            .collect();
        if found != self.markers.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(unpaired_markers(self, &found));
        }
        let mut parts = vec![Vec::new()];
        for (k, l) in numbered {
            if is_marker(l) {
                parts.push(Vec::new());
            } else if let Some(p) = parts.last_mut() {
                p.push((k, l));
            }
        }
        Ok(parts)
    }

    fn merge_segment(
        &self,
        segment: &Segment,
        part: &[(usize, &str)],
        roles: &[LineRole],
        first_segment: bool,
        counter: &mut usize,
        items: &mut Vec<Item>,
    ) -> EditResult<()> {
        for (&(line_no, line), role) in part.iter().zip(roles) {
            match role {
                LineRole::Kept(j) => {
                    if let Some(p) = segment.pieces.get(*j) {
                        items.push(Item::File(p.clone()));
                    }
                }
                LineRole::Changed | LineRole::Added => {
                    let continues_line = first_segment && self.first_partial && *counter == 0;
                    let added = *role == LineRole::Added;
                    items.push(Item::New(self.correct(
                        line,
                        line_no,
                        !continues_line,
                        added,
                    )?));
                }
            }
            *counter += 1;
        }
        Ok(())
    }

    /// Which frame new_str is in when the request matched with a shift (issue 25,
    /// rule 5): `Some(true)` the file's (written as sent), `Some(false)` the request's
    /// (re-indented), `None` not certain (refused). Only lines where the request line
    /// and its file line are indented differently say anything:
    /// - a line new_str keeps byte for byte is in the request's frame;
    /// - a changed line (new words in a request line's place) indented as its file line
    ///   reads the file's frame, indented as its request line the request's;
    /// - a kept line indented anew reads the file's frame when it sits at its file
    ///   line's indentation and nothing else puts new_str in the request's frame
    ///   (otherwise it is a line moved into a new block, as usual).
    ///
    /// Two readings at once are not certain.
    fn frame(&self, text: &Text, parts: &[Vec<(usize, &str)>]) -> Option<bool> {
        // (kept byte for byte, changed as the request, changed as the file, moved to the file)
        let mut v = [false; 4];
        for (s, (segment, part)) in self.segments.iter().zip(parts).enumerate() {
            let old: Vec<&str> = segment.request.iter().map(|l| l.trim()).collect();
            let new: Vec<&str> = part.iter().map(|(_, l)| l.trim()).collect();
            for op in diff_lines(&old, &new) {
                let (tag, old_range, new_range) = op.as_tag_tuple();
                if !matches!(tag, DiffTag::Equal | DiffTag::Replace) {
                    continue;
                }
                for (j, k) in old_range.zip(new_range) {
                    let (Some(piece), Some((_, line))) = (segment.pieces.get(j), part.get(k))
                    else {
                        continue;
                    };
                    let partial = s == 0 && j == 0 && self.first_partial;
                    if piece.absent || partial || line.trim().is_empty() {
                        continue;
                    }
                    let request = lead(&segment.request[j]);
                    let file = lead(text.line(text.line_of(piece.content.start)));
                    if request == file {
                        continue;
                    }
                    let at = lead(line);
                    match tag {
                        DiffTag::Equal if at == request => v[0] = true,
                        DiffTag::Equal if at == file => v[3] = true,
                        DiffTag::Replace if at == request => v[1] = true,
                        DiffTag::Replace if at == file => v[2] = true,
                        _ => {}
                    }
                }
            }
        }
        let [kept, as_request, as_file, moved] = v;
        match (kept || as_request, as_file || (moved && !kept)) {
            (true, true) if as_file => None,
            (false, true) => Some(true),
            _ => Some(false),
        }
    }

    /// Writes each hidden [`Gap`] back beside the request line new_str keeps on its
    /// side (`items[base..]` are the segment's lines, one per role). Refused when
    /// new_str keeps both lines around it with lines between them, or neither: which
    /// side of the blank lines its lines go is not certain.
    fn place_gaps(&self, roles: &[LineRole], base: usize, items: &mut Vec<Item>) -> EditResult<()> {
        let at = |j: usize| roles.iter().position(|r| *r == LineRole::Kept(j));
        for gap in self.gaps.iter().rev() {
            let pos = match (at(gap.after), at(gap.after + 1)) {
                (Some(a), Some(b)) if b == a + 1 => b,
                (Some(a), None) => a + 1,
                (None, Some(b)) => b,
                _ => return Err(hidden_gap(self, gap)),
            };
            items.insert(base + pos, Item::Raw(gap.bytes.clone()));
        }
        Ok(())
    }

    /// A changed or added line with the level's corrections. Typography maps the call's
    /// characters to the file's only on lines that stand for an existing line: an
    /// added line is new code, and `'x'` in it stays `'x'` even where the file's prose
    /// writes `’`.
    fn correct(
        &self,
        line: &str,
        line_no: usize,
        at_line_start: bool,
        added: bool,
    ) -> EditResult<String> {
        let mut s = Cow::Borrowed(line);
        if let Some(map) = &self.indent {
            if s.trim().is_empty() {
                s = Cow::Borrowed("");
            } else if at_line_start {
                let l = lead(&s);
                let Some(new_lead) = map.apply(l) else {
                    return Err(unplaceable_indent(self, map, line_no, l));
                };
                s = Cow::Owned(format!("{new_lead}{}", &s[l.len()..]));
            }
        }
        if let Some(Escapes::Table(t)) = &self.escapes {
            match t.apply(&s) {
                Ok(fixed) => s = Cow::Owned(fixed),
                Err(run) => return Err(unplaceable_run(self, t, line_no, run.len, run.before)),
            }
        }
        if let Some(t) = self.typography.as_ref().filter(|_| !added) {
            s = Cow::Owned(t.apply(&s));
        }
        Ok(s.into_owned())
    }

    fn assemble(&self, text: &Text, items: &[Item], new_terminated: bool) -> String {
        let src = text.as_str();
        let ending = self.ending.as_str();
        let mut out = String::new();
        let items: Vec<&Item> = items
            .iter()
            .filter(|item| !matches!(item, Item::File(p) if p.absent))
            .collect();
        for (k, item) in items.iter().enumerate() {
            let sep = match item {
                Item::File(p) => {
                    out.push_str(&src[p.content.clone()]);
                    &src[p.term.clone()]
                }
                Item::New(s) => {
                    out.push_str(s);
                    ""
                }
                Item::Raw(r) => {
                    let raw = &src[r.clone()];
                    let body = raw
                        .strip_suffix('\n')
                        .map(|b| b.strip_suffix('\r').unwrap_or(b))
                        .unwrap_or(raw);
                    out.push_str(body);
                    &raw[body.len()..]
                }
            };
            let sep = if sep.is_empty() { ending } else { sep };
            if k + 1 < items.len() || (new_terminated && !self.at_eof_without_newline) {
                out.push_str(sep);
            }
        }
        out
    }

    /// What the rendering corrects, for `warnings`.
    pub fn note(&self, replacement: &str) -> Option<String> {
        match self.via {
            Via::LineEndings => replacement
                .contains('\n')
                .then(|| format!("new_str was written with the file's {} line endings.", self.ending.name())),
            Via::TrailingWhitespace => Some(
                "Lines new_str keeps from old_str were written with the file's own whitespace.".into(),
            ),
            Via::BlankLines => Some(
                "Blank lines new_str keeps from old_str were written as the file has them (its number of blank lines there).".into(),
            ),
            Via::InnerWhitespace => Some(
                "Lines new_str keeps from old_str were written with the file's own spacing (its alignment); changed lines as sent.".into(),
            ),
            Via::Indentation => self
                .indent
                .as_ref()
                .filter(|m| !m.is_identity())
                .map(|_| {
                    "new_str was re-indented the same way; lines it keeps from old_str keep the file's bytes."
                        .to_string()
                }),
            Via::LineNumbers => Some(match self.indent.as_ref().filter(|m| !m.is_identity()) {
                Some(m) => format!(
                    "Line-number prefixes were removed from new_str as well, and it was re-indented ({}).",
                    m.describe()
                ),
                None => "Line-number prefixes were removed from new_str as well.".into(),
            }),
            Via::Escaping => match &self.escapes {
                Some(Escapes::Table(t)) => Some(format!(
                    "new_str's changed lines had their backslashes corrected the same way ({}).",
                    t.describe()
                )),
                Some(Escapes::Mixed(_)) => Some(
                    "new_str's backslash runs were corrected in order, each by the ratio of old_str's run it pairs with.".into(),
                ),
                None => None,
            },
            Via::Typography => self.typography.as_ref().map(|t| {
                let (mapped, kept) = t.describe();
                let mut s = String::new();
                if !mapped.is_empty() {
                    s.push_str(&format!("new_str's changed lines use the file's characters ({mapped})."));
                }
                if !kept.is_empty() {
                    s.push_str(&format!(
                        " Where the file writes one request character several ways ({kept}), new_str's changed lines keep it as written."
                    ));
                }
                s.trim().to_string()
            }).filter(|s| !s.is_empty()),
            Via::Elision => {
                let markers: Vec<String> = self.markers.iter().map(|m| format!("`{m}`")).collect();
                if self.elided_lines == 0 {
                    return Some(format!(
                        "new_str's {} stood for no lines and was dropped.",
                        markers.join(", ")
                    ));
                }
                Some(format!(
                    "new_str's {} {} replaced by the {} elided line{} of the file, unchanged.",
                    markers.join(", "),
                    if markers.len() == 1 { "was" } else { "were" },
                    self.elided_lines,
                    words::plural(self.elided_lines)
                ))
            }
            Via::Exact => None,
        }
    }
}

/// Each replacement line's role, from a diff against the request's lines. New lines
/// past the replaced ones are added code: they have no file line to take characters from.
fn diff_roles(segment: &Segment, part: &[(usize, &str)]) -> Vec<LineRole> {
    let old: Vec<&str> = segment.request.iter().map(String::as_str).collect();
    let new: Vec<&str> = part.iter().map(|(_, l)| *l).collect();
    let mut roles = Vec::with_capacity(new.len());
    for op in diff_lines(&old, &new) {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => roles.extend(old_range.map(LineRole::Kept)),
            DiffTag::Delete => {}
            DiffTag::Insert => roles.extend(new_range.map(|_| LineRole::Added)),
            DiffTag::Replace => roles.extend(new_range.enumerate().map(|(i, _)| {
                if i < old_range.len() {
                    LineRole::Changed
                } else {
                    LineRole::Added
                }
            })),
        }
    }
    roles
}

/// The label of 1-based inclusive `lines`.
fn lines_label(lines: (usize, usize)) -> String {
    words::lines_label(lines.0.saturating_sub(1), lines.1.saturating_sub(1))
}

fn mixed_escapes(lines: (usize, usize), mixed: &MixedRuns, why: &Unpaired) -> EditError {
    let pairs = &mixed.conflicts;
    let shown: Vec<String> = pairs.iter().take(6).map(|p| p.to_string()).collect();
    let at = |c: &Option<char>| match c {
        Some(c) => format!("before `{c}`"),
        None => "at the line end".to_string(),
    };
    let reason = match why {
        Unpaired::Request => "old_str's runs do not pair with the file's line by line".to_string(),
        Unpaired::Count { old, new } => format!(
            "new_str has {new} backslash run{} (counting quotes) where old_str has {old}, so they do not pair one to one",
            words::plural(*new)
        ),
        Unpaired::Run { index, old, new, len } if old == new => format!(
            "new_str's run {} ({len} backslash{} {}) has no whole counterpart in the ratio of old_str's run {}",
            index + 1,
            if *len == 1 { "" } else { "es" },
            at(new),
            index + 1
        ),
        Unpaired::Run { index, old, new, .. } => format!(
            "new_str's run {} is {} where old_str's is {}",
            index + 1,
            at(new),
            at(old)
        ),
    };
    EditError::new(
        ErrorKind::EscapeAmbiguous,
        format!(
            "old_str matches {} only if backslashes are counted differently, and not the same way everywhere: {}. Such ratios are applied to new_str in order only when its backslash runs pair one to one with old_str's; here {reason}. Which escaping new_str means is not certain, so nothing was changed. Send old_str and new_str with backslashes exactly as in the file (read_lines {{start_line: {}, end_line: {}}} shows them).",
            lines_label(lines),
            if shown.is_empty() { "the runs do not pair up".to_string() } else { shown.join("; ") },
            lines.0,
            lines.1
        ),
    )
    .with_diagnostics(json!({
        "start_line": lines.0,
        "end_line": lines.1,
        "runs": pairs.iter().map(|p| json!({"line": p.line, "old_str": p.request, "file": p.file, "before": p.before.map(String::from)})).collect::<Vec<_>>(),
    }))
}

fn unplaceable_run(
    m: &Merge,
    t: &EscapeTable,
    line_no: usize,
    len: usize,
    before: Option<char>,
) -> EditError {
    let at = match before {
        Some(c) => format!("before `{c}`"),
        None => "at the line end".into(),
    };
    EditError::new(
        ErrorKind::EscapeAmbiguous,
        format!(
            "old_str matches {} once backslashes are corrected ({}), but new_str line {} has a run of {len} backslash{} {at} that this correction does not cover, so how many the file needs is not certain. Nothing was changed. Send new_str with backslashes exactly as the file should have them, and old_str as in the file.",
            lines_label(m.lines),
            t.describe(),
            line_no + 1,
            if len == 1 { "" } else { "es" },
        ),
    )
    .with_diagnostics(json!({
        "start_line": m.lines.0,
        "end_line": m.lines.1,
        "new_str_line": line_no + 1,
        "run": {"length": len, "before": before.map(String::from)},
        "runs": t.changed.iter().map(|p| json!({"line": p.line, "old_str": p.request, "file": p.file, "before": p.before.map(String::from)})).collect::<Vec<_>>(),
    }))
}

fn unplaceable_indent(m: &Merge, map: &IndentMap, line_no: usize, lead: &str) -> EditError {
    EditError::invalid(format!(
        "old_str matches {} ignoring indentation ({}), but new_str line {} is indented `{}`, which that rule cannot carry over, so it cannot be re-indented safely. Nothing was changed. Send old_str and new_str indented exactly as the file is (read_lines {{start_line: {}, end_line: {}}}).",
        lines_label(m.lines),
        map.describe(),
        line_no + 1,
        words::visible(lead),
        m.lines.0,
        m.lines.1
    ))
}

fn two_frames(m: &Merge) -> EditError {
    EditError::invalid(format!(
        "old_str matches {} ignoring indentation ({}), but new_str mixes two frames: some of its lines are indented as old_str's, others as the file's, so how to indent it is not certain. Nothing was changed. Send old_str and new_str indented exactly as the file is (read_lines {{start_line: {}, end_line: {}}}).",
        lines_label(m.lines),
        m.indent.as_ref().map(IndentMap::describe).unwrap_or_default(),
        m.lines.0,
        m.lines.1
    ))
}

fn hidden_gap(m: &Merge, gap: &Gap) -> EditError {
    let count = gap.lines.1 + 1 - gap.lines.0;
    EditError::new(
        ErrorKind::Ambiguous,
        format!(
            "old_str matches {} when blank lines are not counted, but the file has {count} blank line{} ({}) where old_str has none, and new_str changes the lines on both sides of them, so which side of those blank lines its lines go is not certain. Nothing was changed. Quote the blank lines as the file has them (read_lines {{start_line: {}, end_line: {}}}).",
            lines_label(m.lines),
            words::plural(count),
            lines_label(gap.lines),
            m.lines.0,
            m.lines.1
        ),
    )
}

fn unpaired_markers(m: &Merge, found: &[&str]) -> EditError {
    let want: Vec<String> = m.markers.iter().map(|s| format!("`{s}`")).collect();
    let (kind, why) = if found.len() > m.markers.len() {
        (
            ErrorKind::PlaceholderInNewStr,
            "new_str has more of those marker lines than old_str, and the extra ones would be written literally",
        )
    } else {
        (
            ErrorKind::InvalidArguments,
            "new_str does not have them in the same places, so the elided lines would be lost",
        )
    };
    EditError::new(
        kind,
        format!(
            "old_str elides file lines with {} (matched {}), and new_str must keep each such marker line, in the same order, where those lines stay; {why}. Nothing was changed. Send new_str with the same marker line{} where the elided lines belong, or quote the lines in full.",
            want.join(", "),
            lines_label(m.lines),
            words::plural(m.markers.len())
        ),
    )
    .with_diagnostics(json!({"markers": m.markers, "new_str_markers": found}))
}
