// The in-process MCP server, driven by the SDK's real Client over Streamable HTTP, with
// the real engine (pkg/, built by scripts/build-wasm) and an in-memory "editor" that
// applies the returned edits the way Pulsar and VS Code do (rows, UTF-16 columns).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as engine from '../../pkg/index.node.js';
import { startMcpHttpServer, llmView, DEFAULT_MAX_SESSIONS } from './index.js';
import { bearerMatches, checkRequest, hostAllowed, originAllowed } from './guard.js';

/** Applies edits to a JS string by {row, column} with UTF-16 columns, last first. */
function applyEdits(text, edits) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p) => starts[p.row] + p.column;
  let out = text;
  for (const e of [...edits].reverse()) {
    out = out.slice(0, offset(e.range.start)) + e.text + out.slice(offset(e.range.end));
  }
  return out;
}

/** An editor holding buffers in memory. */
function fakeEditor(initial, { applyDelayMs = 0 } = {}) {
  const buffers = new Map(Object.entries(initial));
  const applied = [];
  return {
    buffers,
    applied,
    read(path) {
      if (path.startsWith('/')) {
        throw Object.assign(new Error(`${path} is outside the workspace; send a path relative to it.`), {
          kind: 'path_outside_root',
        });
      }
      return buffers.get(path);
    },
    async apply(files, call) {
      if (applyDelayMs) await new Promise((r) => setTimeout(r, applyDelayMs));
      for (const f of files) {
        if (f.deleted) buffers.delete(f.path);
        else if (f.created) buffers.set(f.path, f.new_text);
        else {
          const after = applyEdits(buffers.get(f.path), f.edits);
          assert.equal(after, f.new_text, 'edits and new_text agree');
          buffers.set(f.path, after);
        }
      }
      applied.push(call.tool);
    },
  };
}

