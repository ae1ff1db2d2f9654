//! The one entry point: a [`Session`] takes a tool call and a host's files and returns
//! a [`ToolResult`]. It parses the request, runs the tool on an in-memory workspace,
//! describes the changes, and keeps the statistics.

mod living;
mod rebase;
mod undo;

use crate::args::{closest, Args, ToolSpec};
use crate::changes::{describe, describe_with};
use crate::error::{EditError, ErrorKind};
use crate::result::{FileChange, ToolResult};
use crate::stats::{Record, Stats};
use crate::text::encoding::FileEncoding;
use crate::text::{count_lines, version_of};
use crate::tools::{self, Ctx, Outcome, StaleRead, Tool, TOOLS};
use crate::workspace::{Files, Workspace};
use living::Living;
use rebase::Done;
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
    /// The versions handed out and the applied calls (rebase, undo_edit).
    living: Living,
    /// The syntax guard's lexer states of the texts it checked last.
    guard: crate::guard::balance::Cache,
    /// The line indexes, hashes and maps of the strings calls met last.
    kept: std::sync::Arc<crate::text::Kept>,
    /// Hand each new text over apart from the result ([`Session::hand_texts`]).
    hands_texts: bool,
    /// The last call's new texts, by the changed file's path, until taken.
    texts: Vec<(String, std::sync::Arc<String>)>,
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
        self.texts.clear();
        let raw = match arguments_object(arguments) {
            Ok(m) => m,
            Err(e) => return ToolResult::failure(tool, e),
        };
        // Another harness's tool (tools::dialects) runs as the engine tool it maps to.
        let (engine_tool, raw, numbered) = match tools::dialects::translate(tool, &raw) {
            Some(Ok(t)) => (t.tool, t.args, t.numbered),
            Some(Err(e)) => return ToolResult::failure(tool, e),
            None => (tool, raw, false),
        };
        let Some(t) = tools::find(engine_tool) else {
            return ToolResult::failure(tool, unknown_tool(tool));
        };
        let mut result = self.run_tool(t, tool, raw, files, options);
        if numbered {
            if let (Some(content), Some(first)) = (result.content.as_mut(), result.start_line) {
                *content = tools::dialects::number_lines(content, first);
            }
        }
        result
    }

    fn run_tool(
        &mut self,
        t: &'static Tool,
        tool: &str,
        raw: Map<String, Value>,
        files: &dyn Files,
        options: &CallOptions,
    ) -> ToolResult {
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
        self.living.no_call();
        let encoding = match args.opt_str("encoding").map(FileEncoding::from_label) {
            Some(Err(e)) => return self.finish(ToolResult::failure(t.spec.name, e), record),
            Some(Ok(encoding)) => Some(encoding),
            None => None,
        };
        let mut ctx = Ctx::new(workspace(files, &self.roots, encoding));
        ctx.kept = std::sync::Arc::clone(&self.kept);
        let outcome = (t.run)(&mut ctx, &args);
        for (path, text) in ctx.ws.originals() {
            self.living.remember(&path, &text);
        }
        let name = t.spec.name;
        let result = match outcome {
            Err(e) => {
                let stale = std::mem::take(&mut ctx.stale);
                let run = (files, encoding, dry_run);
                self.refused(t, &args, run, e, &stale, options, &mut record)
            }
            Ok(Outcome::Stats { reset }) => {
                let result = self.stats_result();
                if reset {
                    self.stats.reset();
                    self.reset_pending = true;
                }
                return result;
            }
            Ok(Outcome::Undo { steps, path }) => match self.undo_names(path.as_deref()) {
                Err(e) => ToolResult::failure("undo_edit", e),
                Ok(()) => self.undo_result(steps, (files, encoding, dry_run), options, &mut record),
            },
            Ok(Outcome::Read(r)) => {
                let mut result = ToolResult::new(name);
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
                let changes = ctx.ws.changes();
                let deleted = rebase::deleted_encodings(&mut ctx.ws, &changes);
                // The overlay's references go, so that a new text nobody else holds
                // moves into the result instead of being copied.
                drop(ctx.ws);
                let done = match deleted {
                    Ok(deleted_encodings) => Done {
                        message,
                        warnings: ctx.warnings,
                        matched_via: ctx.matched_via,
                        extra: ctx.extra,
                        changes,
                        deleted_encodings,
                    },
                    Err(e) => return self.finish(ToolResult::failure(name, e), record),
                };
                if let Err(e) = self.check_balance(t.spec, &args, &done.changes) {
                    return self.finish(ToolResult::failure(name, e), record);
                }
                self.edited(name, dry_run, done, options, &mut record, true)
            }
        };
        let mut result = result;
        result.warnings.splice(0..0, args.notes.iter().cloned());
        self.finish(result, record)
    }

    /// A refusal, unless it is a stale version the session holds and the edit rebases
    /// onto the current text ([`rebase`]).
    #[allow(clippy::too_many_arguments)]
    fn refused(
        &mut self,
        t: &Tool,
        args: &Args,
        (files, encoding, dry_run): Run,
        e: EditError,
        stale: &[StaleRead],
        options: &CallOptions,
        record: &mut Record,
    ) -> ToolResult {
        let name = t.spec.name;
        if e.kind != ErrorKind::StaleBuffer || !t.spec.edits() {
            return ToolResult::failure(name, e);
        }
        let host = (files, self.roots.as_slice(), encoding);
        match rebase::rebase(t, args, host, &self.living, stale) {
            Some(Ok(done)) => match self.check_balance(t.spec, args, &done.changes) {
                Ok(()) => self.edited(name, dry_run, done, options, record, true),
                Err(e) => ToolResult::failure(name, e),
            },
            Some(Err(e)) => ToolResult::failure(name, e),
            None => ToolResult::failure(name, e),
        }
    }

    /// The syntax-regression guard ([`crate::guard::balance`]) on a call's final texts,
    /// whether the call ran on the current text or was rebased onto it: for the tools
    /// whose spec takes `allow_unbalanced` (every editing tool but undo_edit, which
    /// restores texts that existed).
    fn check_balance(
        &mut self,
        spec: &crate::args::ToolSpec,
        args: &Args,
        changes: &[crate::workspace::Changed],
    ) -> Result<(), EditError> {
        if !spec.guarded() {
            return Ok(());
        }
        crate::guard::balance::check(changes, args.flag("allow_unbalanced"), &mut self.guard)
    }

    /// `undo_edit`: the last `steps` applied calls taken back ([`undo`]).
    /// Refuses an undo_edit naming `path` when the newest applied call did not edit it.
    fn undo_names(&self, path: Option<&str>) -> Result<(), EditError> {
        let (Some(path), Some(last)) = (path, self.living.newest(1).first().copied()) else {
            return Ok(());
        };
        let edited: Vec<&str> = last
            .files
            .iter()
            .flat_map(|f| std::iter::once(f.path.as_str()).chain(f.moved_to.as_deref()))
            .collect();
        if edited.contains(&path) {
            return Ok(());
        }
        Err(EditError::invalid(format!(
            "The last applied edit ({}) changed {}, not {path}. Nothing was changed. undo_edit takes back the newest edit of the session: send it without path (or with one of those files) to take that one back.",
            last.tool,
            edited.join(", ")
        )))
    }

    fn undo_result(
        &mut self,
        steps: usize,
        (files, encoding, dry_run): Run,
        options: &CallOptions,
        record: &mut Record,
    ) -> ToolResult {
        let ws = workspace(files, &self.roots, encoding);
        let undo::Undone {
            message,
            changes,
            steps: each,
        } = match undo::undo(&self.living, steps, ws) {
            Ok(undone) => undone,
            Err(e) => return ToolResult::failure("undo_edit", e),
        };
        let restored: Vec<_> = changes
            .iter()
            .filter_map(|c| {
                let at = c.moved_to.as_deref().unwrap_or(&c.path);
                Some((at.to_string(), c.current.clone()?))
            })
            .collect();
        let mut extra = Map::new();
        extra.insert("undone".into(), undone_steps(each, options));
        let done = Done {
            message,
            warnings: Vec::new(),
            matched_via: None,
            extra,
            changes,
            deleted_encodings: Vec::new(),
        };
        let result = self.edited("undo_edit", dry_run, done, options, record, false);
        if !dry_run {
            self.living.undone(steps, &restored);
        }
        result
    }

    /// The result of an editing call that succeeded. A committed call that changed
    /// files is remembered for undo_edit when `undoable` (every editing call but
    /// undo_edit itself).
    fn edited(
        &mut self,
        name: &str,
        dry_run: bool,
        done: Done,
        options: &CallOptions,
        record: &mut Record,
        undoable: bool,
    ) -> ToolResult {
        let mut result = ToolResult::new(name);
        result.dry_run = Some(dry_run);
        result.matched_via = done.matched_via.map(|v| v.as_str().to_string());
        result.message = Some(if dry_run {
            format!("Dry run, nothing written: {}", done.message)
        } else {
            done.message
        });
        result.warnings = done.warnings;
        result.extra = done.extra;
        let recorded = !dry_run && undoable && !done.changes.is_empty() && self.living.is_on();
        // A deleted file's encoding, kept so that undo_edit restores its bytes.
        let mut kept = if recorded {
            done.changes.clone()
        } else {
            Vec::new()
        };
        for c in kept.iter_mut().filter(|c| c.current.is_none()) {
            let found = done.deleted_encodings.iter().find(|(p, _)| *p == c.path);
            c.encoding = found.map(|(_, e)| *e);
        }
        let mut files = Vec::new();
        for c in done.changes {
            let before = c.original.clone().filter(|_| c.current.is_some());
            if self.hands_texts {
                if let Some(text) = &c.current {
                    self.texts.push((c.path.clone(), text.clone()));
                }
            }
            // A kept original's line index gives the rows of its changes.
            let original = c.original.clone();
            let old_text = original.as_ref().and_then(|o| self.kept.indexed(o));
            let change = describe_with(c, options.new_text && !self.hands_texts, old_text.as_ref());
            if let Some(before) = before {
                let shape = crate::stats::edit_shape(&change.path, &before, &change.edits);
                record.signature_changes += shape.signature_changes;
                record.large_edits += shape.large_edits;
                result.warnings.extend(shape.warnings);
            }
            files.push(change);
        }
        if recorded {
            let versions: Vec<(&str, &str)> = files
                .iter()
                .filter_map(|f| {
                    let at = f.moved_to.as_deref().unwrap_or(&f.path);
                    Some((at, f.version.as_deref()?))
                })
                .collect();
            self.living.applied(name, kept, &versions);
        }
        result.files = Some(files);
        result
    }

    /// The host could not apply the last call's result: the session forgets that it
    /// landed (it leaves undo_edit's history, and the texts only it produced leave the
    /// version store; an undo that did not land puts its calls back). Returns whether
    /// the last call had anything to take back. Hosts call it on any failure to write
    /// or apply a result, so the history holds only what landed.
    pub fn discard_last(&mut self) -> bool {
        self.living.discard_last()
    }

    /// The files the last call changed, before and after, shared with the history (empty
    /// unless it was an editing call recorded for undo_edit): a host's kept buffers
    /// adopt the new texts ([`crate::Buffers::expect_call`]).
    pub fn last_applied(&self) -> &[crate::workspace::Changed] {
        self.living.last_applied()
    }

    /// Whether an editing call's results leave out `new_text` and the new texts are
    /// taken apart ([`Session::take_texts`]), as the session's own allocations: no
    /// copy of a text the history holds too. A host that writes them (the native
    /// server) keeps that allocation and hands it back on the next call
    /// ([`crate::Files::read_content_utf8`]), so the engine meets its own text again
    /// (its version and lexer state found by pointer). Off by default.
    pub fn hand_texts(&mut self, on: bool) {
        self.hands_texts = on;
    }

    /// The new texts of the last call's changed files (by the path of each result
    /// file: for a move, its source), when [`Session::hand_texts`] is on; taken once.
    pub fn take_texts(&mut self) -> Vec<(String, std::sync::Arc<String>)> {
        std::mem::take(&mut self.texts)
    }

    /// The versions held and the history of applied calls, as JSON, for a host that
    /// keeps them between processes (the CLI's `--state DIR`).
    pub fn living_state(&self) -> Value {
        self.living.to_json()
    }

    /// Whether the session keeps the versions it hands out and the calls it applied
    /// (for rebasing stale edits and for undo_edit), and the syntax guard's lexer
    /// states (re-lexing only around the next edit of a text). On by default. A host whose
    /// session ends with its one call (the CLI without `--state`) turns it off: kept
    /// texts would only hold a copy of each changed file alive while the result is
    /// built.
    pub fn keep_history(&mut self, keep: bool) {
        self.living.set_off(!keep);
        self.guard.set_off(!keep);
    }

    /// Restores what [`Session::living_state`] gave; false (and nothing changed) when
    /// the JSON is not that shape.
    pub fn load_living_state(&mut self, state: &Value) -> bool {
        match Living::from_json(state) {
            Some(l) => {
                self.living = l;
                true
            }
            None => false,
        }
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

/// The tool list of the MCP profile `profile` (tools::dialects::PROFILES: `full`, the
/// default, `minimal`, or a harness's name), narrowed to `picked` when it names any:
/// a picked name is looked up in the profile, then among the engine's tools, then among
/// every harness's tools. An unknown profile or name is an error naming the valid ones.
pub fn profile_schemas(profile: &str, picked: &[String]) -> Result<Value, String> {
    let p = tools::dialects::profile(profile).ok_or_else(|| {
        let names: Vec<&str> = tools::dialects::PROFILES.iter().map(|p| p.name).collect();
        format!(
            "unknown profile `{profile}`; profiles: {}",
            names.join(", ")
        )
    })?;
    let engine = |name: &str| TOOLS.iter().find(|t| t.spec.name == name).map(|t| t.spec);
    let mut specs: Vec<&'static ToolSpec> = if p.engine.is_empty() && p.name == "full" {
        TOOLS.iter().map(|t| t.spec).collect()
    } else {
        p.engine.iter().filter_map(|n| engine(n)).collect()
    };
    specs.extend(p.dialect_tools().map(|t| &t.spec));
    if !picked.is_empty() {
        let mut chosen = Vec::new();
        for name in picked {
            let found = specs
                .iter()
                .copied()
                .find(|s| s.name == name)
                .or_else(|| engine(name))
                .or_else(|| {
                    tools::dialects::TOOLS
                        .iter()
                        .map(|t| &t.spec)
                        .find(|s| s.name == name)
                });
            match found {
                Some(spec) => chosen.push(spec),
                None => {
                    return Err(format!(
                        "--tools: no tool `{name}`; tools: {}",
                        tool_names().join(", ")
                    ))
                }
            }
        }
        specs = chosen;
    }
    let keep = (p.name == "minimal").then_some(crate::args::COMPACT_KEEP);
    let dialect = |s: &ToolSpec| {
        tools::dialects::TOOLS
            .iter()
            .any(|t| std::ptr::eq(&t.spec, s))
    };
    Ok(Value::Array(
        specs
            .into_iter()
            .map(|s| match dialect(s) {
                true => schema_entry(s, s.description, s.schema()),
                false => schema_entry(s, tools::summary(s), s.listed_schema(keep)),
            })
            .collect(),
    ))
}

