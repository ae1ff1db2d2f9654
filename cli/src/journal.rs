//! The CLI's executor of the write protocol's journal (`anchored_edit::protocol` makes
//! every decision: names, states, the journal's text and its tag, what a rollback does).
//!
//! Journals live outside the project, in the user's state directory:
//! `$XDG_STATE_HOME/anchored-edit/` (else `~/.local/state/anchored-edit/`), mode 0700,
//! holding `key` (16 random bytes, 0600, made on first use) and one folder per root,
//! `root-<dev>-<ino>/` (0700), named by the root directory's identity. A journal there is
//! `<tag>.journal` (0600), sealed with the key ([`protocol::Journal::seal`]); its state is
//! replaced atomically (write `<tag>.next`, fsync, rename) as the commit moves on.
//! Recovery acts only on journals whose tag verifies and that name this root, so a
//! journal planted in a repository or by another user is never acted on; a repository's
//! own `.anchored-edit/` is ordinary data.
//!
//! [`undo`] returns a batch to its old texts from `swapping`, and cleans up in every
//! state. The commit calls it when a step fails; [`Journals::recover`] calls it for every
//! journal left by a run that died (at the start of `call` and of `mcp`). Every rule is
//! idempotent, so a crash during recovery is recovered by the next run. Recovery never
//! follows a link (directories are opened a component at a time with `O_NOFOLLOW`) and
//! never opens anything but a regular file for its bytes (`O_NONBLOCK|O_NOFOLLOW`,
//! checked on the descriptor).

use crate::disk::open_regular;
use anchored_edit::protocol::{self, Facts, Journal, Kind, Undo, UndoStep};
use cap_std::fs::{Dir, DirBuilder, MetadataExt, OpenOptions, OpenOptionsExt};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

pub use protocol::{Entry, State};

/// The largest journal read back (a batch of a hundred thousand files).
const JOURNAL_MAX: u64 = 64 << 20;

/// The journals of one root, in the user's state directory.
pub struct Journals {
    dir: Dir,
    key: [u8; 16],
    root: String,
    /// Where `dir` is, for messages.
    shown: PathBuf,
}

/// `$XDG_STATE_HOME/anchored-edit` (an absolute XDG_STATE_HOME only, as the XDG
/// specification says), else `$HOME/.local/state/anchored-edit`.
pub fn state_home() -> io::Result<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_STATE_HOME").map(PathBuf::from) {
        if x.is_absolute() {
            return Ok(x.join("anchored-edit"));
        }
    }
    match std::env::var_os("HOME").map(PathBuf::from) {
        Some(h) if h.is_absolute() => Ok(h.join(".local/state/anchored-edit")),
        _ => Err(io::Error::other(
            "neither XDG_STATE_HOME nor HOME is set, so there is no place for the write journal",
        )),
    }
}

impl Journals {
    /// The journal folder of the root `root` (its open handle and canonical path),
    /// created on demand, and this user's key.
    pub fn open(root: &Dir, root_path: &Path) -> io::Result<Journals> {
        let home = state_home()?;
        let mut builder = std::fs::DirBuilder::new();
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.recursive(true).create(&home)?;
        let base = Dir::open_ambient_dir(&home, cap_std::ambient_authority())?;
        let own = base.dir_metadata()?;
        // SAFETY: geteuid has no preconditions.
        if own.uid() != unsafe { libc::geteuid() } {
            return Err(io::Error::other(format!(
                "{} belongs to another user; anchored-edit keeps its write journal there",
                home.display()
            )));
        }
        let key = key(&base)?;
        let meta = root.dir_metadata()?;
        let name = protocol::root_dir_name(meta.dev(), meta.ino());
        let mut sub = DirBuilder::new();
        cap_std::fs::DirBuilderExt::mode(&mut sub, 0o700);
        match base.create_dir_with(&name, &sub) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
        let dir = dir_nofollow(&base, name.as_ref())?;
        Ok(Journals {
            dir,
            key,
            root: root_path.to_string_lossy().into_owned(),
            shown: home.join(name),
        })
    }

