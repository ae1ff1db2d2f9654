// The native MCP server (`anchored-edit mcp`) driven by the official SDK client over
// stdio: tools listed from the engine, an edit written to disk, a dry run that writes
// nothing, a refusal as a tool result with isError and the structured JSON.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = process.env.ANCHORED_EDIT_BIN ?? join(repo, 'target/debug/anchored-edit');
let root;
let client;

before(async () => {
  assert.ok(existsSync(bin), `build the CLI first: ${bin}`);
  root = mkdtempSync(join(tmpdir(), 'ae-mcp-'));
  writeFileSync(join(root, 'app.py'), 'def f():\r\n    retries = 3\r\n    return retries\r\n');
  writeFileSync(join(root, 'dup.rs'), 'let a = 1;\nlet a = 1;\n');
  client = new Client({ name: 'anchored-edit-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--root', root] }));
});

after(async () => {
  await client?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('lists every engine tool with its schema', async () => {
  const { tools } = await client.listTools();
  const expected = JSON.parse(execFileSync(bin, ['tools'], { encoding: 'utf8' }));
  assert.deepEqual(tools.map((t) => t.name), expected.map((t) => t.name));
  const sr = tools.find((t) => t.name === 'str_replace');
  assert.deepEqual(sr.inputSchema, expected.find((t) => t.name === 'str_replace').inputSchema);
  assert.match(sr.description, /content/);
});

test('an edit is written to disk, keeping CRLF', async () => {
  const r = await client.callTool({ name: 'str_replace', arguments: { path: 'app.py', old_str: 'retries = 3', new_str: 'retries = 5' } });
  assert.equal(r.isError, false);
  assert.match(r.content[0].text, /Replaced 1 occurrence at line 2/);
  assert.equal(r.structuredContent.ok, true);
  assert.equal(r.structuredContent.files[0].new_text, undefined, 'the LLM view has no new_text');
  assert.equal(readFileSync(join(root, 'app.py'), 'utf8'), 'def f():\r\n    retries = 5\r\n    return retries\r\n');
});

test('a dry run returns the diff and writes nothing', async () => {
  const before = readFileSync(join(root, 'app.py'), 'utf8');
  const r = await client.callTool({ name: 'str_replace', arguments: { path: 'app.py', old_str: 'return retries', new_str: 'return retries * 2', dry_run: true } });
  assert.equal(r.isError, false);
  assert.equal(r.structuredContent.dry_run, true);
  assert.match(r.structuredContent.files[0].diff, /\+    return retries \* 2/);
  assert.equal(readFileSync(join(root, 'app.py'), 'utf8'), before);
});

test('a refusal is a tool result with isError, the message and the structured error', async () => {
  const r = await client.callTool({ name: 'str_replace', arguments: { path: 'dup.rs', old_str: 'let a = 1;', new_str: 'let a = 2;' } });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /occurs twice .* \(lines 1 and 2\)/);
  assert.equal(r.structuredContent.error.kind, 'ambiguous');
  assert.equal(JSON.parse(r.content[1].text).error.kind, 'ambiguous');
  assert.equal(readFileSync(join(root, 'dup.rs'), 'utf8'), 'let a = 1;\nlet a = 1;\n');
});

test('paths outside the root and unknown tools are refused as results', async () => {
  const out = await client.callTool({ name: 'get_document', arguments: { path: '../etc/passwd' } });
  assert.equal(out.isError, true);
  assert.equal(out.structuredContent.error.kind, 'path_outside_root');
  const unknown = await client.callTool({ name: 'str_replce', arguments: {} });
  assert.equal(unknown.isError, true);
  assert.match(unknown.content[0].text, /Did you mean `str_replace`\?/);
});

test('statistics carry across the calls of one connection', async () => {
  const r = await client.callTool({ name: 'get_edit_stats', arguments: {} });
  assert.equal(r.isError, false);
  const t = r.structuredContent.stats.str_replace;
  assert.equal(t.applied, 1);
  assert.equal(t.previewed, 1);
  assert.equal(t.refused, 1);
});

test('one session per connection: a stale edit is rebased, undo_edit takes it back; a new connection has nothing to undo', async () => {
  writeFileSync(join(root, 'living.py'), 'a = 1\nb = 2\n');
  const read = await client.callTool({ name: 'line_count', arguments: { path: 'living.py' } });
  const version = read.structuredContent.version;
  writeFileSync(join(root, 'living.py'), '# formatted\na = 1\nb = 2\n');
  const edit = await client.callTool({ name: 'str_replace', arguments: { path: 'living.py', old_str: 'b = 2', new_str: 'b = 3', expected_version: version } });
  assert.equal(edit.isError, false, edit.content[0].text);
  assert.match(edit.structuredContent.warnings.join('\n'), /Rebased/);
  assert.equal(readFileSync(join(root, 'living.py'), 'utf8'), '# formatted\na = 1\nb = 3\n');
  const undo = await client.callTool({ name: 'undo_edit', arguments: {} });
  assert.equal(undo.isError, false, undo.content[0].text);
  assert.equal(readFileSync(join(root, 'living.py'), 'utf8'), '# formatted\na = 1\nb = 2\n');
  const other = new Client({ name: 'anchored-edit-test-2', version: '1.0.0' });
  await other.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--root', root] }));
  try {
    const none = await other.callTool({ name: 'undo_edit', arguments: {} });
    assert.equal(none.isError, true);
    assert.equal(none.structuredContent.error.kind, 'no_change');
    // A long-lived session gives no advice meant for the per-call CLI.
    assert.doesNotMatch(none.content[0].text, /anchored-edit call|--state/);
  } finally {
    await other.close();
  }
});

// --- Issue 12 item 8: every line a client sends is answered (raw stdio) ---------------

import { spawn } from 'node:child_process';

const rawChildren = [];
after(() => rawChildren.forEach((c) => c.kill()));

/** The server on raw pipes: `send(bytes)` writes a line, `next()` resolves to the next
 * JSON line it prints. */
function rawServer() {
  const child = spawn(bin, ['mcp', '--root', root], { stdio: ['pipe', 'pipe', 'ignore'] });
  rawChildren.push(child);
  const lines = [];
  const waiting = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      if (waiting.length) waiting.shift()(msg);
      else lines.push(msg);
    }
  });
  const next = () => new Promise((res, rej) => {
    if (lines.length) return res(lines.shift());
    const timer = setTimeout(() => rej(new Error('no answer within 10 s')), 10_000);
    waiting.push((m) => { clearTimeout(timer); res(m); });
  });
  const send = (data) => new Promise((res) => child.stdin.write(data, res));
  return { child, next, send };
}

