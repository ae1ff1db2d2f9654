//! The root directory as an open handle, and every path resolved beneath it.
//!
//! Design: the root is opened once (the only use of ambient authority); every later
//! read, create, rename, link and delete goes through `cap_std::fs::Dir`, which
//! resolves a path component by component relative to that handle and refuses any step
//! (a `..`, an absolute symlink, a symlink whose target climbs out) that would leave
//! it. A symlink whose target stays inside the root is followed. Because nothing is
//! ever reopened by an absolute path, flipping a directory to a symlink between a check
//! and a use can at worst make the use fail; it cannot lead outside.
//!
//! [`Jail::locate`] turns an engine path into the file's real path relative to the root
//! (symlinks inside the root resolved), so a write through `link.txt -> a.txt` replaces
//! `a.txt` and leaves the link a link, as it always did.
//!
//! The commit journal lives in the user's state directory (`journal.rs`): a
//! repository's own `.anchored-edit/` is ordinary data.

use anchored_edit::{EditError, EditResult, OutsideWhy};
use cap_std::fs::Dir;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

/// The folder at the root that held the commit journal before it moved to the user's
/// state directory (`journal.rs`); only the listing walker still names it.
pub const RESERVED: &str = ".anchored-edit";

/// Symlinks followed while locating one path (Linux's own limit).
const MAX_HOPS: usize = 40;

pub struct Jail {
    dir: Dir,
    /// The root as given (made absolute) and canonical: absolute paths in calls are
    /// accepted under either spelling.
    spellings: Vec<PathBuf>,
}

impl Jail {
    pub fn open(root: &Path) -> io::Result<Jail> {
        let dir = Dir::open_ambient_dir(root, cap_std::ambient_authority())?;
        let mut spellings = vec![root.canonicalize()?];
        if let Ok(cwd) = std::env::current_dir() {
            spellings.push(cwd.join(root));
        }
        Ok(Jail { dir, spellings })
    }

    pub fn dir(&self) -> &Dir {
        &self.dir
    }

    /// The root's canonical absolute path (the journals' key in the state directory).
    pub fn root(&self) -> &Path {
        &self.spellings[0]
    }

    /// The real location of `path` relative to the root, symlinks inside the root
    /// resolved (relative ones, and absolute ones that name the root); components that
    /// do not exist yet are appended as given.
    ///
    /// Resolution is step by step through the root handle: each component is looked up
    /// without following it; a symlink's target is spliced in front of what is left, and
    /// `..` pops a real directory, never the root.
    pub fn locate(&self, path: &str) -> EditResult<PathBuf> {
        let mut todo: Vec<OsString> = self
            .lexical(path)?
            .iter()
            .rev()
            .map(|c| c.to_os_string())
            .collect();
        let mut real = PathBuf::new();
        let mut hops = 0;
        while let Some(name) = todo.pop() {
            if name == ".." {
                if !real.pop() {
                    return Err(escape(path));
                }
                continue;
            }
            if name == "." {
                continue;
            }
            let candidate = real.join(&name);
            match self.dir.symlink_metadata(&candidate) {
                Ok(m) if m.file_type().is_symlink() => {
                    hops += 1;
                    if hops > MAX_HOPS {
                        return Err(outside(path, OutsideWhy::TooManyLinks));
                    }
                    let target = self
                        .dir
                        .read_link_contents(&candidate)
                        .map_err(|e| outside(path, OutsideWhy::Unresolvable(e.to_string())))?;
                    let target = if target.is_absolute() {
                        real = PathBuf::new();
                        self.under_root(&target).ok_or_else(|| escape(path))?
                    } else {
                        target
                    };
                    for c in target.components().rev() {
                        match c {
                            Component::Normal(n) => todo.push(n.to_os_string()),
                            Component::ParentDir => todo.push("..".into()),
                            _ => {}
                        }
                    }
                }
                Ok(_) => real = candidate,
                Err(e) if is_escape(&e) => return Err(escape(path)),
                Err(_) => real = candidate,
            }
        }
        Ok(real)
    }

    /// An absolute path as relative to the root, if it is under one of its spellings.
    fn under_root(&self, absolute: &Path) -> Option<PathBuf> {
        self.spellings
            .iter()
            .find_map(|root| absolute.strip_prefix(root).ok())
            .map(Path::to_path_buf)
    }

    /// `path` relative to the root, lexically: the root's own spellings stripped from an
    /// absolute path, `.` dropped; `..` refused (the engine has already folded it).
    fn lexical(&self, path: &str) -> EditResult<PathBuf> {
        let given = Path::new(path);
        let relative = if given.is_absolute() {
            self.under_root(given)
                .ok_or_else(|| outside(path, OutsideWhy::NotUnderRoot))?
        } else {
            given.to_path_buf()
        };
        let mut out = PathBuf::new();
        for c in relative.as_path().components() {
            match c {
                Component::Normal(n) => out.push(n),
                Component::CurDir => {}
                _ => return Err(outside(path, OutsideWhy::ClimbsOut)),
            }
        }
        Ok(out)
    }
}

/// Whether `e` is cap-std's refusal of a step out of the root.
pub fn is_escape(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::PermissionDenied
        && e.to_string().contains("outside of the filesystem")
}

pub fn escape(path: &str) -> EditError {
    outside(path, OutsideWhy::LinkLeadsOut)
}

/// The engine's `path_outside_root` wording (crate/src/refusals.rs), as every host's.
pub fn outside(path: &str, why: OutsideWhy) -> EditError {
    anchored_edit::outside_root(path, &why)
}

/// A name nobody can guess: 64 bits from the OS-seeded hasher keys, per call.
pub fn random_tag() -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    format!("{:016x}", h.finish())
}
