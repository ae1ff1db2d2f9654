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
    pub range: Range,
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

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Range {
    pub start: Point,
    pub end: Point,
}

/// One file the call changed (or, in a dry run, would change).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileChange {
    pub path: String,
    /// Unified diff of the file before and after.
    pub diff: String,
    pub edits: Vec<Edit>,
    pub line_delta: i64,
    pub line_count: usize,
    /// The version of the new text, to pass as `expected_version` next time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_to: Option<String>,
    /// The whole new text, for hosts; left out of what an LLM sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_text: Option<String>,
}

/// What a call returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolResult {
    pub ok: bool,
    pub tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_via: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    pub warnings: Vec<String>,
    /// Reading tools: the file read and its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Tool-specific fields (`matches`, `symbols`, `stats`, `results`, …).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// Editing tools: every file changed. Empty on failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<FileChange>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<EditError>,
}

impl ToolResult {
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

    /// The result as an LLM should see it: without the files' whole `new_text`.
    pub fn to_llm_json(&self) -> Value {
        let mut v = self.to_json();
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
