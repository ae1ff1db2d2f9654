// Issue 24, the host kit: a path that leads out of the root is refused in the same words
// by the Node server (js/node-server/disk.js, as built into pkg/node-server/), Pulsar
// (pulsar-plugin/lib/workspace.js) and the VS Code desktop (vscode-extension/src/files.js
// with src/node/real-path.js): the engine's (`hostRefusal`, crate/src/refusals.rs), which
// are also the native CLI's (cli/src/jail.rs). Each host runs for real on a real disk;
// only VS Code's `vscode` module is stood in for (its workspace folder and Uri).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire, register } from 'node:module';
import * as engine from '../../pkg/index.node.js';
import * as realPath from './real-path.js';
import * as listing from './listing.js';

const require = createRequire(import.meta.url);

// `import * as vscode from 'vscode'` in the extension's sources resolves to this stand-in.
const vscodeStub = `
const file = (p) => ({ scheme: 'file', authority: '', path: p, fsPath: p });
export const Uri = { file, joinPath: (u, ...parts) => file([u.path.replace(/\\/$/, ''), ...parts].join('/')) };
export const workspace = { get workspaceFolders() { return globalThis.__vscodeFolders; } };
export const FileType = { File: 1, Directory: 2, SymbolicLink: 64 };
`;
register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'vscode') return { url: 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(vscodeStub)}), shortCircuit: true };
  return next(specifier, context);
}`)}`,
);

let base;
let root;
let outside;

before(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ae-refusal-words-')));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
  fs.symlinkSync(outside, path.join(root, 'link'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
});

after(() => fs.rmSync(base, { recursive: true, force: true }));

/** The message each host refuses `p` with (undefined: it did not refuse). */
async function refusals(p) {
  const { DiskFiles } = await import('../../pkg/node-server/disk.js');
  const { createWorkspace } = require('../../pulsar-plugin/lib/workspace.js');
  globalThis.__vscodeFolders = [{ uri: { scheme: 'file', authority: '', path: root, fsPath: root }, name: 'project', index: 0 }];
  const { WorkspacePaths } = await import('../../vscode-extension/src/files.js');
  const { realPathEscapes } = await import('../../vscode-extension/src/node/real-path.js');
  const hosts = {
    node: () => new DiskFiles(root, { engine }).resolve(p),
    pulsar: () => createWorkspace({ roots: () => [root], openBuffers: () => [], listing, engine, realPath }).resolve(p),
    vscode: () => new WorkspacePaths({ realPathEscapes, engine }).locate(p),
  };
  const out = {};
  for (const [name, resolve] of Object.entries(hosts)) {
    try {
      resolve();
      out[name] = undefined;
    } catch (e) {
      assert.equal(e.kind, 'path_outside_root', `${name}: ${e.message}`);
      out[name] = e.message;
    }
  }
  return out;
}

test('the Node server, Pulsar and VS Code refuse a path leading out in the engine’s words', async () => {
  const words = (p, why) => engine.hostRefusal('', 'path_outside_root', { path: p, why }).error.message;
  const cases = [
    ['link/secret.txt', 'link_leads_out'],
    ['link/new.txt', 'link_leads_out'],
    ['secret-link.txt', 'link_leads_out'],
    [path.join(outside, 'secret.txt'), 'not_under_root'],
  ];
  for (const [p, why] of cases) {
    const want = words(p, why);
    assert.match(want, /^`.+` is outside the project root: .+\. Send a path inside the root, relative to it\.$/);
    assert.deepEqual(await refusals(p), { node: want, pulsar: want, vscode: want }, p);
  }
  // Near misses: a file inside, a new file inside, a link that stays inside are not refused.
  fs.symlinkSync(path.join(root, 'a.txt'), path.join(root, 'inside-link.txt'));
  for (const p of ['a.txt', 'new/dir/b.txt', 'inside-link.txt', path.join(root, 'a.txt')]) {
    assert.deepEqual(await refusals(p), { node: undefined, pulsar: undefined, vscode: undefined }, p);
  }
});

test('every reason a host names is worded by the engine, with the kind path_outside_root', () => {
  for (const why of ['not_under_root', 'link_leads_out', 'climbs_out', 'too_many_links', 'link_on_the_way', 'moved_while_read', 'became_link']) {
    const r = engine.hostRefusal('read_lines', 'path_outside_root', { path: 'x/y', why });
    assert.equal(r.ok, false);
    assert.equal(r.error.kind, 'path_outside_root');
    assert.match(r.error.message, /^`x\/y` is outside the project root: /);
  }
  const r = engine.hostRefusal('read_lines', 'path_outside_root', { path: 'x', why: 'unresolvable', error: 'EACCES' });
  assert.match(r.error.message, /it cannot be resolved \(EACCES\)/);
  assert.throws(() => engine.hostRefusal('read_lines', 'path_outside_root', { path: 'x', why: 'somewhere' }));
});