    /// A second handle on the same journal folder (for the journal's removal after the reply).
    pub fn try_clone(&self) -> io::Result<Journals> {
        Ok(Journals {
            dir: self.dir.try_clone()?,
            key: self.key,
            root: self.root.clone(),
            shown: self.shown.clone(),
        })
    }

    /// A new batch's journal, in state `staging`.
    pub fn start(&self, tag: &str, entries: Vec<Entry>, dirs: Vec<String>) -> Journal {
        Journal {
            tag: tag.to_string(),
            root: self.root.clone(),
            state: State::Staging,
            entries,
            dirs,
        }
    }

    /// Writes (or atomically replaces) `journal` as it is, in `state`.
    pub fn save(&self, journal: &Journal, state: State) -> io::Result<()> {
        let mut j = journal.clone();
        j.state = state;
        let next = format!("{}.next", j.tag);
        let mut f = create_private(&self.dir, &next, true)?;
        f.write_all(j.seal(&self.key).as_bytes())?;
        f.sync_all()?;
        self.dir
            .rename(&next, &self.dir, format!("{}.journal", j.tag))?;
        sync_dir(&self.dir)
    }

    /// Removes the journal and its lock.
    pub fn discard(&self, tag: &str) -> io::Result<()> {
        let _ = self.dir.remove_file(format!("{tag}.next"));
        // The journal before its lock: a journal never outlives its lock file, so a
        // recovery never mistakes a live batch for a dead one.
        match self.dir.remove_file(format!("{tag}.journal")) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let _ = self.dir.remove_file(format!("{tag}.lock"));
        Ok(())
    }

    /// Creates and locks `<tag>.lock` beside the journal: the lock lives as long as the
    /// process (the kernel drops it on any death), which is how [`Journals::recover`]
    /// tells a batch in progress in another process from one a crash left.
    ///
    /// A recovery in another process may take and remove a fresh lock file before this
    /// one locks it (it looks like a crash's leftover); so after locking, the name must
    /// still be this file, or it is made again.
    pub fn hold(&self, tag: &str) -> io::Result<std::fs::File> {
        let name = format!("{tag}.lock");
        for _ in 0..5 {
            let mut file = create_private(&self.dir, &name, false)?.into_std();
            file.lock()?;
            // Named for the Node server's recovery, which cannot test a flock.
            let own = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
            if let Some(text) = protocol::lock_text(&own) {
                file.set_len(0)?;
                file.write_all(text.as_bytes())?;
            }
            let mine = file.metadata()?;
            match self.dir.symlink_metadata(&name) {
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

    /// Whether another live process holds `tag`'s lock: it is locked (the CLI's), or
    /// the process it names still runs (the Node server's, [`protocol::lock_alive`]).
    fn alive(&self, tag: &str) -> bool {
        let Ok((f, _)) = open_regular(&self.dir, Path::new(&format!("{tag}.lock")), false) else {
            return false;
        };
        let mut f = f.into_std();
        if matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock)) {
            return true;
        }
        let mut text = String::new();
        let _ = (&mut f).take(64).read_to_string(&mut text);
        let stat = protocol::lock_pid(&text)
            .and_then(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok());
        protocol::lock_alive(&text, stat.as_deref())
    }

    /// Finishes every batch a dead run left on `root`: rolls back those caught in
    /// `swapping`, cleans up the rest. A journal that does not verify is left alone
    /// (named on stderr).
    pub fn recover(&self, root: &Dir) -> io::Result<()> {
        let mut unreadable = Vec::new();
        for entry in self.dir.entries()?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some((tag, ext)) = name.rsplit_once('.') else {
                continue;
            };
            if self.alive(tag) {
                continue;
            }
            if ext != "journal" {
                // A lock or half-written journal whose batch never started.
                if !self.dir.exists(format!("{tag}.journal")) {
                    let _ = self.dir.remove_file(&name);
                }
                continue;
            }
            match self.read(&name, tag) {
                Some(journal) => {
                    undo(root, &journal, &[])?;
                    self.discard(tag)?;
                }
                None => unreadable.push(name),
            }
        }
        if !unreadable.is_empty() {
            eprintln!(
                "anchored-edit: left alone write journal(s) that do not verify in {}: {}",
                self.shown.display(),
                unreadable.join(", ")
            );
        }
        Ok(())
    }

