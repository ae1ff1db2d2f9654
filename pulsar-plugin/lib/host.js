'use strict';
// The editor host: an engine session, the MCP server (js/mcp-host), and what happens to
// each call's result in the editor. No Pulsar API is used here: the workspace (buffers,
// project folders, disk) and the settings are passed in, so the whole host runs in plain
// Node against real TextBuffers (test/).
//
// - Every call goes through a recording session: it hands the engine a reader that
//   remembers each text the engine read, keyed by the result's `files` array, so that the
//   apply step (js/mcp-host's `apply(files)`) knows exactly which texts the change was
//   computed on and refuses with `stale_buffer` when one changed since.
// - A successful dry run becomes a preview (ReviewQueue) the user can apply or discard.
// - In review mode, `apply` holds the agent's edit until the user decides (or the review
//   timeout passes); the agent's call waits and gets the decision as its result.
// - Statistics are the engine's (`statsJson`/`loadStats`) plus the editor's own counts of
//   previews and reviews; `serialize()` returns both for Pulsar's package state.

const { EventEmitter } = require('events');
const { applyGroups } = require('./apply');
const { ReviewQueue } = require('./review');
const { policy } = require('./policy');
const { KeptBuffers } = require('./kept-buffers');

class Host extends EventEmitter {
  /**
   * `engine`: {Session, toolSchemas}; `mcpHost`: js/mcp-host's exports; `workspace`:
   * lib/workspace.js; `settings()`: {reviewMode, reviewTimeoutMs, saveAfterEdit};
   * `state`: what `serialize()` returned last time (or undefined); `editorTools`: the
   * editor tools (js/host-policy/editor-tools.js over lib/editor.js), published beside
   * the engine's tools. `openBuffers()` (optional): the TextBuffers open in editors;
   * with it the session keeps their texts (lib/kept-buffers.js) instead of reading them
   * whole on every call.
   */
  constructor({ engine, mcpHost, workspace, settings, state, editorTools, openBuffers, name = 'anchored-edit', version = '0.0.0' }) {
    super();
    this.engine = engine;
    this.mcpHost = mcpHost;
    this.workspace = workspace;
    this.editorTools = editorTools;
    this.settings = settings;
    this.name = name;
    this.version = version;
    this.server = null;
    this.lastEdit = null;
    this.session = new engine.Session();
    this.kept =
      typeof openBuffers === 'function' && typeof this.session.openBuffer === 'function' && typeof engine.resolvePath === 'function'
        ? new KeptBuffers({ session: this.session, workspace, openBuffers, resolvePath: engine.resolvePath })
        : null;
    if (state && typeof state.statsJson === 'string') {
      try {
        this.session.loadStats(state.statsJson);
      } catch (e) {
        this.loadWarning = `The saved edit statistics could not be read (${e.message}); they start from zero.`;
      }
    }
    // Which tools edit: the engine's annotations (js/host-policy), never guessed.
    this.editingTools = policy().editingTools(engine.toolSchemas());
    /** result.files → {tool, arguments, result, reads}. */
    this.entries = new WeakMap();
    this.queue = new ReviewQueue({
      commit: (item) =>
        this.commit(item.result, item.reads, item.kind === 'review' ? 'during_review' : 'since_diff', item.tool),
    });
    this.queue.loadCounts(state && state.hostCounts);
    this.queue.on('change', (current, settled) => this.emit('queue', current, settled));
    this.recorder = this.#recordingSession();
    this.runner = null;
  }

