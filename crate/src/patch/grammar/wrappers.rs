//! Wrappers: what models put around a patch, peeled off before its format is read.
//!
//! ```text
//! input        = { blank } , wrapped , { blank } ;
//! wrapped      = fence-open , { blank } , wrapped , { blank } , [ fence-close ]
//!              | [ command ] , heredoc-open , { blank } , wrapped , { blank } , [ delimiter ]
//!              | command , { blank } , wrapped
//!              | patch ;                     (* v4a.rs or unified.rs *)
//! fence-open   = ( "```" | "~~~" ) , { char } ;   (* an info string: ```diff *)
//! fence-close  = "```" , { "`" } | "~~~" , { "~" } ;
//! command      = "apply_patch" | "applypatch" ;
//! heredoc-open = "<<" , [ "-" ] , ( word | "'" , word , "'" | '"' , word , '"' ) ;
//! delimiter    = word ;                      (* the heredoc-open's own word *)
//! word         = ( letter | digit | "_" ) , { letter | digit | "_" } ;
//! blank        = { white space } , LF ;
//! ```
//!
//! Every symbol but `patch` is one whole line, read with the white space around it
//! (and between `command`, `<<` and the word) ignored.
//!
//! Design decisions:
//!
//! - Wrappers nest in any order and to any depth: the peeling is a loop on the first
//!   line, and each kind removed is noted once (a warning asks for the bare patch).
//! - The closing half is optional: it is removed when it is the last line, and a
//!   missing one (cut off, or never sent) is no error. The opposite loss, a closer kept
//!   after `*** End Patch` whose opener was lost, is V4A's to see (`v4a_end`).
//! - `apply_patch` followed by anything but a heredoc is left alone: it is not a
//!   command line, and the format step refuses it with the line quoted.
//! - Blank lines are trimmed at both ends, except that at the end a line starting with
//!   a space is kept: it is a blank context line (the last line of a diff often is).

use super::notes::Notes;
use super::Line;

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
pub(super) fn unwrap<'l, 'a>(all: &'l [Line<'a>], notes: &mut Notes) -> &'l [Line<'a>] {
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

/// A closing fence: three or more backquotes, or three or more tildes, alone.
pub(super) fn is_fence_close(t: &str) -> bool {
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
