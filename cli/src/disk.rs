//! Files on disk under a root directory: the CLI's (and the MCP server's) `Files`.
//!
//! Every path goes through the [`Jail`] (resolved beneath the open root, never out).
//! Reads refuse what is not a regular file without opening it for reading, and what
//! they hand the engine is remembered per call ([`Seen`]: its length and hash, see
//! `digest.rs`): the commit compares each target with it right before swapping
//! (compare and swap), so a save made during the call is never overwritten.
//!
//! A file is read with one `read` into a buffer of its size, and that buffer is handed
//! to the engine alone (no copy kept here): the engine turns a UTF-8 file's buffer into
//! its text without copying it.
//!
//! Reads hand the engine the file's bytes ([`Content::Bytes`]): the engine decodes them
//! (UTF-8, a BOM, the call's `encoding`, a declaration; binary refused) and the commit
//! writes each new text encoded as the result says, so this reader makes no decision
//! about text.
//!
//! Files are identified by device and inode ([`Files::identity`]), so the engine keeps
//! one text for `a.txt` and a symlink or hard link to it.

use crate::after_reply::{self, Later};
use crate::digest::Digest;
use crate::jail::{self, Jail};
use crate::journal::Journals;
use crate::read_cache::{Held, ReadCache};
use anchored_edit::{
    decode_bytes, file_too_large, Content, EditError, EditResult, Files, MAX_FILE_BYTES,
};
use cap_std::fs::{Metadata, MetadataExt, OpenOptions, OpenOptionsExt};
use std::collections::HashMap;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// What a call read at one real path: the bytes' length and hash (None: no file) and
/// the file's device and inode.
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen {
    pub digest: Option<Digest>,
    pub id: Option<(u64, u64)>,
}

/// The files under `root`, read through the jail.
pub struct DiskFiles {
    jail: Jail,
    journals: Result<Journals, String>,
    seen: Mutex<HashMap<PathBuf, Seen>>,
    /// The walker's warnings about the last listing (skipped ignore files).
    list_warnings: Mutex<Vec<String>>,
    /// Files kept between calls (a server's; `keep_reads`).
    cache: Option<Arc<ReadCache>>,
    /// Work after the reply (a server's; after_reply.rs); each job owns its handles,
    /// and dropping this runs and waits for them.
    later: Option<Later>,
    /// Hand-overs queued and not yet run (read_real waits for them).
    handing: Arc<Pending>,
}

/// The longest a read waits for the previous call's hand-over to the read cache
/// (after_reply.rs); longer, it reads the file itself (as sound, only slower).
pub const HAND_OVER_WAIT: Duration = Duration::from_millis(50);

/// A count of jobs not yet run, and a signal when it falls to zero.
#[derive(Default)]
struct Pending {
    count: Mutex<usize>,
    zero: Condvar,
}

impl Pending {
    fn lock(&self) -> std::sync::MutexGuard<'_, usize> {
        self.count.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn add(&self) {
        *self.lock() += 1;
    }

    fn done(&self) {
        let mut n = self.lock();
        *n = n.saturating_sub(1);
        if *n == 0 {
            self.zero.notify_all();
        }
    }

    /// Waits until none is pending, or `most` passed.
    fn wait(&self, most: Duration) {
        let n = self.lock();
        let _ = self
            .zero
            .wait_timeout_while(n, most, |n| *n > 0)
            .map_err(|_| ());
    }
}

impl DiskFiles {
    /// Opens `root` and finishes (or rolls back) any write a crash interrupted.
    ///
    /// Without a state directory for the journals (no `HOME`, a directory of another
    /// user) reads still work and every write fails, saying why.
    pub fn new(root: &Path) -> io::Result<DiskFiles> {
        let jail = Jail::open(root)?;
        let journals = Journals::open(jail.dir(), jail.root()).map_err(|e| e.to_string());
        match &journals {
            Ok(j) => j.recover(jail.dir())?,
            Err(e) => eprintln!("anchored-edit: no write journal ({e}); writes will fail"),
        }
        Ok(DiskFiles {
            jail,
            journals,
            seen: Mutex::new(HashMap::new()),
            list_warnings: Mutex::new(Vec::new()),
            cache: None,
            later: None,
            handing: Arc::default(),
        })
    }

