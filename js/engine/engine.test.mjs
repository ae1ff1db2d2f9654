// The packaged engine in Node (pkg/, built by scripts/build-wasm): the public wrapper,
// conditional exports, and recovery from an engine panic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as engine from '../../pkg/index.node.js';

const { Session, toolSchemas, hostRefusal, serverInstructions, EnginePanicError, __panicForTests } = engine;
const pkgDir = fileURLToPath(new URL('../../pkg/', import.meta.url));

const reader = (files) => ({ read: (p) => (Object.hasOwn(files, p) ? files[p] : undefined) });
/**
 * Runs `fn` with console.error captured: the engine's panic hook logs each panic there
 * (console_error_panic_hook), and a test that panics on purpose must not print a trace
 * into a passing log. Returns what was logged, for the test to check.
 */
function capturingConsoleError(fn) {
  const logged = [];
  const original = console.error;
  console.error = (...args) => logged.push(args.join(' '));
  try {
    fn();
  } finally {
    console.error = original;
  }
  return logged;
}

const replace = (path, old_str, new_str, extra = {}) => ({
  tool: 'str_replace',
  arguments: { path, old_str, new_str, ...extra },
});

test('the package name resolves to the Node build through conditional exports', async () => {
  // A consumer folder whose node_modules/anchored-edit is pkg/.
  const consumer = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-consumer-'));
  try {
    fs.mkdirSync(path.join(consumer, 'node_modules'));
    fs.symlinkSync(pkgDir, path.join(consumer, 'node_modules', 'anchored-edit'), 'dir');
    const require = createRequire(path.join(consumer, 'index.js'));
    const viaRequire = require('anchored-edit'); // the "node" condition, for require() too
    assert.equal(require.resolve('anchored-edit'), path.join(fs.realpathSync(pkgDir), 'index.node.js'));
    assert.deepEqual(viaRequire.toolSchemas(), toolSchemas());
    const viaImport = await import(pathToFileURL(path.join(consumer, 'node_modules', 'anchored-edit', 'index.node.js')).href);
    assert.equal(typeof viaImport.Session, 'function');
  } finally {
    fs.rmSync(consumer, { recursive: true, force: true });
  }
});

test('a call returns plain objects with new_text and UTF-16 edits', () => {
  const s = new Session();
  const files = { 'a.txt': 'héllo 😀 世界\n' };
  const r = s.call(replace('a.txt', '世界', 'world'), reader(files));
  assert.equal(r.ok, true);
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.equal(r.files[0].new_text, 'héllo 😀 world\n');
  const col = files['a.txt'].indexOf('世界');
  assert.deepEqual(r.files[0].edits, [
    { range: { start: { row: 0, column: col }, end: { row: 0, column: col + 2 } }, text: 'world' },
  ]);
});

test('an engine panic reaches the caller as EnginePanicError and the session survives', () => {
  const files = { 'a.txt': 'a\nb\n' };
  const s = new Session();
  const other = new Session();
  assert.equal(s.call(replace('a.txt', 'b', 'c'), reader(files)).ok, true);
  assert.equal(s.call(replace('a.txt', 'zzz', 'c'), reader(files)).ok, false);
  other.call(replace('a.txt', 'a', 'x'), reader(files));
  const before = s.statsJson();

  // The reader re-enters the engine and makes it panic in the middle of a call.
  const panicking = { read: () => __panicForTests('boom in read') };
  const logged = capturingConsoleError(() =>
    assert.throws(
      () => s.call({ tool: 'get_document', arguments: { path: 'a.txt' } }, panicking),
      (e) => e instanceof EnginePanicError && /boom in read/.test(e.message) && e.cause?.name === 'EnginePanic',
    ),
  );
  assert.match(logged.join('\n'), /boom in read/, 'the panic is logged (captured here)');

  // Same object, fresh instance, statistics restored.
  assert.equal(s.statsJson(), before);
  const again = s.call(replace('a.txt', 'b', 'c'), reader(files));
  assert.equal(again.ok, true);
  assert.equal(again.files[0].new_text, 'a\nc\n');
  const stats = JSON.parse(s.statsJson());
  assert.equal(stats.tools.str_replace.calls, 3);
  // Another session of the same module notices the new instance and keeps its statistics.
  assert.equal(JSON.parse(other.statsJson()).tools.str_replace.calls, 1);
  assert.equal(other.call(replace('a.txt', 'a', 'x'), reader(files)).ok, true);
  assert.equal(toolSchemas().length > 0, true);
  // A new session works too.
  assert.equal(new Session().call(replace('a.txt', 'a', 'x'), reader(files)).ok, true);
});

