//! The result of a call, as every host receives it (DESIGN.md, "The tool call contract").

use crate::error::EditError;
use crate::text::Point;
use serde::Serialize;
use serde_json::{Map, Value};

/// A replacement of a range of the text as it was before the call.
///
/// Ranges refer to the text the host handed in. A call's edits for one file are sorted,
/// never overlap, and are meant to be applied together (last to first when applying one
/// at a time), which is how Pulsar's `setTextInRange` in a transaction and VS Code's
/// `WorkspaceEdit` consume them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Edit {
    /// The range replaced, in the old text.
    pub range: Range,
    /// The replacement text.
    pub text: String,
}

/// Applies a file's edits to the text they were computed against, the way a host does:
/// ranges refer to `old` (columns in UTF-16 code units) and are applied last to first.
/// This is the reference meaning of `edits`; positions past a line's end clamp to it.
pub fn apply_edits(old: &str, edits: &[Edit]) -> String {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(old.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |p: Point| -> usize {
        let Some(&start) = starts.get(p.row) else {
            return old.len();
        };
        let mut units = 0;
        for (i, c) in old[start..].char_indices() {
            if units >= p.column || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        old.len()
    };
    let mut out = old.to_string();
    for e in edits.iter().rev() {
        let (s, t) = (offset(e.range.start), offset(e.range.end));
        if s <= t {
            out.replace_range(s..t, &e.text);
        }
    }
    out
}

/// A range of a text between two points (UTF-16 columns), end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Range {
    /// The first position of the range.
    pub start: Point,
    /// The position just past the range.
    pub end: Point,
}

/// One file the call changed (or, in a dry run, would change).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileChange {
    /// The file's path, relative to the root.
    pub path: String,
    /// Unified diff of the file before and after.
    pub diff: String,
    /// Minimal replacements that turn the old text into the new one.
    pub edits: Vec<Edit>,
    /// Lines added minus lines removed.
    pub line_delta: i64,
    /// The new text's line count.
    pub line_count: usize,
    /// The version of the new text, to pass as `expected_version` next time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The call created the file.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
    /// The call deleted the file.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    /// The call moved the file to this path (apply_patch's `*** Move to:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_to: Option<String>,
    /// The encoding the host must write `new_text` in (`"UTF-16LE"`, `"Shift_JIS"`,
    /// `"windows-1252"`…; see `docs/encodings.md`); absent for UTF-8 (a BOM is the
    /// text's first character). Hosts encode with the engine's
    /// `encode_text` (wasm: `encodeText`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// The whole new text, for hosts; left out of what an LLM sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_text: Option<String>,
}

/// What a call returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolResult {
    /// Whether the call succeeded; false means nothing changed and `error` says why.
    pub ok: bool,
    /// The tool called.
    pub tool: String,
    /// Whether the call was a dry run (editing tools only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// The recovery that found the text, when one did (`"indentation"`, `"exact"`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_via: Option<String>,
    /// For the LLM: what was done, and where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What the LLM should know about how the call was read or applied.
    pub warnings: Vec<String>,
    /// Reading tools: the file read and its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The version of the file read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Reading tools: the first line returned (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<usize>,
    /// Reading tools: the last line returned (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// Reading tools: the file's line count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_count: Option<usize>,
    /// Reading tools: the text read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Tool-specific fields (`matches`, `symbols`, `stats`, `results`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// Editing tools: every file changed. Empty on failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<FileChange>>,
    /// The refusal, when `ok` is false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<EditError>,
}

impl ToolResult {
    /// A successful result of `tool`, with nothing else set yet.
    pub fn new(tool: &str) -> ToolResult {
        ToolResult {
            ok: true,
            tool: tool.to_string(),
            dry_run: None,
            matched_via: None,
            message: None,
            warnings: Vec::new(),
            path: None,
            version: None,
            start_line: None,
            end_line: None,
            line_count: None,
            content: None,
            extra: Map::new(),
            files: None,
            error: None,
        }
    }

    /// The refusal of a call to `tool`.
    pub fn failure(tool: &str, error: EditError) -> ToolResult {
        ToolResult {
            ok: false,
            files: Some(Vec::new()),
            error: Some(error),
            ..ToolResult::new(tool)
        }
    }

    /// The kind of the error, when the call was refused.
    pub fn error_kind(&self) -> Option<crate::ErrorKind> {
        self.error.as_ref().map(|e| e.kind)
    }

    /// The result as JSON, with every `new_text` (for hosts) included.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The result as an LLM should see it: without the files' whole `new_text`, and
    /// without undo_edit's `undone` (each call's step, for editor hosts; `files` says
    /// what changed).
    pub fn to_llm_json(&self) -> Value {
        let mut v = self.to_json();
        if let Some(o) = v.as_object_mut() {
            o.remove("undone");
        }
        if let Some(files) = v.get_mut("files").and_then(Value::as_array_mut) {
            for f in files {
                if let Some(o) = f.as_object_mut() {
                    o.remove("new_text");
                }
            }
        }
        v
    }

    /// The message an LLM reads first: the success message or the error's.
    pub fn headline(&self) -> &str {
        match &self.error {
            Some(e) => &e.message,
            None => self.message.as_deref().unwrap_or(""),
        }
    }
}
