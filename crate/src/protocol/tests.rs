use super::*;

const KEY: [u8; 16] = *b"0123456789abcdef";

fn journal() -> Journal {
    Journal {
        tag: "00112233445566ff".into(),
        root: "/p".into(),
        state: State::Swapping,
        entries: vec![
            entry_for("", "a.txt", Kind::Replace, true, "00112233445566ff"),
            entry_for("d/e", "c.txt", Kind::Create, false, "00112233445566ff"),
            entry_for("", "g.txt", Kind::Remove, true, "00112233445566ff"),
        ],
        dirs: vec!["d".into(), "d/e".into()],
    }
}

#[test]
fn siphash_matches_the_papers_vector() {
    // Appendix A of the SipHash paper: key 00..0f, message 00..0e.
    let k0 = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]);
    let k1 = u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]);
    let msg: Vec<u8> = (0..15).collect();
    assert_eq!(siphash::sip24(k0, k1, &msg), 0xa129_ca61_49be_45e5);
}

#[test]
fn a_sealed_journal_unseals_only_with_its_key_tag_and_root() {
    let j = journal();
    let text = j.seal(&KEY);
    assert_eq!(Journal::unseal(&text, &KEY, &j.tag, "/p"), Some(j.clone()));
    let other = *b"0123456789abcdeF";
    let cases: Vec<(&str, String, [u8; 16], &str, &str)> = vec![
        ("other key", text.clone(), other, "00112233445566ff", "/p"),
        ("other root", text.clone(), KEY, "00112233445566ff", "/q"),
        ("other tag", text.clone(), KEY, "00112233445566fe", "/p"),
        (
            "body changed",
            text.replace("swapping", "staging"),
            KEY,
            "00112233445566ff",
            "/p",
        ),
        (
            "no tag",
            text.split_once('\n').unwrap().1.to_string(),
            KEY,
            "00112233445566ff",
            "/p",
        ),
        ("garbage", "{not json".into(), KEY, "00112233445566ff", "/p"),
    ];
    for (what, text, key, tag, root) in cases {
        assert_eq!(Journal::unseal(&text, &key, tag, root), None, "{what}");
    }
}

#[test]
fn a_journal_with_names_not_of_the_protocols_shape_does_not_parse() {
    let bad = [
        json!({"dir": "..", "name": "a", "kind": "replace", "staged": ".a.ae-0011223344556677.new", "old": ".a.ae-0011223344556677.old"}),
        json!({"dir": "", "name": "a", "kind": "create", "staged": null, "old": null}),
        json!({"dir": "", "name": "a", "kind": "replace", "staged": ".a.ae-0011223344556677.new", "old": "b"}),
        json!({"dir": "/etc", "name": "a", "kind": "remove", "staged": null, "old": ".a.ae-0011223344556677.old"}),
        json!({"dir": "", "name": "..", "kind": "remove", "staged": null, "old": "....ae-0011223344556677.old"}),
    ];
    for e in bad {
        assert_eq!(entry_from_json(&e), None, "{e}");
    }
}

#[test]
fn each_kind_rolls_back_from_what_was_observed() {
    let f =
        |staged_exists, old_exists, target_exists, target_is_staged, target_matches_old| Facts {
            staged_exists,
            old_exists,
            target_exists,
            target_is_staged,
            target_matches_old,
        };
    let cases = [
        (
            Kind::Replace,
            true,
            f(true, true, true, false, false),
            Undo::Keep,
        ),
        (
            Kind::Replace,
            true,
            f(false, true, true, false, false),
            Undo::RenameOldToTarget,
        ),
        (
            Kind::Replace,
            true,
            f(false, false, true, false, false),
            Undo::Keep,
        ),
        (
            Kind::Create,
            true,
            f(true, false, false, false, false),
            Undo::Keep,
        ),
        (
            Kind::Create,
            true,
            f(true, false, true, false, false),
            Undo::Keep,
        ),
        (
            Kind::Create,
            true,
            f(true, false, true, true, false),
            Undo::UnlinkTarget,
        ),
        (
            Kind::Create,
            true,
            f(false, false, true, false, false),
            Undo::UnlinkTarget,
        ),
        (
            Kind::Remove,
            false,
            f(false, true, false, false, false),
            Undo::RenameOldToTarget,
        ),
        (
            Kind::Remove,
            false,
            f(false, true, true, false, false),
            Undo::Keep,
        ),
        (
            Kind::InPlace,
            false,
            f(false, true, true, false, false),
            Undo::RewriteFromOld,
        ),
        (
            Kind::InPlace,
            false,
            f(false, true, true, false, true),
            Undo::Keep,
        ),
    ];
    for (kind, has_staged, facts, undo) in cases {
        assert_eq!(
            roll_back(kind, has_staged, facts),
            undo,
            "{kind:?} {facts:?}"
        );
    }
}

