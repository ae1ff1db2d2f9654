// The native MCP server (`anchored-edit mcp`) and the npm package's (`node
// pkg/node-server/bin.js mcp`) answer the same lines the same way (issue 24 findings 3,
// 12, 13): every line of tests/mcp/lines.json gets its error code and id and a ping is
// still answered after it; a line over 16 MiB is answered and the next one served;
// `server/discover` and the protocol versions of `initialize` agree; a request whose path
// or text is not UTF-8 writes nothing (no U+FFFD file, no U+FFFD text) over MCP and over
// `call`.
//
// Needs pkg/ (bash scripts/build-wasm) and the native CLI (cargo build -p anchored-edit-cli).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const native = process.env.ANCHORED_EDIT_BIN ?? path.join(repo, 'target/debug/anchored-edit');
const table = JSON.parse(fs.readFileSync(path.join(repo, 'tests/mcp/lines.json'), 'utf8'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ae-parity-'));
const children = [];
let nodeBin; // the installed package's bin script

// The package as users get it (npm pack of pkg/, installed with its registry
// dependencies), as tests/js/npx-server.test.mjs installs it (or the install of
// AE_NPX_INSTALL, scripts/test-npx's).
before(() => {
  assert.ok(fs.existsSync(path.join(repo, 'pkg/node-server/bin.js')), 'build pkg/ first: bash scripts/build-wasm');
  assert.ok(fs.existsSync(native), `build the native CLI first: ${native}`);
  if (process.env.AE_NPX_INSTALL) {
    nodeBin = path.join(process.env.AE_NPX_INSTALL, 'node_modules/anchored-edit/node-server/bin.js');
    return assert.ok(fs.existsSync(nodeBin), `AE_NPX_INSTALL has no installed package: ${nodeBin}`);
  }
  const tarball = execFileSync('npm', ['pack', path.join(repo, 'pkg'), '--pack-destination', work, '--silent'], { encoding: 'utf8' }).trim();
  const install = path.join(work, 'install');
  fs.mkdirSync(install);
  fs.writeFileSync(path.join(install, 'package.json'), '{"name": "user-project", "private": true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', path.join(work, tarball)], { cwd: install, stdio: ['ignore', 'ignore', 'inherit'] });
  nodeBin = path.join(install, 'node_modules/anchored-edit/node-server/bin.js');
});
after(() => {
  children.forEach((c) => c.kill());
  fs.rmSync(work, { recursive: true, force: true });
});

const SERVERS = {
  native: (args) => [native, args],
  node: (args) => [process.execPath, [nodeBin, ...args]],
};

function project(name) {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'a.txt'), 'hello\n');
  return dir;
}

/** A server on raw pipes: `send(bytes)` writes a line, `next()` the next JSON line. */
function rawServer(kind, root) {
  const [cmd, args] = SERVERS[kind](['mcp', '--root', root]);
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(child);
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
  const next = (what) => new Promise((res, rej) => {
    if (lines.length) return res(lines.shift());
    const timer = setTimeout(() => rej(new Error(`${kind}: no answer within 15 s to ${what}`)), 15_000);
    waiting.push((m) => { clearTimeout(timer); res(m); });
  });
  const send = (data) => new Promise((res) => child.stdin.write(Buffer.concat([Buffer.from(data), Buffer.from('\n')]), res));
  return { child, next, send };
}

async function initialized(kind, root, protocolVersion = '2025-06-18') {
  const s = rawServer(kind, root);
  await s.send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'parity', version: '1' } } }));
  const init = await s.next('initialize');
  assert.equal(init.id, 0);
  await s.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return { s, init };
}

const lineOf = (c) => (c.line !== undefined
  ? Buffer.from(c.line)
  : Buffer.concat(c.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));

