//! V4A: the `*** Begin Patch` envelope of Codex's `apply_patch`, with the slips models
//! make tolerated.
//!
//! ```text
//! patch       = "*** Begin Patch" , { blank | operation } , "*** End Patch" , [ lost-closer ] ;
//! operation   = add | delete | update ;
//! add         = "*** Add File: " , path , { "+" , text | blank } ;
//! delete      = "*** Delete File: " , path , { blank } ;
//! update      = "*** Update File: " , path , { blank } , [ "*** Move to: " , path ] , { hunk } ;
//! hunk        = { header } , { blank } , hunk-line , { hunk-line | blank } ,
//!               [ "*** End of File" ] ;
//! header      = "@@" , [ anchor ] , [ "@@" ]
//!             | "@@" , range ;              (* unified.rs: " -l,n +l,n @@ heading" *)
//! hunk-line   = " " , text | "-" , text | "+" , text ;
//! lost-closer = fence-close | caps ;          (* caps: 2 or more of "A"…"Z", "_" *)
//! ```
//!
//! Where the grammar leaves room, the code decides:
//!
//! - Markers (`*** …` lines) may be padded with white space (noted). Inside an update a
//!   line starting with exactly one space is a context line even if it reads `*** …`,
//!   so a file line of that shape can be quoted as context; two spaces or more are
//!   padding, and the line is a marker again.
//! - An update needs a hunk unless it moves the file. Its first hunk may omit its `@@`;
//!   consecutive `@@` lines stack their anchors (outermost first) onto one hunk.
//! - `@@ <anchor> @@`: the trailing `@@` is dropped (noted). `@@ -l,n +l,n @@ heading`,
//!   a unified range in a V4A patch, reads as `@@ heading` with the old start line
//!   kept as a tie-breaking hint (noted).
//! - An empty line inside a hunk (after its `@@`, or between its lines) or between the
//!   `+` lines of an added file is an empty line of the file whose leading space (or
//!   `+`) was lost (noted); empty lines after the last one are separators.
//! - `*** End of File` after hunk lines closes the hunk and pins it to the file's end.
//! - `*** End Patch` must be the last line. A lost-closer after it is the closing half
//!   of a wrapper whose opening half was lost (noted, dropped); any other text after it
//!   is refused (`patch_parse`), and a patch without it was cut off in transit
//!   (`patch_incomplete`): half a patch is never applied.
//! - An added file's text ends with a line break unless it is empty.

use super::notes::{incomplete, parse_error, quote, Notes};
use super::unified::RangeHeader;
use super::wrappers::is_fence_close;
use super::Line;
use crate::error::{EditError, EditResult};
use crate::patch::{FileOp, Hunk, PathChoice, Sign};

pub(super) const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
pub(super) const ADD: &str = "*** Add File:";
pub(super) const DELETE: &str = "*** Delete File:";
pub(super) const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";
const END_OF_FILE: &str = "*** End of File";

/// The index of the line holding `*** End Patch`: the last line, or the last before
/// the closing half of a wrapper (a code fence, a heredoc terminator) whose opening
/// half was lost on the way (noted). Text after the marker, or no marker, is refused.
fn v4a_end(lines: &[Line], notes: &mut Notes) -> EditResult<usize> {
    let mut last = lines.len() - 1;
    if last == 0 || lines[last].1.trim() != END {
        // (A line with one leading space is a context line quoting the marker.)
        let end_marker =
            |l: &&Line| l.1.trim() == END && (!l.1.starts_with(' ') || l.1.starts_with("  "));
        if let Some(k) = lines.iter().position(|l| end_marker(&l)) {
            // The closing half of a wrapper whose opening half was lost on the way.
            let closers: Vec<&str> = lines[k + 1..].iter().map(|l| l.1.trim()).collect();
            if let [closer] = closers.as_slice() {
                if is_fence_close(closer) {
                    notes.fence = true;
                    last = k;
                } else if closer.len() >= 2
                    && closer.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                {
                    notes.heredoc = true;
                    last = k;
                }
            }
        }
    }
    if last == 0 || lines[last].1.trim() != END {
        let end_marker =
            |l: &&Line| l.1.trim() == END && (!l.1.starts_with(' ') || l.1.starts_with("  "));
        if let Some(k) = lines.iter().position(|l| end_marker(&l)) {
            if let Some(&(n, after)) = lines.get(k + 1) {
                return Err(parse_error(
                    n,
                    &format!(
                        "text after `*** End Patch`: {}. The patch must end with `*** End Patch`; send anything after it in another call, or drop it.",
                        quote(after)
                    ),
                ));
            }
        }
        return Err(incomplete(lines[last]));
    }
    Ok(last)
}

