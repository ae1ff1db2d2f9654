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
