//! WebAssembly bindings: the engine as a JS class (compiled only for `wasm32`).
//!
//! This module converts values and nothing else; every behaviour (parsing, matching,
//! messages, diffs) stays in the engine, so a call gives the same result here as in
//! the CLI. The JS surface, documented in `docs/wasm.md`:
//!
//! - `new Session()`; `session.call(request, files, options)` → the result object.
//!   `request` is `{tool, arguments}` or its JSON text. An object goes through
//!   `JSON.stringify`, so it means exactly what the same call sent as JSON means to the
//!   CLI or an MCP server (`undefined` members are dropped, `toJSON` is honoured).
//!   `files` is the host's reader `{read(path)}` (or `undefined` for calls that read
//!   nothing). `read` returns the text, or `undefined`/`null` when there is no such
//!   file, or throws to refuse the path: see [`HostFiles`]. A reader that has bytes
//!   (a disk) returns the file's bytes as a `Uint8Array` instead of a string: the
//!   engine decodes them (UTF-8, a BOM, the call's `encoding`, a declaration; binary
//!   refused), and each changed file's `encoding` (absent: UTF-8) says how to write
//!   its `new_text` back: `encodeText(new_text, encoding)` gives the bytes. A string
//!   is a text the host decoded itself (an editor buffer), written back by the host
//!   as it writes its texts. `options` is optional;
//!   `{newText: false}` leaves the changed files' whole `new_text` out.
//! - The result is a plain JSON-compatible object (objects, arrays, strings, numbers;
//!   no `Map`s, no `BigInt`s), including every changed file's `new_text` and its
//!   `edits` with UTF-16 columns.
//! - `openBuffer(path, text)`, `editBuffer(path, edits)`, `closeBuffer(path)`: texts the
//!   session keeps ([`crate::Buffers`]) and reads before the reader, so a host sends a
//!   file once and then only its changes (a 4 MB text is not copied into wasm memory on
//!   every call). Kept texts are lost when the engine restarts after a panic; calls
//!   then read through the reader again.
//! - The reader may also have `list(folder)`, synchronous: every file under `folder`
//!   (`""` = the root; otherwise a root-relative folder without a trailing `/`) as an
//!   array of paths `read` accepts, with the host's ignore rules applied, in any order.
//!   Without it the project tools (`list_files`, `grep_project`, ...) refuse saying the
//!   host cannot list files. It may instead return `{paths, warnings}`: `warnings`
//!   (strings, e.g. from `ignoreFileSkipped`) join the call's warnings. See [`HostFiles`].
//! - `ignoreFilter(paths, reader)`: the engine's ignore rules for hosts whose own file
//!   search does not read them: returns `paths` (root-relative) without the hidden ones
//!   (a `.name` anywhere in the path), those ignored by the `.ignore` / `.gitignore`
//!   files of their folders (read through `reader.read(".../.gitignore")`; the reader
//!   returns `undefined` when there is none) and those under an ignored folder, in the
//!   given order. The same rules as the engine's in-memory readers and the CLI's walker.
//! - `ignoredFolders(folders, reader)`: the same rules for folders (those left out,
//!   with everything under them), so that a host walking a disk prunes them.
//! - `toolSchemas()`: the MCP tool list. `resolvePath(path, roots)`: the path rule
//!   alone, for a host's own tools (`{path}` or `{error}`). `statsJson()` / `loadStats(json)`: statistics
//!   persistence.
//!
//! Refusals are values (`ok: false`, `error.kind`); exceptions are reserved for host
//! programming errors (a `files` argument that is not a reader, unreadable persisted
//! statistics) and for engine panics.
//!
//! **Panics.** The engine is built never to panic, but if one happens the instance's
//! memory can no longer be trusted (wasm32 aborts; no destructor runs). The panic hook
//! logs the panic with `console_error_panic_hook`, schedules wasm-bindgen's reinit (the
//! next call into the module instantiates a fresh `WebAssembly.Instance` from the same
//! compiled module) and throws a JS `Error` named `EnginePanic` carrying the panic
//! message, which reaches the caller of `call`. Objects of the old instance are stale
//! after that; the package's JS wrapper (`js/engine/`) replaces its `Session` with a
//! fresh one and restores the statistics it saved after the last successful call.

use crate::error::{EditError, EditResult, ErrorKind};
use crate::result::ToolResult;
use crate::stats::Stats;
use crate::workspace::{Content, Files, NoFiles};
use js_sys::{Function, JsString, Reflect, Uint8Array, JSON};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::sync::Once;
use wasm_bindgen::prelude::*;

