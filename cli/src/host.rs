//! One call against the disk: run it in the engine, then write what it changed.
//! Shared by `anchored-edit call` and the MCP server.

use crate::commit::{self, Failure};
use crate::disk::DiskFiles;
use crate::read_cache::ReadCache;
use crate::step_times;
use anchored_edit::{host_refusal, CallOptions, HostRefusal, Session, StaleWhen, ToolResult};
use serde_json::Value;
use std::sync::Arc;

/// Runs `request` and, unless it is a dry run or was refused, writes its changes.
/// A write that fails is rolled back and reported as `write_failed`; a target that
/// changed since the engine read it is refused as `stale_buffer` before anything is
/// written.
pub fn execute(
    session: &mut Session,
    disk: &DiskFiles,
    request: &Value,
    options: &CallOptions,
) -> ToolResult {
    disk.begin_call();
    let result = session.call_with(request, disk, options);
    // The new texts, when the session hands them apart from the result (a server's).
    let texts = session.take_texts();
    step_times::mark("engine");
    let committed = commit_result(disk, result, &texts);
    if !committed.ok {
        // Not written (a refusal by the engine recorded nothing): the session forgets
        // the call, so undo_edit's history holds only what landed.
        session.discard_last();
    }
    // A server's journal removal and read-cache hand-over run while the reply goes out.
    disk.start_later();
    committed
}

/// Writes the changes of a successful, non-dry-run result; each new text is the
/// result's `new_text`, else the one `texts` gives for its path
/// ([`Session::take_texts`]).
pub fn commit_result(
    disk: &DiskFiles,
    result: ToolResult,
    texts: &[(String, Arc<String>)],
) -> ToolResult {
    let Some(changes) = result.files.as_ref().filter(|f| !f.is_empty()) else {
        return result;
    };
    if !result.ok || result.dry_run == Some(true) {
        return result;
    }
    // The previous call's journal removal ends before this commit (after_reply.rs).
    disk.settle();
    let since = ReadCache::start();
    let committed = commit::plan(changes, texts).and_then(|ops| commit::commit(disk, &ops));
    step_times::settle_announced();
    match committed {
        Ok(()) => {
            let result = hand_over(disk, result, texts, since);
            step_times::mark("hand-over");
            result
        }
        Err(Failure::Stale(path)) => host_refusal(
            &result.tool,
            &HostRefusal::Stale {
                path,
                when: StaleWhen::AfterRead,
            },
        ),
        Err(Failure::Invalid(why)) => {
            ToolResult::failure(&result.tool, anchored_edit::EditError::invalid(why))
        }
        Err(Failure::Io(e)) => host_refusal(
            &result.tool,
            &HostRefusal::WriteFailed { why: e.to_string() },
        ),
    }
}

