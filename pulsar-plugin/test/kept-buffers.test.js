'use strict';
// lib/kept-buffers.js against Pulsar's real TextBuffer: the engine reads an open buffer it
// keeps (no whole text crosses), follows the user's edits, and stops keeping a buffer
// whose text it could not follow (a lone \r) or that the workspace does not resolve to.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { tempProject, openBuffer, makeHost, resultOf } = require('./helpers');

async function setUp(files, open) {
  const p = tempProject(files);
  const buffers = [];
  for (const rel of open) buffers.push(await openBuffer(p.file(rel)));
  const { host } = makeHost({ roots: [p.root], buffers });
  return { p, buffers, host };
}

/** Counts whole-text reads of `buffer` from now on. */
function countWholeReads(buffer) {
  const counter = { n: 0 };
  const getText = buffer.getText.bind(buffer);
  buffer.getText = () => {
    counter.n += 1;
    return getText();
  };
  return counter;
}

test('kept: a call after the user typed sees the typing, and reads no whole text of the buffer', async () => {
  const { p, buffers, host } = await setUp({ 'a.py': 'x = 1\ny = 2\n' }, ['a.py']);
  const [b] = buffers;
  try {
    assert.equal(resultOf(await host.call('str_replace', { path: 'a.py', old_str: 'x = 1', new_str: 'x = 10' })).ok, true);
    const reads = countWholeReads(b);
    b.transact(() => {
      b.setTextInRange([[1, 0], [1, 0]], 'z = 0\r\n', { normalizeLineEndings: false });
      b.setTextInRange([[0, 4], [0, 6]], '11', { normalizeLineEndings: false });
    });
    const r = resultOf(await host.call('str_replace', { path: 'a.py', old_str: 'x = 11\nz = 0', new_str: 'x = 12\nz = 0' }));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.files[0].new_text, undefined, 'a kept buffer gets edits, not a copy of its text');
    assert.equal(reads.n, 0, 'no whole-text read of the kept buffer during the call');
    assert.equal(b.getText(), 'x = 12\nz = 0\r\ny = 2\n');
    assert.equal(host.kept.entries.get(b).live, true);
  } finally {
    p.cleanup();
  }
});

test('near miss: a change inserting a lone \\r drops the kept text; the call reads the buffer whole and is right', async () => {
  const { p, buffers, host } = await setUp({ 'a.txt': 'one\ntwo\n' }, ['a.txt']);
  const [b] = buffers;
  try {
    assert.equal(resultOf(await host.call('str_replace', { path: 'a.txt', old_str: 'one', new_str: 'uno' })).ok, true);
    b.setTextInRange([[0, 3], [0, 3]], '\rx', { normalizeLineEndings: false });
    assert.equal(host.kept.entries.get(b).live, false, 'dropped at the change');
    const r = resultOf(await host.call('str_replace', { path: 'a.txt', old_str: 'two', new_str: 'dos' }));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(b.getText(), 'uno\rx\ndos\n');
    assert.equal(host.kept.entries.get(b).live, false, 'a buffer with a lone \\r is not kept again');
  } finally {
    p.cleanup();
  }
});

test('near miss: a buffer whose path leads out of the project through a symlink is never kept', async () => {
  const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-outside-')));
  fs.writeFileSync(path.join(outside, 's.txt'), 'secret\n');
  const p = tempProject({ 'a.txt': 'a\n' });
  fs.symlinkSync(outside, p.file('link'));
  const b = await openBuffer(p.file('link/s.txt'));
  const { host } = makeHost({ roots: [p.root], buffers: [b] });
  try {
    const r = resultOf(await host.call('str_replace', { path: 'link/s.txt', old_str: 'secret', new_str: 'public' }));
    assert.equal(r.ok, false);
    assert.equal(r.error.kind, 'path_outside_root');
    assert.equal(host.kept.entries.get(b).live, false);
    assert.equal(b.getText(), 'secret\n');
  } finally {
    b.destroy();
    p.cleanup();
    fs.rmSync(outside, { recursive: true, force: true });
  }
});
