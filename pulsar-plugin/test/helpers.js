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
function workspaceFor(roots, buffers) {
  return createWorkspace({ roots: () => roots, openBuffers: () => buffers });
}

/**
 * A Host over a temporary project. `settings` start at the package defaults and may be
 * changed through the returned object.
 */
function makeHost({ roots, buffers, state, settings = {} }) {
  const { engine, mcpHost } = loadEngine();
  const current = { reviewMode: false, reviewTimeoutMs: 50_000, saveAfterEdit: false, ...settings };
  const host = new Host({
    engine,
    mcpHost,
    workspace: workspaceFor(roots, buffers),
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

module.exports = { TextBuffer, tempProject, openBuffer, workspaceFor, makeHost, resultOf, waitFor, loadEngine };
