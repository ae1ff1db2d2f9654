'use strict';
// The Pulsar package: commands, settings, panes and the status-bar tile around the host
// (lib/host.js). The engine and the MCP server load on first use (vendor/host.js).

const { CompositeDisposable } = require('atom');
const { loadEngine } = require('./engine');
const { createWorkspace } = require('./workspace');
const { createEditorAdapter } = require('./editor');
const { createDiagnosticsStore } = require('./diagnostics');
const { Host } = require('./host');
const { PreviewView, PREVIEW_URI } = require('./preview-view');
const { StatsView, STATS_URI } = require('./stats-view');
const { StatusTile } = require('./status-tile');
const { showAppliedEdit } = require('./decorations');
const { clientConfig, CLIENTS } = require('./client-config');
const { resolveToken } = require('./token');

const NAME = 'anchored-edit';
const { version } = require('../package.json');

function setting(key) {
  return atom.config.get(`${NAME}.${key}`);
}

/** The package's private folder in Pulsar's config dir (~/.pulsar/anchored-edit). */
function privateDir() {
  const path = require('path');
  return path.join(atom.getConfigDirPath(), NAME);
}

class AnchoredEditPackage {
  activate(state) {
    this.state = state && typeof state === 'object' ? state : {};
    this.host = null;
    this.previewView = null;
    this.statsView = null;
    this.tile = null;
    this.statusTile = null;
    this.clearHighlights = [];
    // Before the host exists: the linter package may consume our linter-ui service first.
    this.diagnostics = createDiagnosticsStore({ linterActive: () => atom.packages.isPackageActive('linter') });
    this.subscriptions = new CompositeDisposable();
    this.subscriptions.add(
      atom.commands.add('atom-workspace', {
        'anchored-edit:start-server': () => this.startServer(),
        'anchored-edit:stop-server': () => this.stopServer(),
        'anchored-edit:copy-client-config': () => this.copyClientConfig(),
        'anchored-edit:show-stats': () => this.showStats(),
        'anchored-edit:review-mode': () => this.toggleReviewMode(),
        'anchored-edit:show-preview': () => this.openPreview({ activate: true }),
        'anchored-edit:apply-preview': () => this.applyCurrent(),
        'anchored-edit:discard-preview': () => this.discardCurrent(),
      }),
      atom.workspace.addOpener((uri) => {
        if (uri === PREVIEW_URI) return this.#previewView();
        if (uri === STATS_URI) return this.#statsView();
        return undefined;
      }),
      atom.config.onDidChange(`${NAME}.reviewMode`, () => this.updateStatus()),
    );
    if (setting('startAutomatically')) this.startServer({ quiet: true });
  }

  async deactivate() {
    this.subscriptions.dispose();
    for (const clear of this.clearHighlights) clear();
    if (this.previewView) this.previewView.destroy();
    if (this.statsView) this.statsView.destroy();
    if (this.tile) this.tile.destroy();
    if (this.statusTile) this.statusTile.destroy();
    if (this.host) await this.host.stop();
  }

  serialize() {
    // Before the engine was loaded, keep what was saved last time.
    return this.host ? this.host.serialize() : this.state;
  }

  /** The `linter-ui` service (package.json providedServices): the linter's messages, for get_diagnostics. */
  provideLinterUi() {
    return this.diagnostics.linterUi();
  }

  consumeStatusBar(statusBar) {
    this.statusTile = new StatusTile({ onClick: () => this.showStats() });
    this.tile = statusBar.addRightTile({ item: this.statusTile.element, priority: 20 });
    this.updateStatus();
  }

