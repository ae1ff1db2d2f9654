//! Files the MCP server read, kept between calls (issue 28).
//!
//! A file is read again only when its identity (device, inode), length, modification
//! time or change time differ from what they were when its bytes were kept. One hook in
//! the reader (`DiskFiles::read_real`, after the open handle's `fstat`) asks [`ReadCache::get`]
//! and hands what it read to [`ReadCache::keep`]; nothing else changes: the commit's
//! compare and swap still checks the bytes on disk against what the call read before any
//! write, so a kept text that no longer matches the file makes a call refuse, never
//! write over a change.
//!
//! A file whose modification time is within [`RACY`] of the moment it was read is not
//! trusted from here: a write in the same timestamp tick, of the same length, would go
//! unseen (git's "racily clean" rule). Its kept bytes are then compared with the file's
//! (read again, [`Found::trusted`] false): equal, the kept buffer and its digest serve
//! the call (no hash of the file, no new buffer for the engine). Memory is bounded: at
//! most [`MAX_BYTES`] in all, the least recently used dropped first; a file over a
//! quarter of that is never kept.
//!
//! Each entry keeps its bytes' [`Digest`] too, so a call answered from here hashes
//! nothing. After the server's own write, [`ReadCache::keep_written`] keeps the text it
//! wrote (the server hands it over after the reply, `after_reply.rs`). A file written
//! just now is racy, so the next call compares it with the disk once instead of reading
//! and hashing a stranger's bytes, unless the swap settled it ([`Stamp::settles`]): the
//! rename that put the staged file in place changed its change time to a later tick than
//! its modification time, so any write after the rename gives it a later modification
//! time than the one kept, and a stat tells it apart. The stat that shows this is taken
//! right after the swap ([`ReadCache::note_settled`]) and must equal the hand-over's.

use crate::digest::Digest;
use cap_std::fs::{Metadata, MetadataExt};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The most bytes kept in all.
pub const MAX_BYTES: usize = 64 << 20;
/// How long after its last modification a file's bytes are trusted.
pub const RACY: Duration = Duration::from_secs(1);

/// What identifies a file's content without reading it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    pub fn of(meta: &Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Whether `self`, the stat of a target right after the swap that put the staged
    /// file (`staged`: its stat after its last write and `fsync`) in place, proves that
    /// any later write changes the stamp: the same file, length and modification time,
    /// and a change time (the rename's) in a later tick than that modification time.
    /// A write after the rename gets a modification time at least the rename's (file
    /// times come from one clock that does not go back), so never the kept one. Both
    /// times must show sub-millisecond digits: a file system that keeps coarser times
    /// (FAT's 2 s, exFAT's 10 ms) may keep the change time finer than the modification
    /// time, and there the proof fails; such a file stays racy.
    pub fn settles(&self, staged: &Stamp) -> bool {
        let fine = |t: (i64, i64)| t.1 % 1_000_000 != 0;
        (self.dev, self.ino, self.len, self.mtime)
            == (staged.dev, staged.ino, staged.len, staged.mtime)
            && self.ctime > self.mtime
            && fine(self.mtime)
            && fine(self.ctime)
    }

    /// Nanoseconds since the epoch of the modification time.
    fn mtime_ns(&self) -> i128 {
        i128::from(self.mtime.0) * 1_000_000_000 + i128::from(self.mtime.1)
    }
}

/// A file's bytes as kept: as read, or as the text the server wrote (the engine's own
/// allocation, handed back to it: `DiskFiles::read_content_utf8`).
#[derive(Clone, Debug)]
pub enum Held {
    Bytes(Arc<Vec<u8>>),
    /// UTF-8 without a NUL byte: what decoding the file's bytes gives.
    Text(Arc<String>),
}

impl Held {
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Held::Bytes(b) => b,
            Held::Text(t) => t.as_bytes(),
        }
    }

    /// The bytes, shared (a text's copied: a read that is not decoded as UTF-8).
    pub fn into_bytes(self) -> Arc<Vec<u8>> {
        match self {
            Held::Bytes(b) => b,
            Held::Text(t) => Arc::new(t.as_bytes().to_vec()),
        }
    }
}

struct Kept {
    stamp: Stamp,
    read_at_ns: i128,
    /// Written by the server and settled by its swap ([`Stamp::settles`]): trusted
    /// while the stamp holds, racy window or not.
    settled: bool,
    bytes: Held,
    digest: Digest,
    used: u64,
}

/// Kept bytes answering a read.
pub struct Found {
    pub bytes: Held,
    pub digest: Digest,
    /// False: racily modified; the caller compares `bytes` with the file's before use.
    pub trusted: bool,
}

