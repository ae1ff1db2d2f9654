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
    InvalidArguments,
    FileNotFound,
    FileExists,
    PathOutsideRoot,
    NoMatch,
    Ambiguous,
    OccurrenceOutOfRange,
    NoChange,
    AlreadyApplied,
    StaleBuffer,
    ScopeNotFound,
    AnchorNotFound,
    BraceUnmatched,
    EscapeAmbiguous,
    PlaceholderInNewStr,
    OverlappingEdits,
    PatchParse,
    PatchIncomplete,
    PatchNotAPatch,
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
    pub const ALL: [ErrorKind; 22] = [
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
        ErrorKind::OverlappingEdits,
        ErrorKind::PatchParse,
        ErrorKind::PatchIncomplete,
        ErrorKind::PatchNotAPatch,
        ErrorKind::PatchContextMismatch,
        ErrorKind::WriteFailed,
        ErrorKind::EditRejected,
    ];

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
            ErrorKind::OverlappingEdits => "overlapping_edits",
            ErrorKind::PatchParse => "patch_parse",
            ErrorKind::PatchIncomplete => "patch_incomplete",
            ErrorKind::PatchNotAPatch => "patch_not_a_patch",
            ErrorKind::PatchContextMismatch => "patch_context_mismatch",
            ErrorKind::WriteFailed => "write_failed",
            ErrorKind::EditRejected => "edit_rejected",
        }
    }

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
    pub kind: ErrorKind,
    pub message: String,
    #[serde(skip_serializing_if = "Value::is_null")]
    pub diagnostics: Value,
}

impl EditError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> EditError {
        EditError {
            kind,
            message: message.into(),
            diagnostics: Value::Null,
        }
    }

    pub fn invalid(message: impl Into<String>) -> EditError {
        EditError::new(ErrorKind::InvalidArguments, message)
    }

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

pub type EditResult<T> = Result<T, EditError>;
