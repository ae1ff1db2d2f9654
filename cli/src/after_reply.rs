//! Work a server does after a write, while its reply goes out (issue 28).
//!
//! Two jobs leave the reply's path:
//! - **The journal's removal** (the journal and its lock, in the user's state
//!   directory, outside the root): the batch is final before it (the journal says
//!   `done`, or a one-rename batch's rename is synced and its journal says `staging`,
//!   whose recovery only removes side files), so a crash before the removal is
//!   recovered as the protocol says, and the lock stays held until the removal ends
//!   (another process's recovery leaves the batch alone). The side files in the root
//!   (`.old` links) are removed before the reply: a client that looks at the root once
//!   the reply is out finds only the project's files (tests/crash.rs,
//!   `a_servers_reply_finds_the_root_without_side_files`).
//! - **Handing the written text to the read cache** (`read_cache.rs`): the text the
//!   call wrote, its digest and the file's stat taken after the write; kept as racy, so
//!   the next call compares it with the file once (a read, no hash) instead of
//!   reading and hashing a stranger.
//!
//! The jobs run on one thread started when the call ends, the hand-overs first;
//! [`Later::settle`] waits for it, and the next commit settles first (one batch's
//! journal at a time). Reads do not wait for the journal's removal. A read waits (at most
//! `disk::HAND_OVER_WAIT`) for pending hand-overs: the read cache takes a handed-over
//! text only if no read came after the write, and a read that came first would read,
//! hash and copy the file as a stranger's. A server that ends settles (`Drop` of the
//! files).

use std::sync::Mutex;
use std::thread::JoinHandle;

/// A job for after the reply.
pub type Job = Box<dyn FnOnce() + Send>;

/// The jobs of the current call and the thread running the previous call's.
#[derive(Default)]
pub struct Later {
    queued: Mutex<Vec<Job>>,
    running: Mutex<Option<JoinHandle<()>>>,
}

impl Later {
    /// Queues `job` for [`Later::start`].
    pub fn push(&self, job: Job) {
        self.queued
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(job);
    }

    /// Queues `job` before the others (a read-cache hand-over, which a read may be
    /// waiting for, goes before the journal's removal).
    pub fn push_first(&self, job: Job) {
        self.queued
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(0, job);
    }

    /// Runs the queued jobs, in order, on a new thread (after the previous one ends). A
    /// thread that cannot start runs them here.
    pub fn start(&self) {
        let jobs = std::mem::take(&mut *self.queued.lock().unwrap_or_else(|p| p.into_inner()));
        if jobs.is_empty() {
            return;
        }
        self.settle();
        let run = move || {
            let started = std::time::Instant::now();
            jobs.into_iter().for_each(|job| job());
            crate::step_times::after_reply(started);
        };
        let shared = std::sync::Arc::new(Mutex::new(Some(run)));
        let theirs = std::sync::Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("after-reply".into())
            .spawn(move || {
                if let Some(run) = theirs.lock().ok().and_then(|mut r| r.take()) {
                    run();
                }
            });
        match spawned {
            Ok(handle) => *self.running.lock().unwrap_or_else(|p| p.into_inner()) = Some(handle),
            Err(_) => {
                if let Some(run) = shared.lock().ok().and_then(|mut r| r.take()) {
                    run();
                }
            }
        }
    }

    /// Waits until the started jobs have ended.
    pub fn settle(&self) {
        let handle = self
            .running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

impl Drop for Later {
    fn drop(&mut self) {
        self.start();
        self.settle();
    }
}