#[test]
fn two_names_of_one_file_are_refused_naming_both() {
    let n = |path: &str, real: &str, id: Option<(u64, u64)>, remove| Named {
        path: path.into(),
        real: real.into(),
        id,
        remove,
    };
    // Move a.txt onto link.txt (a symlink to it): write link.txt, remove a.txt.
    let err = aliases(&[
        n("link.txt", "a.txt", Some((1, 7)), false),
        n("a.txt", "a.txt", Some((1, 7)), true),
    ])
    .unwrap_err();
    assert!(
        err.contains("`link.txt` and `a.txt` are the same file"),
        "{err}"
    );
    // A hard link: other real path, one inode.
    assert!(aliases(&[
        n("b.txt", "b.txt", Some((1, 7)), true),
        n("a.txt", "a.txt", Some((1, 7)), false)
    ])
    .is_err());
    // Near miss: two files.
    assert!(aliases(&[
        n("b.txt", "b.txt", Some((1, 8)), false),
        n("a.txt", "a.txt", Some((1, 7)), true)
    ])
    .is_ok());
    assert!(aliases(&[
        n("new.txt", "new.txt", None, false),
        n("a.txt", "a.txt", Some((1, 7)), true)
    ])
    .is_ok());
}

#[test]
fn the_compare_and_swap_refuses_any_change_since_the_read() {
    let seen = Seen {
        id: Some((1, 2)),
        len: Some(3),
        digest: Some("h".into()),
    };
    let now = |id, len, digest: Option<&str>| Seen {
        id: Some(id),
        len: Some(len),
        digest: digest.map(String::from),
    };
    assert!(seen.unchanged(Some(&now((1, 2), 3, Some("h")))));
    assert!(seen.unchanged(Some(&now((1, 2), 3, None))));
    assert!(!seen.unchanged(Some(&now((1, 2), 3, Some("x")))));
    assert!(!seen.unchanged(Some(&now((1, 3), 3, Some("h")))));
    assert!(!seen.unchanged(Some(&now((1, 2), 4, Some("h")))));
    assert!(!seen.unchanged(None));
    assert!(Seen::default().unchanged(None));
    assert!(!Seen::default().unchanged(Some(&now((1, 2), 3, None))));
}

#[test]
fn recovery_rolls_back_only_a_swapping_batch_and_keeps_dirs_after_done() {
    assert!(State::Swapping.rolls_back());
    assert!(!State::Staging.rolls_back() && !State::Done.rolls_back());
    assert!(State::Staging.removes_dirs() && !State::Done.removes_dirs());
    let j = journal();
    assert!(!is_one_rename(&j));
    assert_eq!(
        j.entries[0].staged.as_deref(),
        Some(".a.txt.ae-00112233445566ff.new")
    );
}

#[test]
fn a_lock_is_alive_only_while_its_process_runs() {
    let stat = "1234 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 99887 0 0";
    let lock = lock_text(stat).unwrap();
    assert_eq!(lock, "1234 99887\n");
    assert_eq!(lock_pid(&lock), Some(1234));
    assert!(lock_alive(&lock, Some(stat)));
    assert!(!lock_alive(&lock, None));
    let reused = stat.replace("99887", "99888");
    assert!(!lock_alive(&lock, Some(&reused)));
    assert!(!lock_alive("", Some(stat)));
}

