//! The write protocol's decisions, without I/O: one module for every host that writes
//! files (the CLI with cap-std, the Node server with `fs` through the wasm build).
//!
//! A host's executor performs the file-system primitives (open beneath a directory
//! without following links, create exclusively, write, sync, link, rename, unlink,
//! stat); everything it decides goes through here:
//!
//! - **Staging names** ([`side_name`], [`is_side_name`], [`tag_of`]): `.NAME.ae-TAG.new`
//!   and `.NAME.ae-TAG.old` beside each target, TAG 16 hex digits of the executor's
//!   randomness.
//! - **How a target is written** ([`kind_for`], [`entry_for`], [`is_one_rename`]).
//! - **The journal** ([`Journal`]): its states, its entries, its text on disk and the
//!   tag that authenticates it ([`Journal::seal`], [`Journal::unseal`]): a keyed hash
//!   ([`mac`], SipHash-2-4 twice, 128 bits) under a per-user random key kept in the
//!   user's state directory beside the journals. It is an integrity tag against journals
//!   planted by others (a repository, another user), not cryptography against a local
//!   attacker running as the same user, who can read the key.
//! - **The compare and swap** ([`Seen::unchanged`]): a target is written only while it
//!   is what the engine read.
//! - **Aliases** ([`aliases`]): two names of one file in one call.
//! - **Recovery** ([`roll_back`], [`State::rolls_back`]): what undo does with each entry
//!   of each journal state, from what the executor observed.
//! - **The order of the steps** ([`steps`]: [`commit_steps`], [`undo_steps`]): the
//!   executors interpret one list, step by step, and count the same steps for the test
//!   faults.
//!
//! `docs/disk.md` describes the protocol and its two executors.

pub mod json;
mod siphash;
pub mod steps;
#[cfg(test)]
mod tests;

use serde_json::{json, Value};

pub use siphash::mac;
pub use steps::{commit_steps, undo_steps, Step, UndoStep};

/// Where a batch is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Nothing swapped yet.
    Staging,
    /// Targets are being replaced.
    Swapping,
    /// Every target is new; only clean-up is left.
    Done,
}

impl State {
    /// Whether recovery returns the targets of a journal in this state to their old
    /// texts (before `done`) or keeps the new ones and only cleans up.
    ///
    /// A journal in `staging` touched no target (its one-rename batch's rename leaves
    /// either file whole): its undo only removes the side files.
    pub fn rolls_back(self) -> bool {
        self == State::Swapping
    }

    /// Whether the batch is written: a failure from here on is none (the clean-up it
    /// stops is finished by the next run).
    pub fn stands(self) -> bool {
        self == State::Done
    }

    /// Whether the directories the batch created are removed (when empty).
    pub fn removes_dirs(self) -> bool {
        self != State::Done
    }

    /// The state's name in a journal.
    pub fn name(self) -> &'static str {
        match self {
            State::Staging => "staging",
            State::Swapping => "swapping",
            State::Done => "done",
        }
    }

    /// The state of a journal's name.
    pub fn parse(s: &str) -> Option<State> {
        Some(match s {
            "staging" => State::Staging,
            "swapping" => State::Swapping,
            "done" => State::Done,
            _ => return None,
        })
    }
}

/// How one target is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `rename(staged, name)`; `old` is a hard link to the old file.
    Replace,
    /// The old file is overwritten in place (several hard links, or an owner the
    /// process cannot give a new file); `old` is a copy of its bytes.
    InPlace,
    /// A new file: `link(staged, name)` (fails if anything appeared), unlink `staged`.
    Create,
    /// `unlink(name)`; `old` is a hard link to it.
    Remove,
}

impl Kind {
    /// The kind's name in a journal.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Replace => "replace",
            Kind::InPlace => "in_place",
            Kind::Create => "create",
            Kind::Remove => "remove",
        }
    }

    /// The kind of a journal's name.
    pub fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "replace" => Kind::Replace,
            "in_place" => Kind::InPlace,
            "create" => Kind::Create,
            "remove" => Kind::Remove,
            _ => return None,
        })
    }
}

