//! The one entry point: a [`Session`] takes a tool call and a host's files and returns
//! a [`ToolResult`]. It parses the request, runs the tool on an in-memory workspace,
//! describes the changes, and keeps the statistics.

use crate::args::{closest, Args};
use crate::changes::describe;
use crate::error::EditError;
use crate::result::ToolResult;
use crate::stats::{Record, Stats};
use crate::text::encoding::FileEncoding;
use crate::text::{count_lines, version_of};
use crate::tools::{self, Ctx, Outcome, TOOLS};
use crate::workspace::{Files, Workspace};
use serde_json::{json, Map, Value};

/// Arguments that count as hints in statistics.
const HINTS: [&str; 9] = [
    "function_hint",
    "line_hint",
    "after_hint",
    "between_hint",
    "occurrence",
    "after_content",
    "before_content",
    "start_content",
    "brace_match",
];

/// Consecutive refusals of one tool on one file after which the message suggests
/// another approach.
const STREAK_ADVICE_AT: u32 = 3;

/// How a host wants one call run. Hosts never rewrite a request to change how it runs:
/// the request is the agent's, the options are the host's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallOptions {
    /// Compute everything and write nothing, whatever the request says (the CLI's
    /// `--dry-run`, previews). Reading tools run as usual.
    pub dry_run: bool,
    /// Include each changed file's whole `new_text` in the result. Hosts that apply the
    /// minimal `edits` turn it off to save a copy of every changed text.
    pub new_text: bool,
}

impl Default for CallOptions {
    fn default() -> CallOptions {
        CallOptions {
            dry_run: false,
            new_text: true,
        }
    }
}

/// A conversation with the engine: calls and their statistics.
#[derive(Debug, Default, Clone)]
pub struct Session {
    stats: Stats,
    last_record: Option<Record>,
    /// Set when `get_edit_stats {reset: true}` cleared the statistics, until a host
    /// persisting them takes it ([`Session::take_reset`]).
    reset_pending: bool,
    /// The folders calls may reach, normalised; the first is the project root.
    roots: Vec<String>,
    /// The syntax guard's lexer states of the texts it checked last.
    guard: crate::guard::balance::Cache,
}

impl Session {
    /// A session with empty statistics.
    pub fn new() -> Session {
        Session::default()
    }

    /// Declares the folders calls may reach (absolute paths; the first is the project
    /// root, which relative paths are relative to). Every path argument is then judged
    /// by the one path rule ([`crate::paths::resolve`]): an absolute path inside the
    /// first root becomes relative to it, one inside another root stays absolute, any
    /// other is refused `path_outside_root`. Until a host calls this, only relative
    /// paths are accepted.
    pub fn set_roots(&mut self, roots: Vec<String>) {
        self.roots = crate::paths::normalize_roots(&roots);
    }

    /// The roots set by [`Session::set_roots`], normalised.
    pub fn roots(&self) -> &[String] {
        &self.roots
    }

    /// Runs one call given as JSON text: `{"tool": NAME, "arguments": {...}}`.
    /// Malformed or truncated JSON is refused with `invalid_arguments`.
    pub fn call_json(&mut self, request: &str, files: &dyn Files) -> ToolResult {
        self.call_json_with(request, files, &CallOptions::default())
    }

    /// Runs one call given as raw bytes (what a host read from a pipe or a file): bytes
    /// that are not UTF-8 are refused with where the first bad byte is; nothing is
    /// guessed or replaced, since a lossy decoding would write characters nobody sent.
    pub fn call_bytes(&mut self, request: &[u8], files: &dyn Files) -> ToolResult {
        match std::str::from_utf8(request) {
            Ok(text) => self.call_json(text, files),
            Err(e) => ToolResult::failure("", not_utf8(request, &e)),
        }
    }

    /// Runs one call: `{"tool": NAME, "arguments": {...}}` (also accepted: `name` for
    /// `tool`, `input` for `arguments`, arguments as a JSON string).
    pub fn call(&mut self, request: &Value, files: &dyn Files) -> ToolResult {
        self.call_with(request, files, &CallOptions::default())
    }

