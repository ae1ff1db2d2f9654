//! Listing the files under the root: ripgrep's walker (`ignore`), inside the jail.
//!
//! Design decisions:
//! - The walk always starts at the root, so the root's `.gitignore` / `.ignore` apply
//!   to a listing of a sub-folder too; folders off the way to the asked one are pruned
//!   (never read).
//! - Rules: `.gitignore` and `.ignore` files under the root (also outside a git
//!   repository: `require_git(false)`), hidden names skipped, as ripgrep does by
//!   default. Ignore files above the root, git's global excludes and `info/exclude`
//!   are not read: a listing depends on the project's files only, and is the same as
//!   the engine's in-memory rule ([`anchored_edit`]'s `listing`, used by the other
//!   hosts).
//! - Links are never followed: a symlinked file or folder is not listed (ripgrep's
//!   default), so a listing cannot lead out of the root. Every listed file is then
//!   read through the jail like any other path.
//! - Paths are root-relative and `/`-separated; names that are not UTF-8 cannot be
//!   sent back as arguments and are skipped.

use crate::jail::{Jail, RESERVED};
use anchored_edit::EditResult;
use ignore::WalkBuilder;
use std::path::{Path, PathBuf};

/// Every file under `folder` ("" = the root; normalised, root-relative), in walk order.
pub fn list(jail: &Jail, folder: &str) -> EditResult<Vec<String>> {
    let root = jail.root().to_path_buf();
    let target = match folder {
        "" => PathBuf::new(),
        f => jail.locate(f)?,
    };
    // Not a folder: nothing under it (the engine words the refusal, for every host).
    if !target.as_os_str().is_empty() && !jail.dir().is_dir(&target) {
        return Ok(Vec::new());
    }
    let prune_root = root.clone();
    let walker = WalkBuilder::new(&root)
        .standard_filters(true)
        .require_git(false)
        .parents(false)
        .git_global(false)
        .git_exclude(false)
        .follow_links(false)
        .filter_entry(move |entry| on_the_way(&prune_root, entry.path(), &target))
        .build();
    let mut out = Vec::new();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if let Some(rel) = relative(&root, entry.path()) {
            if rel != RESERVED && !rel.starts_with(&format!("{RESERVED}/")) {
                out.push(rel);
            }
        }
    }
    Ok(out)
}

/// Whether the walk should enter (or list) `path`: it is the asked folder, a folder
/// above it, or anything under it.
fn on_the_way(root: &Path, path: &Path, target: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else {
        return false;
    };
    rel.starts_with(target) || target.starts_with(rel)
}

/// `path` relative to `root`, `/`-separated; None when not UTF-8.
fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut out = String::new();
    for part in rel.components() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(part.as_os_str().to_str()?);
    }
    (!out.is_empty()).then_some(out)
}