/// How a target is written: a delete unlinks, a new file is linked into place, a file
/// with several hard links is written in place (its links stay one file), any other is
/// replaced by a rename. (An executor that cannot give a staged file the target's owner
/// turns a `Replace` into `InPlace` before the journal says `swapping`.)
pub fn kind_for(remove: bool, exists: bool, nlink: u64) -> Kind {
    match (remove, exists) {
        (true, _) => Kind::Remove,
        (false, false) => Kind::Create,
        (false, true) if nlink > 1 => Kind::InPlace,
        (false, true) => Kind::Replace,
    }
}

/// One target of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The directory of the target, relative to the root (`/`-separated, "" the root).
    pub dir: String,
    /// The target's name in `dir`.
    pub name: String,
    /// How it is written.
    pub kind: Kind,
    /// The staging file with the new text, beside the target.
    pub staged: Option<String>,
    /// The kept old text (a hard link, or a copy for in-place writes), beside it.
    pub old: Option<String>,
}

/// The journal entry of a target: its kind, and the side names the batch creates.
/// A file written in place needs no staging file (its new text goes from memory).
pub fn entry_for(dir: &str, name: &str, kind: Kind, exists: bool, tag: &str) -> Entry {
    let staged = matches!(kind, Kind::Replace | Kind::Create).then(|| side_name(name, tag, "new"));
    let old = exists.then(|| side_name(name, tag, "old"));
    Entry {
        dir: dir.to_string(),
        name: name.to_string(),
        kind,
        staged,
        old,
    }
}

/// `.NAME.ae-TAG.EXT`: hidden, beside the target, unguessable.
pub fn side_name(name: &str, tag: &str, ext: &str) -> String {
    format!(".{name}.ae-{tag}.{ext}")
}

/// A batch's tag from 8 random bytes of the executor (16 hex digits).
pub fn tag_of(random: [u8; 8]) -> String {
    format!("{:016x}", u64::from_le_bytes(random))
}

/// Whether `s` is a side name of the protocol for `name` (`.NAME.ae-<16 hex>.EXT`).
pub fn is_side_name(s: &str, name: &str, ext: &str) -> bool {
    let Some(rest) = s
        .strip_prefix(&format!(".{name}.ae-"))
        .and_then(|r| r.strip_suffix(&format!(".{ext}")))
    else {
        return false;
    };
    rest.len() == 16 && rest.bytes().all(|b| b.is_ascii_hexdigit()) && is_name(name)
}

/// One plain name: not empty, not `.` or `..`, no `/` or NUL.
fn is_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\0'])
}

/// A relative directory of plain names ("" the root).
fn is_rel_dir(dir: &str) -> bool {
    dir.is_empty() || dir.split('/').all(is_name)
}

/// Whether the batch is one file replaced by one `rename` into an existing directory:
/// then that rename is its only step that changes a target, and the journal stays
/// `staging` on disk until it is removed.
pub fn is_one_rename(journal: &Journal) -> bool {
    matches!(journal.entries.as_slice(), [e] if e.kind == Kind::Replace && e.staged.is_some())
        && journal.dirs.is_empty()
}

/// The intent journal of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Journal {
    /// The batch's tag (the journal's file name is `TAG.journal`).
    pub tag: String,
    /// The root's canonical path: a journal acts only on the root it was written for.
    pub root: String,
    /// Where the batch is.
    pub state: State,
    /// Every target, in order.
    pub entries: Vec<Entry>,
    /// Directories the batch creates, relative to the root, shallowest first.
    pub dirs: Vec<String>,
}

/// The journal format's version (2: authenticated, in the user's state directory).
const VERSION: u64 = 2;

impl Journal {
    /// The journal's text on disk: the hex tag of the body on the first line, the body
    /// (JSON) on the second.
    pub fn seal(&self, key: &[u8; 16]) -> String {
        let body = self.to_json().to_string();
        format!("{}\n{body}\n", hex(&mac(key, body.as_bytes())))
    }

    /// The journal in `text`, only when its tag verifies under `key`, it was written
    /// for `root` with `tag`, and every name in it has the protocol's shape; None for
    /// anything else (then recovery leaves it alone).
    pub fn unseal(text: &str, key: &[u8; 16], tag: &str, root: &str) -> Option<Journal> {
        let (sum, body) = text.split_once('\n')?;
        let body = body.strip_suffix('\n')?;
        if !eq_ct(sum.as_bytes(), hex(&mac(key, body.as_bytes())).as_bytes()) {
            return None;
        }
        let journal = Journal::from_json(&serde_json::from_str(body).ok()?)?;
        (journal.tag == tag && journal.root == root).then_some(journal)
    }

