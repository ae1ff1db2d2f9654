//! The intent journal of a write, and the one way back from any point of it.
//!
//! Before the commit creates its first staging file it writes a journal to
//! `<root>/.anchored-edit/<tag>.journal` naming every file it will create (staging
//! files with the new texts, rollback copies of the old ones, missing directories). The
//! journal's `state` is replaced atomically (write `<tag>.next`, fsync, rename) as the
//! commit moves on: `staging` (nothing swapped yet), `swapping` (targets are being
//! replaced), `done` (every target is new; only clean-up is left).
//!
//! [`undo`] returns a batch to its old texts from `staging` or `swapping`, and only
//! cleans up after `done`. The commit calls it when a step fails; [`recover`] calls it
//! for every journal left by a run that died (at the start of `call` and of `mcp`). Every
//! rule in it is idempotent, so a crash during recovery is recovered by the next run.
//!
//! A journal comes from the working tree, so a repository could ship one: recovery acts
//! only on names shaped like the commit's own (`.NAME.ae-<16 hex>.new|.old` beside
//! `NAME`), and only beneath the root.

use crate::jail::RESERVED;
use cap_std::fs::{Dir, MetadataExt};
use serde_json::{json, Value};
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Staging,
    Swapping,
    Done,
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

#[derive(Clone, Debug)]
pub struct Entry {
    /// The directory of the target, relative to the root.
    pub dir: PathBuf,
    pub name: String,
    pub kind: Kind,
    pub staged: Option<String>,
    pub old: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Journal {
    pub tag: String,
    pub state: State,
    pub entries: Vec<Entry>,
    /// Directories the commit creates, shallowest first.
    pub dirs: Vec<PathBuf>,
}

/// `.NAME.ae-TAG.EXT`: hidden, beside the target, unguessable.
pub fn side_name(name: &str, tag: &str, ext: &str) -> String {
    format!(".{name}.ae-{tag}.{ext}")
}

impl Journal {
    /// Writes (or atomically replaces) the journal under the root.
    pub fn save(&self, root: &Dir) -> io::Result<()> {
        let jdir = reserved_dir(root, true)?.ok_or_else(|| io::Error::other("no journal dir"))?;
        let next = format!("{}.next", self.tag);
        let mut f = jdir.create(&next)?;
        f.write_all(self.to_json().to_string().as_bytes())?;
        f.sync_all()?;
        jdir.rename(&next, &jdir, format!("{}.journal", self.tag))?;
        sync_dir(&jdir)
    }

    fn to_json(&self) -> Value {
        let entries: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                json!({"dir": e.dir.to_string_lossy(), "name": e.name, "kind": kind_name(e.kind),
                       "staged": e.staged, "old": e.old})
            })
            .collect();
        let state = match self.state {
            State::Staging => "staging",
            State::Swapping => "swapping",
            State::Done => "done",
        };
        let dirs: Vec<String> = self
            .dirs
            .iter()
            .map(|d| d.to_string_lossy().into_owned())
            .collect();
        json!({"version": 1, "state": state, "entries": entries, "dirs": dirs})
    }

    fn from_json(tag: &str, v: &Value) -> Option<Journal> {
        let state = match v.get("state")?.as_str()? {
            "staging" => State::Staging,
            "swapping" => State::Swapping,
            "done" => State::Done,
            _ => return None,
        };
        let mut entries = Vec::new();
        for e in v.get("entries")?.as_array()? {
            let name = e.get("name")?.as_str()?.to_string();
            let side = |key: &str, ext: &str| -> Option<Option<String>> {
                match e.get(key)? {
                    Value::Null => Some(None),
                    Value::String(s) if is_side_name(s, &name, ext) => Some(Some(s.clone())),
                    _ => None,
                }
            };
            entries.push(Entry {
                dir: safe_rel(e.get("dir")?.as_str()?)?,
                kind: kind_parse(e.get("kind")?.as_str()?)?,
                staged: side("staged", "new")?,
                old: side("old", "old")?,
                name,
            });
        }
        let mut dirs = Vec::new();
        for d in v.get("dirs")?.as_array()? {
            dirs.push(safe_rel(d.as_str()?)?);
        }
        Some(Journal {
            tag: tag.to_string(),
            state,
            entries,
            dirs,
        })
    }

    /// Removes the journal and its lock (and their directory when nothing else is in it).
    pub fn discard(&self, root: &Dir) -> io::Result<()> {
        if let Some(jdir) = reserved_dir(root, false)? {
            // The journal before its lock: a journal never outlives its lock file, so
            // a recovery never mistakes a live batch for a dead one.
            let _ = jdir.remove_file(format!("{}.next", self.tag));
            match jdir.remove_file(format!("{}.journal", self.tag)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
            let _ = jdir.remove_file(format!("{}.lock", self.tag));
        }
        let _ = root.remove_dir(RESERVED);
        Ok(())
    }
}

