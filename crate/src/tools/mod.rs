//! The tools: one module each, sharing parameters, the call context and a few helpers.
//!
//! A tool parses nothing itself (its [`ToolSpec`] drives [`Args::parse`]), reads and
//! writes only through the [`Ctx`]'s workspace, and returns an [`Outcome`]. The session
//! turns the workspace's changes into diffs and edits, so no tool computes those.

pub mod apply_patch;
pub mod create_file;
pub mod delete_block;
pub mod delete_lines;
pub mod dialects;
pub mod edit_file;
pub mod file_summary;
pub mod find_symbol;
pub mod get_edit_stats;
pub mod get_region;
pub mod grep_file;
pub mod grep_project;
pub mod insert;
pub mod list_files;
pub mod move_block;
pub mod multi_replace;
pub mod project;
pub mod read;
pub mod region;
pub mod replace_block;
pub mod replace_function_body;
pub mod replace_in_files;
pub mod search_replace;
pub mod str_replace;
pub mod undo_edit;

use crate::args::{Args, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::{version_of, Text};
use crate::workspace::Workspace;
use serde_json::{json, Map, Value};
use std::ops::Range;
use std::sync::Arc;

/// A tool: its specification and what it does.
pub struct Tool {
    pub spec: &'static ToolSpec,
    pub run: fn(&mut Ctx<'_>, &Args) -> EditResult<Outcome>,
}

/// The paragraph an MCP server gives a model at initialisation (`instructions`): when to
/// use which tool. Every server (native `anchored-edit mcp`, the Node server of the npm
/// package) publishes this one text, so that it changes in one place with the tools.
pub const SERVER_INSTRUCTIONS: &str = "Edit files by their content, not by line numbers. \
Read first with read_lines (a range), grep_file (find lines by text or regex), get_document \
(a whole small file) or file_summary (a large file's outline); line_count for a file's size. \
To change code, use str_replace with old_str copied from the file (a few lines, unique); it \
recovers from whitespace, escaping and line-number slips, and when it cannot be sure it \
refuses with the closest area and the exact next call. Use multi_replace for several edits \
in one file, apply_patch for a unified or V4A diff across files (all or nothing), \
get_region to read, and replace_block / delete_block / replace_function_body to change, a \
whole function or block found by its first line, insert and delete_lines for line-based \
changes, edit_file to merge a snippet whose unchanged stretches are `// ... existing code ...` \
markers, move_block to move or copy a block, create_file for a new file, undo_edit to take back \
your last edit. Across the \
project: list_files (paths), grep_project (lines matching a text or regex), find_symbol \
(where a function or type is defined), replace_in_files (one replacement in many files, all \
or nothing; dry_run: true lists each occurrence's id for `only`). Pass the `version` a read \
returned as expected_version: an edit on text that changed since is applied to the current \
text when the changes do not touch its lines, else refused with what changed; dry_run: true \
shows the diff without writing; an edit that would leave a balanced file with an unclosed \
bracket, string or block is refused (allow_unbalanced: true when that is intended); \
get_edit_stats reports how your edits fared.";

/// What each tool's MCP listing says (profiles `full` and `minimal`): what a model needs
/// to choose the tool and call it. The whole description (docs/tools.md, `tool_schemas`)
/// and the refusals, which name the next call, carry the rest.
pub static SUMMARIES: &[(&str, &str)] = &[
    ("str_replace", "Replace old_str (a few unique lines copied from the file; found by content, not line numbers) with new_str. Recovers whitespace, escaping and line-number slips; refuses when not sure, with the closest area and the next call. Example: {\"path\": \"src/app.py\", \"old_str\": \"retries = 3\", \"new_str\": \"retries = 5\"}"),
    ("insert", "Insert lines after line N (0 = top), or after / before the unique line containing after_content / before_content. Example: {\"path\": \"a.py\", \"after_content\": \"import os\", \"new_str\": \"import sys\\n\"}"),
    ("move_block", "Move (or copy) the lines from start_content through end_content (or brace_match) to after / before a unique line, in this file or to_path."),
    ("edit_file", "Merge a lazy snippet: code_edit is the new code with `// ... existing code ...` lines for unchanged stretches; each stretch's first and last lines are copied from the file."),
    ("delete_lines", "Delete lines start_line through end_line (1-based, inclusive)."),
    ("delete_block", "Delete the lines from the one containing start_content through end_content, or with brace_match: true through the end of the block it opens."),
    ("replace_block", "Replace the block a unique anchor line opens (through its closing bracket or last indented line) with new_content."),
    ("replace_function_body", "Replace a whole function or method found by function_name with new_body (its whole new definition)."),
    ("get_region", "Read from the line containing start_content through end_content, or with brace_match: true the block it opens."),
    ("apply_patch", "Apply a V4A patch (`*** Begin Patch` … `*** End Patch`), a unified diff, or SEARCH/REPLACE blocks, across files, all or nothing; hunks found by content. Example: {\"patch\": \"*** Begin Patch\\n*** Update File: a.py\\n@@ def main():\\n-    x = 3\\n+    x = 5\\n*** End Patch\"}"),
    ("multi_replace", "Several str_replace edits, in one or more files, all or nothing (atomic: false applies those that succeed). replacements: [{path, old_str, new_str, …}]."),
    ("create_file", "Create a file (overwrite: true replaces an existing one)."),
    ("undo_edit", "Take back the last applied editing call(s) of this session, every file of a call at once."),
    ("get_document", "Read a whole file: exact text, line count and version."),
    ("read_lines", "Read lines start_line through end_line (1-based, inclusive): exact text, no line numbers, and the file's version."),
    ("line_count", "Count a file's lines and return its version."),
    ("file_summary", "Outline a file: its functions, classes and other symbols with line ranges."),
    ("grep_file", "Find a file's lines containing pattern (literal, or regex: true), with context lines."),
    ("replace_in_files", "Replace old_str by new_str in many files (glob or paths), all or nothing; dry_run: true lists each occurrence's id for `only`."),
    ("list_files", "List the project's files (relative paths; hidden and .gitignore'd skipped), optionally under path or matching glob."),
    ("grep_project", "Find lines containing pattern (literal, or regex: true) across the project's files; glob narrows them."),
    ("find_symbol", "Find where a function, method, class or type is defined: file and lines."),
    ("get_edit_stats", "Statistics of this session's calls: applied, refused by kind, how matches were recovered."),
];

/// The listing summary of `name` (its whole description if it has none).
pub fn summary(spec: &ToolSpec) -> &'static str {
    SUMMARIES
        .iter()
        .find(|(n, _)| *n == spec.name)
        .map_or(spec.description, |(_, s)| s)
}

/// Every tool, in the order they are documented.
pub static TOOLS: &[Tool] = &[
    Tool {
        spec: &str_replace::SPEC,
        run: str_replace::run,
    },
    Tool {
        spec: &insert::SPEC,
        run: insert::run,
    },
    Tool {
        spec: &move_block::SPEC,
        run: move_block::run,
    },
    Tool {
        spec: &edit_file::SPEC,
        run: edit_file::run,
    },
    Tool {
        spec: &delete_lines::SPEC,
        run: delete_lines::run,
    },
    Tool {
        spec: &delete_block::SPEC,
        run: delete_block::run,
    },
    Tool {
        spec: &replace_block::SPEC,
        run: replace_block::run,
    },
    Tool {
        spec: &replace_function_body::SPEC,
        run: replace_function_body::run,
    },
    Tool {
        spec: &get_region::SPEC,
        run: get_region::run,
    },
    Tool {
        spec: &apply_patch::SPEC,
        run: apply_patch::run,
    },
    Tool {
        spec: &multi_replace::SPEC,
        run: multi_replace::run,
    },
    Tool {
        spec: &create_file::SPEC,
        run: create_file::run,
    },
    Tool {
        spec: &undo_edit::SPEC,
        run: undo_edit::run,
    },
    Tool {
        spec: &read::GET_DOCUMENT,
        run: read::get_document,
    },
    Tool {
        spec: &read::READ_LINES,
        run: read::read_lines,
    },
    Tool {
        spec: &read::LINE_COUNT,
        run: read::line_count,
    },
    Tool {
        spec: &file_summary::SPEC,
        run: file_summary::run,
    },
    Tool {
        spec: &grep_file::SPEC,
        run: grep_file::run,
    },
    Tool {
        spec: &replace_in_files::SPEC,
        run: replace_in_files::run,
    },
    Tool {
        spec: &list_files::SPEC,
        run: list_files::run,
    },
    Tool {
        spec: &grep_project::SPEC,
        run: grep_project::run,
    },
    Tool {
        spec: &find_symbol::SPEC,
        run: find_symbol::run,
    },
    Tool {
        spec: &get_edit_stats::SPEC,
        run: get_edit_stats::run,
    },
];

/// The tool `name` names: its own name, or the same in kebab-case or camelCase
/// (`get-region`, `strReplace`), as agents and other edit tools spell them.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.spec.name == name).or_else(|| {
        let snake = crate::args::to_snake_case(name.trim());
        TOOLS.iter().find(|t| t.spec.name == snake)
    })
}