    /// Keeps the files read between calls (read_cache.rs): for a server, not a one-call
    /// process.
    pub fn keep_reads(mut self) -> DiskFiles {
        self.cache = Some(Arc::new(ReadCache::default()));
        self.later = Some(Later::default());
        self
    }

    /// Whether a commit's journal removal waits until after the reply (a server's).
    pub fn defers(&self) -> bool {
        self.later.is_some()
    }

    /// Queues `job` for after the reply (runs it now for a one-call process).
    pub fn defer(&self, job: after_reply::Job) {
        match &self.later {
            Some(later) => later.push(job),
            None => job(),
        }
    }

    /// Starts the queued jobs (the call's reply is on its way).
    pub fn start_later(&self) {
        if let Some(later) = &self.later {
            later.start();
        }
    }

    /// Waits for the jobs of the previous call (before a commit).
    pub fn settle(&self) {
        if let Some(later) = &self.later {
            later.settle();
        }
    }

    /// How the read cache answered (None: no cache).
    #[allow(dead_code)] // Read by tests and `ANCHORED_EDIT_STEP_TIMES`.
    pub fn cache_counts(&self) -> Option<crate::read_cache::Counts> {
        self.cache.as_ref().map(|c| c.counts())
    }

    /// Hands `text`, just written (UTF-8) to engine path `path` by a commit that began
    /// at `since_ns`, to the read cache, after the reply: its digest and the file's
    /// stat are taken then (after_reply.rs). The same allocation as the session's (a
    /// text without a NUL byte is what decoding the file gives) is handed back to the
    /// engine by the next read that matches it.
    pub fn hand_over(&self, path: &str, text: Arc<String>, since_ns: i128) {
        let (Some(cache), Some(later)) = (&self.cache, &self.later) else {
            return;
        };
        let (Ok(rel), Ok(root)) = (self.jail.locate(path), self.jail.dir().try_clone()) else {
            return;
        };
        let cache = Arc::clone(cache);
        let handing = Arc::clone(&self.handing);
        handing.add();
        later.push_first(Box::new(move || {
            /// Counts the hand-over done however it ends.
            struct Done(Arc<Pending>);
            impl Drop for Done {
                fn drop(&mut self) {
                    self.0.done();
                }
            }
            let _done = Done(handing);
            let Ok((_, meta)) = open_regular(&root, &rel, false) else {
                return;
            };
            if meta.len() == text.len() as u64 {
                let digest = Digest::of(text.as_bytes());
                let held = match text.contains('\0') {
                    false => Held::Text(text),
                    true => Held::Bytes(Arc::new(text.as_bytes().to_vec())),
                };
                cache.keep_written(&rel, &meta, since_ns, &held, digest);
            }
        }));
    }

    /// Notes that a commit's swap settled `rel` (`read_cache::Stamp::settles`), for
    /// the hand-over of its text.
    pub fn note_settled(&self, rel: &Path, stamp: crate::read_cache::Stamp) {
        if let Some(cache) = &self.cache {
            cache.note_settled(rel, stamp);
        }
    }

    pub fn jail(&self) -> &Jail {
        &self.jail
    }

    /// The journals of this root (the commit's), or why there are none.
    pub fn journals(&self) -> io::Result<&Journals> {
        self.journals
            .as_ref()
            .map_err(|e| io::Error::other(format!("no write journal: {e}")))
    }

    /// Forgets what the previous call read (each call compares against its own reads).
    pub fn begin_call(&self) {
        self.seen_map().clear();
    }

    /// What this call read at real path `rel` (a path it never read counts as absent).
    pub fn seen(&self, rel: &Path) -> Seen {
        self.seen_map().get(rel).copied().unwrap_or_default()
    }