test('setRoots: the path rule, kept across an engine restart', () => {
  const read = [];
  const files = { read: (p) => (read.push(p), p === 'a.txt' || p === '/other/b.txt' ? 'x\n' : undefined) };
  const s = new Session();
  const count = (path) => s.call({ tool: 'line_count', arguments: { path } }, files);
  assert.equal(count('/root/a.txt').error.kind, 'path_outside_root', 'no roots: no absolute path');
  s.setRoots(['/root', '/other']);
  assert.equal(count('/root/a.txt').line_count, 1);
  assert.equal(count('/other/b.txt').line_count, 1);
  assert.equal(count('/etc/passwd').error.kind, 'path_outside_root');
  assert.deepEqual(read, ['a.txt', '/other/b.txt']);
  capturingConsoleError(() =>
    assert.throws(() => s.call({ tool: 'get_document', arguments: { path: 'a.txt' } }, { read: () => __panicForTests('x') }), EnginePanicError),
  );
  assert.equal(count('/root/a.txt').line_count, 1, 'the restarted engine keeps the roots');
  assert.equal(count('/etc/passwd').error.kind, 'path_outside_root');
});

test('a panic outside a session (free function) is also an EnginePanic error', () => {
  capturingConsoleError(() =>
    assert.throws(() => __panicForTests('direct'), (e) => e.name === 'EnginePanic' && /direct/.test(e.message)),
  );
  const s = new Session();
  assert.equal(s.call({ tool: 'line_count', arguments: { path: 'x' } }, reader({ x: '1\n' })).line_count, 1);
});

test('host errors throw, refusals do not', () => {
  const s = new Session();
  assert.throws(() => s.call({ tool: 'line_count', arguments: { path: 'x' } }, { nope: 1 }), TypeError);
  assert.throws(() => s.loadStats('{'), /loadStats/);
  const r = s.call(replace('x', 'a', 'b'), reader({}));
  assert.equal(r.ok, false);
  assert.equal(r.error.kind, 'file_not_found');
  s.free();
  assert.throws(() => s.statsJson(), /free/);
});

test('call options: dryRun makes any request shape a dry run; newText: false drops texts', () => {
  const files = { 'a.txt': 'a\nb\n' };
  const args = { path: 'a.txt', old_str: 'b', new_str: 'c' };
  for (const request of [
    { tool: 'str_replace', arguments: args },
    { tool: 'str_replace', arguments: JSON.stringify(args) },
    { name: 'str_replace', input: { ...args, dry_run: false } },
    JSON.stringify({ tool: 'str_replace', arguments: args }),
  ]) {
    const r = new Session().call(request, reader(files), { dryRun: true });
    assert.equal(r.ok, true);
    assert.equal(r.dry_run, true, JSON.stringify(request));
  }
  const r = new Session().call({ tool: 'str_replace', arguments: args }, reader(files), { newText: false });
  assert.equal(r.dry_run, false);
  assert.equal(r.files[0].new_text, undefined);
});

test('tool schemas carry MCP annotations; editing tools are exactly the non-read-only ones', () => {
  for (const t of toolSchemas()) {
    assert.equal(typeof t.annotations.title, 'string');
    assert.equal(typeof t.annotations.readOnlyHint, 'boolean');
    assert.equal(Object.hasOwn(t.inputSchema.properties, 'dry_run'), !t.annotations.readOnlyHint, t.name);
  }
});

test('hostRefusal words every host refusal once, and refuses an unknown kind', () => {
  const failed = hostRefusal('str_replace', 'write_failed', { why: 'disk full' });
  assert.deepEqual([failed.ok, failed.error.kind], [false, 'write_failed']);
  assert.match(failed.error.message, /\(disk full\)/);
  const stale = hostRefusal('apply_patch', 'stale_buffer', { path: 'a.txt', when: 'during_review' });
  assert.match(stale.error.message, /`a\.txt` changed while the edit waited for review/);
  const late = hostRefusal('insert', 'edit_rejected', { reason: 'timeout', seconds: 300 });
  assert.match(late.error.message, /within 300 s/);
  assert.throws(() => hostRefusal('x', 'nope', {}), /unknown kind/);
  assert.throws(() => hostRefusal('x', 'stale_buffer', { path: 'a', when: 'later' }), /incomplete detail/);
});