async function connect(url, token) {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const headers = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** One raw HTTP request to the server; resolves to {status, headers, body}. */
function rawRequest(port, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/mcp', method, headers },
      (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('MCP over Streamable HTTP with the real engine', () => {
  let editor;
  let server;
  let client;

  before(async () => {
    editor = fakeEditor({
      'src/app.py': 'def connect():\n    retries = 3  # 重试 😀\n    return retries\n',
      'notes.md': 'a = 1\n',
    });
    server = await startMcpHttpServer({ engine, read: editor.read, apply: editor.apply, maxBodyBytes: 64 * 1024 });
    client = await connect(server.url, server.token);
  });

  after(async () => {
    await client?.close();
    await server?.close();
  });

  test('listens on the loopback address only', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(server.token.length, 43);
  });

  test('lists every engine tool as the full profile does (profileSchemas)', async () => {
    const { tools } = await client.listTools();
    const expected = engine.profileSchemas('full');
    assert.deepEqual(
      tools.map((t) => t.name),
      expected.map((t) => t.name),
    );
    for (const [i, t] of tools.entries()) {
      assert.equal(t.description, expected[i].description);
      assert.deepEqual(t.inputSchema, expected[i].inputSchema);
    }
  });

  test('an edit is applied through the host and reported without new_text', async () => {
    const r = await client.callTool({
      name: 'str_replace',
      arguments: { path: 'src/app.py', old_str: 'retries = 3', new_str: 'retries = 5' },
    });
    assert.equal(r.isError, false);
    assert.equal(editor.buffers.get('src/app.py'), 'def connect():\n    retries = 5  # 重试 😀\n    return retries\n');
    assert.equal(r.structuredContent.ok, true);
    assert.equal(r.structuredContent.files[0].new_text, undefined);
    assert.equal(r.content[0].text, r.structuredContent.message);
    assert.deepEqual(JSON.parse(r.content[1].text), r.structuredContent);
    // Aliases other agents use reach the engine untouched.
    const alias = await client.callTool({
      name: 'str_replace',
      arguments: { file_path: 'src/app.py', old_string: '# 重试 😀', new_string: '# retry 🙂' },
    });
    assert.equal(alias.isError, false);
    assert.match(editor.buffers.get('src/app.py'), /# retry 🙂/);
  });

  test('a dry run reports the diff and applies nothing', async () => {
    const before = editor.buffers.get('notes.md');
    const count = editor.applied.length;
    const r = await client.callTool({
      name: 'str_replace',
      arguments: { path: 'notes.md', old_str: 'a = 1', new_str: 'a = 2', dry_run: true },
    });
    assert.equal(r.isError, false);
    assert.equal(r.structuredContent.dry_run, true);
    assert.match(r.structuredContent.files[0].diff, /\+a = 2/);
    assert.equal(editor.buffers.get('notes.md'), before);
    assert.equal(editor.applied.length, count);
  });

  test('a refusal is a tool result with isError, the message and the structured JSON', async () => {
    const count = editor.applied.length;
    const r = await client.callTool({
      name: 'str_replace',
      arguments: { path: 'notes.md', old_str: 'b = 7', new_str: 'b = 8' },
    });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.ok, false);
    assert.equal(r.structuredContent.error.kind, 'no_match');
    assert.equal(r.content[0].text, r.structuredContent.error.message);
    assert.deepEqual(r.structuredContent.files, []);
    assert.equal(editor.applied.length, count);

    const outside = await client.callTool({ name: 'get_document', arguments: { path: '/etc/passwd' } });
    assert.equal(outside.isError, true);
    assert.equal(outside.structuredContent.error.kind, 'path_outside_root');
    // The engine's path rule refuses it before the host's reader sees it (docs/paths.md).
    assert.match(outside.content[0].text, /outside every folder this host may edit/);

    const unknown = await client.callTool({ name: 'str_replace', arguments: { path: 'notes.md', old_sttr: 'a', new_str: 'b' } });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.structuredContent.error.kind, 'invalid_arguments');
    assert.match(unknown.content[0].text, /old_str/);
  });

  test('calls are serialised: the next call sees the previous call applied', async () => {
    const slow = fakeEditor({ 'n.txt': 'v = 1\n' }, { applyDelayMs: 30 });
    const s = await startMcpHttpServer({ engine, read: slow.read, apply: slow.apply });
    const c = await connect(s.url, s.token);
    try {
      const [first, second] = await Promise.all([
        c.callTool({ name: 'str_replace', arguments: { path: 'n.txt', old_str: 'v = 1', new_str: 'v = 2' } }),
        c.callTool({ name: 'str_replace', arguments: { path: 'n.txt', old_str: 'v = 2', new_str: 'v = 3' } }),
      ]);
      assert.equal(first.isError, false);
      assert.equal(second.isError, false, second.content[0].text);
      assert.equal(slow.buffers.get('n.txt'), 'v = 3\n');
    } finally {
      await c.close();
      await s.close();
    }
  });

  test('a failing apply is reported as an error result', async () => {
    const broken = fakeEditor({ 'x.txt': 'x\n' });
    const s = await startMcpHttpServer({
      engine,
      read: broken.read,
      apply: () => {
        throw new Error('the buffer is read-only');
      },
    });
    const c = await connect(s.url, s.token);
    try {
      const r = await c.callTool({ name: 'str_replace', arguments: { path: 'x.txt', old_str: 'x', new_str: 'y' } });
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent.error.kind, 'write_failed');
      assert.match(r.content[0].text, /could not be written \(the buffer is read-only\)/);
      assert.equal(r.content[0].text, engine.hostRefusal('str_replace', 'write_failed', { why: 'the buffer is read-only' }).error.message);
    } finally {
      await c.close();
      await s.close();
    }
  });

  test('an edit that did not land is not in the undo history; undo_edit takes back the one that did', async () => {
    const editor = fakeEditor({ 'x.txt': 'x = 1\n' });
    let failNext = false;
    const s = await startMcpHttpServer({
      engine,
      read: editor.read,
      apply: async (files, call) => {
        if (failNext) throw new Error('the disk is full');
        return editor.apply(files, call);
      },
    });
    const c = await connect(s.url, s.token);
    try {
      const call = (name, args) => c.callTool({ name, arguments: args });
      assert.equal((await call('str_replace', { path: 'x.txt', old_str: 'x = 1', new_str: 'x = 2' })).isError, false);
      failNext = true;
      assert.equal((await call('str_replace', { path: 'x.txt', old_str: 'x = 2', new_str: 'x = 3' })).isError, true);
      failNext = false;
      const undo = await call('undo_edit', {});
      assert.equal(undo.isError, false, undo.content[0].text);
      assert.equal(editor.buffers.get('x.txt'), 'x = 1\n');
    } finally {
      await c.close();
      await s.close();
    }
  });

  test("an apply that throws {kind, message} refuses with the host's own kind and message", async () => {
    const editor = fakeEditor({ 'x.txt': 'x\n' });
    const message = 'The user discarded this edit in the review pane; nothing changed.';
    const s = await startMcpHttpServer({
      engine,
      read: editor.read,
      apply: async () => {
        throw Object.assign(new Error(message), { kind: 'stale_buffer' });
      },
    });
    const c = await connect(s.url, s.token);
    try {
      const r = await c.callTool({ name: 'str_replace', arguments: { path: 'x.txt', old_str: 'x', new_str: 'y' } });
      assert.equal(r.isError, true);
      assert.deepEqual(r.structuredContent.error, { kind: 'stale_buffer', message });
      assert.equal(r.content[0].text, message);
      assert.equal(editor.buffers.get('x.txt'), 'x\n');
    } finally {
      await c.close();
      await s.close();
    }
  });

  test('a host that runs whole calls itself (call option): results shaped, calls serialised, throws reported', async () => {
    // The host reads asynchronously and applies on its own (as VS Code does), so it hands
    // whole calls over; the module only shapes the results and keeps calls in order.
    const buffers = new Map([['h.txt', 'n = 1\n']]);
    const session = new engine.Session();
    const seen = [];
    let running = 0;
    const s = await startMcpHttpServer({
      engine,
      session,
      async call(tool, args) {
        running += 1;
        assert.equal(running, 1, 'one call at a time');
        seen.push(tool);
        await new Promise((r) => setTimeout(r, 20)); // an asynchronous read
        if (tool === 'get_edit_stats' && args.reset === 'boom') throw new Error('host failure');
        const result = session.call({ tool, arguments: args }, { read: (p) => buffers.get(p) });
        if (result.ok && !result.dry_run) for (const f of result.files ?? []) buffers.set(f.path, f.new_text);
        running -= 1;
        return result;
      },
    });
    const c = await connect(s.url, s.token);
    try {
      const [first, second] = await Promise.all([
        c.callTool({ name: 'str_replace', arguments: { path: 'h.txt', old_str: 'n = 1', new_str: 'n = 2' } }),
        c.callTool({ name: 'str_replace', arguments: { path: 'h.txt', old_str: 'n = 2', new_str: 'n = 3' } }),
      ]);
      assert.equal(first.isError, false);
      assert.equal(second.isError, false, second.content[0].text);
      assert.equal(buffers.get('h.txt'), 'n = 3\n');
      assert.equal(second.structuredContent.files[0].new_text, undefined);
      assert.equal(second.content[0].text, second.structuredContent.message);
      const refused = await c.callTool({ name: 'str_replace', arguments: { path: 'h.txt', old_str: 'zz', new_str: 'y' } });
      assert.equal(refused.isError, true);
      assert.equal(refused.structuredContent.error.kind, 'no_match');
      running = 0;
      const thrown = await c.callTool({ name: 'get_edit_stats', arguments: { reset: 'boom' } });
      assert.equal(thrown.isError, true);
      assert.equal(thrown.content[0].text, 'host failure');
      assert.deepEqual(seen, ['str_replace', 'str_replace', 'str_replace', 'get_edit_stats']);
    } finally {
      await c.close();
      await s.close();
    }
    await assert.rejects(startMcpHttpServer({ engine, read: () => '' }), TypeError);
  });

  test('no token or a wrong token: 401, for the SDK client and raw requests', async () => {
    await assert.rejects(connect(server.url, undefined), (e) => e.code === 401);
    await assert.rejects(connect(server.url, 'x'.repeat(43)), (e) => e.code === 401);
    const host = `127.0.0.1:${server.port}`;
    const headers = { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await rawRequest(server.port, { headers, body: initialize });
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    const wrong = await rawRequest(server.port, {
      // One character changed (never to itself: a token ending in 'A' stays wrong).
      headers: { ...headers, authorization: `Bearer ${server.token.slice(0, -1)}${server.token.endsWith('A') ? 'B' : 'A'}` },
      body: initialize,
    });
    assert.equal(wrong.status, 401);
    const ok = await rawRequest(server.port, {
      headers: { ...headers, authorization: `Bearer ${server.token}` },
      body: initialize,
    });
    assert.equal(ok.status, 200, ok.body);
  });

  test('a foreign Origin or Host is refused with 403 (DNS rebinding)', async () => {
    const good = {
      host: `127.0.0.1:${server.port}`,
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const cases = [
      { origin: 'http://evil.example' },
      { origin: `http://evil.example:${server.port}` },
      { origin: 'null' },
      { host: `evil.example:${server.port}` },
      { host: `127.0.0.1:${server.port + 1}` },
      { host: '127.0.0.1' },
    ];
    for (const change of cases) {
      const r = await rawRequest(server.port, { headers: { ...good, ...change }, body: initialize });
      assert.equal(r.status, 403, JSON.stringify(change));
    }
    const own = await rawRequest(server.port, {
      headers: { ...good, origin: `http://localhost:${server.port}`, host: `localhost:${server.port}` },
      body: initialize,
    });
    assert.equal(own.status, 200, own.body);
  });

  test('an oversized body is refused with 413 and the server keeps serving', async () => {
    const headers = {
      host: `127.0.0.1:${server.port}`,
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const big = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', params: { pad: 'x'.repeat(70 * 1024) } });
    const declared = await rawRequest(server.port, { headers, body: big });
    assert.equal(declared.status, 413);
    // Chunked, with no Content-Length to check up front.
    const chunked = await rawRequest(server.port, {
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      body: big,
    });
    assert.equal(chunked.status, 413);
    // Through the SDK client: a create_file whose content is over the limit.
    const r = client.callTool({ name: 'create_file', arguments: { path: 'big.txt', content: 'y'.repeat(70 * 1024) } });
    await assert.rejects(r, (e) => e.code === 413);
    assert.equal(editor.buffers.has('big.txt'), false);
    const small = await client.callTool({ name: 'line_count', arguments: { path: 'notes.md' } });
    assert.equal(small.isError, false);
  });
});

describe('MCP sessions are forgotten: idle expiry, a cap, bounded memory', () => {
  function rawHeaders(s, sessionId) {
    return {
      host: `127.0.0.1:${s.port}`,
      authorization: `Bearer ${s.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
    };
  }
  async function open(s) {
    const r = await rawRequest(s.port, { headers: rawHeaders(s), body: initialize });
    assert.equal(r.status, 200, r.body);
    return r.headers['mcp-session-id'];
  }
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
  const pingIn = (s, id) => rawRequest(s.port, { headers: rawHeaders(s, id), body: ping });

  test('a session idle longer than sessionIdleMs expires: 404, and a new initialize works', async () => {
    const editor = fakeEditor({ 'a.txt': 'a\n' });
    const s = await startMcpHttpServer({ engine, read: editor.read, apply: editor.apply, sessionIdleMs: 150 });
    try {
      const id = await open(s);
      assert.equal((await pingIn(s, id)).status, 200);
      await new Promise((r) => setTimeout(r, 400));
      const expired = await pingIn(s, id);
      assert.equal(expired.status, 404);
      assert.match(JSON.parse(expired.body).error.message, /initialize/);
      assert.equal(JSON.parse(expired.body).error.code, -32001);
      assert.equal(s.sessionCount(), 0);
      const again = await open(s);
      assert.equal((await pingIn(s, again)).status, 200);
    } finally {
      await s.close();
    }
  });

  test('the SDK client gets 404 on an expired session and reconnects with a new one', async () => {
    const editor = fakeEditor({ 'a.txt': 'a\n' });
    const s = await startMcpHttpServer({ engine, read: editor.read, apply: editor.apply, sessionIdleMs: 150 });
    try {
      const c = await connect(s.url, s.token);
      await new Promise((r) => setTimeout(r, 400));
      await assert.rejects(c.listTools(), (e) => e.code === 404);
      await c.close();
      const c2 = await connect(s.url, s.token);
      assert.ok((await c2.listTools()).tools.length > 0);
      await c2.close();
    } finally {
      await s.close();
    }
  });

  test('the count is capped: the longest-idle session is closed first', async () => {
    const editor = fakeEditor({ 'a.txt': 'a\n' });
    const s = await startMcpHttpServer({ engine, read: editor.read, apply: editor.apply, maxSessions: 3 });
    try {
      const ids = [];
      for (let i = 0; i < 3; i++) {
        ids.push(await open(s));
        await new Promise((r) => setTimeout(r, 5));
      }
      // The first session is used again: the second, then the third, are now the longest idle.
      assert.equal((await pingIn(s, ids[0])).status, 200);
      ids.push(await open(s));
      ids.push(await open(s));
      assert.equal(s.sessionCount(), 3);
      const status = await Promise.all(ids.map(async (id) => (await pingIn(s, id)).status));
      assert.deepEqual(status, [200, 404, 404, 200, 200]);
    } finally {
      await s.close();
    }
  });

  test('thousands of initialize requests keep memory bounded', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    const editor = fakeEditor({ 'a.txt': 'a\n' });
    const s = await startMcpHttpServer({ engine, read: editor.read, apply: editor.apply });
    const heap = async () => {
      await new Promise((r) => setImmediate(r));
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    try {
      for (let i = 0; i < 200; i++) await open(s);
      const before = await heap();
      for (let i = 0; i < 2500; i++) await open(s);
      const growth = (await heap()) - before;
      assert.ok(s.sessionCount() <= DEFAULT_MAX_SESSIONS);
      // The old server kept every session (~50 KB each: 2 500 → ~125 MB).
      assert.ok(growth < 20 * 1024 * 1024, `heap grew ${(growth / 1048576).toFixed(1)} MB over 2 500 initialize requests`);
    } finally {
      await s.close();
    }
  });
});

describe('guard rules', () => {
  test('bearer tokens', () => {
    assert.equal(bearerMatches('Bearer abc', 'abc'), true);
    assert.equal(bearerMatches('bearer abc', 'abc'), true);
    for (const h of [undefined, '', 'abc', 'Bearer', 'Bearer ', 'Bearer abd', 'Bearer abc x', 'Basic abc', 'Bearer abcd']) {
      assert.equal(bearerMatches(h, 'abc'), false, String(h));
    }
  });

  test('hosts and origins', () => {
    assert.equal(hostAllowed('127.0.0.1:8080', 8080), true);
    assert.equal(hostAllowed('LOCALHOST:8080', 8080), true);
    assert.equal(hostAllowed('127.0.0.1:8081', 8080), false);
    assert.equal(hostAllowed('[::1]:8080', 8080), false);
    assert.equal(hostAllowed(undefined, 8080), false);
    assert.equal(originAllowed(undefined, 8080), true);
    assert.equal(originAllowed('http://127.0.0.1:8080', 8080), true);
    assert.equal(originAllowed('https://127.0.0.1:8080', 8080), false);
    assert.equal(originAllowed('vscode-webview://abc', 8080), false);
    assert.equal(originAllowed('vscode-webview://abc', 8080, ['vscode-webview://abc']), true);
  });

  test('host and origin are checked before the token', () => {
    const opts = { port: 1, token: 't' };
    assert.equal(checkRequest({ host: 'evil:1' }, opts).status, 403);
    assert.equal(checkRequest({ host: '127.0.0.1:1', origin: 'http://evil' }, opts).status, 403);
    assert.equal(checkRequest({ host: '127.0.0.1:1' }, opts).status, 401);
    assert.equal(checkRequest({ host: '127.0.0.1:1', authorization: 'Bearer t' }, opts), null);
  });

  test('llmView drops only new_text', () => {
    const r = { ok: true, files: [{ path: 'a', diff: 'd', new_text: 'x' }] };
    assert.deepEqual(llmView(r), { ok: true, files: [{ path: 'a', diff: 'd' }] });
    assert.equal(r.files[0].new_text, 'x');
  });
});
