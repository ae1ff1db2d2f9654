//! Refusals: the closed set of error kinds and the error every tool returns.
//!
//! `kind` is a stable identifier agents and hosts branch on; `message` is written for
//! an LLM (what happened, where, and the exact next call); `diagnostics` carries the
//! details (candidate lines, the closest area, per-line differences).

use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// Why a call was refused. The set is closed and documented in docs/errors.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The call's arguments are missing, of the wrong type or contradict each other.
    InvalidArguments,
    /// The file does not exist.
    FileNotFound,
    /// create_file was asked to create a file that exists (without `overwrite`).
    FileExists,
    /// The path leads outside the project root.
    PathOutsideRoot,
    /// The text to replace (`old_str`, a hunk) occurs nowhere, not even after recovery.
    NoMatch,
    /// The text occurs in several places and the call does not say which.
    Ambiguous,
    /// `occurrence` (or `expected_replacements`) does not fit the matches found.
    OccurrenceOutOfRange,
    /// The edit would leave the file as it is.
    NoChange,
    /// The file already holds the edit's result where it would go.
    AlreadyApplied,
    /// The file changed since the `version` the call names.
    StaleBuffer,
    /// A scope landmark (`function_hint`, `after_hint`, `between_hint`) was not found.
    ScopeNotFound,
    /// A content anchor (`after_content`, `start_content`, `anchor`) occurs nowhere.
    AnchorNotFound,
    /// A block's brackets cannot be matched, so its end is unknown.
    BraceUnmatched,
    /// Backslash escaping in the call cannot be corrected with certainty.
    EscapeAmbiguous,
    /// The new text holds placeholder lines (`// ... existing code ...`).
    PlaceholderInNewStr,
    /// The edit would turn a file the lexer reads as balanced into one it does not
    /// (an opener or closer left unmatched, a string or comment left open).
    UnbalancedEdit,
    /// Several edits of one call touch the same text.
    OverlappingEdits,
    /// The patch's syntax is broken.
    PatchParse,
    /// The patch ends before its last hunk or file is complete.
    PatchIncomplete,
    /// The text sent as a patch is not a patch.
    PatchNotAPatch,
    /// A hunk's context or removed lines are not in the file.
    PatchContextMismatch,
    /// Reported by hosts, never by the engine: the host could not write the changes
    /// (permissions, disk full) and rolled back, so nothing changed.
    WriteFailed,
    /// Reported by editor hosts, never by the engine: the user discarded the edit in
    /// review mode, or nobody decided in time; the agent should not resend it unchanged.
    EditRejected,
}

impl ErrorKind {
    /// Every kind, in documentation order.
    pub const ALL: [ErrorKind; 23] = [
        ErrorKind::InvalidArguments,
        ErrorKind::FileNotFound,
        ErrorKind::FileExists,
        ErrorKind::PathOutsideRoot,
        ErrorKind::NoMatch,
        ErrorKind::Ambiguous,
        ErrorKind::OccurrenceOutOfRange,
        ErrorKind::NoChange,
        ErrorKind::AlreadyApplied,
        ErrorKind::StaleBuffer,
        ErrorKind::ScopeNotFound,
        ErrorKind::AnchorNotFound,
        ErrorKind::BraceUnmatched,
        ErrorKind::EscapeAmbiguous,
        ErrorKind::PlaceholderInNewStr,
        ErrorKind::UnbalancedEdit,
        ErrorKind::OverlappingEdits,
        ErrorKind::PatchParse,
        ErrorKind::PatchIncomplete,
        ErrorKind::PatchNotAPatch,
        ErrorKind::PatchContextMismatch,
        ErrorKind::WriteFailed,
        ErrorKind::EditRejected,
    ];

    /// The kind's stable name (`"no_match"`), as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::FileNotFound => "file_not_found",
            ErrorKind::FileExists => "file_exists",
            ErrorKind::PathOutsideRoot => "path_outside_root",
            ErrorKind::NoMatch => "no_match",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::OccurrenceOutOfRange => "occurrence_out_of_range",
            ErrorKind::NoChange => "no_change",
            ErrorKind::AlreadyApplied => "already_applied",
            ErrorKind::StaleBuffer => "stale_buffer",
            ErrorKind::ScopeNotFound => "scope_not_found",
            ErrorKind::AnchorNotFound => "anchor_not_found",
            ErrorKind::BraceUnmatched => "brace_unmatched",
            ErrorKind::EscapeAmbiguous => "escape_ambiguous",
            ErrorKind::PlaceholderInNewStr => "placeholder_in_new_str",
            ErrorKind::UnbalancedEdit => "unbalanced_edit",
            ErrorKind::OverlappingEdits => "overlapping_edits",
            ErrorKind::PatchParse => "patch_parse",
            ErrorKind::PatchIncomplete => "patch_incomplete",
            ErrorKind::PatchNotAPatch => "patch_not_a_patch",
            ErrorKind::PatchContextMismatch => "patch_context_mismatch",
            ErrorKind::WriteFailed => "write_failed",
            ErrorKind::EditRejected => "edit_rejected",
        }
    }

    /// The kind with this stable name.
    pub fn parse(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refusal: nothing was changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EditError {
    /// Why, as a stable identifier agents and hosts branch on.
    pub kind: ErrorKind,
    /// For the LLM: what happened, where, and the exact next call.
    pub message: String,
    /// Details (candidate lines, the closest area, per-line differences); null if none.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub diagnostics: Value,
}

impl EditError {
    /// A refusal of `kind` with `message` and no diagnostics.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> EditError {
        EditError {
            kind,
            message: message.into(),
            diagnostics: Value::Null,
        }
    }

    /// An `invalid_arguments` refusal.
    pub fn invalid(message: impl Into<String>) -> EditError {
        EditError::new(ErrorKind::InvalidArguments, message)
    }

    /// The refusal with `diagnostics` attached.
    pub fn with_diagnostics(mut self, diagnostics: Value) -> EditError {
        self.diagnostics = diagnostics;
        self
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for EditError {}

/// A tool step's result: a value, or a refusal.
pub type EditResult<T> = Result<T, EditError>;
