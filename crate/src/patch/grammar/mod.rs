//! The grammar: from the text an agent sent to a [`Patch`].
//!
//! ```text
//! input  = wrapped ( body ) ;       (* wrappers.rs: a fence, a heredoc, `apply_patch` *)
//! body   = v4a-patch                (* v4a.rs: the first line is `*** Begin Patch` *)
//!        | unified-diff ;           (* unified.rs: `diff --git `, or `--- ` then `+++ ` *)
//! line   = { char - LF } , LF ;     (* the last LF may be missing *)
//! ```
//!
//! Reading happens in four steps:
//!
//! 1. Line breaks: a patch whose every line break is CRLF (it went through a Windows
//!    clipboard or a CRLF transport) is read as LF. A patch with CRLF on some lines only
//!    is a diff of a CRLF file and keeps those `\r`s as the file's own bytes.
//! 2. Wrappers ([`wrappers`]): a Markdown code fence, a heredoc (`<<'EOF'` … `EOF`) and
//!    a leading `apply_patch` command word are peeled off, in any nesting.
//! 3. Format (here): a first line `*** Begin Patch` means V4A; `--- a/x` + `+++ b/x` or
//!    `diff --git` means a unified diff; V4A file headers without the envelope, or hunks
//!    without any file header, are `patch_parse` errors; anything else is source code
//!    sent instead of a patch (`patch_not_a_patch`, answered with an example).
//! 4. The format's own grammar ([`v4a`], [`unified`]), which tolerates the slips models
//!    make and notes each one ([`notes`]) for `warnings`.
//!
//! Design decisions:
//!
//! - Both formats are read into the one [`Patch`] representation; only the apply step
//!   looks at [`Format`], and only for how line numbers are used.
//! - Every line keeps its number in the text as sent (before any wrapper is peeled off),
//!   so an error names the line the agent can find in what it sent.
//! - A tolerated slip is never silent (a warning per kind of slip); an untolerated one
//!   is a refusal naming the patch line and what was expected there.

mod notes;
mod unified;
mod v4a;
mod wrappers;

use crate::error::{EditError, EditResult, ErrorKind};
use crate::patch::{Format, Patch};
use notes::{parse_error, quote, Notes};
use serde_json::json;
use std::borrow::Cow;
use v4a::{ADD, BEGIN, DELETE, UPDATE};

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
    let lines = wrappers::unwrap(&all, &mut notes);
    let patch = match detect(lines) {
        Detected::V4a => Patch {
            format: Format::V4a,
            ops: v4a::parse(lines, &mut notes)?,
        },
        Detected::Unified => Patch {
            format: Format::Unified,
            ops: unified::parse(lines, &mut notes)?,
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

/// Step 1, line breaks: a patch whose every line break is CRLF is read as LF (noted).
fn read_line_breaks<'a>(raw: &'a str, notes: &mut Notes) -> Cow<'a, str> {
    let lf = memchr::memchr_iter(b'\n', raw.as_bytes()).count();
    if lf > 0 && memchr::memmem::find_iter(raw.as_bytes(), b"\r\n").count() == lf {
        notes.crlf = true;
        Cow::Owned(raw.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(raw)
    }
}

/// The lines of `text`, numbered from 1 (a final line break ends the last line).
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

/// What the first lines say the text is.
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
