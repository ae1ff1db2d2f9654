// The npm package's `anchored-edit` command as a user gets it: `npm pack` of pkg/, the
// tarball installed into an empty folder (registry dependencies only), the server started
// as an MCP client starts it (`npx anchored-edit mcp --root DIR` through the SDK's stdio
// client transport), and `anchored-edit call` for scripts. Every case of tests/corpus runs
// through the installed command and through the native CLI, with the same result JSON,
// exit status and files on disk: every sequence case and a fixed sample of the others
// through `call`, every single call through a long-lived MCP server of each kind. Also checks server.json (the MCP registry entry).
//
// Needs pkg/ (bash scripts/build-wasm) and the native CLI (cargo build -p anchored-edit-cli);
// scripts/test-npx builds both. ANCHORED_EDIT_BIN overrides the native binary.
import { isUtf8 } from 'node:buffer';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const native = process.env.ANCHORED_EDIT_BIN ?? path.join(repo, 'target/debug/anchored-edit');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ae-npx-'));
// AE_NPX_INSTALL: a folder where scripts/test-npx already installed the tarball as below
// (one install for every test file); without it, this file packs and installs its own.
const install = process.env.AE_NPX_INSTALL ?? path.join(work, 'install');
let bin; // the installed package's bin script
const clients = [];

/** A fresh project folder with `files` ({relative path: text}). */
function project(name, files = {}) {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  return dir;
}

/** Every regular file under `dir` as {relative path: text}; other entries as markers. */
function tree(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p).split(path.sep).join('/');
      if (e.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(p);
      } else if (e.isFile()) {
        // Text when UTF-8, else the bytes (files in other encodings compare byte for byte).
        const bytes = fs.readFileSync(p);
        out[rel] = isUtf8(bytes) ? bytes.toString('utf8') : { base64: bytes.toString('base64') };
      }
      else out[rel] = 'other';
    }
  };
  walk(dir);
  return out;
}

