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
//! answered from here: a write in the same timestamp tick, of the same length, would go
//! unseen (git's "racily clean" rule). Memory is bounded: at most [`MAX_BYTES`] in all,
//! the least recently used dropped first; a file over a quarter of that is never kept.

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
struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    fn of(meta: &Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Nanoseconds since the epoch of the modification time.
    fn mtime_ns(&self) -> i128 {
        i128::from(self.mtime.0) * 1_000_000_000 + i128::from(self.mtime.1)
    }
}

struct Kept {
    stamp: Stamp,
    read_at_ns: i128,
    bytes: Arc<Vec<u8>>,
    used: u64,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<PathBuf, Kept>,
    total: usize,
    clock: u64,
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

    /// The kept bytes of `rel` when `meta` (its open handle's) shows it unchanged and
    /// not racily modified.
    pub fn get(&self, rel: &Path, meta: &Metadata) -> Option<Arc<Vec<u8>>> {
        let stamp = Stamp::of(meta);
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let kept = inner.entries.get_mut(rel)?;
        if kept.stamp != stamp || stamp.mtime_ns() + RACY.as_nanos() as i128 > kept.read_at_ns {
            return None;
        }
        kept.used = clock;
        Some(Arc::clone(&kept.bytes))
    }

    /// The moment a read starts, for [`ReadCache::keep`].
    pub fn start() -> i128 {
        now_ns()
    }

    /// Keeps `bytes`, read from `rel` (stat `meta`) from `read_at_ns` on.
    pub fn keep(&self, rel: &Path, meta: &Metadata, read_at_ns: i128, bytes: &Arc<Vec<u8>>) {
        let mut inner = self.lock();
        if let Some(old) = inner.entries.remove(rel) {
            inner.total -= old.bytes.len();
        }
        if bytes.len() > MAX_BYTES / 4 {
            return;
        }
        inner.clock += 1;
        let used = inner.clock;
        inner.total += bytes.len();
        inner.entries.insert(
            rel.to_path_buf(),
            Kept {
                stamp: Stamp::of(meta),
                read_at_ns,
                bytes: Arc::clone(bytes),
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
                inner.total -= k.bytes.len();
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
            cache.keep(rel, &meta, read_at, &Arc::new(b"one\n".to_vec()));
            change(&dir.join("a.txt"));
            let meta = root.metadata(rel).unwrap();
            assert_eq!(cache.get(rel, &meta).is_some(), hit, "{what}");
            std::fs::remove_dir_all(&dir).unwrap();
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
        cache.keep(rel, &meta, now_ns(), &Arc::new(b"one\n".to_vec()));
        assert!(cache.get(rel, &meta).is_none(), "modified just now");
        cache.keep(
            rel,
            &meta,
            now_ns() + 2 * RACY.as_nanos() as i128,
            &Arc::new(vec![0; MAX_BYTES / 4 + 1]),
        );
        assert!(cache.get(rel, &meta).is_none(), "too large to keep");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