/// How reads were answered, for tests and benchmarks.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Answered from the kept bytes without reading the file.
    pub hits: u64,
    /// Racy: the file read and found equal to the kept bytes (not hashed).
    pub confirmed: u64,
    /// Kept by the server after its own write.
    pub written: u64,
    /// Of those, settled by the swap: trusted without a compare.
    pub settled: u64,
    /// Reads answered with the text the server wrote, shared with the engine.
    pub texts: u64,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<PathBuf, Kept>,
    /// Stamps taken right after a swap that settled the file, until the hand-over.
    settled: HashMap<PathBuf, Stamp>,
    total: usize,
    clock: u64,
    counts: Counts,
}

/// The kept files of one server, keyed by their real path under the root.
#[derive(Default)]
pub struct ReadCache {
    inner: Mutex<Inner>,
}

fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

impl ReadCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The kept bytes of `rel` when `meta` (its open handle's) shows it unchanged;
    /// untrusted when it was modified within [`RACY`] of the read.
    pub fn get(&self, rel: &Path, meta: &Metadata) -> Option<Found> {
        let stamp = Stamp::of(meta);
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let kept = inner.entries.get_mut(rel)?;
        if kept.stamp != stamp {
            return None;
        }
        kept.used = clock;
        let trusted = kept.settled || stamp.mtime_ns() + RACY.as_nanos() as i128 <= kept.read_at_ns;
        let found = Found {
            bytes: kept.bytes.clone(),
            digest: kept.digest,
            trusted,
        };
        if trusted {
            inner.counts.hits += 1;
        }
        Some(found)
    }

    /// Counts that a racy entry was compared with the file and found equal.
    pub fn confirmed(&self) {
        self.lock().counts.confirmed += 1;
    }

    /// Counts a read answered with a text the server wrote.
    pub fn shared_text(&self) {
        self.lock().counts.texts += 1;
    }

    /// How reads were answered so far.
    #[allow(dead_code)] // Read by tests and `ANCHORED_EDIT_STEP_TIMES`.
    pub fn counts(&self) -> Counts {
        self.lock().counts
    }

    /// Notes `stamp`, the stat of `rel` taken right after the commit's swap, which
    /// [`Stamp::settles`]: the hand-over that finds the same stamp keeps its text
    /// trusted. At most a few hundred are held (a hand-over takes its own).
    pub fn note_settled(&self, rel: &Path, stamp: Stamp) {
        let mut inner = self.lock();
        if inner.settled.len() >= 256 {
            inner.settled.clear();
        }
        inner.settled.insert(rel.to_path_buf(), stamp);
    }

    /// The moment a read starts, for [`ReadCache::keep`].
    pub fn start() -> i128 {
        now_ns()
    }

    /// Keeps the bytes the server wrote to `rel` (`meta`: the file's stat taken after
    /// the write), as if read at `since_ns` (before the write began: the entry is racy
    /// until a call has compared it with the disk). An entry read after `since_ns`
    /// (the next call came first) stays.
    pub fn keep_written(
        &self,
        rel: &Path,
        meta: &Metadata,
        since_ns: i128,
        bytes: &Held,
        digest: Digest,
    ) {
        let settled = {
            let mut inner = self.lock();
            let settled = inner.settled.remove(rel) == Some(Stamp::of(meta));
            if inner
                .entries
                .get(rel)
                .is_some_and(|k| k.read_at_ns > since_ns)
            {
                return;
            }
            inner.counts.written += 1;
            inner.counts.settled += u64::from(settled);
            settled
        };
        self.insert(rel, meta, since_ns, settled, bytes, digest);
    }

    /// Keeps `bytes` (their `digest`), read from `rel` (stat `meta`) from `read_at_ns` on.
    pub fn keep(
        &self,
        rel: &Path,
        meta: &Metadata,
        read_at_ns: i128,
        bytes: &Held,
        digest: Digest,
    ) {
        self.insert(rel, meta, read_at_ns, false, bytes, digest);
    }

    fn insert(
        &self,
        rel: &Path,
        meta: &Metadata,
        read_at_ns: i128,
        settled: bool,
        bytes: &Held,
        digest: Digest,
    ) {
        let mut inner = self.lock();
        if let Some(old) = inner.entries.remove(rel) {
            inner.total -= old.bytes.as_bytes().len();
        }
        let len = bytes.as_bytes().len();
        if len > MAX_BYTES / 4 {
            return;
        }
        inner.clock += 1;
        let used = inner.clock;
        inner.total += len;
        inner.entries.insert(
            rel.to_path_buf(),
            Kept {
                stamp: Stamp::of(meta),
                read_at_ns,
                settled,
                bytes: bytes.clone(),
                digest,
                used,
            },
        );
        while inner.total > MAX_BYTES {
            let Some(oldest) = inner
                .entries
                .iter()
                .min_by_key(|(_, k)| k.used)
                .map(|(p, _)| p.clone())
            else {
                break;
            };
            if let Some(k) = inner.entries.remove(&oldest) {
                inner.total -= k.bytes.as_bytes().len();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// (what happens to the file between two reads, answered from the cache?)
    #[test]
    fn read_again_exactly_when_the_file_changed() {
        type Change = fn(&std::path::Path);
        let cases: [(&str, Change, bool); 4] = [
            ("nothing", |_| {}, true),
            (
                "rewritten in place, same length",
                |p| {
                    std::thread::sleep(Duration::from_millis(20));
                    std::fs::write(p, b"two\n").unwrap();
                },
                false,
            ),
            (
                "replaced by a rename",
                |p| {
                    let new = p.with_extension("new");
                    std::fs::write(&new, b"six\n").unwrap();
                    std::fs::rename(&new, p).unwrap();
                },
                false,
            ),
            (
                "grown",
                |p| {
                    let mut f = std::fs::OpenOptions::new().append(true).open(p).unwrap();
                    f.write_all(b"more\n").unwrap();
                },
                false,
            ),
        ];
        for (what, change, hit) in cases {
            let dir = std::env::temp_dir().join(format!(
                "anchored-edit-read-cache-{}-{}",
                std::process::id(),
                what.len()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("a.txt"), b"one\n").unwrap();
            let root =
                cap_std::fs::Dir::open_ambient_dir(&dir, cap_std::ambient_authority()).unwrap();
            let cache = ReadCache::default();
            let rel = Path::new("a.txt");
            let meta = root.metadata(rel).unwrap();
            // Read "later" than the racy window after the write.
            let read_at = now_ns() + 2 * RACY.as_nanos() as i128;
            cache.keep(
                rel,
                &meta,
                read_at,
                &Held::Bytes(Arc::new(b"one\n".to_vec())),
                Digest::of(b"one\n"),
            );
            change(&dir.join("a.txt"));
            let meta = root.metadata(rel).unwrap();
            assert_eq!(cache.get(rel, &meta).is_some(), hit, "{what}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// (how the stat after the swap differs from the staged file's, settled?)
    #[test]
    fn a_swap_settles_only_a_later_change_time_on_the_same_fine_grained_file() {
        let staged = Stamp {
            dev: 1,
            ino: 7,
            len: 100,
            mtime: (1_000, 123_456_789),
            ctime: (1_000, 123_456_789),
        };
        let later = (1_000, 123_999_001);
        type Edit = fn(&mut Stamp);
        let cases: [(&str, Edit, bool); 8] = [
            ("the rename's change time is later", |_| {}, true),
            ("same tick: change time equal", |s| s.ctime = s.mtime, false),
            ("change time earlier", |s| s.ctime = (999, 0), false),
            (
                "written again after the rename",
                |s| s.mtime = s.ctime,
                false,
            ),
            ("another file", |s| s.ino = 8, false),
            ("another length", |s| s.len = 101, false),
            (
                "coarse modification time (FAT)",
                |s| s.mtime = (1_000, 0),
                false,
            ),
            (
                "coarse change time (millisecond ticks)",
                |s| s.ctime = (1_000, 124_000_000),
                false,
            ),
        ];
        for (what, edit, settled) in cases {
            let mut now = Stamp {
                ctime: later,
                ..staged
            };
            let mut before = staged;
            edit(&mut now);
            if what.starts_with("coarse modification") {
                before.mtime = now.mtime;
            }
            assert_eq!(now.settles(&before), settled, "{what}");
        }
    }

    #[test]
    fn racy_and_large_files_are_not_answered() {
        let dir = std::env::temp_dir().join(format!(
            "anchored-edit-read-cache-racy-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), b"one\n").unwrap();
        let root = cap_std::fs::Dir::open_ambient_dir(&dir, cap_std::ambient_authority()).unwrap();
        let rel = Path::new("a.txt");
        let meta = root.metadata(rel).unwrap();
        let cache = ReadCache::default();
        cache.keep(
            rel,
            &meta,
            now_ns(),
            &Held::Bytes(Arc::new(b"one\n".to_vec())),
            Digest::of(b"one\n"),
        );
        let found = cache.get(rel, &meta).expect("kept");
        assert!(
            !found.trusted,
            "modified just now: to be compared with the disk"
        );
        let big = vec![0; MAX_BYTES / 4 + 1];
        cache.keep(
            rel,
            &meta,
            now_ns() + 2 * RACY.as_nanos() as i128,
            &Held::Bytes(Arc::new(big.clone())),
            Digest::of(&big),
        );
        assert!(cache.get(rel, &meta).is_none(), "too large to keep");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
