'use strict';
// lib/apply.js against Pulsar's real TextBuffer: the engine's edits land as minimal
// setTextInRange calls in one transaction per buffer.
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { TextBuffer, tempProject, openBuffer, workspaceFor, loadEngine } = require('./helpers');
const { applyEditsToBuffer, applyChanges } = require('../lib/apply');

const { engine } = loadEngine();

/** Runs a call in the engine against `workspace`, recording what it read. */
function compute(request, workspace) {
  const reads = new Map();
  const session = new engine.Session();
  const result = session.call(request, {
    read(p) {
      const t = workspace.read(p);
      reads.set(p, typeof t === 'string' || t instanceof Uint8Array ? t : null);
      return t;
    },
  });
  assert.equal(result.ok, true, JSON.stringify(result.error));
  return { result, reads };
}

function bufferWith(text) {
  return new TextBuffer({ text });
}

describe('edits inside one transaction', () => {
  test('markers (cursors, folds, bookmarks) outside the edited ranges keep their place', () => {
    const text = 'alpha\nbeta\ngamma\ndelta\nepsilon\n';
    const buffer = bufferWith(text);
    const before = buffer.markRange([[0, 1], [0, 3]]); // inside "alpha", before both edits
    const between = buffer.markPosition([2, 2]); // in "gamma", between the edits
    const after = buffer.markRange([[4, 0], [4, 7]]); // "epsilon", after both edits
    const session = new engine.Session();
    const result = session.call(
      {
        tool: 'multi_replace',
        arguments: {
          replacements: [
            { path: 'a.txt', old_str: 'beta', new_str: 'BETA\nbeta2' },
            { path: 'a.txt', old_str: 'delta', new_str: 'D' },
          ],
        },
      },
      { read: () => text },
    );
    assert.equal(result.ok, true, JSON.stringify(result.error));
    const [file] = result.files;
    assert.ok(file.edits.length >= 2, 'a multi-edit call');
    applyEditsToBuffer(buffer, file.edits, file.new_text);
    assert.equal(buffer.getText(), 'alpha\nBETA\nbeta2\ngamma\nD\nepsilon\n');
    assert.deepEqual(before.getRange().serialize(), [[0, 1], [0, 3]]);
    assert.deepEqual(between.getHeadPosition().serialize(), [3, 2]);
    assert.deepEqual(after.getRange().serialize(), [[5, 0], [5, 7]]);
    assert.equal(before.isValid() && between.isValid() && after.isValid(), true);
  });

  test('one undo reverts the whole multi-edit call, and only it', () => {
    const buffer = bufferWith('one\ntwo\nthree\nfour\n');
    buffer.setTextInRange([[3, 0], [3, 4]], 'FOUR'); // the user's own earlier change
    const text = buffer.getText();
    const session = new engine.Session();
    const result = session.call(
      {
        tool: 'apply_patch',
        arguments: { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n two\n@@\n three\n-FOUR\n+4\n*** End Patch\n' },
      },
      { read: () => text },
    );
    assert.equal(result.ok, true, JSON.stringify(result.error));
    assert.equal(result.files[0].edits.length, 2);
    applyEditsToBuffer(buffer, result.files[0].edits, result.files[0].new_text);
    assert.equal(buffer.getText(), 'ONE\ntwo\nthree\n4\n');
    buffer.undo();
    assert.equal(buffer.getText(), text, 'one undo step for the call');
    buffer.undo();
    assert.equal(buffer.getText(), 'one\ntwo\nthree\nfour\n', 'the next undo is the user\'s change');
    buffer.redo();
    buffer.redo();
    assert.equal(buffer.getText(), 'ONE\ntwo\nthree\n4\n', 'redo brings the call back in one step');
  });

  test('a CRLF buffer stays CRLF, a mixed one keeps each line\'s ending', () => {
    const crlf = 'fn main() {\r\n    let x = 1;\r\n}\r\n';
    const buffer = bufferWith(crlf);
    const session = new engine.Session();
    const r = session.call(
      { tool: 'str_replace', arguments: { path: 'a.rs', old_str: '    let x = 1;', new_str: '    let x = 1;\n    let y = 2;' } },
      { read: () => crlf },
    );
    assert.equal(r.ok, true, JSON.stringify(r.error));
    applyEditsToBuffer(buffer, r.files[0].edits, r.files[0].new_text);
    assert.equal(buffer.getText(), 'fn main() {\r\n    let x = 1;\r\n    let y = 2;\r\n}\r\n');
    assert.equal(buffer.getText(), r.files[0].new_text);

    // A line added after an LF line of a mostly-CRLF file ends as the engine says (LF);
    // the buffer's own normalisation would have made it CRLF.
    const mixed = 'a\r\nb\nc\r\n';
    const m = bufferWith(mixed);
    const r2 = session.call({ tool: 'str_replace', arguments: { path: 'm.txt', old_str: 'b', new_str: 'b\nb2' } }, { read: () => mixed });
    assert.equal(r2.files[0].new_text, 'a\r\nb\nb2\nc\r\n');
    applyEditsToBuffer(m, r2.files[0].edits, r2.files[0].new_text);
    assert.equal(m.getText(), 'a\r\nb\nb2\nc\r\n');
  });

  test('columns after emoji and CJK are UTF-16 columns: the edit lands on the quoted text', () => {
    const text = 'const s = "😀😀 重试"; let n = 1;\nnext();\n';
    const buffer = bufferWith(text);
    const tail = buffer.markPosition([0, text.indexOf('1;') + 1]); // the ';' after the 1, same line, after the edit
    const session = new engine.Session();
    const r = session.call({ tool: 'str_replace', arguments: { path: 'a.js', old_str: 'let n = 1', new_str: 'let n = 42' } }, { read: () => text });
    assert.equal(r.ok, true, JSON.stringify(r.error));
    const [e] = r.files[0].edits;
    assert.equal(e.range.start.row, 0);
    // UTF-16 index of the changed character: bytes (4 per emoji, 3 per CJK character) or
    // code points would give another column.
    assert.equal(e.range.start.column, text.indexOf('1;'));
    applyEditsToBuffer(buffer, r.files[0].edits, r.files[0].new_text);
    assert.equal(buffer.getText(), 'const s = "😀😀 重试"; let n = 42;\nnext();\n');
    assert.equal(buffer.getTextInRange([tail.getHeadPosition(), [0, tail.getHeadPosition().column + 1]]), ';');
  });

  test('a buffer that does not end up as new_text is left exactly as it was', () => {
    const buffer = bufferWith('abc\n');
    buffer.setTextInRange([[0, 0], [0, 0]], 'x');
    const wrong = { range: { start: { row: 0, column: 1 }, end: { row: 0, column: 2 } }, text: 'Z' };
    assert.throws(
      () => applyEditsToBuffer(buffer, [wrong], 'xabZ\n'),
      (e) => e.kind === 'write_failed',
    );
    assert.equal(buffer.getText(), 'xabc\n');
    buffer.undo();
    assert.equal(buffer.getText(), 'abc\n', 'the undo history holds only the user\'s change');
  });
});

describe('applyChanges: open buffers, files on disk, all or nothing', () => {
  test('an open buffer is edited (unsaved), a closed file is written to disk', async () => {
    const p = tempProject({ 'open.py': 'x = 1\n', 'closed.py': 'y = 1\n' });
    try {
      const buffer = await openBuffer(p.file('open.py'));
      buffer.append('# unsaved\n');
      const ws = workspaceFor([p.root], [buffer]);
      const { result, reads } = compute(
        {
          tool: 'multi_replace',
          arguments: {
            replacements: [
              { path: 'open.py', old_str: '# unsaved', new_str: '# edited' },
              { path: 'closed.py', old_str: 'y = 1', new_str: 'y = 2' },
            ],
          },
        },
        ws,
      );
      const report = applyChanges(result.files, { workspace: ws, reads });
      assert.equal(buffer.getText(), 'x = 1\n# edited\n');
      assert.equal(buffer.isModified(), true, 'left dirty for the user to save');
      assert.equal(p.read('open.py'), 'x = 1\n', 'the open file is not written');
      assert.equal(p.read('closed.py'), 'y = 2\n');
      assert.deepEqual(report.written, ['closed.py']);
      assert.deepEqual(report.buffers.map((b) => b.path), ['open.py']);
      assert.deepEqual(report.buffers[0].layer.getMarkers().map((m) => m.getRange().start.row), [1]);
    } finally {
      p.cleanup();
    }
  });

  test('creates, deletes and moves from apply_patch; a moved open buffer follows its file', async () => {
    const p = tempProject({ 'old.txt': 'keep\nold\n', 'gone.txt': 'bye\n' });
    try {
      const moved = await openBuffer(p.file('old.txt'));
      const ws = workspaceFor([p.root], [moved]);
      const { result, reads } = compute(
        {
          tool: 'apply_patch',
          arguments: {
            patch:
              '*** Begin Patch\n*** Add File: dir/new.txt\n+hello\n*** Delete File: gone.txt\n*** Update File: old.txt\n*** Move to: renamed.txt\n@@\n keep\n-old\n+new\n*** End Patch\n',
          },
        },
        ws,
      );
      const report = applyChanges(result.files, { workspace: ws, reads });
      assert.equal(p.read('dir/new.txt'), 'hello\n');
      assert.equal(p.exists('gone.txt'), false);
      assert.equal(p.exists('old.txt'), false);
      assert.equal(p.read('renamed.txt'), 'keep\nnew\n');
      assert.equal(moved.getPath(), p.file('renamed.txt'));
      assert.equal(moved.getText(), 'keep\nnew\n');
      assert.deepEqual(report.deleted.map((d) => d.path), ['gone.txt']);
      assert.deepEqual(report.moved.map((m) => [m.path, m.to]), [['old.txt', 'renamed.txt']]);
    } finally {
      p.cleanup();
    }
  });

  test('a text that changed since the engine read it: stale_buffer, nothing written', async () => {
    const p = tempProject({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
    try {
      const a = await openBuffer(p.file('a.txt'));
      const ws = workspaceFor([p.root], [a]);
      const { result, reads } = compute(
        {
          tool: 'multi_replace',
          arguments: { replacements: [{ path: 'a.txt', old_str: 'one', new_str: '1' }, { path: 'b.txt', old_str: 'two', new_str: '2' }] },
        },
        ws,
      );
      a.append('typed by the user\n');
      assert.throws(() => applyChanges(result.files, { workspace: ws, reads, staleWhen: 'during_review' }), (e) => {
        assert.equal(e.kind, 'stale_buffer');
        assert.match(e.message, /`a\.txt` changed while the edit waited for review; nothing was changed/);
        return true;
      });
      assert.equal(a.getText(), 'one\ntyped by the user\n');
      assert.equal(p.read('b.txt'), 'two\n');
    } finally {
      p.cleanup();
    }
  });

  test('a failure on a later file puts back the buffers and files already changed', async () => {
    const p = tempProject({ 'a.txt': 'one\n', 'b.txt': 'two\n', 'c.txt': 'three\n' });
    try {
      const a = await openBuffer(p.file('a.txt'));
      const real = workspaceFor([p.root], [a]);
      const { result, reads } = compute(
        {
          tool: 'multi_replace',
          arguments: {
            replacements: [
              { path: 'a.txt', old_str: 'one', new_str: '1' },
              { path: 'b.txt', old_str: 'two', new_str: '2' },
              { path: 'c.txt', old_str: 'three', new_str: '3' },
            ],
          },
        },
        real,
      );
      // The disk refuses the last write (as a read-only file or a full disk would).
      const failing = {
        ...real,
        writeFile(loc, content) {
          if (loc.real.endsWith('c.txt')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
          return real.writeFile(loc, content);
        },
      };
      assert.throws(() => applyChanges(result.files, { workspace: failing, reads }), (e) => {
        assert.equal(e.kind, 'write_failed');
        assert.match(e.message, /permission denied/);
        return true;
      });
      assert.equal(a.getText(), 'one\n');
      assert.equal(p.read('b.txt'), 'two\n');
      assert.equal(p.read('c.txt'), 'three\n');
      a.undo();
      assert.equal(a.getText(), 'one\n', 'nothing left in the undo history');
    } finally {
      p.cleanup();
    }
  });

  test('a file written on disk keeps its permissions', async () => {
    const p = tempProject({ 'run.sh': 'echo 1\n' });
    try {
      fs.chmodSync(p.file('run.sh'), 0o755);
      const ws = workspaceFor([p.root], []);
      const { result, reads } = compute({ tool: 'str_replace', arguments: { path: 'run.sh', old_str: 'echo 1', new_str: 'echo 2' } }, ws);
      applyChanges(result.files, { workspace: ws, reads });
      assert.equal(p.read('run.sh'), 'echo 2\n');
      assert.equal(fs.statSync(p.file('run.sh')).mode & 0o777, 0o755);
    } finally {
      p.cleanup();
    }
  });
});
