'use strict';
// Pulsar's side of the editor tools (js/host-policy/editor-tools.js, bundled into
// vendor/host.js): the adapter that answers them from Pulsar's workspace. Everything an
// agent reads (the words, the argument checks, the path rule) is the shared module's;
// this file only asks Pulsar. No global `atom`: the workspace API, the project folders
// and the diagnostics are passed in, so it runs in plain Node over real TextBuffers
// (test/editor-tools.test.js).
//
// - Open files are the text editors' buffers, one entry per buffer (a buffer split into
//   two panes is one file); "modified" is the buffer's own `isModified()`.
// - Paths go through lib/workspace.js's `resolve` (symlinks leading out are refused) and
//   `bufferFor` (the buffer open for a location, through links too).
// - Diagnostics come from the `linter` package (lib/diagnostics.js).

const path = require('path');

/** A path as the engine's roots name it: absolute, `/`-separated. */
const slashed = (p) => p.replace(/\\/g, '/');

/**
 * The adapter. `atomWorkspace`: Pulsar's `atom.workspace` (getActiveTextEditor,
 * getTextEditors, open); `workspace`: lib/workspace.js over the project folders;
 * `diagnostics`: lib/diagnostics.js's store; `fs`: Node's fs (stat).
 */
function createEditorAdapter({ atomWorkspace, workspace, diagnostics, fs = require('fs') }) {
  const fileOf = (buffer) => {
    const p = buffer.getPath();
    return p ? slashed(path.resolve(p)) : null;
  };

  return {
    roots: () => workspace.roots().map((r) => slashed(path.resolve(r))),

    locate: (p) => workspace.resolve(p),

    exists(loc) {
      if (workspace.bufferFor(loc)) return 'file';
      try {
        const stat = fs.statSync(loc.real);
        return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : null;
      } catch {
        return null;
      }
    },

    selection() {
      const editor = atomWorkspace.getActiveTextEditor();
      if (!editor) return null;
      const buffer = editor.getBuffer();
      return {
        file: fileOf(buffer),
        name: editor.getTitle(),
        // The primary selection is the newest (getSelectedBufferRange); the others follow
        // in buffer order.
        selections: primaryFirst(editor.getSelectedBufferRange(), editor.getSelectedBufferRanges()).map((range) => ({
          range,
          text: buffer.getTextInRange(range),
        })),
      };
    },

    openFiles() {
      const active = atomWorkspace.getActiveTextEditor();
      const activeBuffer = active ? active.getBuffer() : null;
      const seen = new Map();
      for (const editor of atomWorkspace.getTextEditors()) {
        const buffer = editor.getBuffer();
        if (seen.has(buffer)) continue;
        seen.set(buffer, {
          file: fileOf(buffer),
          name: editor.getTitle(),
          active: buffer === activeBuffer,
          modified: buffer.isModified(),
        });
      }
      return [...seen.values()];
    },

    async open(loc, line) {
      const options = { searchAllPanes: true };
      if (line !== undefined) options.initialLine = line;
      const editor = await atomWorkspace.open(loc.abs, options);
      return { line_count: editor.getBuffer().getLineCount() };
    },

    async save(loc) {
      const buffer = workspace.bufferFor(loc);
      if (!buffer) return 'closed';
      if (!buffer.isModified()) return 'clean';
      await buffer.save();
      return 'saved';
    },

    diagnostics(loc) {
      const state = diagnostics.state();
      if (!state.available) return state;
      const items = loc ? state.items.filter((d) => sameFile(d.file, loc, workspace)) : state.items;
      return { available: true, items };
    },
  };
}

/** `ranges` with `primary` first (once). */
function primaryFirst(primary, ranges) {
  const others = ranges.filter((r) => !r.isEqual(primary));
  return [primary, ...others];
}

/** Whether diagnostic file `file` is the file at `loc` (directly, or through a link). */
function sameFile(file, loc, workspace) {
  if (file === slashed(loc.abs) || file === slashed(loc.real)) return true;
  try {
    return slashed(workspace.resolve(file).real) === slashed(loc.real);
  } catch {
    return false;
  }
}

module.exports = { createEditorAdapter };
