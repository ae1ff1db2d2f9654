//! The grammar: from the text an agent sent to a [`Patch`].
//!
//! Reading happens in four steps:
//!
//! 1. Line breaks: a patch whose every line break is CRLF (it went through a Windows
//!    clipboard or a CRLF transport) is read as LF. A patch with CRLF on some lines only
//!    is a diff of a CRLF file and keeps those `\r`s as the file's own bytes.
//! 2. Wrappers: a Markdown code fence, a heredoc (`<<'EOF'` … `EOF`) and a leading
//!    `apply_patch` command word are peeled off, in any nesting.
//! 3. Format: a first line `*** Begin Patch` means V4A; `--- a/x` + `+++ b/x` or
//!    `diff --git` means a unified diff; V4A file headers without the envelope, or hunks
//!    without any file header, are `patch_parse` errors; anything else is source code
//!    sent instead of a patch (`patch_not_a_patch`, answered with an example).
//! 4. The format's own grammar (below), which tolerates the slips models make and
//!    reports each one in `warnings`.
//!
//! V4A follows Codex's grammar: `*** Add File: p` then `+` lines; `*** Delete File: p`;
//! `*** Update File: p`, optionally `*** Move to: q`, then hunks. A hunk is introduced by
//! `@@` or `@@ <anchor>` (the first hunk may omit it), and consecutive `@@` lines stack
//! anchors. Hunk lines start with ` `, `-` or `+`; `*** End of File` closes a hunk that
//! must end the file. Inside an update a line that starts with one space is always a
//! context line, so a file line reading `*** …` can be quoted as context.
//!
//! Unified diffs: line counts in `@@ -l,n +l,n @@` decide where a hunk ends only when
//! they agree with what follows; otherwise the hunk runs to the next header and a
//! warning says the counts were wrong. Line numbers become hints, never positions.

use super::{FileOp, Format, Hunk, Patch, PathChoice, Sign};
use crate::error::{EditError, EditResult, ErrorKind};
use serde_json::json;
use std::borrow::Cow;

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";
const END_OF_FILE: &str = "*** End of File";

/// A patch line: its 1-based number in the text as sent, and its text without line break.
type Line<'a> = (usize, &'a str);

/// A parsed patch and what was tolerated to read it.
#[derive(Debug)]
pub struct Parsed {
    pub patch: Patch,
    pub warnings: Vec<String>,
}

/// Reads `raw` as a V4A patch or a unified diff.
pub fn parse(raw: &str) -> EditResult<Parsed> {
    let mut notes = Notes::default();
    let text = read_line_breaks(raw, &mut notes);
    let all = split(&text);
    let lines = unwrap(&all, &mut notes);
    let patch = match detect(lines) {
        Detected::V4a => Patch {
            format: Format::V4a,
            ops: v4a(lines, &mut notes)?,
        },
        Detected::Unified => Patch {
            format: Format::Unified,
            ops: unified(lines, &mut notes)?,
        },
        Detected::Empty => {
            return Err(parse_error(
                1,
                "the patch is empty. Send `*** Begin Patch`, one or more file operations, and `*** End Patch`.",
            ))
        }
        Detected::BeginNotFirst(line) => {
            return Err(parse_error(
                lines.first().map_or(1, |l| l.0),
                &format!(
                    "expected `*** Begin Patch` as the first line, found {}. The envelope starts at line {line}: send the patch from `*** Begin Patch` to `*** End Patch` with nothing before it.",
                    quote(lines.first().map_or("", |l| l.1))
                ),
            ))
        }
        Detected::HeadersWithoutBegin => {
            return Err(parse_error(
                lines.first().map_or(1, |l| l.0),
                &format!(
                    "expected `*** Begin Patch`, found {}. A V4A patch is enclosed in `*** Begin Patch` … `*** End Patch`.",
                    quote(lines.first().map_or("", |l| l.1))
                ),
            ))
        }
        Detected::HunksWithoutHeader(line) => {
            return Err(parse_error(
                line,
                "this hunk names no file. Put it inside `*** Begin Patch` / `*** Update File: <path>` … `*** End Patch` (V4A), or after `--- a/<path>` and `+++ b/<path>` lines (unified diff).",
            ))
        }
        Detected::Code => return Err(not_a_patch(&all, lines)),
    };
    Ok(Parsed {
        patch,
        warnings: notes.finish(),
    })
}