pub fn spec(name: &str) -> Option<&'static ToolSpec> {
    find(name).map(|t| t.spec)
}

/// What a tool hands back to the session.
pub enum Outcome {
    /// Files were changed in the workspace; `message` says what was done.
    Edited { message: String },
    /// A reading tool's answer.
    Read(Reading),
    /// A project-wide reading tool's answer (many files, so no single `path` or
    /// `version`): `message`, an optional `content` and tool-specific fields.
    Found {
        message: String,
        content: Option<String>,
        extra: Map<String, Value>,
    },
    /// `get_edit_stats`: the session owns the statistics.
    Stats { reset: bool },
    /// `undo_edit`: the session owns the history of applied calls. `path` (normalised):
    /// the file the newest of them must have edited.
    Undo { steps: usize, path: Option<String> },
}

/// An `expected_version` that did not match the file's text: the session may hold that
/// version's text and rebase the edit onto the current one (see `session::rebase`).
#[derive(Clone, Debug, PartialEq)]
pub struct StaleRead {
    /// The file, normalised.
    pub path: String,
    /// The version the call expected, as sent.
    pub expected: String,
}

/// A reading tool's answer (DESIGN.md: `path`, `content`, `start_line`, `end_line`, …).
pub struct Reading {
    pub path: String,
    pub content: String,
    pub start_line: usize,
    pub end_line: usize,
    pub line_count: Option<usize>,
    pub version: String,
    pub message: Option<String>,
    pub extra: Map<String, Value>,
}

