//! Other agents' edit tools, as data: each harness's tool names, argument names and
//! payload formats, mapped onto the engine's tools so that every dialect gets the same
//! unique-only recovery, refusals and diagnostics.
//!
//! A [`DialectTool`] is the harness's own [`ToolSpec`] (name, description and schema,
//! published by a profile's `tools/list`), the engine tool that runs it, and a
//! [`Mapping`] from its arguments to the engine tool's. `call` accepts every dialect's
//! names without a profile ([`translate`]); where two harnesses share a name
//! (`read_file`, `write_to_file`) one mapping reads both argument sets.
//!
//! Arguments a mapping does not rename pass through: the engine tool's own aliases read
//! them (Claude Code's `file_path`, `old_string`; Copilot's `filePath`, `oldString`) and
//! refuse unknown ones with the closest valid name.
//!
//! Profiles ([`PROFILES`]) name the tools one MCP server lists.

use crate::args::{Annotations, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult};
use serde_json::{json, Map, Value};

/// One harness tool.
pub struct DialectTool {
    /// The profile (harness) whose tool it is.
    pub harness: &'static str,
    /// The harness's name, description and argument schema.
    pub spec: ToolSpec,
    /// The engine tool that runs it.
    pub engine: &'static str,
    pub mapping: Mapping,
}

