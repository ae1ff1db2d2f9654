//! The files a call sees: the host's reader plus an in-memory overlay.
//!
//! The engine does no I/O. A host hands in a [`Files`] reader; every tool reads through
//! a [`Workspace`], which remembers what it read and holds every change in memory.
//! Nothing reaches the host until the whole call has succeeded, which is what makes
//! multi-file calls all-or-nothing and makes a dry run compute exactly what a commit
//! would. Later operations in one call see earlier ones (an Add then an Update of the
//! same file in one patch).
//!
//! Encodings: a host that has bytes (a disk) hands them through [`Files::read_content`];
//! the workspace decodes them once, with the call's `encoding` argument, by
//! [`crate::text::encoding::decode`], and remembers each file's encoding. Every text
//! written to a file is checked to be encodable in it ([`Workspace::write`]), so a call
//! that would have to write lossily is refused before anything reaches the host, and
//! each change names the encoding its host must write ([`Changed::encoding`]). A moved
//! file keeps its encoding; a created one takes the call's `encoding` (else UTF-8).

use crate::error::{EditError, EditResult, ErrorKind};
use crate::listing;
use crate::paths;
use crate::protocol;
use crate::text::change_set::{ChangeSet, Splices};
use crate::text::encoding::{self, FileEncoding};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What a host provides: the text of a file by its (normalised) path.
pub trait Files {
    /// `Ok(Some(text))` for a file, `Ok(None)` when there is no such file, `Err` when the
    /// path is refused (`path_outside_root`) or unreadable (binary, not UTF-8).
    fn read(&self, path: &str) -> EditResult<Option<String>>;

    /// The same, for hosts that keep texts shared in memory: implement it to hand the
    /// engine a text without copying it.
    fn read_shared(&self, path: &str) -> EditResult<Option<Arc<String>>> {
        Ok(self.read(path)?.map(Arc::new))
    }

    /// What makes two paths one file, for hosts where a file can have several names (a
    /// symlink inside the root, a hard link): `Some(id)` equal for every name of one
    /// file. The workspace keys a call's edits by it, so edits through two names apply
    /// in order to one text instead of the last write silently winning. Default: every
    /// path is its own file.
    fn identity(&self, _path: &str) -> EditResult<Option<String>> {
        Ok(None)
    }

    /// The file as the host holds it: its bytes, for hosts that read bytes (a disk; the
    /// engine decodes them, see [`crate::text::encoding`]), or a text the host decoded
    /// itself (an editor buffer, written back by the editor in its own encoding).
    /// Default: the text from [`Files::read_shared`], as every in-memory reader has.
    fn read_content(&self, path: &str) -> EditResult<Option<Content>> {
        Ok(self.read_shared(path)?.map(Content::Text))
    }

    /// [`Files::read_content`] for a call that decodes the file as UTF-8 (no
    /// `encoding` argument, or UTF-8): a host holding the file's bytes as the text
    /// decoding them would give (UTF-8 without a NUL byte) may hand that text shared
    /// ([`Content::Text`]) instead of the bytes, so the engine meets the very text it
    /// produced (a server keeping what it wrote: no copy, no UTF-8 check, no hash of a
    /// text it holds). Default: [`Files::read_content`].
    fn read_content_utf8(&self, path: &str) -> EditResult<Option<Content>> {
        self.read_content(path)
    }

    /// The text of `path` for a project-wide search (grep_project, find_symbol, the
    /// search of replace_in_files), which reads many files and edits few: like
    /// [`Files::read_content`], but hosts that remember each read for a compare-and-swap
    /// at commit need not remember these. The engine reads a file again through
    /// [`Files::read_content`] before editing it, and refuses the edit if the text
    /// differs. Default: [`Files::read_content`].
    fn read_for_search(&self, path: &str) -> EditResult<Option<Content>> {
        self.read_content(path)
    }

    /// Every file under `folder` (normalised, root-relative; `""` = the root), as paths
    /// [`Files::read`] accepts, with the host's ignore rules applied (`.gitignore`,
    /// `.ignore`, hidden files; see [`crate::listing`]), in any order. `Ok(None)`: this
    /// host cannot list files (the default), and the project tools refuse saying so.
    fn list(&self, _folder: &str) -> EditResult<Option<Vec<String>>> {
        Ok(None)
    }

