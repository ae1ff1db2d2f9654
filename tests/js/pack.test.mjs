// The packages of scripts/pack (dist/), used as the README says: the npm tarball served
// through `npx -y --package=./dist/anchored-edit-<version>.tgz anchored-edit mcp` (the
// command before publication) and installed into an empty folder; the MCP bundle checked
// with the official CLI (`mcpb validate`, `mcpb info`), unpacked, and its server started
// as a desktop client starts it from manifest.json. Needs `bash scripts/pack` first
// (scripts/test-npx runs it).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const server = JSON.parse(fs.readFileSync(path.join(repo, 'server.json'), 'utf8'));
const version = JSON.parse(fs.readFileSync(path.join(repo, 'pkg/package.json'), 'utf8')).version;
const tgz = `dist/anchored-edit-${version}.tgz`;
const mcpbFile = `dist/anchored-edit-${version}.mcpb`;
const mcpb = path.join(repo, 'tools/mcpb/node_modules/.bin/mcpb');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ae-pack-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

/** A project folder with one file. */
function project(name) {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'a.py'), 'x = 1\ny = 2\n');
  return dir;
}

/** Starts `command args` as an MCP client does, edits a.py in `root` through it. */
async function editOverMcp(command, args, cwd, root) {
  const client = new Client({ name: 'pack-test', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, cwd, stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'str_replace'), 'str_replace is listed');
    const r = await client.callTool({ name: 'str_replace', arguments: { path: 'a.py', old_str: 'y = 2', new_str: 'y = 3' } });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    assert.equal(fs.readFileSync(path.join(root, 'a.py'), 'utf8'), 'x = 1\ny = 3\n');
  } finally {
    await client.close();
  }
}

test('the tarball: README, LICENSE, bin, and the mcpName of server.json', () => {
  const listing = execFileSync('tar', ['-tzf', path.join(repo, tgz)], { encoding: 'utf8' }).split('\n');
  for (const f of ['package/README.md', 'package/LICENSE', 'package/package.json', 'package/node-server/bin.js']) {
    assert.ok(listing.includes(f), `${f} in ${tgz}`);
  }
  const pkg = JSON.parse(execFileSync('tar', ['-xzOf', path.join(repo, tgz), 'package/package.json'], { encoding: 'utf8' }));
  assert.equal(pkg.name, server.packages[0].identifier);
  assert.equal(pkg.version, server.packages[0].version);
  assert.equal(pkg.mcpName, server.name);
  assert.equal(pkg.license, 'MIT');
  assert.deepEqual(pkg.bin, { 'anchored-edit': 'node-server/bin.js' });
  assert.ok(fs.readFileSync(path.join(repo, 'LICENSE'), 'utf8').startsWith('MIT License'));
});

test('before publication: npx -y --package=./dist/….tgz anchored-edit mcp serves MCP (not dist/…: npm reads that as a GitHub repository)', async () => {
  const root = project('npx-package');
  // The README's command, run from the clone (a relative tarball path).
  await editOverMcp('npx', ['-y', `--package=./${tgz}`, 'anchored-edit', 'mcp', '--root', root], repo, root);
});

test('the tarball installed into an empty folder serves MCP through npx', async () => {
  const install = path.join(work, 'empty');
  fs.mkdirSync(install);
  fs.writeFileSync(path.join(install, 'package.json'), '{"name": "user-project", "private": true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', path.join(repo, tgz)], { cwd: install, stdio: 'ignore' });
  const root = project('npx-installed');
  await editOverMcp('npx', ['--no-install', 'anchored-edit', 'mcp', '--root', root], install, root);
});

test('the MCP bundle: mcpb validate and info pass, and its manifest starts a working server', async () => {
  const unpacked = path.join(work, 'bundle');
  execFileSync(mcpb, ['unpack', path.join(repo, mcpbFile), unpacked], { stdio: 'ignore' });
  execFileSync(mcpb, ['validate', path.join(unpacked, 'manifest.json')], { stdio: 'pipe' });
  const info = execFileSync(mcpb, ['info', path.join(repo, mcpbFile)], { encoding: 'utf8' });
  assert.match(info, /anchored-edit/);
  const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
  assert.equal(manifest.version, version);
  const root = project('bundle-root');
  const fill = (a) => a.replaceAll('${__dirname}', unpacked).replaceAll('${user_config.root}', root);
  const { command, args } = manifest.server.mcp_config;
  await editOverMcp(command === 'node' ? process.execPath : command, args.map(fill), work, root);
});