/// A conversation with the engine (its statistics live across calls).
#[wasm_bindgen]
pub struct Session {
    inner: crate::Session,
    /// Texts the host keeps here ([`crate::Buffers`]), read before its reader.
    buffers: crate::Buffers,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

#[wasm_bindgen]
impl Session {
    /// A session with empty statistics (`new Session()` in JS).
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        guarded(|| Session {
            inner: crate::Session::new(),
            buffers: crate::Buffers::default(),
        })
    }

    /// Runs one tool call. `request`: `{tool, arguments}` or its JSON text. `files`: the
    /// host's reader `{read(path)}`, or `undefined`/`null`. `options` (optional):
    /// `{newText: false}` leaves every `files[].new_text` out, for hosts that apply
    /// `edits` (it saves turning a whole new text into a JS string: 3–6 ms on 4 MB);
    /// `{newText: "unkept"}` leaves it out only for the files the session keeps
    /// (`openBuffer`): an editor host applies `edits` to its open buffers and writes
    /// the others from their `new_text`;
    /// `{dryRun: true}` makes an editing call a dry run whatever the request says.
    /// Returns the result object; throws a `TypeError` only when `files` is not a reader.
    pub fn call(
        &mut self,
        request: JsValue,
        files: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
        guarded(|| {
            let options_js = options;
            let options = call_options(&options_js);
            let reader = HostFiles::from_js(&files)?;
            let fallback: &dyn Files = match &reader {
                Some(reader) => reader,
                None => &NoFiles,
            };
            let mut buffers = std::mem::take(&mut self.buffers);
            let mut result = self.call_with(&request, &buffers.over(fallback), &options);
            // A host forwarding these edits back keeps the call's new text, uncopied.
            buffers.expect_call(&result, self.inner.last_applied());
            if new_text_unkept_only(&options_js) {
                leave_out_kept_texts(&mut result, &buffers);
            }
            self.buffers = buffers;
            to_js(&result)
        })
    }

    /// Keeps `text` as the content of `path` (a path as a tool call names it): calls read
    /// it before the reader, without copying it into wasm memory again. Send changes
    /// with `editBuffer`, or `openBuffer` again with the whole text. Throws an `Error`
    /// for a path a call would refuse (outside the roots).
    #[wasm_bindgen(js_name = openBuffer)]
    pub fn open_buffer(&mut self, path: &str, text: &JsString) -> Result<(), JsError> {
        guarded(|| {
            let key = self.buffer_key(path)?;
            self.buffers.open(key, string_from_js(text));
            Ok(())
        })
    }

    /// Applies `edits` to the kept text of `path`: an array in the shape of a result's
    /// `files[].edits` (`{range: {start: {row, column}, end}, text}`, ranges in the text
    /// before, UTF-16 columns, sorted, not overlapping). A host that applied a call's
    /// edits to its buffer sends the same array. Returns false, keeping the text, when
    /// `path` is not kept or the edits are out of order (then `openBuffer` the whole
    /// text); throws an `Error` when `edits` is not such an array.
    #[wasm_bindgen(js_name = editBuffer)]
    pub fn edit_buffer(&mut self, path: &str, edits: JsValue) -> Result<bool, JsError> {
        guarded(|| {
            let key = self.buffer_key(path)?;
            let edits: Vec<KeptEdit> = serde_wasm_bindgen::from_value(edits).map_err(|e| {
                JsError::new(&format!(
                    "editBuffer: edits must be an array of {{range: {{start: {{row, column}}, end: {{row, column}}}}, text}} ({e})"
                ))
            })?;
            let edits: Vec<crate::Edit> = edits.into_iter().map(KeptEdit::into_edit).collect();
            Ok(self.buffers.edit(&key, &edits))
        })
    }

    /// Forgets the kept text of `path` (calls read it through the reader again).
    /// Returns false when it was not kept.
    #[wasm_bindgen(js_name = closeBuffer)]
    pub fn close_buffer(&mut self, path: &str) -> bool {
        guarded(|| {
            self.buffer_key(path)
                .is_ok_and(|key| self.buffers.close(&key))
        })
    }

    /// Declares the folders calls may reach: absolute paths, the first being the
    /// project root. An absolute path argument inside the first root reaches the reader
    /// relative to it, one inside another root as is; any other is refused
    /// `path_outside_root`. Until this is called only relative paths are accepted.
    #[wasm_bindgen(js_name = setRoots)]
    pub fn set_roots(&mut self, roots: Vec<String>) {
        guarded(|| self.inner.set_roots(roots))
    }

    /// The host could not apply the last call's result: the session forgets that it
    /// landed (undo_edit's history holds only what landed). Returns whether the last
    /// call had anything to take back.
    #[wasm_bindgen(js_name = discardLast)]
    pub fn discard_last(&mut self) -> bool {
        guarded(|| self.inner.discard_last())
    }