/** An MCP client connected the way a user's client starts the server: through npx. */
async function connect(root, env = {}) {
  const client = new Client({ name: 'anchored-edit-npx-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: 'npx', args: ['--no-install', 'anchored-edit', 'mcp', '--root', root], cwd: install, env }),
  );
  clients.push(client);
  return client;
}

/** `anchored-edit call` of the installed package; {status, result, stdout, stderr}. */
function call(args, request, env = {}) {
  const r = spawnSync(process.execPath, [bin, 'call', ...args], {
    input: typeof request === 'string' ? request : JSON.stringify(request),
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  let result;
  try {
    result = JSON.parse(r.stdout);
  } catch {
    result = undefined;
  }
  return { status: r.status, result, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  assert.ok(fs.existsSync(path.join(repo, 'pkg/node-server/bin.js')), 'build pkg/ first: bash scripts/build-wasm');
  assert.ok(fs.existsSync(native), `build the native CLI first: ${native}`);
  bin = path.join(install, 'node_modules/anchored-edit/node-server/bin.js');
  if (process.env.AE_NPX_INSTALL) return assert.ok(fs.existsSync(bin), `AE_NPX_INSTALL has no installed package: ${bin}`);
  const tarball = execFileSync('npm', ['pack', path.join(repo, 'pkg'), '--pack-destination', work, '--silent'], {
    encoding: 'utf8',
  }).trim();
  fs.mkdirSync(install);
  fs.writeFileSync(path.join(install, 'package.json'), '{"name": "user-project", "private": true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', path.join(work, tarball)], {
    cwd: install,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
});

after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  fs.rmSync(work, { recursive: true, force: true });
});

test('the tarball holds the engine and the command; dependencies come from the registry', () => {
  const installed = path.join(install, 'node_modules');
  for (const f of ['anchored-edit/node/anchored_edit_bg.wasm', 'anchored-edit/node-server/bin.js', '@modelcontextprotocol/sdk/package.json', 'zod/package.json']) {
    assert.ok(fs.existsSync(path.join(installed, f)), f);
  }
  const lock = JSON.parse(fs.readFileSync(path.join(install, 'package-lock.json'), 'utf8'));
  for (const [name, entry] of Object.entries(lock.packages)) {
    if (name === '' || name === 'node_modules/anchored-edit') continue;
    // A registry package has an integrity hash; a linked or file: one has none.
    assert.ok(entry.integrity && !entry.link && !String(entry.resolved ?? '').startsWith('file:'), `${name} comes from the registry`);
  }
});

test('tools, annotations and instructions are the native server\'s', async () => {
  const root = project('list');
  const client = await connect(root);
  const nativeClient = new Client({ name: 'anchored-edit-npx-test', version: '1.0.0' });
  await nativeClient.connect(new StdioClientTransport({ command: native, args: ['mcp', '--root', root] }));
  clients.push(nativeClient);
  const [ours, theirs] = [await client.listTools(), await nativeClient.listTools()];
  assert.ok(ours.tools.length >= 10);
  assert.deepEqual(ours.tools, theirs.tools);
  for (const t of ours.tools) {
    assert.equal(typeof t.annotations.readOnlyHint, 'boolean', t.name);
    assert.equal(t.annotations.openWorldHint, false, t.name);
  }
  assert.equal(ours.tools.find((t) => t.name === 'read_lines').annotations.readOnlyHint, true);
  assert.equal(ours.tools.find((t) => t.name === 'str_replace').annotations.readOnlyHint, false);
  assert.match(client.getInstructions(), /str_replace/);
  assert.equal(client.getInstructions(), nativeClient.getInstructions());
});

test('over MCP: an edit, a refusal and a dry run', async () => {
  const root = project('mcp', { 'app.py': 'def f():\r\n    retries = 3\r\n    return retries\r\n', 'dup.rs': 'let a = 1;\nlet a = 1;\n', 'run.sh': 'echo 1\n' });
  fs.chmodSync(path.join(root, 'run.sh'), 0o751);
  const client = await connect(root);

  const edit = await client.callTool({ name: 'str_replace', arguments: { path: 'app.py', old_str: 'retries = 3', new_str: 'retries = 5' } });
  assert.equal(edit.isError, false);
  assert.match(edit.content[0].text, /Replaced 1 occurrence at line 2/);
  assert.equal(edit.structuredContent.files[0].new_text, undefined, 'the LLM view has no new_text');
  assert.equal(fs.readFileSync(path.join(root, 'app.py'), 'utf8'), 'def f():\r\n    retries = 5\r\n    return retries\r\n');

  const perm = await client.callTool({ name: 'str_replace', arguments: { path: 'run.sh', old_str: 'echo 1', new_str: 'echo 2' } });
  assert.equal(perm.isError, false);
  assert.equal(fs.statSync(path.join(root, 'run.sh')).mode & 0o777, 0o751, 'permissions kept');

  const refused = await client.callTool({ name: 'str_replace', arguments: { path: 'dup.rs', old_str: 'let a = 1;', new_str: 'let a = 2;' } });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent.error.kind, 'ambiguous');
  assert.equal(JSON.parse(refused.content[1].text).error.kind, 'ambiguous');
  assert.equal(fs.readFileSync(path.join(root, 'dup.rs'), 'utf8'), 'let a = 1;\nlet a = 1;\n');

  const dry = await client.callTool({ name: 'str_replace', arguments: { path: 'app.py', old_str: 'return retries', new_str: 'return 0', dry_run: true } });
  assert.equal(dry.isError, false);
  assert.equal(dry.structuredContent.dry_run, true);
  assert.match(dry.structuredContent.files[0].diff, /\+    return 0/);
  assert.equal(fs.readFileSync(path.join(root, 'app.py'), 'utf8'), 'def f():\r\n    retries = 5\r\n    return retries\r\n');
  assert.deepEqual(
    Object.keys(tree(root)).sort(),
    ['app.py', 'dup.rs', 'run.sh'],
    'no staged or backup file is left beside the targets',
  );
});

test('a multi-file patch whose last file cannot be written is rolled back', async () => {
  const files = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' };
  const root = project('rollback', files);
  const patch = [
    '*** Begin Patch',
    '*** Update File: a.txt',
    '@@',
    '-alpha',
    '+ALPHA',
    '*** Update File: b.txt',
    '@@',
    '-beta',
    '+BETA',
    '*** Add File: new/deeper/c.txt',
    '+gamma',
    '*** End Patch',
  ].join('\n');
  // Tests run as root, where permissions do not stop a write: the package's fault hook
  // (honoured only when set) makes the rename of c.txt fail.
  const client = await connect(root, { ANCHORED_EDIT_TEST_FAULT: 'c.txt' });
  const r = await client.callTool({ name: 'apply_patch', arguments: { patch } });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.error.kind, 'write_failed');
  assert.match(r.content[0].text, /injected fault writing c\.txt/);
  assert.deepEqual(tree(root), files, 'every file as it was; no directory, staged or backup file left');

  // The same patch without the fault is written whole.
  const ok = call(['--root', root], { tool: 'apply_patch', arguments: { patch } });
  assert.equal(ok.status, 0, ok.stdout);
  assert.equal(fs.readFileSync(path.join(root, 'new/deeper/c.txt'), 'utf8'), 'gamma\n');
  assert.equal(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'BETA\n');
});

