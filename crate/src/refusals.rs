//! The hosts' own refusals, worded once for every host.
//!
//! Four refusals come from hosts, never from the engine's tools: a computed edit that
//! could not be written (`write_failed`), a file that changed after the engine read it
//! (`stale_buffer`, from a host's compare-and-swap), an edit the user did not accept
//! in review (`edit_rejected`), and a path that only the disk shows leading out of the
//! root (`path_outside_root`: a symlink on the way, see [`OutsideWhy`]). The CLI, the Node server and the editor hosts all ask
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

/// Why a host found a path outside the root (what only its file system can tell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutsideWhy {
    /// An absolute path under none of the roots.
    NotUnderRoot,
    /// A symlink on the way leads out of the root.
    LinkLeadsOut,
    /// A `..` below the part that exists climbs out.
    ClimbsOut,
    /// The way goes through more symlinks than the host follows.
    TooManyLinks,
    /// A symlink is on the way and the host cannot tell where it leads (no realpath).
    LinkOnTheWay,
    /// A folder on the way changed into a link or moved while the host opened it.
    MovedWhileRead,
    /// The file changed into a link while the host opened it.
    BecameLink,
    /// The path could not be resolved; the system's words.
    Unresolvable(String),
}

impl OutsideWhy {
    /// From the wire name (`not_under_root`, `link_leads_out`, `climbs_out`,
    /// `too_many_links`, `link_on_the_way`, `moved_while_read`, `became_link`,
    /// `unresolvable` with the system's `error`).
    pub fn parse(name: &str, error: Option<String>) -> Option<OutsideWhy> {
        Some(match name {
            "not_under_root" => OutsideWhy::NotUnderRoot,
            "link_leads_out" => OutsideWhy::LinkLeadsOut,
            "climbs_out" => OutsideWhy::ClimbsOut,
            "too_many_links" => OutsideWhy::TooManyLinks,
            "link_on_the_way" => OutsideWhy::LinkOnTheWay,
            "moved_while_read" => OutsideWhy::MovedWhileRead,
            "became_link" => OutsideWhy::BecameLink,
            "unresolvable" => {
                OutsideWhy::Unresolvable(error.unwrap_or_else(|| "no reason given".into()))
            }
            _ => return None,
        })
    }

    fn words(&self) -> String {
        match self {
            OutsideWhy::NotUnderRoot => "it is not under the root".into(),
            OutsideWhy::LinkLeadsOut => "a symlink on the way leads out of the root".into(),
            OutsideWhy::ClimbsOut => "it climbs out with `..`".into(),
            OutsideWhy::TooManyLinks => "it goes through too many symlinks".into(),
            OutsideWhy::LinkOnTheWay => {
                "a symlink is on the way and this host cannot tell where it leads".into()
            }
            OutsideWhy::MovedWhileRead => {
                "a folder on the way changed into a link or moved while it was read".into()
            }
            OutsideWhy::BecameLink => "it changed into a link while it was read".into(),
            OutsideWhy::Unresolvable(error) => format!("it cannot be resolved ({error})"),
        }
    }
}

/// The `path_outside_root` error a host gives for `path` (its reader throws it, so the
/// tool's result carries it): one wording for the CLI, the Node server and the editors.
pub fn outside_root(path: &str, why: &OutsideWhy) -> EditError {
    EditError::new(
        ErrorKind::PathOutsideRoot,
        format!(
            "`{path}` is outside the project root: {}. Send a path inside the root, relative to it.",
            why.words()
        ),
    )
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
    /// `path` leads out of the root on the host's disk.
    OutsideRoot {
        /// The path as the agent sent it.
        path: String,
        /// What the host found.
        why: OutsideWhy,
    },
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
        HostRefusal::OutsideRoot { path, why } => {
            return ToolResult::failure(tool, outside_root(path, why))
        }
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
            (
                HostRefusal::OutsideRoot {
                    path: "link/a.txt".into(),
                    why: OutsideWhy::LinkLeadsOut,
                },
                "path_outside_root",
                "`link/a.txt` is outside the project root: a symlink on the way leads out of the root. Send a path inside the root",
            ),
            (
                HostRefusal::OutsideRoot {
                    path: "b".into(),
                    why: OutsideWhy::Unresolvable("EACCES".into()),
                },
                "path_outside_root",
                "it cannot be resolved (EACCES)",
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