    /// Whether the session keeps versions and applied calls (on by default). A host
    /// whose session ends with its one call (the `call` command without `--state`)
    /// turns it off; the engine then says so where it matters (`undo_edit`).
    #[wasm_bindgen(js_name = keepHistory)]
    pub fn keep_history(&mut self, keep: bool) {
        guarded(|| self.inner.keep_history(keep))
    }

    /// The versions held and the undo history as JSON text, for a host that keeps them
    /// across restarts (hand it back to `loadLivingState`).
    #[wasm_bindgen(js_name = livingStateJson)]
    pub fn living_state_json(&self) -> String {
        guarded(|| self.inner.living_state().to_string())
    }

    /// Restores what `livingStateJson` gave (`{"format": 1, "versions": [], "history":
    /// []}` empties it); false, and nothing changed, for any other text.
    #[wasm_bindgen(js_name = loadLivingState)]
    pub fn load_living_state(&mut self, json: &str) -> bool {
        guarded(|| {
            serde_json::from_str(json)
                .ok()
                .is_some_and(|v| self.inner.load_living_state(&v))
        })
    }

    /// The statistics as JSON text, to persist and hand back to `loadStats`.
    #[wasm_bindgen(js_name = statsJson)]
    pub fn stats_json(&self) -> String {
        guarded(|| serde_json::to_string(self.inner.stats()).unwrap_or_default())
    }

    /// Replaces the statistics with ones saved by `statsJson`. Throws an `Error` (and
    /// keeps the current statistics) when `json` is not such a text.
    #[wasm_bindgen(js_name = loadStats)]
    pub fn load_stats(&mut self, json: &str) -> Result<(), JsError> {
        guarded(|| {
            let stats: Stats = serde_json::from_str(json).map_err(|e| {
                JsError::new(&format!(
                    "loadStats: not statistics saved by statsJson ({e}); the session keeps its statistics."
                ))
            })?;
            self.inner.load_stats(stats);
            Ok(())
        })
    }

    /// The statistics record of the last call as JSON text (one line of the native
    /// CLI's `--stats` file), or `undefined` when the last call recorded nothing.
    #[wasm_bindgen(js_name = lastRecordJson)]
    pub fn last_record_json(&self) -> Option<String> {
        guarded(|| {
            self.inner
                .last_record()
                .and_then(|r| serde_json::to_string(r).ok())
        })
    }

    /// Folds in a record of an earlier call (a line of a `--stats` file). Returns false,
    /// changing nothing, when `json` is not a record.
    #[wasm_bindgen(js_name = replayRecord)]
    pub fn replay_record(&mut self, json: &str) -> bool {
        guarded(|| match serde_json::from_str::<crate::Record>(json) {
            Ok(record) => {
                self.inner.replay(&record);
                true
            }
            Err(_) => false,
        })
    }
}

impl Session {
    /// The path a call reads for `path` (normalised, resolved against the roots).
    fn buffer_key(&self, path: &str) -> Result<String, JsError> {
        crate::paths::resolve(path, self.inner.roots()).map_err(|e| JsError::new(&e.message))
    }

    fn call_with(
        &mut self,
        request: &JsValue,
        files: &dyn Files,
        options: &crate::CallOptions,
    ) -> ToolResult {
        match request_text(request) {
            Ok(text) => self.inner.call_json_with(&text, files, options),
            Err(e) => ToolResult::failure(&tool_name(request), e),
        }
    }
}

/// An edit as `editBuffer` receives it (a result's `edits` item).
#[derive(serde::Deserialize)]
struct KeptEdit {
    range: KeptRange,
    text: String,
}

#[derive(serde::Deserialize)]
struct KeptRange {
    start: crate::Point,
    end: crate::Point,
}

impl KeptEdit {
    fn into_edit(self) -> crate::Edit {
        crate::Edit {
            range: crate::Range {
                start: self.range.start,
                end: self.range.end,
            },
            text: self.text,
        }
    }
}

/// One decision of the write protocol (`crate::protocol::json`): `op` with its
/// arguments as JSON text, answered as JSON text. Throws an `Error` for arguments of the
/// wrong shape. The Node server's executor (`js/node-server/commit.js`) asks every
/// decision of a write through this.
#[wasm_bindgen(js_name = writeProtocol)]
pub fn write_protocol(op: &str, args: &str) -> Result<String, JsError> {
    guarded(|| {
        let args: serde_json::Value =
            serde_json::from_str(args).map_err(|e| JsError::new(&e.to_string()))?;
        crate::protocol::json::call(op, &args)
            .map(|v| v.to_string())
            .map_err(|e| JsError::new(&e))
    })
}