/// The state one call works in.
pub struct Ctx<'f> {
    pub ws: Workspace<'f>,
    pub warnings: Vec<String>,
    pub matched_via: Option<crate::locate::MatchedVia>,
    /// Tool-specific result fields for an editing tool (`results` of multi_replace).
    pub extra: Map<String, Value>,
    /// Every `expected_version` that did not match, in the order checked.
    pub stale: Vec<StaleRead>,
    /// Lines (0-based, end exclusive) of each file's text the call read to decide where
    /// to write: its match, its hints' landmarks, its line arguments. With the lines it
    /// writes, they must not overlap what changed since an old `expected_version`.
    pub reads: Vec<(String, Range<usize>)>,
    /// What texts of the strings the session meets again computed (the session's).
    pub kept: Arc<crate::text::Kept>,
}

impl<'f> Ctx<'f> {
    pub fn new(ws: Workspace<'f>) -> Ctx<'f> {
        Ctx {
            ws,
            warnings: Vec::new(),
            matched_via: None,
            extra: Map::new(),
            stale: Vec::new(),
            reads: Vec::new(),
            kept: Arc::default(),
        }
    }

    /// The text of a file's string, with what earlier calls' texts of the same string
    /// computed ([`crate::text::Kept`]).
    pub fn text<'s>(&self, src: &'s Arc<String>) -> Text<'s> {
        self.kept.text(src)
    }

    /// Notes that the call read lines `lines` (0-based, end exclusive) of `path`.
    pub fn note_read(&mut self, path: &str, lines: Range<usize>) {
        // Consecutive reads of one file that touch or overlap (every match of a
        // replace_all, in order) are kept as one stretch.
        if let Some((last_path, last)) = self.reads.last_mut() {
            if last_path == path && last.start <= lines.start && lines.start <= last.end {
                last.end = last.end.max(lines.end);
                return;
            }
        }
        self.reads.push((path.to_string(), lines));
    }

    /// Notes a search scope's landmark lines (its first and last), when a hint narrowed it.
    pub fn note_scope(&mut self, path: &str, text: &Text, scope: &crate::locate::scope::Scope) {
        if scope.label.is_some() && scope.range.start < scope.range.end {
            let first = text.line_of(scope.range.start);
            let last = text.line_of(scope.range.end - 1);
            self.note_read(path, first..first + 1);
            self.note_read(path, last..last + 1);
        }
    }

    /// Notes what a located edit read: its hint's landmark lines, `line_hint`'s line and
    /// the lines of each chosen match.
    pub fn note_located(
        &mut self,
        path: &str,
        text: &Text,
        scope: &crate::locate::scope::Scope,
        chosen: &[crate::locate::Candidate],
        line_hint: Option<usize>,
    ) {
        self.note_scope(path, text, scope);
        if let Some(hint) = line_hint {
            self.note_read(path, hint.saturating_sub(1)..hint);
        }
        for c in chosen {
            self.note_read(path, c.first_line(text)..c.last_line(text) + 1);
        }
    }

    /// [`check_version`], noting a mismatch for the session's rebase.
    pub fn check_version(&mut self, path: &str, text: &str, expected: &str) -> EditResult<()> {
        let checked = check_version(path, text, expected);
        if checked.is_err() {
            self.stale.push(StaleRead {
                path: path.to_string(),
                expected: expected.trim().to_ascii_lowercase(),
            });
        }
        checked
    }

    /// Normalises `path`, reads it, and (for editing tools) checks `expected_version`.
    /// Without `path` (tools whose spec allows it: [`params::PATH_OR_SYMBOL`]), the file
    /// is the one that defines `function_hint` / `function_name`
    /// ([`project::file_of_symbol`]), or the call is refused.
    pub fn open(&mut self, args: &Args) -> EditResult<(String, Arc<String>)> {
        let path = match args.opt_str("path") {
            Some(raw) => self.ws.path(raw)?,
            None => self.path_from_symbol(args)?,
        };
        let text = self.ws.read(&path)?;
        if let Some(expected) = args.opt_str("expected_version") {
            self.check_version(&path, &text, expected)?;
        }
        Ok((path, text))
    }
}