    /// Warnings about the last [`Files::list`] (an ignore file skipped: a link, not a
    /// regular file, over [`crate::MAX_IGNORE_FILE_BYTES`]), taken once; the project
    /// tools add them to the call's warnings. Default: none.
    fn take_list_warnings(&self) -> Vec<String> {
        Vec::new()
    }
}

/// [`Files::list`] for a reader holding every file in a map: the keys under `folder`,
/// filtered by the ignore rules read from the map itself.
fn list_keys<'k>(
    keys: impl Iterator<Item = &'k String>,
    folder: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    let under = keys.filter(|k| listing::is_under(k, folder)).cloned();
    listing::filter(under, &mut |p| read(p))
}

/// What a host holds for one file (see [`Files::read_content`]).
#[derive(Clone, Debug)]
pub enum Content {
    /// A text the host decoded; written back by the host as it writes its texts.
    Text(Arc<String>),
    /// The file's bytes, for the engine to decode and the host to write encoded.
    Bytes(Arc<Vec<u8>>),
}

/// Files as bytes (tests, and hosts that keep bytes in memory): each is decoded as a
/// disk file is.
impl Files for BTreeMap<String, Vec<u8>> {
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        match self.get(path) {
            Some(bytes) => Ok(Some(encoding::decode(path, bytes, None)?.0)),
            None => Ok(None),
        }
    }

    fn read_content(&self, path: &str) -> EditResult<Option<Content>> {
        Ok(self.get(path).map(|b| Content::Bytes(Arc::new(b.clone()))))
    }

    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        Ok(Some(list_keys(self.keys(), folder, &|p| {
            self.read(p).ok().flatten()
        })))
    }
}

impl Files for BTreeMap<String, String> {
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        Ok(self.get(path).cloned())
    }

    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        Ok(Some(list_keys(self.keys(), folder, &|p| {
            self.get(p).cloned()
        })))
    }
}

impl Files for BTreeMap<String, Arc<String>> {
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        Ok(self.get(path).map(|t| t.as_ref().clone()))
    }

    fn read_shared(&self, path: &str) -> EditResult<Option<Arc<String>>> {
        Ok(self.get(path).cloned())
    }

    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        Ok(Some(list_keys(self.keys(), folder, &|p| {
            self.get(p).map(|t| t.as_ref().clone())
        })))
    }
}

impl Files for HashMap<String, String> {
    fn read(&self, path: &str) -> EditResult<Option<String>> {
        Ok(self.get(path).cloned())
    }

    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        Ok(Some(list_keys(self.keys(), folder, &|p| {
            self.get(p).cloned()
        })))
    }
}

/// A reader with no files, for calls that need none (`get_edit_stats`).
pub struct NoFiles;

impl Files for NoFiles {
    fn read(&self, _path: &str) -> EditResult<Option<String>> {
        Ok(None)
    }
}

/// One file's state in the overlay.
#[derive(Clone, Debug)]
struct Entry {
    /// The text the host gave (None: the file did not exist).
    original: Option<Arc<String>>,
    /// The text now (None: absent or deleted).
    current: Option<Arc<String>>,
    /// Set on the source of a move: where its text went.
    moved_to: Option<String>,
    /// The encoding the file is written in.
    encoding: FileEncoding,
    /// The name this call deleted (or moved away) the file by: writing it again under
    /// another name of the same file is refused (`protocol::same_file`).
    removed_as: Option<String>,
    /// The name this call last wrote the file by: deleting it under another name is
    /// refused likewise.
    written_as: Option<String>,
    /// The ranges this call changed: `original` → `current` (a missing text counts as
    /// empty), every write composed onto the last.
    change: ChangeSet,
}

impl Entry {
    /// Adds `change` (of the current text, giving `new`) to the call's change. Should
    /// it not fit (the overlay's bookkeeping rules that out), the change is taken from
    /// comparing the texts.
    fn record(&mut self, change: &ChangeSet, new: &str) {
        self.change = self.change.compose(change).unwrap_or_else(|| {
            ChangeSet::between(self.original.as_deref().map_or("", String::as_str), new)
        });
    }