// ---------------------------------------------------------------------------------------
// Line breaks, lines, wrappers

fn read_line_breaks<'a>(raw: &'a str, notes: &mut Notes) -> Cow<'a, str> {
    let lf = memchr::memchr_iter(b'\n', raw.as_bytes()).count();
    if lf > 0 && memchr::memmem::find_iter(raw.as_bytes(), b"\r\n").count() == lf {
        notes.crlf = true;
        Cow::Owned(raw.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(raw)
    }
}

fn split(text: &str) -> Vec<Line<'_>> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .collect()
}

/// Drops blank lines around the patch. At the end, a line of one space and more is
/// kept: it is a blank context line (the last context line of a diff often is).
fn trim_blank<'l, 'a>(lines: &'l [Line<'a>]) -> &'l [Line<'a>] {
    let start = lines
        .iter()
        .position(|l| !l.1.trim().is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.1.trim().is_empty() || l.1.starts_with(' '))
        .map_or(start, |i| i + 1);
    &lines[start..end.max(start)]
}

/// Peels off Markdown fences, heredocs and a leading `apply_patch` word, in any nesting.
fn unwrap<'l, 'a>(all: &'l [Line<'a>], notes: &mut Notes) -> &'l [Line<'a>] {
    let mut lines = trim_blank(all);
    loop {
        let Some(&(_, first)) = lines.first() else {
            return lines;
        };
        let first = first.trim();
        if first.starts_with("```") || first.starts_with("~~~") {
            notes.fence = true;
            lines = trim_blank(&lines[1..]);
            if lines.last().is_some_and(|l| is_fence_close(l.1.trim())) {
                lines = trim_blank(&lines[..lines.len() - 1]);
            }
            continue;
        }
        let (command, rest) = strip_command_word(first);
        if let Some(delimiter) = heredoc_delimiter(rest) {
            notes.command |= command;
            notes.heredoc = true;
            lines = trim_blank(&lines[1..]);
            if lines.last().is_some_and(|l| l.1.trim() == delimiter) {
                lines = trim_blank(&lines[..lines.len() - 1]);
            }
            continue;
        }
        if command && rest.is_empty() {
            notes.command = true;
            lines = trim_blank(&lines[1..]);
            continue;
        }
        return lines;
    }
}

fn is_fence_close(t: &str) -> bool {
    t.len() >= 3 && (t.bytes().all(|b| b == b'`') || t.bytes().all(|b| b == b'~'))
}

/// `("apply_patch <<'EOF'")` → `(true, "<<'EOF'")`.
fn strip_command_word(line: &str) -> (bool, &str) {
    for word in ["apply_patch", "applypatch"] {
        if let Some(rest) = line.strip_prefix(word) {
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                return (true, rest.trim());
            }
        }
    }
    (false, line)
}

/// The delimiter of a heredoc opener such as `<<'EOF'`, `<<EOF`, `<< "PATCH"`, `<<-EOF`.
fn heredoc_delimiter(s: &str) -> Option<&str> {
    let s = s.strip_prefix("<<")?;
    let s = s.strip_prefix('-').unwrap_or(s).trim_start();
    let (word, after) = match s.chars().next()? {
        q @ ('\'' | '"') => {
            let inner = &s[1..];
            let end = inner.find(q)?;
            (&inner[..end], &inner[end + 1..])
        }
        _ => {
            let end = s
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len());
            (&s[..end], &s[end..])
        }
    };
    let word_ok = !word.is_empty() && word.chars().all(|c| c.is_alphanumeric() || c == '_');
    (word_ok && after.trim().is_empty()).then_some(word)
}

enum Detected {
    V4a,
    Unified,
    Empty,
    BeginNotFirst(usize),
    HeadersWithoutBegin,
    HunksWithoutHeader(usize),
    Code,
}