/// The bytes to write for a changed file: `new_text` in the result's `encoding`
/// (`undefined`/`null`: UTF-8), as a `Uint8Array`. Throws an `Error` for an unknown
/// encoding or a character it cannot hold (the engine refuses such calls itself, so
/// only texts a host made can do this).
#[wasm_bindgen(js_name = encodeText)]
pub fn encode_text_js(text: &str, encoding: Option<String>) -> Result<Vec<u8>, JsError> {
    guarded(|| {
        crate::text::encoding::encode_text(text, encoding.as_deref())
            .map_err(|e| JsError::new(&e.message))
    })
}

/// `ignoreFilter(paths, reader)`: see the module documentation. Throws a `TypeError`
/// when `reader` is not an object with `read(path)`.
#[wasm_bindgen(js_name = ignoreFilter)]
pub fn ignore_filter(paths: Vec<String>, reader: JsValue) -> Result<Vec<String>, JsValue> {
    guarded(|| {
        let Some(reader) = HostFiles::from_js(&reader)? else {
            return Err(js_sys::TypeError::new(
                "ignoreFilter(paths, reader): reader must be an object with a read(path) method",
            )
            .into());
        };
        let mut read = |p: &str| reader.read(p).ok().flatten();
        Ok(crate::listing::filter(paths, &mut read))
    })
}

/// `ignoredFolders(folders, reader)`: of `folders` (root-relative), those the engine's
/// ignore rules leave out (hidden, ignored, or under such a folder), in the given order,
/// reading ignore files as `ignoreFilter` does. For hosts that walk a disk: a folder
/// left out is not entered. Throws a `TypeError` when `reader` is not a reader.
#[wasm_bindgen(js_name = ignoredFolders)]
pub fn ignored_folders(folders: Vec<String>, reader: JsValue) -> Result<Vec<String>, JsValue> {
    guarded(|| {
        let Some(reader) = HostFiles::from_js(&reader)? else {
            return Err(js_sys::TypeError::new(
                "ignoredFolders(folders, reader): reader must be an object with a read(path) method",
            )
            .into());
        };
        let mut read = |p: &str| reader.read(p).ok().flatten();
        let mut rules = crate::listing::IgnoreRules::new(&mut read);
        Ok(folders
            .into_iter()
            .filter(|f| rules.excludes_folder(f))
            .collect())
    })
}

/// `ignoreFileSkipped(path, why, bytes)`: the warning of an ignore file a walking host
/// skipped, in the CLI walker's words ([`crate::listing::ignore_file_skipped`]). `why`:
/// `link`, `not_regular`, `too_large` (`bytes` its length when known), `changed`,
/// `unreadable` or `not_utf8`; another `why` throws a `TypeError`.
#[wasm_bindgen(js_name = ignoreFileSkipped)]
pub fn ignore_file_skipped(path: &str, why: &str, bytes: Option<f64>) -> Result<String, JsValue> {
    guarded(|| {
        let bytes = bytes
            .filter(|b| b.is_finite() && *b >= 0.0)
            .map(|b| b as u64);
        match crate::listing::IgnoreSkip::parse(why, bytes) {
            Some(why) => Ok(crate::listing::ignore_file_skipped(path, why)),
            None => Err(js_sys::TypeError::new(&format!(
                "ignoreFileSkipped(path, why, bytes): unknown why `{why}`; send link, not_regular, too_large, changed, unreadable or not_utf8"
            ))
            .into()),
        }
    })
}

/// Every tool's name, description and input schema: the MCP tool list.
#[wasm_bindgen(js_name = toolSchemas)]
pub fn tool_schemas() -> Result<JsValue, JsValue> {
    guarded(|| to_js(&crate::tool_schemas()))
}

/// The tool list of an MCP profile (`full`, `minimal` or a harness's name), narrowed to
/// the comma-separated `tools` when it names any ([`crate::profile_schemas`]). Throws an
/// Error naming the valid profiles or tools for an unknown one.
#[wasm_bindgen(js_name = profileSchemas)]
pub fn profile_schemas(profile: &str, tools: &str) -> Result<JsValue, JsValue> {
    guarded(|| {
        let picked: Vec<String> = tools
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        match crate::profile_schemas(profile, &picked) {
            Ok(list) => to_js(&list),
            Err(message) => Err(js_sys::Error::new(&message).into()),
        }
    })
}

/// The paragraph an MCP server gives a model at initialisation: when to use which tool
/// (the same text as the native `anchored-edit mcp`).
#[wasm_bindgen(js_name = serverInstructions)]
pub fn server_instructions() -> String {
    crate::SERVER_INSTRUCTIONS.to_string()
}