    /// [`Entry::record`] for a deletion: the whole current text goes.
    fn record_deletion(&mut self) {
        let now = self.current.as_deref().map_or("", String::as_str);
        let gone = ChangeSet::between(now, "");
        self.record(&gone, "");
    }
}

/// A file that differs from what the host gave.
#[derive(Clone, Debug)]
pub struct Changed {
    pub path: String,
    pub original: Option<Arc<String>>,
    pub current: Option<Arc<String>>,
    pub moved_to: Option<String>,
    /// The encoding the host writes the new text in, when it is not plain UTF-8
    /// ([`FileEncoding::result_name`]).
    pub encoding: Option<&'static str>,
    /// The ranges of `original` (empty when None) that give `current` (empty when
    /// None), as the call's writes recorded them; None when not recorded (a text from
    /// elsewhere), and the two texts are compared instead.
    pub change: Option<ChangeSet>,
}

impl Changed {
    /// The ranges that turn `original` into `current`: the recorded ones, else the one
    /// range where the two texts differ ([`ChangeSet::between`]).
    pub fn change_set(&self) -> ChangeSet {
        match &self.change {
            Some(c) => c.clone(),
            None => ChangeSet::between(text_of(&self.original), text_of(&self.current)),
        }
    }
}

pub struct Workspace<'f> {
    files: &'f dyn Files,
    /// The host's roots, normalised (see [`paths::resolve`]).
    roots: &'f [String],
    entries: BTreeMap<String, Entry>,
    /// A path first reached through another name → the name its entry is kept under
    /// (see [`Files::identity`]). Facts about the host, so snapshots leave them alone.
    aliases: HashMap<String, String>,
    /// File identity → the name its entry is kept under.
    identities: HashMap<String, String>,
    /// The call's `encoding` argument.
    encoding: Option<FileEncoding>,
}

