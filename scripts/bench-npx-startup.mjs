#!/usr/bin/env node
// Start-up of the MCP server to its first answers, as a client sees it: spawn the server,
// send `initialize`, and time (1) the initialize response and (2) the response to the
// first tools/call (line_count of a small file), over raw JSON-RPC lines on stdio.
//
// Servers measured: the npm package's bin run by node (what `npx` runs once the package
// is cached), the same through `npx --no-install anchored-edit` (npx's own start-up
// added), and the native binary. The package is `npm pack`ed from pkg/ and installed into
// a temporary folder first, as a user gets it.
//
// Usage: node scripts/bench-npx-startup.mjs [RUNS]   (default 15; needs pkg/ and
// target/release/anchored-edit or target/debug/anchored-edit). Prints min / median / p90.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 15);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ae-bench-npx-'));
const root = path.join(work, 'root');
fs.mkdirSync(root);
fs.writeFileSync(path.join(root, 'a.py'), 'x = 1\n');

function installPackage() {
  const tarball = execFileSync('npm', ['pack', path.join(repo, 'pkg'), '--pack-destination', work, '--silent'], { encoding: 'utf8' }).trim();
  const install = path.join(work, 'install');
  fs.mkdirSync(install);
  fs.writeFileSync(path.join(install, 'package.json'), '{"name": "bench", "private": true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', path.join(work, tarball)], { cwd: install, stdio: 'ignore' });
  return install;
}

/**
 * CPU time (user + system, ms) the process `pid` has used, from /proc (Linux; NaN
 * elsewhere). On a loaded machine it is close to what the wall clock shows on an idle
 * core; 10 ms ticks. For npx it counts npx's process only, not the server it starts.
 */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** One start: ms to the initialize answer and to the first tools/call answer. */
function once(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
    const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
    const times = {};
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (message.id === 1) {
          times.initialize = ms();
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'line_count', arguments: { path: 'a.py' } } });
        } else if (message.id === 2) {
          times.call = ms();
          times.cpu = cpuMs(child.pid);
          child.stdin.end();
          child.kill();
          resolve(times);
        }
      }
    });
    child.on('error', reject);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  });
}

function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `min ${s[0].toFixed(0)} / median ${at(0.5).toFixed(0)} / p90 ${at(0.9).toFixed(0)} ms`;
}

const install = installPackage();
const bin = path.join(install, 'node_modules/anchored-edit/node-server/bin.js');
const nativeBin = ['release', 'debug'].map((p) => path.join(repo, 'target', p, 'anchored-edit')).find((p) => fs.existsSync(p));
const servers = [
  ['node (package bin)', process.execPath, [bin, 'mcp', '--root', root]],
  ['npx --no-install anchored-edit', 'npx', ['--no-install', 'anchored-edit', 'mcp', '--root', root]],
];
if (nativeBin) servers.push([`native (${path.relative(repo, nativeBin)})`, nativeBin, ['mcp', '--root', root]]);

console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg()[0].toFixed(1)}, ${runs} runs each`);
for (const [name, command, args] of servers) {
  await once(command, args, install); // warm the file cache
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(command, args, install));
  console.log(`${name}\n  initialize answered: ${summary(results.map((r) => r.initialize))}\n  first tools/call answered: ${summary(results.map((r) => r.call))}\n  CPU time to it: ${summary(results.map((r) => r.cpu))}`);
}
fs.rmSync(work, { recursive: true, force: true });
