//! Files on disk under a root directory: the CLI's (and the MCP server's) `Files`.
//!
//! The engine has already normalised every path lexically (no `..` climbing out of the
//! root). What only the disk can tell is checked here: an absolute path must lie under
//! the root, and no symlink along the way may lead out of it. Paths are resolved by
//! canonicalising the deepest part that exists, so a file that does not exist yet (a
//! create, a patch's Add) is judged by the directory it would land in.

use anchored_edit::{EditError, EditResult, ErrorKind, Files};
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Read-only view of the files under `root`.
pub struct DiskFiles {
    root: PathBuf,
}

impl DiskFiles {
    /// `root` must exist; it is canonicalised once.
    pub fn new(root: &Path) -> io::Result<DiskFiles> {
        Ok(DiskFiles {
            root: root.canonicalize()?,
        })
    }

    /// The real location of an engine path (normalised, relative or absolute), or
    /// `path_outside_root`.
    pub fn resolve(&self, path: &str) -> EditResult<PathBuf> {
        let given = Path::new(path);
        let joined = if given.is_absolute() {
            given.to_path_buf()
        } else {
            self.root.join(given)
        };
        // Split into the deepest existing ancestor and the components below it.
        let mut existing = joined.clone();
        let mut missing: Vec<std::ffi::OsString> = Vec::new();
        while fs::symlink_metadata(&existing).is_err() {
            match (existing.file_name(), existing.parent()) {
                (Some(name), Some(parent)) => {
                    missing.push(name.to_os_string());
                    existing = parent.to_path_buf();
                }
                _ => break,
            }
        }
        let canonical = existing
            .canonicalize()
            .map_err(|e| outside(path, &format!("it cannot be resolved ({e})")))?;
        if !canonical.starts_with(&self.root) {
            let why = if given.is_absolute() {
                "it is not under the root".to_string()
            } else {
                "a symlink on the way leads out of the root".to_string()
            };
            return Err(outside(path, &why));
        }
        let mut resolved = canonical;
        for name in missing.iter().rev() {
            if Path::new(name)
                .components()
                .any(|c| matches!(c, Component::ParentDir))
            {
                return Err(outside(path, "it climbs out with `..`"));
            }
            resolved.push(name);
        }
        Ok(resolved)
    }
}

impl Files for DiskFiles {
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        let real = self.resolve(path)?;
        let bytes = match fs::read(&real) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) if real.is_dir() => {
                let _ = e;
                return Err(EditError::invalid(format!(
                    "`{path}` is a directory, not a file. Send the path of a file inside it."
                )));
            }
            Err(e) => return Err(EditError::invalid(format!("`{path}` cannot be read: {e}."))),
        };
        if bytes.contains(&0) {
            return Err(EditError::invalid(format!(
                "`{path}` looks binary (it contains NUL bytes); anchored-edit edits text files only."
            )));
        }
        String::from_utf8(bytes).map(Some).map_err(|e| {
            EditError::invalid(format!(
                "`{path}` is not UTF-8 text (invalid byte at offset {}); anchored-edit edits UTF-8 text files only.",
                e.utf8_error().valid_up_to()
            ))
        })
    }
}

fn outside(path: &str, why: &str) -> EditError {
    EditError::new(
        ErrorKind::PathOutsideRoot,
        format!(
            "`{path}` is outside the project root: {why}. Send a path inside the root, relative to it."
        ),
    )
}
