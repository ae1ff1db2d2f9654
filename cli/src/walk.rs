//! Listing the files under the root: a walk of the jail's directory handle, judged by the
//! engine's ignore rules ([`anchored_edit::IgnoreRules`], the matcher every host uses).
//!
//! Design decisions:
//! - The walk always starts at the root, so the root's `.gitignore` / `.ignore` apply
//!   to a listing of a sub-folder too; folders off the way to the asked one are pruned
//!   (never read), and so are hidden and ignored folders.
//! - Rules: `.gitignore` and `.ignore` files under the root (also outside a git
//!   repository), hidden names skipped, as ripgrep does by default. Ignore files above
//!   the root, git's global excludes and `info/exclude` are not read.
//! - An ignore file is read only when it is a regular file, not a link (checked by
//!   `lstat` before opening, opened `O_NOFOLLOW | O_NONBLOCK`, checked again through the
//!   descriptor), at most [`MAX_IGNORE_FILE_BYTES`] long (read through that bound);
//!   otherwise it is skipped and a warning says so. So a link to a file outside the root
//!   or to `/dev/zero`, a FIFO or a huge file named `.gitignore` cannot leak, hang or
//!   exhaust memory.
//! - Links are never followed: a symlinked file or folder is not listed, so a listing
//!   cannot lead out of the root; FIFOs, sockets and devices are not listed either.
//!   Every listed file is then read through the jail like any other path.
//! - Paths are root-relative and `/`-separated; names that are not UTF-8 cannot be
//!   sent back as arguments and are skipped.

use crate::disk::open_regular;
use crate::jail::{Jail, RESERVED};
use anchored_edit::{
    ignore_file_skipped, EditResult, IgnoreRules, IgnoreSkip, MAX_IGNORE_FILE_BYTES,
};
use cap_std::fs::Dir;
use std::io::Read;
use std::path::Path;

/// Every file under `folder` ("" = the root; normalised, root-relative), and a warning
/// for each ignore file that was skipped.
pub fn list(jail: &Jail, folder: &str) -> EditResult<(Vec<String>, Vec<String>)> {
    let target = match folder {
        "" => String::new(),
        f => {
            let real = jail.locate(f)?;
            match real.to_str() {
                Some(t) => t.to_string(),
                None => return Ok((Vec::new(), Vec::new())),
            }
        }
    };
    let dir = jail.dir();
    // Not a folder: nothing under it (the engine words the refusal, for every host).
    if !target.is_empty() && !dir.is_dir(&target) {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut warnings = Vec::new();
    let mut read = |path: &str| read_ignore_file(dir, path, &mut warnings);
    let mut rules = IgnoreRules::new(&mut read);
    let mut out = Vec::new();
    let mut folders = vec![String::new()];
    while let Some(current) = folders.pop() {
        let entries = match current.as_str() {
            "" => dir.entries(),
            f => dir.read_dir(f),
        };
        let Ok(entries) = entries else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let path = match current.as_str() {
                "" => name.to_string(),
                f => format!("{f}/{name}"),
            };
            // The entry's own type: a link is a link (never followed).
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let on_the_way = under(&path, &target) || under(&target, &path);
                if on_the_way && path != RESERVED && !rules.excludes_folder(&path) {
                    folders.push(path);
                }
            } else if kind.is_file() && under(&path, &target) && !rules.excludes(&path) {
                out.push(path);
            }
        }
    }
    drop(rules);
    Ok((out, warnings))
}

/// Whether `path` is `folder` or under it ("" holds everything).
fn under(path: &str, folder: &str) -> bool {
    folder.is_empty()
        || path == folder
        || (path.starts_with(folder) && path.as_bytes().get(folder.len()) == Some(&b'/'))
}

/// An ignore file's text, or None (absent, or skipped with a warning: see the module
/// docs).
fn read_ignore_file(dir: &Dir, path: &str, warnings: &mut Vec<String>) -> Option<String> {
    let meta = dir.symlink_metadata(path).ok()?;
    let mut skip = |why: IgnoreSkip| {
        warnings.push(ignore_file_skipped(path, why));
        None
    };
    if meta.file_type().is_symlink() {
        return skip(IgnoreSkip::Link);
    }
    if !meta.is_file() {
        return skip(IgnoreSkip::NotRegular);
    }
    if meta.len() > MAX_IGNORE_FILE_BYTES {
        return skip(IgnoreSkip::TooLarge(Some(meta.len())));
    }
    // Opened without following a link or waiting for a writer, and checked again
    // through the descriptor: the entry may have been swapped since the lstat.
    let Ok((file, meta)) = open_regular(dir, Path::new(path), false) else {
        return skip(IgnoreSkip::Changed);
    };
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_IGNORE_FILE_BYTES) as usize);
    if file
        .take(MAX_IGNORE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return skip(IgnoreSkip::Unreadable);
    }
    if bytes.len() as u64 > MAX_IGNORE_FILE_BYTES {
        return skip(IgnoreSkip::TooLarge(None));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(_) => skip(IgnoreSkip::NotUtf8),
    }
}
