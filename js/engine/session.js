// The package's public API over the raw wasm-bindgen module (Node or web build).
//
// The raw `Session` converts values and nothing else. This wrapper adds what only the JS
// side can do: surviving an engine panic. A panic (or any trap: out of memory, stack
// overflow) leaves the WebAssembly instance's memory untrustworthy. The Rust panic hook
// schedules wasm-bindgen's reinit (a fresh instance from the same compiled module on the
// next call) and throws an `Error` named `EnginePanic`; for other traps this wrapper
// schedules the reinit itself. Then it replaces its raw session with a new one, restores
// the statistics saved after the last successful call, and throws `EnginePanicError` to
// the caller. The same `Session` object keeps working; so do other `Session`s of the
// module, which notice the new instance (a generation counter) before their next call.

/** Thrown by `call` when the engine panicked. The call changed nothing. */
export class EnginePanicError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'EnginePanicError';
  }
}

/** Whether `e`, thrown by the raw module, means its instance is no longer usable. */
function isInstanceFailure(e) {
  return (
    (e instanceof Error && e.name === 'EnginePanic') ||
    e instanceof WebAssembly.RuntimeError ||
    e instanceof RangeError
  );
}

/**
 * Builds the public API over a raw wasm-bindgen module `raw` ({Session, toolSchemas,
 * hostRefusal, encodeText, resolvePath, ignoreFilter, ignoredFolders, ignoreFileSkipped,
 * serverInstructions, __scheduleRestart}). Returns {Session, toolSchemas, hostRefusal,
 * encodeText, resolvePath, ignoreFilter, ignoredFolders, ignoreFileSkipped,
 * serverInstructions, EnginePanicError}.
 */