/// How a harness tool's arguments become the engine tool's.
#[derive(Clone, Copy)]
pub enum Mapping {
    /// Renamed arguments (harness name, engine name); the rest pass through.
    Rename(&'static [(&'static str, &'static str)]),
    /// A whole-file write: `content` with overwrite: true; Roo's `line_count`, when
    /// given, must not exceed the content's lines (a cut-off write is refused).
    Write,
    /// A line window: `offset` (0-based when `zero_based`), `limit`; numbered output.
    Read { zero_based: bool, numbered: bool },
    /// `diff` holding SEARCH/REPLACE blocks for the file `path` (Cline, Roo).
    Blocks,
    /// Anthropic's text editor: one tool, `command` picks the operation.
    TextEditor,
}

/// A call in the engine's terms.
#[derive(Debug)]
pub struct Translated {
    pub tool: &'static str,
    pub args: Map<String, Value>,
    /// The result's content is shown with line numbers (`cat -n`), as the harness does.
    pub numbered: bool,
}

const fn s(name: &'static str, required: bool, description: &'static str) -> Param {
    Param {
        name,
        aliases: &[],
        ty: ParamType::String,
        required,
        description,
    }
}

const fn int(name: &'static str, description: &'static str) -> Param {
    Param {
        name,
        aliases: &[],
        ty: ParamType::Integer { min: 0 },
        required: false,
        description,
    }
}

const fn flag(name: &'static str, description: &'static str) -> Param {
    Param {
        name,
        aliases: &[],
        ty: ParamType::Boolean,
        required: false,
        description,
    }
}

const fn list(name: &'static str, description: &'static str) -> Param {
    Param {
        name,
        aliases: &[],
        ty: ParamType::ObjectList,
        required: true,
        description,
    }
}

const EDITS: Annotations = Annotations {
    title: "Edit a file",
    read_only: false,
    destructive: true,
    idempotent: false,
};
const READS: Annotations = Annotations {
    title: "Read a file",
    read_only: true,
    destructive: false,
    idempotent: true,
};

const fn tool(
    harness: &'static str,
    name: &'static str,
    description: &'static str,
    params: &'static [Param],
    annotations: Annotations,
    engine: &'static str,
    mapping: Mapping,
) -> DialectTool {
    DialectTool {
        harness,
        spec: ToolSpec {
            name,
            description,
            params,
            annotations,
        },
        engine,
        mapping,
    }
}

const TEXT_EDITOR: &[Param] = &[
    s(
        "command",
        true,
        "view, create, str_replace, insert or undo_edit.",
    ),
    s("path", true, "The file, relative to the project root."),
    s("file_text", false, "create: the file's content."),
    s("old_str", false, "str_replace: the text to replace."),
    s("new_str", false, "str_replace / insert: the new text."),
    int("insert_line", "insert: the line to insert after (0 = top)."),
    Param {
        name: "view_range",
        aliases: &[],
        ty: ParamType::IntegerList,
        required: false,
        description: "view: [start_line, end_line], 1-based; -1 = to the end.",
    },
];

/// Every harness tool, grouped by harness. Where two harnesses share a name, the first
/// entry's mapping runs `call` (it reads both argument sets).
pub static TOOLS: &[DialectTool] = &[
    // Anthropic's text editor tool (text_editor_20250728 and earlier).
    tool("anthropic-text-editor", "str_replace_based_edit_tool", "View, create and edit files. command: view (path, optional view_range [start, end], -1 = to the end; numbered lines), create (path, file_text; overwrites), str_replace (path, old_str, new_str; old_str must match exactly one place), insert (path, insert_line: after this line, 0 = top; new_str), undo_edit (path: undo the last edit).",
        TEXT_EDITOR,
        EDITS, "str_replace", Mapping::TextEditor),
    tool("anthropic-text-editor", "str_replace_editor", "View, create and edit files (Anthropic's text editor): command view / create / str_replace / insert / undo_edit, as str_replace_based_edit_tool.",
        TEXT_EDITOR,
        EDITS, "str_replace", Mapping::TextEditor),
    // Claude Code.
    tool("claude-code", "Edit", "Replace old_string with new_string in file_path. old_string must match exactly one place unless replace_all (whitespace slips are recovered, several or no matches refused).",
        &[s("file_path", true, "The file (absolute inside the project, or relative)."), s("old_string", true, "The text to replace."), s("new_string", true, "The replacement."), flag("replace_all", "Replace every occurrence.")],
        EDITS, "str_replace", Mapping::Rename(&[])),
    tool("claude-code", "MultiEdit", "Several edits to one file, in order, all or nothing. Each {old_string, new_string, replace_all?} as in Edit.",
        &[s("file_path", true, "The file."), list("edits", "[{old_string, new_string, replace_all?}]")],
        EDITS, "multi_replace", Mapping::Rename(&[])),
    tool("claude-code", "Write", "Write a whole file (created or overwritten).",
        &[s("file_path", true, "The file."), s("content", true, "The file's whole content.")],
        EDITS, "create_file", Mapping::Write),
    tool("claude-code", "Read", "Read a file with line numbers; offset (1-based line) and limit page it.",
        &[s("file_path", true, "The file."), int("offset", "First line (1-based)."), int("limit", "How many lines.")],
        READS, "read_lines", Mapping::Read { zero_based: false, numbered: true }),
    // Roo Code (listed before Cline: its write_to_file also reads line_count).
    tool("roo", "apply_diff", "Edit a file with SEARCH/REPLACE blocks: `<<<<<<< SEARCH`, optional `:start_line:N` (a hint), `-------`, the exact lines, `=======`, the new lines, `>>>>>>> REPLACE`; several blocks per call, all or nothing; each SEARCH must match exactly one place.",
        &[s("path", true, "The file."), s("diff", true, "One or more SEARCH/REPLACE blocks.")],
        EDITS, "apply_patch", Mapping::Blocks),
    tool("roo", "write_to_file", "Write a whole file (created or overwritten).",
        &[s("path", true, "The file."), s("content", true, "The file's whole content."), int("line_count", "The content's line count (a shorter content is refused as cut off).")],
        EDITS, "create_file", Mapping::Write),
    tool("roo", "read_file", "Read a file; start_line / end_line (1-based) page it.",
        &[s("path", true, "The file."), int("start_line", "First line."), int("end_line", "Last line.")],
        READS, "read_lines", Mapping::Read { zero_based: true, numbered: false }),
    // Cline.
    tool("cline", "replace_in_file", "Edit a file with SEARCH/REPLACE blocks: `------- SEARCH`, the exact lines, `=======`, the new lines, `+++++++ REPLACE`; several blocks per call, all or nothing; each SEARCH must match exactly one place. An empty SEARCH writes an empty or new file only.",
        &[s("path", true, "The file."), s("diff", true, "One or more SEARCH/REPLACE blocks.")],
        EDITS, "apply_patch", Mapping::Blocks),
    tool("cline", "write_to_file", "Write a whole file (created or overwritten).",
        &[s("path", true, "The file."), s("content", true, "The file's whole content.")],
        EDITS, "create_file", Mapping::Write),
    tool("cline", "read_file", "Read a file.", &[s("path", true, "The file.")],
        READS, "read_lines", Mapping::Read { zero_based: true, numbered: false }),
    // gemini-cli.
    tool("gemini", "replace", "Replace old_string with new_string in file_path. old_string must match exactly one place unless allow_multiple (whitespace slips are recovered).",
        &[s("file_path", true, "The file."), s("instruction", false, "What the edit does (recorded)."), s("old_string", true, "The exact text to replace, with context."), s("new_string", true, "The replacement."), flag("allow_multiple", "Replace every occurrence."), int("expected_replacements", "How many occurrences to replace.")],
        EDITS, "str_replace", Mapping::Rename(&[("allow_multiple", "replace_all"), ("instruction", "explanation")])),
    tool("gemini", "write_file", "Write a whole file (created or overwritten).",
        &[s("file_path", true, "The file."), s("content", true, "The file's whole content.")],
        EDITS, "create_file", Mapping::Write),
    tool("gemini", "read_file", "Read a file; offset (0-based line) and limit page it.",
        &[s("file_path", true, "The file."), int("offset", "First line, 0-based."), int("limit", "How many lines.")],
        READS, "read_lines", Mapping::Read { zero_based: true, numbered: false }),
    // GitHub Copilot (VS Code).
    tool("copilot", "replace_string_in_file", "Replace oldString with newString in filePath; oldString must match exactly one place (include context lines).",
        &[s("filePath", true, "The file."), s("oldString", true, "The exact text to replace."), s("newString", true, "The replacement."), s("explanation", false, "Why (recorded).")],
        EDITS, "str_replace", Mapping::Rename(&[])),
    tool("copilot", "multi_replace_string_in_file", "Several replacements, in one or more files, all or nothing. Each {filePath, oldString, newString} as in replace_string_in_file.",
        &[s("explanation", false, "Why (recorded)."), list("replacements", "[{filePath, oldString, newString}]")],
        EDITS, "multi_replace", Mapping::Rename(&[])),
    tool("copilot", "insert_edit_into_file", "Merge code into a file: unchanged stretches written as `// ...existing code...` lines; the code's first and last lines of each stretch must be copied from the file.",
        &[s("filePath", true, "The file."), s("code", true, "The changed code with `// ...existing code...` markers."), s("explanation", false, "Why (recorded).")],
        EDITS, "edit_file", Mapping::Rename(&[])),
    tool("copilot", "read_file", "Read lines startLine through endLine (1-based) of a file.",
        &[s("filePath", true, "The file."), int("startLine", "First line."), int("endLine", "Last line.")],
        READS, "read_lines", Mapping::Read { zero_based: true, numbered: false }),
    // Codex.
    tool("codex", "apply_patch", "Apply a V4A patch: `*** Begin Patch`, `*** Add File: p` / `*** Delete File: p` / `*** Update File: p` with `@@` hunks of ' ', '-', '+' lines, `*** End Patch`. Hunks are found by content, all or nothing.",
        &[s("input", true, "The whole patch.")],
        EDITS, "apply_patch", Mapping::Rename(&[])),
    // aider.
    tool("aider", "apply_patch", "Apply aider SEARCH/REPLACE blocks: the file's path on its own line, a ``` fence, `<<<<<<< SEARCH`, the exact lines, `=======`, the new lines, `>>>>>>> REPLACE`, the closing fence. Several blocks and files per call, all or nothing; each SEARCH must match exactly one place; an empty SEARCH creates a new file.",
        &[s("patch", true, "The blocks, each under its file's path.")],
        EDITS, "apply_patch", Mapping::Rename(&[])),
];

/// A tool set an MCP server can list: the engine tools it names, and every dialect
/// tool whose `harness` is its name.
pub struct Profile {
    pub name: &'static str,
    /// Engine tools, by name (`full`: all of them).
    pub engine: &'static [&'static str],
}