impl Ctx<'_> {
    fn path_from_symbol(&mut self, args: &Args) -> EditResult<String> {
        let tool = args.spec.name;
        let named = ["function_hint", "function_name"]
            .into_iter()
            .find_map(|arg| Some((arg, args.opt_str(arg)?)))
            .filter(|(_, name)| !name.trim().is_empty());
        match named {
            Some((arg, name)) => project::file_of_symbol(self, tool, name.trim(), arg),
            None => Err(EditError::invalid(format!(
                "{tool} needs `path` (the file, relative to the project root), or function_hint naming a function defined in exactly one file of the project."
            ))),
        }
    }
}

/// Refuses with `stale_buffer` when `text` is not the version the caller read.
///
/// The one place versions are compared: ignoring surrounding whitespace and ASCII case
/// (a version is hex digits, and a model may echo it upper-cased; the digits, not their
/// case, carry the hash).
pub fn check_version(path: &str, text: &str, expected: &str) -> EditResult<()> {
    let current = version_of(text);
    if current.eq_ignore_ascii_case(expected.trim()) {
        return Ok(());
    }
    Err(EditError::new(
        ErrorKind::StaleBuffer,
        format!(
            "{path} changed since you read it (expected_version {expected}, now {current}): someone or something edited it. Nothing was changed. Read it again (read_lines or get_document) and send the edit against the current text, with expected_version: \"{current}\" if you still want the check."
        ),
    )
    .with_diagnostics(json!({"expected_version": expected, "current_version": current})))
}

