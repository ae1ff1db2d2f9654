//! The hosts' own refusals, worded once for every host.
//!
//! Three refusals come from hosts, never from the engine's tools: a computed edit that
//! could not be written (`write_failed`), a file that changed after the engine read it
//! (`stale_buffer`, from a host's compare-and-swap), and an edit the user did not accept
//! in review (`edit_rejected`). The CLI, the Node server and the editor hosts all ask
//! this module for the result, so the words an agent reads do not depend on the host.

use crate::error::{EditError, ErrorKind};
use crate::result::ToolResult;

/// When a host found that a file had changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaleWhen {
    /// Between the engine's read and the write (a save, a formatter, another agent).
    AfterRead,
    /// While the edit waited for the user's review.
    DuringReview,
    /// Between a dry run's diff and the user's "apply".
    SinceDiff,
}

impl StaleWhen {
    /// The wire name (`after_read`, `during_review`, `since_diff`).
    pub fn parse(name: &str) -> Option<StaleWhen> {
        match name {
            "after_read" => Some(StaleWhen::AfterRead),
            "during_review" => Some(StaleWhen::DuringReview),
            "since_diff" => Some(StaleWhen::SinceDiff),
            _ => None,
        }
    }

    fn words(self) -> &'static str {
        match self {
            StaleWhen::AfterRead => "after the engine read it for this call",
            StaleWhen::DuringReview => "while the edit waited for review",
            StaleWhen::SinceDiff => "since the diff was computed",
        }
    }
}

/// Why an edit held for review was not applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rejection {
    /// The user discarded it.
    Discarded,
    /// Nobody decided within `seconds`.
    TimedOut {
        /// The review timeout that ran out.
        seconds: f64,
    },
    /// The agent's call was cancelled while the edit waited.
    Cancelled,
}

/// A refusal that only a host can make.
#[derive(Debug, Clone, PartialEq)]
pub enum HostRefusal {
    /// The changes were computed but could not be written; the host rolled back.
    WriteFailed {
        /// What failed, as the system said it (`permission denied`, …).
        why: String,
    },
    /// `path` changed since the engine read it; nothing was written.
    Stale {
        /// The file that changed.
        path: String,
        /// When the change was noticed.
        when: StaleWhen,
    },
    /// The edit waited for review and was not accepted.
    Rejected(Rejection),
}

/// The result a host returns for `refusal` of a call to `tool`.
pub fn host_refusal(tool: &str, refusal: &HostRefusal) -> ToolResult {
    let (kind, message) = match refusal {
        HostRefusal::WriteFailed { why } => (
            ErrorKind::WriteFailed,
            format!(
                "The edit was computed but could not be written ({why}); every file was left as it was. Fix the cause (permissions, disk space) and send the same call again."
            ),
        ),
        HostRefusal::Stale { path, when } => (
            ErrorKind::StaleBuffer,
            format!(
                "`{path}` changed {}; nothing was changed. Read the file again, then send the call again.",
                when.words()
            ),
        ),
        HostRefusal::Rejected(rejection) => (ErrorKind::EditRejected, rejected(rejection)),
    };
    ToolResult::failure(tool, EditError::new(kind, message))
}

fn rejected(rejection: &Rejection) -> String {
    match rejection {
        Rejection::Discarded => "The user discarded this edit in review; nothing was changed. Do not send it again unchanged: ask the user what to change, or read the file and propose a different edit.".to_string(),
        Rejection::TimedOut { seconds } => format!(
            "Review mode is on in the editor and nobody applied this edit within {} s; nothing was changed. Tell the user the edit is waiting for review, then send the call again.",
            (seconds * 100.0).round() / 100.0
        ),
        Rejection::Cancelled => {
            "The call was cancelled while its edit waited for review; nothing was changed.".to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_has_its_kind_and_names_what_to_do() {
        let cases = [
            (
                HostRefusal::WriteFailed {
                    why: "permission denied".into(),
                },
                "write_failed",
                "(permission denied)",
            ),
            (
                HostRefusal::Stale {
                    path: "a.py".into(),
                    when: StaleWhen::DuringReview,
                },
                "stale_buffer",
                "`a.py` changed while the edit waited for review",
            ),
            (
                HostRefusal::Rejected(Rejection::TimedOut { seconds: 0.25 }),
                "edit_rejected",
                "within 0.25 s",
            ),
            (
                HostRefusal::Rejected(Rejection::Discarded),
                "edit_rejected",
                "Do not send it again unchanged",
            ),
        ];
        for (refusal, kind, words) in cases {
            let r = host_refusal("str_replace", &refusal);
            assert!(!r.ok);
            assert_eq!(r.error_kind().unwrap().as_str(), kind);
            assert!(r.headline().contains(words), "{}", r.headline());
            assert_eq!(r.files.as_deref(), Some(&[][..]));
        }
    }
}
