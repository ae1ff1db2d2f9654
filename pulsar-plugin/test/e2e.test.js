'use strict';
// End to end: the package's MCP server (Host.start → js/mcp-host, from the CommonJS
// bundle Pulsar loads) over real TextBuffers, driven by the official MCP SDK client over
// Streamable HTTP with the bearer token, as Claude Code, Codex or Cline would drive it.
const { test, describe, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('http');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { tempProject, openBuffer, makeHost, resultOf, waitFor } = require('./helpers');

async function connect(url, token, extraHeaders = {}) {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const headers = { ...extraHeaders };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

function rawPost(port, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('the package MCP server with an MCP SDK client', () => {
  let p;
  let buffer;
  let host;
  let settings;
  let engine;
  let server;
  let client;

  before(async () => {
    p = tempProject({ 'src/app.py': 'def connect():\n    retries = 3  # 重试 😀\n    return retries\n', 'notes.md': '# Notes\n' });
    buffer = await openBuffer(p.file('src/app.py'));
    buffer.append('# unsaved line\n');
    ({ host, settings, engine } = makeHost({ roots: [p.root], buffers: [buffer] }));
    server = await host.start({ port: 0, token: undefined });
    client = await connect(server.url, server.token);
  });

  after(async () => {
    await client?.close();
    await host?.stop();
    p?.cleanup();
  });

  test('serves every engine tool on 127.0.0.1 with a generated token', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(server.token.length, 43);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      engine.toolSchemas().map((t) => t.name),
    );
  });

  test("an edit lands in the open buffer, unsaved changes included, one undo step", async () => {
    const r = await client.callTool({
      name: 'str_replace',
      arguments: { path: 'src/app.py', old_str: 'retries = 3  # 重试 😀\n    return retries\n# unsaved line', new_str: 'retries = 5  # 重试 😀\n    return retries\n# edited line' },
    });
    assert.equal(r.isError, false, r.content[0].text);
    assert.equal(buffer.getText(), 'def connect():\n    retries = 5  # 重试 😀\n    return retries\n# edited line\n');
    assert.equal(resultOf(r).files[0].new_text, undefined, 'the agent never gets new_text');
    assert.equal(p.read('src/app.py'), 'def connect():\n    retries = 3  # 重试 😀\n    return retries\n', 'the buffer is left for the user to save');
    buffer.undo();
    assert.equal(buffer.getText(), 'def connect():\n    retries = 3  # 重试 😀\n    return retries\n# unsaved line\n');
    buffer.redo();
  });

  test('an absolute path (as Claude Code sends) and a closed file written to disk', async () => {
    const r = await client.callTool({ name: 'insert', arguments: { file_path: p.file('notes.md'), line: 1, new_str: 'Written by the agent.' } });
    assert.equal(r.isError, false, r.content[0].text);
    assert.equal(p.read('notes.md'), '# Notes\nWritten by the agent.\n');
  });

  test('a dry run changes nothing and becomes the preview', async () => {
    const before = buffer.getText();
    const r = await client.callTool({ name: 'str_replace', arguments: { path: 'src/app.py', old_str: 'retries = 5', new_str: 'retries = 7', dry_run: true } });
    assert.equal(r.isError, false);
    assert.equal(resultOf(r).dry_run, true);
    assert.match(resultOf(r).files[0].diff, /\+    retries = 7/);
    assert.equal(buffer.getText(), before);
    assert.equal(host.queue.current().kind, 'dry-run');
    assert.equal(host.queue.current().files[0].path, 'src/app.py');
  });

  test('a refusal: isError with the kind and the message for the agent, nothing changed', async () => {
    const before = buffer.getText();
    const r = await client.callTool({ name: 'str_replace', arguments: { path: 'src/app.py', old_str: 'retries = 4', new_str: 'x' } });
    assert.equal(r.isError, true);
    assert.equal(resultOf(r).error.kind, 'no_match');
    assert.equal(r.content[0].text, resultOf(r).error.message);
    assert.equal(buffer.getText(), before);
    const outside = await client.callTool({ name: 'get_document', arguments: { path: '/etc/hostname' } });
    assert.equal(resultOf(outside).error.kind, 'path_outside_root');
  });

  test('review mode over HTTP: the call waits for the user', async () => {
    settings.reviewMode = true;
    try {
      const pending = client.callTool({ name: 'str_replace', arguments: { path: 'notes.md', old_str: 'Written', new_str: 'Reviewed' } });
      await waitFor(() => host.queue.review !== null);
      assert.equal(p.read('notes.md'), '# Notes\nWritten by the agent.\n');
      host.queue.apply(host.queue.review.id);
      const r = await pending;
      assert.equal(r.isError, false);
      assert.equal(p.read('notes.md'), '# Notes\nReviewed by the agent.\n');
    } finally {
      settings.reviewMode = false;
    }
  });

  test('no token or a wrong token: 401', async () => {
    await assert.rejects(connect(server.url, undefined), (e) => e.code === 401);
    await assert.rejects(connect(server.url, 'x'.repeat(43)), (e) => e.code === 401);
    const raw = await rawPost(
      server.port,
      { Host: `127.0.0.1:${server.port}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      initialize,
    );
    assert.equal(raw.status, 401);
  });

  test('a foreign Origin (a web page, DNS rebinding) is refused with 403 even with the token', async () => {
    const headers = {
      Host: `127.0.0.1:${server.port}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${server.token}`,
    };
    assert.equal((await rawPost(server.port, { ...headers, Origin: 'http://evil.example' }, initialize)).status, 403);
    assert.equal((await rawPost(server.port, { ...headers, Host: `evil.example:${server.port}` }, initialize)).status, 403);
    // Near miss: the same request from our own origin is served.
    assert.equal((await rawPost(server.port, { ...headers, Origin: `http://127.0.0.1:${server.port}` }, initialize)).status, 200);
  });

  test("the specs' raw client (spec/helpers/mcp-request.js) works against the server", async () => {
    const { connectMcp } = require('../spec/helpers/mcp-request');
    const raw = await connectMcp(server.url, server.token);
    const r = await raw.callTool('line_count', { path: 'notes.md' });
    assert.equal(r.isError, false);
    assert.equal(r.structuredContent.line_count, 2);
    const refused = await raw.callTool('str_replace', { path: 'notes.md', old_str: 'absent', new_str: 'x' });
    assert.equal(refused.isError, true);
    await raw.close();
    await assert.rejects(connectMcp(server.url, 'wrong'), (e) => e.status === 401);
    await assert.rejects(connectMcp(server.url, server.token, { origin: 'http://evil.example' }), (e) => e.status === 403);
  });

  test('a stopped server refuses connections; a held review is refused', async () => {
    const other = makeHost({ roots: [p.root], buffers: [], settings: { reviewMode: true } });
    const s = await other.host.start({ port: 0, token: 'fixed-token-for-this-test-0000000000000000' });
    assert.equal(s.token, 'fixed-token-for-this-test-0000000000000000');
    const c = await connect(s.url, s.token);
    const pending = c.callTool({ name: 'str_replace', arguments: { path: 'notes.md', old_str: 'Reviewed', new_str: 'x' } });
    await waitFor(() => other.host.queue.review !== null);
    const stopping = other.host.stop();
    const r = await pending;
    assert.equal(r.structuredContent.error.kind, 'edit_rejected');
    assert.match(r.content[0].text, /cancelled while its edit waited for review/);
    await stopping;
    await c.close().catch(() => {});
    await assert.rejects(connect(s.url, s.token));
    assert.equal(p.read('notes.md'), '# Notes\nReviewed by the agent.\n');
  });
});