    /// The journal as JSON (its body on disk).
    pub fn to_json(&self) -> Value {
        let entries: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                json!({"dir": e.dir, "name": e.name, "kind": e.kind.name(),
                       "staged": e.staged, "old": e.old})
            })
            .collect();
        json!({"version": VERSION, "tag": self.tag, "root": self.root,
               "state": self.state.name(), "entries": entries, "dirs": self.dirs})
    }

    fn from_json(v: &Value) -> Option<Journal> {
        if v.get("version")?.as_u64()? != VERSION {
            return None;
        }
        let mut entries = Vec::new();
        for e in v.get("entries")?.as_array()? {
            entries.push(entry_from_json(e)?);
        }
        let mut dirs = Vec::new();
        for d in v.get("dirs")?.as_array()? {
            let d = d.as_str()?;
            if d.is_empty() || !is_rel_dir(d) {
                return None;
            }
            dirs.push(d.to_string());
        }
        Some(Journal {
            tag: v.get("tag")?.as_str()?.to_string(),
            root: v.get("root")?.as_str()?.to_string(),
            state: State::parse(v.get("state")?.as_str()?)?,
            entries,
            dirs,
        })
    }
}

fn entry_from_json(e: &Value) -> Option<Entry> {
    let name = e.get("name")?.as_str()?.to_string();
    let dir = e.get("dir")?.as_str()?.to_string();
    if !is_name(&name) || !is_rel_dir(&dir) {
        return None;
    }
    let side = |key: &str, ext: &str| -> Option<Option<String>> {
        match e.get(key)? {
            Value::Null => Some(None),
            Value::String(s) if is_side_name(s, &name, ext) => Some(Some(s.clone())),
            _ => None,
        }
    };
    let kind = Kind::parse(e.get("kind")?.as_str()?)?;
    let (staged, old) = (side("staged", "new")?, side("old", "old")?);
    // Each kind's side files, as entry_for makes them (a Replace turned InPlace keeps
    // its staged name): anything else is not a journal of ours.
    let shaped = match kind {
        Kind::Replace => staged.is_some() && old.is_some(),
        Kind::InPlace => old.is_some(),
        Kind::Create => staged.is_some() && old.is_none(),
        Kind::Remove => staged.is_none() && old.is_some(),
    };
    shaped.then_some(Entry {
        dir,
        name,
        kind,
        staged,
        old,
    })
}

/// What the executor observed of one entry's files, for [`roll_back`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// The staging file still exists (not yet renamed or linked into place).
    pub staged_exists: bool,
    /// The kept old text exists.
    pub old_exists: bool,
    /// Something exists at the target's name.
    pub target_exists: bool,
    /// The target is the staging file's inode (a create linked, not yet unlinked).
    pub target_is_staged: bool,
    /// The target's bytes equal the kept copy's (in-place writes only).
    pub target_matches_old: bool,
}

/// One step of a rollback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undo {
    /// Nothing to do for the target.
    Keep,
    /// `rename(old, target)`.
    RenameOldToTarget,
    /// `unlink(target)`.
    UnlinkTarget,
    /// Overwrite the target (opened without following links, a regular file) from the
    /// old copy's bytes.
    RewriteFromOld,
}

/// What a rollback does with one target, whether or not its swap happened (idempotent:
/// a rollback interrupted and run again decides the same or [`Undo::Keep`]).
pub fn roll_back(kind: Kind, has_staged: bool, f: Facts) -> Undo {
    let swapped = !has_staged || !f.staged_exists;
    match kind {
        Kind::Replace if swapped && f.old_exists => Undo::RenameOldToTarget,
        Kind::Create if f.target_exists && (swapped || f.target_is_staged) => Undo::UnlinkTarget,
        Kind::Remove if f.old_exists && !f.target_exists => Undo::RenameOldToTarget,
        Kind::InPlace if f.old_exists && !f.target_matches_old => Undo::RewriteFromOld,
        _ => Undo::Keep,
    }
}