/// The file operations of a V4A patch (`lines[0]` is `*** Begin Patch`).
pub(super) fn parse(lines: &[Line], notes: &mut Notes) -> EditResult<Vec<FileOp>> {
    let (begin_line, begin) = lines[0];
    notes.padded_if(begin_line, begin, BEGIN);
    let last = v4a_end(lines, notes)?;
    notes.padded_if(lines[last].0, lines[last].1, END);
    let body = &lines[1..last];
    let mut ops = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (n, raw) = body[i];
        if raw.trim().is_empty() {
            i += 1;
            continue;
        }
        if let Some(path) = header(raw, ADD) {
            notes.padded_if(n, raw, raw.trim());
            let path = op_path(n, path, ADD)?;
            i += 1;
            let (content, next) = add_content(body, i, notes)?;
            i = next;
            ops.push(FileOp::Add {
                path,
                content,
                line: n,
            });
        } else if let Some(path) = header(raw, DELETE) {
            notes.padded_if(n, raw, raw.trim());
            let path = op_path(n, path, DELETE)?;
            i += 1;
            while let Some(&(m, l)) = body.get(i) {
                if l.trim().is_empty() {
                    i += 1;
                } else if l.trim_start().starts_with("***") {
                    break;
                } else {
                    return Err(parse_error(
                        m,
                        &format!(
                            "`*** Delete File: {path}` takes no lines, but {} follows it. To change the file instead, use `*** Update File: {path}` with hunks.",
                            quote(l)
                        ),
                    ));
                }
            }
            ops.push(FileOp::Delete {
                path: PathChoice::exact(path),
                hunks: Vec::new(),
                line: n,
            });
        } else if let Some(path) = header(raw, UPDATE) {
            notes.padded_if(n, raw, raw.trim());
            let path = op_path(n, path, UPDATE)?;
            i += 1;
            while body.get(i).is_some_and(|l| l.1.trim().is_empty()) {
                i += 1;
            }
            let mut move_to = None;
            if let Some(&(m, l)) = body.get(i) {
                if let Some(dest) = header(l, MOVE) {
                    notes.padded_if(m, l, l.trim());
                    move_to = Some(op_path(m, dest, MOVE)?);
                    i += 1;
                }
            }
            let (hunks, next) = v4a_hunks(body, i, notes)?;
            i = next;
            if hunks.is_empty() && move_to.is_none() {
                return Err(parse_error(
                    n,
                    &format!(
                        "`*** Update File: {path}` has no hunks. Follow it with `@@` and lines starting with ' ' (unchanged), '-' (removed) or '+' (added)."
                    ),
                ));
            }
            ops.push(FileOp::Update {
                path: PathChoice::exact(path),
                move_to,
                hunks,
                line: n,
            });
        } else if raw.trim_start().starts_with("***") {
            return Err(unknown_operation(n, raw));
        } else {
            return Err(parse_error(
                n,
                &format!(
                    "expected a file operation (`*** Add File: <path>`, `*** Delete File: <path>` or `*** Update File: <path>`), found {}.",
                    quote(raw)
                ),
            ));
        }
    }
    if ops.is_empty() {
        return Err(parse_error(
            begin_line,
            "the patch holds no file operation. Put `*** Add File:`, `*** Delete File:` or `*** Update File:` sections between `*** Begin Patch` and `*** End Patch`.",
        ));
    }
    Ok(ops)
}

/// `*** Add File: p` → `p` (markers may be padded with whitespace).
fn header<'a>(raw: &'a str, marker: &str) -> Option<&'a str> {
    raw.trim().strip_prefix(marker).map(str::trim)
}

fn op_path(line: usize, path: &str, marker: &str) -> EditResult<String> {
    if path.is_empty() {
        return Err(parse_error(
            line,
            &format!("`{marker}` needs a path, e.g. `{marker} src/app.py`."),
        ));
    }
    Ok(path.to_string())
}

fn unknown_operation(line: usize, raw: &str) -> EditError {
    parse_error(
        line,
        &format!(
            "unknown file operation {}. The operations are `*** Add File: <path>`, `*** Delete File: <path>` and `*** Update File: <path>` (followed by `*** Move to: <new path>` to rename).",
            quote(raw)
        ),
    )
}