export function createEngine(raw) {
  // Bumped on every instance failure; a Session whose raw object is older replaces it.
  let generation = 0;

  function restartAfter(e) {
    if (!(e instanceof Error && e.name === 'EnginePanic')) {
      try {
        raw.__scheduleRestart();
      } catch {
        // The next call reports whatever is still wrong.
      }
    }
    generation += 1;
  }

  function panicError(e) {
    const why = e instanceof Error ? e.message : String(e);
    return new EnginePanicError(
      `anchored-edit engine failed (a bug): ${why}. The call changed nothing; the engine was restarted with its statistics.`,
      { cause: e },
    );
  }

  class Session {
    #raw;
    #generation;
    #savedStats = null;
    #roots = null;

    constructor() {
      this.#raw = new raw.Session();
      this.#generation = generation;
    }

    /**
     * Runs one tool call. `request`: {tool, arguments} or its JSON text. `files`: the
     * host's reader {read(path)}: a string (text the host decoded), a Uint8Array (the
     * file's bytes, decoded by the engine; write changes back with encodeText),
     * undefined/null for no such file, or throw (with `kind`, e.g. "path_outside_root", to choose the refusal). `options`:
     * {newText: false} leaves files[].new_text out (hosts that apply `edits`);
     * {newText: 'unkept'} only for the files this session keeps (openBuffer);
     * {dryRun: true} makes an editing call a dry run whatever the request says. Returns
     * the result object; refusals are results with ok: false.
     */
    call(request, files, options) {
      return this.#run(() => {
        const result = this.#raw.call(request, files, options);
        this.#savedStats = this.#raw.statsJson();
        return result;
      });
    }

    /**
     * Declares the folders calls may reach (absolute paths; the first is the project
     * root). An absolute path inside the first root reaches `files.read` relative to
     * it; one inside another root as is; any other is refused `path_outside_root`.
     * Without roots only relative paths are accepted. Kept across engine restarts.
     */
    setRoots(roots) {
      const list = Array.from(roots ?? [], String);
      this.#run(() => {
        this.#raw.setRoots(list);
        this.#roots = list;
      });
    }

    /**
     * Keeps `text` as the content of `path` (named as in a tool call) inside the engine:
     * calls read it before `files.read`, so a large file crosses into wasm memory once,
     * not on every call. Send later changes with `editBuffer`. Kept texts are not kept
     * across an engine restart (after EnginePanicError): calls then read through the
     * reader again, which stays every host's fallback.
     */
    openBuffer(path, text) {
      this.#run(() => this.#raw.openBuffer(String(path), String(text)));
    }

    /**
     * Applies `edits` (a result's `files[].edits` shape: sorted, non-overlapping ranges
     * in the text before, UTF-16 columns) to the kept text of `path`. Returns false,
     * keeping the text, when `path` is not kept or the edits are out of order: then
     * `openBuffer` the whole text. A host that applied a call's edits sends the same
     * array.
     */
    editBuffer(path, edits) {
      return this.#run(() => this.#raw.editBuffer(String(path), edits));
    }

    /** Forgets the kept text of `path`; false when it was not kept. */
    closeBuffer(path) {
      return this.#run(() => this.#raw.closeBuffer(String(path)));
    }

    /**
     * The host could not apply the last call's result: the session forgets it landed,
     * so undo_edit's history holds only what landed (js/host-policy's `notApplied`).
     */
    discardLast() {
      return this.#run(() => this.#raw.discardLast());
    }

    /** The versions held and the undo history as JSON text (hand it back to `loadLivingState`). */
    livingStateJson() {
      return this.#run(() => this.#raw.livingStateJson());
    }

    /**
     * Whether the session keeps versions and applied calls (on by default). A host whose
     * session ends with its one call (`call` without `--state`) turns it off.
     */
    keepHistory(keep) {
      this.#run(() => this.#raw.keepHistory(Boolean(keep)));
    }

    /** Restores what `livingStateJson` gave; false (nothing changed) for any other text. */
    loadLivingState(json) {
      return this.#run(() => this.#raw.loadLivingState(String(json)));
    }

    /** The statistics as JSON text (persist it; hand it back to `loadStats`). */
    statsJson() {
      return this.#run(() => this.#raw.statsJson());
    }

    /** Replaces the statistics; throws an Error (keeping them) on a foreign text. */
    loadStats(json) {
      this.#run(() => {
        this.#raw.loadStats(json);
        this.#savedStats = json;
      });
    }

    /**
     * The statistics record of the last call as one JSON line (the native CLI's
     * `--stats` format), or undefined when the last call recorded nothing.
     */
    lastRecordJson() {
      return this.#run(() => this.#raw.lastRecordJson());
    }

    /** Folds in a record of an earlier call (a `--stats` line); false when it is not one. */
    replayRecord(json) {
      return this.#run(() => {
        const replayed = this.#raw.replayRecord(json);
        this.#savedStats = this.#raw.statsJson();
        return replayed;
      });
    }

    /** Frees the wasm memory now rather than at garbage collection. */
    free() {
      if (this.#generation === generation) this.#raw.free();
      this.#raw = null;
    }

    #run(f) {
      if (this.#raw === null) throw new Error('Session.free() was called on this session');
      if (this.#generation !== generation) this.#restart();
      try {
        return f();
      } catch (e) {
        if (!isInstanceFailure(e)) throw e;
        restartAfter(e);
        this.#restart();
        throw panicError(e);
      }
    }

    #restart() {
      // The old raw object belongs to the dead instance: never call it again (its
      // pointer would address the new instance's memory).
      this.#raw = new raw.Session();
      this.#generation = generation;
      if (this.#savedStats !== null) this.#raw.loadStats(this.#savedStats);
      if (this.#roots !== null) this.#raw.setRoots(this.#roots);
    }
  }

  /** Runs a stateless engine function, restarting the instance if it fails. */
  function stateless(f) {
    try {
      return f();
    } catch (e) {
      if (!isInstanceFailure(e)) throw e;
      restartAfter(e);
      throw panicError(e);
    }
  }

  /** Every tool's {name, description, inputSchema, annotations}: the MCP tool list. */
  function toolSchemas() {
    return stateless(() => raw.toolSchemas());
  }

  /**
   * The MCP tool list of a profile: 'full' (default), 'minimal', or a harness's name
   * ('claude-code', 'anthropic-text-editor', 'codex', 'cline', 'roo', 'aider', 'gemini',
   * 'copilot'); `tools` (an array of names) narrows it. Throws for an unknown name.
   */
  function profileSchemas(profile = 'full', tools = []) {
    return stateless(() => raw.profileSchemas(profile || 'full', (tools ?? []).join(',')));
  }

  /**
   * A host's own refusal (`write_failed`, `stale_buffer`, `edit_rejected`) as a result
   * object, worded by the engine so that every host says the same. Throws an Error for
   * an unknown kind or an incomplete `detail`.
   */
  function hostRefusal(tool, kind, detail) {
    return stateless(() => raw.hostRefusal(tool, kind, detail ?? {}));
  }

  /**
   * The bytes to write for a changed file: `text` (its `new_text`) in `encoding` (its
   * `encoding`; undefined: UTF-8), as a Uint8Array. Throws an Error for an unknown
   * encoding or a character it cannot hold.
   */
  function encodeText(text, encoding) {
    return stateless(() => raw.encodeText(text, encoding ?? undefined));
  }

  /**
   * The engine's path rule alone, for a host's own tools (open a file, save it): `path`
   * judged against `roots` (as `Session.setRoots`) → `{path}` (as a reader receives it)
   * or `{error: {kind, message}}`, worded for the agent.
   */
  function resolvePath(path, roots) {
    return stateless(() => raw.resolvePath(String(path ?? ''), Array.from(roots ?? [], String)));
  }

  /**
   * The engine's ignore rules over a plain listing (hidden names, `.ignore` and
   * `.gitignore` files read through `reader.read(path)`, folders left out with what is
   * under them): `paths` (root-relative) without the excluded ones, in order.
   */
  function ignoreFilter(paths, reader) {
    return stateless(() => raw.ignoreFilter(Array.from(paths, String), reader));
  }

  /** Of `folders` (root-relative), those the same rules leave out (a walker does not enter them). */
  function ignoredFolders(folders, reader) {
    return stateless(() => raw.ignoredFolders(Array.from(folders, String), reader));
  }

  /**
   * The warning of an ignore file a walking host skipped, in the CLI walker's words:
   * `why` is `link`, `not_regular`, `too_large` (`bytes` its length when known),
   * `changed`, `unreadable` or `not_utf8` (js/host-policy/listing.js).
   */
  function ignoreFileSkipped(path, why, bytes) {
    return stateless(() => raw.ignoreFileSkipped(String(path), String(why), typeof bytes === 'number' ? bytes : undefined));
  }

  /**
   * One decision of the write protocol (crate/src/protocol/json.rs): `op` with `args`
   * (an object) → the answer. For a host that writes files (the Node server's commit).
   */
  function writeProtocol(op, args) {
    return stateless(() => JSON.parse(raw.writeProtocol(String(op), JSON.stringify(args ?? {}))));
  }

  /** The paragraph an MCP server gives a model: when to use which tool. */
  function serverInstructions() {
    return stateless(() => raw.serverInstructions());
  }

  return { Session, toolSchemas, profileSchemas, hostRefusal, encodeText, resolvePath, ignoreFilter, ignoredFolders, ignoreFileSkipped, serverInstructions, writeProtocol, EnginePanicError };
}
