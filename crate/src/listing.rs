//! Which files a project listing shows: the ignore rules and `glob` filters, decided once.
//!
//! Hosts list files ([`crate::Files::list`]); the CLI walks the disk with the `ignore`
//! crate (ripgrep's walker). Hosts that hold files in memory (the engine's map readers,
//! the playground) and editor hosts whose own search does not read `.gitignore` filter
//! a plain listing with [`filter`], so that every host shows the same files:
//!
//! - a file or folder whose name starts with `.` is hidden and left out (ripgrep's
//!   default), with everything under it;
//! - `.ignore` and `.gitignore` files in the listed folders apply gitignore rules
//!   (`ignore::gitignore`, the matcher ripgrep uses) to the paths under their folder. As
//!   in ripgrep, a `.ignore` rule wins over a `.gitignore` rule, and within one kind
//!   the nearest file's rule wins; a negation (`!pattern`) re-includes;
//! - a folder that is ignored hides everything under it (its files are never judged:
//!   git's rule that an excluded folder's contents cannot be re-included).
//!
//! Rules are read from the root and the folders of the paths themselves, never from
//! above the root, and not from git's global or `info/exclude` files (a tool's answer
//! depends on the project's files only).
//!
//! [`Glob`] is the `glob` argument: gitignore-like, so `*.rs` (no `/`) matches a file
//! name at any depth and `src/**/*.rs` matches the root-relative path.

use globset::{GlobBuilder, GlobMatcher};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use std::collections::HashMap;

/// The largest ignore file a host reads (bytes). Hosts read an ignore file only when it
/// is a regular file inside the root (not a link, not a FIFO or device) and at most this
/// long, and skip it with a warning otherwise: its rules cost memory in proportion to
/// its lines.
pub const MAX_IGNORE_FILE_BYTES: u64 = 1024 * 1024;

/// Why a host skipped an ignore file: the reasons every host words through
/// [`ignore_file_skipped`] (the CLI's walker, and the JS hosts through wasm
/// `ignoreFileSkipped` by the names of [`IgnoreSkip::parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IgnoreSkip {
    /// A symbolic link (never followed).
    Link,
    /// Not a regular file: a FIFO, a device, a socket, a folder.
    NotRegular,
    /// Longer than [`MAX_IGNORE_FILE_BYTES`]: its length when the host knows it.
    TooLarge(Option<u64>),
    /// Swapped for something other than a regular file between its `lstat` and its open.
    Changed,
    /// Reading it failed.
    Unreadable,
    /// Its bytes are not UTF-8.
    NotUtf8,
}

impl IgnoreSkip {
    /// The reason named `why` (`link`, `not_regular`, `too_large`, `changed`,
    /// `unreadable`, `not_utf8`), with the file's length for `too_large`.
    pub fn parse(why: &str, bytes: Option<u64>) -> Option<IgnoreSkip> {
        Some(match why {
            "link" => IgnoreSkip::Link,
            "not_regular" => IgnoreSkip::NotRegular,
            "too_large" => IgnoreSkip::TooLarge(bytes),
            "changed" => IgnoreSkip::Changed,
            "unreadable" => IgnoreSkip::Unreadable,
            "not_utf8" => IgnoreSkip::NotUtf8,
            _ => return None,
        })
    }

    fn words(self) -> String {
        match self {
            IgnoreSkip::Link => "it is a link, and links are not followed".into(),
            IgnoreSkip::NotRegular => "it is not a regular file".into(),
            IgnoreSkip::TooLarge(Some(n)) => {
                format!("it is {n} bytes, over the {MAX_IGNORE_FILE_BYTES}-byte limit")
            }
            IgnoreSkip::TooLarge(None) => {
                format!("it is over the {MAX_IGNORE_FILE_BYTES}-byte limit")
            }
            IgnoreSkip::Changed => "it changed into something other than a regular file".into(),
            IgnoreSkip::Unreadable => "it cannot be read".into(),
            IgnoreSkip::NotUtf8 => "it is not UTF-8".into(),
        }
    }
}

/// The warning of an ignore file a host skipped, worded once for every host.
pub fn ignore_file_skipped(path: &str, why: IgnoreSkip) -> String {
    format!(
        "{path} was not read as ignore rules: {}. Its rules do not apply to this listing.",
        why.words()
    )
}