fn detect(lines: &[Line]) -> Detected {
    let Some(&(_, first)) = lines.first() else {
        return Detected::Empty;
    };
    if first.trim() == BEGIN {
        return Detected::V4a;
    }
    if let Some(&(n, _)) = lines.iter().find(|l| l.1.trim() == BEGIN) {
        return Detected::BeginNotFirst(n);
    }
    let unified = lines.iter().enumerate().any(|(i, l)| {
        l.1.starts_with("diff --git ")
            || (l.1.starts_with("--- ")
                && lines.get(i + 1).is_some_and(|n| n.1.starts_with("+++ ")))
    });
    if unified {
        return Detected::Unified;
    }
    let v4a_header = |l: &&Line| {
        let t = l.1.trim();
        t.starts_with(ADD) || t.starts_with(DELETE) || t.starts_with(UPDATE)
    };
    if lines.iter().any(|l| v4a_header(&l)) {
        return Detected::HeadersWithoutBegin;
    }
    if let Some(&(n, _)) = lines.iter().find(|l| l.1.starts_with("@@")) {
        return Detected::HunksWithoutHeader(n);
    }
    Detected::Code
}

// ---------------------------------------------------------------------------------------
// V4A

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

fn v4a(lines: &[Line], notes: &mut Notes) -> EditResult<Vec<FileOp>> {
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

/// `-l[,n] +l[,n] @@ heading` (what follows the first `@@` of a unified hunk header).
struct RangeHeader<'a> {
    old_start: usize,
    old_count: usize,
    new_count: usize,
    heading: &'a str,
}

impl<'a> RangeHeader<'a> {
    fn parse(rest: &'a str) -> Option<RangeHeader<'a>> {
        let s = rest.trim_start().strip_prefix('-')?;
        let (old_start, old_count, s) = range(s)?;
        let s = s.trim_start().strip_prefix('+')?;
        let (_, new_count, s) = range(s)?;
        let s = s.trim_start().strip_prefix("@@")?;
        Some(RangeHeader {
            old_start,
            old_count,
            new_count,
            heading: s.trim(),
        })
    }
}

/// `12,7…` → (12, 7, rest); `12…` → (12, 1, rest).
fn range(s: &str) -> Option<(usize, usize, &str)> {
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let d = digits(s);
    let start: usize = s[..d].parse().ok()?;
    let s = &s[d..];
    match s.strip_prefix(',') {
        Some(s) => {
            let d = digits(s);
            let count: usize = s[..d].parse().ok()?;
            Some((start, count, &s[d..]))
        }
        None => Some((start, 1, s)),
    }
}

// ---------------------------------------------------------------------------------------
// Unified diffs

/// What `diff --git` and its extended header lines said about one file.
#[derive(Default)]
struct Git {
    line: usize,
    a: Option<String>,
    b: Option<String>,
    new_file: bool,
    deleted: bool,
    rename_from: Option<String>,
    rename_to: Option<String>,
}

impl Git {
    fn new(line: usize, rest: &str) -> Git {
        let (a, b) = match rest.find(" b/") {
            Some(i) => (
                rest[..i].strip_prefix("a/").map(str::to_string),
                Some(rest[i + 3..].to_string()),
            ),
            None => (None, None),
        };
        Git {
            line,
            a,
            b,
            ..Git::default()
        }
    }