  /** The Session js/mcp-host calls: the engine's, with each call's reads recorded. */
  #recordingSession() {
    const host = this;
    return {
      call(request, files, options) {
        const reads = new Map();
        const reader = files && {
          read(p) {
            const text = files.read(p);
            reads.set(p, typeof text === 'string' || text instanceof Uint8Array ? text : null);
            return text;
          },
        };
        // The project listing (contract 1) passes through; what a project tool then reads is recorded above.
        if (files && typeof files.list === 'function') reader.list = (folder) => files.list(folder);
        // The engine's path rule over the project folders (the first is the root of
        // relative paths); guarded until every engine build has setRoots.
        let roots = null;
        if (typeof host.session.setRoots === 'function' && typeof host.workspace.roots === 'function') {
          roots = host.workspace.roots().map((r) => require('path').resolve(r));
          host.session.setRoots(roots);
        }
        // Open buffers are read inside the engine (kept, changes forwarded); their results
        // carry edits, not a second copy of the text (lib/kept-buffers.js).
        const kept = host.kept && roots ? host.kept.sync(roots) : null;
        const callOptions = kept && (options === undefined || options.newText === undefined) ? { ...options, newText: 'unkept' } : options;
        let result;
        try {
          result = host.session.call(request, reader, callOptions);
        } catch (e) {
          if (host.kept && e && e.name === 'EnginePanicError') host.kept.reset();
          host.#noteEdit(request, { outcome: 'error', message: e.message });
          throw e;
        }
        if (kept) KeptBuffers.noteReads(result, kept, reads);
        host.#observe(request, result, reads);
        return result;
      },
      statsJson: () => host.session.statsJson(),
      loadStats: (json) => host.session.loadStats(json),
      // js/mcp-host tells the session when a result did not land (js/host-policy).
      discardLast: () => typeof host.session.discardLast === 'function' && host.session.discardLast(),
    };
  }

  #observe(request, result, reads) {
    // The engine's canonical name (a request may spell it `str-replace`, or send `name`).
    const tool = (result && result.tool) || (request && request.tool);
    if (!this.editingTools.has(tool)) return;
    const entry = { tool, arguments: request.arguments, result, reads };
    if (Array.isArray(result.files)) this.entries.set(result.files, entry);
    if (!result.ok) {
      this.#noteEdit(request, { outcome: 'refused', kind: result.error && result.error.kind, message: result.error && result.error.message });
    } else if (result.dry_run === true) {
      this.#noteEdit(request, { outcome: 'previewed', message: result.message });
      // Whether a dry run is shown: js/host-policy's rule (whether a result is written is
      // js/mcp-host's `changesToWrite`, which calls apply() below).
      if (policy().changesToPreview(result, this.editingTools).length > 0) {
        this.queue.showDryRun(entry);
        this.emit('preview', this.queue.preview);
      }
    }
    // Committed edits are noted once applied (or refused while applying): see apply().
  }

  #noteEdit(request, fields) {
    const args = request && request.arguments;
    this.lastEdit = {
      tool: request && request.tool,
      path: args && typeof args === 'object' ? args.path ?? args.file_path ?? args.filePath ?? null : null,
      at: Date.now(),
      ...fields,
    };
    this.emit('result', this.lastEdit);
  }

  /**
   * js/mcp-host's `apply`: runs after the engine computed a committed edit. In review mode
   * it waits for the user's decision; otherwise it applies at once.
   */
  async apply(files, call) {
    const entry = this.entries.get(files);
    const request = { tool: call && call.tool, arguments: call && call.arguments };
    try {
      if (!entry) throw policy().refusals.writeFailedError(request.tool, 'the editor has no record of what this edit was computed on');
      if (this.settings().reviewMode) {
        this.#noteEdit(request, { outcome: 'held', message: entry.result.message });
        const held = this.queue.hold(entry, this.reviewTimeoutMs());
        this.emit('review', this.queue.review);
        await held;
      } else {
        this.commit(entry.result, entry.reads, 'after_read', request.tool);
      }
    } catch (e) {
      this.#noteEdit(request, { outcome: 'refused', kind: e.kind ?? 'write_failed', message: e.message });
      throw e;
    }
    this.#noteEdit(request, { outcome: 'applied', message: entry.result.message });
  }

  /** The review timeout: the setting (reviewTimeoutMs) or js/host-policy's default. */
  reviewTimeoutMs() {
    const ms = this.settings().reviewTimeoutMs;
    return policy().reviewTimeoutSeconds(typeof ms === 'number' ? ms / 1000 : undefined) * 1000;
  }

  /**
   * Applies a result whose texts were read as `reads`, in js/host-policy's undo steps
   * (undo_edit: one undo step of each buffer per call taken back; any other result: one
   * group, its files); emits 'applied' with the report.
   */
  commit(result, reads, staleWhen, tool) {
    const groups = policy().undoSteps(result);
    const report = applyGroups(groups, { workspace: this.workspace, reads, staleWhen, tool });
    this.emit('applied', report);
    if (this.settings().saveAfterEdit) {
      const saved = new Set();
      for (const { path, buffer } of report.buffers) {
        if (saved.has(buffer)) continue;
        saved.add(buffer);
        Promise.resolve()
          .then(() => buffer.save())
          .catch((e) => this.emit('warning', `Could not save ${path} after the edit: ${e.message}`));
      }
    }
    return report;
  }

  /** Starts the MCP server. Resolves to {url, port, token}. */
  async start({ port, token, profile = 'full', tools = [] }) {
    if (this.server) return this.server;
    this.server = await this.mcpHost.startMcpHttpServer({
      engine: this.engine,
      session: this.recorder,
      read: (p) => this.workspace.read(p),
      list: (folder) => this.workspace.list(folder),
      apply: (files, call) => this.apply(files, call),
      editorTools: this.editorTools,
      port,
      token,
      profile,
      tools,
      name: this.name,
      version: this.version,
    });
    this.emit('server', this.server);
    return this.server;
  }

  async stop() {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const held = this.queue.review !== null;
    this.queue.clear();
    // Let the refused call's response reach the agent before the connections close.
    if (held) await new Promise((resolve) => setTimeout(resolve, 250));
    await server.close();
    this.emit('server', null);
  }

  /**
   * Runs one tool call as an agent's call would run (engine, then apply), without HTTP.
   * Resolves to the MCP tool result. Calls made here are serialised among themselves.
   */
  call(tool, args) {
    if (!this.runner) {
      this.runner = this.mcpHost.createToolRunner({
        engine: this.engine,
        session: this.recorder,
        read: (p) => this.workspace.read(p),
        list: (folder) => this.workspace.list(folder),
        apply: (files, call) => this.apply(files, call),
        editorTools: this.editorTools,
      });
    }
    return this.runner(tool, args);
  }

  /** {tools, summary, counts} for the statistics view. */
  stats() {
    const parsed = JSON.parse(this.session.statsJson());
    const summary = this.session.call({ tool: 'get_edit_stats', arguments: {} }, null);
    return { tools: parsed.tools ?? {}, summary: summary.ok ? summary.message : '', counts: { ...this.queue.counts } };
  }

  resetStats() {
    this.session.call({ tool: 'get_edit_stats', arguments: { reset: true } }, null);
    this.queue.resetCounts();
    this.emit('stats');
  }

  /** Package state: the engine's statistics and the editor's own counts. */
  serialize() {
    return { statsJson: this.session.statsJson(), hostCounts: { ...this.queue.counts } };
  }
}

module.exports = { Host };