    fn seen_map(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Seen>> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A regular file's bytes at relative `path`, opened in one step beneath the root;
    /// None for anything else (then the caller takes the long way).
    fn read_plain(&self, path: &str) -> Option<Arc<Vec<u8>>> {
        let rel = Path::new(path);
        if rel.is_absolute() {
            return None;
        }
        let (file, meta) = open_regular(self.jail.dir(), rel, false).ok()?;
        if meta.len() > MAX_FILE_BYTES {
            return None; // The long way refuses it, worded.
        }
        read_bounded(file, meta.len(), path).ok().map(Arc::new)
    }

    /// The file's bytes and stat, and their digest when the read cache knew it.
    fn read_real(&self, path: &str, rel: &Path) -> EditResult<Option<Read>> {
        let meta = match self.jail.dir().metadata(rel) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) if jail::is_escape(&e) => return Err(jail::escape(path)),
            Err(e) => return Err(EditError::invalid(format!("`{path}` cannot be read: {e}."))),
        };
        check_regular(path, &meta)?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(file_too_large(path, meta.len()));
        }
        let (file, meta) = open_regular(self.jail.dir(), rel, false).map_err(|e| {
            if jail::is_escape(&e) {
                jail::escape(path)
            } else {
                EditError::invalid(format!("`{path}` cannot be read: {e}."))
            }
        })?;
        check_regular(path, &meta)?;
        // The read cache's hook (read_cache.rs): kept bytes while the file is unchanged;
        // compared with the file's when it was modified racily close to the read. The
        // previous call's text is handed over first (after_reply.rs).
        if self.cache.is_some() {
            self.handing.wait(HAND_OVER_WAIT);
        }
        let found = self.cache.as_deref().and_then(|c| c.get(rel, &meta));
        if let Some(found) = found.as_ref().filter(|f| f.trusted) {
            let (bytes, digest) = (found.bytes.clone(), Some(found.digest));
            return Ok(Some(Read {
                bytes,
                meta,
                digest,
            }));
        }
        let read_at = ReadCache::start();
        let bytes = read_bounded(file, meta.len(), path)?;
        let Some(cache) = &self.cache else {
            let bytes = Held::Bytes(Arc::new(bytes));
            return Ok(Some(Read {
                bytes,
                meta,
                digest: None,
            }));
        };
        let (bytes, digest) = match found {
            Some(f) if f.bytes.as_bytes() == bytes => {
                cache.confirmed();
                (f.bytes, f.digest)
            }
            _ => {
                let digest = Digest::of(&bytes);
                (Held::Bytes(Arc::new(bytes)), digest)
            }
        };
        cache.keep(rel, &meta, read_at, &bytes, digest);
        let digest = Some(digest);
        Ok(Some(Read {
            bytes,
            meta,
            digest,
        }))
    }

    /// The file's bytes, remembered (as a [`Digest`]) for the commit's compare and swap.
    fn read_bytes(&self, path: &str) -> EditResult<Option<Held>> {
        crate::step_times::mark("parse");
        let rel = self.jail.locate(path)?;
        let read = self.read_real(path, &rel)?;
        crate::step_times::mark("read");
        let seen = match &read {
            Some(r) => Seen {
                digest: Some(r.digest.unwrap_or_else(|| Digest::of(r.bytes.as_bytes()))),
                id: Some((r.meta.dev(), r.meta.ino())),
            },
            None => Seen::default(),
        };
        crate::step_times::mark("hash");
        self.seen_map().entry(rel).or_insert(seen);
        Ok(read.map(|r| r.bytes))
    }
}

/// One file as [`DiskFiles::read_real`] read it.
struct Read {
    bytes: Held,
    meta: Metadata,
    digest: Option<Digest>,
}