for (const kind of Object.keys(SERVERS)) {
  test(`${kind}: every line of tests/mcp/lines.json is answered with its code and id, and a ping after it`, async () => {
    const root = project(`lines-${kind}`);
    const { s } = await initialized(kind, root);
    const wrong = [];
    for (const [n, c] of table.cases.entries()) {
      await s.send(lineOf(c));
      const answer = await s.next(c.name);
      if (answer.error?.code !== c.code || answer.id !== c.id) wrong.push(`${c.name}: ${JSON.stringify(answer)}`);
      await s.send(JSON.stringify({ jsonrpc: '2.0', id: `ping-${n}`, method: 'ping' }));
      assert.equal((await s.next(`ping after ${c.name}`)).id, `ping-${n}`, c.name);
    }
    s.child.stdin.end();
    assert.deepEqual(wrong, []);
    for (const p of table.untouched) assert.equal(fs.readFileSync(path.join(root, p), 'utf8'), 'hello\n');
    for (const p of table.absent) assert.equal(fs.existsSync(path.join(root, p)), false, p);
  });

  test(`${kind}: a 17 MiB line is answered -32600 and the server keeps serving; a 15 MiB one is served`, async () => {
    const root = project(`big-${kind}`);
    const { s } = await initialized(kind, root);
    const call = (id, p, size) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'create_file', arguments: { path: p, content: 'x'.repeat(size) } } });
    await s.send(call(1, 'huge.txt', 17 * 1024 * 1024));
    const answer = await s.next('17 MiB');
    assert.equal(answer.error?.code, -32600);
    assert.equal(answer.id, null);
    assert.match(answer.error.message, /over the 16777216-byte limit/);
    assert.equal(fs.existsSync(path.join(root, 'huge.txt')), false);
    // 15 MiB (over the SDK transport's 10 MiB), answered without editing work: a
    // read_lines carrying a long unknown argument is refused as a tool result.
    const padded = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_lines', arguments: { path: 'a.txt', pad: 'x'.repeat(15 * 1024 * 1024) } } });
    await s.send(padded);
    const served = await s.next('15 MiB');
    assert.equal(served.id, 2, JSON.stringify(served).slice(0, 300));
    assert.ok(served.result, JSON.stringify(served).slice(0, 300));
    await s.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }));
    assert.equal((await s.next('ping')).id, 3);
    s.child.stdin.end();
  });
}

test('both servers negotiate the same protocol versions and answer server/discover alike', async () => {
  const root = project('versions');
  for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']) {
    const got = {};
    for (const kind of Object.keys(SERVERS)) {
      const { s, init } = await initialized(kind, root, version);
      got[kind] = init.result?.protocolVersion;
      s.child.stdin.end();
    }
    assert.equal(got.node, got.native, `initialize ${version}: ${JSON.stringify(got)}`);
  }
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const answers = {};
  for (const kind of Object.keys(SERVERS)) {
    const s = rawServer(kind, root);
    await s.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }));
    const answer = await s.next('server/discover');
    await s.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: {} }));
    const refused = await s.next('server/discover without _meta');
    // Answered at once, not after a wait (the Node server before this answered "method
    // not found" after 1.7 s): timed on the started server, so that a slow start on a
    // loaded machine (the first answer's time) does not count.
    const started = Date.now();
    await s.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: meta } }));
    const again = await s.next('server/discover, again');
    const ms = Date.now() - started;
    s.child.stdin.end();
    assert.ok(ms < 1500, `${kind}: server/discover took ${ms} ms`);
    assert.deepEqual(again.result, answer.result, `${kind}: the same answer twice`);
    answers[kind] = { answer, refused: refused.error?.code };
  }
  const shape = (a) => ({ ...a.answer.result, _meta: undefined, instructions: typeof a.answer.result?.instructions });
  assert.deepEqual(shape(answers.node), shape(answers.native));
  assert.equal(answers.node.refused, answers.native.refused);
  assert.equal(answers.native.refused, -32602);
});

test('a request that is not UTF-8 over `call` is refused by both and writes nothing (no U+FFFD)', () => {
  const requests = [
    Buffer.concat([Buffer.from('{"tool":"str_replace","arguments":{"path":"a.txt","old_str":"hello","new_str":"caf'), Buffer.from([0xe9]), Buffer.from('"}}')]),
    Buffer.concat([Buffer.from('{"tool":"create_file","arguments":{"path":"a'), Buffer.from([0xff]), Buffer.from('.txt","content":"x"}}')]),
  ];
  for (const kind of Object.keys(SERVERS)) {
    const root = project(`call-${kind}`);
    for (const request of requests) {
      const [cmd, args] = SERVERS[kind](['call', '--root', root]);
      const out = spawnSync(cmd, args, { input: request });
      assert.equal(out.status, 1, `${kind}: ${out.stdout}`);
      const result = JSON.parse(out.stdout);
      assert.equal(result.error?.kind, 'invalid_arguments', `${kind}: ${out.stdout}`);
    }
    assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'hello\n', kind);
    assert.deepEqual(fs.readdirSync(root).sort(), ['a.txt'], kind);
  }
});
