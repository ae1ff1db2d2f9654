//! Notes: what reading a patch tells the agent besides the patch, the warnings for the
//! slips it tolerated, and the wording its refusals share.
//!
//! No grammar of its own: it is the record the grammars write to. Every tolerated
//! slip is noted where it is read, and `Notes::finish` turns the notes into at most
//! one warning per kind of slip, in this order, naming the patch lines involved (at
//! most 8; wrong hunk counts name every hunk with its header):
//!
//! | slip | noted in |
//! |------|----------|
//! | every line break CRLF | `mod.rs` |
//! | a Markdown code fence | `wrappers.rs`, `v4a.rs` (a lone closer after `*** End Patch`) |
//! | a leading `apply_patch` word | `wrappers.rs` |
//! | a heredoc | `wrappers.rs`, `v4a.rs` (a lone delimiter after `*** End Patch`) |
//! | white space around a marker | `v4a.rs` |
//! | `@@ <anchor> @@` | `v4a.rs` |
//! | a unified range `@@ -l,n +l,n @@` in a V4A patch | `v4a.rs` |
//! | an empty hunk line without its leading space (or `+`) | `v4a.rs`, `unified.rs` |
//! | hunk line counts that disagree with the hunk | `unified.rs` |
//!
//! Design decisions:
//!
//! - One warning per kind of slip, not per line: a long patch with one habit gets one
//!   sentence, and each sentence says what to send instead.
//! - A refusal reads `Patch line N: <what was expected, what was found>. Nothing was
//!   changed; fix the patch and send it again whole.` (`patch_parse`, diagnostics
//!   `{line}`); a patch that stops before `*** End Patch` is `patch_incomplete`
//!   (diagnostics `{last_line}`), told to resend whole or split per file.
//! - Patch lines in messages are backquoted and cut at 100 characters (`quote`).

use super::Line;
use crate::error::{EditError, ErrorKind};
use serde_json::json;

/// What was tolerated while reading, turned into warnings at the end.
#[derive(Default)]
pub(super) struct Notes {
    pub(super) crlf: bool,
    pub(super) fence: bool,
    pub(super) heredoc: bool,
    pub(super) command: bool,
    pub(super) padded: Vec<usize>,
    pub(super) trailing_at: Vec<usize>,
    pub(super) numeric_headers: Vec<usize>,
    pub(super) blank_lines: Vec<usize>,
    pub(super) wrong_counts: Vec<String>,
}

impl Notes {
    /// Notes a marker line that had whitespace around it.
    pub(super) fn padded_if(&mut self, line: usize, raw: &str, marker: &str) {
        if raw != marker && raw.trim() == marker {
            self.padded.push(line);
        }
    }

    /// The warnings, one per kind of slip noted.
    pub(super) fn finish(self) -> Vec<String> {
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
pub(super) fn quote(l: &str) -> String {
    let shown: String = l.trim_end().chars().take(100).collect();
    let more = if l.trim_end().chars().count() > 100 {
        "…"
    } else {
        ""
    };
    format!("`{shown}{more}`")
}

/// A `patch_parse` refusal at patch line `line`; `what` says what was expected there.
pub(super) fn parse_error(line: usize, what: &str) -> EditError {
    EditError::new(
        ErrorKind::PatchParse,
        format!(
            "Patch line {line}: {what} Nothing was changed; fix the patch and send it again whole."
        ),
    )
    .with_diagnostics(json!({"line": line}))
}

/// The `patch_incomplete` refusal, naming the last line received.
pub(super) fn incomplete(last: Line) -> EditError {
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
