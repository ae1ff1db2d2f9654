//! Nothing outside the root is read or written, whatever the repository holds and
//! whatever changes under a running call (issue 12 items 1, 2, 4, 5, 6, 7).

mod common;

use common::{leftovers, tree, Sandbox};
use serde_json::{json, Value};
use std::fs;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Every old staging and backup name (`.a.txt.ae<pid>-<i>.tmp|bak`, for every pid this
/// machine can hand out) is a link to a victim outside. The edit must neither write the
/// victim nor change its mode, and `a.txt` must stay a regular file.
#[test]
fn planted_staging_name_links_never_touch_the_outside() {
    let s = Sandbox::new("planted");
    s.file("a.txt", "hello\n");
    let victim = s.outside.join("victim");
    fs::write(&victim, "secret\n").unwrap();
    fs::set_permissions(&victim, fs::Permissions::from_mode(0o600)).unwrap();
    let pid_max: u32 = fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(32_768)
        .min(70_000);
    for pid in 1..=pid_max {
        for ext in ["tmp", "bak"] {
            let _ = symlink(
                "../outside/victim",
                s.root.join(format!(".a.txt.ae{pid}-0.{ext}")),
            );
        }
    }
    let before = tree(&s.outside);
    let (code, out) = s.call(
        "str_replace",
        json!({"path": "a.txt", "old_str": "hello", "new_str": "bye"}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(tree(&s.outside), before, "the outside changed");
    assert_eq!(
        fs::metadata(&victim).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let a = fs::symlink_metadata(s.root.join("a.txt")).unwrap();
    assert!(a.is_file(), "a.txt must stay a regular file");
    assert_eq!(s.read("a.txt"), "bye\n");
}

/// A thread flips `d` between a real directory and a symlink to `../outside` while
/// calls read, edit and create files under `d/`. No call may read the outside secret or
/// create or change anything outside. Bounded: 1 500 calls or 60 s. The native binary
/// is run once per call (`call`); the Node server, whose start-up is ~150 ms of CPU, serves
/// the calls from one `mcp` process (the same call path per call, ten times the calls).
#[test]
fn a_directory_flipped_to_a_symlink_during_calls_never_leads_out() {
    let s = Sandbox::new("flip");
    let mut server = common::node().map(|_| s.server());
    s.file("d/f.txt", "inside 0\n");
    fs::write(s.outside.join("f.txt"), "SECRET 0\n").unwrap();
    let outside_before = tree(&s.outside);
    let stop = Arc::new(AtomicBool::new(false));
    let flipper = {
        let (root, stop) = (s.root.clone(), stop.clone());
        std::thread::spawn(move || {
            let (d, real) = (root.join("d"), root.join("d.real"));
            while !stop.load(Ordering::Relaxed) {
                if fs::rename(&d, &real).is_ok() {
                    let _ = symlink("../outside", &d);
                    std::thread::yield_now();
                    let _ = fs::remove_file(&d);
                    let _ = fs::rename(&real, &d);
                }
                std::thread::yield_now();
            }
        })
    };
    let (mut calls, mut escapes, mut ok) = (0, Vec::new(), 0);
    let start = Instant::now();
    while calls < 1_500 && start.elapsed() < Duration::from_secs(60) {
        let request = match calls % 3 {
            0 => ("read_lines", json!({"path": "d/f.txt"})),
            1 => {
                let (from, to) = if calls % 2 == 0 {
                    ("inside", "INSIDE")
                } else {
                    ("INSIDE", "inside")
                };
                (
                    "str_replace",
                    json!({"path": "d/f.txt", "old_str": from, "new_str": to}),
                )
            }
            _ => (
                "create_file",
                json!({"path": format!("d/new{calls}.txt"), "content": "x\n"}),
            ),
        };
        let (code, out) = match server.as_mut() {
            Some(server) => server.call(request.0, request.1.clone()),
            None => s.call(request.0, request.1.clone()),
        };
        calls += 1;
        if code == 0 {
            ok += 1;
        }
        if out.to_string().contains("SECRET") {
            escapes.push(format!("read the outside: {out}"));
        }
        if tree(&s.outside) != outside_before {
            escapes.push(format!("wrote outside after {request:?}"));
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    flipper.join().unwrap();
    eprintln!(
        "flip race: {calls} calls, {ok} succeeded, {} escapes",
        escapes.len()
    );
    assert!(escapes.is_empty(), "{escapes:#?}");
    assert!(
        ok > 0,
        "no call ever succeeded: the race test tested nothing"
    );
}

/// One file through two names in one call: both edits land, in order, in one text.
#[test]
fn one_file_through_two_names_gets_every_edit() {
    let s = Sandbox::new("alias");
    s.file("a.txt", "one\ntwo\n");
    symlink("a.txt", s.root.join("link.txt")).unwrap();
    let (code, out) = s.call(
        "multi_replace",
        json!({"replacements": [
            {"path": "a.txt", "old_str": "one", "new_str": "ONE"},
            {"path": "link.txt", "old_str": "two", "new_str": "TWO"}]}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(s.read("a.txt"), "ONE\nTWO\n");
    assert!(fs::symlink_metadata(s.root.join("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    let patch = "*** Begin Patch\n*** Update File: link.txt\n-ONE\n+1\n*** Update File: a.txt\n-TWO\n+2\n*** End Patch\n";
    let (code, out) = s.call("apply_patch", json!({"patch": patch}));
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(s.read("a.txt"), "1\n2\n");
    // The second edit needs what the first removed: refused, nothing written.
    let (code, out) = s.call(
        "multi_replace",
        json!({"replacements": [
            {"path": "a.txt", "old_str": "1", "new_str": "x"},
            {"path": "link.txt", "old_str": "1", "new_str": "y"}]}),
    );
    assert_eq!(code, 1, "{out:#}");
    assert_eq!(s.read("a.txt"), "1\n2\n");
    assert!(leftovers(&s.root).is_empty());
}

/// A file with two hard links stays one file; an owner other than the process's is kept.
#[test]
fn hard_links_stay_joined_and_owners_stay() {
    let s = Sandbox::new("links");
    s.file("a.txt", "v1\n");
    fs::hard_link(s.root.join("a.txt"), s.root.join("b.txt")).unwrap();
    let (code, out) = s.call(
        "str_replace",
        json!({"path": "a.txt", "old_str": "v1", "new_str": "v2"}),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(s.read("b.txt"), "v2\n", "the other link must see the edit");
    let (a, b) = (
        fs::metadata(s.root.join("a.txt")).unwrap(),
        fs::metadata(s.root.join("b.txt")).unwrap(),
    );
    assert_eq!((a.ino(), a.nlink()), (b.ino(), 2));
    // Another owner: kept (root can give it to the new file; others write in place).
    s.file("owned.txt", "o1\n");
    let path = s.root.join("owned.txt");
    if std::os::unix::fs::chown(&path, Some(4321), Some(4321)).is_ok() {
        let (code, out) = s.call(
            "str_replace",
            json!({"path": "owned.txt", "old_str": "o1", "new_str": "o2"}),
        );
        assert_eq!(code, 0, "{out:#}");
        let m = fs::metadata(&path).unwrap();
        assert_eq!((m.uid(), m.gid()), (4321, 4321));
        assert_eq!(s.read("owned.txt"), "o2\n");
    }
    assert!(leftovers(&s.root).is_empty());
}

/// A FIFO (no writer) answers at once with a refusal, whichever tool reaches it.
#[test]
fn a_fifo_is_refused_without_blocking() {
    let s = Sandbox::new("fifo");
    s.file("a.txt", "a\n");
    let status = std::process::Command::new("mkfifo")
        .arg(s.root.join("pipe"))
        .status()
        .unwrap();
    assert!(status.success());
    let patch = "*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** Update File: pipe\n-x\n+y\n*** End Patch\n";
    let calls = [
        ("read_lines", json!({"path": "pipe"})),
        ("get_document", json!({"path": "pipe"})),
        (
            "str_replace",
            json!({"path": "pipe", "old_str": "x", "new_str": "y"}),
        ),
        ("create_file", json!({"path": "pipe", "content": "x"})),
        ("apply_patch", json!({"patch": patch})),
    ];
    for (tool, args) in calls {
        let mut child = s.spawn(&json!({"tool": tool, "arguments": args}), &[]);
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        if child.try_wait().unwrap().is_none() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{tool} on a FIFO blocked for 5 s");
        }
        let (code, out) = common::parse(child.wait_with_output().unwrap());
        assert_eq!(code, 1, "{tool}: {out:#}");
    }
    assert_eq!(s.read("a.txt"), "a\n");
}

/// A save between the engine's read and the swap: `stale_buffer`, the save kept,
/// nothing else written.
#[test]
fn a_save_during_the_call_is_never_overwritten() {
    let s = Sandbox::new("cas");
    s.file("a.txt", "a = 1\n");
    s.file("b.txt", "b = 1\n");
    let pause = s.base.join("paused");
    let request = json!({"tool": "multi_replace", "arguments": {"replacements": [
        {"path": "a.txt", "old_str": "a = 1", "new_str": "a = 2"},
        {"path": "b.txt", "old_str": "b = 1", "new_str": "b = 2"}]}});
    let pause_str = pause.to_string_lossy().into_owned();
    let child = s.spawn(
        &request,
        &[
            ("ANCHORED_EDIT_PAUSE_AT", "check:1"),
            ("ANCHORED_EDIT_PAUSE_FILE", &pause_str),
        ],
    );
    let start = Instant::now();
    while !pause.exists() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let paused = pause.exists();
    fs::write(s.root.join("b.txt"), "b = 1 (the user's save)\n").unwrap();
    let _ = fs::remove_file(&pause);
    let (code, out) = common::parse(child.wait_with_output().unwrap());
    assert!(paused, "the commit never reached its final check");
    assert_eq!(
        (code, out["error"]["kind"].as_str()),
        (1, Some("stale_buffer")),
        "{out:#}"
    );
    assert!(out["error"]["message"].as_str().unwrap().contains("b.txt"));
    assert_eq!(s.read("a.txt"), "a = 1\n");
    assert_eq!(s.read("b.txt"), "b = 1 (the user's save)\n");
    assert!(leftovers(&s.root).is_empty(), "{:?}", leftovers(&s.root));
}

/// A save that keeps the file's inode and length (only its bytes tell), between the
/// engine's read and the swap, at each step a commit can meet it: a plain file (the
/// final check), a hard-linked file written in place before its rollback copy is taken
/// and after it. `stale_buffer`, the save kept, nothing left behind.
#[test]
fn a_save_of_the_same_length_during_the_call_is_never_overwritten() {
    for (linked, step) in [(false, "check:1"), (true, "keep-old:1"), (true, "check:1")] {
        let label = format!("linked {linked}, paused at {step}");
        let s = Sandbox::new(&format!("cas-len-{linked}-{}", step.replace(':', "")));
        s.file("a.txt", "a = 1\n");
        if linked {
            fs::hard_link(s.root.join("a.txt"), s.root.join("twin.txt")).unwrap();
        }
        let pause = s.base.join("paused");
        let pause_str = pause.to_string_lossy().into_owned();
        let request = json!({"tool": "str_replace", "arguments":
            {"path": "a.txt", "old_str": "a = 1", "new_str": "a = 2"}});
        let child = s.spawn(
            &request,
            &[
                ("ANCHORED_EDIT_PAUSE_AT", step),
                ("ANCHORED_EDIT_PAUSE_FILE", &pause_str),
            ],
        );
        let start = Instant::now();
        while !pause.exists() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(pause.exists(), "{label}: the commit never paused");
        let ino = fs::metadata(s.root.join("a.txt")).unwrap().ino();
        fs::write(s.root.join("a.txt"), "a = 9\n").unwrap();
        assert_eq!(fs::metadata(s.root.join("a.txt")).unwrap().ino(), ino);
        fs::remove_file(&pause).unwrap();
        let (code, out) = common::parse(child.wait_with_output().unwrap());
        assert_eq!(
            (code, out["error"]["kind"].as_str()),
            (1, Some("stale_buffer")),
            "{label}: {out:#}"
        );
        assert_eq!(s.read("a.txt"), "a = 9\n", "{label}");
        assert!(
            leftovers(&s.root).is_empty(),
            "{label}: {:?}",
            leftovers(&s.root)
        );
    }
}

/// Path spellings (`..`, absolute, `//`, `./`, links in and out, non-ASCII names) × tools
/// and patch headers: inside the root they work (in-root symlinks,
/// absolute or relative, included); every way out is refused, and the outside and the
/// journal directory are never touched.
#[test]
fn every_path_spelling_through_every_tool_stays_inside() {
    let s = Sandbox::new("spell");
    s.file("in/a.txt", "alpha\n");
    fs::write(s.outside.join("secret.txt"), "alpha SECRET\n").unwrap();
    symlink("../outside", s.root.join("out_dir")).unwrap();
    symlink("../outside/secret.txt", s.root.join("out_file")).unwrap();
    symlink(s.outside.join("secret.txt"), s.root.join("abs_out")).unwrap();
    symlink(s.root.join("in/a.txt"), s.root.join("abs_in")).unwrap();
    symlink("in", s.root.join("rel_in")).unwrap();
    symlink("in", s.root.join("ünï")).unwrap();
    symlink("../outside", s.root.join("外")).unwrap();
    let root = s.root.to_string_lossy().into_owned();
    let outside = s.outside.to_string_lossy().into_owned();
    let escaping = [
        "../outside/secret.txt".to_string(),
        "in/../../outside/secret.txt".into(),
        "out_dir/secret.txt".into(),
        "out_file".into(),
        "abs_out".into(),
        "rel_in/../../outside/secret.txt".into(),
        format!("{outside}/secret.txt"),
        format!("{root}/../outside/secret.txt"),
        format!("{root}/out_dir/secret.txt"),
        "out_dir/new.txt".into(),
        "外/secret.txt".into(),
        "ünï/../../outside/secret.txt".into(),
    ];
    let inside = [
        "in/a.txt".to_string(),
        "./in/a.txt".into(),
        "in//a.txt".into(),
        "rel_in/a.txt".into(),
        "abs_in".into(),
        format!("{root}/in/a.txt"),
        format!("{root}/rel_in/a.txt"),
        "ünï/a.txt".into(),
    ];
    let requests = |p: &str| -> Vec<(&'static str, Value)> {
        let header = |h: &str| format!("*** Begin Patch\n*** {h}\n*** End Patch\n");
        vec![
            ("read_lines", json!({"path": p})),
            ("get_document", json!({"path": p})),
            ("grep_file", json!({"path": p, "pattern": "alpha"})),
            (
                "str_replace",
                json!({"path": p, "old_str": "alpha", "new_str": "alpha"}),
            ),
            ("create_file", json!({"path": p, "content": "x\n"})),
            (
                "apply_patch",
                json!({"patch": format!("*** Begin Patch\n*** Update File: {p}\n-alpha\n+alpha\n*** End Patch\n")}),
            ),
            (
                "apply_patch",
                json!({"patch": header(&format!("Add File: {p}\n+x"))}),
            ),
            (
                "apply_patch",
                json!({"patch": header(&format!("Delete File: {p}"))}),
            ),
            (
                "apply_patch",
                json!({"patch": format!("*** Begin Patch\n*** Update File: in/a.txt\n*** Move to: {p}\n-alpha\n+alpha\n*** End Patch\n")}),
            ),
        ]
    };
    let outside_before = tree(&s.outside);
    let mut checked = 0;
    for p in &escaping {
        for (tool, args) in requests(p) {
            let (code, out) = s.call(tool, args.clone());
            checked += 1;
            assert_eq!(code, 1, "{tool} {p} must be refused: {out:#}");
            assert!(!out.to_string().contains("SECRET"), "{tool} {p}: {out:#}");
            assert_eq!(tree(&s.outside), outside_before, "{tool} {p} wrote outside");
            assert_eq!(s.read("in/a.txt"), "alpha\n", "{tool} {p}");
        }
    }
    for p in &inside {
        let mut calls: Vec<(&str, Value)> = requests(p).into_iter().take(3).collect();
        calls.push((
            "str_replace",
            json!({"path": p, "old_str": "alpha", "new_str": "ALPHA"}),
        ));
        calls.push((
            "str_replace",
            json!({"path": p, "old_str": "ALPHA", "new_str": "alpha"}),
        ));
        for (tool, args) in calls {
            let (code, out) = s.call(tool, args);
            checked += 1;
            assert_eq!(code, 0, "{tool} {p} must work: {out:#}");
        }
    }
    eprintln!("path spellings: {checked} calls checked");
    assert_eq!(tree(&s.outside), outside_before);
    assert!(fs::symlink_metadata(s.root.join("abs_in"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(s.journals().is_empty(), "{:?}", s.journals());
}

/// A directory on a target's path replaced by a link (to elsewhere inside the root)
/// after the engine read and before the swap: the final check refuses, nothing created.
#[test]
fn a_directory_swapped_for_a_link_before_the_swap_is_refused() {
    let s = Sandbox::new("redirect");
    s.file("d/keep.txt", "k\n");
    s.file("e/other.txt", "o\n");
    let pause = s.base.join("paused");
    let pause_str = pause.to_string_lossy().into_owned();
    let child = s.spawn(
        &json!({"tool": "create_file", "arguments": {"path": "d/new.txt", "content": "n\n"}}),
        &[
            ("ANCHORED_EDIT_PAUSE_AT", "check:1"),
            ("ANCHORED_EDIT_PAUSE_FILE", &pause_str),
        ],
    );
    let start = Instant::now();
    while !pause.exists() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(pause.exists(), "the commit never reached its final check");
    fs::rename(s.root.join("d"), s.root.join("d2")).unwrap();
    symlink("e", s.root.join("d")).unwrap();
    fs::remove_file(&pause).unwrap();
    let (code, out) = common::parse(child.wait_with_output().unwrap());
    assert_eq!(
        (code, out["error"]["kind"].as_str()),
        (1, Some("stale_buffer")),
        "{out:#}"
    );
    assert!(!s.root.join("e/new.txt").exists() && !s.root.join("d2/new.txt").exists());
    assert!(leftovers(&s.root).is_empty(), "{:?}", leftovers(&s.root));
}

/// The project tools list and search only what is under the root: a symlinked folder or
/// file leading out is neither listed nor searched; a listing of a sub-folder still honours the root's .gitignore; a search leaves
/// nothing behind and changes nothing.
#[test]
fn project_tools_never_list_or_search_outside_the_root() {
    let s = Sandbox::new("project-tools");
    fs::create_dir_all(&s.outside).unwrap();
    fs::write(s.outside.join("secret.py"), "NEEDLE outside\n").unwrap();
    s.file(".gitignore", "gen/\n");
    s.file("src/a.py", "NEEDLE inside\n");
    s.file("src/gen/b.py", "NEEDLE ignored\n");
    symlink("../outside", s.root.join("out")).unwrap();
    symlink("../../outside/secret.py", s.root.join("src/link.py")).unwrap();
    let before = tree(&s.root);
    let (code, out) = s.call("list_files", json!({}));
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(out["paths"], json!(["src/a.py"]), "{out:#}");
    let (code, out) = s.call("list_files", json!({"path": "src"}));
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(out["paths"], json!(["src/a.py"]), "{out:#}");
    let (code, out) = s.call("grep_project", json!({"pattern": "NEEDLE"}));
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(
        out["matches"],
        json!([{"path": "src/a.py", "line": 1, "text": "NEEDLE inside"}])
    );
    let (code, out) = s.call("list_files", json!({"path": "out"}));
    assert_eq!(code, 1, "a folder outside must be refused: {out:#}");
    assert_eq!(tree(&s.root), before);
}

/// Issue 24 finding 2: a move (or a delete and an add) onto another name of the same
/// file (a symlink to it, the reverse, a hard link) is refused as `invalid_arguments`
/// naming both paths, and the text stays on disk; a move onto another file still works.
#[test]
fn a_move_onto_another_name_of_the_same_file_is_refused_naming_both() {
    let patch = |ops: &str| json!({"patch": format!("*** Begin Patch\n{ops}*** End Patch\n")});
    let cases = [
        (
            "*** Update File: a.txt\n*** Move to: link.txt\n-hello\n+bye\n",
            "a.txt",
            "link.txt",
        ),
        (
            "*** Update File: link.txt\n*** Move to: a.txt\n-hello\n+bye\n",
            "link.txt",
            "a.txt",
        ),
        (
            "*** Update File: a.txt\n*** Move to: hard.txt\n-hello\n+bye\n",
            "a.txt",
            "hard.txt",
        ),
        (
            "*** Delete File: link.txt\n*** Add File: a.txt\n+new\n",
            "link.txt",
            "a.txt",
        ),
        (
            "*** Delete File: hard.txt\n*** Add File: a.txt\n+new\n",
            "hard.txt",
            "a.txt",
        ),
    ];
    for (ops, first, second) in cases {
        let s = Sandbox::new("alias-move");
        s.file("a.txt", "hello\n");
        symlink("a.txt", s.root.join("link.txt")).unwrap();
        fs::hard_link(s.root.join("a.txt"), s.root.join("hard.txt")).unwrap();
        let before = tree(&s.root);
        let (code, out) = s.call("apply_patch", patch(ops));
        assert_eq!(code, 1, "{ops}: {out:#}");
        assert_eq!(out["error"]["kind"], "invalid_arguments", "{ops}: {out:#}");
        let message = out["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("`{first}`")) && message.contains(&format!("`{second}`")),
            "{ops}: {message}"
        );
        assert_eq!(tree(&s.root), before, "{ops}");
        assert!(leftovers(&s.root).is_empty(), "{:?}", leftovers(&s.root));
    }
    // Near miss: a move onto another file replaces it.
    let s = Sandbox::new("alias-move-other");
    s.file("a.txt", "hello\n");
    s.file("b.txt", "other\n");
    let (code, out) = s.call(
        "apply_patch",
        patch("*** Update File: a.txt\n*** Move to: b.txt\n-hello\n+bye\n"),
    );
    assert_eq!(code, 0, "{out:#}");
    assert_eq!(s.read("b.txt"), "bye\n");
    assert!(!s.root.join("a.txt").exists());
}

/// Issue 24 finding 4 (the write): replace_in_files naming one file twice (`a.txt` and
/// a link to it) is answered once, never `stale_buffer`: every edit lands in the one
/// file and the link stays a link.
#[test]
fn replace_in_files_naming_one_file_twice_is_one_file() {
    for link in ["sym", "hard"] {
        let s = Sandbox::new("alias-rif");
        s.file("a.txt", "one\ntwo\n");
        if link == "sym" {
            symlink("a.txt", s.root.join("link.txt")).unwrap();
        } else {
            fs::hard_link(s.root.join("a.txt"), s.root.join("link.txt")).unwrap();
        }
        let (code, out) = s.call(
            "replace_in_files",
            json!({"paths": ["a.txt", "link.txt"], "old_str": "one", "new_str": "ONE"}),
        );
        assert_ne!(out["error"]["kind"], "stale_buffer", "{link}: {out:#}");
        if code == 0 {
            assert_eq!(s.read("a.txt"), "ONE\ntwo\n", "{link}");
        } else {
            assert_eq!(out["error"]["kind"], "invalid_arguments", "{link}: {out:#}");
            assert_eq!(s.read("a.txt"), "one\ntwo\n", "{link}");
        }
        assert_eq!(
            fs::symlink_metadata(s.root.join("link.txt"))
                .unwrap()
                .file_type()
                .is_symlink(),
            link == "sym"
        );
        assert_eq!(s.read("link.txt"), s.read("a.txt"), "{link}");
        assert!(leftovers(&s.root).is_empty(), "{:?}", leftovers(&s.root));
    }
}
