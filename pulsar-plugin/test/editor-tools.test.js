'use strict';
// The editor tools in the Pulsar host (lib/editor.js, lib/diagnostics.js, over
// js/host-policy/editor-tools.js from vendor/host.js), with real TextBuffers: each tool
// called as the MCP server calls it (host.call: the same queue as the engine's tools),
// and once over MCP HTTP (the tool list). Also the project listing (workspace.list):
// .gitignore, Pulsar's ignoredNames and excludeVcsIgnoredPaths, unsaved new files.
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { tempProject, makeEditorHost, AtomWorkspaceStandIn, TextBuffer, openBuffer, resultOf } = require('./helpers');

async function setUp(files, open = []) {
  const p = tempProject(files);
  const buffers = [];
  for (const rel of open) buffers.push(await openBuffer(p.file(rel)));
  const atomWorkspace = new AtomWorkspaceStandIn(buffers);
  const linter = { active: false };
  const made = makeEditorHost({ roots: [p.root], atomWorkspace, linterActive: () => linter.active });
  return { p, buffers, atomWorkspace, linter, ...made };
}

async function call(host, tool, args) {
  return resultOf(await host.call(tool, args));
}

describe('editor tools in Pulsar', () => {
  test('get_selection: the active editor selection, the cursor alone, no editor', async () => {
    const { p, host, atomWorkspace } = await setUp({ 'a.js': 'const x = 1;\nconst y = 2;\n' }, ['a.js']);
    try {
      atomWorkspace.active.setSelectedBufferRanges([[[1, 6], [1, 7]]]);
      const r = await call(host, 'get_selection', {});
      assert.deepEqual(
        [r.ok, r.path, r.start_line, r.start_column, r.end_line, r.end_column, r.text],
        [true, 'a.js', 2, 7, 2, 8, 'y'],
      );
      assert.match(r.message, /Selected in a\.js: lines 2-2 \(1 character\)/);
      atomWorkspace.active.setSelectedBufferRanges([[[0, 3], [0, 3]]]);
      assert.match((await call(host, 'get_selection', {})).message, /Nothing is selected; the cursor is in a\.js, line 1, column 4/);
      atomWorkspace.active = null;
      const none = await call(host, 'get_selection', {});
      assert.equal(none.path, null);
      assert.match(none.message, /No text editor is active in Pulsar/);
    } finally {
      p.cleanup();
    }
  });

  test('list_open_files: paths, the active one, an unsaved change, a file outside the project', async () => {
    const { p, host, buffers, atomWorkspace } = await setUp({ 'a.js': 'a\n', 'src/b.js': 'b\n' }, ['a.js', 'src/b.js']);
    const elsewhere = tempProject({ 'c.js': 'c\n' });
    try {
      buffers[0].append('unsaved\n');
      const r = await call(host, 'list_open_files', {});
      assert.deepEqual(r.open_files, [
        { path: 'a.js', active: false, modified: true },
        { path: 'src/b.js', active: true, modified: false },
      ]);
      assert.match(r.message, /2 files open in Pulsar; active: src\/b\.js; unsaved changes in a\.js/);
      await atomWorkspace.open(elsewhere.file('c.js'));
      const more = await call(host, 'list_open_files', {});
      assert.deepEqual(more.open_files[2], { path: elsewhere.file('c.js'), outside_root: true, active: true, modified: false });
    } finally {
      p.cleanup();
      elsewhere.cleanup();
    }
  });

  test('open_file: at a line, past the end, refusals outside the root and for a missing file', async () => {
    const { p, host, atomWorkspace } = await setUp({ 'src/m.py': 'a\nb\nc\n' });
    fs.symlinkSync('/etc', path.join(p.root, 'etc-link'));
    try {
      const r = await call(host, 'open_file', { path: 'src/m.py', line: 2 });
      assert.equal(r.ok, true, r.error?.message);
      assert.match(r.message, /Opened src\/m\.py in Pulsar at line 2/);
      assert.equal(atomWorkspace.active.getBuffer().getPath(), p.file('src/m.py'));
      assert.deepEqual(atomWorkspace.active.getSelectedBufferRange().start.toArray(), [1, 0]);
      const past = await call(host, 'open_file', { path: `${p.root}/src/m.py`, line: 40 });
      assert.equal(past.line, 4);
      assert.match(past.warnings[0], /has 4 lines/);
      assert.deepEqual(atomWorkspace.active.getSelectedBufferRange().start.toArray(), [3, 0]);
      assert.equal(atomWorkspace.editors.length, 1, 'the open editor is reused');
      for (const [args, kind] of [
        [{ path: '../x' }, 'path_outside_root'],
        [{ path: '/etc/hosts' }, 'path_outside_root'],
        [{ path: 'etc-link/hosts' }, 'path_outside_root'],
        [{ path: 'nope.py' }, 'file_not_found'],
        [{ path: 'src' }, 'invalid_arguments'],
      ]) {
        const refused = await call(host, 'open_file', args);
        assert.equal(refused.ok, false, JSON.stringify(args));
        assert.equal(refused.error.kind, kind, `${JSON.stringify(args)}: ${refused.error.message}`);
      }
      assert.equal(atomWorkspace.editors.length, 1, 'nothing else was opened');
    } finally {
      p.cleanup();
    }
  });

  test('save_file: one file, a clean one, a closed one, then all (not files outside the project)', async () => {
    const { p, host, buffers, atomWorkspace } = await setUp({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'd.txt': 'd\n' }, ['a.txt', 'b.txt', 'c.txt']);
    const elsewhere = tempProject({ 'e.txt': 'e\n' });
    try {
      const outside = (await atomWorkspace.open(elsewhere.file('e.txt'))).getBuffer();
      outside.append('E\n');
      const [a, b, c] = buffers;
      a.append('A\n');
      b.append('B\n');
      const one = await call(host, 'save_file', { path: 'a.txt' });
      assert.deepEqual([one.ok, one.saved], [true, ['a.txt']]);
      assert.equal(p.read('a.txt'), 'a\nA\n');
      assert.equal(a.isModified(), false);
      assert.match((await call(host, 'save_file', { path: 'c.txt' })).message, /no unsaved changes/);
      assert.match((await call(host, 'save_file', { path: 'd.txt' })).message, /not open in Pulsar/);
      c.append('C\n');
      const all = await call(host, 'save_file', { all: true });
      assert.deepEqual(all.saved, ['b.txt', 'c.txt']);
      assert.equal(p.read('b.txt'), 'b\nB\n');
      assert.equal(p.read('c.txt'), 'c\nC\n');
      assert.match(all.warnings[0], /e\.txt was not saved: it is outside the project/);
      assert.equal(elsewhere.read('e.txt'), 'e\n');
      assert.match((await call(host, 'save_file', { all: true })).message, /nothing to save/);
    } finally {
      p.cleanup();
      elsewhere.cleanup();
    }
  });

  test('save_file after an agent edit in the same queue saves the edited text', async () => {
    const { p, host } = await setUp({ 'a.txt': 'x\n' }, ['a.txt']);
    try {
      const edit = host.call('str_replace', { path: 'a.txt', old_str: 'x', new_str: 'y' });
      const save = host.call('save_file', { path: 'a.txt' });
      assert.equal((await edit).isError, false);
      assert.deepEqual(resultOf(await save).saved, ['a.txt']);
      assert.equal(p.read('a.txt'), 'y\n');
    } finally {
      p.cleanup();
    }
  });

  test('get_diagnostics: no linter says why; the linter package messages for a file and for all', async () => {
    const { p, host, linter, diagnostics } = await setUp({ 'a.js': 'x\n', 'b.js': 'y\n' });
    try {
      const none = await call(host, 'get_diagnostics', {});
      assert.deepEqual([none.ok, none.available, none.diagnostics], [true, false, []]);
      assert.match(none.message, /Pulsar has no linter running.*not because the code is clean/);
      linter.active = true;
      const ui = diagnostics.linterUi();
      assert.match((await call(host, 'get_diagnostics', { path: 'a.js' })).message, /Pulsar reports no problems for `a\.js`/);
      const messages = [
        { location: { file: p.file('a.js'), position: new TextBuffer.Range([0, 0], [0, 1]) }, severity: 'error', excerpt: "'x' is not defined.", linterName: 'ESLint' },
        { location: { file: p.file('b.js'), position: new TextBuffer.Range([0, 0], [0, 1]) }, severity: 'warning', excerpt: 'unused', linterName: 'ESLint' },
      ];
      ui.render({ added: messages, removed: [], messages });
      const one = await call(host, 'get_diagnostics', { path: 'a.js' });
      assert.deepEqual(one.diagnostics, [
        { path: 'a.js', start_line: 1, start_column: 1, end_line: 1, end_column: 2, severity: 'error', message: "'x' is not defined.", source: 'ESLint' },
      ]);
      const all = await call(host, 'get_diagnostics', {});
      assert.deepEqual(all.diagnostics.map((d) => [d.path, d.severity]), [['a.js', 'error'], ['b.js', 'warning']]);
      assert.match(all.message, /Pulsar reports 1 error, 1 warning for the open project/);
    } finally {
      p.cleanup();
    }
  });

  test('over MCP: the tool list has the engine tools, then the editor tools with annotations', async () => {
    const { p, host } = await setUp({});
    const server = await host.start({ port: 0 });
    try {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const client = new Client({ name: 'test', version: '0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${server.token}` } } }));
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      const engineNames = host.engine.toolSchemas().map((s) => s.name);
      assert.deepEqual(names, [...engineNames, 'get_selection', 'list_open_files', 'open_file', 'save_file', 'get_diagnostics']);
      const save = tools.find((t) => t.name === 'save_file');
      assert.deepEqual(save.annotations, { title: 'Save files', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      const r = await client.callTool({ name: 'list_open_files', arguments: {} });
      assert.equal(r.isError, false);
      assert.match(r.content[0].text, /No file is open in Pulsar/);
      await client.close();
    } finally {
      await host.stop();
      p.cleanup();
    }
  });
});

describe('project tools through the Pulsar host', () => {
  test('list_files honours .gitignore; grep_project reads an open buffer (unsaved text), the disk otherwise', async () => {
    const { p, host, buffers } = await setUp({ '.gitignore': 'out/\n', 'a.js': 'let v = 1;\n', 'b.js': 'let v = 2;\n', 'out/c.js': 'let v = 3;\n' }, ['a.js']);
    try {
      buffers[0].setText('let v = 10;\n');
      const listed = await call(host, 'list_files', {});
      assert.equal(listed.ok, true, listed.error?.message);
      assert.deepEqual(listed.paths, ['.gitignore', 'a.js', 'b.js'].filter((f) => !f.startsWith('.')));
      const found = await call(host, 'grep_project', { pattern: 'let v' });
      assert.equal(found.ok, true, found.error?.message);
      assert.deepEqual(found.matches.map((m) => [m.path, m.text]), [['a.js', 'let v = 10;'], ['b.js', 'let v = 2;']]);
    } finally {
      p.cleanup();
    }
  });
});

describe('project listing in Pulsar (workspace.list)', () => {
  test('.gitignore, hidden files, core.ignoredNames, excludeVcsIgnoredPaths, links, unsaved new files', async () => {
    const p = tempProject({ '.gitignore': 'build/\n*.log\n', 'a.js': '', 'x.log': '', 'build/o.js': '', '.hidden/h.js': '', 'src/b.js': '', 'src/Thumbs.db': '' });
    fs.symlinkSync('/etc', path.join(p.root, 'etc'));
    try {
      const fresh = new TextBuffer({ text: 'new\n' });
      fresh.setPath(p.file('src/new.js'));
      const atomWorkspace = new AtomWorkspaceStandIn([fresh]);
      const ignores = { ignoredNames: ['.git', 'Thumbs.db'], excludeVcsIgnoredPaths: true };
      const { workspace } = makeEditorHost({ roots: [p.root], atomWorkspace, ignores: () => ignores });
      assert.deepEqual(workspace.list('').sort(), ['a.js', 'src/b.js', 'src/new.js']);
      assert.deepEqual(workspace.list('src').sort(), ['src/b.js', 'src/new.js']);
      ignores.excludeVcsIgnoredPaths = false;
      ignores.ignoredNames = [];
      assert.deepEqual(workspace.list('').sort(), ['a.js', 'build/o.js', 'src/Thumbs.db', 'src/b.js', 'src/new.js', 'x.log']);
      // A folder that is not there lists nothing; the engine refuses the call.
      assert.deepEqual(workspace.list('etc'), []);
    } finally {
      p.cleanup();
    }
  });
});