  /** The host, created (and the engine loaded) on first use. Throws when not built. */
  getHost() {
    if (this.host) return this.host;
    const { engine, mcpHost, editorTools, listing } = loadEngine();
    const openBuffers = () => atom.workspace.getTextEditors().map((e) => e.getBuffer());
    const workspace = createWorkspace({
      roots: () => atom.project.getPaths(),
      openBuffers,
      listing,
      engine,
      ignores: () => ({
        ignoredNames: atom.config.get('core.ignoredNames') ?? [],
        excludeVcsIgnoredPaths: atom.config.get('core.excludeVcsIgnoredPaths') !== false,
      }),
    });
    const adapter = createEditorAdapter({ atomWorkspace: atom.workspace, workspace, diagnostics: this.diagnostics });
    const host = new Host({
      engine,
      mcpHost,
      workspace,
      openBuffers,
      editorTools: editorTools.createEditorTools({ engine, adapter, editorName: 'Pulsar' }),
      state: this.state,
      name: `${NAME} (Pulsar)`,
      version,
      settings: () => ({
        reviewMode: setting('reviewMode'),
        reviewTimeoutMs: setting('reviewTimeoutSeconds') * 1000,
        saveAfterEdit: setting('saveAfterEdit'),
      }),
    });
    if (host.loadWarning) atom.notifications.addWarning('Anchored Edit', { detail: host.loadWarning });
    host.on('result', () => this.updateStatus());
    host.on('server', () => this.updateStatus());
    host.on('preview', () => {
      if (setting('openPreviewOnDryRun')) this.openPreview({ activate: false });
    });
    host.on('review', () => this.openPreview({ activate: true }));
    host.on('warning', (message) => atom.notifications.addWarning('Anchored Edit', { detail: message }));
    host.on('applied', (report) => {
      const clear = showAppliedEdit(report, {
        editorsFor: (buffer) => atom.workspace.getTextEditors().filter((e) => e.getBuffer() === buffer),
        ms: setting('highlightMilliseconds'),
      });
      this.clearHighlights.push(clear);
      if (this.clearHighlights.length > 20) this.clearHighlights.shift()();
    });
    this.host = host;
    return host;
  }