test('paths that leave the root are refused: .., absolute, symlinks out', async () => {
  const outside = project('outside', { 'secret.txt': 'secret\n' });
  const root = project('jail', { 'in.txt': 'inside\n' });
  fs.symlinkSync(outside, path.join(root, 'link'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
  fs.symlinkSync(path.join(root, 'in.txt'), path.join(root, 'inner-link.txt'));
  const client = await connect(root);
  const attempts = [
    { name: 'read_lines', arguments: { path: '../outside/secret.txt' } },
    { name: 'read_lines', arguments: { path: path.join(outside, 'secret.txt') } },
    { name: 'read_lines', arguments: { path: 'link/secret.txt' } },
    { name: 'read_lines', arguments: { path: 'secret-link.txt' } },
    { name: 'create_file', arguments: { path: 'link/new.txt', content: 'x\n' } },
    { name: 'str_replace', arguments: { path: 'secret-link.txt', old_str: 'secret', new_str: 'leaked' } },
  ];
  for (const a of attempts) {
    const r = await client.callTool(a);
    assert.equal(r.isError, true, JSON.stringify(a));
    assert.equal(r.structuredContent.error.kind, 'path_outside_root', JSON.stringify(a));
  }
  assert.deepEqual(tree(outside), { 'secret.txt': 'secret\n' });
  // A symlink that stays inside the root is followed; the link itself is kept.
  const inner = await client.callTool({ name: 'str_replace', arguments: { path: 'inner-link.txt', old_str: 'inside', new_str: 'INSIDE' } });
  assert.equal(inner.isError, false, inner.content[0].text);
  assert.equal(fs.readFileSync(path.join(root, 'in.txt'), 'utf8'), 'INSIDE\n');
  assert.ok(fs.lstatSync(path.join(root, 'inner-link.txt')).isSymbolicLink());
});

test('binary, non-UTF-8 and non-regular files are refused without blocking', async () => {
  const root = project('kinds');
  fs.writeFileSync(path.join(root, 'bin.dat'), Buffer.from([0x61, 0x00, 0x62]));
  fs.writeFileSync(path.join(root, 'latin1.txt'), Buffer.from([0x61, 0x62, 0xe9, 0x0a]));
  fs.mkdirSync(path.join(root, 'folder'));
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  const cases = [
    ['bin.dat', /looks binary/],
    ['latin1.txt', /not UTF-8 text \(byte 0xE9 at line 1, offset 2\)/],
    ['folder', /is a directory/],
    ['pipe', /not a regular file/],
  ];
  for (const [p, message] of cases) {
    const ours = call(['--root', root], { tool: 'read_lines', arguments: { path: p } });
    assert.equal(ours.status, 1, p);
    assert.match(ours.result.error.message, message, p);
  }
  // The native CLI words the same refusals the same way.
  fs.mkdirSync(path.join(root, '.anchored-edit'));
  fs.writeFileSync(path.join(root, '.anchored-edit/journal'), 'x\n');
  for (const p of [...cases.map(([p]) => p), '.anchored-edit/journal']) {
    const request = JSON.stringify({ tool: 'read_lines', arguments: { path: p } });
    const theirs = JSON.parse(spawnSync(native, ['call', '--root', root], { input: request, encoding: 'utf8' }).stdout);
    assert.deepEqual(call(['--root', root], request).result, theirs, p);
  }
});

test('anchored-edit call: exit statuses, --dry-run as a call option, --request', () => {
  const root = project('cli', { 'a.py': 'x = 1\n' });
  const edit = { tool: 'str_replace', arguments: { path: 'a.py', old_str: 'x = 1', new_str: 'x = 2' } };
  const dry = call(['--root', root, '--dry-run'], edit);
  assert.equal(dry.status, 0);
  assert.equal(dry.result.dry_run, true);
  assert.equal(fs.readFileSync(path.join(root, 'a.py'), 'utf8'), 'x = 1\n');
  const requestFile = path.join(work, 'request.json');
  fs.writeFileSync(requestFile, JSON.stringify(edit));
  const done = call(['--root', root, '--request', requestFile], '');
  assert.equal(done.status, 0);
  assert.equal(fs.readFileSync(path.join(root, 'a.py'), 'utf8'), 'x = 2\n');
  const refused = call(['--root', root], edit);
  assert.equal(refused.status, 1);
  assert.equal(refused.result.ok, false);
  const truncated = call(['--root', root], '{"tool": "str_replace", "arguments": {"path": "a.py"');
  assert.equal(truncated.status, 1);
  assert.deepEqual(
    truncated.result,
    JSON.parse(spawnSync(native, ['call', '--root', root], { input: '{"tool": "str_replace", "arguments": {"path": "a.py"', encoding: 'utf8' }).stdout),
  );
  for (const args of [['--root', path.join(work, 'missing')], ['--bogus'], ['--root']]) {
    const usage = call(args, edit);
    assert.equal(usage.status, 2, args.join(' '));
    assert.match(usage.stderr, /anchored-edit --help/);
  }
});

test('--stats keeps the native format across runs; a reset lasts', async () => {
  const root = project('stats', { 'a.py': 'x = 1\n' });
  const stats = path.join(work, 'stats.jsonl');
  assert.equal(call(['--root', root, '--stats', stats], { tool: 'str_replace', arguments: { path: 'a.py', old_str: 'x = 1', new_str: 'x = 2' } }).status, 0);
  assert.equal(call(['--root', root, '--stats', stats], { tool: 'str_replace', arguments: { path: 'a.py', old_str: 'nope', new_str: 'x' } }).status, 1);
  const lines = fs.readFileSync(stats, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((r) => [r.tool, r.ok]), [['str_replace', true], ['str_replace', false]]);
  // The native CLI reads the same file.
  const nativeView = JSON.parse(spawnSync(native, ['call', '--root', root, '--stats', stats], { input: '{"tool":"get_edit_stats","arguments":{}}', encoding: 'utf8' }).stdout);
  assert.equal(nativeView.stats.str_replace.calls, 2);

  const client = await connect(root);
  await client.close();
  const server = new Client({ name: 'anchored-edit-npx-test', version: '1.0.0' });
  await server.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', root, '--stats', stats] }));
  clients.push(server);
  const seen = await server.callTool({ name: 'get_edit_stats', arguments: {} });
  assert.equal(seen.structuredContent.stats.str_replace.calls, 2, 'replayed on start');
  await server.callTool({ name: 'get_edit_stats', arguments: { reset: true } });
  assert.equal(fs.readFileSync(stats, 'utf8'), '', 'the reset empties the file');
  await server.callTool({ name: 'line_count', arguments: { path: 'a.py' } });
  assert.equal(fs.readFileSync(stats, 'utf8').trim().split('\n').length, 1, 'a stats call leaves no record; the next call one');
  const after = call(['--root', root, '--stats', stats], { tool: 'get_edit_stats', arguments: {} });
  assert.equal(after.result.stats.str_replace, undefined, 'the reset outlives the server');
});

test('server.json is an MCP registry entry for the npm package', () => {
  const server = JSON.parse(fs.readFileSync(path.join(repo, 'server.json'), 'utf8'));
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'pkg/package.json'), 'utf8'));
  assert.equal(server.$schema, 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json');
  assert.match(server.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'reverse-DNS namespace / name');
  assert.equal(typeof server.description, 'string');
  assert.ok(server.description.length > 0 && server.description.length <= 100);
  assert.equal(server.version, pkg.version);
  assert.equal(server.repository.source, 'github');
  assert.equal(server.packages.length, 1);
  const [p] = server.packages;
  assert.equal(p.registryType, 'npm');
  assert.equal(p.identifier, 'anchored-edit');
  assert.equal(p.version, pkg.version);
  assert.equal(p.runtimeHint, 'npx');
  assert.deepEqual(p.transport, { type: 'stdio' });
  assert.deepEqual(p.packageArguments[0], { type: 'positional', value: 'mcp' });
  for (const a of p.packageArguments) assert.ok(['positional', 'named'].includes(a.type));
});