/// The engine's path rule ([`crate::paths::resolve`]) for a host's own tools (the
/// editor tools open, save and report files by path): `{path}`, the path as a reader
/// would receive it (root-relative, or absolute inside another root), or `{error:
/// {kind, message}}` (`path_outside_root`, `invalid_arguments`) worded for the agent.
/// `roots`: as for `Session.setRoots`.
#[wasm_bindgen(js_name = resolvePath)]
pub fn resolve_path(path: &str, roots: Vec<String>) -> Result<JsValue, JsValue> {
    guarded(|| {
        let roots = crate::paths::normalize_roots(&roots);
        let value = match crate::paths::resolve(path, &roots) {
            Ok(resolved) => serde_json::json!({ "path": resolved }),
            Err(e) => {
                serde_json::json!({ "error": { "kind": e.kind.as_str(), "message": e.message } })
            }
        };
        to_js(&value)
    })
}

/// Panics on purpose, so that tests can check what a caller sees after a panic and
/// that the JS wrapper recovers. Not part of the API.
#[doc(hidden)]
#[wasm_bindgen(js_name = __panicForTests)]
pub fn panic_for_tests(message: &str) {
    guarded(|| panic!("{message}"))
}

/// Schedules a fresh instance for the next call into the module. The JS wrapper calls
/// it after a trap that did not go through the panic hook (out of memory, stack
/// overflow), whose instance is as untrustworthy as after a panic. Touches no memory.
#[doc(hidden)]
#[wasm_bindgen(js_name = __scheduleRestart)]
pub fn schedule_restart() {
    wasm_bindgen::handler::schedule_reinit();
}

/// The request as JSON text: a string is taken as it is, anything else goes through
/// `JSON.stringify` (the same value a JSON transport would carry).
fn request_text(request: &JsValue) -> EditResult<String> {
    if let Some(text) = request.dyn_ref::<JsString>() {
        return Ok(string_from_js(text));
    }
    // The request's bytes (a host that read them: `call` on stdin): decoded strictly,
    // never into U+FFFD, refused as the native CLI refuses them.
    if let Some(bytes) = request.dyn_ref::<Uint8Array>() {
        let bytes = bytes.to_vec();
        return String::from_utf8(bytes)
            .map_err(|e| crate::session::not_utf8(e.as_bytes(), &e.utf8_error()));
    }
    if request.is_undefined() {
        return Ok("null".into());
    }
    match JSON::stringify(request) {
        // `JSON.stringify` gives `undefined` for a function or a symbol.
        Ok(s) if s.is_string() => Ok(string_from_js(&s)),
        Ok(_) => Ok("null".into()),
        Err(thrown) => Err(EditError::invalid(format!(
            "The request cannot be turned into JSON ({}). Send {{\"tool\": NAME, \"arguments\": {{...}}}} with plain JSON values.",
            describe_thrown(&thrown)
        ))),
    }
}