/// The ignore files a folder may hold, strongest first.
pub const IGNORE_FILES: [&str; 2] = [".ignore", ".gitignore"];

/// The gitignore rules of one folder's ignore files.
#[derive(Default)]
struct FolderRules {
    /// One matcher per entry of [`IGNORE_FILES`] (None: no such file, or no rule).
    matchers: [Option<Gitignore>; 2],
}

/// Every folder's ignore rules, read once, judged top-down.
pub struct IgnoreRules<'r> {
    read: &'r mut dyn FnMut(&str) -> Option<String>,
    folders: HashMap<String, FolderRules>,
    /// Folders already judged: true when hidden or ignored (with what is above them).
    excluded_folders: HashMap<String, bool>,
}

impl<'r> IgnoreRules<'r> {
    /// Rules read on demand through `read` (`read("src/.gitignore")` → its text or None).
    pub fn new(read: &'r mut dyn FnMut(&str) -> Option<String>) -> IgnoreRules<'r> {
        IgnoreRules {
            read,
            folders: HashMap::new(),
            excluded_folders: HashMap::new(),
        }
    }

    /// Whether the file `path` (root-relative, `/`-separated) is left out of a listing:
    /// hidden, ignored, or under a hidden or ignored folder.
    pub fn excludes(&mut self, path: &str) -> bool {
        let parent = parent_of(path);
        self.excludes_folder(parent) || self.excluded_entry(path, false)
    }

    /// Whether the folder `folder` ("" = the root, never excluded) is left out.
    pub fn excludes_folder(&mut self, folder: &str) -> bool {
        if folder.is_empty() {
            return false;
        }
        if let Some(&known) = self.excluded_folders.get(folder) {
            return known;
        }
        let excluded = self.excludes_folder(parent_of(folder)) || self.excluded_entry(folder, true);
        self.excluded_folders.insert(folder.to_string(), excluded);
        excluded
    }

    /// `path` judged by its own name and the rules of the folders above it.
    fn excluded_entry(&mut self, path: &str, is_dir: bool) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        if name.starts_with('.') {
            return true;
        }
        let mut folders = vec![parent_of(path)];
        while let Some(&last) = folders.last() {
            if last.is_empty() {
                break;
            }
            folders.push(parent_of(last));
        }
        for kind in 0..IGNORE_FILES.len() {
            for folder in &folders {
                let rel = relative_to(path, folder);
                let rules = self.rules_of(folder);
                let Some(matcher) = &rules.matchers[kind] else {
                    continue;
                };
                match matcher.matched(rel, is_dir) {
                    Match::Ignore(_) => return true,
                    Match::Whitelist(_) => return false,
                    Match::None => {}
                }
            }
        }
        false
    }

    fn rules_of(&mut self, folder: &str) -> &FolderRules {
        if !self.folders.contains_key(folder) {
            let mut rules = FolderRules::default();
            for (i, name) in IGNORE_FILES.iter().enumerate() {
                let path = join(folder, name);
                rules.matchers[i] = (self.read)(&path).and_then(|text| matcher(&text));
            }
            self.folders.insert(folder.to_string(), rules);
        }
        &self.folders[folder]
    }
}

/// A gitignore matcher for one file's text (None when it holds no rule). Lines that
/// are not valid patterns are skipped, as git skips them.
fn matcher(text: &str) -> Option<Gitignore> {
    let mut builder = GitignoreBuilder::new(".");
    for line in text.lines() {
        let _ = builder.add_line(None, line);
    }
    builder.build().ok().filter(|m| !m.is_empty())
}

/// The paths a listing shows: `paths` without the hidden and ignored ones, reading the
/// ignore files through `read`. Order is kept.
pub fn filter(
    paths: impl IntoIterator<Item = String>,
    read: &mut dyn FnMut(&str) -> Option<String>,
) -> Vec<String> {
    let mut rules = IgnoreRules::new(read);
    paths.into_iter().filter(|p| !rules.excludes(p)).collect()
}