  #hostOrNotify() {
    try {
      return this.getHost();
    } catch (e) {
      atom.notifications.addError('Anchored Edit could not load its engine', { detail: e.message, dismissable: true });
      return null;
    }
  }

  /**
   * The bearer token (lib/token.js): the private token file's, generated on first use; a
   * token set in the settings moves there (and leaves the synced config) when it is
   * strong, and is refused with a notification when it is weak. Null when refused.
   */
  #token() {
    let outcome;
    try {
      outcome = resolveToken({ dir: privateDir(), configured: setting('token') });
    } catch (e) {
      atom.notifications.addError('Anchored Edit could not store its bearer token', { detail: String(e && e.message), dismissable: true });
      return null;
    }
    if (outcome.refused) {
      atom.notifications.addError('Anchored Edit refused the bearer token in its settings', {
        detail: `The token set in the package settings is too weak: ${outcome.refused}. Clear the setting to use a generated token (stored in ${privateDir()}, owner-only), or set a random one of at least 128 bits. The server was not started.`,
        dismissable: true,
      });
      return null;
    }
    if (outcome.movedFromConfig) {
      atom.config.unset(`${NAME}.token`);
      atom.notifications.addInfo('Anchored Edit moved its bearer token out of the settings', {
        detail: `The token now lives in ${privateDir()} (owner-only), not in the synced config.`,
      });
    }
    return outcome.token;
  }

  /** Starts the MCP server (generating and storing the token on first start). */
  async startServer({ quiet = false } = {}) {
    const host = this.#hostOrNotify();
    if (!host) return null;
    if (host.server) {
      if (!quiet) atom.notifications.addInfo(`Anchored Edit: the MCP server is running on ${host.server.url}`);
      return host.server;
    }
    const token = this.#token();
    if (!token) return null;
    const port = setting('port');
    try {
      const server = await host.start({ port, token, profile: setting('mcpProfile'), tools: setting('mcpTools') });
      if (!quiet) {
        atom.notifications.addSuccess(`Anchored Edit: MCP server on ${server.url}`, {
          description: 'Run **Anchored Edit: Copy Client Config** to connect Claude Code, Codex, Cline or VS Code.',
        });
      }
      return server;
    } catch (e) {
      const detail =
        e && e.code === 'EADDRINUSE'
          ? `Port ${port} is in use by another program. Choose another port in the package settings (0 picks a free one on every start).`
          : String(e && e.message);
      atom.notifications.addError('Anchored Edit could not start its MCP server', { detail, dismissable: true });
      return null;
    } finally {
      this.updateStatus();
    }
  }

  async stopServer() {
    if (!this.host || !this.host.server) {
      atom.notifications.addInfo('Anchored Edit: the MCP server is not running.');
      return;
    }
    await this.host.stop();
    atom.notifications.addInfo('Anchored Edit: MCP server stopped.');
  }

  /** Asks which client, then copies its configuration (starting the server if needed). */
  async copyClientConfig() {
    const server = await this.startServer({ quiet: true });
    if (!server) return;
    atom.confirm(
      {
        message: 'Copy the MCP client configuration for…',
        detail: `Server: ${server.url}\nThe configuration contains the bearer token: keep it out of shared or committed files.`,
        buttons: [...CLIENTS.map((c) => c.label), 'Cancel'],
      },
      (response) => {
        if (response >= 0 && response < CLIENTS.length) this.copyClientConfigFor(CLIENTS[response].id);
      },
    );
  }

  /** Copies the configuration of client `id` (see lib/client-config.js) to the clipboard. */
  copyClientConfigFor(id) {
    const server = this.host && this.host.server;
    if (!server) return null;
    const text = clientConfig(id, {
      url: server.url,
      token: server.token,
      toolTimeoutSeconds: this.host.reviewTimeoutMs() / 1000 + 30,
    });
    atom.clipboard.write(text);
    const label = CLIENTS.find((c) => c.id === id).label;
    atom.notifications.addSuccess(`Anchored Edit: ${label} configuration copied`, {
      detail: text.split(server.token).join('<token>'),
    });
    return text;
  }

  showStats() {
    if (!this.#hostOrNotify()) return Promise.resolve(null);
    return atom.workspace.open(STATS_URI, { searchAllPanes: true });
  }

  toggleReviewMode() {
    const on = !setting('reviewMode');
    atom.config.set(`${NAME}.reviewMode`, on);
    atom.notifications.addInfo(
      on
        ? 'Anchored Edit: review mode on. Every agent edit waits in the diff pane until you apply or discard it.'
        : 'Anchored Edit: review mode off. Agent edits apply at once (each one undo step).',
    );
  }

  openPreview({ activate }) {
    if (!this.#hostOrNotify()) return Promise.resolve(null);
    return atom.workspace.open(PREVIEW_URI, { split: 'right', searchAllPanes: true, activatePane: activate, activateItem: true });
  }

  /** Applies the pending change shown in the diff pane (or item `id`). */
  applyCurrent(id) {
    const item = this.host && this.host.queue.current();
    const target = id ?? (item && item.id);
    if (target === undefined || target === null) return null;
    const outcome = this.host.queue.apply(target);
    if (!outcome.ok) atom.notifications.addWarning('Anchored Edit: not applied', { detail: outcome.message });
    return outcome;
  }

  discardCurrent(id) {
    const item = this.host && this.host.queue.current();
    const target = id ?? (item && item.id);
    if (target === undefined || target === null) return false;
    return this.host.queue.discard(target);
  }

  /** Opens an engine path (relative to the project, or absolute) at a 1-based line. */
  openFile(p, line) {
    let loc;
    try {
      loc = this.host.workspace.resolve(p);
    } catch (e) {
      atom.notifications.addWarning('Anchored Edit', { detail: e.message });
      return null;
    }
    return atom.workspace.open(loc.abs, { initialLine: Math.max(0, line - 1), searchAllPanes: true });
  }

  #previewView() {
    if (!this.previewView || !this.previewView.element.isConnected) {
      if (this.previewView) this.previewView.destroy();
      this.previewView = new PreviewView({
        host: this.getHost(),
        apply: (id) => this.applyCurrent(id),
        discard: (id) => this.discardCurrent(id),
        openFile: (p, line) => this.openFile(p, line),
      });
    }
    return this.previewView;
  }

  #statsView() {
    if (!this.statsView || !this.statsView.element.isConnected) {
      if (this.statsView) this.statsView.destroy();
      this.statsView = new StatsView({ host: this.getHost() });
    }
    return this.statsView;
  }

  updateStatus() {
    if (!this.statusTile) return;
    this.statusTile.update({
      server: this.host && this.host.server,
      lastEdit: this.host && this.host.lastEdit,
      reviewMode: setting('reviewMode'),
    });
  }
}

module.exports = new AnchoredEditPackage();