impl<'f> Workspace<'f> {
    /// A workspace over `files`, whose path arguments are judged against `roots`
    /// (normalised; empty: only relative paths).
    pub fn new(files: &'f dyn Files, roots: &'f [String]) -> Workspace<'f> {
        Workspace {
            files,
            roots,
            entries: BTreeMap::new(),
            aliases: HashMap::new(),
            identities: HashMap::new(),
            encoding: None,
        }
    }

    /// The call's `encoding` argument: how the files it reads are decoded when they
    /// carry no byte order mark, and the encoding of the files it creates.
    pub fn set_encoding(&mut self, encoding: FileEncoding) {
        self.encoding = Some(encoding);
    }

    /// A path argument as the host will read it, or `path_outside_root`: the one path
    /// rule ([`paths::resolve`]), applied to every path a tool is given.
    pub fn path(&self, raw: &str) -> EditResult<String> {
        paths::resolve(raw, self.roots)
    }

    /// The name `path`'s file is known by in this call: the first name the call reached
    /// it by ([`Files::identity`]); `path` itself when it is that name or the host has no
    /// identities. Tools that take several paths use it to treat two names of one file
    /// as one file.
    pub fn name_of(&mut self, path: &str) -> EditResult<String> {
        self.key(path)
    }

    /// The name `path`'s entry is kept under: the first name the call reached its file by.
    fn key(&mut self, path: &str) -> EditResult<String> {
        if self.entries.contains_key(path) {
            return Ok(path.to_string());
        }
        if let Some(primary) = self.aliases.get(path) {
            return Ok(primary.clone());
        }
        if let Some(id) = self.files.identity(path)? {
            if let Some(primary) = self.identities.get(&id) {
                let primary = primary.clone();
                self.aliases.insert(path.to_string(), primary.clone());
                return Ok(primary);
            }
            self.identities.insert(id, path.to_string());
        }
        Ok(path.to_string())
    }

    fn entry(&mut self, path: &str) -> EditResult<&mut Entry> {
        let key = self.key(path)?;
        let path = key.as_str();
        if !self.entries.contains_key(path) {
            let content = match self.encoding {
                Some(e) if !e.is_utf8() => self.files.read_content(path)?,
                _ => self.files.read_content_utf8(path)?,
            };
            let (original, encoding) = self.load(path, content)?;
            let len = original.as_deref().map_or(0, String::len);
            self.entries.insert(
                path.to_string(),
                Entry {
                    current: original.clone(),
                    original,
                    moved_to: None,
                    encoding,
                    removed_as: None,
                    written_as: None,
                    change: ChangeSet::identity(len),
                },
            );
        }
        Ok(self.entries.get_mut(path).expect("inserted above"))
    }

    /// The text of what the host holds for `path`, decoded, and its encoding (for a
    /// file that does not exist: None, and the encoding a new file gets). The one place
    /// a host's content becomes a text.
    fn load(
        &self,
        path: &str,
        content: Option<Content>,
    ) -> EditResult<(Option<Arc<String>>, FileEncoding)> {
        Ok(match content {
            None => (None, self.encoding.unwrap_or(FileEncoding::UTF8)),
            Some(Content::Text(text)) => (Some(text), FileEncoding::UTF8),
            Some(Content::Bytes(bytes)) => {
                // A host that handed over its only reference (a disk read) gives the
                // bytes up: a UTF-8 file becomes its text without a copy.
                let (text, encoding) = match Arc::try_unwrap(bytes) {
                    Ok(owned) => encoding::decode_owned(path, owned, self.encoding)?,
                    Err(shared) => encoding::decode(path, &shared, self.encoding)?,
                };
                (Some(Arc::new(text)), encoding)
            }
        })
    }

    /// The current text of `path` like [`Workspace::try_read`], without keeping it in
    /// the overlay when the call has not read it yet ([`Files::read_for_search`]):
    /// project-wide searches read many files once each and must not hold them all. A
    /// tool that edits a file it peeked reads it again with [`Workspace::read`] and
    /// refuses if the text changed in between.
    pub fn peek(&self, path: &str) -> EditResult<Option<Arc<String>>> {
        let key = self.aliases.get(path).map_or(path, String::as_str);
        match self.entries.get(key) {
            Some(e) => Ok(e.current.clone()),
            None => Ok(self.load(path, self.files.read_for_search(path)?)?.0),
        }
    }

    /// The host's files under `folder` ([`Files::list`]); None when it cannot list.
    pub fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        self.files.list(folder)
    }

    /// The host's warnings about the last listing ([`Files::take_list_warnings`]).
    pub fn take_list_warnings(&self) -> Vec<String> {
        self.files.take_list_warnings()
    }

    /// The current text of `path` (normalised), or None when there is no such file.
    pub fn try_read(&mut self, path: &str) -> EditResult<Option<Arc<String>>> {
        Ok(self.entry(path)?.current.clone())
    }

    /// The current text of `path`, or `file_not_found`.
    pub fn read(&mut self, path: &str) -> EditResult<Arc<String>> {
        self.try_read(path)?.ok_or_else(|| not_found(path))
    }

    pub fn exists(&mut self, path: &str) -> EditResult<bool> {
        Ok(self.try_read(path)?.is_some())
    }

    /// Replaces (or creates) the text of `path`; refused (`invalid_arguments`, naming
    /// the character) when the file's encoding cannot hold `text`. The change is
    /// recorded as the one range where the texts differ; a tool that knows its ranges
    /// writes them with [`Workspace::splice`].
    pub fn write(&mut self, path: &str, text: String) -> EditResult<()> {
        let now = self.try_read(path)?;
        let change = ChangeSet::between(now.as_deref().map_or("", String::as_str), &text);
        self.write_change(path, text, change)
    }

    /// Replaces the ranges of `path`'s current text by their texts (sorted, disjoint;
    /// see [`ChangeSet::from_splices`]), recording exactly those ranges; refused as
    /// [`Workspace::write`] refuses, or (`invalid_arguments`) when the ranges do not fit
    /// the text.
    pub fn splice(&mut self, path: &str, splices: Splices) -> EditResult<()> {
        let now = self.try_read(path)?;
        let now = now.as_deref().map_or("", String::as_str);
        let bad = || EditError::invalid(format!("internal: ranges that do not fit `{path}`"));
        let change = ChangeSet::from_splices(now, splices).ok_or_else(bad)?;
        let text = change.apply(now).ok_or_else(bad)?;
        self.write_change(path, text, change)
    }

    /// Writes `text`, which `change` gives from the current text.
    fn write_change(&mut self, path: &str, text: String, change: ChangeSet) -> EditResult<()> {
        let entry = self.entry(path)?;
        if let Some(removed) = entry.removed_as.as_deref().filter(|r| *r != path) {
            return Err(EditError::invalid(protocol::same_file(
                removed,
                path,
                "the call deletes (or moves away) one name and writes the other, which would lose the text",
            )));
        }
        if !entry.encoding.is_utf8() {
            if let Err(u) = encoding::encode(&text, entry.encoding) {
                return Err(encoding::unencodable(path, &text, entry.encoding, u));
            }
        }
        entry.record(&change, &text);
        entry.current = Some(Arc::new(text));
        entry.moved_to = None;
        entry.written_as = Some(path.to_string());
        Ok(())
    }

    pub fn delete(&mut self, path: &str) -> EditResult<()> {
        let entry = self.entry(path)?;
        if let Some(written) = entry.written_as.as_deref().filter(|w| *w != path) {
            return Err(EditError::invalid(protocol::same_file(
                written,
                path,
                "the call writes one name and deletes the other, which would lose the text",
            )));
        }
        entry.record_deletion();
        entry.current = None;
        entry.removed_as = Some(path.to_string());
        Ok(())
    }

    /// The encoding `path` is written in, when it is not plain UTF-8
    /// ([`FileEncoding::result_name`]; a deleted file's is the one it had).
    pub fn encoding_of(&mut self, path: &str) -> EditResult<Option<&'static str>> {
        Ok(self.entry(path)?.encoding.result_name())
    }

    /// Creates `path` again with `text`, in `encoding` (a name from
    /// [`Workspace::encoding_of`]; None: as [`Workspace::write`] creates files): undo_edit
    /// restores a deleted file in the encoding it had.
    pub fn recreate(&mut self, path: &str, text: String, encoding: Option<&str>) -> EditResult<()> {
        if let Some(name) = encoding {
            let encoding = FileEncoding::from_label(name)?;
            let entry = self.entry(path)?;
            if entry.original.is_none() {
                entry.encoding = encoding;
            }
        }
        self.write(path, text)
    }

    /// Moves `from`'s current text to `to` (which must not exist), as `new_text`.
    /// Refused (`invalid_arguments`, naming both) when `to` is another name of `from`'s
    /// file: the move would write the text and then delete it.
    pub fn move_file(&mut self, from: &str, to: &str, new_text: String) -> EditResult<()> {
        if from != to && self.key(from)? == self.key(to)? {
            return Err(EditError::invalid(protocol::same_file(
                from,
                to,
                "moving a file onto itself under another name would delete its text",
            )));
        }
        let kept = self.entry(from)?.encoding;
        let dest = self.entry(to)?;
        if dest.original.is_none() {
            dest.encoding = kept;
        }
        self.write(to, new_text)?;
        let to = self.key(to)?;
        let entry = self.entry(from)?;
        entry.record_deletion();
        entry.current = None;
        entry.moved_to = Some(to);
        entry.removed_as = Some(from.to_string());
        Ok(())
    }

    /// Every file that now differs from what the host gave, in path order.
    ///
    /// A move is reported once, by its source: `moved_to` names where the text is now
    /// (following a chain of moves within the call) and `current` is that text. A
    /// destination the call created is folded into its source's entry; a file created
    /// and then moved or deleted within the call is not reported at all.
    pub fn changes(&self) -> Vec<Changed> {
        changes_of(&self.entries)
    }

    /// What changed since `before` (a [`Workspace::snapshot`] of this workspace), in
    /// the terms of [`Workspace::changes`]: as if the texts at `before` were what the
    /// host gave. undo_edit reports each call it takes back this way, one step after
    /// another. A move counts when the file had a text at `before` and has moved since;
    /// a file moved away before `before` stays out.
    pub fn changes_since(&self, before: &WorkspaceSnapshot) -> Vec<Changed> {
        let mut step = BTreeMap::new();
        for (path, e) in &self.entries {
            let then = match before.0.get(path) {
                Some(b) => b.current.clone(),
                None => e.original.clone(),
            };
            let moved_to = e.moved_to.clone().filter(|_| then.is_some());
            let text =
                |t: &Option<Arc<String>>| t.as_deref().map_or("", String::as_str).to_string();
            let change = match before.0.get(path) {
                Some(_) => ChangeSet::between(&text(&then), &text(&e.current)),
                None => e.change.clone(),
            };
            let entry = Entry {
                original: then,
                current: e.current.clone(),
                moved_to,
                encoding: e.encoding,
                removed_as: None,
                written_as: None,
                change,
            };
            step.insert(path.clone(), entry);
        }
        changes_of(&step)
    }

    /// Every text the call read from the host (files that existed), with its path, in
    /// path order.
    pub fn originals(&self) -> Vec<(String, Arc<String>)> {
        self.entries
            .iter()
            .filter_map(|(p, e)| Some((p.clone(), e.original.clone()?)))
            .collect()
    }

    /// [`Workspace::changes`], dropping the overlay so that the texts handed over are
    /// no longer shared and can be moved into results without copies.
    pub fn into_changes(self) -> Vec<Changed> {
        self.changes()
    }

    /// Forgets every change (used by non-atomic batches to drop a failed item).
    pub fn snapshot(&self) -> WorkspaceSnapshot {
        WorkspaceSnapshot(self.entries.clone())
    }

    pub fn restore(&mut self, snapshot: WorkspaceSnapshot) {
        self.entries = snapshot.0;
    }
}