    /// The journal `name`, if it is a regular file of bounded size that verifies.
    fn read(&self, name: &str, tag: &str) -> Option<Journal> {
        let (file, meta) = open_regular(&self.dir, Path::new(name), false).ok()?;
        if meta.len() > JOURNAL_MAX {
            return None;
        }
        let mut text = String::new();
        file.into_std()
            .take(JOURNAL_MAX)
            .read_to_string(&mut text)
            .ok()?;
        Journal::unseal(&text, &self.key, tag, &self.root)
    }
}

/// The user's key: `key` in the state directory, made when missing (16 bytes of
/// `/dev/urandom` written to a private temporary file, then linked into place, so that
/// no process ever reads a half-written key); a key that is not a regular 16-byte file
/// of this user is an error.
fn key(base: &Dir) -> io::Result<[u8; 16]> {
    if !base.exists("key") {
        let tmp = format!("key.{}.tmp", crate::jail::random_tag());
        let mut f = create_private(base, &tmp, true)?;
        let mut key = [0u8; 16];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut key)?;
        let made = f
            .write_all(&key)
            .and_then(|()| f.sync_all())
            .and_then(|()| base.hard_link(&tmp, base, "key"));
        let _ = base.remove_file(&tmp);
        match made {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
    }
    let (file, meta) = open_regular(base, Path::new("key"), false)?;
    // SAFETY: geteuid has no preconditions.
    if meta.len() != 16 || meta.uid() != unsafe { libc::geteuid() } || meta.mode() & 0o077 != 0 {
        return Err(io::Error::other(
            "the write journal's key is not a private 16-byte file of this user",
        ));
    }
    let mut key = [0u8; 16];
    file.into_std().read_exact(&mut key)?;
    Ok(key)
}

/// `O_CREAT|O_NOFOLLOW`, mode 0600 (`exclusive`: `O_EXCL` too).
fn create_private(dir: &Dir, name: &str, exclusive: bool) -> io::Result<cap_std::fs::File> {
    let mut options = OpenOptions::new();
    options
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW);
    if exclusive {
        options.create_new(true);
    } else {
        options.create(true);
    }
    dir.open_with(name, &options)
}

/// Returns every target of `journal` to its old text (in `swapping`; the protocol's
/// [`protocol::roll_back`] decides each), then removes every staging file, rollback
/// copy and (before `done`) created directory: the protocol's
/// [`protocol::undo_steps`], in its order.
///
/// `held`: the directory handles the running commit used, entry by entry (the first
/// entries; none in a recovery). They are used where present, so a directory renamed
/// or replaced since is cleaned where the commit's files really are.
pub fn undo(root: &Dir, journal: &Journal, held: &[Dir]) -> io::Result<()> {
    // The entry's directory, from its `Open` step (None: nothing of ours is there).
    let mut dir: Option<Dir> = None;
    for step in protocol::undo_steps(journal) {
        match step {
            UndoStep::Open(i) => {
                let opened = match held.get(i).map(Dir::try_clone) {
                    Some(d) => d,
                    None => open_dir_nofollow(root, Path::new(&journal.entries[i].dir)),
                };
                dir = match opened {
                    Ok(d) => Some(d),
                    // Gone, or no longer a directory (a link now): nothing of ours is there.
                    Err(err) if held.is_empty() || err.kind() == io::ErrorKind::NotFound => None,
                    Err(err) => return Err(err),
                };
            }
            UndoStep::RollBack(i) => {
                if let Some(d) = &dir {
                    roll_back(d, &journal.entries[i])?;
                }
            }
            UndoStep::RemoveSides(i) => {
                let (Some(d), e) = (&dir, &journal.entries[i]) else {
                    continue;
                };
                for side in [&e.staged, &e.old].into_iter().flatten() {
                    match d.remove_file(side) {
                        Err(err) if err.kind() != io::ErrorKind::NotFound => return Err(err),
                        _ => {}
                    }
                }
            }
            UndoStep::Rmdir(d) => {
                let path = Path::new(&journal.dirs[d]);
                if let Ok(parent) = open_dir_nofollow(root, path.parent().unwrap_or(Path::new("")))
                {
                    if let Some(name) = path.file_name() {
                        let _ = parent.remove_dir(name);
                    }
                }
            }
        }
    }
    Ok(())
}

