//! Crashes and failures in the middle of a write (issue 12 item 3).
//!
//! - Every disk step of a mixed batch (update, in-place update of a hard-linked file,
//!   create in a new directory, delete, move) is crashed at (exit as if killed) and
//!   failed at, deterministically; the next run recovers.
//! - Proptest: random batches with a random step failing or crashing.
//! - SIGKILL at random instants during a large multi-file write of the real process,
//!   then a second run: every file old or new, the batch whole, nothing left behind.
//!
//! Faults are injected through the debug build's `ANCHORED_EDIT_FAIL_AT` /
//! `ANCHORED_EDIT_CRASH_AT` (see `cli/src/commit.rs`).

mod common;

use common::{leftovers, tree, Sandbox};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::fs;
use std::time::{Duration, Instant};

type Tree = Vec<(String, Vec<u8>)>;

/// Runs `request` without faults on a copy of `setup` and returns the tree it leaves.
fn expected_new(name: &str, setup: &dyn Fn(&Sandbox), request: &Value) -> Tree {
    let twin = Sandbox::new(name);
    setup(&twin);
    let (code, out) = common::parse(twin.spawn(request, &[]).wait_with_output().unwrap());
    assert_eq!(code, 0, "the batch must apply without faults: {out:#}");
    tree(&twin.root)
}

/// A read call: its only effect is the recovery every run starts with.
fn recover(s: &Sandbox) {
    let (code, out) = s.call("line_count", json!({"path": "keep.txt"}));
    assert_eq!(code, 0, "recovery run: {out:#}");
}

fn mixed_setup(s: &Sandbox) {
    s.file("keep.txt", "keep\n");
    s.file("a.txt", "a old\n");
    s.file("linked.txt", "l old\n");
    fs::hard_link(s.root.join("linked.txt"), s.root.join("twin.txt")).unwrap();
    s.file("gone.txt", "gone\n");
    s.file("from.txt", "m old\n");
}

fn mixed_patch() -> Value {
    let patch = "*** Begin Patch\n\
        *** Update File: a.txt\n-a old\n+a new\n\
        *** Update File: linked.txt\n-l old\n+l new\n\
        *** Add File: new/deep/c.txt\n+c\n\
        *** Delete File: gone.txt\n\
        *** Update File: from.txt\n*** Move to: to.txt\n-m old\n+m new\n\
        *** End Patch\n";
    json!({"tool": "apply_patch", "arguments": {"patch": patch}})
}

/// The hard link `linked.txt` = `twin.txt`, updated in place, stays one file.
#[test]
fn a_crash_or_failure_at_every_step_leaves_the_batch_old_or_new() {
    let joined = [("linked.txt", "twin.txt")];
    let steps = every_step_joined("mixed", &mixed_setup, &mixed_patch(), 60, &joined);
    assert!(steps >= 10, "the batch has more steps than {steps}");
}

/// One file replaced by one rename: the journal is written once (`staging`), the
/// rename is the commit point; a crash before it leaves the old text, after it the new.
#[test]
fn a_crash_or_failure_at_every_step_of_a_one_file_write_leaves_it_old_or_new() {
    let setup = |s: &Sandbox| {
        s.file("keep.txt", "keep\n");
        s.file("a.txt", "a old\n");
    };
    let request = json!({"tool": "str_replace", "arguments": {"path": "a.txt", "old_str": "a old", "new_str": "a new"}});
    let steps = every_step("one", &setup, &request, 30);
    assert!(steps >= 6, "the write has more steps than {steps}");
    // No second journal write (and its two fsyncs): that step is never reached.
    let s = Sandbox::new("one-journal");
    setup(&s);
    let env = [("ANCHORED_EDIT_CRASH_AT", "journal:2")];
    let status = s.spawn(&request, &env).wait().unwrap();
    assert_eq!(
        status.code(),
        Some(0),
        "a one-file write saves its journal once"
    );
    assert_eq!(s.read("a.txt"), "a new\n");
}

/// A batch larger than the commit's file-by-file sync limit: synced once per file
/// system (`syncfs`) after staging and after the swaps.
#[test]
fn a_crash_or_failure_at_every_step_of_a_large_batch_leaves_it_old_or_new() {
    // One past the limit (SYNC_EACH_MAX, 16): the same path as any larger batch.
    const FILES: usize = 17;
    let setup = |s: &Sandbox| {
        s.file("keep.txt", "keep\n");
        for i in 0..FILES {
            s.file(
                &format!("d{}/f{i}.py", i % 3),
                &format!("x = old_name({i})\n"),
            );
        }
    };
    let request = json!({"tool": "replace_in_files", "arguments": {"old_str": "old_name(", "new_str": "new_name(", "glob": "*.py", "expected_replacements": FILES}});
    let steps = every_step("large", &setup, &request, 200);
    assert!(steps >= 2 * FILES, "the batch has more steps than {steps}");
}