/// The `+` lines of an added file, from `body[i]`; returns the text and the next index.
fn add_content(body: &[Line], mut i: usize, notes: &mut Notes) -> EditResult<(String, usize)> {
    let mut content: Vec<&str> = Vec::new();
    let mut blanks: Vec<usize> = Vec::new();
    while let Some(&(n, l)) = body.get(i) {
        if let Some(text) = l.strip_prefix('+') {
            for b in blanks.drain(..) {
                notes.blank_lines.push(b);
                content.push("");
            }
            content.push(text);
        } else if l.trim().is_empty() {
            blanks.push(n);
        } else if l.trim_start().starts_with("***") {
            break;
        } else {
            return Err(parse_error(
                n,
                &format!(
                    "every line of an added file starts with `+`, but this one is {}. Prefix each line of the new file with `+`.",
                    quote(l)
                ),
            ));
        }
        i += 1;
    }
    let mut text = content.join("\n");
    if !content.is_empty() {
        text.push('\n');
    }
    Ok((text, i))
}

/// A line that ends an update's hunks: a marker at the start of the line. A line with
/// one leading space is a context line even if it reads `*** …`; deeper padding is a
/// padded marker.
fn ends_hunks(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with("***") && (!l.starts_with(' ') || l.starts_with("  "))
}

fn v4a_hunks(body: &[Line], mut i: usize, notes: &mut Notes) -> EditResult<(Vec<Hunk>, usize)> {
    let mut hunks = Vec::new();
    let mut current: Option<Hunk> = None;
    // Empty lines not yet known to be inside a hunk (blank context) or after it.
    let mut blanks: Vec<usize> = Vec::new();
    while let Some(&(n, l)) = body.get(i) {
        if let Some(rest) = l.strip_prefix("@@") {
            blanks.clear();
            let hunk = match current.take() {
                Some(h) if h.lines.is_empty() => h,
                Some(h) => {
                    hunks.push(h);
                    Hunk::new(n)
                }
                None => Hunk::new(n),
            };
            let hunk = current.insert(hunk);
            v4a_hunk_header(rest, n, hunk, notes);
            i += 1;
            continue;
        }
        if ends_hunks(l) {
            let t = l.trim();
            if t == END_OF_FILE {
                notes.padded_if(n, l, t);
                match current.take() {
                    Some(mut h) if !h.lines.is_empty() => {
                        h.end_of_file = true;
                        hunks.push(h);
                    }
                    _ => {
                        return Err(parse_error(
                            n,
                            "`*** End of File` must follow the lines of a hunk (it marks that the hunk ends the file).",
                        ))
                    }
                }
                blanks.clear();
                i += 1;
                continue;
            }
            if header(l, MOVE).is_some() {
                return Err(parse_error(
                    n,
                    "`*** Move to: <path>` must come right after `*** Update File: <path>`, before the hunks.",
                ));
            }
            break;
        }
        let (sign, text) = match l.as_bytes().first() {
            Some(b' ') => (Sign::Context, &l[1..]),
            Some(b'-') => (Sign::Remove, &l[1..]),
            Some(b'+') => (Sign::Add, &l[1..]),
            _ if l.trim().is_empty() => {
                if current.is_some() {
                    blanks.push(n);
                }
                i += 1;
                continue;
            }
            _ => {
                return Err(parse_error(
                    n,
                    &format!(
                        "expected a hunk line starting with ' ' (unchanged), '-' (removed) or '+' (added), or `@@`, found {}. An unchanged line needs a leading space.",
                        quote(l)
                    ),
                ))
            }
        };
        let hunk = current.get_or_insert_with(|| Hunk::new(n));
        for b in blanks.drain(..) {
            notes.blank_lines.push(b);
            hunk.lines.push((Sign::Context, String::new()));
        }
        hunk.lines.push((sign, text.to_string()));
        i += 1;
    }
    match current {
        Some(h) if h.lines.is_empty() => {
            return Err(parse_error(
                h.line,
                &format!(
                    "`@@ {}` is not followed by any hunk line. After an anchor come lines starting with ' ', '-' or '+'.",
                    h.anchors.last().map_or("", String::as_str)
                ),
            ))
        }
        Some(h) => hunks.push(h),
        None => {}
    }
    Ok((hunks, i))
}

/// What follows `@@` in a V4A hunk header: nothing, an anchor, an anchor with a stray
/// trailing `@@`, or a unified-diff range (its line number kept as a hint).
fn v4a_hunk_header(rest: &str, line: usize, hunk: &mut Hunk, notes: &mut Notes) {
    if let Some(range) = RangeHeader::parse(rest) {
        notes.numeric_headers.push(line);
        hunk.line_hint = Some(range.old_start);
        if !range.heading.is_empty() {
            hunk.anchors.push(range.heading.to_string());
        }
        return;
    }
    let mut anchor = rest.trim();
    if let Some(stripped) = anchor.strip_suffix("@@") {
        anchor = stripped.trim_end();
        notes.trailing_at.push(line);
    }
    if !anchor.is_empty() {
        hunk.anchors.push(anchor.to_string());
    }
}