/// The folder holding `path` ("" for a file at the root).
pub fn parent_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// `path` relative to `folder` (which holds it; "" = the root).
fn relative_to<'p>(path: &'p str, folder: &str) -> &'p str {
    if folder.is_empty() {
        path
    } else {
        &path[folder.len() + 1..]
    }
}

fn join(folder: &str, name: &str) -> String {
    if folder.is_empty() {
        name.to_string()
    } else {
        format!("{folder}/{name}")
    }
}

/// Whether `path` is `folder` or under it ("" holds everything).
pub fn is_under(path: &str, folder: &str) -> bool {
    folder.is_empty()
        || (path.len() > folder.len()
            && path.starts_with(folder)
            && path.as_bytes()[folder.len()] == b'/')
}

/// A `glob` argument, compiled.
pub struct Glob {
    matcher: GlobMatcher,
    /// No `/` in the pattern: it is matched against file names.
    by_name: bool,
}

impl Glob {
    /// Compiles `pattern`; `Err` says what is wrong with it, for the refusal.
    pub fn new(pattern: &str) -> Result<Glob, String> {
        let pattern = pattern.trim();
        let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
        let by_name = !pattern.contains('/');
        let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
        GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map(|g| Glob {
                matcher: g.compile_matcher(),
                by_name,
            })
            .map_err(|e| e.to_string())
    }

    /// Whether the root-relative `path` matches.
    pub fn is_match(&self, path: &str) -> bool {
        if self.by_name {
            self.matcher
                .is_match(path.rsplit('/').next().unwrap_or(path))
        } else {
            self.matcher.is_match(path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Files (path, text) and the paths a listing must show.
    type Case<'c> = (&'c [(&'c str, &'c str)], &'c [&'c str]);

    fn listed(files: &[(&str, &str)]) -> Vec<String> {
        let map: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let mut read = |p: &str| map.get(p).cloned();
        filter(map.keys().cloned(), &mut read)
    }

    #[test]
    fn hidden_and_ignored_paths_are_left_out() {
        let cases: &[Case] = &[
            (
                &[("a.rs", ""), (".env", ""), (".git/config", "")],
                &["a.rs"],
            ),
            (
                &[
                    (".gitignore", "target/\n*.log\n"),
                    ("target/x.rs", ""),
                    ("src/a.log", ""),
                    ("src/a.rs", ""),
                ],
                &["src/a.rs"],
            ),
            (
                &[
                    (".gitignore", "*.log\n!keep.log\n"),
                    ("a.log", ""),
                    ("keep.log", ""),
                ],
                &["keep.log"],
            ),
            (
                &[
                    (".gitignore", "*.gen\n"),
                    (".ignore", "!a.gen\n"),
                    ("a.gen", ""),
                    ("b.gen", ""),
                ],
                &["a.gen"],
            ),
            (
                &[
                    (".gitignore", "/top.txt\n"),
                    ("top.txt", ""),
                    ("sub/top.txt", ""),
                ],
                &["sub/top.txt"],
            ),
            (
                &[
                    ("sub/.gitignore", "*.txt\n"),
                    ("a.txt", ""),
                    ("sub/b.txt", ""),
                    ("sub/c.rs", ""),
                ],
                &["a.txt", "sub/c.rs"],
            ),
            (
                &[
                    (".gitignore", "build\n!build/keep.rs\n"),
                    ("build/keep.rs", ""),
                ],
                &[],
            ),
        ];
        for (files, want) in cases {
            assert_eq!(listed(files), *want, "{files:?}");
        }
    }

    #[test]
    fn globs_match_names_without_a_slash_and_paths_with_one() {
        let cases = [
            ("*.rs", "src/deep/a.rs", true),
            ("*.rs", "a.py", false),
            ("src/*.rs", "src/a.rs", true),
            ("src/*.rs", "src/deep/a.rs", false),
            ("src/**/*.rs", "src/deep/a.rs", true),
            ("*.{js,ts}", "web/a.ts", true),
            ("/src/*.rs", "src/a.rs", true),
        ];
        for (glob, path, want) in cases {
            assert_eq!(
                Glob::new(glob).unwrap().is_match(path),
                want,
                "{glob} {path}"
            );
        }
        assert!(Glob::new("a[").is_err());
    }
}