test('statistics records: the last call as a --stats line, replayed into another session', () => {
  const files = { 'a.txt': 'a\nb\n' };
  const first = new Session();
  first.call({ tool: 'str_replace', arguments: { path: 'a.txt', old_str: 'b', new_str: 'c' } }, reader(files));
  const line = first.lastRecordJson();
  assert.equal(JSON.parse(line).tool, 'str_replace');
  assert.ok(!line.includes('\n'), 'one JSON line');
  const second = new Session();
  assert.equal(second.replayRecord(line), true);
  assert.equal(second.statsJson(), first.statsJson());
  assert.equal(second.replayRecord('{"not": "a record"}'), false);
  assert.equal(second.statsJson(), first.statsJson(), 'a foreign line changes nothing');
  assert.equal(new Session().lastRecordJson(), undefined, 'no call, no record');
});

test('serverInstructions: one paragraph naming the tools a model chooses between', () => {
  const text = serverInstructions();
  assert.ok(!text.includes('\n'));
  for (const name of ['str_replace', 'apply_patch', 'read_lines', 'grep_file', 'expected_version']) assert.ok(text.includes(name), name);
});

test('a reader may hand bytes: the engine decodes them and encodeText writes the result back', () => {
  // windows-1252 "# café\nx = 1\n" and UTF-16LE with a BOM.
  const latin = new Uint8Array(Buffer.from('# caf\xe9\nx = 1\n', 'latin1'));
  const utf16 = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('y = 1\n', 'utf16le')]));
  const files = { 'l.py': latin, 'w.py': utf16, 'u.py': 'z = 1\n' };
  const reader = { read: (p) => files[p] };
  const session = new engine.Session();
  const undeclared = session.call({ tool: 'str_replace', arguments: { path: 'l.py', old_str: 'x = 1', new_str: 'x = 2' } }, reader);
  assert.match(undeclared.error.message, /"encoding": "windows-1252"/);
  const r = session.call(
    { tool: 'str_replace', arguments: { path: 'l.py', old_str: 'x = 1', new_str: "x = '€'", encoding: 'latin1' } },
    reader,
  );
  assert.equal(r.files[0].encoding, 'windows-1252');
  assert.deepEqual(Buffer.from(engine.encodeText(r.files[0].new_text, r.files[0].encoding)), Buffer.from("# caf\xe9\nx = '\x80'\n", 'latin1'));
  const w = session.call({ tool: 'str_replace', arguments: { path: 'w.py', old_str: 'y = 1', new_str: 'y = 2' } }, reader);
  assert.equal(w.files[0].encoding, 'UTF-16LE');
  assert.deepEqual(
    Buffer.from(engine.encodeText(w.files[0].new_text, w.files[0].encoding)),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('y = 2\n', 'utf16le')]),
  );
  // A string is text the host decoded: no encoding to write it back in.
  const u = session.call({ tool: 'str_replace', arguments: { path: 'u.py', old_str: 'z = 1', new_str: 'z = 2' } }, reader);
  assert.equal(u.files[0].encoding, undefined);
  assert.throws(() => engine.encodeText('日', 'latin1'), /U\+65E5/);
});

test('kept buffers: read before the reader, changed by a result\'s edits, closed back to the reader', () => {
  const session = new Session();
  const disk = reader({ 'a.py': 'def f():\n    return 1\n' });
  session.openBuffer('a.py', 'def f():\n    return 2\n');
  const first = session.call(replace('a.py', 'return 2', 'return 3'), disk, { newText: false });
  assert.equal(first.ok, true, JSON.stringify(first.error));
  assert.equal(first.files[0].new_text, undefined);
  // The host applied the edits to its buffer: it sends the same array.
  assert.equal(session.editBuffer('a.py', first.files[0].edits), true);
  const second = session.call(replace('a.py', 'return 3', 'return 4'), disk);
  assert.equal(second.ok, true, JSON.stringify(second.error));
  assert.equal(second.files[0].new_text, 'def f():\n    return 4\n');
  // Out of order: refused, the kept text unchanged.
  const edits = [...first.files[0].edits].reverse();
  assert.equal(session.editBuffer('a.py', [...edits, ...edits]), false);
  assert.equal(session.editBuffer('missing.py', []), false);
  assert.throws(() => session.editBuffer('a.py', 'not edits'), /editBuffer: edits must be an array/);
  assert.equal(session.closeBuffer('a.py'), true);
  assert.equal(session.closeBuffer('a.py'), false);
  const back = session.call(replace('a.py', 'return 1', 'return 5'), disk);
  assert.equal(back.ok, true, JSON.stringify(back.error));
});
