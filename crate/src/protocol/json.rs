//! The protocol's decisions as JSON in, JSON out: how an executor written in another
//! language (the Node server, through the wasm export `writeProtocol`) asks them. Each
//! operation maps one-to-one onto a function of the module.
//!
//! | op | arguments | answer |
//! |----|-----------|--------|
//! | `tag` | `{random: [8 bytes]}` | the batch's tag |
//! | `entry` | `{dir, name, remove, exists, nlink, tag}` | an entry |
//! | `one_rename` | `{journal}` | bool |
//! | `seal` | `{journal, state, key: [16 bytes]}` | the journal's text |
//! | `unseal` | `{text, key, tag, root}` | the journal or null |
//! | `roll_back` | `{kind, has_staged, facts}` | `keep`, `rename_old`, `unlink_target`, `rewrite_from_old` |
//! | `rolls_back`, `removes_dirs`, `stands` | `{state}` | bool |
//! | `steps` | `{journal}` | the commit's steps, in order: `[{step, name, entry?, dir?, state?, sync?}]` |
//! | `undo_steps` | `{journal}` | the undo's steps, in order: `[{step, entry?, dir?}]` |
//! | `unchanged` | `{seen, now}` (`{id: [dev, ino] as strings, len, digest}` or null) | bool |
//! | `aliases` | `{ops: [{path, real, id, remove}]}` | null, or the refusal's message |
//! | `root_dir` | `{dev, ino}` (decimal strings) | the journal folder's name |
//! | `lock_text` | `{stat}` (`/proc/self/stat`) | the lock file's text |
//! | `lock_pid` | `{lock}` | the pid it names, or null |
//! | `lock_alive` | `{lock, stat}` (`/proc/PID/stat` now, or null) | bool |
//!
//! A journal in JSON is `{tag, root, state, entries: [{dir, name, kind, staged, old}], dirs}`.

use super::*;

/// Runs `op` on `args`; an error names what was wrong with the arguments.
pub fn call(op: &str, args: &Value) -> Result<Value, String> {
    let journal = || journal_of(args.get("journal").unwrap_or(&Value::Null));
    Ok(match op {
        "tag" => json!(tag_of(bytes::<8>(args, "random")?)),
        "entry" => {
            let kind = kind_for(
                flag(args, "remove"),
                flag(args, "exists"),
                num(args, "nlink"),
            );
            let tag = text(args, "tag")?;
            let e = entry_for(
                text(args, "dir")?,
                text(args, "name")?,
                kind,
                flag(args, "exists"),
                tag,
            );
            entry_json(&e)
        }
        "one_rename" => json!(is_one_rename(&journal()?)),
        "steps" => Value::Array(
            commit_steps(&journal()?)
                .into_iter()
                .map(step_json)
                .collect(),
        ),
        "undo_steps" => Value::Array(
            undo_steps(&journal()?)
                .into_iter()
                .map(undo_step_json)
                .collect(),
        ),
        "seal" => {
            let mut j = journal()?;
            if let Some(state) = args.get("state").and_then(Value::as_str) {
                j.state = State::parse(state).ok_or("unknown state")?;
            }
            json!(j.seal(&bytes::<16>(args, "key")?))
        }
        "unseal" => {
            let key = bytes::<16>(args, "key")?;
            let (t, tag, root) = (text(args, "text")?, text(args, "tag")?, text(args, "root")?);
            Journal::unseal(t, &key, tag, root).map_or(Value::Null, |j| j.to_json())
        }
        "roll_back" => roll_back_json(args)?,
        "rolls_back" | "removes_dirs" | "stands" => {
            let state = State::parse(text(args, "state")?).ok_or("unknown state")?;
            json!(match op {
                "rolls_back" => state.rolls_back(),
                "removes_dirs" => state.removes_dirs(),
                _ => state.stands(),
            })
        }
        "unchanged" => {
            let seen = seen_of(args.get("seen").unwrap_or(&Value::Null)).unwrap_or_default();
            let now = args.get("now").and_then(seen_of);
            json!(seen.unchanged(now.as_ref()))
        }
        "aliases" => {
            let mut ops = Vec::new();
            for o in args.get("ops").and_then(Value::as_array).ok_or("no ops")? {
                ops.push(Named {
                    path: text(o, "path")?.to_string(),
                    real: text(o, "real")?.to_string(),
                    id: o.get("id").and_then(id_of),
                    remove: flag(o, "remove"),
                });
            }
            aliases(&ops).err().map_or(Value::Null, Value::String)
        }
        "root_dir" => {
            let n = |k| {
                text(args, k)?
                    .parse::<u64>()
                    .map_err(|e| format!("{k}: {e}"))
            };
            json!(root_dir_name(n("dev")?, n("ino")?))
        }
        "lock_text" => json!(lock_text(text(args, "stat")?)),
        "lock_alive" => json!(lock_alive(
            text(args, "lock")?,
            args.get("stat").and_then(Value::as_str)
        )),
        "lock_pid" => json!(lock_pid(text(args, "lock")?)),
        _ => return Err(format!("unknown protocol operation `{op}`")),
    })
}