/// Every profile, `full` first (the default).
pub static PROFILES: &[Profile] = &[
    Profile {
        name: "full",
        engine: &[],
    },
    Profile {
        name: "minimal",
        engine: &["str_replace", "apply_patch", "read_lines", "grep_project"],
    },
    Profile {
        name: "claude-code",
        engine: &[],
    },
    Profile {
        name: "anthropic-text-editor",
        engine: &[],
    },
    Profile {
        name: "codex",
        engine: &[],
    },
    Profile {
        name: "cline",
        engine: &[],
    },
    Profile {
        name: "roo",
        engine: &[],
    },
    Profile {
        name: "aider",
        engine: &[],
    },
    Profile {
        name: "gemini",
        engine: &[],
    },
    Profile {
        name: "copilot",
        engine: &[],
    },
];

impl Profile {
    /// This profile's dialect tools.
    pub fn dialect_tools(&self) -> impl Iterator<Item = &'static DialectTool> + '_ {
        TOOLS.iter().filter(move |t| t.harness == self.name)
    }
}

/// The profile called `name`.
pub fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// The harness tool `name`, unless it is an engine tool's name (those run as they are).
pub fn find(name: &str) -> Option<&'static DialectTool> {
    if super::TOOLS.iter().any(|t| t.spec.name == name) {
        return None;
    }
    TOOLS.iter().find(|t| t.spec.name == name)
}