    /// [`Session::call`] with the host's [`CallOptions`].
    pub fn call_with(
        &mut self,
        request: &Value,
        files: &dyn Files,
        options: &CallOptions,
    ) -> ToolResult {
        let (tool, arguments) = match split_request(request) {
            Ok(parts) => parts,
            Err(e) => {
                let tool = request.get("tool").and_then(Value::as_str).unwrap_or("");
                return ToolResult::failure(tool, e);
            }
        };
        self.call_tool_with(&tool, &arguments, files, options)
    }

    /// [`Session::call_json`] with the host's [`CallOptions`].
    pub fn call_json_with(
        &mut self,
        request: &str,
        files: &dyn Files,
        options: &CallOptions,
    ) -> ToolResult {
        match serde_json::from_str::<Value>(request) {
            Ok(v) => self.call_with(&v, files, options),
            Err(e) => ToolResult::failure("", malformed_json("The request", &e)),
        }
    }

    /// Runs `tool` with `arguments` (an object, or an object as a JSON string).
    pub fn call_tool(&mut self, tool: &str, arguments: &Value, files: &dyn Files) -> ToolResult {
        self.call_tool_with(tool, arguments, files, &CallOptions::default())
    }

    /// [`Session::call_tool`] with the host's [`CallOptions`].
    pub fn call_tool_with(
        &mut self,
        tool: &str,
        arguments: &Value,
        files: &dyn Files,
        options: &CallOptions,
    ) -> ToolResult {
        // A call that records nothing (get_edit_stats) must not leave the previous
        // call's record for a host to log twice.
        self.last_record = None;
        let Some(t) = tools::find(tool) else {
            return ToolResult::failure(tool, unknown_tool(tool));
        };
        let raw = match arguments_object(arguments) {
            Ok(m) => m,
            Err(e) => return ToolResult::failure(tool, e),
        };
        let args = match Args::parse(t.spec, &raw) {
            Ok(a) => a,
            Err(e) => {
                let record = base_record(t.spec.name, t.spec.edits(), &raw, None, &self.roots);
                return self.finish(ToolResult::failure(tool, e), record);
            }
        };
        let dry_run = t.spec.edits() && (options.dry_run || args.flag("dry_run"));
        let mut record = base_record(t.spec.name, t.spec.edits(), &raw, Some(&args), &self.roots);
        record.dry_run |= dry_run;
        let mut ws = Workspace::new(files, &self.roots);
        if let Some(label) = args.opt_str("encoding") {
            match FileEncoding::from_label(label) {
                Ok(encoding) => ws.set_encoding(encoding),
                Err(e) => return self.finish(ToolResult::failure(t.spec.name, e), record),
            }
        }
        let mut ctx = Ctx::new(ws);
        let outcome = (t.run)(&mut ctx, &args);
        let outcome = guarded(outcome, t.spec, &ctx, &args, &mut self.guard);
        let result = match outcome {
            Err(e) => ToolResult::failure(t.spec.name, e),
            Ok(Outcome::Stats { reset }) => {
                let result = self.stats_result();
                if reset {
                    self.stats.reset();
                    self.reset_pending = true;
                }
                return result;
            }
            Ok(Outcome::Read(r)) => {
                let mut result = ToolResult::new(t.spec.name);
                result.message = r.message;
                result.path = Some(r.path);
                result.version = Some(r.version);
                result.start_line = Some(r.start_line);
                result.end_line = Some(r.end_line);
                result.line_count = r.line_count;
                result.content = Some(r.content);
                result.extra = r.extra;
                result.matched_via = ctx.matched_via.map(|v| v.as_str().to_string());
                result.warnings = ctx.warnings;
                result
            }
            Ok(found @ Outcome::Found { .. }) => found_result(t.spec.name, found, ctx.warnings),
            Ok(Outcome::Edited { message }) => {
                let mut result = ToolResult::new(t.spec.name);
                result.dry_run = Some(dry_run);
                result.matched_via = ctx.matched_via.map(|v| v.as_str().to_string());
                result.message = Some(if dry_run {
                    format!("Dry run, nothing written: {message}")
                } else {
                    message
                });
                result.warnings = ctx.warnings;
                result.extra = ctx.extra;
                let mut files = Vec::new();
                for c in ctx.ws.into_changes() {
                    let before = c.original.clone().filter(|_| c.current.is_some());
                    let change = describe(c);
                    if let Some(before) = before {
                        let shape = crate::stats::edit_shape(&change.path, &before, &change.edits);
                        record.signature_changes += shape.signature_changes;
                        record.large_edits += shape.large_edits;
                        result.warnings.extend(shape.warnings);
                    }
                    files.push(change);
                }
                if !options.new_text {
                    for change in &mut files {
                        change.new_text = None;
                    }
                }
                result.files = Some(files);
                result
            }
        };
        let mut result = result;
        result.warnings.splice(0..0, args.notes.iter().cloned());
        self.finish(result, record)
    }