#[wasm_bindgen]
extern "C" {
    /// The platform's `TextEncoder` (Node ≥ 11, every browser, workers).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, source: &JsString, destination: &Uint8Array) -> JsValue;
}

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// A JS string as a Rust `String`, encoded by `TextEncoder.encodeInto` straight into
/// wasm memory. wasm-bindgen's own conversion copies ASCII one UTF-16 unit at a time in
/// a JS loop first, which costs ~10 ms on a 4 MB file; this costs about one `memcpy`.
/// Lone surrogates become U+FFFD, as with wasm-bindgen's conversion.
fn string_from_js(s: &JsString) -> String {
    let units = s.length() as usize;
    // Exact for ASCII; more room is made when a character needs more than one byte.
    let mut buf: Vec<u8> = Vec::with_capacity(units + 8);
    let mut read = 0usize;
    while read < units {
        let rest = if read == 0 {
            s.clone()
        } else {
            s.substring(read as u32, units as u32)
        };
        let spare = buf.capacity() - buf.len();
        // SAFETY: the view covers the vector's spare capacity, which nothing else uses;
        // encodeInto writes at most `spare` bytes and allocates no wasm memory, so the
        // view stays valid until it returns.
        let view = unsafe { Uint8Array::view_mut_raw(buf.as_mut_ptr().add(buf.len()), spare) };
        let progress = ENCODER.with(|e| e.encode_into(&rest, &view));
        let field = |name: &str| {
            Reflect::get(&progress, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0) as usize
        };
        let (units_read, written) = (field("read"), field("written"));
        if written > spare || (units_read == 0 && spare >= 4) {
            // Not what encodeInto promises: fall back to wasm-bindgen's conversion.
            return s.as_string().unwrap_or_default();
        }
        // SAFETY: encodeInto initialised these `written` bytes.
        unsafe { buf.set_len(buf.len() + written) };
        read += units_read;
        // At most 3 bytes per remaining UTF-16 unit (4 per surrogate pair).
        buf.reserve((units - read) * 3);
    }
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Whether `options` (of `call`) is `{newText: "unkept"}`: `new_text` only for the
/// changed files the session does not keep.
fn new_text_unkept_only(options: &JsValue) -> bool {
    options.is_object()
        && Reflect::get(options, &JsValue::from_str("newText"))
            .ok()
            .and_then(|v| v.as_string())
            .is_some_and(|v| v == "unkept")
}

/// Leaves out the `new_text` of each changed file whose path the session keeps and that
/// stays where it is, in its text (not deleted, not moved, no other encoding): the host
/// applies its `edits` to the buffer it keeps in step with the session.
fn leave_out_kept_texts(result: &mut ToolResult, buffers: &crate::Buffers) {
    for f in result.files.iter_mut().flatten() {
        if !f.deleted
            && f.moved_to.is_none()
            && f.encoding.is_none()
            && buffers.get(&f.path).is_some()
        {
            f.new_text = None;
        }
    }
}

/// Whether `options` (of `call`) leaves `newText` on: anything but `{newText: false}`.
/// `{newText, dryRun}` as [`crate::CallOptions`]; anything else gives the defaults.
fn call_options(options: &JsValue) -> crate::CallOptions {
    let mut out = crate::CallOptions::default();
    if options.is_object() {
        let member = |name: &str| Reflect::get(options, &JsValue::from_str(name)).ok();
        out.new_text = member("newText") != Some(JsValue::FALSE);
        out.dry_run = member("dryRun") == Some(JsValue::TRUE);
    }
    out
}

/// The result of a host's own refusal, worded by the engine for every host.
/// `kind`: `"write_failed"` (`detail.why`), `"stale_buffer"` (`detail.path`,
/// `detail.when`: `"after_read"` | `"during_review"` | `"since_diff"`) or
/// `"edit_rejected"` (`detail.reason`: `"discarded"` | `"timeout"` | `"cancelled"`,
/// `detail.seconds` with `"timeout"`) or `"path_outside_root"` (`detail.path`,
/// `detail.why`: `"not_under_root"` | `"link_leads_out"` | `"climbs_out"` |
/// `"too_many_links"` | `"link_on_the_way"` | `"moved_while_read"` | `"became_link"` |
/// `"unresolvable"` with `detail.error`). Throws an `Error` for any other kind or detail.
#[wasm_bindgen(js_name = hostRefusal)]
pub fn host_refusal_js(tool: &str, kind: &str, detail: JsValue) -> Result<JsValue, JsValue> {
    guarded(|| {
        let text = |name: &str| {
            Reflect::get(&detail, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_string())
        };
        let refusal = match kind {
            "write_failed" => Some(crate::HostRefusal::WriteFailed {
                why: text("why").unwrap_or_else(|| "no reason given".to_string()),
            }),
            "stale_buffer" => text("path").and_then(|path| {
                let when = text("when").map_or(Some(crate::StaleWhen::AfterRead), |w| {
                    crate::StaleWhen::parse(&w)
                })?;
                Some(crate::HostRefusal::Stale { path, when })
            }),
            "edit_rejected" => match text("reason").as_deref() {
                Some("discarded") => Some(crate::Rejection::Discarded),
                Some("cancelled") => Some(crate::Rejection::Cancelled),
                Some("timeout") => Reflect::get(&detail, &JsValue::from_str("seconds"))
                    .ok()
                    .and_then(|v| v.as_f64())
                    .map(|seconds| crate::Rejection::TimedOut { seconds }),
                _ => None,
            }
            .map(crate::HostRefusal::Rejected),
            "path_outside_root" => text("path").and_then(|path| {
                let why = crate::OutsideWhy::parse(&text("why")?, text("error"))?;
                Some(crate::HostRefusal::OutsideRoot { path, why })
            }),
            _ => None,
        };
        match refusal {
            Some(r) => to_js(&crate::host_refusal(tool, &r)),
            None => Err(JsError::new(&format!(
                "hostRefusal: unknown kind `{kind}` or incomplete detail; see the function's documentation."
            ))
            .into()),
        }
    })
}

/// The `tool` member of a request object, for refusals made before the engine sees it.
fn tool_name(request: &JsValue) -> String {
    if !request.is_object() {
        return String::new();
    }
    Reflect::get(request, &JsValue::from_str("tool"))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// A JSON-compatible JS value: plain objects (not `Map`s), numbers (not `BigInt`s).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(JsValue::from)
}

/// The host's reader, seen by the engine as [`Files`].
///
/// `read(path)` gets the normalised path and returns:
/// - a string: the file's text, decoded by the host (written back by it);
/// - a `Uint8Array`: the file's bytes, decoded by the engine ([`Files::read_content`]);
/// - `undefined` or `null`: there is no such file (`file_not_found` where one is needed;
///   `create_file` creates it);
/// - anything else: refused as `invalid_arguments` (the reader must return text);
///
/// or throws to refuse the path. A thrown value whose `kind` is one of the engine's
/// error kinds (e.g. `{kind: "path_outside_root", message: "…"}`) becomes that refusal,
/// with the thrown `message` as the message the agent reads, so write it for an LLM.
/// Any other thrown value becomes `invalid_arguments` "The editor could not read
/// `path`: <its message>". Either way nothing is changed.
///
/// `list(folder)`, when the reader has it, returns an array of strings (see the module
/// documentation), or `{paths, warnings}` (arrays of strings: the warnings of the
/// listing, e.g. an ignore file skipped, join the call's); `undefined`/`null` means
/// "cannot list" like a reader without it, a throw refuses as for `read`, and anything
/// else is refused `invalid_arguments`.
///
/// `identity(path)`, when the reader has it, returns a string naming the file (equal
/// for two names of one file: a link, a hard link) or `undefined`; the engine then keeps
/// one text per file (`Files::identity`).
pub struct HostFiles {
    this: JsValue,
    read: Function,
    list: Option<Function>,
    identity: Option<Function>,
    /// The warnings of the last `list` (`{paths, warnings}`), taken once.
    list_warnings: std::cell::RefCell<Vec<String>>,
}

impl HostFiles {
    /// `Ok(None)` for `undefined`/`null`; a `TypeError` for anything without `read`.
    fn from_js(files: &JsValue) -> Result<Option<HostFiles>, JsValue> {
        if files.is_undefined() || files.is_null() {
            return Ok(None);
        }
        let read = if files.is_object() {
            Reflect::get(files, &JsValue::from_str("read")).ok()
        } else {
            None
        };
        match read.and_then(|r| r.dyn_into::<Function>().ok()) {
            Some(read) => Ok(Some(HostFiles {
                this: files.clone(),
                read,
                list: Reflect::get(files, &JsValue::from_str("list"))
                    .ok()
                    .and_then(|l| l.dyn_into::<Function>().ok()),
                identity: Reflect::get(files, &JsValue::from_str("identity"))
                    .ok()
                    .and_then(|l| l.dyn_into::<Function>().ok()),
                list_warnings: Default::default(),
            })),
            None => Err(js_sys::TypeError::new(
                "Session.call(request, files): files must be an object with a read(path) method, or undefined",
            )
            .into()),
        }
    }
}

impl Files for HostFiles {
    fn identity(&self, path: &str) -> EditResult<Option<String>> {
        let Some(identity) = &self.identity else {
            return Ok(None);
        };
        match identity.call1(&self.this, &JsValue::from_str(path)) {
            Ok(v) => Ok(v.as_string()),
            Err(thrown) => Err(host_refusal(path, &thrown)),
        }
    }

    fn read(&self, path: &str) -> EditResult<Option<String>> {
        match self.read_content(path)? {
            Some(Content::Text(text)) => Ok(Some(text.as_ref().clone())),
            Some(Content::Bytes(bytes)) => Ok(Some(
                crate::text::encoding::decode_bytes(path, &bytes, None)?.0,
            )),
            None => Ok(None),
        }
    }

    fn read_content(&self, path: &str) -> EditResult<Option<Content>> {
        match self.read.call1(&self.this, &JsValue::from_str(path)) {
            Ok(v) => {
                if let Some(text) = v.dyn_ref::<JsString>() {
                    Ok(Some(Content::Text(Arc::new(string_from_js(text)))))
                } else if let Some(bytes) = v.dyn_ref::<Uint8Array>() {
                    Ok(Some(Content::Bytes(Arc::new(bytes.to_vec()))))
                } else if v.is_undefined() || v.is_null() {
                    Ok(None)
                } else {
                    Err(EditError::invalid(format!(
                        "The editor could not read `{path}`: its reader returned {}, not text or bytes.",
                        js_type(&v)
                    )))
                }
            }
            Err(thrown) => Err(host_refusal(path, &thrown)),
        }
    }

    fn list(&self, folder: &str) -> EditResult<Option<Vec<String>>> {
        let Some(list) = &self.list else {
            return Ok(None);
        };
        let shown = if folder.is_empty() {
            "the root"
        } else {
            folder
        };
        let v = match list.call1(&self.this, &JsValue::from_str(folder)) {
            Ok(v) => v,
            Err(thrown) => return Err(host_refusal(shown, &thrown)),
        };
        if v.is_undefined() || v.is_null() {
            return Ok(None);
        }
        let not_paths = || {
            EditError::invalid(format!(
                "The editor could not list `{shown}`: its reader's list returned {}, not an array of paths.",
                js_type(&v)
            ))
        };
        let strings = |v: &JsValue| -> EditResult<Vec<String>> {
            let array = v.dyn_ref::<js_sys::Array>().ok_or_else(not_paths)?;
            array
                .iter()
                .map(|item| item.as_string().ok_or_else(not_paths))
                .collect()
        };
        if v.is_array() {
            return Ok(Some(strings(&v)?));
        }
        // `{paths, warnings}`.
        let member = |name: &str| Reflect::get(&v, &JsValue::from_str(name)).ok();
        let paths = strings(&member("paths").ok_or_else(not_paths)?)?;
        if let Some(w) = member("warnings").filter(|w| !w.is_undefined()) {
            *self.list_warnings.borrow_mut() = strings(&w)?;
        }
        Ok(Some(paths))
    }

    fn take_list_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.list_warnings.borrow_mut())
    }
}

