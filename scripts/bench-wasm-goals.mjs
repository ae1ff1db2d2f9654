#!/usr/bin/env node
// scripts/bench-wasm-goals.mjs — the speed goals' calls (docs/performance.md, issue 18) in
// wasm in Node, beside the native figures of `cargo bench -p anchored-edit --bench speed`.
//
// Inputs and calls: target/bench-inputs/ (scripts/bench-inputs.mjs, run here when
// missing): str_replace exact / re-indented / miss on 100 000-line Python and
// JavaScript. Each call through the package's Session (pkg/index.node.js), dry run,
// {newText: false} (what editor hosts ask for), two ways:
//   reader   the text handed over by the reader on every call (copied into wasm memory)
//   kept     the text kept in the session (openBuffer once): only the request crosses
// Native medians are read from criterion's estimates (target/criterion/goals/*).
// Each figure is the lowest of 5 interleaved rounds' medians (the machine is shared).
//
// Usage: node scripts/bench-wasm-goals.mjs [--iterations N]   (needs pkg/: scripts/build-wasm)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const iterations = Number(args[args.indexOf('--iterations') + 1]) || 40;

const dir = execFileSync('node', [path.join(root, 'scripts/bench-inputs.mjs')], { encoding: 'utf8' }).trim();
const cases = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8'));

/** Criterion's median for a bench, in ms, or undefined. */
function nativeMs(group, name) {
  const file = path.join(root, 'target/criterion', group, name, 'new/estimates.json');
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')).median.point_estimate / 1e6;
}

/** The lowest of 5 rounds' medians of each function, rounds interleaved. */
function measureAll(fns) {
  const rounds = 5;
  const per = Math.max(3, Math.ceil(iterations / rounds));
  const best = fns.map(() => Infinity);
  for (const fn of fns) for (let i = 0; i < 3; i++) fn();
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, k) => {
      const times = [];
      for (let i = 0; i < per; i++) {
        const t0 = performance.now();
        fn();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      best[k] = Math.min(best[k], times[Math.floor(times.length / 2)]);
    });
  }
  return best;
}

const engine = await import(path.join(root, 'pkg/index.node.js'));
const wasm = fs.statSync(path.join(root, 'pkg/node/anchored_edit_bg.wasm')).size;
console.log(`Node ${process.version}, module ${wasm} bytes, ${iterations} calls per figure`);
console.log('call | native ms | wasm, reader ms | wasm, kept ms | kept/native');
console.log('---|---|---|---|---');
const fmt = (x) => (x === undefined ? 'n/a' : x.toFixed(2));
for (const name of ['big.py', 'big.js']) {
  const text = fs.readFileSync(path.join(dir, name), 'utf8');
  const reader = { read: (p) => (p === name ? text : undefined) };
  const none = { read: () => undefined };
  const kept = new engine.Session();
  kept.openBuffer(name, text);
  const plain = new engine.Session();
  for (const [call, kind] of [
    ['exact', null],
    ['reindented', null],
    ['miss', 'no_match'],
  ]) {
    const request = { tool: 'str_replace', arguments: { path: name, dry_run: true, ...cases[name][call] } };
    for (const [session, files] of [
      [plain, reader],
      [kept, none],
    ]) {
      const r = session.call(request, files, { newText: false });
      if ((r.ok ? null : r.error.kind) !== kind) throw new Error(`${name} ${call}: ${JSON.stringify(r.error)}`);
    }
    const [viaReader, viaKept] = measureAll([
      () => plain.call(request, reader, { newText: false }),
      () => kept.call(request, none, { newText: false }),
    ]);
    const native = nativeMs('goals', `${name} ${call}`);
    const ratio = native === undefined ? 'n/a' : `${(viaKept / native).toFixed(2)}×`;
    console.log(`${name} ${call} | ${fmt(native)} | ${fmt(viaReader)} | ${fmt(viaKept)} | ${ratio}`);
  }
}
