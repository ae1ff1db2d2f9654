//! The order of a write's steps and of its undo: one list, interpreted by every
//! executor (the CLI's `cli/src/commit.rs` and `journal.rs`, the Node server's
//! `js/node-server/commit.js` through the wasm export `writeProtocol`).
//!
//! An executor asks [`commit_steps`] for the ordered steps of a batch and performs
//! each with its own primitives; it decides no order. A step's [`Step::name`] is what
//! the test faults count (`ANCHORED_EDIT_FAIL_AT` / `CRASH_AT` / `PAUSE_AT`, `N` or
//! `NAME:K`), so both executors count alike. The one change the executor makes to the
//! journal while it runs (a [`Step::Stage`] whose target's owner it cannot give a new
//! file turns that [`Kind::Replace`] into [`Kind::InPlace`]) makes it ask for the list
//! again and go on at the next index: the steps up to that point are the same in both
//! lists ([`commit_steps`] orders each entry's staging steps alike for both kinds).
//!
//! After the last step, or at the first failure, the executor runs [`undo_steps`] on
//! the journal as its state then is (the running commit keeps its state in memory,
//! [`Step::Enter`]), and removes the journal: a rollback before the batch is written,
//! a clean-up after. Recovery runs the same [`undo_steps`] on a journal a crash left.

use super::{is_one_rename, Journal, Kind, State};

/// The largest batch synced file by file; a larger one syncs each file system once
/// (`syncfs`), after staging and after the swaps: the same points, one call instead of
/// two per file (each fsync costs milliseconds on a disk).
pub const SYNC_EACH_MAX: usize = 16;

/// One step of a commit. `usize` is an index into the journal's entries (or, for
/// [`Step::Mkdir`], into its `dirs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Write the journal in this state to disk (a new file replaced atomically,
    /// synced). The running commit's own state is [`Step::Enter`]'s.
    Save(State),
    /// The running commit's state becomes this one (in memory: what a failure's undo
    /// does from here on). Nothing on disk.
    Enter(State),
    /// Create the directory `dirs[d]` beneath the root.
    Mkdir(usize),
    /// Open the entry's directory beneath the root, without following links; the
    /// handle serves every later step of the entry and the undo. Nothing on disk.
    Open(usize),
    /// Create the staging file exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`), owner-only
    /// until it has the target's owner (when the process can give it: else a
    /// `replace` becomes `in_place` and the executor asks for the steps again) and
    /// mode; a new file's staging file gets the default mode.
    Stage(usize),
    /// Write the new text to the staging file.
    Write(usize),
    /// Sync the staging file.
    Fsync(usize),
    /// Keep the old text: a hard link to the target named `old`.
    LinkOld(usize),
    /// Keep the old text: a private copy of the target's bytes named `old`, copied from
    /// the target (opened without following a link) and checked against what the
    /// engine read (a difference is stale); synced when `true`.
    CopyOld(usize, bool),
    /// Sync every file system of the batch (`syncfs`): every staging file and kept
    /// copy is durable.
    SyncFiles,
    /// Compare the target with what the engine read, its bytes too, and check its path
    /// still leads through the directory [`Step::Open`] opened: else stale.
    Check(usize),
    /// `rename(staged, name)`.
    Rename(usize),
    /// `link(staged, name)` (fails if anything appeared there), then `unlink(staged)`.
    LinkNew(usize),
    /// Open the target (no link, the inode the engine read) and overwrite it with the
    /// new text, truncated to its length, synced.
    Overwrite(usize),
    /// `unlink(name)`.
    Unlink(usize),
    /// Sync the entry's directory.
    SyncDir(usize),
    /// Sync every file system of the batch (`syncfs`): every swap is durable.
    SyncDirs,
    /// The batch is written: the fault point before the clean-up (the undo of a
    /// `done` journal). A failure here is none (the batch stands); a crash leaves the
    /// clean-up to the next run.
    Cleanup,
}

impl Step {
    /// The step's name for the test faults; None for a step that changes nothing on
    /// disk (not counted).
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            Step::Save(_) => "journal",
            Step::Enter(_) | Step::Open(_) => return None,
            Step::Mkdir(_) => "mkdir",
            Step::Stage(_) => "stage",
            Step::Write(_) => "write",
            Step::Fsync(_) | Step::SyncFiles => "fsync",
            Step::LinkOld(_) | Step::CopyOld(..) => "keep-old",
            Step::Check(_) => "check",
            Step::Rename(_) | Step::LinkNew(_) | Step::Overwrite(_) | Step::Unlink(_) => "swap",
            Step::SyncDir(_) | Step::SyncDirs => "sync",
            Step::Cleanup => "cleanup",
        })
    }

    /// The step's word in JSON (`writeProtocol`'s `steps`).
    pub fn word(self) -> &'static str {
        match self {
            Step::Save(_) => "save",
            Step::Enter(_) => "enter",
            Step::Mkdir(_) => "mkdir",
            Step::Open(_) => "open",
            Step::Stage(_) => "stage",
            Step::Write(_) => "write",
            Step::Fsync(_) => "fsync",
            Step::LinkOld(_) => "link_old",
            Step::CopyOld(..) => "copy_old",
            Step::SyncFiles => "sync_files",
            Step::Check(_) => "check",
            Step::Rename(_) => "rename",
            Step::LinkNew(_) => "link_new",
            Step::Overwrite(_) => "overwrite",
            Step::Unlink(_) => "unlink",
            Step::SyncDir(_) => "sync_dir",
            Step::SyncDirs => "sync_dirs",
            Step::Cleanup => "cleanup",
        }
    }
}