/// One target back to its old text, as the protocol decides from what is on disk.
fn roll_back(dir: &Dir, e: &Entry) -> io::Result<()> {
    let exists = |n: &str| dir.symlink_metadata(n).is_ok();
    let id = |n: &str| dir.symlink_metadata(n).ok().map(|m| (m.dev(), m.ino()));
    let facts = Facts {
        staged_exists: e.staged.as_deref().is_some_and(exists),
        old_exists: e.old.as_deref().is_some_and(exists),
        target_exists: exists(&e.name),
        target_is_staged: e.staged.as_deref().is_some_and(|s| {
            let staged = id(s);
            staged.is_some() && staged == id(&e.name)
        }),
        target_matches_old: e.kind == Kind::InPlace
            && match (&e.old, read_regular(dir, &e.name)) {
                (Some(old), Ok(now)) => read_regular(dir, old).is_ok_and(|b| b == now),
                _ => false,
            },
    };
    let old = e.old.as_deref().unwrap_or_default();
    match protocol::roll_back(e.kind, e.staged.is_some(), facts) {
        Undo::Keep => Ok(()),
        Undo::RenameOldToTarget => dir.rename(old, dir, &e.name),
        Undo::UnlinkTarget => dir.remove_file(&e.name),
        Undo::RewriteFromOld => {
            let before = read_regular(dir, old)?;
            let (file, _) = open_regular(dir, Path::new(&e.name), true)?;
            overwrite(file.into_std(), &before)
        }
    }
}

/// A regular file's bytes, opened without following a link or blocking.
fn read_regular(dir: &Dir, name: &str) -> io::Result<Vec<u8>> {
    let (file, _) = open_regular(dir, Path::new(name), false)?;
    let mut out = Vec::new();
    file.into_std().read_to_end(&mut out)?;
    Ok(out)
}
/// Writes `bytes` over the whole file, in place, and syncs it.
pub fn overwrite(mut file: std::fs::File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)?;
    file.sync_all()
}

/// The directory at relative `rel`, opened one component at a time without following
/// any link.
pub fn open_dir_nofollow(root: &Dir, rel: &Path) -> io::Result<Dir> {
    let mut dir = root.try_clone()?;
    for c in rel.components() {
        match c {
            std::path::Component::Normal(n) => dir = dir_nofollow(&dir, n)?,
            _ => return Err(io::Error::other("not a plain relative path")),
        }
    }
    Ok(dir)
}

/// The directory `name` in `dir`, not through a link (`O_DIRECTORY|O_NOFOLLOW`).
fn dir_nofollow(dir: &Dir, name: &std::ffi::OsStr) -> io::Result<Dir> {
    let mut options = OpenOptions::new();
    options
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW);
    let file = dir.open_with(name, &options)?;
    Ok(Dir::from_std_file(file.into_std()))
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