    /// Records the call and adds streak advice to a refusal.
    fn finish(&mut self, mut result: ToolResult, mut record: Record) -> ToolResult {
        record.ok = result.ok;
        record.error_kind = result.error_kind().map(|k| k.as_str().to_string());
        record.reason = result
            .error
            .as_ref()
            .and_then(|e| crate::stats::failure_reason(e.kind.as_str(), &e.diagnostics));
        record.matched_via = result.matched_via.clone();
        let streak = self.stats.record(&record);
        if streak >= STREAK_ADVICE_AT {
            if let Some(e) = result.error.as_mut() {
                e.message
                    .push_str(&streak_advice(&record.tool, record.path.as_deref(), streak));
            }
        }
        self.last_record = Some(record);
        result
    }

    fn stats_result(&self) -> ToolResult {
        let mut result = ToolResult::new("get_edit_stats");
        let summary = self.stats.summary();
        result.message = Some(summary.clone());
        result
            .extra
            .insert("summary".into(), Value::String(summary));
        let mut tools = Map::new();
        for (name, t) in &self.stats.tools {
            let mut v = serde_json::to_value(t).unwrap_or(Value::Null);
            if let Some(avg) = t.average_old_str_lines() {
                v["average_old_str_lines"] = json!((avg * 10.0).round() / 10.0);
            }
            tools.insert(name.clone(), v);
        }
        result.extra.insert("stats".into(), Value::Object(tools));
        result
    }

    /// The statistics of every call so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Replaces the statistics (hosts persisting them across restarts).
    pub fn load_stats(&mut self, stats: Stats) {
        self.stats = stats;
    }

    /// Folds in a record of an earlier call (the CLI replays its `--stats` file).
    pub fn replay(&mut self, record: &Record) {
        self.stats.record(record);
    }

    /// The record of the last call, for hosts that log them (None when the last call
    /// records nothing, as `get_edit_stats` does).
    pub fn last_record(&self) -> Option<&Record> {
        self.last_record.as_ref()
    }

    /// Whether a call cleared the statistics since the last time this was asked. A host
    /// that persists records (the CLI's `--stats`) drops them then, so that the reset
    /// outlives the process.
    pub fn take_reset(&mut self) -> bool {
        std::mem::take(&mut self.reset_pending)
    }
}

/// A tool's outcome after the syntax-regression guard: the one place every editing
/// call's changed files are checked, on their final texts, dry runs included (a dry run
/// computes what a commit would). Tools whose spec does not take `allow_unbalanced`
/// (`undo_edit`, which restores texts that existed) are exempt.
fn guarded(
    outcome: Result<Outcome, EditError>,
    spec: &crate::args::ToolSpec,
    ctx: &Ctx,
    args: &Args,
    cache: &mut crate::guard::balance::Cache,
) -> Result<Outcome, EditError> {
    match outcome {
        Ok(Outcome::Edited { message }) if spec.guarded() => {
            let allow = args.flag("allow_unbalanced");
            crate::guard::balance::check(&ctx.ws.changes(), allow, cache)?;
            Ok(Outcome::Edited { message })
        }
        other => other,
    }
}