impl Files for DiskFiles {
    /// The text as UTF-8 (or a BOM's encoding, or a declared one), for callers
    /// without a call's `encoding`; the engine reads through [`Files::read_content`].
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        match self.read_bytes(path)? {
            Some(bytes) => Ok(Some(decode_bytes(path, bytes.as_bytes(), None)?.0)),
            None => Ok(None),
        }
    }

    fn read_content(&self, path: &str) -> EditResult<Option<Content>> {
        Ok(self
            .read_bytes(path)?
            .map(|b| Content::Bytes(b.into_bytes())))
    }

    /// A text this server wrote, still the file's bytes, goes back to the engine as
    /// the same allocation (read_cache.rs's `Held::Text`).
    fn read_content_utf8(&self, path: &str) -> EditResult<Option<Content>> {
        Ok(self.read_bytes(path)?.map(|b| match b {
            Held::Text(text) => {
                if let Some(cache) = &self.cache {
                    cache.shared_text();
                }
                Content::Text(text)
            }
            Held::Bytes(bytes) => Content::Bytes(bytes),
        }))
    }

    /// Read without remembering it for the commit's compare and swap: the engine reads
    /// a file again through `read_content` before editing it (memory stays bounded
    /// while a search reads the whole project).
    ///
    /// The paths a search reads come from the listing, whose walker follows no link,
    /// so the fast path opens the path in one step beneath the root (cap-std refuses
    /// any step out of it; a link as the last component fails with `O_NOFOLLOW`);
    /// anything unusual goes the whole way through [`Jail::locate`] for its answer.
    fn read_for_search(&self, path: &str) -> EditResult<Option<Content>> {
        if let Some(bytes) = self.read_plain(path) {
            return Ok(Some(Content::Bytes(bytes)));
        }
        let rel = self.jail.locate(path)?;
        Ok(self
            .read_real(path, &rel)?
            .map(|r| Content::Bytes(r.bytes.into_bytes())))
    }

    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        let (paths, warnings) = crate::walk::list(&self.jail, folder)?;
        *self.list_warnings.lock().unwrap_or_else(|p| p.into_inner()) = warnings;
        Ok(Some(paths))
    }

    fn take_list_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.list_warnings.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn identity(&self, path: &str) -> EditResult<Option<String>> {
        let rel = self.jail.locate(path)?;
        Ok(Some(match self.jail.dir().metadata(&rel) {
            Ok(m) => format!("inode:{}:{}", m.dev(), m.ino()),
            Err(_) => format!("path:{}", rel.display()),
        }))
    }
}

/// The bytes of an open regular file whose `stat` said `len`, read through a bound: a
/// file over [`MAX_FILE_BYTES`] (by `stat` or by growing while read) is refused, and
/// the buffer never starts larger than the limit.
fn read_bounded(file: cap_std::fs::File, len: u64, path: &str) -> EditResult<Vec<u8>> {
    if len > MAX_FILE_BYTES {
        return Err(file_too_large(path, len));
    }
    let mut bytes = Vec::with_capacity(len as usize + 1);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| EditError::invalid(format!("`{path}` cannot be read: {e}.")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(file_too_large(path, bytes.len() as u64));
    }
    Ok(bytes)
}

/// Opens `rel` without blocking (a FIFO opened for reading would wait for a writer) and
/// returns it with the metadata of the handle itself.
pub fn open_regular(
    dir: &cap_std::fs::Dir,
    rel: &Path,
    write: bool,
) -> io::Result<(cap_std::fs::File, Metadata)> {
    let mut options = OpenOptions::new();
    options
        .read(!write)
        .write(write)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    let file = dir.open_with(rel, &options)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok((file, meta))
}

fn check_regular(path: &str, meta: &Metadata) -> EditResult<()> {
    if meta.is_dir() {
        return Err(EditError::invalid(format!(
            "`{path}` is a directory, not a file. Send the path of a file inside it."
        )));
    }
    if !meta.is_file() {
        return Err(EditError::invalid(format!(
            "`{path}` is not a regular file (a FIFO, socket or device); anchored-edit edits text files only."
        )));
    }
    Ok(())
}