/// Checks `expected_versions` (`{path: version}`, for tools editing several files)
/// against the files as they are before the call; the first stale one refuses it.
pub fn check_versions(ctx: &mut Ctx, args: &Args) -> EditResult<()> {
    let Some(map) = args.value("expected_versions").and_then(Value::as_object) else {
        return Ok(());
    };
    for (path, expected) in map {
        let path = ctx.ws.path(path)?;
        let text = ctx.ws.read(&path)?;
        ctx.check_version(&path, &text, expected.as_str().unwrap_or(""))?;
    }
    Ok(())
}

/// Shared parameter declarations.
pub mod params {
    use super::*;

    pub const PATH: Param = Param {
        name: "path",
        aliases: &["file_path", "filepath", "file", "filename", "target_file"],
        ty: ParamType::String,
        required: true,
        description: "The file, relative to the project root (e.g. \"src/main.rs\").",
    };
    /// `path` of the tools that can find their file through a symbol's definition.
    pub const PATH_OR_SYMBOL: Param = Param {
        name: "path",
        aliases: PATH.aliases,
        ty: ParamType::String,
        required: false,
        description: "The file, relative to the project root (e.g. \"src/main.rs\"). Without it, the file is the one that defines function_hint (or function_name), found with find_symbol; several or none refuse.",
    };
    pub const DRY_RUN: Param = Param {
        name: "dry_run",
        aliases: &["preview"],
        ty: ParamType::Boolean,
        required: false,
        description: "Compute and return the diff without changing anything.",
    };
    pub const EXPECTED_VERSION: Param = Param {
        name: "expected_version",
        aliases: &["version"],
        ty: ParamType::String,
        required: false,
        description: "The `version` a reading tool returned. The edit is refused (stale_buffer) if the file changed since.",
    };
    pub const ENCODING: Param = Param {
        name: "encoding",
        aliases: &["charset", "file_encoding"],
        ty: ParamType::String,
        required: false,
        description: "The encoding of a file that is not UTF-8 and does not declare its own (\"windows-1252\" or \"latin1\", \"shift_jis\", \"euc-kr\", \"gbk\", \"utf-16le\", ...). UTF-8, a byte order mark and a declaration in the file are detected; the file is written back in its encoding.",
    };
    pub const EXPECTED_VERSIONS: Param = Param {
        name: "expected_versions",
        aliases: &["versions"],
        ty: ParamType::StringMap,
        required: false,
        description: "{path: version} with the `version` a reading tool returned for each file. The call is refused (stale_buffer) if any of them changed since.",
    };
    pub const ALLOW_UNBALANCED: Param = Param {
        name: "allow_unbalanced",
        aliases: &[],
        ty: ParamType::Boolean,
        required: false,
        description: "Write the edit even if it leaves a bracket, string or comment unmatched (or Python indentation broken) in a file that was balanced before.",
    };
    pub const OCCURRENCE: Param = Param {
        name: "occurrence",
        aliases: &["occurrence_index", "nth"],
        ty: ParamType::Integer { min: 1 },
        required: false,
        description:
            "Which match to use when the text occurs several times: 1 = first from the top.",
    };
    pub const FUNCTION_HINT: Param = Param {
        name: "function_hint",
        aliases: &["function", "in_function", "function_name_hint"],
        ty: ParamType::String,
        required: false,
        description: "Only search inside the function or method with this name.",
    };
    pub const STRICT: Param = Param {
        name: "strict",
        aliases: &["exact"],
        ty: ParamType::Boolean,
        required: false,
        description: "Byte-exact matching only: no whitespace, escaping or other recovery.",
    };
    pub const ALLOW_PLACEHOLDERS: Param = Param {
        name: "allow_placeholders",
        aliases: &[],
        ty: ParamType::Boolean,
        required: false,
        description:
            "Write lines such as `// ... existing code ...` literally instead of refusing them.",
    };
}