/// What the engine read of a target, for the compare and swap: the file's identity
/// (device, inode), its length and a hash of its bytes (the executor's digest, compared
/// as given); `None` fields: no file was there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Device and inode.
    pub id: Option<(u64, u64)>,
    /// Length in bytes.
    pub len: Option<u64>,
    /// The digest of the bytes.
    pub digest: Option<String>,
}

impl Seen {
    /// Whether the target `now` (None: absent; its digest None when not compared yet)
    /// is still what the engine read. A file that appeared where none was, or one
    /// replaced, resized or rewritten since, is stale.
    pub fn unchanged(&self, now: Option<&Seen>) -> bool {
        match (self.id, now) {
            (None, None) => true,
            (Some(_), Some(now)) => {
                now.id == self.id
                    && now.len == self.len
                    && (now.digest.is_none() || now.digest == self.digest)
            }
            _ => false,
        }
    }
}

/// One operation of a call, for [`aliases`]: the path the call named, the file's
/// identity on disk (None: nothing there) and whether it writes or removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The path as the call named it.
    pub path: String,
    /// The real location beneath the root.
    pub real: String,
    /// The file's identity (device, inode) when it exists.
    pub id: Option<(u64, u64)>,
    /// True for a delete (or a move's source), false for a write.
    pub remove: bool,
}

/// Two names of one file in one call: refused (the message names both paths and says
/// they are one file) when the call cannot be expressed on one file — a move or a
/// delete and a write reaching one file through two names, two writes of one file (the
/// engine keeps one text per file, so this is a call the engine could not merge) — so
/// that no text is ever lost.
pub fn aliases(ops: &[Named]) -> Result<(), String> {
    for (i, a) in ops.iter().enumerate() {
        for b in &ops[..i] {
            let same = a.real == b.real || (a.id.is_some() && a.id == b.id);
            if !same {
                continue;
            }
            let what = if a.remove != b.remove {
                "one of them is deleted (or moved away) while the other is written, which would lose the text"
            } else if a.remove {
                "it is deleted twice"
            } else {
                "it is written twice"
            };
            return Err(same_file(&b.path, &a.path, what));
        }
    }
    Ok(())
}

/// The text of a batch's lock file, from the writing process's own `/proc/self/stat`:
/// its id and start time. A lock names its process for executors that cannot test a
/// `flock` (Node); the CLI also holds the file locked.
pub fn lock_text(own_stat: &str) -> Option<String> {
    let (pid, start) = stat_fields(own_stat)?;
    Some(format!("{pid} {start}\n"))
}

/// Whether the process a lock names still runs: `stat` is `/proc/PID/stat` of the pid
/// in `lock` now (None: no such process). A pid reused by another process has another
/// start time.
pub fn lock_alive(lock: &str, stat: Option<&str>) -> bool {
    let mut words = lock.split_whitespace();
    let (Some(pid), Some(start)) = (words.next(), words.next()) else {
        return false;
    };
    stat.and_then(stat_fields)
        .is_some_and(|(p, s)| p.to_string() == pid && s.to_string() == start)
}

/// The pid of a lock (to read its `/proc/PID/stat`).
pub fn lock_pid(lock: &str) -> Option<u32> {
    lock.split_whitespace().next()?.parse().ok()
}

/// The process id and start time (field 22) of a `/proc/PID/stat` text; the command
/// name (field 2) may hold spaces and parentheses, so fields are counted after its
/// last `)`.
fn stat_fields(stat: &str) -> Option<(u32, u64)> {
    let pid = stat.split_whitespace().next()?.parse().ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let start = rest.split_whitespace().nth(19)?.parse().ok()?;
    Some((pid, start))
}

/// The refusal of a call that reaches one file through the names `a` and `b`, and
/// `why` it cannot be written (every host and the engine word it alike).
pub fn same_file(a: &str, b: &str, why: &str) -> String {
    format!("`{a}` and `{b}` are the same file (a link, or a hard link): {why}. Nothing was changed. Send the call with one name for the file.")
}

/// The name of the directory, under the user's state directory, that holds the
/// journals of the root with this identity.
pub fn root_dir_name(dev: u64, ino: u64) -> String {
    format!("root-{dev}-{ino}")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Equal, comparing every byte (no early exit).
fn eq_ct(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