/** Every case of tests/corpus as [file#name, case]. */
function corpus() {
  const dir = path.join(repo, 'tests/corpus');
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) {
        const parsed = JSON.parse(fs.readFileSync(p, 'utf8'));
        for (const c of Array.isArray(parsed) ? parsed : [parsed]) out.push([`${path.relative(dir, p)}#${c.name}`, c]);
      }
    }
  };
  walk(dir);
  return out;
}

/**
 * Runs `command args` on a fresh copy of the case's files; {status, result, files}. Both
 * servers run in the same folder, one after the other (refusals name the root).
 */
async function runCase(index, c, command, args) {
  const dir = path.join(work, 'corpus', String(index));
  const root = path.join(dir, 'root');
  fs.mkdirSync(root, { recursive: true });
  const bytes = Object.entries(c.files_base64 ?? {}).map(([p, b64]) => [p, Buffer.from(b64, 'base64')]);
  for (const [p, content] of [...Object.entries(c.files ?? {}), ...bytes]) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), content, 'utf8');
  }
  if (Array.isArray(c.steps)) return runSteps(dir, root, c, command, args);
  const request = path.join(dir, 'request.json');
  fs.writeFileSync(request, JSON.stringify(c.call));
  let status = 0;
  let stdout;
  try {
    ({ stdout } = await run(command, [...args, 'call', '--root', root, '--request', request], { encoding: 'utf8' }));
  } catch (e) {
    status = e.code;
    stdout = e.stdout;
  }
  const files = tree(root);
  fs.rmSync(dir, { recursive: true, force: true });
  return { status, result: JSON.parse(stdout), files };
}

