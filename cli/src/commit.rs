//! Writing a call's changes to disk: all files or none, at every instant.
//!
//! The CLI's executor of the write protocol. The order of the steps is the protocol's
//! ([`protocol::commit_steps`], the list the Node server's `commit.js` interprets too):
//! [`Exec`] performs each step with cap-std and decides no order. In that order:
//!
//! 1. **Plan**: each new text is encoded in its file's encoding (the result's
//!    `encoding`, by the engine's `encode_text`); each target is located beneath the
//!    root and compared with what the engine read for the call (kind, inode and
//!    length): a difference is `stale_buffer`, and nothing is written. Two changes
//!    reaching one real file are refused.
//! 2. **Journal** (`journal.rs`): every name the commit will create is recorded first.
//! 3. **Stage**: new texts go to staging files beside their targets, created exclusively
//!    under unguessable names (`O_CREAT|O_EXCL|O_NOFOLLOW` through the root handle),
//!    given the target's permissions (and owner, when the process can) on the open file,
//!    and synced. The old text is kept before any swap: a hard link to the old file, or
//!    a copy of its bytes when it will be written in place (copied from the file and
//!    checked against the engine's read: a difference is `stale_buffer`).
//! 4. **Check and swap**: every target is compared with the engine's read once more,
//!    its bytes too (their length and 128-bit hash, `digest.rs`: the file is read once
//!    here, a block at a time, and the call keeps no copy of what it read), then each
//!    is replaced by one `rename(staged, target)`; a file with several hard
//!    links or an owner the process could not give a new file is overwritten in place
//!    instead; a new file is linked into place (never over a file that appeared); a
//!    delete unlinks. Directories are synced, the journal says `done`, copies go.
//!
//! Syncing: a batch of up to `protocol::steps::SYNC_EACH_MAX` files syncs each staged file and each
//! target's directory (cheap for the usual one-file call). A larger batch
//! (`replace_in_files` over a thousand files) syncs once per file system instead
//! (`syncfs` on a directory of each): after staging, so every staged file and kept old
//! text is durable before the journal says `swapping`, and after the swaps, so every
//! rename is durable before it says `done`. The same points in the protocol, one
//! call instead of two per file (each fsync costs milliseconds on a disk).
//!
//! One file replaced by one rename (the usual call) skips the journal's `swapping` and
//! `done` states: its rename is atomic and comes after the staged file is synced, so a
//! crash before it leaves the old file and after it the new one; the journal on disk
//! still says `staging`, whose recovery only removes the staging file and the `.old`
//! link, whichever state the target is in. Two journal writes (four fsyncs) fewer. The
//! running commit keeps `swapping` in memory, so a failure after the rename still rolls
//! back to the old text.
//!
//! A failure at any step runs [`journal::undo`], the same code that recovers a batch a
//! crash interrupted, so both paths are one.

use crate::digest::Digest;
use crate::disk::{open_regular, DiskFiles, Seen};
use crate::jail;
use crate::journal::{self, open_dir, sync_dir, Entry};
use crate::read_cache::Stamp;
use anchored_edit::protocol::{self, Journal, Kind, Named, Step};
use anchored_edit::{encode_text, FileChange};
use cap_std::fs::{Dir, Metadata, MetadataExt, OpenOptions, OpenOptionsExt, PermissionsExt};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// One file operation, by engine path; a write carries the encoded bytes.
#[derive(Debug, Clone)]
pub enum Op<'t> {
    Write {
        path: String,
        text: std::borrow::Cow<'t, [u8]>,
    },
    Remove {
        path: String,
    },
}

impl Op<'_> {
    fn path(&self) -> &str {
        match self {
            Op::Write { path, .. } | Op::Remove { path } => path,
        }
    }
}