/// Whether a batch of `entries` targets syncs file by file (else once per file system).
pub fn syncs_each(entries: usize) -> bool {
    entries <= SYNC_EACH_MAX
}

/// The ordered steps of a commit of `journal` (as the executor holds it, state
/// `staging`): save the journal; create the directories; per entry, open its
/// directory, stage the new text and keep the old one; sync; save `swapping` (unless
/// one rename is the whole batch, [`is_one_rename`]); check every target; enter
/// `swapping`; swap each; sync; save `done` (same exception); enter `done`; clean up.
pub fn commit_steps(journal: &Journal) -> Vec<Step> {
    let n = journal.entries.len();
    let each = syncs_each(n);
    let one_rename = is_one_rename(journal);
    let mut out = vec![Step::Save(State::Staging)];
    out.extend((0..journal.dirs.len()).map(Step::Mkdir));
    for (i, e) in journal.entries.iter().enumerate() {
        out.push(Step::Open(i));
        if e.staged.is_some() && e.kind != Kind::Remove {
            out.extend([Step::Stage(i), Step::Write(i)]);
            if each {
                out.push(Step::Fsync(i));
            }
        }
        if e.old.is_some() {
            out.push(match e.kind {
                Kind::InPlace => Step::CopyOld(i, each),
                _ => Step::LinkOld(i),
            });
        }
    }
    if !each {
        out.push(Step::SyncFiles);
    }
    if !one_rename {
        out.push(Step::Save(State::Swapping));
    }
    out.extend((0..n).map(Step::Check));
    // Only now may a failure roll targets back: none has been touched before, and one
    // that failed its check holds someone's save, which a rollback of a file written in
    // place (its copy written back) would overwrite.
    out.push(Step::Enter(State::Swapping));
    for (i, e) in journal.entries.iter().enumerate() {
        out.push(match (e.kind, e.staged.is_some()) {
            (Kind::Replace, true) => Step::Rename(i),
            (Kind::Create, true) => Step::LinkNew(i),
            (Kind::InPlace, _) => Step::Overwrite(i),
            (Kind::Remove, _) => Step::Unlink(i),
            // Not of the protocol's shape (entry_for never makes it): nothing to swap.
            _ => continue,
        });
    }
    if each {
        out.extend((0..n).map(Step::SyncDir));
    } else {
        out.push(Step::SyncDirs);
    }
    // Only a journal that says `done` on disk makes the batch final (one rename: the
    // rename itself did, and its directory is synced).
    if !one_rename {
        out.push(Step::Save(State::Done));
    }
    out.extend([Step::Enter(State::Done), Step::Cleanup]);
    out
}

/// One step of an undo (a failed commit's rollback, a written one's clean-up, a
/// recovery).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoStep {
    /// Open the entry's directory: the running commit's handle when it holds one, else
    /// beneath the root one component at a time without following links. When it is
    /// gone or not a directory (recovery), nothing of ours is there: the entry's next
    /// steps do nothing.
    Open(usize),
    /// Return the target to its old text as [`super::roll_back`] decides from what the
    /// executor observes.
    RollBack(usize),
    /// Remove the entry's staging file and kept old text (absent ones are no error).
    RemoveSides(usize),
    /// Remove the created directory `dirs[d]` when it is empty (beneath the root,
    /// without following links; any failure leaves it).
    Rmdir(usize),
}

impl UndoStep {
    /// The step's word in JSON (`writeProtocol`'s `undo_steps`).
    pub fn word(self) -> &'static str {
        match self {
            UndoStep::Open(_) => "open",
            UndoStep::RollBack(_) => "roll_back",
            UndoStep::RemoveSides(_) => "remove_sides",
            UndoStep::Rmdir(_) => "rmdir",
        }
    }
}

/// The ordered steps of undoing `journal` in its state: per entry, last first, roll
/// the target back (only in a state that [`State::rolls_back`]) and remove its side
/// files; then (before `done`) the created directories, deepest first.
pub fn undo_steps(journal: &Journal) -> Vec<UndoStep> {
    let mut out = Vec::new();
    for i in (0..journal.entries.len()).rev() {
        out.push(UndoStep::Open(i));
        if journal.state.rolls_back() {
            out.push(UndoStep::RollBack(i));
        }
        out.push(UndoStep::RemoveSides(i));
    }
    if journal.state.removes_dirs() {
        out.extend((0..journal.dirs.len()).rev().map(UndoStep::Rmdir));
    }
    out
}
