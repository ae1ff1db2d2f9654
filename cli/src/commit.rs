//! Writing a call's changes to disk: all files or none.
//!
//! 1. **Stage**: every new text is written to a temporary file beside its target (same
//!    directory, so the final rename is atomic), with the target's permissions, and
//!    synced. Any failure here removes the staged files; nothing was touched.
//! 2. **Swap**: for each change in order, an existing target is renamed to a backup
//!    beside it, then the staged file is renamed into place (or, for a delete, nothing
//!    replaces it). A failure here rolls back every step already done, in reverse.
//! 3. **Clean up**: the backups are removed.
//!
//! Readers of a target see either the old or the new text at every moment.

use anchored_edit::FileChange;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// One file operation, resolved to disk paths.
#[derive(Debug, Clone)]
pub enum Op {
    Write { target: PathBuf, text: String },
    Remove { target: PathBuf },
}

impl Op {
    fn target(&self) -> &Path {
        match self {
            Op::Write { target, .. } | Op::Remove { target } => target,
        }
    }
}

/// The disk operations for the engine's changes, resolving paths with `resolve`.
pub fn plan(
    changes: &[FileChange],
    resolve: &dyn Fn(&str) -> Result<PathBuf, String>,
) -> Result<Vec<Op>, String> {
    let mut ops = Vec::new();
    for c in changes {
        let target = resolve(&c.path)?;
        if let Some(dest) = &c.moved_to {
            ops.push(Op::Write {
                target: resolve(dest)?,
                text: c.new_text.clone().unwrap_or_default(),
            });
            ops.push(Op::Remove { target });
        } else if c.deleted {
            ops.push(Op::Remove { target });
        } else {
            ops.push(Op::Write {
                target,
                text: c.new_text.clone().unwrap_or_default(),
            });
        }
    }
    Ok(ops)
}

/// Applies `ops` all or nothing.
pub fn commit(ops: &[Op]) -> io::Result<()> {
    commit_with_fault(ops, &mut |_| Ok(()))
}

/// [`commit`] with a hook called before each swap step (tests inject failures).
pub fn commit_with_fault(
    ops: &[Op],
    fault: &mut dyn FnMut(usize) -> io::Result<()>,
) -> io::Result<()> {
    let tag = format!("ae{}", std::process::id());
    // 1. Stage.
    let mut staged: Vec<Option<PathBuf>> = Vec::with_capacity(ops.len());
    let mut created_dirs: Vec<PathBuf> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        match op {
            Op::Write { target, text } => match stage(target, text, &tag, i, &mut created_dirs) {
                Ok(p) => staged.push(Some(p)),
                Err(e) => {
                    remove_all(staged.iter().flatten());
                    remove_dirs(&created_dirs);
                    return Err(e);
                }
            },
            Op::Remove { .. } => staged.push(None),
        }
    }
    // 2. Swap, remembering how to undo each step.
    let mut done: Vec<(usize, Option<PathBuf>)> = Vec::new(); // (op index, backup)
    for (i, op) in ops.iter().enumerate() {
        let step = (|| -> io::Result<Option<PathBuf>> {
            fault(i)?;
            let target = op.target();
            let backup = if fs::symlink_metadata(target).is_ok() {
                let b = sibling(target, &tag, i, "bak");
                fs::rename(target, &b)?;
                Some(b)
            } else {
                None
            };
            if let Some(src) = &staged[i] {
                if let Err(e) = fs::rename(src, target) {
                    if let Some(b) = &backup {
                        let _ = fs::rename(b, target);
                    }
                    return Err(e);
                }
            }
            Ok(backup)
        })();
        match step {
            Ok(backup) => done.push((i, backup)),
            Err(e) => {
                for (j, backup) in done.into_iter().rev() {
                    let target = ops[j].target();
                    if staged[j].is_some() {
                        let _ = fs::remove_file(target);
                    }
                    if let Some(b) = backup {
                        let _ = fs::rename(&b, target);
                    }
                }
                remove_all(staged.iter().flatten());
                remove_dirs(&created_dirs);
                return Err(e);
            }
        }
    }
    // 3. Clean up.
    for (_, backup) in done {
        if let Some(b) = backup {
            let _ = fs::remove_file(b);
        }
    }
    Ok(())
}