/// Every tool's name, description and input schema (the MCP tool list).
pub fn tool_schemas() -> Value {
    Value::Array(
        TOOLS
            .iter()
            .map(|t| {
                json!({
                    "name": t.spec.name,
                    "description": t.spec.description,
                    "inputSchema": t.spec.schema(),
                    "annotations": t.spec.annotations.to_json(),
                })
            })
            .collect(),
    )
}

fn split_request(request: &Value) -> Result<(String, Value), EditError> {
    let Some(obj) = request.as_object() else {
        return Err(EditError::invalid(format!(
            "A request is a JSON object {{\"tool\": NAME, \"arguments\": {{...}}}}, not {}.",
            crate::args::describe_value(request)
        )));
    };
    let mut tool = None;
    let mut arguments = None;
    for (k, v) in obj {
        match k.as_str() {
            "tool" | "name" => tool = Some(v),
            "arguments" | "input" => arguments = Some(v.clone()),
            other => {
                return Err(EditError::invalid(format!(
                    "Unknown request field `{other}`. A request is {{\"tool\": NAME, \"arguments\": {{...}}}}; put the tool's arguments inside \"arguments\"."
                )))
            }
        }
    }
    let tool = match tool {
        Some(Value::String(s)) => s.clone(),
        _ => {
            return Err(EditError::invalid(format!(
                "The request names no tool. Send {{\"tool\": NAME, \"arguments\": {{...}}}} with NAME one of: {}.",
                tool_names().join(", ")
            )))
        }
    };
    Ok((tool, arguments.unwrap_or_else(|| Value::Object(Map::new()))))
}

fn arguments_object(arguments: &Value) -> Result<Map<String, Value>, EditError> {
    match arguments {
        Value::Object(m) => Ok(m.clone()),
        Value::Null => Ok(Map::new()),
        // Some clients send the arguments object as a JSON string.
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(m)) => Ok(m),
            Ok(other) => Err(EditError::invalid(format!(
                "`arguments` must be an object, not {}.",
                crate::args::describe_value(&other)
            ))),
            Err(e) => Err(malformed_json("The arguments", &e)),
        },
        other => Err(EditError::invalid(format!(
            "`arguments` must be an object, not {}.",
            crate::args::describe_value(other)
        ))),
    }
}

fn malformed_json(what: &str, e: &serde_json::Error) -> EditError {
    if e.is_eof() {
        EditError::invalid(format!(
            "{what} JSON ends early (line {}, column {}): it was probably cut off in transit. Nothing was changed. Send the complete call again; for a large edit, split it into smaller calls.",
            e.line(),
            e.column()
        ))
    } else {
        EditError::invalid(format!(
            "{what} is not valid JSON: {e}. Nothing was changed. Send {{\"tool\": NAME, \"arguments\": {{...}}}} with strings JSON-escaped."
        ))
    }
}

fn not_utf8(request: &[u8], e: &std::str::Utf8Error) -> EditError {
    let at = e.valid_up_to();
    let line = request[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    EditError::invalid(format!(
        "The request is not UTF-8: byte {at} (line {line}) starts an invalid sequence. Nothing was changed. Send the call as UTF-8 JSON, {{\"tool\": NAME, \"arguments\": {{...}}}}; convert text in another encoding to UTF-8 first (or write such characters as \\uXXXX escapes)."
    ))
    .with_diagnostics(serde_json::json!({"byte_offset": at, "line": line}))
}

fn tool_names() -> Vec<&'static str> {
    TOOLS.iter().map(|t| t.spec.name).collect()
}

fn unknown_tool(name: &str) -> EditError {
    let suggestion = closest(name, tool_names())
        .map(|n| format!(" Did you mean `{n}`?"))
        .unwrap_or_default();
    EditError::invalid(format!(
        "There is no tool `{name}`.{suggestion} Tools: {}.",
        tool_names().join(", ")
    ))
}