/// A text, or the empty one for a missing file.
fn text_of(text: &Option<Arc<String>>) -> &str {
    text.as_deref().map_or("", String::as_str)
}

/// [`Workspace::changes`] over an overlay's entries.
fn changes_of(entries: &BTreeMap<String, Entry>) -> Vec<Changed> {
    let mut out = Vec::new();
    let mut folded: Vec<&str> = Vec::new();
    for (path, e) in entries {
        if e.original.is_none() && e.current.is_none() {
            continue;
        }
        let mut written = e.encoding;
        let (current, moved_to) = match &e.moved_to {
            Some(dest) => match follow_move(entries, dest) {
                (dest, Some(text)) => {
                    if let Some(d) = entries.get(dest) {
                        written = d.encoding;
                        if d.original.is_none() {
                            folded.push(dest);
                        }
                    }
                    (Some(text), Some(dest.to_string()))
                }
                (_, None) => (None, None),
            },
            None if e.original != e.current => (e.current.clone(), None),
            None => continue,
        };
        let encoding = current.as_ref().and(written.result_name());
        // A move's text is at its destination: its ranges are found by comparing.
        let change = moved_to.is_none().then(|| e.change.clone());
        out.push(Changed {
            path: path.clone(),
            original: e.original.clone(),
            current,
            moved_to,
            encoding,
            change,
        });
    }
    out.retain(|c| !folded.contains(&c.path.as_str()));
    out
}