async function initialized() {
  const s = rawServer();
  await s.send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) + '\n');
  assert.equal((await s.next()).id, 0);
  await s.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return s;
}

test('every malformed line gets a JSON-RPC error, and the server keeps serving', async () => {
  const s = await initialized();
  const cases = [
    [Buffer.from('garbage\n'), -32700, null],
    [Buffer.from('{"jsonrpc":"2.0","id":5,"method":"tools/li\n'), -32700, null],
    [Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":6,"method":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]), -32700, 6],
    [Buffer.from('{"jsonrpc":"2.0","id":NaN,"method":"ping"}\n'), -32700, null],
    [Buffer.from('{"jsonrpc":"2.0","id":7,"method":"ping"}{"jsonrpc":"2.0","id":8,"method":"ping"}\n'), -32700, null],
    [Buffer.from('[1,2]\n'), -32600, null],
    [Buffer.from('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":42}}\n'), -32602, 9],
    [Buffer.from('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"read_lines","arguments":"x"}}\n'), -32602, 10],
  ];
  for (const [line, code, id] of cases) {
    await s.send(line);
    const answer = await s.next();
    assert.equal(answer.jsonrpc, '2.0');
    assert.equal(answer.error?.code, code, `${line.toString('latin1')} -> ${JSON.stringify(answer)}`);
    assert.equal(answer.id, id);
  }
  await s.send('{"jsonrpc":"2.0","id":11,"method":"ping"}\n');
  assert.deepEqual((await s.next()), { jsonrpc: '2.0', id: 11, result: {} });
  s.child.stdin.end();
});

test('a message over 16 MiB is answered, and the next one still served', async () => {
  const s = await initialized();
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_file', arguments: { path: 'huge.txt', content: 'x'.repeat(17 * 1024 * 1024) } } });
  await s.send(big + '\n');
  const answer = await s.next();
  assert.equal(answer.error?.code, -32600);
  assert.match(answer.error.message, /over the 16777216-byte limit/);
  assert.equal(existsSync(join(root, 'huge.txt')), false);
  await s.send('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
  assert.equal((await s.next()).id, 2);
  s.child.stdin.end();
});

/** Resident memory of a process in kB (Linux). */
function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

test('10 000 calls in one session keep memory bounded', { skip: process.platform !== 'linux' && 'RSS is read from /proc' }, async () => {
  const transport = new StdioClientTransport({ command: bin, args: ['mcp', '--root', root] });
  const c = new Client({ name: 'many-calls', version: '1.0.0' });
  await c.connect(transport);
  writeFileSync(join(root, 'many.txt'), 'alpha\nbeta\n');
  const call = (i) => c.callTool({ name: i % 2 ? 'read_lines' : 'str_replace', arguments: i % 2
    ? { path: 'many.txt', start_line: 1, end_line: 2 }
    : { path: 'many.txt', old_str: 'gamma', new_str: 'delta' } });
  for (let i = 0; i < 200; i++) await call(i); // warm up
  const before = rssKb(transport.pid);
  for (let i = 0; i < 10_000; i++) await call(i);
  const after = rssKb(transport.pid);
  console.log(`server RSS: ${before} kB after 200 calls, ${after} kB after 10 200`);
  assert.ok(after - before < 64 * 1024, `RSS grew by ${after - before} kB`);
  await c.close();
});

test('--profile lists that harness\'s tools; a dialect call edits through the native server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ae-mcp-profile-'));
  writeFileSync(join(dir, 'a.py'), 'x = 1\ny = 2\n');
  const c = new Client({ name: 'anchored-edit-test', version: '1.0.0' });
  await c.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--root', dir, '--profile', 'claude-code'] }));
  try {
    const { tools } = await c.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['Edit', 'MultiEdit', 'Write', 'Read']);
    assert.ok(JSON.stringify({ tools }).length / 4 < 1500);
    const r = await c.callTool({ name: 'Edit', arguments: { file_path: join(dir, 'a.py'), old_string: 'y = 2', new_string: 'y = 3' } });
    assert.equal(r.isError, false, r.content[0].text);
    assert.equal(readFileSync(join(dir, 'a.py'), 'utf8'), 'x = 1\ny = 3\n');
    // Unlisted engine tools are still callable.
    const s = await c.callTool({ name: 'str_replace', arguments: { path: 'a.py', old_str: 'x = 1', new_str: 'x = 0' } });
    assert.equal(s.isError, false);
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
