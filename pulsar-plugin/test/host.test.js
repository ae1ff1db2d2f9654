'use strict';
// lib/host.js with the real engine and real TextBuffers, calls made as the MCP server
// makes them (engine, then apply), without HTTP: previews, review mode, stale refusals,
// saving, statistics persistence.
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { tempProject, openBuffer, makeHost, resultOf, waitFor } = require('./helpers');

async function setUp(files, options = {}) {
  const p = tempProject(files);
  const buffers = [];
  for (const rel of options.open ?? []) buffers.push(await openBuffer(p.file(rel)));
  const made = makeHost({ roots: [p.root], buffers, settings: options.settings, state: options.state });
  return { p, buffers, ...made };
}

describe('agent edits', () => {
  test('an edit lands in the open buffer (left unsaved) and is reported as applied', async () => {
    const { p, buffers, host } = await setUp({ 'app.py': 'retries = 3\n' }, { open: ['app.py'] });
    try {
      const [b] = buffers;
      const r = await host.call('str_replace', { path: 'app.py', old_str: 'retries = 3', new_str: 'retries = 5' });
      assert.equal(r.isError, false);
      assert.equal(b.getText(), 'retries = 5\n');
      assert.equal(b.isModified(), true);
      assert.equal(p.read('app.py'), 'retries = 3\n');
      assert.equal(host.lastEdit.outcome, 'applied');
      assert.equal(host.lastEdit.tool, 'str_replace');
      assert.equal(host.lastEdit.path, 'app.py');
    } finally {
      p.cleanup();
    }
  });

  test('a closed file in another encoding is read as bytes and written back in its encoding', async () => {
    const { p, host } = await setUp({});
    try {
      const fs = require('fs');
      // windows-1252 "# café\nx = 1\n" and UTF-16LE with a BOM.
      fs.writeFileSync(p.file('l.py'), Buffer.from('# caf\xe9\nx = 1\n', 'latin1'));
      fs.writeFileSync(p.file('w.py'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('y = 1\n', 'utf16le')]));
      const refused = resultOf(await host.call('str_replace', { path: 'l.py', old_str: 'x = 1', new_str: 'x = 2' }));
      assert.match(refused.error.message, /"encoding": "windows-1252"/);
      const r = resultOf(
        await host.call('str_replace', { path: 'l.py', old_str: 'x = 1', new_str: "x = 'à'", encoding: 'latin1' }),
      );
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.deepEqual(fs.readFileSync(p.file('l.py')), Buffer.from("# caf\xe9\nx = '\xe0'\n", 'latin1'));
      const w = resultOf(await host.call('str_replace', { path: 'w.py', old_str: 'y = 1', new_str: "y = '€'" }));
      assert.equal(w.files[0].encoding, 'UTF-16LE');
      assert.deepEqual(
        fs.readFileSync(p.file('w.py')),
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("y = '€'\n", 'utf16le')]),
      );
      const lossy = resultOf(
        await host.call('str_replace', { path: 'l.py', old_str: "x = 'à'", new_str: "x = '日'", encoding: 'latin1' }),
      );
      assert.equal(lossy.error.kind, 'invalid_arguments');
      assert.deepEqual(fs.readFileSync(p.file('l.py')), Buffer.from("# caf\xe9\nx = '\xe0'\n", 'latin1'));
    } finally {
      p.cleanup();
    }
  });

  test('saveAfterEdit saves the edited buffer', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'x\n' }, { open: ['a.txt'], settings: { saveAfterEdit: true } });
    try {
      await host.call('str_replace', { path: 'a.txt', old_str: 'x', new_str: 'y' });
      await waitFor(() => !buffers[0].isModified());
      assert.equal(p.read('a.txt'), 'y\n');
    } finally {
      p.cleanup();
    }
  });

  test('a multi-file patch is one undo step per buffer', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'a1\na2\n', 'b.txt': 'b1\n' }, { open: ['a.txt', 'b.txt'] });
    try {
      const r = await host.call('apply_patch', {
        patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-a1\n+A1\n a2\n*** Update File: b.txt\n@@\n-b1\n+B1\n*** End Patch\n',
      });
      assert.equal(r.isError, false, r.content[0].text);
      const [a, b] = buffers;
      assert.equal(a.getText(), 'A1\na2\n');
      assert.equal(b.getText(), 'B1\n');
      a.undo();
      b.undo();
      assert.equal(a.getText(), 'a1\na2\n');
      assert.equal(b.getText(), 'b1\n');
    } finally {
      p.cleanup();
    }
  });

  test("expected_version from a read, then the user types elsewhere: the edit is rebased onto the buffer's text", async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'one\ntwo\n' }, { open: ['a.txt'] });
    try {
      const read = resultOf(await host.call('read_lines', { path: 'a.txt', start_line: 1, end_line: 2 }));
      buffers[0].setTextInRange([[0, 0], [0, 0]], 'zero\n');
      const r = await host.call('str_replace', { path: 'a.txt', old_str: 'two', new_str: '2', expected_version: read.version });
      assert.equal(r.isError, false, r.content[0].text);
      assert.match(resultOf(r).warnings.join('\n'), /Rebased: a\.txt changed since the version you read/);
      assert.equal(buffers[0].getText(), 'zero\none\n2\n');
    } finally {
      p.cleanup();
    }
  });

  test('near miss: the user typed on the line the edit replaces: stale_buffer with what changed', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'one\ntwo\n' }, { open: ['a.txt'] });
    try {
      const read = resultOf(await host.call('read_lines', { path: 'a.txt', start_line: 1, end_line: 2 }));
      buffers[0].setTextInRange([[1, 3], [1, 3]], '!');
      const r = await host.call('str_replace', { path: 'a.txt', old_str: 'two', new_str: '2', expected_version: read.version });
      assert.equal(r.isError, true);
      const { error } = resultOf(r);
      assert.equal(error.kind, 'stale_buffer');
      assert.match(error.diagnostics.changed_since, /-two\n\+two!/);
      assert.equal(buffers[0].getText(), 'one\ntwo!\n');
      // The version of the current text passes.
      const again = resultOf(await host.call('read_lines', { path: 'a.txt', start_line: 1, end_line: 1 }));
      const ok = await host.call('str_replace', { path: 'a.txt', old_str: 'two!', new_str: '2', expected_version: again.version });
      assert.equal(ok.isError, false);
    } finally {
      p.cleanup();
    }
  });

  test('undo_edit takes a multi-file patch back in one undo step per buffer; the editor can redo it', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'a1\na2\n', 'b.txt': 'b1\n' }, { open: ['a.txt', 'b.txt'] });
    try {
      const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-a1\n+A1\n a2\n*** Update File: b.txt\n@@\n-b1\n+B1\n*** End Patch\n';
      assert.equal((await host.call('apply_patch', { patch })).isError, false);
      const u = await host.call('undo_edit', {});
      assert.equal(u.isError, false, u.content[0].text);
      const [a, b] = buffers;
      assert.deepEqual([a.getText(), b.getText()], ['a1\na2\n', 'b1\n']);
      // The undo is one step of each buffer's history: undoing it brings the patch back.
      a.undo();
      b.undo();
      assert.deepEqual([a.getText(), b.getText()], ['A1\na2\n', 'B1\n']);
      // The session's history is empty now; the buffers changed, so nothing is undone.
      const again = resultOf(await host.call('undo_edit', {}));
      assert.equal(again.ok, false);
    } finally {
      p.cleanup();
    }
  });

  test('undo_edit {steps: 2} is two undo steps of the buffer, one per call taken back', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'x = 1\ny = 1\n' }, { open: ['a.txt'] });
    try {
      const [a] = buffers;
      assert.equal((await host.call('str_replace', { path: 'a.txt', old_str: 'x = 1', new_str: 'x = 2' })).isError, false);
      assert.equal((await host.call('str_replace', { path: 'a.txt', old_str: 'y = 1', new_str: 'y = 2' })).isError, false);
      const u = await host.call('undo_edit', { steps: 2 });
      assert.equal(u.isError, false, u.content[0].text);
      assert.equal(a.getText(), 'x = 1\ny = 1\n');
      // The buffer's history: the undo of the second edit, then the undo of the first.
      a.undo();
      assert.equal(a.getText(), 'x = 2\ny = 1\n');
      a.undo();
      assert.equal(a.getText(), 'x = 2\ny = 2\n');
      a.redo();
      a.redo();
      assert.equal(a.getText(), 'x = 1\ny = 1\n');
      // What the agent reads is the whole change, without the per-call groups.
      assert.equal(resultOf(u).undone, undefined);
    } finally {
      p.cleanup();
    }
  });

  test('an edit the host could not apply is not undone later (the session forgets it)', async () => {
    const { p, buffers, host, settings } = await setUp({ 'a.txt': 'x = 1\n' }, { open: ['a.txt'] });
    try {
      assert.equal((await host.call('str_replace', { path: 'a.txt', old_str: 'x = 1', new_str: 'x = 2' })).isError, false);
      // Review mode with no decision: the second edit times out, not applied.
      settings.reviewMode = true;
      settings.reviewTimeoutMs = 1;
      const timedOut = await host.call('str_replace', { path: 'a.txt', old_str: 'x = 2', new_str: 'x = 3' });
      assert.equal(timedOut.isError, true);
      settings.reviewMode = false;
      // undo_edit takes back the first edit, the one that landed.
      const u = await host.call('undo_edit', {});
      assert.equal(u.isError, false, u.content[0].text);
      assert.equal(buffers[0].getText(), 'x = 1\n');
    } finally {
      p.cleanup();
    }
  });
});