/// Fails, then crashes, the batch `request` makes on `setup`'s files at each disk step
/// in turn (up to `max`): a failure rolls back, a crash is completed or rolled back by
/// the next run, nothing is left behind. Returns how many steps the batch has.
///
/// The steps are independent (each in its own sandboxes), so a few run at once: a small
/// pool of four threads takes the next step until one step's crash run exits 0 (past the last
/// step); every step before that one must have crashed.
fn every_step(name: &str, setup: &(dyn Fn(&Sandbox) + Sync), request: &Value, max: usize) -> usize {
    every_step_joined(name, setup, request, max, &[])
}

/// [`every_step`], with pairs of names that are one file (hard links) and must still be
/// one file after every failure and every recovery.
fn every_step_joined(
    name: &str,
    setup: &(dyn Fn(&Sandbox) + Sync),
    request: &Value,
    max: usize,
    joined: &[(&str, &str)],
) -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let new = expected_new(&format!("{name}-twin"), setup, request);
    let next = AtomicUsize::new(1);
    // The first step whose crash run finished (0): the batch has one step fewer.
    let end = AtomicUsize::new(max + 1);
    // Per crashed step: true when the next run completed the batch, false when it rolled back.
    let outcomes = Mutex::new(vec![None; max + 1]);
    // Four: on two cores a step is partly CPU (the Node server's start-up) and partly
    // waiting for the disk (fsync, syncfs).
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| loop {
                let step = next.fetch_add(1, Ordering::SeqCst);
                if step > max || step >= end.load(Ordering::SeqCst) {
                    break;
                }
                match one_step(name, setup, request, &new, step, joined) {
                    None => {
                        end.fetch_min(step, Ordering::SeqCst);
                    }
                    Some(completed) => outcomes.lock().unwrap()[step] = Some(completed),
                }
            });
        }
    });
    let end = end.into_inner();
    let outcomes = outcomes.into_inner().unwrap();
    let steps = end - 1;
    for (step, outcome) in outcomes.iter().enumerate().take(end).skip(1) {
        assert!(outcome.is_some(), "step {step} was not run");
    }
    let new_after = outcomes[..end].iter().filter(|o| **o == Some(true)).count();
    let old_after = outcomes[..end]
        .iter()
        .filter(|o| **o == Some(false))
        .count();
    eprintln!(
        "{name}, every step: {steps} steps; after a crash {old_after} rolled back, {new_after} completed"
    );
    steps
}

/// Step `step` of [`every_step`], failed then crashed, each in a fresh sandbox. `None`
/// when the crash run finished (past the last step); else whether the run after the
/// crash completed the batch (`true`) or rolled it back (`false`).
fn one_step(
    name: &str,
    setup: &dyn Fn(&Sandbox),
    request: &Value,
    new: &Tree,
    step: usize,
    joined: &[(&str, &str)],
) -> Option<bool> {
    use std::os::unix::fs::MetadataExt;
    let one_file = |s: &Sandbox, when: &str| {
        for (a, b) in joined {
            let ino = |p: &str| fs::metadata(s.root.join(p)).map(|m| m.ino()).ok();
            assert_eq!(ino(a), ino(b), "step {step} ({when}): {a} and {b} split");
        }
    };
    let step_s = step.to_string();
    // Failure: rolled back, reported, nothing left.
    let s = Sandbox::new(&format!("{name}-fail-{step}"));
    setup(&s);
    let old = tree(&s.root);
    let env = [("ANCHORED_EDIT_FAIL_AT", step_s.as_str())];
    let (code, out) = common::parse(s.spawn(request, &env).wait_with_output().unwrap());
    if code == 0 {
        // Past the last step, or the clean-up after `done`: the batch stands.
        assert_eq!(&tree(&s.root), new, "step {step}");
    } else {
        assert_eq!(out["error"]["kind"], "write_failed", "step {step}: {out:#}");
        assert_eq!(tree(&s.root), old, "failing step {step} must roll back");
    }
    one_file(&s, "failed");
    assert!(
        leftovers(&s.root).is_empty(),
        "step {step}: {:?}",
        leftovers(&s.root)
    );
    drop(s);
    // Crash: the next run completes or rolls back.
    let s = Sandbox::new(&format!("{name}-crash-{step}"));
    setup(&s);
    let env = [("ANCHORED_EDIT_CRASH_AT", step_s.as_str())];
    let status = s.spawn(request, &env).wait().unwrap();
    if status.code() == Some(0) {
        return None; // past the last step
    }
    assert_eq!(status.code(), Some(137), "step {step} must crash");
    recover(&s);
    let after = tree(&s.root);
    let completed = if after == old {
        false
    } else if &after == new {
        true
    } else {
        panic!("crash at step {step}: neither old nor new: {after:?}");
    };
    one_file(&s, "crashed, recovered");
    assert!(
        leftovers(&s.root).is_empty(),
        "step {step}: {:?}",
        leftovers(&s.root)
    );
    Some(completed)
}