fn stage(
    target: &Path,
    text: &str,
    tag: &str,
    i: usize,
    created_dirs: &mut Vec<PathBuf>,
) -> io::Result<PathBuf> {
    if let Some(dir) = target.parent() {
        let mut missing = Vec::new();
        let mut d = dir.to_path_buf();
        while !d.exists() {
            missing.push(d.clone());
            if !d.pop() {
                break;
            }
        }
        fs::create_dir_all(dir)?;
        created_dirs.extend(missing);
    }
    let tmp = sibling(target, tag, i, "tmp");
    let mut f = fs::File::create(&tmp)?;
    let result = (|| {
        f.write_all(text.as_bytes())?;
        if let Ok(meta) = fs::metadata(target) {
            fs::set_permissions(&tmp, meta.permissions())?;
        }
        f.sync_all()
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(tmp)
}

/// `dir/.name.TAG-I.EXT`: hidden, beside the target, unique per process and step.
fn sibling(target: &Path, tag: &str, i: usize, ext: &str) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.{tag}-{i}.{ext}"))
}

fn remove_all<'a>(paths: impl Iterator<Item = &'a PathBuf>) {
    for p in paths {
        let _ = fs::remove_file(p);
    }
}

/// Removes directories created for new files (deepest first; only if empty).
fn remove_dirs(dirs: &[PathBuf]) {
    let mut sorted: Vec<&PathBuf> = dirs.iter().collect();
    sorted.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in sorted {
        let _ = fs::remove_dir(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ae-commit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn listing(dir: &Path) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for e in fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                for (n, t) in listing(&p) {
                    out.push((format!("{}/{n}", e.file_name().to_string_lossy()), t));
                }
            } else {
                out.push((
                    e.file_name().to_string_lossy().into_owned(),
                    fs::read_to_string(&p).unwrap(),
                ));
            }
        }
        out.sort();
        out
    }

    #[test]
    fn writes_removes_and_creates_all_together() {
        let d = temp_dir("ok");
        fs::write(d.join("a.txt"), "old a\r\n").unwrap();
        fs::write(d.join("gone.txt"), "bye").unwrap();
        let ops = vec![
            Op::Write {
                target: d.join("a.txt"),
                text: "new a\r\n".into(),
            },
            Op::Remove {
                target: d.join("gone.txt"),
            },
            Op::Write {
                target: d.join("sub/dir/new.txt"),
                text: "fresh".into(),
            },
        ];
        commit(&ops).unwrap();
        assert_eq!(
            listing(&d),
            vec![
                ("a.txt".into(), "new a\r\n".into()),
                ("sub/dir/new.txt".into(), "fresh".into())
            ]
        );
    }

    #[test]
    fn a_failure_mid_commit_restores_every_file() {
        for fail_at in 0..4 {
            let d = temp_dir(&format!("fail{fail_at}"));
            fs::write(d.join("a.txt"), "A").unwrap();
            fs::write(d.join("b.txt"), "B").unwrap();
            fs::write(d.join("c.txt"), "C").unwrap();
            let before = listing(&d);
            let ops = vec![
                Op::Write {
                    target: d.join("a.txt"),
                    text: "A2".into(),
                },
                Op::Remove {
                    target: d.join("b.txt"),
                },
                Op::Write {
                    target: d.join("new/n.txt"),
                    text: "N".into(),
                },
                Op::Write {
                    target: d.join("c.txt"),
                    text: "C2".into(),
                },
            ];
            let err = commit_with_fault(&ops, &mut |i| {
                if i == fail_at {
                    Err(io::Error::other("simulated failure"))
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
            assert_eq!(err.to_string(), "simulated failure");
            assert_eq!(
                listing(&d),
                before,
                "failing at step {fail_at} must leave the tree as it was"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let d = temp_dir("perm");
        let f = d.join("run.sh");
        fs::write(&f, "echo 1\n").unwrap();
        fs::set_permissions(&f, fs::Permissions::from_mode(0o751)).unwrap();
        commit(&[Op::Write {
            target: f.clone(),
            text: "echo 2\n".into(),
        }])
        .unwrap();
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o751
        );
        assert_eq!(fs::read_to_string(&f).unwrap(), "echo 2\n");
    }
}