describe('dry-run previews', () => {
  test('a dry run changes nothing and becomes a preview; Apply commits exactly it, in one undo step', async () => {
    const { p, buffers, host } = await setUp({ 'a.js': 'let a = 1;\nlet b = 2;\n' }, { open: ['a.js'] });
    try {
      const [b] = buffers;
      const r = await host.call('str_replace', { path: 'a.js', old_str: 'let b = 2;', new_str: 'let b = 3;', dry_run: true });
      assert.equal(r.isError, false);
      assert.equal(b.getText(), 'let a = 1;\nlet b = 2;\n');
      const preview = host.queue.current();
      assert.equal(preview.kind, 'dry-run');
      assert.equal(preview.status, 'pending');
      assert.match(preview.files[0].diff, /-let b = 2;\n\+let b = 3;/);
      assert.equal(host.lastEdit.outcome, 'previewed');
      const applied = host.queue.apply(preview.id);
      assert.equal(applied.ok, true);
      // The engine keeps the open buffer: the result carries its edits, not a copy of the text.
      assert.equal(preview.files[0].new_text, undefined);
      assert.equal(b.getText(), 'let a = 1;\nlet b = 3;\n');
      assert.equal(preview.status, 'applied');
      assert.equal(host.queue.apply(preview.id).ok, false, 'applied once only');
      b.undo();
      assert.equal(b.getText(), 'let a = 1;\nlet b = 2;\n');
      assert.equal(host.stats().counts.previewsApplied, 1);
    } finally {
      p.cleanup();
    }
  });

  test('Apply is refused when the buffer changed since the preview; nothing is applied', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'x = 1\n' }, { open: ['a.txt'] });
    try {
      await host.call('str_replace', { path: 'a.txt', old_str: 'x = 1', new_str: 'x = 2', dry_run: true });
      const preview = host.queue.current();
      buffers[0].append('# typed\n');
      const r = host.queue.apply(preview.id);
      assert.equal(r.ok, false);
      assert.match(r.message, /changed since this diff was computed/);
      assert.equal(preview.status, 'stale');
      assert.equal(buffers[0].getText(), 'x = 1\n# typed\n');
      assert.equal(host.stats().counts.refusedStale, 1);
    } finally {
      p.cleanup();
    }
  });

  test('a preview of a closed file is refused when the file changed on disk', async () => {
    const { p, host } = await setUp({ 'a.txt': 'x = 1\n' });
    try {
      await host.call('str_replace', { path: 'a.txt', old_str: 'x = 1', new_str: 'x = 2', dry_run: true });
      p.write('a.txt', 'x = 1\ny = 1\n');
      assert.equal(host.queue.apply(host.queue.current().id).ok, false);
      assert.equal(p.read('a.txt'), 'x = 1\ny = 1\n');
    } finally {
      p.cleanup();
    }
  });

  test('Discard drops the preview; a newer dry run replaces an older one', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'x\n' }, { open: ['a.txt'] });
    try {
      await host.call('str_replace', { path: 'a.txt', old_str: 'x', new_str: 'y', dry_run: true });
      const first = host.queue.current();
      await host.call('str_replace', { path: 'a.txt', old_str: 'x', new_str: 'z', dry_run: true });
      const second = host.queue.current();
      assert.notEqual(first.id, second.id);
      assert.equal(first.status, 'replaced');
      assert.equal(host.queue.apply(first.id).ok, false);
      assert.equal(host.queue.discard(second.id), true);
      assert.equal(second.status, 'discarded');
      assert.equal(buffers[0].getText(), 'x\n');
    } finally {
      p.cleanup();
    }
  });
});