/// What a thrown value from `read` means (see [`HostFiles`]): one with a known `kind` is
/// that refusal (its `message`, and its `diagnostics` object when it has one).
fn host_refusal(path: &str, thrown: &JsValue) -> EditError {
    // A panic in an engine call the reader made (re-entrancy) has already doomed this
    // instance: let it propagate to the outer caller instead of refusing the read.
    if is_engine_panic(thrown) {
        wasm_bindgen::throw_val(thrown.clone());
    }
    let message = describe_thrown(thrown);
    let kind = if thrown.is_object() {
        Reflect::get(thrown, &JsValue::from_str("kind"))
            .ok()
            .and_then(|k| k.as_string())
            .and_then(|k| ErrorKind::parse(&k))
    } else {
        None
    };
    // A refusal may carry its facts (`diagnostics`, e.g. a file's size over the limit).
    let diagnostics = kind
        .and_then(|_| Reflect::get(thrown, &JsValue::from_str("diagnostics")).ok())
        .filter(|d| d.is_object())
        .and_then(|d| serde_wasm_bindgen::from_value::<serde_json::Value>(d).ok());
    match (kind, diagnostics) {
        (Some(kind), Some(d)) => EditError::new(kind, message).with_diagnostics(d),
        (Some(kind), None) => EditError::new(kind, message),
        (None, _) => EditError::invalid(format!("The editor could not read `{path}`: {message}")),
    }
}