/// A server keeps each UTF-8 text it wrote in place for its read cache (its reply
/// carries no `new_text`: `to_llm_json`), as the session's own allocation when the
/// session handed it apart (the next call's engine then meets the text it produced);
/// other results are returned whole.
fn hand_over(
    disk: &DiskFiles,
    mut result: ToolResult,
    texts: &[(String, Arc<String>)],
    since: i128,
) -> ToolResult {
    if !disk.defers() {
        return result;
    }
    for f in result.files.iter_mut().flatten() {
        if f.encoding.is_none() && f.moved_to.is_none() && !f.deleted {
            let shared = texts.iter().find(|(p, _)| *p == f.path);
            let text = match (f.new_text.take(), shared) {
                (_, Some((_, t))) => Arc::clone(t),
                (Some(t), None) => Arc::new(t),
                (None, None) => continue,
            };
            disk.hand_over(&f.path, text, since);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A server's write hands its text to the read cache (the next call compares it
    /// with the file instead of reading and hashing anew), cleans up after the call,
    /// and an outside change after the write is still read.
    #[test]
    fn a_written_text_serves_the_next_call_and_outside_changes_are_read() {
        let dir =
            std::env::temp_dir().join(format!("anchored-edit-hand-over-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.py");
        std::fs::write(&file, "def f():\n    return 1\n").unwrap();
        let disk = DiskFiles::new(&dir).unwrap().keep_reads();
        let mut session = Session::new();
        session.hand_texts(true); // As the server's (mcp.rs).
        let counts = |disk: &DiskFiles| disk.cache_counts().unwrap();
        let replace = |session: &mut Session, disk: &DiskFiles, old: &str, new: &str| {
            let request = json!({"tool": "str_replace", "arguments":
                {"path": "a.py", "old_str": old, "new_str": new}});
            let r = execute(session, disk, &request, &CallOptions::default());
            disk.settle();
            assert!(r.ok, "{old} -> {new}: {}", r.headline());
        };
        let names = || {
            let mut n: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            n.sort();
            n
        };

        replace(&mut session, &disk, "return 1", "return 2");
        assert_eq!(counts(&disk).written, 1, "the written text handed over");
        assert_eq!(names(), ["a.py"], "side files removed after the call");

        // Where the file system shows the swap settled the file (read_cache::Stamp::settles),
        // the next call trusts the kept text by its stamp; elsewhere it compares it once.
        let settles = swaps_settle(&dir);
        assert_eq!(
            counts(&disk).settled,
            u64::from(settles),
            "{:?}",
            counts(&disk)
        );
        let verified = |disk: &DiskFiles| match settles {
            true => counts(disk).hits,
            false => counts(disk).confirmed,
        };
        replace(&mut session, &disk, "return 2", "return 3");
        assert_eq!(
            verified(&disk),
            1,
            "the next call used the handed-over text"
        );
        assert_eq!(
            counts(&disk).texts,
            1,
            "the engine met its own text again (the session's allocation, not a copy)"
        );
        // A call decoding in another encoding gets the bytes, decoded as it asks.
        let latin = json!({"tool": "str_replace", "arguments": {"path": "a.py",
            "old_str": "return 3", "new_str": "return 4", "dry_run": true, "encoding": "latin1"}});
        let r = execute(&mut session, &disk, &latin, &CallOptions::default());
        assert!(r.ok, "{}", r.headline());
        assert_eq!(
            r.files.unwrap()[0].encoding.as_deref(),
            Some("windows-1252")
        );
        assert_eq!(counts(&disk).texts, 1, "bytes, not the text, for latin1");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "def f():\n    return 3\n"
        );

        // Rewritten in place by someone else, same length, right after the write.
        std::fs::write(&file, "def f():\n    return 4\n").unwrap();
        let before = counts(&disk);
        replace(&mut session, &disk, "return 4", "return 5");
        let after = counts(&disk);
        assert_eq!(
            (after.hits, after.confirmed),
            (before.hits, before.confirmed),
            "a changed file is read, neither trusted nor confirmed"
        );
        assert_eq!(counts(&disk).texts, 1, "a changed file's bytes are decoded");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "def f():\n    return 5\n"
        );

        // Once the file is older than the racy window, a confirmed read makes the next
        // read a hit with no read at all; a replacement is then read again.
        std::thread::sleep(crate::read_cache::RACY + std::time::Duration::from_millis(100));
        let view = json!({"tool": "str_replace", "arguments":
            {"path": "a.py", "old_str": "return 5", "new_str": "return 9", "dry_run": true}});
        assert!(execute(&mut session, &disk, &view, &CallOptions::default()).ok);
        let hits = counts(&disk).hits;
        assert!(execute(&mut session, &disk, &view, &CallOptions::default()).ok);
        assert_eq!(counts(&disk).hits, hits + 1, "answered from the kept text");
        let new = dir.join("a.py.new");
        std::fs::write(&new, "def f():\n    return 6\n").unwrap();
        std::fs::rename(&new, &file).unwrap();
        replace(&mut session, &disk, "return 6", "return 7");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "def f():\n    return 7\n"
        );
        drop(disk);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Whether a file staged, synced and renamed in `dir` as the commit does is settled by
    /// its rename on this file system (`read_cache::Stamp::settles`).
    fn swaps_settle(dir: &std::path::Path) -> bool {
        use crate::read_cache::Stamp;
        use std::io::Write as _;
        let (staged, target) = (dir.join(".probe.staged"), dir.join("probe"));
        let mut f = std::fs::File::create(&staged).unwrap();
        f.write_all(b"probe\n").unwrap();
        f.sync_all().unwrap();
        let before = Stamp::of(&cap_std::fs::Metadata::from_just_metadata(
            f.metadata().unwrap(),
        ));
        std::fs::rename(&staged, &target).unwrap();
        let root = cap_std::fs::Dir::open_ambient_dir(dir, cap_std::ambient_authority()).unwrap();
        let after = Stamp::of(&root.symlink_metadata("probe").unwrap());
        std::fs::remove_file(&target).unwrap();
        after.settles(&before)
    }

    /// A call that comes before the previous call's hand-over ran (it runs after the
    /// reply) waits for it instead of reading, hashing and copying the file anew.
    #[test]
    fn the_next_call_meets_the_written_text_even_right_after_the_reply() {
        let dir = std::env::temp_dir().join(format!(
            "anchored-edit-hand-over-race-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Large enough that the hand-over's digest takes longer than the next call's
        // way to its read.
        let body = "def g():\n    return 0\n".repeat(100_000);
        std::fs::write(dir.join("a.py"), format!("def f():\n    return 1\n{body}")).unwrap();
        let disk = DiskFiles::new(&dir).unwrap().keep_reads();
        let mut session = Session::new();
        session.hand_texts(true);
        for (old, new) in [("return 1", "return 2"), ("return 2", "return 3")] {
            let request = json!({"tool": "str_replace", "arguments":
                {"path": "a.py", "old_str": old, "new_str": new}});
            let r = execute(&mut session, &disk, &request, &CallOptions::default());
            assert!(r.ok, "{}", r.headline());
        }
        disk.settle();
        let counts = disk.cache_counts().unwrap();
        assert_eq!((counts.written, counts.texts), (2, 1), "{counts:?}");
        drop(disk);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