/// `raw`, the arguments of a call to the harness tool `name`, in the engine's terms;
/// None when `name` is no harness's tool (or an engine tool's own name).
pub fn translate(name: &str, raw: &Map<String, Value>) -> Option<EditResult<Translated>> {
    let t = find(name)?;
    let mut args = raw.clone();
    let mut out = Translated {
        tool: t.engine,
        args: Map::new(),
        numbered: false,
    };
    let done = match t.mapping {
        Mapping::Rename(pairs) => {
            rename(&mut args, pairs);
            Ok(())
        }
        Mapping::Write => write(&mut args),
        Mapping::Read {
            zero_based,
            numbered,
        } => {
            out.numbered = numbered;
            read(&mut args, zero_based)
        }
        Mapping::Blocks => {
            rename(&mut args, &[("diff", "patch")]);
            Ok(())
        }
        Mapping::TextEditor => text_editor(&mut args, &mut out),
    };
    Some(done.map(|()| {
        out.args = args;
        out
    }))
}

fn rename(args: &mut Map<String, Value>, pairs: &[(&str, &str)]) {
    for (from, to) in pairs {
        if let Some(v) = args.remove(*from) {
            args.insert((*to).to_string(), v);
        }
    }
}

fn write(args: &mut Map<String, Value>) -> EditResult<()> {
    if let Some(count) = args.remove("line_count").and_then(|v| v.as_u64()) {
        let content = args.get("content").and_then(Value::as_str).unwrap_or("");
        let lines = content.lines().count() as u64;
        if lines < count {
            return Err(EditError::invalid(format!(
                "content has {lines} lines but line_count says {count}: it looks cut off. Nothing was written. Send the whole content (or line_count matching it)."
            )));
        }
    }
    args.insert("overwrite".into(), Value::Bool(true));
    Ok(())
}

fn read(args: &mut Map<String, Value>, zero_based: bool) -> EditResult<()> {
    rename(args, &[("absolute_path", "path")]);
    let offset = args.remove("offset").map(|v| v.as_u64());
    let limit = args.remove("limit").map(|v| v.as_u64());
    let start = match offset {
        Some(Some(n)) => Some(n.saturating_add(u64::from(zero_based))),
        Some(None) => return Err(EditError::invalid("`offset` must be a line number.")),
        None => None,
    };
    if let Some(start) = start.filter(|n| *n >= 1) {
        args.insert("start_line".into(), json!(start));
    }
    match limit {
        Some(Some(n)) if n >= 1 => {
            let first = start.unwrap_or(1).max(1);
            args.insert("end_line".into(), json!(first.saturating_add(n - 1)));
        }
        Some(_) => return Err(EditError::invalid("`limit` must be a number of lines ≥ 1.")),
        None => {}
    }
    Ok(())
}