    /// Records an extended header line; false when `l` is not one.
    fn extended(&mut self, n: usize, l: &str) -> EditResult<bool> {
        const IGNORED: [&str; 5] = [
            "index ",
            "old mode ",
            "new mode ",
            "similarity index ",
            "dissimilarity index ",
        ];
        if IGNORED.iter().any(|p| l.starts_with(p)) {
            return Ok(true);
        }
        if l.starts_with("new file mode ") {
            self.new_file = true;
        } else if l.starts_with("deleted file mode ") {
            self.deleted = true;
        } else if let Some(p) = l.strip_prefix("rename from ") {
            self.rename_from = Some(unquote(p));
        } else if let Some(p) = l.strip_prefix("rename to ") {
            self.rename_to = Some(unquote(p));
        } else if l.starts_with("copy from ") || l.starts_with("copy to ") {
            return Err(parse_error(
                n,
                "git copies are not supported. Send the new file as `--- /dev/null` / `+++ b/<path>` with every line added (or `*** Add File:` in V4A).",
            ));
        } else if l.starts_with("Binary files ") || l.starts_with("GIT binary patch") {
            return Err(parse_error(
                n,
                "binary diffs cannot be applied: apply_patch edits text files only.",
            ));
        } else {
            return Ok(false);
        }
        Ok(true)
    }
}

fn unified(lines: &[Line], notes: &mut Notes) -> EditResult<Vec<FileOp>> {
    let mut ops = Vec::new();
    let mut git: Option<Git> = None;
    let mut in_files = false;
    let mut i = 0;
    while let Some(&(n, l)) = lines.get(i) {
        if let Some(rest) = l.strip_prefix("diff --git ") {
            if let Some(g) = git.take() {
                git_only(g, &mut ops);
            }
            git = Some(Git::new(n, rest));
            in_files = true;
            i += 1;
            continue;
        }
        if let Some(g) = git.as_mut() {
            if g.extended(n, l)? {
                i += 1;
                continue;
            }
        }
        if l.starts_with("--- ") && lines.get(i + 1).is_some_and(|x| x.1.starts_with("+++ ")) {
            let old = header_path(&l[4..]);
            let new = header_path(&lines[i + 1].1[4..]);
            i += 2;
            let mut hunks = Vec::new();
            while lines.get(i).is_some_and(|x| x.1.starts_with("@@")) {
                let (hunk, next) = unified_hunk(lines, i, notes)?;
                hunks.push(hunk);
                i = next;
            }
            ops.push(unified_op(n, old, new, git.take(), hunks)?);
            in_files = true;
            continue;
        }
        if l.starts_with("--- ") {
            return Err(parse_error(
                n,
                "`--- <old path>` must be followed by `+++ <new path>` on the next line.",
            ));
        }
        if l.starts_with("+++ ") {
            return Err(parse_error(
                n,
                "`+++ <new path>` must follow a `--- <old path>` line.",
            ));
        }
        if l.starts_with("@@") {
            return Err(parse_error(
                n,
                "this hunk comes before any `--- a/<path>` / `+++ b/<path>` file header (or right after an extended git header without them).",
            ));
        }
        if l == "-- " || l == "--" {
            // A mail signature (`git format-patch`): nothing after it is part of the diff.
            break;
        }
        if in_files && (l.starts_with(' ') || l.starts_with('+') || l.starts_with('-')) {
            return Err(parse_error(
                n,
                &format!(
                    "{} looks like a hunk line, but no `@@` hunk header is open here (the previous hunk ended, or its header is missing).",
                    quote(l)
                ),
            ));
        }
        // Commit messages, `Index:` lines, separators: not part of any file's diff.
        i += 1;
    }
    if let Some(g) = git.take() {
        git_only(g, &mut ops);
    }
    if ops.is_empty() {
        return Err(parse_error(
            lines.first().map_or(1, |l| l.0),
            "the diff changes no file: it has no `--- a/<path>` / `+++ b/<path>` header followed by `@@` hunks.",
        ));
    }
    Ok(ops)
}

/// A `diff --git` section without `---`/`+++` lines: a pure rename, an empty new or
/// deleted file, or a mode change (which has nothing to apply).
fn git_only(g: Git, ops: &mut Vec<FileOp>) {
    if let (Some(from), Some(to)) = (g.rename_from.clone(), g.rename_to.clone()) {
        ops.push(FileOp::Update {
            path: PathChoice::exact(from),
            move_to: Some(to),
            hunks: Vec::new(),
            line: g.line,
        });
    } else if g.new_file {
        if let Some(b) = g.b {
            ops.push(FileOp::Add {
                path: b,
                content: String::new(),
                line: g.line,
            });
        }
    } else if g.deleted {
        if let Some(a) = g.a {
            ops.push(FileOp::Delete {
                path: PathChoice::exact(a),
                hunks: Vec::new(),
                line: g.line,
            });
        }
    }
}

/// The path in a `---`/`+++` line: up to a tab (timestamps follow it), unquoted.
fn header_path(s: &str) -> Option<String> {
    let p = s.split('\t').next().unwrap_or("").trim();
    let p = unquote(p);
    (p != "/dev/null" && !p.is_empty()).then_some(p)
}

/// Removes git's C-style quotes (`"a/with space"`).
fn unquote(s: &str) -> String {
    let s = s.trim();
    let Some(inner) = s.strip_prefix('"').and_then(|x| x.strip_suffix('"')) else {
        return s.to_string();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Drops `a/`/`b/` (or any first folder the two sides disagree on while the rest is
/// equal). Returns (old, new, the unstripped spellings to fall back on).
fn strip_prefixes(
    old: Option<&str>,
    new: Option<&str>,
) -> (Option<String>, Option<String>, Vec<String>) {
    let git_style =
        old.is_none_or(|o| o.starts_with("a/")) && new.is_none_or(|n| n.starts_with("b/"));
    if git_style && (old.is_some() || new.is_some()) {
        let fallbacks = old
            .iter()
            .chain(new.iter())
            .map(|p| p.to_string())
            .collect();
        return (
            old.map(|o| o[2..].to_string()),
            new.map(|n| n[2..].to_string()),
            fallbacks,
        );
    }
    if let (Some(o), Some(n)) = (old, new) {
        if let (Some((o1, orest)), Some((n1, nrest))) = (o.split_once('/'), n.split_once('/')) {
            if o1 != n1 && orest == nrest && !orest.is_empty() {
                return (
                    Some(orest.to_string()),
                    Some(nrest.to_string()),
                    vec![o.to_string(), n.to_string()],
                );
            }
        }
    }
    (old.map(str::to_string), new.map(str::to_string), Vec::new())
}

fn unified_op(
    line: usize,
    old: Option<String>,
    new: Option<String>,
    git: Option<Git>,
    hunks: Vec<Hunk>,
) -> EditResult<FileOp> {
    let git = git.unwrap_or_default();
    // An operation starts at its `diff --git` line when it has one.
    let line = if git.line > 0 { git.line } else { line };
    let (old_p, new_p, raw) = strip_prefixes(old.as_deref(), new.as_deref());
    if let (Some(from), Some(to)) = (&git.rename_from, &git.rename_to) {
        return Ok(FileOp::Update {
            path: PathChoice::exact(from.clone()),
            move_to: Some(to.clone()),
            hunks,
            line,
        });
    }
    if old_p.is_none() || git.new_file {
        let Some(path) = new_p.or(old_p) else {
            return Err(parse_error(
                line,
                "both `---` and `+++` name /dev/null: the diff names no file.",
            ));
        };
        return Ok(FileOp::Add {
            content: new_file_content(&hunks)?,
            path,
            line,
        });
    }
    let choice = |primary: String, others: Vec<Option<String>>| {
        let mut fallbacks: Vec<String> = Vec::new();
        for p in others.into_iter().flatten().chain(raw.iter().cloned()) {
            if p != primary && !fallbacks.contains(&p) {
                fallbacks.push(p);
            }
        }
        PathChoice {
            path: primary,
            fallbacks,
        }
    };
    let old_path = old_p.clone().unwrap_or_default();
    if new_p.is_none() || git.deleted {
        return Ok(FileOp::Delete {
            path: choice(old_path, Vec::new()),
            hunks,
            line,
        });
    }
    if hunks.is_empty() {
        return Err(parse_error(
            line,
            "this file header has no `@@` hunk after it. Each `--- a/<path>` / `+++ b/<path>` pair is followed by hunks.",
        ));
    }
    let new_path = new_p.unwrap_or_default();
    // A git header naming two different paths is a rename; a plain diff naming two
    // (`x.orig`, `x`) patches the one that exists, the new name first.
    if git.a.is_some() && git.b.is_some() && old_path != new_path {
        return Ok(FileOp::Update {
            path: choice(old_path, Vec::new()),
            move_to: Some(new_path),
            hunks,
            line,
        });
    }
    Ok(FileOp::Update {
        path: choice(new_path, vec![Some(old_path)]),
        move_to: None,
        hunks,
        line,
    })
}

fn new_file_content(hunks: &[Hunk]) -> EditResult<String> {
    let mut lines: Vec<&str> = Vec::new();
    let mut no_newline = false;
    for h in hunks {
        if !h.is_pure_addition() {
            return Err(parse_error(
                h.line,
                "a new file's hunk (`--- /dev/null`) can only add lines (`+`).",
            ));
        }
        lines.extend(h.new_lines());
        no_newline = h.new_no_newline;
    }
    let mut text = lines.join("\n");
    if !lines.is_empty() && !no_newline {
        text.push('\n');
    }
    Ok(text)
}

/// True at a line that starts something other than a hunk line.
fn is_boundary(lines: &[Line], i: usize) -> bool {
    let Some(&(_, l)) = lines.get(i) else {
        return true;
    };
    l.starts_with("@@")
        || l.starts_with("diff ")
        || l.starts_with("Index: ")
        || l == "-- "
        || (l.starts_with("--- ") && lines.get(i + 1).is_some_and(|x| x.1.starts_with("+++ ")))
}

/// A `--- x` / `+++ y` pair directly followed by a hunk header: a file header whatever
/// the counts of the previous hunk said.
fn is_file_header(lines: &[Line], i: usize) -> bool {
    lines.get(i).is_some_and(|x| x.1.starts_with("--- "))
        && lines.get(i + 1).is_some_and(|x| x.1.starts_with("+++ "))
        && lines.get(i + 2).is_some_and(|x| x.1.starts_with("@@"))
}

/// Reads a unified hunk header after its `@@` into `hunk` (line hint or anchor);
/// the announced (old, new) line counts, when it has a range.
fn read_hunk_header(rest: &str, hunk: &mut Hunk) -> Option<(usize, usize)> {
    match RangeHeader::parse(rest) {
        Some(r) => {
            hunk.line_hint = Some(r.old_start);
            Some((r.old_count, r.new_count))
        }
        None => {
            // `@@`, or a V4A-style `@@ <anchor> @@` in a unified diff.
            let mut anchor = rest.trim();
            if let Some(s) = anchor.strip_suffix("@@") {
                anchor = s.trim_end();
            }
            if !anchor.is_empty() {
                hunk.anchors.push(anchor.to_string());
            }
            None
        }
    }
}

/// `\ No newline at end of file`: about the line before it.
fn no_newline_marker(hunk: &mut Hunk) {
    match hunk.lines.last().map(|x| x.0) {
        Some(Sign::Context) => {
            hunk.old_no_newline = true;
            hunk.new_no_newline = true;
        }
        Some(Sign::Remove) => hunk.old_no_newline = true,
        Some(Sign::Add) => hunk.new_no_newline = true,
        None => {}
    }
}

fn unified_hunk(lines: &[Line], start: usize, notes: &mut Notes) -> EditResult<(Hunk, usize)> {
    let (n, header_line) = lines[start];
    let rest = &header_line[2..];
    let mut hunk = Hunk::new(n);
    let counts = read_hunk_header(rest, &mut hunk);
    let (mut old_n, mut new_n) = (0usize, 0usize);
    let mut blanks: Vec<usize> = Vec::new();
    let mut i = start + 1;
    while let Some(&(m, l)) = lines.get(i) {
        let outstanding = counts.is_some_and(|(o, nw)| old_n < o || new_n < nw);
        if l.starts_with('\\') {
            no_newline_marker(&mut hunk);
            i += 1;
            continue;
        }
        if l.starts_with("@@") || l.starts_with("diff --git ") || is_file_header(lines, i) {
            break;
        }
        if !outstanding && is_boundary(lines, i) {
            break;
        }
        let (sign, text) = match l.as_bytes().first() {
            Some(b' ') => (Sign::Context, &l[1..]),
            Some(b'-') => (Sign::Remove, &l[1..]),
            Some(b'+') => (Sign::Add, &l[1..]),
            _ if l.trim().is_empty() => {
                blanks.push(m);
                i += 1;
                continue;
            }
            _ if outstanding => {
                return Err(parse_error(
                    m,
                    &format!(
                        "expected a hunk line starting with ' ', '-' or '+', found {}. An unchanged line needs a leading space.",
                        quote(l)
                    ),
                ))
            }
            _ => break,
        };
        for b in blanks.drain(..) {
            notes.blank_lines.push(b);
            hunk.lines.push((Sign::Context, String::new()));
            old_n += 1;
            new_n += 1;
        }
        // A line of the other side after `\ No newline` means it was not the last.
        match sign {
            Sign::Context => {
                hunk.old_no_newline = false;
                hunk.new_no_newline = false;
                old_n += 1;
                new_n += 1;
            }
            Sign::Remove => {
                hunk.old_no_newline = false;
                old_n += 1;
            }
            Sign::Add => {
                hunk.new_no_newline = false;
                new_n += 1;
            }
        }
        hunk.lines.push((sign, text.to_string()));
        i += 1;
    }
    // Empty lines at the end are separators, unless the counts say they are blank
    // context lines whose leading space was stripped on the way.
    if let Some((o, nw)) = counts {
        let missing = o.saturating_sub(old_n);
        if missing > 0 && missing == nw.saturating_sub(new_n) && missing <= blanks.len() {
            for &b in &blanks[..missing] {
                notes.blank_lines.push(b);
                hunk.lines.push((Sign::Context, String::new()));
            }
            old_n += missing;
            new_n += missing;
        }
        if (old_n, new_n) != (o, nw) {
            notes.wrong_counts.push(format!(
                "line {n} (`{}` announces {o} old and {nw} new lines; the hunk has {old_n} and {new_n})",
                header_line.trim()
            ));
        }
    }
    if hunk.lines.is_empty() {
        return Err(parse_error(
            n,
            "this hunk has no lines. After `@@ … @@` come lines starting with ' ', '-' or '+'.",
        ));
    }
    Ok((hunk, i))
}

// ---------------------------------------------------------------------------------------
// Warnings and errors

/// What was tolerated while reading, turned into warnings at the end.
#[derive(Default)]
struct Notes {
    crlf: bool,
    fence: bool,
    heredoc: bool,
    command: bool,
    padded: Vec<usize>,
    trailing_at: Vec<usize>,
    numeric_headers: Vec<usize>,
    blank_lines: Vec<usize>,
    wrong_counts: Vec<String>,
}

impl Notes {
    /// Notes a marker line that had whitespace around it.
    fn padded_if(&mut self, line: usize, raw: &str, marker: &str) {
        if raw != marker && raw.trim() == marker {
            self.padded.push(line);
        }
    }

    fn finish(self) -> Vec<String> {
        let mut w = Vec::new();
        if self.crlf {
            w.push("The patch had CRLF line breaks; it was read as LF (each file keeps its own line endings).".to_string());
        }
        if self.fence {
            w.push(
                "The Markdown code fence around the patch was removed; send the patch text alone."
                    .to_string(),
            );
        }
        if self.command {
            w.push(
                "The leading `apply_patch` command word was removed; send the patch text alone."
                    .to_string(),
            );
        }
        if self.heredoc {
            w.push("The heredoc wrapper (`<<'EOF'` … `EOF`) around the patch was removed; send the patch text alone.".to_string());
        }
        if !self.padded.is_empty() {
            w.push(format!(
                "Whitespace around the patch markers on {} was ignored.",
                line_list(&self.padded)
            ));
        }
        if !self.trailing_at.is_empty() {
            w.push(format!(
                "A trailing ` @@` after the anchor on {} was dropped: a V4A anchor is written `@@ <line of the file>`.",
                line_list(&self.trailing_at)
            ));
        }
        if !self.numeric_headers.is_empty() {
            w.push(format!(
                "The unified-diff range (`@@ -l,n +l,n @@`) on {} of this V4A patch was read as a bare `@@`; its line number only chooses between equal matches.",
                line_list(&self.numeric_headers)
            ));
        }
        if !self.blank_lines.is_empty() {
            w.push(format!(
                "The empty {} of the patch had no leading space (or `+`); read as blank lines of the hunk.",
                line_list(&self.blank_lines)
            ));
        }
        if !self.wrong_counts.is_empty() {
            w.push(format!(
                "Hunk line counts were wrong at patch {}; the hunks were read as sent (counts are not trusted).",
                self.wrong_counts.join(", ")
            ));
        }
        w
    }
}

/// "line 4" or "lines 4, 9 and 12" (at most 8 listed).
fn line_list(lines: &[usize]) -> String {
    let shown: Vec<String> = lines.iter().take(8).map(|l| l.to_string()).collect();
    let more = lines.len().saturating_sub(8);
    let mut s = match shown.len() {
        0 => String::new(),
        1 => format!("line {}", shown[0]),
        k => format!("lines {} and {}", shown[..k - 1].join(", "), shown[k - 1]),
    };
    if more > 0 {
        s.push_str(&format!(" (and {more} more)"));
    }
    s
}

/// A patch line for messages: backquoted, shortened.
fn quote(l: &str) -> String {
    let shown: String = l.trim_end().chars().take(100).collect();
    let more = if l.trim_end().chars().count() > 100 {
        "…"
    } else {
        ""
    };
    format!("`{shown}{more}`")
}

fn parse_error(line: usize, what: &str) -> EditError {
    EditError::new(
        ErrorKind::PatchParse,
        format!(
            "Patch line {line}: {what} Nothing was changed; fix the patch and send it again whole."
        ),
    )
    .with_diagnostics(json!({"line": line}))
}

fn incomplete(last: Line) -> EditError {
    EditError::new(
        ErrorKind::PatchIncomplete,
        format!(
            "The patch ends without `*** End Patch` (the last line received is line {}: {}): it was probably cut off in transit. Nothing was changed. Send the complete patch again, ending with `*** End Patch`; if it is long, split it into several apply_patch calls (for example one per file).",
            last.0,
            quote(last.1)
        ),
    )
    .with_diagnostics(json!({"last_line": last.0}))
}

/// The refusal for text that is no patch, with an example built from what was sent.
fn not_a_patch(all: &[Line], lines: &[Line]) -> EditError {
    let path = guess_path(all);
    let shown = path.as_deref().unwrap_or("path/to/file");
    let anchor: String = lines
        .iter()
        .map(|l| l.1.trim())
        .find(|l| !l.is_empty() && path.as_deref().is_none_or(|p| !l.contains(p)))
        .unwrap_or("<a line of the file above the change>")
        .chars()
        .take(80)
        .collect();
    let example = format!(
        "*** Begin Patch\n*** Update File: {shown}\n@@ {anchor}\n-<a line to remove, copied exactly from the file>\n+<the line to put in its place>\n*** End Patch"
    );
    let whole = format!("create_file {{path: \"{shown}\", content: \"…\", overwrite: true}}");
    EditError::new(
        ErrorKind::PatchNotAPatch,
        format!(
            "This is not a patch: it has no `*** Begin Patch` envelope and no `--- a/<path>` / `+++ b/<path>` diff header (it starts with {}), so it looks like source code sent as is. Nothing was changed. apply_patch needs the file's path and a mark on every line: ' ' unchanged, '-' removed, '+' added. For example:\n{example}\nTo replace a whole file instead, use {whole}.",
            quote(lines.first().map_or("", |l| l.1))
        ),
    )
    .with_diagnostics(json!({"example": example, "guessed_path": path}))
}

/// A file path mentioned in the first lines (`# src/app.py`, "```python app.py").
fn guess_path(lines: &[Line]) -> Option<String> {
    const EXTENSIONS: [&str; 44] = [
        "py", "rs", "js", "ts", "tsx", "jsx", "mjs", "go", "java", "kt", "c", "h", "cc", "cpp",
        "hpp", "cs", "rb", "php", "swift", "scala", "lua", "sql", "sh", "md", "json", "toml",
        "yaml", "yml", "txt", "html", "css", "scss", "xml", "vue", "svelte", "ex", "exs", "hs",
        "ml", "dart", "zig", "ini", "cfg", "coffee",
    ];
    lines
        .iter()
        .filter(|l| !l.1.trim().is_empty())
        .take(3)
        .flat_map(|l| l.1.split_whitespace())
        .map(|w| w.trim_matches(|c: char| "`'\"*:,;()[]<>".contains(c)))
        .find(|w| {
            let Some((stem, ext)) = w.rsplit_once('.') else {
                return false;
            };
            !stem.is_empty()
                && !stem.ends_with('/')
                && EXTENSIONS.contains(&ext)
                && w.chars().all(|c| c.is_alphanumeric() || "._-/".contains(c))
        })
        .map(str::to_string)
}