fn base_record(
    tool: &str,
    edits: bool,
    raw: &Map<String, Value>,
    args: Option<&Args>,
    roots: &[String],
) -> Record {
    let path = args
        .and_then(|a| a.opt_str("path"))
        .and_then(|p| crate::paths::resolve(p, roots).ok());
    let hints = args
        .map(|a| {
            HINTS
                .iter()
                // `brace_match: false` asks for nothing.
                .filter(|h| a.has(h) && a.value(h) != Some(&Value::Bool(false)))
                .map(|h| h.to_string())
                .collect()
        })
        .unwrap_or_default();
    let old_str_lines = args.and_then(|a| a.opt_str("old_str")).map(count_lines);
    let fingerprint = match args {
        Some(a) => {
            // Arguments in canonical spelling and sorted order, without dry_run.
            let canonical: Map<String, Value> = a
                .to_json()
                .into_iter()
                .filter(|(k, _)| k != "dry_run")
                .collect();
            version_of(&format!("{tool}\u{0}{}", Value::Object(canonical)))
        }
        None => String::new(),
    };
    Record {
        tool: tool.to_string(),
        path,
        ok: false,
        error_kind: None,
        matched_via: None,
        dry_run: args.is_some_and(|a| a.flag("dry_run"))
            || raw.get("dry_run") == Some(&Value::Bool(true)),
        edits,
        hints,
        old_str_lines,
        fingerprint,
        explanation: args.and_then(|a| a.explanation.clone()),
        reason: None,
        replace_all: args.is_some_and(|a| a.flag("replace_all")),
        signature_changes: 0,
        large_edits: 0,
    }
}