fn schema_entry(spec: &ToolSpec, description: &str, schema: Value) -> Value {
    json!({
        "name": spec.name,
        "description": description,
        "inputSchema": schema,
        "annotations": spec.annotations.to_json(),
    })
}

/// How a call runs: the host's files, the call's `encoding`, whether it is a dry run.
type Run<'a> = (&'a dyn Files, Option<FileEncoding>, bool);

/// A workspace over `files` for one call, with the call's `encoding` argument.
fn workspace<'f>(
    files: &'f dyn Files,
    roots: &'f [String],
    encoding: Option<FileEncoding>,
) -> Workspace<'f> {
    let mut ws = Workspace::new(files, roots);
    if let Some(encoding) = encoding {
        ws.set_encoding(encoding);
    }
    ws
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

pub(crate) fn not_utf8(request: &[u8], e: &std::str::Utf8Error) -> EditError {
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
    let dialect = || {
        let names = tools::dialects::TOOLS.iter().map(|t| t.spec.name);
        names.filter(|n| tools::dialects::find(n).is_some())
    };
    let suggestion = closest(name, tool_names().into_iter().chain(dialect()))
        .map(|n| format!(" Did you mean `{n}`?"))
        .unwrap_or_default();
    let mut others: Vec<&str> = dialect().collect();
    others.sort_unstable();
    others.dedup();
    EditError::invalid(format!(
        "There is no tool `{name}`.{suggestion} Tools: {}. Other agents' tool names are accepted too: {}.",
        tool_names().join(", "),
        others.join(", ")
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

/// undo_edit's `undone`: per call taken back, newest first, `{tool, files}` with each
/// file's change relative to the texts the step before leaves, for editor hosts that
/// apply one undo step per call (`js/host-policy` `undoSteps`). `new_text` follows the
/// host's option, as in `files`.
fn undone_steps(
    steps: Vec<(String, Vec<crate::workspace::Changed>)>,
    options: &CallOptions,
) -> Value {
    let steps = steps.into_iter().map(|(tool, changes)| {
        let files: Vec<FileChange> = changes
            .into_iter()
            .map(|c| describe(c, options.new_text))
            .collect();
        json!({"tool": tool, "files": files})
    });
    Value::Array(steps.collect())
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
    use std::sync::Arc;

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
    fn a_session_that_keeps_no_history_has_nothing_to_undo_or_rebase() {
        let files = BTreeMap::from([("a.py".to_string(), "x = 1\ny = 2\n".to_string())]);
        for keep in [true, false] {
            let mut session = Session::new();
            session.keep_history(keep);
            let edit = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 3"}});
            let r = session.call(&edit, &files);
            assert!(r.ok, "{}", r.headline());
            let new_text = r.files.as_ref().unwrap()[0].new_text.clone().unwrap();
            let now = BTreeMap::from([("a.py".to_string(), new_text)]);
            let undo = session.call(&json!({"tool": "undo_edit", "arguments": {}}), &now);
            assert_eq!(undo.ok, keep, "keep {keep}: {}", undo.headline());
        }
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

    /// A session handing texts apart: the result carries no `new_text`, the texts are
    /// taken once, by path, as the session's own allocations (the history's and the
    /// version store's: the next call meeting that allocation hashes nothing).
    #[test]
    fn handed_texts_come_apart_from_the_result_as_the_sessions_own() {
        let files = BTreeMap::from([("a.py".to_string(), Arc::new("x = 1\n".to_string()))]);
        let edit = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}});
        let mut session = Session::new();
        session.hand_texts(true);
        let r = session.call(&edit, &files);
        assert!(r.ok);
        assert_eq!(r.files.as_ref().unwrap()[0].new_text, None);
        let texts = session.take_texts();
        assert_eq!(texts.len(), 1);
        assert_eq!(
            (texts[0].0.as_str(), texts[0].1.as_str()),
            ("a.py", "x = 2\n")
        );
        let version = r.files.unwrap()[0].version.clone().unwrap();
        let held = session.living.text_of("a.py", &version).unwrap();
        assert!(
            Arc::ptr_eq(&held, &texts[0].1),
            "the version store's allocation"
        );
        assert!(session.take_texts().is_empty(), "taken once");
        // The next call meets it: the lookup of its version goes by pointer.
        let next = BTreeMap::from([("a.py".to_string(), Arc::clone(&texts[0].1))]);
        let again = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 2", "new_str": "x = 3"}});
        assert!(session.call(&again, &next).ok);
        assert_eq!(session.take_texts()[0].1.as_str(), "x = 3\n");
        let read = json!({"tool": "line_count", "arguments": {"path": "a.py"}});
        session.call(&read, &next);
        assert!(session.take_texts().is_empty(), "each call clears them");
    }

    #[test]
    fn a_result_the_host_could_not_apply_leaves_the_history_and_the_state_round_trips() {
        let mut files = BTreeMap::from([("a.py".to_string(), "x = 1\n".to_string())]);
        let edit = json!({"tool": "str_replace", "arguments": {"path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}});
        let undo = json!({"tool": "undo_edit", "arguments": {}});
        let mut session = Session::new();
        assert!(session.call(&edit, &files).ok);
        assert!(session.discard_last(), "the edit did not land");
        assert!(!session.discard_last(), "only once");
        assert_eq!(
            session.call(&undo, &files).error_kind(),
            Some(ErrorKind::NoChange)
        );
        // Landed this time; the state goes to a new session (the CLI's --state).
        let r = session.call(&edit, &files);
        files.insert("a.py".into(), r.files.unwrap()[0].new_text.clone().unwrap());
        let mut next = Session::new();
        assert!(next.load_living_state(&session.living_state()));
        let u = next.call(&undo, &files);
        assert!(u.ok, "{}", u.headline());
        assert_eq!(u.files.unwrap()[0].new_text.as_deref(), Some("x = 1\n"));
        // An undo the host could not apply puts the call back.
        assert!(next.discard_last());
        assert!(next.call(&undo, &files).ok);
        assert!(!next.load_living_state(&json!({"format": 99})));
    }

    /// The CLI refuses to commit two changes reaching one file (cli/src/commit.rs), so
    /// this is not a corpus case: the engine's undo alone.
    #[test]
    fn undo_moves_back_before_it_restores_a_file_deleted_and_moved_onto() {
        let files = BTreeMap::from([
            ("a.txt".to_string(), "a\n".to_string()),
            ("b.txt".to_string(), "b\n".to_string()),
        ]);
        let patch = "*** Begin Patch\n*** Delete File: a.txt\n*** Update File: b.txt\n*** Move to: a.txt\n@@\n-b\n+B\n*** End Patch\n";
        let mut session = Session::new();
        let r = session.call(
            &json!({"tool": "apply_patch", "arguments": {"patch": patch}}),
            &files,
        );
        assert!(r.ok, "{}", r.headline());
        let after = BTreeMap::from([("a.txt".to_string(), "B\n".to_string())]);
        let u = session.call(&json!({"tool": "undo_edit", "arguments": {}}), &after);
        assert!(u.ok, "{}", u.headline());
        let texts: BTreeMap<String, Option<String>> = u
            .files
            .unwrap()
            .into_iter()
            .map(|f| (f.path, f.new_text))
            .collect();
        assert_eq!(texts["a.txt"].as_deref(), Some("a\n"));
        assert_eq!(texts["b.txt"].as_deref(), Some("b\n"));
    }

    #[test]
    fn undo_restores_a_deleted_file_in_the_encoding_it_had() {
        // "é = 1\n" in windows-1252, a file the call decodes with its `encoding`.
        let files = BTreeMap::from([(
            "l.txt".to_string(),
            vec![0xe9, b' ', b'=', b' ', b'1', b'\n'],
        )]);
        let patch = "*** Begin Patch\n*** Delete File: l.txt\n*** End Patch\n";
        let mut session = Session::new();
        let call = json!({"tool": "apply_patch", "arguments": {"patch": patch, "encoding": "windows-1252"}});
        let r = session.call(&call, &files);
        assert!(r.ok, "{}", r.headline());
        let gone: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let u = session.call(&json!({"tool": "undo_edit", "arguments": {}}), &gone);
        assert!(u.ok, "{}", u.headline());
        let f = &u.files.unwrap()[0];
        assert_eq!(f.new_text.as_deref(), Some("é = 1\n"));
        assert_eq!(f.encoding.as_deref(), Some("windows-1252"));
    }
}