/// `{line, text}` for 0-based `line`.
pub fn line_json(text: &Text, line: usize) -> Value {
    json!({"line": line + 1, "text": text.line(line)})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tool with the struct its arguments are read through ([`crate::args::typed_args`]).
    fn typed() -> Vec<(&'static ToolSpec, Vec<(&'static str, crate::args::Fits)>)> {
        vec![
            (&str_replace::SPEC, str_replace::StrReplaceArgs::fields()),
            (
                &replace_in_files::SPEC,
                replace_in_files::ReplaceInFilesArgs::fields(),
            ),
            (
                &multi_replace::SPEC,
                multi_replace::MultiReplaceArgs::fields(),
            ),
            (&insert::SPEC, insert::InsertArgs::fields()),
            (&create_file::SPEC, create_file::CreateFileArgs::fields()),
            (&apply_patch::SPEC, apply_patch::ApplyPatchArgs::fields()),
            (&edit_file::SPEC, edit_file::EditFileArgs::fields()),
            (
                &replace_function_body::SPEC,
                replace_function_body::ReplaceFunctionBodyArgs::fields(),
            ),
            (&read::GET_DOCUMENT, read::FileArgs::fields()),
            (&read::LINE_COUNT, read::FileArgs::fields()),
            (&file_summary::SPEC, read::FileArgs::fields()),
            (&read::READ_LINES, read::ReadLinesArgs::fields()),
            (&grep_file::SPEC, grep_file::GrepFileArgs::fields()),
            (&grep_project::SPEC, grep_project::GrepProjectArgs::fields()),
            (&list_files::SPEC, list_files::ListFilesArgs::fields()),
            (&find_symbol::SPEC, find_symbol::FindSymbolArgs::fields()),
            (
                &get_edit_stats::SPEC,
                get_edit_stats::GetEditStatsArgs::fields(),
            ),
            (&undo_edit::SPEC, undo_edit::UndoEditArgs::fields()),
            (&delete_lines::SPEC, delete_lines::DeleteLinesArgs::fields()),
            (&delete_block::SPEC, delete_block::DeleteBlockArgs::fields()),
            (&get_region::SPEC, get_region::GetRegionArgs::fields()),
            (&move_block::SPEC, move_block::MoveBlockArgs::fields()),
            (
                &replace_block::SPEC,
                replace_block::ReplaceBlockArgs::fields(),
            ),
        ]
    }

    #[test]
    fn every_typed_argument_struct_has_exactly_its_schemas_properties() {
        for (spec, fields) in typed() {
            assert_eq!(crate::args::check_fields(spec, &fields), Ok(()));
            let schema = spec.schema();
            let properties = schema["properties"].as_object().unwrap();
            let mut listed: Vec<&str> = properties.keys().map(String::as_str).collect();
            let mut declared: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
            listed.sort_unstable();
            declared.sort_unstable();
            assert_eq!(listed, declared, "{}", spec.name);
        }
        let typed: Vec<&str> = typed().iter().map(|(spec, _)| spec.name).collect();
        for tool in TOOLS {
            assert!(
                typed.contains(&tool.spec.name),
                "{} has no typed arguments",
                tool.spec.name
            );
        }
    }

    #[test]
    fn every_editing_tool_but_undo_edit_takes_allow_unbalanced_and_so_is_guarded() {
        for tool in TOOLS {
            let want = tool.spec.edits() && tool.spec.name != "undo_edit";
            assert_eq!(tool.spec.guarded(), want, "{}", tool.spec.name);
        }
    }

    #[test]
    fn every_tool_has_a_listing_summary() {
        for tool in TOOLS {
            assert!(
                SUMMARIES.iter().any(|(n, _)| *n == tool.spec.name),
                "{}",
                tool.spec.name
            );
        }
        assert_eq!(SUMMARIES.len(), TOOLS.len());
    }

    #[test]
    fn the_server_instructions_name_every_tool() {
        for tool in TOOLS {
            assert!(
                SERVER_INSTRUCTIONS.contains(tool.spec.name),
                "SERVER_INSTRUCTIONS should say when to use {}",
                tool.spec.name
            );
        }
        assert!(!SERVER_INSTRUCTIONS.contains('\n'));
    }
}