/// Why a commit wrote nothing.
#[derive(Debug)]
pub enum Failure {
    /// This (engine) path changed since the engine read it.
    Stale(String),
    /// The call cannot be written as asked (two names of one file); the message says
    /// why and names both paths.
    Invalid(String),
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// Called with a step's name before each step that touches the disk; an error fails
/// that step. An error whose text is [`CRASH`] stops the commit where it is, with no
/// undo, as a killed process would.
pub type Hook<'h> = dyn FnMut(&str) -> io::Result<()> + 'h;

pub const CRASH: &str = "injected crash";

/// Syncs every file system holding one of `dirs`: each once (`syncfs` on one of its
/// directories), for batches larger than `protocol::steps::SYNC_EACH_MAX`.
fn sync_file_systems(dirs: &[Dir]) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let mut done: Vec<u64> = Vec::new();
    for d in dirs {
        let dev = d.dir_metadata()?.dev();
        if done.contains(&dev) {
            continue;
        }
        // A directory handle may be an O_PATH descriptor, which syncfs refuses: open
        // the directory itself for reading, as sync_dir does.
        let opened = d.open(".")?;
        // SAFETY: syncfs reads only the descriptor, which `opened` keeps open.
        if unsafe { libc::syncfs(opened.as_raw_fd()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        done.push(dev);
    }
    Ok(())
}

/// The disk operations for the engine's changes, each text encoded as its change says.
/// A UTF-8 text (no `encoding`) is borrowed from the result, or from `texts` (the
/// session's, by path) when the result carries none: no second copy of a file.
pub fn plan<'c>(
    changes: &'c [FileChange],
    texts: &'c [(String, std::sync::Arc<String>)],
) -> Result<Vec<Op<'c>>, Failure> {
    let mut ops = Vec::new();
    for c in changes {
        let text = || {
            let shared = || texts.iter().find(|(p, _)| *p == c.path);
            let new_text = match (c.new_text.as_deref(), shared()) {
                (Some(t), _) => t,
                (None, Some((_, t))) => t.as_str(),
                (None, None) => {
                    let why = format!("internal: no new text for `{}`", c.path);
                    return Err(Failure::Invalid(why));
                }
            };
            match c.encoding.as_deref() {
                None => Ok(std::borrow::Cow::Borrowed(new_text.as_bytes())),
                Some(label) => encode_text(new_text, Some(label))
                    .map(std::borrow::Cow::Owned)
                    .map_err(|e| Failure::Io(io::Error::other(e.message))),
            }
        };
        if let Some(dest) = &c.moved_to {
            ops.push(Op::Write {
                path: dest.clone(),
                text: text()?,
            });
            ops.push(Op::Remove {
                path: c.path.clone(),
            });
        } else if c.deleted {
            ops.push(Op::Remove {
                path: c.path.clone(),
            });
        } else {
            ops.push(Op::Write {
                path: c.path.clone(),
                text: text()?,
            });
        }
    }
    Ok(ops)
}

/// Applies `ops` all or nothing.
pub fn commit(disk: &DiskFiles, ops: &[Op<'_>]) -> Result<(), Failure> {
    let mut faults = test_faults();
    commit_with(disk, ops, &mut |step: &str| {
        crate::step_times::announce(step);
        faults(step)
    })
}

/// One target, located and checked.
struct Target<'o> {
    op: &'o Op<'o>,
    rel: PathBuf,
    dir_rel: PathBuf,
    name: String,
    seen: Seen,
    meta: Option<Metadata>,
}

