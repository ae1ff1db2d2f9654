//! Patches: V4A envelopes and unified diffs, read into one representation and applied
//! all or nothing on the call's workspace.
//!
//! Three parts, one job each:
//!
//! - [`grammar`] reads the text an agent sent. It strips the wrappers models put around
//!   patches (a Markdown fence, a heredoc, a leading `apply_patch` command word), tells a
//!   V4A envelope (`*** Begin Patch` … `*** End Patch`, as Codex's `apply_patch`) from a
//!   unified diff (`--- a/x` / `+++ b/x` / `@@ -l,n +l,n @@`, git headers included), and
//!   turns either into the [`Patch`] below. Every tolerated mistake becomes a warning;
//!   everything else is a refusal that names the patch line and what was expected
//!   (`patch_parse`), a patch cut off before `*** End Patch` (`patch_incomplete`), or
//!   text that is no patch at all (`patch_not_a_patch`). It is a folder of files with
//!   one job each (wrappers, V4A, unified diffs, notes), each opening with its grammar.
//! - [`search`] finds where a hunk goes in a file: after its `@@` anchors and after the
//!   previous hunk, through the same matching cascade as `str_replace`
//!   ([`crate::locate::find`]), on whole lines, exactly once. Line numbers from a unified
//!   diff only break ties between equal candidates.
//! - [`apply`] runs the operations in order on the workspace overlay, so later operations
//!   see earlier ones (an Add then an Update of the same file) and a failure anywhere
//!   leaves every file as it was: nothing reaches the host unless the whole patch applies.
//!
//! Both formats share the representation: a patch is a list of file operations, an
//! update is a list of hunks, and a hunk is lines marked context, removed or added.

pub mod apply;
pub mod blanks;
pub mod blocks;
pub mod grammar;
pub mod search;

#[cfg(test)]
mod tests;

/// Which syntax the patch was written in (it changes only how line numbers are used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    V4a,
    Unified,
}

/// A parsed patch: its operations, in the order they apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Patch {
    pub format: Format,
    pub ops: Vec<FileOp>,
}

/// One file operation. `line` is the 1-based line of the patch where it starts.
#[derive(Clone, Debug, PartialEq)]
pub enum FileOp {
    /// Create `path` with `content` (refused if the file exists).
    Add {
        path: String,
        content: String,
        line: usize,
    },
    /// Remove `path`. A unified diff lists the lines it removes; they must be the file's.
    Delete {
        path: PathChoice,
        hunks: Vec<Hunk>,
        line: usize,
    },
    /// Change `path` hunk by hunk, then optionally move it to `move_to`.
    Update {
        path: PathChoice,
        move_to: Option<String>,
        hunks: Vec<Hunk>,
        line: usize,
    },
}

impl FileOp {
    pub fn line(&self) -> usize {
        match self {
            FileOp::Add { line, .. }
            | FileOp::Delete { line, .. }
            | FileOp::Update { line, .. } => *line,
        }
    }
}

/// The file an existing-file operation names. A unified diff's `a/` and `b/` prefixes
/// are usually not part of the path, but a project may have a top-level `a/` folder:
/// `fallbacks` are read only when `path` does not exist.
#[derive(Clone, Debug, PartialEq)]
pub struct PathChoice {
    pub path: String,
    pub fallbacks: Vec<String>,
}

impl PathChoice {
    pub fn exact(path: impl Into<String>) -> PathChoice {
        PathChoice {
            path: path.into(),
            fallbacks: Vec::new(),
        }
    }
}

/// How a hunk line is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// ` `: in the file before and after.
    Context,
    /// `-`: in the file before only.
    Remove,
    /// `+`: in the file after only.
    Add,
}

/// One change inside a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Hunk {
    /// 1-based line of the patch where the hunk starts (its `@@` line, or its first line).
    pub line: usize,
    /// `@@ <anchor>` lines before the hunk, outermost first: each narrows the search to
    /// the lines after the first line (after the previous anchor) that contains it.
    pub anchors: Vec<String>,
    /// The hunk's lines without their sign and line break. A line may end in `\r` when
    /// the patch carries the file's own CRLF bytes (a diff of this very file).
    pub lines: Vec<(Sign, String)>,
    /// The last old line has no line break (`\ No newline at end of file`).
    pub old_no_newline: bool,
    /// The last new line has no line break.
    pub new_no_newline: bool,
    /// `*** End of File`: the hunk's old lines end the file.
    pub end_of_file: bool,
    /// The old start line from a `@@ -l,n +l,n @@` header (a hint, never trusted).
    pub line_hint: Option<usize>,
}

impl Hunk {
    pub fn new(line: usize) -> Hunk {
        Hunk {
            line,
            anchors: Vec::new(),
            lines: Vec::new(),
            old_no_newline: false,
            new_no_newline: false,
            end_of_file: false,
            line_hint: None,
        }
    }

    /// The lines the file has before the change (context and removed).
    pub fn old_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|(s, _)| *s != Sign::Add)
            .map(|(_, l)| l.as_str())
    }

    /// The lines the file has after the change (context and added).
    pub fn new_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|(s, _)| *s != Sign::Remove)
            .map(|(_, l)| l.as_str())
    }

    /// The `+` lines (for the placeholder guard).
    pub fn added_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|(s, _)| *s == Sign::Add)
            .map(|(_, l)| l.as_str())
    }

    /// True when the hunk only adds lines.
    pub fn is_pure_addition(&self) -> bool {
        self.lines.iter().all(|(s, _)| *s == Sign::Add)
    }

    /// True when some line carries its own `\r` (the patch holds the file's exact bytes).
    pub fn carries_crs(&self) -> bool {
        self.lines.iter().any(|(_, l)| l.ends_with('\r'))
    }
}
