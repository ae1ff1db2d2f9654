'use strict';
// lib/workspace.js: which text a path means (open buffer or disk) and which paths are
// refused, seen through the engine (the refusal the agent reads).
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { tempProject, openBuffer, workspaceFor, loadEngine } = require('./helpers');

const { engine } = loadEngine();

// The host hands the engine its project folders (lib/host.js); the engine's one path rule
// then judges absolute paths.
function call(ws, tool, args) {
  const session = new engine.Session();
  session.setRoots(ws.roots().map((r) => path.resolve(r)));
  return session.call({ tool, arguments: args }, { read: (p) => ws.read(p) });
}

describe('paths and texts', () => {
  test('an open buffer is read with its unsaved changes; a closed file from disk', async () => {
    const p = tempProject({ 'open.txt': 'saved\n', 'closed.txt': 'on disk\n' });
    try {
      const b = await openBuffer(p.file('open.txt'));
      b.append('unsaved\n');
      const ws = workspaceFor([p.root], [b]);
      assert.equal(call(ws, 'get_document', { path: 'open.txt' }).content, 'saved\nunsaved\n');
      assert.equal(call(ws, 'get_document', { path: 'closed.txt' }).content, 'on disk\n');
      // The same file by its absolute path (as Claude Code sends it).
      assert.equal(call(ws, 'get_document', { path: p.file('open.txt') }).content, 'saved\nunsaved\n');
    } finally {
      p.cleanup();
    }
  });

  test('relative paths are relative to the first project folder; absolute ones may be in any', () => {
    const first = tempProject({ 'a.txt': 'first\n' });
    const second = tempProject({ 'a.txt': 'second\n' });
    try {
      const ws = workspaceFor([first.root, second.root], []);
      assert.equal(call(ws, 'get_document', { path: 'a.txt' }).content, 'first\n');
      assert.equal(call(ws, 'get_document', { path: second.file('a.txt') }).content, 'second\n');
      assert.equal(ws.displayPath(second.file('a.txt')), path.join(path.basename(second.root), 'a.txt'));
    } finally {
      first.cleanup();
      second.cleanup();
    }
  });

  test('paths outside the project are refused with path_outside_root', () => {
    const p = tempProject({ 'a.txt': 'x\n' });
    const elsewhere = tempProject({ 'secret.txt': 'secret\n' });
    try {
      fs.symlinkSync(elsewhere.root, p.file('link'));
      const ws = workspaceFor([p.root], []);
      for (const [args, why] of [
        [{ path: elsewhere.file('secret.txt') }, /is outside every folder this host may edit/],
        [{ path: 'link/secret.txt' }, /^`link\/secret.txt` is outside the project root: a symlink on the way leads out of the root\. Send a path inside the root, relative to it\.$/],
        [{ path: '../x.txt' }, /climbs out/],
      ]) {
        const r = call(ws, 'get_document', args);
        assert.equal(r.ok, false);
        assert.equal(r.error.kind, 'path_outside_root', JSON.stringify(r.error));
        assert.match(r.error.message, why);
      }
      // Near miss: a symlink that stays inside the project is fine.
      fs.mkdirSync(p.file('real'));
      fs.writeFileSync(p.file('real/b.txt'), 'inside\n');
      fs.symlinkSync(p.file('real'), p.file('alias'));
      assert.equal(call(ws, 'get_document', { path: 'alias/b.txt' }).content, 'inside\n');
    } finally {
      p.cleanup();
      elsewhere.cleanup();
    }
  });

  // The host kit's inside rule (js/host-policy/real-path.js): a name that starts with
  // `..` is a name inside the root, not a climb out (the old copy here refused it).
  test('a folder named `..foo` is inside the project, by relative and by absolute path', () => {
    const p = tempProject({ '..foo/bar.txt': 'dots\n', 'a.txt': 'a\n' });
    try {
      const ws = workspaceFor([p.root], []);
      assert.equal(call(ws, 'get_document', { path: '..foo/bar.txt' }).content, 'dots\n');
      assert.equal(call(ws, 'get_document', { path: p.file('..foo/bar.txt') }).content, 'dots\n');
      // Listed by its absolute path: a folder of the project (hidden by its dot, so empty), not refused.
      assert.deepEqual(ws.list(p.file('..foo')), []);
      // Near miss: `../` climbs out.
      assert.equal(call(ws, 'get_document', { path: '../a.txt' }).error.kind, 'path_outside_root');
    } finally {
      p.cleanup();
    }
  });

  test('a buffer opened through a link inside the project is the file, by its real name', async () => {
    const p = tempProject({ 'real/b.txt': 'saved\n' });
    try {
      fs.symlinkSync(p.file('real'), p.file('alias'));
      const b = await openBuffer(p.file('alias/b.txt'));
      b.append('unsaved\n');
      const ws = workspaceFor([p.root], [b]);
      assert.equal(call(ws, 'get_document', { path: 'real/b.txt' }).content, 'saved\nunsaved\n');
    } finally {
      p.cleanup();
    }
  });

  test('no project folder open: every path is refused with advice', () => {
    const r = call(workspaceFor([], []), 'get_document', { path: 'a.txt' });
    assert.equal(r.error.kind, 'path_outside_root');
    assert.match(r.error.message, /No project folder is open/);
  });

  test('binary, undeclared non-UTF-8 files and directories are refused; a missing file is file_not_found', () => {
    const p = tempProject({});
    try {
      fs.writeFileSync(p.file('bin.dat'), Buffer.from([0x61, 0x00, 0x62]));
      fs.writeFileSync(p.file('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      fs.mkdirSync(p.file('dir'));
      const ws = workspaceFor([p.root], []);
      assert.match(call(ws, 'get_document', { path: 'bin.dat' }).error.message, /looks binary/);
      assert.match(call(ws, 'get_document', { path: 'latin1.txt' }).error.message, /not UTF-8/);
      assert.match(call(ws, 'get_document', { path: 'dir' }).error.message, /`dir` is a directory, not a file/);
      assert.equal(call(ws, 'get_document', { path: 'missing.txt' }).error.kind, 'file_not_found');
      // A closed file is handed over as its bytes; a UTF-8 byte-order mark is part of
      // the text the engine decodes, as the CLI reads it.
      fs.writeFileSync(p.file('bom.txt'), '\uFEFFx\n');
      assert.deepEqual(Buffer.from(ws.read('bom.txt')), Buffer.from('\uFEFFx\n'));
      assert.equal(call(ws, 'get_document', { path: 'bom.txt' }).content, '\uFEFFx\n');
    } finally {
      p.cleanup();
    }
  });
});