/**
 * A sequence case (tests/corpus/README.md): one `call --state` per step in one folder;
 * each step's {status, result}, then the files. "$version:<path>@<N>" strings become the
 * version of that file after step N, asked of the same command (line_count).
 */
async function runSteps(dir, root, c, command, args) {
  const state = path.join(dir, 'state');
  const states = [tree(root)];
  const steps = [];
  const exec = async (call, where, extra) => {
    const request = path.join(dir, 'request.json');
    fs.writeFileSync(request, JSON.stringify(call));
    try {
      const { stdout } = await run(command, [...args, 'call', '--root', where, ...extra, '--request', request], { encoding: 'utf8' });
      return { status: 0, result: JSON.parse(stdout) };
    } catch (e) {
      return { status: e.code, result: JSON.parse(e.stdout) };
    }
  };
  const versionOf = async (text) => {
    const vroot = path.join(dir, 'version');
    fs.mkdirSync(vroot, { recursive: true });
    fs.writeFileSync(path.join(vroot, 'v'), text, 'utf8');
    const { result } = await exec({ tool: 'line_count', arguments: { path: 'v' } }, vroot, []);
    fs.rmSync(vroot, { recursive: true, force: true });
    return result.version;
  };
  const substitute = async (v) => {
    if (typeof v === 'string') {
      const m = /^\$version:(.*)@(\d+)$/.exec(v);
      return m ? versionOf(states[Number(m[2])][m[1]] ?? '') : v;
    }
    // One at a time: each asks the command in the same folder.
    if (Array.isArray(v)) {
      const out = [];
      for (const x of v) out.push(await substitute(x));
      return out;
    }
    if (v !== null && typeof v === 'object') {
      const out = {};
      for (const [k, x] of Object.entries(v)) out[k] = await substitute(x);
      return out;
    }
    return v;
  };
  for (const step of c.steps) {
    if (step.host_edit) {
      for (const [p, text] of Object.entries(step.host_edit)) {
        if (text === null) fs.rmSync(path.join(root, p), { force: true });
        else fs.writeFileSync(path.join(root, p), text, 'utf8');
      }
      steps.push(null);
    } else {
      steps.push(await exec(await substitute(step.call), root, ['--state', state]));
    }
    states.push(tree(root));
  }
  const files = states.at(-1);
  fs.rmSync(dir, { recursive: true, force: true });
  return { steps, files };
}