/// Creates and locks `<tag>.lock` beside the journal: the lock lives as long as the
/// process (the kernel drops it on any death), which is how [`recover`] tells a batch
/// in progress in another process from one a crash left.
///
/// A recovery in another process may take and remove a fresh lock file before this one
/// locks it (it looks like a crash's leftover); so after locking, the name must still be
/// this file, or it is made again.
pub fn hold(root: &Dir, tag: &str) -> io::Result<std::fs::File> {
    let name = format!("{tag}.lock");
    for _ in 0..5 {
        // Until our lock file is in it, another process may remove the (empty) directory.
        let jdir = reserved_dir(root, true)?.ok_or_else(|| io::Error::other("no journal dir"))?;
        let mut options = cap_std::fs::OpenOptions::new();
        options.write(true).create(true);
        let file = match jdir.open_with(&name, &options) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            other => other?,
        };
        let file = file.into_std();
        file.lock()?;
        let mine = file.metadata()?;
        match jdir.symlink_metadata(&name) {
            Ok(m)
                if m.dev() == std::os::unix::fs::MetadataExt::dev(&mine)
                    && m.ino() == std::os::unix::fs::MetadataExt::ino(&mine) =>
            {
                return Ok(file)
            }
            _ => continue,
        }
    }
    Err(io::Error::other("could not hold the write journal's lock"))
}

/// Whether another live process holds `tag`'s lock.
fn alive(jdir: &Dir, tag: &str) -> bool {
    match jdir.open(format!("{tag}.lock")) {
        Ok(f) => matches!(
            f.into_std().try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ),
        Err(_) => false,
    }
}

/// Finishes every batch a dead run left: rolls back those caught before `done`, cleans
/// up the rest. A journal that does not parse is left alone (and named on stderr).
pub fn recover(root: &Dir) -> io::Result<()> {
    let jdir = match reserved_dir(root, false) {
        Ok(Some(jdir)) => jdir,
        Ok(None) => return Ok(()),
        Err(e) => {
            // Not a directory: no journal of ours; writes will say so.
            eprintln!("anchored-edit: {e}");
            return Ok(());
        }
    };
    let mut unreadable = Vec::new();
    let entries = match jdir.entries() {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let Ok(entry) = entry else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((tag, ext)) = name.rsplit_once('.') else {
            continue;
        };
        if alive(&jdir, tag) {
            continue;
        }
        if ext != "journal" {
            // A lock or half-written journal whose batch never started.
            if !jdir.exists(format!("{tag}.journal")) {
                let _ = jdir.remove_file(&name);
            }
            continue;
        }
        let mut text = String::new();
        // Gone since the listing: its owner finished and removed it.
        match jdir.open(&name) {
            Ok(mut f) => f.read_to_string(&mut text)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        match serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| Journal::from_json(tag, &v))
        {
            Some(journal) => {
                undo(root, &journal, &[])?;
                journal.discard(root)?;
            }
            None => unreadable.push(name),
        }
    }
    let _ = root.remove_dir(RESERVED);
    if !unreadable.is_empty() {
        // Not fatal: a repository could ship one to stop every run.
        eprintln!(
            "anchored-edit: left alone unreadable write journal(s) in {RESERVED}/: {}",
            unreadable.join(", ")
        );
    }
    Ok(())
}