/// [`commit`] with `hook` before each disk step.
pub fn commit_with(disk: &DiskFiles, ops: &[Op<'_>], hook: &mut Hook) -> Result<(), Failure> {
    let root = disk.jail().dir();
    let targets = locate(disk, ops)?;
    let journals = disk.journals()?;
    let tag = jail::random_tag();
    let mut journal = journals.start(
        &tag,
        targets.iter().map(|t| entry_for(t, &tag)).collect(),
        missing_dirs(root, &targets),
    );
    // Held until the end: a recovery in another process leaves a live batch alone.
    let lock = journals.hold(&tag)?;
    let mut exec = Exec {
        disk,
        targets: &targets,
        journals,
        dirs: Vec::new(),
        staged: None,
        stamps: vec![None; targets.len()],
    };
    let run = exec.run(&mut journal, hook);
    if let Err(Failure::Io(e)) = &run {
        if e.to_string() == CRASH {
            return run;
        }
    }
    drop(exec.staged.take());
    let dirs = std::mem::take(&mut exec.dirs);
    let defer = run.is_ok() && journal.state.stands() && disk.defers();
    let olds = if defer {
        open_olds(&journal, &dirs)
    } else {
        Vec::new()
    };
    // Rolled back after a failure, cleaned up after success: the same walk. A clean-up
    // that fails after `done` is finished by the next run; the batch stands.
    let in_root = journal::undo(root, &journal, &dirs);
    // A server removes the journal after its reply (after_reply.rs): it lies outside the
    // root, the batch is final, and a crash before the removal leaves it to the next
    // run's recovery, as here. The root's side files go before the reply, so whoever
    // looks at the root once the reply is out finds only the project's files; their
    // blocks are freed after it, when `olds` closes.
    if defer && in_root.is_ok() {
        if let Ok(journals) = journals.try_clone() {
            disk.defer(Box::new(move || {
                drop(olds);
                let _ = journals.discard(&tag);
                drop(lock);
            }));
            return Ok(());
        }
    }
    let cleanup = in_root.and_then(|()| journals.discard(&tag));
    drop(lock);
    match run {
        Err(Failure::Io(e)) => Err(Failure::Io(match cleanup {
            Ok(()) => e,
            // The journal stays: the next run finishes the rollback.
            Err(c) => io::Error::other(format!(
                "{e}; rolling back stopped at: {c}, and the next run of anchored-edit finishes it"
            )),
        })),
        Err(e) => Err(e),
        Ok(()) if journal.state.stands() => Ok(()),
        Ok(()) => cleanup.map_err(Failure::Io),
    }
}

/// The old texts (`.old` links, or copies of hard-linked targets) open: unlinking a last
/// link frees its blocks (0.65 ms for 3.3 MB on ext4), unlinking one held open does not
/// (6 µs); the blocks are freed when the files close.
fn open_olds(journal: &Journal, dirs: &[Dir]) -> Vec<cap_std::fs::File> {
    journal
        .entries
        .iter()
        .zip(dirs)
        .filter_map(|(e, dir)| open_regular(dir, Path::new(e.old.as_deref()?), false).ok())
        .map(|(file, _)| file)
        .collect()
}

/// The CLI's interpreter of the protocol's steps ([`protocol::commit_steps`]): it
/// performs each with cap-std and decides no order.
struct Exec<'e, 'o> {
    disk: &'e DiskFiles,
    targets: &'e [Target<'o>],
    journals: &'e journal::Journals,
    /// Each entry's open directory, from its `Open` step on.
    dirs: Vec<Dir>,
    /// The staging file being written (its `Stage`, `Write` and `Fsync` steps).
    staged: Option<std::fs::File>,
    /// Each staged file's stat after its `fsync`, by entry (for [`Exec::note_swapped`]).
    stamps: Vec<Option<Stamp>>,
}

impl Exec<'_, '_> {
    /// Every step in the protocol's order, `hook` before each named one. A failure once
    /// the batch stands is none; an injected crash stops where it is.
    fn run(&mut self, journal: &mut Journal, hook: &mut Hook) -> Result<(), Failure> {
        let mut steps = protocol::commit_steps(journal);
        let mut k = 0;
        while let Some(&step) = steps.get(k) {
            let done = match step.name() {
                Some(name) => hook(name).map_err(Failure::Io),
                None => Ok(()),
            }
            .and_then(|()| self.step(journal, step));
            match done {
                // A kind changed at its stage: the steps so far are the same in the new list.
                Ok(true) => steps = protocol::commit_steps(journal),
                Ok(false) => {}
                Err(Failure::Io(e)) if e.to_string() == CRASH => return Err(Failure::Io(e)),
                Err(_) if journal.state.stands() => {}
                Err(e) => return Err(e),
            }
            k += 1;
        }
        Ok(())
    }

    /// Performs one step; true when it changed the journal's kinds.
    fn step(&mut self, journal: &mut Journal, step: Step) -> Result<bool, Failure> {
        let root = self.disk.jail().dir();
        match step {
            Step::Save(state) => self.journals.save(journal, state)?,
            Step::Enter(state) => journal.state = state,
            Step::Mkdir(d) => root.create_dir(&journal.dirs[d])?,
            // Kept before anything is created in it: the undo cleans through this handle.
            Step::Open(i) => self.dirs.push(open_dir(root, &self.targets[i].dir_rel)?),
            Step::Stage(i) => return self.stage(i, &mut journal.entries[i]),
            Step::Write(i) => {
                let (Op::Write { text, .. }, Some(f)) = (self.targets[i].op, &mut self.staged)
                else {
                    return Err(io::Error::other("no staging file").into());
                };
                f.write_all(text)?;
            }
            Step::Fsync(i) => {
                if let Some(f) = self.staged.take() {
                    f.sync_all()?;
                    // Also makes the rename's change time fine-grained where the kernel
                    // gives fine times only to files whose times were asked for.
                    let meta = f.metadata().ok().map(Metadata::from_just_metadata);
                    self.stamps[i] = meta.as_ref().map(Stamp::of);
                }
            }
            Step::LinkOld(i) => {
                let (e, d) = (&journal.entries[i], self.dir(i)?);
                d.hard_link(&e.name, d, e.old.as_deref().unwrap_or_default())?;
            }
            Step::CopyOld(i, sync) => {
                // Copied from the file itself, checked against what the engine read.
                let (t, d) = (&self.targets[i], self.dir(i)?);
                let old = journal.entries[i].old.as_deref().unwrap_or_default();
                let mut copy = create_exclusive(d, old, true)?.into_std();
                if !copy_as_seen(d, t, &mut copy)? {
                    return Err(Failure::Stale(t.op.path().to_string()));
                }
                if sync {
                    copy.sync_all()?;
                }
            }
            Step::SyncFiles | Step::SyncDirs => sync_file_systems(&self.dirs)?,
            Step::Check(i) => check(self.disk, &self.targets[i], self.dir(i)?)?,
            Step::Rename(i) | Step::LinkNew(i) => {
                swap(&self.dirs, self.targets, &journal.entries, step)?;
                self.note_swapped(i);
            }
            Step::Overwrite(_) | Step::Unlink(_) => {
                swap(&self.dirs, self.targets, &journal.entries, step)?
            }
            Step::SyncDir(i) => sync_dir(self.dir(i)?)?,
            Step::Cleanup => {}
        }
        Ok(false)
    }