fn streak_advice(tool: &str, path: Option<&str>, streak: u32) -> String {
    let path = path.unwrap_or("this file");
    let alternative = match tool {
        "str_replace" | "multi_replace" => {
            "read_lines around the closest area and copy old_str exactly from it, or use replace_block {anchor, new_block} / apply_patch"
        }
        "insert" => "read_lines to find the line number and send insert with `line`",
        "apply_patch" => "fewer, smaller hunks, or str_replace with text copied from read_lines",
        _ => "read the current text with read_lines or get_document before the next attempt",
    };
    format!(
        " (This is the {} refused {tool} on {path} in a row: change approach: {alternative}.)",
        ordinal(streak)
    )
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The result of a project-wide reading tool ([`Outcome::Found`]).
fn found_result(tool: &str, found: Outcome, warnings: Vec<String>) -> ToolResult {
    let mut result = ToolResult::new(tool);
    if let Outcome::Found {
        message,
        content,
        extra,
    } = found
    {
        result.message = Some(message);
        result.content = content;
        result.extra = extra;
    }
    result.warnings = warnings;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A reader that remembers every path it was asked for.
    struct Recording(std::cell::RefCell<Vec<String>>);

    impl Files for Recording {
        fn read(&self, path: &str) -> crate::error::EditResult<Option<String>> {
            self.0.borrow_mut().push(path.to_string());
            Ok(Some("x = 1\n".to_string()))
        }
    }

    #[test]
    fn the_reader_sees_only_root_relative_paths_or_paths_inside_a_root() {
        let reader = Recording(Default::default());
        let mut session = Session::new();
        session.set_roots(vec!["/root".into(), "/lib".into()]);
        let patch = "*** Begin Patch\n*** Update File: /root/b.py\n*** Move to: /root/c.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n";
        let calls = [
            json!({"tool": "line_count", "arguments": {"path": "/root/./a.py"}}),
            json!({"tool": "line_count", "arguments": {"path": "/lib/x/../a.py"}}),
            json!({"tool": "apply_patch", "arguments": {"patch": patch}}),
            json!({"tool": "multi_replace", "arguments": {"replacements": [{"path": "/root/d.py", "old_str": "x = 1", "new_str": "x = 3"}]}}),
            json!({"tool": "line_count", "arguments": {"path": "/etc/passwd"}}),
            json!({"tool": "create_file", "arguments": {"path": "/elsewhere/e.py", "content": "y"}}),
        ];
        let oks: Vec<bool> = calls.iter().map(|c| session.call(c, &reader).ok).collect();
        assert_eq!(oks, [true, true, true, true, false, false]);
        let mut read = reader.0.borrow().clone();
        read.sort();
        read.dedup();
        assert_eq!(read, ["/lib/a.py", "a.py", "b.py", "c.py", "d.py"]);
    }

    #[test]
    fn stats_split_failure_reasons_and_count_every_anchored_hint() {
        let files = BTreeMap::from([(
            "a.py".to_string(),
            "def f():\n    x = 1\n    x = 1\n".to_string(),
        )]);
        let mut session = Session::new();
        let calls = [
            json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2", "function_hint": "nope"}}),
            json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2", "after_hint": "nowhere"}}),
            json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2", "occurrence": 5}}),
            json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2", "replace_all": true}}),
            json!({"tool": "insert", "arguments": {"path": "a.py", "after_content": "def f", "content": "    y = 0"}}),
        ];
        for c in &calls {
            session.call(c, &files);
        }
        let t = &session.stats().tools["str_replace"];
        let reasons: Vec<&str> = t.reasons.keys().map(String::as_str).collect();
        assert_eq!(
            reasons,
            [
                "function_scope_not_found",
                "landmark_not_found",
                "occurrence_out_of_range"
            ]
        );
        assert_eq!(t.replace_all.used, 1);
        let insert = &session.stats().tools["insert"];
        assert_eq!(insert.hints["after_content"].used, 1);
    }

    #[test]
    fn a_signature_change_is_warned_and_counted() {
        let files = BTreeMap::from([(
            "a.py".to_string(),
            "def f():\n    x = 1\n    y = 2\n    return x + y\n".to_string(),
        )]);
        let mut session = Session::new();
        let r = session.call(
            &json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "def f():", "new_str": "def f(z):"}}),
            &files,
        );
        assert!(r.ok, "{}", r.headline());
        assert!(
            r.warnings
                .iter()
                .any(|w| w.contains("signature of `f` (line 1)")),
            "{:?}",
            r.warnings
        );
        let t = &session.stats().tools["str_replace"];
        assert_eq!((t.signature_changes, t.large_edits), (1, 0));
    }

    #[test]
    fn a_reset_is_handed_to_the_host_once_and_stats_calls_leave_no_record() {
        let files = BTreeMap::from([("a.py".to_string(), "x = 1\n".to_string())]);
        let mut session = Session::new();
        let edit = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}});
        session.call(&edit, &files);
        assert!(session.last_record().is_some());
        session.call(&json!({"tool": "get_edit_stats", "arguments": {}}), &files);
        assert!(
            session.last_record().is_none(),
            "a host would log the edit twice"
        );
        assert!(!session.take_reset());
        session.call(
            &json!({"tool": "get_edit_stats", "arguments": {"reset": true}}),
            &files,
        );
        assert!(session.take_reset());
        assert!(!session.take_reset());
    }

    #[test]
    fn the_dry_run_option_holds_for_every_request_shape() {
        let files = BTreeMap::from([("a.py".to_string(), "x = 1\n".to_string())]);
        let options = CallOptions {
            dry_run: true,
            new_text: true,
        };
        let args = json!({"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"});
        let requests = [
            json!({"tool": "str_replace", "arguments": args.clone()}),
            json!({"tool": "str_replace", "arguments": args.to_string()}),
            json!({"name": "str_replace", "input": args.clone()}),
            json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2", "dry_run": false}}),
        ];
        for request in &requests {
            let result = Session::new().call_with(request, &files, &options);
            assert!(result.ok, "{request}");
            assert_eq!(result.dry_run, Some(true), "{request}");
            assert!(result.headline().starts_with("Dry run"));
        }
        // Reading tools ignore it; new_text: false drops the texts.
        let read = json!({"tool": "line_count", "arguments": {"path": "a.py"}});
        assert!(Session::new().call_with(&read, &files, &options).ok);
        let no_text = CallOptions {
            dry_run: false,
            new_text: false,
        };
        let r = Session::new().call_with(&requests[0], &files, &no_text);
        assert_eq!(r.files.unwrap()[0].new_text, None);
    }
}