/// A batch over `n` files: each updated, deleted or moved; plus new files.
#[derive(Debug, Clone)]
struct Batch {
    sizes: Vec<usize>,
    actions: Vec<u8>,
    adds: usize,
    fault: (bool, usize),
}

fn batch() -> impl Strategy<Value = Batch> {
    (1usize..5)
        .prop_flat_map(|n| {
            (
                proptest::collection::vec(1usize..400, n),
                proptest::collection::vec(0u8..4, n),
                0usize..3,
                (any::<bool>(), 1usize..45),
            )
        })
        .prop_map(|(sizes, actions, adds, fault)| Batch {
            sizes,
            actions,
            adds,
            fault,
        })
}

fn batch_setup(b: &Batch, s: &Sandbox) {
    s.file("keep.txt", "keep\n");
    for (i, size) in b.sizes.iter().enumerate() {
        let body: String = (0..*size).map(|j| format!("f{i} line {j}\n")).collect();
        s.file(&format!("d{}/f{i}.txt", i % 2), &body);
    }
    if b.actions.first() == Some(&3) {
        fs::hard_link(s.root.join("d0/f0.txt"), s.root.join("f0-link.txt")).unwrap();
    }
}

fn batch_request(b: &Batch) -> Value {
    let mut p = String::from("*** Begin Patch\n");
    for (i, action) in b.actions.iter().enumerate() {
        let f = format!("d{}/f{i}.txt", i % 2);
        match action {
            0 | 3 => p += &format!("*** Update File: {f}\n-f{i} line 0\n+f{i} LINE 0\n"),
            1 => p += &format!("*** Delete File: {f}\n"),
            _ => {
                p += &format!(
                    "*** Update File: {f}\n*** Move to: moved/m{i}.txt\n-f{i} line 0\n+moved {i}\n"
                )
            }
        }
    }
    for k in 0..b.adds {
        p += &format!("*** Add File: added/{k}/n.txt\n+new {k}\n");
    }
    p += "*** End Patch\n";
    json!({"tool": "apply_patch", "arguments": {"patch": p}})
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 40,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any batch, any failing or crashing step: afterwards (and after the next run's
    /// recovery) the tree is exactly the old one or exactly the new one.
    #[test]
    fn any_fault_at_any_step_leaves_every_file_old_or_new(b in batch()) {
        let request = batch_request(&b);
        let new = expected_new("prop-twin", &|s: &Sandbox| batch_setup(&b, s), &request);
        let s = Sandbox::new("prop");
        batch_setup(&b, &s);
        let old = tree(&s.root);
        let (crash, step) = b.fault;
        let step_s = step.to_string();
        let var = if crash { "ANCHORED_EDIT_CRASH_AT" } else { "ANCHORED_EDIT_FAIL_AT" };
        let (code, out) = common::parse(s.spawn(&request, &[(var, &step_s)]).wait_with_output().unwrap());
        recover(&s);
        let after = tree(&s.root);
        match code {
            0 => prop_assert_eq!(&after, &new),
            1 => {
                prop_assert_eq!(out["error"]["kind"].as_str(), Some("write_failed"));
                prop_assert_eq!(&after, &old);
            }
            137 => prop_assert!(after == old || after == new, "neither old nor new: {:?}", after),
            other => prop_assert!(false, "exit {}: {:#}", other, out),
        }
        prop_assert!(leftovers(&s.root).is_empty(), "{:?}", leftovers(&s.root));
    }
}

/// A small xorshift generator: the kill instants, reproducible from the printed seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

fn big_text(i: usize, generation: usize, kib: usize) -> String {
    let mut t = format!("MARK {i} v{generation}\n");
    let line = format!("file {i}: {}\n", "x".repeat(56));
    while t.len() < kib * 1024 {
        t += &line;
    }
    t
}

/// SIGKILL the real `anchored-edit call` at random instants during a write of `FILES`
/// files of `KIB` KiB each; after each kill a second run recovers. Defaults: 40 kills,
/// 40 × 64 KiB (2.5 MiB per batch). `AE_CRASH_KILLS`, `AE_CRASH_SEED` override.
#[test]
fn sigkill_during_a_large_multi_file_write_leaves_every_file_old_or_new() {
    const FILES: usize = 40;
    const KIB: usize = 64;
    let kills: usize = std::env::var("AE_CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let seed: u64 = std::env::var("AE_CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    let mut rng = Rng(seed);
    let s = Sandbox::new("sigkill");
    s.file("keep.txt", "keep\n");
    for i in 0..FILES {
        s.file(&format!("f{i}.txt"), &big_text(i, 0, KIB));
    }
    let request = |generation: usize| {
        let replacements: Vec<Value> = (0..FILES)
            .map(|i| json!({"path": format!("f{i}.txt"), "old_str": format!("MARK {i} v{generation}\n"), "new_str": format!("MARK {i} v{}\n", generation + 1)}))
            .collect();
        json!({"tool": "multi_replace", "arguments": {"replacements": replacements}})
    };
    // One uninterrupted run: how long a batch takes.
    let start = Instant::now();
    let (code, out) = common::parse(s.spawn(&request(0), &[]).wait_with_output().unwrap());
    assert_eq!(code, 0, "{out:#}");
    let full = start.elapsed().as_micros() as u64;
    let mut generation = 1;
    let (mut mid_commit, mut rolled_back, mut completed, mut finished) = (0, 0, 0, 0);
    for _ in 0..kills {
        let mut child = s.spawn(&request(generation), &[]);
        std::thread::sleep(Duration::from_micros(rng.below(full + full / 5)));
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.code() == Some(0) {
            finished += 1;
        }
        if !s.journals().is_empty() {
            mid_commit += 1;
        }
        recover(&s);
        let texts: Vec<String> = (0..FILES).map(|i| s.read(&format!("f{i}.txt"))).collect();
        let all = |g: usize| {
            texts
                .iter()
                .enumerate()
                .all(|(i, t)| *t == big_text(i, g, KIB))
        };
        if all(generation + 1) {
            generation += 1;
            if status.code() != Some(0) {
                completed += 1;
            }
        } else if all(generation) {
            rolled_back += 1;
        } else {
            panic!("seed {seed}: after a kill the files are neither all old nor all new");
        }
        assert!(
            leftovers(&s.root).is_empty(),
            "seed {seed}: {:?}",
            leftovers(&s.root)
        );
    }
    eprintln!(
        "sigkill: seed {seed}, {kills} kills over {FILES} x {KIB} KiB (one batch {} ms): \
         {mid_commit} interrupted a commit (journal found), {rolled_back} rolled back, \
         {completed} killed after `done` (kept new), {finished} had finished before the kill",
        full / 1000
    );
}

/// `anchored-edit mcp` recovers at start, like `call`: a batch crashed mid-swap is rolled
/// back before the server answers anything.
#[test]
fn the_mcp_server_recovers_a_crashed_batch_at_start() {
    let s = Sandbox::new("mcp-recover");
    mixed_setup(&s);
    let old = tree(&s.root);
    let status = s
        .spawn(&mixed_patch(), &[("ANCHORED_EDIT_CRASH_AT", "swap:2")])
        .wait()
        .unwrap();
    assert_eq!(status.code(), Some(137));
    assert!(!s.journals().is_empty(), "the crash left its journal");
    assert_ne!(tree(&s.root), old, "the crash left a half-swapped batch");
    let out = s
        .command()
        .arg("mcp")
        .arg("--root")
        .arg(&s.root)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    // With stdin closed the server stops right after its start (no client to serve):
    // only the recovery at start can have run.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(tree(&s.root), old, "{stderr}");
}

/// A server answers a write once the root is clean: no side file (`.NAME.ae-TAG.old`,
/// `.new`) is left for a client, an editor or `git status` that looks right after the
/// reply. (What a server may still do after its reply lies outside the root: its
/// journal's removal, `cli/src/after_reply.rs`.)
#[test]
fn a_servers_reply_finds_the_root_without_side_files() {
    let s = Sandbox::new("reply-clean");
    mixed_setup(&s);
    let mut server = s.server();
    let in_root = |s: &Sandbox| -> Vec<String> {
        leftovers(&s.root)
            .into_iter()
            .filter(|n| !n.starts_with("state: "))
            .collect()
    };
    for i in 0..60 {
        let (code, out) = server.call(
            "str_replace",
            json!({"path": "a.txt", "old_str": format!("a {i}\n").replace("a 0", "a old"),
                   "new_str": format!("a {}\n", i + 1)}),
        );
        assert_eq!(code, 0, "{out}");
        assert_eq!(in_root(&s), Vec::<String>::new(), "after write {i}");
        let patch = format!(
            "*** Begin Patch\n*** Update File: linked.txt\n-{}\n+l {}\n*** Update File: keep.txt\n-{}\n+k {}\n*** End Patch\n",
            if i == 0 { "l old".into() } else { format!("l {i}") },
            i + 1,
            if i == 0 { "keep".into() } else { format!("k {i}") },
            i + 1,
        );
        let (code, out) = server.call("apply_patch", json!({ "patch": patch }));
        assert_eq!(code, 0, "{out}");
        assert_eq!(in_root(&s), Vec::<String>::new(), "after patch {i}");
    }
}
/// Waits up to `secs` for `child`; kills it and fails when it takes longer (a hang).
fn wait_bounded(mut child: std::process::Child, secs: u64, what: &str) -> (i32, Value) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: no answer within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    common::parse(child.wait_with_output().unwrap())
}

const SHIPPED_TAG: &str = "0123456789abcdef";

/// A journal entry in the shape the commit writes (the old format, as a repository or
/// another user could plant it).
fn planted(state: &str, entries: Value) -> String {
    json!({"version": 1, "state": state, "entries": entries, "dirs": []}).to_string()
}

/// Issue 24 finding 1: a `.anchored-edit/*.journal` committed to a repository, or a
/// journal planted in the state directory without this user's key, is never acted on:
/// files unchanged, nothing outside touched, the call answers normally in bounded time
/// (a `create` in `swapping` used to delete its target, a `replace` with a planted
/// `.old` to overwrite it, a `dir` leading out to exit 2, a FIFO `.old` to hang).
#[test]
fn a_journal_shipped_in_the_repository_is_not_acted_on() {
    let side = |name: &str, ext: &str| format!(".{name}.ae-{SHIPPED_TAG}.{ext}");
    let cases: Vec<(&str, Value)> = vec![
        (
            "create in swapping",
            json!([{"dir": "", "name": "notes.txt", "kind": "create", "staged": null, "old": null}]),
        ),
        (
            "replace with a planted .old",
            json!([{"dir": "", "name": "a.txt", "kind": "replace",
                    "staged": side("a.txt", "new"), "old": side("a.txt", "old")}]),
        ),
        (
            "dir is a link leading out",
            json!([{"dir": "out", "name": "secret.txt", "kind": "create",
                    "staged": side("secret.txt", "new"), "old": null}]),
        ),
        (
            "in place with a FIFO .old",
            json!([{"dir": "", "name": "a.txt", "kind": "in_place",
                    "staged": null, "old": side("fifo.txt", "old")}]),
        ),
    ];
    for (what, entries) in cases {
        for place in ["repository", "state directory"] {
            let s = Sandbox::new("shipped");
            s.file("a.txt", "a\n");
            s.file("notes.txt", "notes\n");
            s.file(&side("a.txt", "old"), "PLANTED\n");
            fs::write(s.outside.join("secret.txt"), "SECRET\n").unwrap();
            std::os::unix::fs::symlink(&s.outside, s.root.join("out")).unwrap();
            let fifo = s.root.join(side("fifo.txt", "old"));
            assert!(std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success());
            let journal = planted("swapping", entries.clone());
            if place == "repository" {
                s.file(&format!(".anchored-edit/{SHIPPED_TAG}.journal"), &journal);
            } else {
                // Make this root's journal folder with a first (read) run.
                s.call("line_count", json!({"path": "a.txt"}));
                let base = s.state.join("anchored-edit");
                let folder = fs::read_dir(&base)
                    .unwrap()
                    .flatten()
                    .find(|e| e.path().is_dir())
                    .unwrap();
                fs::write(
                    folder.path().join(format!("{SHIPPED_TAG}.journal")),
                    format!("00\n{journal}\n"),
                )
                .unwrap();
            }
            let (root_before, outside_before) = (tree(&s.root), tree(&s.outside));
            let child = s.spawn(
                &json!({"tool": "line_count", "arguments": {"path": "a.txt"}}),
                &[],
            );
            let (code, out) = wait_bounded(child, 20, what);
            assert_eq!(code, 0, "{what} ({place}): {out:#}");
            assert_eq!(
                tree(&s.root),
                root_before,
                "{what} ({place}): the root changed"
            );
            assert_eq!(
                tree(&s.outside),
                outside_before,
                "{what} ({place}): outside changed"
            );
            let child = s.spawn(
                &json!({"tool": "str_replace", "arguments": {"path": "a.txt", "old_str": "a", "new_str": "b"}}),
                &[],
            );
            let (code, out) = wait_bounded(child, 20, what);
            assert_eq!(code, 0, "{what} ({place}): {out:#}");
            assert_eq!(s.read("a.txt"), "b\n", "{what} ({place})");
            assert_eq!(s.read("notes.txt"), "notes\n", "{what} ({place})");
        }
    }
}

/// A repository's own `.anchored-edit/` (a folder of files, or a file) is data like any
/// other: read, edited, and never taken for a journal.
#[test]
fn a_repositorys_own_anchored_edit_folder_is_ordinary_data() {
    let s = Sandbox::new("own-folder");
    s.file(".anchored-edit/0123.journal", "{not json\n");
    let (code, out) = s.call(
        "str_replace",
        json!({"path": ".anchored-edit/0123.journal", "old_str": "not", "new_str": "now"}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(s.read(".anchored-edit/0123.journal"), "{now json\n");
    let t = Sandbox::new("own-file");
    t.file("a.txt", "a\n");
    t.file(".anchored-edit", "a file\n");
    let (code, out) = t.call(
        "str_replace",
        json!({"path": "a.txt", "old_str": "a", "new_str": "b"}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(
        (t.read("a.txt"), t.read(".anchored-edit")),
        ("b\n".into(), "a file\n".into())
    );
    assert!(leftovers(&t.root).is_empty(), "{:?}", leftovers(&t.root));
}

/// Journals are the user's: the state folder 0700, the journal files 0600, no journal
/// under the root.
#[test]
fn journals_live_in_the_users_state_directory_private() {
    use std::os::unix::fs::PermissionsExt;
    let s = Sandbox::new("private");
    mixed_setup(&s);
    let status = s
        .spawn(&mixed_patch(), &[("ANCHORED_EDIT_CRASH_AT", "swap:2")])
        .wait()
        .unwrap();
    assert_eq!(status.code(), Some(137));
    let base = s.state.join("anchored-edit");
    let mode = |p: &std::path::Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&base), 0o700);
    assert_eq!(mode(&base.join("key")), 0o600);
    let folder = fs::read_dir(&base)
        .unwrap()
        .flatten()
        .find(|e| e.path().is_dir())
        .unwrap()
        .path();
    assert_eq!(mode(&folder), 0o700);
    let journal = fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".journal"))
        .unwrap()
        .path();
    assert_eq!(mode(&journal), 0o600);
    assert!(!s.root.join(".anchored-edit").exists());
    recover(&s);
    assert!(leftovers(&s.root).is_empty(), "{:?}", leftovers(&s.root));
}

/// Two processes writing at once: each one's start-up recovery leaves the other's live
/// batch alone (its lock is held), so every call succeeds and every edit lands.
#[test]
fn concurrent_runs_never_roll_back_each_other() {
    let s = std::sync::Arc::new(Sandbox::new("concurrent"));
    s.file("keep.txt", "keep\n");
    for w in 0..3 {
        s.file(&format!("w{w}.txt"), &big_text(w, 0, 256));
    }
    let workers: Vec<_> = (0..3)
        .map(|w| {
            let s = s.clone();
            std::thread::spawn(move || {
                for g in 0..15 {
                    let (code, out) = s.call(
                        "str_replace",
                        json!({"path": format!("w{w}.txt"), "old_str": format!("MARK {w} v{g}\n"), "new_str": format!("MARK {w} v{}\n", g + 1)}),
                    );
                    assert_eq!(code, 0, "worker {w}, call {g}: {out:#}");
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    for w in 0..3 {
        assert_eq!(s.read(&format!("w{w}.txt")), big_text(w, 15, 256));
    }
    assert!(leftovers(&s.root).is_empty(), "{:?}", leftovers(&s.root));
}