describe('review mode', () => {
  test('the call waits until the user applies, then returns the engine\'s success', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'old\n' }, { open: ['a.txt'], settings: { reviewMode: true } });
    try {
      const pending = host.call('str_replace', { path: 'a.txt', old_str: 'old', new_str: 'new' });
      await waitFor(() => host.queue.review !== null);
      const held = host.queue.current();
      assert.equal(held.kind, 'review');
      assert.equal(buffers[0].getText(), 'old\n', 'held, not applied');
      assert.equal(host.lastEdit.outcome, 'held');
      assert.equal(host.queue.apply(held.id).ok, true);
      const r = await pending;
      assert.equal(r.isError, false);
      assert.match(r.content[0].text, /Replaced 1 occurrence/);
      assert.equal(buffers[0].getText(), 'new\n');
      assert.equal(host.lastEdit.outcome, 'applied');
      assert.equal(host.stats().counts.reviewsApplied, 1);
    } finally {
      p.cleanup();
    }
  });

  test("Discard returns the user's rejection to the agent; nothing changes", async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'old\n' }, { open: ['a.txt'], settings: { reviewMode: true } });
    try {
      const pending = host.call('str_replace', { path: 'a.txt', old_str: 'old', new_str: 'new' });
      await waitFor(() => host.queue.review !== null);
      host.queue.discard(host.queue.review.id);
      const r = await pending;
      assert.equal(r.isError, true);
      assert.equal(resultOf(r).error.kind, 'edit_rejected');
      assert.match(r.content[0].text, /The user discarded this edit.*Do not send it again unchanged/);
      assert.equal(buffers[0].getText(), 'old\n');
      assert.equal(host.lastEdit.outcome, 'refused');
    } finally {
      p.cleanup();
    }
  });

  test('an edit nobody reviews is refused after the timeout', async () => {
    const { p, host } = await setUp({ 'a.txt': 'old\n' }, { settings: { reviewMode: true, reviewTimeoutMs: 60 } });
    try {
      const r = await host.call('str_replace', { path: 'a.txt', old_str: 'old', new_str: 'new' });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /nobody applied this edit within 0\.06 s; nothing was changed/);
      assert.equal(p.read('a.txt'), 'old\n');
      assert.equal(host.queue.review, null);
      assert.equal(host.stats().counts.reviewsExpired, 1);
    } finally {
      p.cleanup();
    }
  });

  test('the user typed in the buffer while the edit waited: stale_buffer to the agent', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'old\n' }, { open: ['a.txt'], settings: { reviewMode: true } });
    try {
      const pending = host.call('str_replace', { path: 'a.txt', old_str: 'old', new_str: 'new' });
      await waitFor(() => host.queue.review !== null);
      buffers[0].append('typed\n');
      assert.equal(host.queue.apply(host.queue.review.id).ok, false);
      const r = await pending;
      assert.equal(resultOf(r).error.kind, 'stale_buffer');
      assert.match(r.content[0].text, /changed while the edit waited for review/);
      assert.equal(buffers[0].getText(), 'old\ntyped\n');
    } finally {
      p.cleanup();
    }
  });

  test('a call sent while an edit is held runs after the decision and sees its result', async () => {
    const { p, buffers, host } = await setUp({ 'a.txt': 'one\n' }, { open: ['a.txt'], settings: { reviewMode: true } });
    try {
      const first = host.call('str_replace', { path: 'a.txt', old_str: 'one', new_str: 'two' });
      await waitFor(() => host.queue.review !== null);
      const second = host.call('str_replace', { path: 'a.txt', old_str: 'two', new_str: 'three' });
      const firstId = host.queue.review.id;
      host.queue.apply(firstId);
      assert.equal((await first).isError, false);
      await waitFor(() => host.queue.review !== null && host.queue.review.id !== firstId);
      host.queue.apply(host.queue.review.id);
      assert.equal((await second).isError, false, 'the second call found "two", the first call\'s text');
      assert.equal(buffers[0].getText(), 'three\n');
    } finally {
      p.cleanup();
    }
  });
});

