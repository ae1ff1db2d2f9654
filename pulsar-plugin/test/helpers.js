'use strict';
// Shared set-up for the Node tests: a temporary project on disk, Pulsar's real
// TextBuffer (@pulsar-edit/text-buffer 15.0.0) for the files "open in editors", the
// engine and MCP module from vendor/host.js (the CommonJS bundle Pulsar loads), and a
// Host wired to them exactly as lib/main.js wires it, minus the Pulsar UI.

const fs = require('fs');
const os = require('os');
const path = require('path');
const TextBuffer = require('@pulsar-edit/text-buffer');
const { loadEngine } = require('../lib/engine');
const { createWorkspace } = require('../lib/workspace');
const { Host } = require('../lib/host');
const { createEditorAdapter } = require('../lib/editor');
const { createDiagnosticsStore } = require('../lib/diagnostics');

/** A temporary project: {root, write(rel, text), read(rel), cleanup()}. */
function tempProject(files = {}) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-pulsar-')));
  const project = {
    root,
    file: (rel) => path.join(root, rel),
    write(rel, text) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    exists: (rel) => fs.existsSync(path.join(root, rel)),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
  for (const [rel, text] of Object.entries(files)) project.write(rel, text);
  return project;
}

/** Loads a real TextBuffer for a file on disk (as Pulsar does when an editor opens it). */
async function openBuffer(file) {
  return TextBuffer.load(file);
}

/** A workspace over `roots` with `buffers` (an array, mutable) as the open editors' buffers. */
function workspaceFor(roots, buffers, ignores) {
  const { listing, engine } = loadEngine();
  return createWorkspace({ roots: () => roots, openBuffers: () => buffers, listing, engine, ignores });
}

/**
 * Pulsar's TextEditor as far as lib/editor.js uses it, over a real TextBuffer (the
 * editor itself needs Pulsar's DOM): the title, the selections (real Ranges, the last
 * added the primary one, as Pulsar's getSelectedBufferRange).
 */
class EditorStandIn {
  constructor(buffer) {
    this.buffer = buffer;
    this.ranges = [new TextBuffer.Range([0, 0], [0, 0])];
  }

  getBuffer() {
    return this.buffer;
  }

  getTitle() {
    return this.buffer.getPath() ? path.basename(this.buffer.getPath()) : 'untitled';
  }

  setSelectedBufferRanges(ranges) {
    this.ranges = ranges.map((r) => TextBuffer.Range.fromObject(r));
  }

  getSelectedBufferRange() {
    return this.ranges[this.ranges.length - 1];
  }

  getSelectedBufferRanges() {
    return [...this.ranges].sort((a, b) => a.compare(b));
  }
}

/**
 * `atom.workspace` as far as lib/editor.js uses it: the text editors (EditorStandIn over
 * real TextBuffers), the active one, and `open(path, {initialLine})` loading the file's
 * real TextBuffer (or reusing the open one) with the cursor at the line, clipped to the
 * buffer as Pulsar clips it.
 */
class AtomWorkspaceStandIn {
  constructor(buffers = []) {
    this.editors = buffers.map((b) => new EditorStandIn(b));
    this.active = this.editors[this.editors.length - 1] ?? null;
  }

  buffers() {
    return this.editors.map((e) => e.getBuffer());
  }

  getActiveTextEditor() {
    return this.active;
  }

  getTextEditors() {
    return [...this.editors];
  }

  async open(file, { initialLine } = {}) {
    let editor = this.editors.find((e) => e.getBuffer().getPath() === file);
    if (!editor) {
      editor = new EditorStandIn(await TextBuffer.load(file));
      this.editors.push(editor);
    }
    if (initialLine !== undefined) {
      const point = editor.getBuffer().clipPosition([initialLine, 0]);
      editor.setSelectedBufferRanges([[point, point]]);
    }
    this.active = editor;
    return editor;
  }
}

/**
 * A Host over a temporary project with the editor tools wired as lib/main.js wires them:
 * `atomWorkspace` (an AtomWorkspaceStandIn) gives the editors; `linterActive()` and the
 * store's linter-ui service stand for the linter package.
 */
function makeEditorHost({ roots, atomWorkspace, linterActive = () => false, ignores }) {
  const { engine, mcpHost, editorTools, listing } = loadEngine();
  const workspace = createWorkspace({ roots: () => roots, openBuffers: () => atomWorkspace.buffers(), listing, engine, ignores });
  const diagnostics = createDiagnosticsStore({ linterActive });
  const adapter = createEditorAdapter({ atomWorkspace, workspace, diagnostics });
  const host = new Host({
    engine,
    mcpHost,
    workspace,
    openBuffers: () => atomWorkspace.buffers(),
    editorTools: editorTools.createEditorTools({ engine, adapter, editorName: 'Pulsar' }),
    settings: () => ({ reviewMode: false, reviewTimeoutMs: 50_000, saveAfterEdit: false }),
    version: 'test',
  });
  return { host, diagnostics, workspace };
}

/**
 * A Host over a temporary project. `settings` start at the package defaults and may be
 * changed through the returned object. `keep: false`: no kept buffers (every call reads
 * the open buffers whole through the reader).
 */
function makeHost({ roots, buffers, state, settings = {}, keep = true }) {
  const { engine, mcpHost } = loadEngine();
  const current = { reviewMode: false, reviewTimeoutMs: 50_000, saveAfterEdit: false, ...settings };
  const host = new Host({
    engine,
    mcpHost,
    workspace: workspaceFor(roots, buffers),
    openBuffers: keep ? () => buffers : undefined,
    settings: () => current,
    state,
    version: 'test',
  });
  return { host, settings: current, engine, mcpHost };
}

/** The engine result (structuredContent) of an MCP tool result. */
function resultOf(toolResult) {
  return toolResult.structuredContent;
}

/** Waits until `predicate()` is true (polling), or fails after `ms`. */
async function waitFor(predicate, ms = 5000) {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

module.exports = {
  TextBuffer,
  tempProject,
  openBuffer,
  workspaceFor,
  makeHost,
  makeEditorHost,
  AtomWorkspaceStandIn,
  resultOf,
  waitFor,
  loadEngine,
};