fn is_engine_panic(thrown: &JsValue) -> bool {
    thrown.is_instance_of::<js_sys::Error>()
        && thrown
            .dyn_ref::<js_sys::Error>()
            .is_some_and(|e| e.name() == PANIC_ERROR_NAME)
}

/// A thrown value's `message` (or the value itself when it is a string).
fn describe_thrown(thrown: &JsValue) -> String {
    if let Some(s) = thrown.as_string() {
        return s;
    }
    if thrown.is_object() {
        if let Some(m) = Reflect::get(thrown, &JsValue::from_str("message"))
            .ok()
            .and_then(|m| m.as_string())
        {
            return m;
        }
    }
    format!("an exception ({})", js_type(thrown))
}

fn js_type(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if js_sys::Array::is_array(v) {
        "an array".into()
    } else {
        v.js_typeof().as_string().unwrap_or_default()
    }
}

/// The `name` of the `Error` a panic throws to JS.
const PANIC_ERROR_NAME: &str = "EnginePanic";

/// How many binding calls are running (0 or 1: JS is single-threaded, but a host's
/// `read` may re-enter). The panic hook takes over only inside one; other panics (a
/// failing assertion in a wasm test) go to the hook that was installed before.
static IN_BINDING: AtomicUsize = AtomicUsize::new(0);

/// Runs one binding entry point with the panic hook armed.
fn guarded<T>(f: impl FnOnce() -> T) -> T {
    install_panic_hook();
    IN_BINDING.fetch_add(1, Ordering::Relaxed);
    let out = f();
    // Not reached after a panic; the instance is replaced then anyway.
    IN_BINDING.fetch_sub(1, Ordering::Relaxed);
    out
}

fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_BINDING.load(Ordering::Relaxed) > 0 {
                on_panic(info)
            } else {
                previous(info)
            }
        }));
    });
}

/// Logs the panic, schedules a fresh instance for the next call, and throws the panic
/// to the JS caller as an `Error` named `EnginePanic` (see the module docs).
fn on_panic(info: &std::panic::PanicHookInfo<'_>) {
    console_error_panic_hook::hook(info);
    wasm_bindgen::handler::schedule_reinit();
    let error = js_sys::Error::new(&format!("anchored-edit engine panicked: {info}"));
    error.set_name(PANIC_ERROR_NAME);
    wasm_bindgen::throw_val(error.into());
}