    /// Tells the read cache that entry `i`'s swap settled its file ([`Stamp::settles`]),
    /// with the stat taken now, right after the swap: the hand-over of the written text
    /// (after the reply) keeps it trusted if the file still shows this stat.
    fn note_swapped(&self, i: usize) {
        let (Some(Some(staged)), Ok(dir)) = (self.stamps.get(i), self.dir(i)) else {
            return;
        };
        let t = &self.targets[i];
        let Ok(now) = dir.symlink_metadata(&t.name) else {
            return;
        };
        let now = Stamp::of(&now);
        if now.settles(staged) {
            self.disk.note_settled(&t.rel, now);
        }
    }

    /// Entry `i`'s open directory.
    fn dir(&self, i: usize) -> io::Result<&Dir> {
        self.dirs
            .get(i)
            .ok_or_else(|| io::Error::other("no open directory"))
    }

    /// Creates entry `e`'s staging file, private until it has the target's owner and
    /// mode (chown first: it clears set-id bits that chmod then restores); a target
    /// whose owner the process cannot give turns `replace` into `in_place` (true).
    fn stage(&mut self, i: usize, e: &mut Entry) -> Result<bool, Failure> {
        let t = &self.targets[i];
        let file = create_exclusive(
            self.dir(i)?,
            e.staged.as_deref().unwrap_or_default(),
            t.meta.is_some(),
        )?;
        let mut changed = false;
        if let Some(meta) = &t.meta {
            if e.kind == Kind::Replace && !give_owner(&file, meta)? {
                e.kind = Kind::InPlace;
                changed = true;
            }
            file.set_permissions(cap_std::fs::Permissions::from_mode(meta.mode()))?;
        }
        self.staged = Some(file.into_std());
        Ok(changed)
    }
}

/// Every target beneath the root, compared with what the engine read.
fn locate<'o>(disk: &DiskFiles, ops: &'o [Op<'o>]) -> Result<Vec<Target<'o>>, Failure> {
    let root = disk.jail().dir();
    let mut targets: Vec<Target> = Vec::new();
    let mut named: Vec<Named> = Vec::new();
    for op in ops {
        let rel = disk
            .jail()
            .locate(op.path())
            .map_err(|e| Failure::Io(io::Error::other(e.message)))?;
        named.push(Named {
            path: op.path().to_string(),
            real: rel.to_string_lossy().into_owned(),
            id: root.symlink_metadata(&rel).ok().map(|m| (m.dev(), m.ino())),
            remove: matches!(op, Op::Remove { .. }),
        });
        protocol::aliases(&named).map_err(Failure::Invalid)?;
        let name = rel
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| io::Error::other("a change names the root itself"))?;
        let meta = match root.symlink_metadata(&rel) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(Failure::Io(e)),
        };
        let t = Target {
            op,
            dir_rel: rel.parent().map(Path::to_path_buf).unwrap_or_default(),
            seen: disk.seen(&rel),
            name,
            rel,
            meta,
        };
        let changed = !same_as_seen(root, &t, Depth::Metadata)?;
        if changed || matches!((op, &t.meta), (Op::Remove { .. }, None)) {
            return Err(Failure::Stale(op.path().to_string()));
        }
        targets.push(t);
    }
    Ok(targets)
}