#[test]
fn the_json_operations_answer_as_the_functions() {
    let entry = json::call("entry", &json!({"dir": "", "name": "a", "remove": false, "exists": true, "nlink": 2, "tag": "00112233445566ff"})).unwrap();
    assert_eq!(entry["kind"], "in_place");
    let j = journal().to_json();
    let sealed = json::call(
        "seal",
        &json!({"journal": j, "state": "done", "key": KEY.to_vec()}),
    )
    .unwrap();
    let back = json::call(
        "unseal",
        &json!({"text": sealed, "key": KEY.to_vec(), "tag": "00112233445566ff", "root": "/p"}),
    )
    .unwrap();
    assert_eq!(back["state"], "done");
    let undo = json::call(
        "roll_back",
        &json!({"kind": "remove", "has_staged": false, "facts": {"old_exists": true}}),
    )
    .unwrap();
    assert_eq!(undo, "rename_old");
    assert!(json::call("nope", &json!({})).is_err());
}

/// A journal of `kinds` (all in the root), with `dirs` created.
fn batch(kinds: &[Kind], dirs: &[&str]) -> Journal {
    let tag = "00112233445566ff";
    Journal {
        tag: tag.into(),
        root: "/p".into(),
        state: State::Staging,
        entries: kinds
            .iter()
            .enumerate()
            .map(|(i, k)| entry_for("", &format!("f{i}"), *k, *k != Kind::Create, tag))
            .collect(),
        dirs: dirs.iter().map(|d| d.to_string()).collect(),
    }
}

/// The steps' words with their operands, as a line (`save:staging open:0 stage:0 ...`).
fn shown(steps: &[Step]) -> String {
    let v: Vec<String> = steps
        .iter()
        .map(|s| {
            let operand = match *s {
                Step::Save(st) | Step::Enter(st) => format!(":{}", st.name()),
                Step::Mkdir(d) => format!(":{d}"),
                Step::CopyOld(i, sync) => format!(":{i}{}", if sync { "+sync" } else { "" }),
                Step::Open(i)
                | Step::Stage(i)
                | Step::Write(i)
                | Step::Fsync(i)
                | Step::LinkOld(i)
                | Step::Check(i)
                | Step::Rename(i)
                | Step::LinkNew(i)
                | Step::Overwrite(i)
                | Step::Unlink(i)
                | Step::SyncDir(i) => format!(":{i}"),
                Step::SyncFiles | Step::SyncDirs | Step::Cleanup => String::new(),
            };
            format!("{}{operand}", s.word())
        })
        .collect();
    v.join(" ")
}

#[test]
fn each_batch_shape_has_its_ordered_steps() {
    use Kind::*;
    let cases: Vec<(&str, Journal, &str)> = vec![
        (
            "one rename: the journal saved once",
            batch(&[Replace], &[]),
            "save:staging open:0 stage:0 write:0 fsync:0 link_old:0 check:0 enter:swapping \
             rename:0 sync_dir:0 enter:done cleanup",
        ),
        (
            "in place: a synced copy, swapping and done saved",
            batch(&[InPlace], &[]),
            "save:staging open:0 copy_old:0+sync save:swapping check:0 enter:swapping \
             overwrite:0 sync_dir:0 save:done enter:done cleanup",
        ),
        (
            "create in a new directory",
            batch(&[Create], &["d"]),
            "save:staging mkdir:0 open:0 stage:0 write:0 fsync:0 save:swapping check:0 \
             enter:swapping link_new:0 sync_dir:0 save:done enter:done cleanup",
        ),
        (
            "delete",
            batch(&[Remove], &[]),
            "save:staging open:0 link_old:0 save:swapping check:0 enter:swapping unlink:0 \
             sync_dir:0 save:done enter:done cleanup",
        ),
        (
            "several files: each staged in turn, all checked before any swap",
            batch(&[Replace, Remove], &[]),
            "save:staging open:0 stage:0 write:0 fsync:0 link_old:0 open:1 link_old:1 \
             save:swapping check:0 check:1 enter:swapping rename:0 unlink:1 sync_dir:0 \
             sync_dir:1 save:done enter:done cleanup",
        ),
    ];
    for (what, journal, want) in cases {
        let want: Vec<&str> = want.split_whitespace().collect();
        assert_eq!(shown(&commit_steps(&journal)), want.join(" "), "{what}");
    }
}