/// Where text moved to `dest` is now, and that text (None: deleted since).
fn follow_move<'p>(
    entries: &'p BTreeMap<String, Entry>,
    mut dest: &'p str,
) -> (&'p str, Option<Arc<String>>) {
    for _ in 0..=entries.len() {
        let Some(entry) = entries.get(dest) else {
            return (dest, None);
        };
        match (&entry.current, &entry.moved_to) {
            (Some(text), _) => return (dest, Some(text.clone())),
            (None, Some(next)) if entry.original.is_none() => dest = next,
            _ => return (dest, None),
        }
    }
    (dest, None)
}

/// A copy of the overlay to return to (texts are shared, not copied).
pub struct WorkspaceSnapshot(BTreeMap<String, Entry>);

/// The largest file a host reads for a call (bytes). Hosts check a file's size from
/// `stat` before reading it and refuse a larger one with [`file_too_large`]; no host
/// allocates a file's stated size before this check.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The refusal of a file over [`MAX_FILE_BYTES`], worded once for every host.
pub fn file_too_large(path: &str, bytes: u64) -> EditError {
    EditError::invalid(format!(
        "`{path}` is {bytes} bytes, over the {MAX_FILE_BYTES}-byte limit of a file anchored-edit reads; it was not read. Edit a smaller file, or split this one."
    ))
    .with_diagnostics(serde_json::json!({"path": path, "bytes": bytes, "limit": MAX_FILE_BYTES}))
}