/// `roll_back` of `{kind, has_staged, facts}`, as its word.
fn roll_back_json(args: &Value) -> Result<Value, String> {
    let kind = Kind::parse(text(args, "kind")?).ok_or("unknown kind")?;
    let f = args.get("facts").ok_or("no facts")?;
    let facts = Facts {
        staged_exists: flag(f, "staged_exists"),
        old_exists: flag(f, "old_exists"),
        target_exists: flag(f, "target_exists"),
        target_is_staged: flag(f, "target_is_staged"),
        target_matches_old: flag(f, "target_matches_old"),
    };
    Ok(json!(
        match roll_back(kind, flag(args, "has_staged"), facts) {
            Undo::Keep => "keep",
            Undo::RenameOldToTarget => "rename_old",
            Undo::UnlinkTarget => "unlink_target",
            Undo::RewriteFromOld => "rewrite_from_old",
        }
    ))
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("`{key}` must be a string"))
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn num(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn bytes<const N: usize>(v: &Value, key: &str) -> Result<[u8; N], String> {
    let list = v
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("`{key}` must be bytes"))?;
    let mut out = [0u8; N];
    if list.len() != N {
        return Err(format!("`{key}` must be {N} bytes"));
    }
    for (o, b) in out.iter_mut().zip(list) {
        *o = b
            .as_u64()
            .and_then(|b| u8::try_from(b).ok())
            .ok_or_else(|| format!("`{key}` must be bytes"))?;
    }
    Ok(out)
}

/// `[dev, ino]` as decimal strings (JS numbers lose precision past 2^53).
fn id_of(v: &Value) -> Option<(u64, u64)> {
    let pair = v.as_array()?;
    let n = |i: usize| pair.get(i)?.as_str()?.parse::<u64>().ok();
    Some((n(0)?, n(1)?))
}

fn seen_of(v: &Value) -> Option<Seen> {
    if v.is_null() {
        return None;
    }
    Some(Seen {
        id: v.get("id").and_then(id_of),
        len: v.get("len").and_then(Value::as_u64),
        digest: v.get("digest").and_then(Value::as_str).map(String::from),
    })
}

/// A commit step as JSON: its word, its fault name (null: not counted) and its operand.
fn step_json(step: Step) -> Value {
    let mut v = json!({"step": step.word(), "name": step.name()});
    match step {
        Step::Save(s) | Step::Enter(s) => v["state"] = json!(s.name()),
        Step::Mkdir(d) => v["dir"] = json!(d),
        Step::CopyOld(i, sync) => {
            v["entry"] = json!(i);
            v["sync"] = json!(sync);
        }
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
        | Step::SyncDir(i) => v["entry"] = json!(i),
        Step::SyncFiles | Step::SyncDirs | Step::Cleanup => {}
    }
    v
}

/// An undo step as JSON: its word and its operand.
fn undo_step_json(step: UndoStep) -> Value {
    match step {
        UndoStep::Rmdir(d) => json!({"step": step.word(), "dir": d}),
        UndoStep::Open(i) | UndoStep::RollBack(i) | UndoStep::RemoveSides(i) => {
            json!({"step": step.word(), "entry": i})
        }
    }
}

fn entry_json(e: &Entry) -> Value {
    json!({"dir": e.dir, "name": e.name, "kind": e.kind.name(), "staged": e.staged, "old": e.old})
}

/// A journal from its JSON (any version field is ignored: the executor's own object).
fn journal_of(v: &Value) -> Result<Journal, String> {
    let mut with_version = v.clone();
    if let Some(o) = with_version.as_object_mut() {
        o.insert("version".into(), json!(VERSION));
    }
    Journal::from_json(&with_version).ok_or_else(|| "not a journal of the protocol's shape".into())
}