#[test]
fn a_large_batch_syncs_each_file_system_once_after_staging_and_after_the_swaps() {
    let j = batch(&[Kind::Replace; steps::SYNC_EACH_MAX + 1], &[]);
    let steps = commit_steps(&j);
    let names: Vec<&str> = steps.iter().filter_map(|s| s.name()).collect();
    let count = |n: &str| names.iter().filter(|x| **x == n).count();
    assert_eq!(count("fsync"), 1);
    assert_eq!(count("sync"), 1);
    assert_eq!(count("swap"), steps::SYNC_EACH_MAX + 1);
    let at = |s: Step| steps.iter().position(|x| *x == s).unwrap();
    assert!(at(Step::LinkOld(steps::SYNC_EACH_MAX)) < at(Step::SyncFiles));
    assert!(at(Step::SyncFiles) < at(Step::Save(State::Swapping)));
    assert!(at(Step::Rename(steps::SYNC_EACH_MAX)) < at(Step::SyncDirs));
    assert!(at(Step::SyncDirs) < at(Step::Save(State::Done)));
    // The largest batch synced file by file has no syncfs.
    let small = commit_steps(&batch(&[Kind::Replace; steps::SYNC_EACH_MAX], &[]));
    assert!(!small.contains(&Step::SyncFiles) && !small.contains(&Step::SyncDirs));
}

#[test]
fn a_replace_turned_in_place_at_its_stage_keeps_the_steps_so_far() {
    // The executor could not give the staging file the owner: it asks again and goes
    // on after the stage step; the steps up to there must be the same.
    for kinds in [
        vec![Kind::Replace],
        vec![Kind::Create, Kind::Replace, Kind::Remove],
    ] {
        let mut j = batch(&kinds, &["d"]);
        let before = commit_steps(&j);
        let i = kinds.iter().position(|k| *k == Kind::Replace).unwrap();
        let k = before.iter().position(|s| *s == Step::Stage(i)).unwrap();
        j.entries[i].kind = Kind::InPlace;
        let after = commit_steps(&j);
        assert_eq!(before[..=k], after[..=k], "{kinds:?}");
        assert!(after.contains(&Step::CopyOld(i, true)) && after.contains(&Step::Overwrite(i)));
        assert!(
            after.contains(&Step::Save(State::Swapping)),
            "no longer one rename"
        );
    }
}

#[test]
fn undo_rolls_back_last_entry_first_and_removes_dirs_before_done() {
    let mut j = batch(&[Kind::Replace, Kind::Create], &["d", "d/e"]);
    let show = |j: &Journal| {
        let v = json::call("undo_steps", &json!({"journal": j.to_json()})).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| {
                format!(
                    "{}:{}",
                    s["step"].as_str().unwrap(),
                    s.get("entry").or(s.get("dir")).unwrap()
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    j.state = State::Swapping;
    assert_eq!(
        show(&j),
        "open:1 roll_back:1 remove_sides:1 open:0 roll_back:0 remove_sides:0 rmdir:1 rmdir:0"
    );
    j.state = State::Staging;
    assert_eq!(
        show(&j),
        "open:1 remove_sides:1 open:0 remove_sides:0 rmdir:1 rmdir:0"
    );
    j.state = State::Done;
    assert_eq!(show(&j), "open:1 remove_sides:1 open:0 remove_sides:0");
}

#[test]
fn the_steps_in_json_carry_their_fault_names() {
    let j = batch(&[Kind::Replace], &[]);
    let v = json::call("steps", &json!({"journal": j.to_json()})).unwrap();
    let names: Vec<Value> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    let want: Vec<Value> = commit_steps(&j).iter().map(|s| json!(s.name())).collect();
    assert_eq!(names, want);
    assert_eq!(
        v[0],
        json!({"step": "save", "name": "journal", "state": "staging"})
    );
    assert_eq!(v[2], json!({"step": "stage", "name": "stage", "entry": 0}));
}