/// How much of a target [`same_as_seen`] compares with what the engine read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Depth {
    /// Kind, inode and length: the early refusal, before anything is staged.
    Metadata,
    /// And the bytes (their [`Digest`]): the final check, right before the swaps.
    Bytes,
}

/// Whether the target is what the engine read: the same inode with the same length
/// (and, at [`Depth::Bytes`], the same bytes), or still absent.
fn same_as_seen(root: &Dir, t: &Target, depth: Depth) -> io::Result<bool> {
    let seen = as_seen(t.seen.id, t.seen.digest);
    let now = match root.symlink_metadata(&t.rel) {
        Ok(m) if !m.is_file() => return Ok(false),
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(seen.unchanged(None)),
        Err(e) => return Err(e),
    };
    let mut now = protocol::Seen {
        id: Some((now.dev(), now.ino())),
        len: Some(now.len()),
        digest: None,
    };
    if depth == Depth::Bytes && seen.unchanged(Some(&now)) {
        let (mut file, meta) = open_regular(root, &t.rel, false)?;
        now = as_seen(
            Some((meta.dev(), meta.ino())),
            Some(Digest::of_reader(&mut file)?),
        );
    }
    Ok(seen.unchanged(Some(&now)))
}

/// A read as the protocol's compare and swap compares it.
fn as_seen(id: Option<(u64, u64)>, digest: Option<Digest>) -> protocol::Seen {
    protocol::Seen {
        id,
        len: digest.map(|d| d.len),
        digest: digest.map(|d| format!("{:032x}", d.hash)),
    }
}

/// Copies the target's bytes to `out` (the rollback copy of a file written in place);
/// false when they are not what the engine read (the copy is then of no use).
fn copy_as_seen(dir: &Dir, t: &Target, out: &mut impl Write) -> io::Result<bool> {
    let (mut file, meta) = open_regular(dir, Path::new(&t.name), false)?;
    if Some((meta.dev(), meta.ino())) != t.seen.id {
        return Ok(false);
    }
    Ok(Some(Digest::copy(&mut file, out)?) == t.seen.digest)
}

/// The final check before the swaps: the target is as the engine read it, its path
/// still leads to the same place (no directory on the way turned into a link), and the
/// directory handle the swap will use is the directory at that place.
fn check(disk: &DiskFiles, t: &Target, dir: &Dir) -> Result<(), Failure> {
    let root = disk.jail().dir();
    let same_place = disk
        .jail()
        .locate(t.op.path())
        .is_ok_and(|rel| rel == t.rel);
    let now = open_dir(root, &t.dir_rel).and_then(|d| d.dir_metadata());
    let same_dir = match (dir.dir_metadata(), now) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    };
    if same_place && same_dir && same_as_seen(root, t, Depth::Bytes)? {
        Ok(())
    } else {
        Err(Failure::Stale(t.op.path().to_string()))
    }
}

fn entry_for(t: &Target, tag: &str) -> Entry {
    let remove = matches!(t.op, Op::Remove { .. });
    let nlink = t.meta.as_ref().map_or(0, |m| m.nlink());
    let kind = protocol::kind_for(remove, t.meta.is_some(), nlink);
    protocol::entry_for(&rel_str(&t.dir_rel), &t.name, kind, t.meta.is_some(), tag)
}

/// A relative path as the journal writes it (`/`-separated).
fn rel_str(rel: &Path) -> String {
    rel.to_string_lossy().into_owned()
}

/// Directories the writes need that do not exist, shallowest first.
fn missing_dirs(root: &Dir, targets: &[Target]) -> Vec<String> {
    // A set of the names already listed, and no stat below a missing folder: the cost is
    // the paths' length, not depth × folders (a Vec scan made deep new paths cubic).
    let mut out: Vec<String> = Vec::new();
    let mut listed = std::collections::HashSet::new();
    for t in targets.iter().filter(|t| matches!(t.op, Op::Write { .. })) {
        let mut prefix = PathBuf::new();
        let mut missing = false;
        for c in t.dir_rel.components() {
            prefix.push(c);
            let shown = rel_str(&prefix);
            if listed.contains(&shown) {
                missing = true;
                continue;
            }
            missing = missing || root.symlink_metadata(&prefix).is_err();
            if missing {
                listed.insert(shown.clone());
                out.push(shown);
            }
        }
    }
    out
}