pub fn not_found(path: &str) -> EditError {
    EditError::new(
        ErrorKind::FileNotFound,
        format!(
            "No file at `{path}`. Check the path (relative to the project root), or create it with create_file {{path: \"{path}\", content: \"…\"}}."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two names of one file: `link.txt` is `a.txt`.
    struct Linked(BTreeMap<String, String>);

    impl Files for Linked {
        fn read(&self, path: &str) -> EditResult<Option<String>> {
            let real = if path == "link.txt" { "a.txt" } else { path };
            Ok(self.0.get(real).cloned())
        }
        fn identity(&self, path: &str) -> EditResult<Option<String>> {
            Ok(Some(
                if path == "link.txt" { "a.txt" } else { path }.to_string(),
            ))
        }
    }

    #[test]
    fn edits_through_two_names_of_one_file_apply_to_one_text() {
        let files = Linked(BTreeMap::from([("a.txt".to_string(), "x y\n".to_string())]));
        let mut ws = Workspace::new(&files, &[]);
        let t = ws.read("a.txt").unwrap().replace('x', "X");
        ws.write("a.txt", t).unwrap();
        let t = ws.read("link.txt").unwrap().replace('y', "Y");
        ws.write("link.txt", t).unwrap();
        let changes = ws.changes();
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].path, "a.txt");
        assert_eq!(changes[0].current.as_deref().unwrap().as_str(), "X Y\n");
    }

    /// The ranges a call's writes give are reported as one change of the host's text:
    /// two splices composed, a plain write by the range where the texts differ; a
    /// deleted file's change removes its whole text.
    #[test]
    fn a_files_writes_are_reported_as_one_change_of_its_original_text() {
        let files: BTreeMap<String, String> = [("a.txt", "one\ntwo\nthree\n"), ("b.txt", "gone\n")]
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let mut ws = Workspace::new(&files, &[]);
        ws.splice("a.txt", vec![(0..3, "ONE".to_string())]).unwrap();
        ws.splice("a.txt", vec![(8..13, "3".to_string())]).unwrap();
        let t = ws.read("a.txt").unwrap().replace("two", "2");
        ws.write("a.txt", t).unwrap();
        ws.delete("b.txt").unwrap();
        assert!(ws.splice("a.txt", vec![(1..99, String::new())]).is_err());
        let changes = ws.changes();
        let a = changes[0].change.as_ref().unwrap();
        let want = [
            (0..3, "ONE".to_string()),
            (4..7, "2".to_string()),
            (8..13, "3".to_string()),
        ];
        assert_eq!(a.splices(), &want);
        assert_eq!(a.apply("one\ntwo\nthree\n").unwrap(), "ONE\n2\n3\n");
        let b = changes[1].change.as_ref().unwrap();
        assert_eq!(b.splices(), &[(0..5, String::new())]);
    }

    #[test]
    fn map_readers_list_the_files_under_a_folder_without_ignored_ones() {
        let files: BTreeMap<String, String> = [
            (".gitignore", "*.log\n"),
            ("src/a.rs", ""),
            ("src/b.log", ""),
            ("src/.hidden", ""),
            ("srcx/c.rs", ""),
            ("d.rs", ""),
        ]
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        assert_eq!(
            files.list("src").unwrap(),
            Some(vec!["src/a.rs".to_string()])
        );
        let all = files.list("").unwrap().unwrap();
        assert_eq!(all, ["d.rs", "src/a.rs", "srcx/c.rs"]);
        assert_eq!(NoFiles.list("").unwrap(), None);
    }
}
