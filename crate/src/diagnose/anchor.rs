//! `locate_one`: find a content anchor, or refuse with the whole explanation.
//!
//! Every tool that finds its place by content (str_replace's `old_str`, insert's
//! `after_content` / `before_content`, the block tools' `start_content` and `anchor`)
//! goes through this one function, so they all find the same way and refuse the same
//! way: the cascade in `locate` finds candidates, the selection rules choose among them,
//! and when nothing matches the refusal carries the closest area, the recovery levels
//! `tried`, and why a near miss was not taken. Before this function existed the three
//! copies had drifted: a block tool's refusal lacked the recovery explanation.
//!
//! It lives here rather than in `locate` because its refusal is a diagnosis: `locate`
//! finds, `diagnose` (one layer up) explains.
//!
//! A tool may add its own checks at two points (str_replace does): when nothing
//! matched, before the refusal is worded (`when_missing`, given the report), and when
//! candidates were found, before one is chosen (`when_found`).

use super::{explain_recovery, Report, Subject};
use crate::error::{EditResult, ErrorKind};
use crate::locate::select::{self, Selection};
use crate::locate::{self, Candidate, Scope, Via};
use crate::text::Text;
use crate::EditError;

/// A tool's own check on the report of a needle that matched nowhere.
pub type WhenMissing<'c> = &'c dyn Fn(&Report) -> Option<EditError>;
/// A tool's own check on the candidates found, before one is chosen.
pub type WhenFound<'c> = &'c dyn Fn(&[Candidate]) -> Option<EditError>;

/// A content anchor to find, and how messages name it.
pub struct Anchor<'a> {
    /// The text to find, as the caller sent it.
    pub needle: &'a str,
    /// The argument it came in: `"old_str"`, `"after_content"`, `"start_content"`…
    pub what: &'a str,
    pub path: &'a str,
    /// The tool to suggest re-sending.
    pub tool: &'a str,
    /// Byte-exact matching only.
    pub strict: bool,
    pub selection: Selection,
    /// Whether "all of them" is a valid answer (str_replace's `replace_all`).
    pub can_take_all: bool,
    /// The error kind when nothing matches: `anchor_not_found` for a landmark;
    /// None keeps the report's own (`no_match` for text to replace).
    pub missing_kind: Option<ErrorKind>,
    pub when_missing: Option<WhenMissing<'a>>,
    pub when_found: Option<WhenFound<'a>>,
}

impl<'a> Anchor<'a> {
    /// A landmark (a line to insert at, a block's first line): refused with
    /// `anchor_not_found`, one match chosen by `occurrence`.
    pub fn landmark(needle: &'a str, what: &'a str, path: &'a str, tool: &'a str) -> Anchor<'a> {
        Anchor {
            needle,
            what,
            path,
            tool,
            strict: false,
            selection: Selection::default(),
            can_take_all: false,
            missing_kind: Some(ErrorKind::AnchorNotFound),
            when_missing: None,
            when_found: None,
        }
    }
}

/// What `locate_one` found.
pub struct Located {
    /// The chosen candidates, in file order (one unless the selection takes all).
    pub chosen: Vec<Candidate>,
    /// The recovery level that matched (None: no level, e.g. a strict exact search).
    pub via: Option<Via>,
    /// Notes of the match (what a recovery forgave), for `warnings`.
    pub found_notes: Vec<String>,
    /// Notes of the choice (a far `line_hint`…), for `warnings`.
    pub select_notes: Vec<String>,
}

/// Finds `anchor` in `scope`, chooses by its selection, or refuses with the diagnosis.
pub fn locate_one(text: &Text, scope: &Scope, anchor: &Anchor) -> EditResult<Located> {
    let found = locate::find_near(
        text,
        anchor.needle,
        scope,
        anchor.strict,
        anchor.selection.line_hint,
    );
    if found.candidates.is_empty() {
        let report = Report::build(text, anchor.needle, scope);
        if let Some(err) = anchor.when_missing.and_then(|check| check(&report)) {
            return Err(err);
        }
        let subject = Subject {
            what: anchor.what,
            path: anchor.path,
            tool: anchor.tool,
        };
        let mut err = report.into_error(text, scope, &subject);
        if let Some(kind) = anchor.missing_kind {
            err.kind = kind;
        }
        return Err(explain_recovery(err, &found));
    }
    if let Some(err) = anchor.when_found.and_then(|check| check(&found.candidates)) {
        return Err(err);
    }
    let subject = select::Subject {
        what: anchor.what,
        path: anchor.path,
        can_take_all: anchor.can_take_all,
    };
    let via = found.via();
    let (chosen, select_notes) =
        select::select(text, found.candidates, &anchor.selection, &subject, scope)
            .map_err(|e| select::tolerant_refusal(e, via))?;
    Ok(Located {
        chosen,
        via,
        found_notes: found.notes,
        select_notes,
    })
}