/// Returns every target of `journal` to its old text (or, once `done`, keeps the new
/// ones), then removes every staging file, rollback copy and created directory.
///
/// `held`: the directory handles the running commit used, entry by entry (the first
/// entries; none in a recovery). They are used where present, so a directory renamed
/// or replaced since is cleaned where the commit's files really are.
pub fn undo(root: &Dir, journal: &Journal, held: &[Dir]) -> io::Result<()> {
    for (i, e) in journal.entries.iter().enumerate().rev() {
        let dir = match held.get(i).map(Dir::try_clone) {
            Some(d) => d,
            None => open_dir(root, &e.dir),
        };
        let dir = match dir {
            Ok(d) => d,
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            Err(err) => return Err(err),
        };
        if journal.state == State::Swapping {
            roll_back(&dir, e)?;
        }
        for side in [&e.staged, &e.old].into_iter().flatten() {
            match dir.remove_file(side) {
                Err(err) if err.kind() != io::ErrorKind::NotFound => return Err(err),
                _ => {}
            }
        }
    }
    if journal.state != State::Done {
        for d in journal.dirs.iter().rev() {
            let _ = root.remove_dir(d);
        }
    }
    Ok(())
}

/// One target back to its old text, whether or not its swap happened.
fn roll_back(dir: &Dir, e: &Entry) -> io::Result<()> {
    let exists = |n: &str| dir.symlink_metadata(n).is_ok();
    let swapped = e.staged.as_deref().is_none_or(|s| !exists(s));
    match e.kind {
        Kind::Replace => {
            if let (Some(old), true) = (&e.old, swapped) {
                if exists(old) {
                    dir.rename(old, dir, &e.name)?;
                }
            }
        }
        Kind::Create => {
            let ours = match &e.staged {
                Some(s) if !swapped => same_file(dir, s, &e.name),
                _ => true,
            };
            if ours && exists(&e.name) {
                dir.remove_file(&e.name)?;
            }
        }
        Kind::Remove => {
            if let Some(old) = &e.old {
                if exists(old) && !exists(&e.name) {
                    dir.rename(old, dir, &e.name)?;
                }
            }
        }
        Kind::InPlace => {
            if let Some(old) = &e.old {
                if exists(old) {
                    let before = dir.read(old)?;
                    if dir.read(&e.name).ok().as_deref() != Some(&before[..]) {
                        let (file, _) = crate::disk::open_regular(dir, Path::new(&e.name), true)?;
                        overwrite(file.into_std(), &before)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Writes `bytes` over the whole file, in place, and syncs it.
pub fn overwrite(mut file: std::fs::File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)?;
    file.sync_all()
}

fn same_file(dir: &Dir, a: &str, b: &str) -> bool {
    match (dir.symlink_metadata(a), dir.symlink_metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// The journal directory: a real directory at the root (never a symlink), created on
/// demand.
/// Another process may remove it (empty, after its own write) between our look and our
/// open: then it is made again, a few times.
fn reserved_dir(root: &Dir, create: bool) -> io::Result<Option<Dir>> {
    let mut tries = 0;
    loop {
        tries += 1;
        match root.symlink_metadata(RESERVED) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(io::Error::other(format!(
                    "{RESERVED} at the root is not a directory; anchored-edit keeps its write journal there"
                )))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                match root.create_dir(RESERVED) {
                    Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                    _ => {}
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        }
        match root.open_dir(RESERVED) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && create && tries < 5 => continue,
            Err(e) if e.kind() == io::ErrorKind::NotFound && !create => return Ok(None),
            other => return other.map(Some),
        }
    }
}

pub fn open_dir(root: &Dir, rel: &Path) -> io::Result<Dir> {
    if rel.as_os_str().is_empty() {
        root.try_clone()
    } else {
        root.open_dir(rel)
    }
}

/// Makes the directory's entries durable (a handle opened for reading: the `Dir`'s own
/// may not allow fsync).
pub fn sync_dir(dir: &Dir) -> io::Result<()> {
    dir.open(".")?.sync_all()
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Replace => "replace",
        Kind::InPlace => "in_place",
        Kind::Create => "create",
        Kind::Remove => "remove",
    }
}

fn kind_parse(s: &str) -> Option<Kind> {
    Some(match s {
        "replace" => Kind::Replace,
        "in_place" => Kind::InPlace,
        "create" => Kind::Create,
        "remove" => Kind::Remove,
        _ => return None,
    })
}

fn is_side_name(s: &str, name: &str, ext: &str) -> bool {
    let Some(rest) = s
        .strip_prefix(&format!(".{name}.ae-"))
        .and_then(|r| r.strip_suffix(&format!(".{ext}")))
    else {
        return false;
    };
    rest.len() == 16 && rest.bytes().all(|b| b.is_ascii_hexdigit()) && !name.contains('/')
}

fn safe_rel(s: &str) -> Option<PathBuf> {
    let p = PathBuf::from(s);
    p.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then_some(p)
}