/**
 * Every `CALL_SAMPLE`th single-call case, and every sequence case, also runs through
 * `anchored-edit call` (a process per call, ~0.2 s of CPU for the Node command: running all
 * 700 through it was 82 of test-npx's 280 s); the rest go through one MCP server of each
 * kind, the same disk layer and commit without a process start.
 */
const CALL_SAMPLE = 8;

/** Replaces everything under `root` by case `c`'s files (text and base64 bytes). */
function resetCase(root, c) {
  const bytes = Object.entries(c.files_base64 ?? {}).map(([p, b64]) => [p, Buffer.from(b64, 'base64')]);
  reset(root, Object.fromEntries([...Object.entries(c.files ?? {}), ...bytes]));
}

/** An MCP client of `command args mcp --root root`. */
async function server(command, args, root) {
  const client = new Client({ name: 'anchored-edit-npx-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args: [...args, 'mcp', '--root', root] }));
  clients.push(client);
  return client;
}

/** Case `c`'s call through `client` on a fresh copy of its files: {isError, result, files}. */
async function serveCase(client, root, c) {
  resetCase(root, c);
  const r = await client.callTool({ name: c.call.tool, arguments: c.call.arguments });
  return { isError: r.isError ?? false, result: r.structuredContent ?? r.content, files: tree(root) };
}

test('every corpus case: the same result, exit status and files as the native CLI', async () => {
  const cases = corpus();
  assert.ok(cases.length > 100);
  const failures = [];
  const differ = (name, how, ours, theirs) => {
    if (!isDeepStrictEqual(ours, theirs)) {
      failures.push(`${name} (${how})\n  npx:    ${JSON.stringify(ours)}\n  native: ${JSON.stringify(theirs)}`);
    }
  };
  let next = 0;
  let called = 0;
  let served = 0;
  // Two workers, each with its root and a Node and a native server on it (the servers of
  // one worker see the same calls in the same order, so their sessions stay alike).
  const worker = async (w) => {
    const root = path.join(work, 'corpus-served', String(w));
    fs.mkdirSync(root, { recursive: true });
    const ours = await server(process.execPath, [bin], root);
    const theirs = await server(native, [], root);
    while (next < cases.length) {
      const i = next++;
      const [name, c] = cases[i];
      if (Array.isArray(c.steps) || i % CALL_SAMPLE === 0) {
        called++;
        differ(name, 'call', await runCase(i, c, process.execPath, [bin]), await runCase(i, c, native, []));
      }
      if (!Array.isArray(c.steps)) {
        served++;
        differ(name, 'mcp', await serveCase(ours, root, c), await serveCase(theirs, root, c));
      }
    }
  };
  await Promise.all([worker(0), worker(1)]);
  assert.deepEqual(failures, [], `${failures.length} of ${cases.length} cases differ`);
  assert.ok(called > cases.length / CALL_SAMPLE && served > cases.length / 2, `${called} called, ${served} served`);
});

/** The profile each dialect's corpus cases (tests/corpus/dialects/<file>.json) belong to. */
const DIALECTS = {
  anthropic: 'anthropic-text-editor',
  'claude-code': 'claude-code',
  cline: 'cline',
  roo: 'roo',
  aider: 'aider',
  gemini: 'gemini',
  copilot: 'copilot',
  codex: 'codex',
};

/** Replaces everything under `root` by `files`. */
function reset(root, files) {
  for (const e of fs.readdirSync(root)) fs.rmSync(path.join(root, e), { recursive: true, force: true });
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
}

test('profiles: each harness\'s tools listed by both MCP servers, and its corpus cases run through each', async () => {
  for (const [file, profile] of Object.entries(DIALECTS)) {
    const cases = JSON.parse(fs.readFileSync(path.join(repo, 'tests/corpus/dialects', `${file}.json`), 'utf8'));
    const listed = JSON.parse(execFileSync(native, ['tools', '--profile', profile], { encoding: 'utf8' }));
    for (const server of ['node', 'native']) {
      const root = project(`profile-${profile}-${server}`);
      const client = new Client({ name: 'anchored-edit-npx-test', version: '1.0.0' });
      const args = ['mcp', '--root', root, '--profile', profile];
      const transport =
        server === 'node'
          ? new StdioClientTransport({ command: 'npx', args: ['--no-install', 'anchored-edit', ...args], cwd: install })
          : new StdioClientTransport({ command: native, args });
      await client.connect(transport);
      clients.push(client);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), listed.map((t) => t.name), `${server} ${profile}`);
      assert.deepEqual(tools.map((t) => t.inputSchema), listed.map((t) => t.inputSchema), `${server} ${profile}`);
      for (const c of cases) {
        reset(root, c.files);
        for (const [i, step] of (c.steps ?? [{ call: c.call, expect: c.expect }]).entries()) {
          const before = tree(root);
          const r = await client.callTool({ name: step.call.tool, arguments: step.call.arguments });
          const where = `${server} ${profile} ${c.name} step ${i + 1}`;
          assert.equal(r.isError, !step.expect.ok, `${where}: ${r.content[0]?.text}`);
          if (!step.expect.ok) {
            assert.equal(r.structuredContent.error.kind, step.expect.error_kind, where);
            assert.deepEqual(tree(root), before, `${where}: nothing written`);
          } else if (step.expect.read) {
            assert.equal(r.structuredContent.content, step.expect.read.content, where);
          } else {
            for (const [p, text] of Object.entries(step.expect.files ?? {})) {
              assert.equal(fs.readFileSync(path.join(root, p), 'utf8'), text, `${where}: ${p}`);
            }
          }
        }
      }
    }
  }
});

test('--profile minimal and full within their budgets; --tools picks; the same through the Node command', async () => {
  for (const [profile, budget] of [['full', 6000], ['minimal', 1500]]) {
    const ours = JSON.parse(execFileSync(process.execPath, [bin, 'tools', '--profile', profile], { encoding: 'utf8' }));
    const theirs = JSON.parse(execFileSync(native, ['tools', '--profile', profile], { encoding: 'utf8' }));
    assert.deepEqual(ours, theirs, profile);
    assert.ok(JSON.stringify({ tools: ours }).length / 4 <= budget, profile);
  }
  const picked = JSON.parse(execFileSync(process.execPath, [bin, 'tools', '--tools', 'str_replace,Edit'], { encoding: 'utf8' }));
  assert.deepEqual(picked.map((t) => t.name), ['str_replace', 'Edit']);
  const bad = spawnSync(process.execPath, [bin, 'tools', '--profile', 'nope'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /profiles: full, minimal/);
});