describe('statistics', () => {
  test('persist through serialize() into a new host (a restart)', async () => {
    const { p, host } = await setUp({ 'a.txt': 'x\n' });
    try {
      await host.call('str_replace', { path: 'a.txt', old_str: 'x', new_str: 'y' });
      await host.call('str_replace', { path: 'a.txt', old_str: 'nope', new_str: 'z' });
      await host.call('str_replace', { path: 'a.txt', old_str: 'y', new_str: 'w', dry_run: true });
      host.queue.discard(host.queue.current().id);
      const state = JSON.parse(JSON.stringify(host.serialize())); // as Pulsar stores it
      const before = host.stats();
      assert.equal(before.tools.str_replace.calls, 3);
      assert.equal(before.tools.str_replace.refused, 1);
      assert.deepEqual(before.tools.str_replace.errors, { no_match: 1 });

      const restarted = makeHost({ roots: [p.root], buffers: [], state }).host;
      assert.deepEqual(restarted.stats(), before);
      assert.equal(restarted.stats().counts.previewsDiscarded, 1);
      await restarted.call('str_replace', { path: 'a.txt', old_str: 'y', new_str: 'w' });
      assert.equal(restarted.stats().tools.str_replace.calls, 4);
      assert.equal(restarted.stats().tools.str_replace.dry_runs_committed, 1, 'the dry run before the restart paired with this commit');

      restarted.resetStats();
      assert.deepEqual(restarted.stats().tools, {});
      assert.equal(restarted.stats().counts.previewsDiscarded, 0);
    } finally {
      p.cleanup();
    }
  });

  test('unreadable saved statistics start from zero with a warning', () => {
    const { host } = makeHost({ roots: [], buffers: [], state: { statsJson: '{"not": "stats"' } });
    assert.match(host.loadWarning, /could not be read/);
    assert.deepEqual(host.stats().tools, {});
  });
});
