//! Unified diffs (`diff -u`, `git diff`, `git format-patch`), read leniently.
//!
//! ```text
//! diff       = { preamble | file } , [ signature , { line } ] ;
//! file       = git-header , [ paths , { hunk } ]
//!            | paths , { hunk } ;
//! git-header = "diff --git " , [ "a/" , path ] , [ " b/" , path ] , { extended } ;
//! extended   = ( "index " | "old mode " | "new mode " | "similarity index "
//!              | "dissimilarity index " | "new file mode " | "deleted file mode " ) , text
//!            | ( "rename from " | "rename to " ) , path ;
//! paths      = "--- " , side , LF , "+++ " , side ;
//! side       = ( "/dev/null" | path ) , [ TAB , text ] ;  (* a timestamp after the tab *)
//! hunk       = "@@" , ( range | [ anchor ] , [ "@@" ] ) ,
//!              { hunk-line | no-newline | blank } ;
//! range      = " -" , n , [ "," , n ] , " +" , n , [ "," , n ] , " @@" , [ heading ] ;
//! hunk-line  = " " , text | "-" , text | "+" , text ;
//! no-newline = "\" , text ;                      (* `\ No newline at end of file` *)
//! signature  = "-- " | "--" ;                    (* a mail signature: the diff ends *)
//! preamble   = line ;                            (* commit message, `Index:`, separators *)
//! ```
//!
//! A `path` may be in git's C-style quotes; white space may separate a range's parts.
//! Refused with the line named: `copy from`/`copy to` and binary diffs, a `---` line
//! without `+++` after it (or the reverse), a hunk before any file header, and a line
//! shaped like a hunk line once the files have started but no hunk is open.
//!
//! Design decisions:
//!
//! - Where a hunk ends: its line counts decide only when they agree with what follows.
//!   A hunk always ends at the next `@@`, `diff --git`, or `---`/`+++`/`@@` triple; while
//!   its counts are not met it takes every hunk line and empty line (anything else is
//!   refused); once they are met, or without counts, it also ends at `diff `, `Index: `,
//!   `-- `, a `---`/`+++` pair, or any other line. Counts that disagree with the hunk
//!   read are noted, never trusted.
//! - An empty line followed by more hunk lines is a blank context line whose leading
//!   space was stripped (noted); at the end of a hunk, empty lines are blank context
//!   only as far as the counts miss exactly that many on both sides.
//! - `\ No newline at end of file` is about the line before it; a later line of the
//!   same side means that line was not the last.
//! - Line numbers become hints (`line_hint`) that only break ties, never positions.
//! - Paths: `a/` and `b/` are dropped when both sides look like git's (the spelling as
//!   sent is kept as a fallback: a project may have a top-level `a/` folder), as is a
//!   first folder the two sides disagree on while the rest is equal.
//! - Which operation: both sides `/dev/null` is refused; `--- /dev/null` or
//!   `new file mode` adds (every line `+`); `+++ /dev/null` or `deleted file mode`
//!   deletes (its lines must be the file's); `rename from`/`rename to`, or a git header
//!   naming two different paths, moves; a plain diff naming two paths (`x.orig`, `x`)
//!   updates the new one, the old one as a fallback. A `diff --git` section without
//!   `---`/`+++` is a pure rename, an empty added or deleted file, or a mode change
//!   (nothing to apply). An operation starts at its `diff --git` line when it has one.
//! - [`RangeHeader`] is read here and by V4A, which tolerates a unified range.

use super::notes::{parse_error, quote, Notes};
use super::Line;
use crate::error::EditResult;
use crate::patch::{FileOp, Hunk, PathChoice, Sign};

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

/// The file operations of a unified diff.
pub(super) fn parse(lines: &[Line], notes: &mut Notes) -> EditResult<Vec<FileOp>> {
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

/// `-l[,n] +l[,n] @@ heading` (what follows the first `@@` of a unified hunk header).
pub(super) struct RangeHeader<'a> {
    pub(super) old_start: usize,
    old_count: usize,
    new_count: usize,
    pub(super) heading: &'a str,
}

impl<'a> RangeHeader<'a> {
    pub(super) fn parse(rest: &'a str) -> Option<RangeHeader<'a>> {
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