/// Anthropic's `command`: view → read_lines (numbered), create → create_file
/// (overwrites), str_replace, insert, undo_edit.
fn text_editor(args: &mut Map<String, Value>, out: &mut Translated) -> EditResult<()> {
    let command = match args.remove("command") {
        Some(Value::String(c)) => c,
        _ => return Err(EditError::invalid(
            "str_replace_based_edit_tool needs `command`: view, create, str_replace, insert or undo_edit.",
        )),
    };
    out.tool = match command.as_str() {
        "view" => {
            out.numbered = true;
            if let Some(range) = args.remove("view_range") {
                view_range(args, &range)?;
            }
            "read_lines"
        }
        "create" => {
            rename(args, &[("file_text", "content")]);
            args.insert("overwrite".into(), Value::Bool(true));
            "create_file"
        }
        "str_replace" => {
            args.entry("new_str").or_insert_with(|| json!(""));
            "str_replace"
        }
        "insert" => "insert",
        // The session's newest applied call, refused unless it edited `path`.
        "undo_edit" => "undo_edit",
        other => {
            return Err(EditError::invalid(format!(
                "Unknown command `{other}`. Send command: view, create, str_replace, insert or undo_edit."
            )))
        }
    };
    Ok(())
}

fn view_range(args: &mut Map<String, Value>, range: &Value) -> EditResult<()> {
    let bad = || {
        EditError::invalid(
            "view_range must be [start_line, end_line] (1-based; end_line -1 reads to the end).",
        )
    };
    let pair = range.as_array().filter(|a| a.len() == 2).ok_or_else(bad)?;
    let start = pair[0].as_i64().filter(|n| *n >= 1).ok_or_else(bad)?;
    let end = pair[1].as_i64().ok_or_else(bad)?;
    args.insert("start_line".into(), json!(start));
    if end != -1 {
        args.insert("end_line".into(), json!(end.max(0)));
    }
    Ok(())
}

/// `content` with each line prefixed by its number (from `first`), as `cat -n`.
pub fn number_lines(content: &str, first: usize) -> String {
    let mut out = String::with_capacity(content.len() + content.len() / 8);
    for (i, line) in content.split_inclusive('\n').enumerate() {
        out.push_str(&format!("{:>6}\t{line}", first + i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_tool_runs_an_engine_tool_and_belongs_to_a_profile() {
        for t in TOOLS {
            assert!(super::super::find(t.engine).is_some(), "{}", t.spec.name);
            assert!(profile(t.harness).is_some(), "{}", t.harness);
        }
        for p in PROFILES {
            let engine = p.engine.iter().all(|n| super::super::find(n).is_some());
            assert!(engine, "{}", p.name);
            let listed = p.dialect_tools().count() + p.engine.len();
            assert!(listed > 0 || p.name == "full", "{}", p.name);
        }
    }

    #[test]
    fn translations() {
        let args = |v: Value| v.as_object().cloned().unwrap_or_default();
        let t = translate("replace", &args(json!({"file_path": "a", "old_string": "x", "new_string": "y", "allow_multiple": true, "instruction": "i"})))
            .unwrap()
            .unwrap();
        assert_eq!(t.tool, "str_replace");
        assert_eq!(t.args["replace_all"], json!(true));
        assert_eq!(t.args["explanation"], json!("i"));
        let t = translate(
            "read_file",
            &args(json!({"absolute_path": "a", "offset": 0, "limit": 3})),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (t.args["start_line"].clone(), t.args["end_line"].clone()),
            (json!(1), json!(3))
        );
        let t = translate(
            "Read",
            &args(json!({"file_path": "a", "offset": 5, "limit": 2})),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (
                t.args["start_line"].clone(),
                t.args["end_line"].clone(),
                t.numbered
            ),
            (json!(5), json!(6), true)
        );
        let t = translate(
            "str_replace_editor",
            &args(json!({"command": "view", "path": "a", "view_range": [2, -1]})),
        )
        .unwrap()
        .unwrap();
        assert_eq!((t.tool, t.args.get("end_line")), ("read_lines", None));
        assert!(translate("str_replace", &Map::new()).is_none());
        assert!(translate("apply_patch", &Map::new()).is_none());
        assert!(translate(
            "str_replace_editor",
            &args(json!({"command": "rm", "path": "a"}))
        )
        .unwrap()
        .is_err());
        assert_eq!(number_lines("a\nb", 9), "     9\ta\n    10\tb");
        let huge = translate(
            "read_file",
            &args(json!({"path": "a", "offset": u64::MAX, "limit": u64::MAX})),
        );
        assert!(huge.unwrap().is_ok(), "no overflow");
    }
}