/// Gives the staging file the target's owner and group; false if the process cannot.
fn give_owner(file: &cap_std::fs::File, target: &Metadata) -> io::Result<bool> {
    let mine = file.metadata()?;
    if (mine.uid(), mine.gid()) == (target.uid(), target.gid()) {
        return Ok(true);
    }
    Ok(std::os::unix::fs::fchown(file, Some(target.uid()), Some(target.gid())).is_ok())
}

/// `O_CREAT|O_EXCL|O_NOFOLLOW` beneath `dir`: never an existing file, never through a
/// link. `private`: mode 0600 (a copy of a file others may not read stays so).
fn create_exclusive(dir: &Dir, name: &str, private: bool) -> io::Result<cap_std::fs::File> {
    let mut options = OpenOptions::new();
    options
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW);
    if private {
        options.mode(0o600);
    }
    dir.open_with(name, &options)
}

/// One swap step of the protocol, on entry `i` through its open directory.
fn swap(dirs: &[Dir], targets: &[Target], entries: &[Entry], step: Step) -> io::Result<()> {
    let (Step::Rename(i) | Step::LinkNew(i) | Step::Overwrite(i) | Step::Unlink(i)) = step else {
        return Ok(());
    };
    let (dir, t, e) = match (dirs.get(i), targets.get(i), entries.get(i)) {
        (Some(d), Some(t), Some(e)) => (d, t, e),
        _ => return Err(io::Error::other("no open directory")),
    };
    let staged = e.staged.as_deref().unwrap_or_default();
    match step {
        Step::Rename(_) => dir.rename(staged, dir, &e.name),
        Step::LinkNew(_) => {
            dir.hard_link(staged, dir, &e.name)?;
            dir.remove_file(staged)
        }
        Step::Overwrite(_) => {
            let Op::Write { text, .. } = t.op else {
                return Ok(());
            };
            let (file, meta) = open_regular(dir, Path::new(&e.name), true)?;
            if Some((meta.dev(), meta.ino())) != t.seen.id {
                return Err(io::Error::other(format!(
                    "{} was replaced",
                    t.rel.display()
                )));
            }
            journal::overwrite(file.into_std(), text)
        }
        _ => dir.remove_file(&e.name),
    }
}

/// Faults for tests of the real binary, from the environment; debug builds only (a
/// release build reads none of these). A step is named `N` (the Nth disk step of the
/// commit, from 1) or `NAME:K` (the Kth step called NAME: journal, mkdir, stage, write,
/// fsync, keep-old, check, swap, sync, cleanup), counted over the protocol's steps that
/// have a name ([`Step::name`]), as the Node server counts them.
///
/// - `ANCHORED_EDIT_FAIL_AT=STEP`: that step fails (the commit rolls back).
/// - `ANCHORED_EDIT_CRASH_AT=STEP`: the process exits there with status 137, writing
///   nothing more, as if killed.
/// - `ANCHORED_EDIT_PAUSE_AT=STEP` with `ANCHORED_EDIT_PAUSE_FILE=PATH`: creates PATH
///   and waits (up to 30 s) until it is removed, so a test can change a file mid-commit.
fn test_faults() -> impl FnMut(&str) -> io::Result<()> {
    let var = |name: &str| -> Option<String> {
        if cfg!(debug_assertions) {
            std::env::var(name).ok()
        } else {
            None
        }
    };
    let fail_at = var("ANCHORED_EDIT_FAIL_AT");
    let crash_at = var("ANCHORED_EDIT_CRASH_AT");
    let pause_at = var("ANCHORED_EDIT_PAUSE_AT");
    let pause_file = var("ANCHORED_EDIT_PAUSE_FILE");
    let mut step = 0usize;
    let mut counts: std::collections::HashMap<String, usize> = Default::default();
    move |name: &str| {
        step += 1;
        let count = counts.entry(name.to_string()).or_default();
        *count += 1;
        let is = |spec: &Option<String>| {
            spec.as_deref()
                .is_some_and(|s| s == step.to_string() || s == format!("{name}:{count}"))
        };
        if is(&crash_at) {
            std::process::exit(137);
        }
        if let (true, Some(file)) = (is(&pause_at), &pause_file) {
            let _ = std::fs::write(file, "");
            let start = std::time::Instant::now();
            while Path::new(file).exists() && start.elapsed().as_secs() < 30 {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        if is(&fail_at) {
            return Err(io::Error::other(format!(
                "injected failure at step {step} ({name})"
            )));
        }
        Ok(())
    }
}
