#!/usr/bin/env node
// scripts/bench-wasm-goals.mjs — the speed goals' calls (docs/performance.md, issues 18 and
// 28) in wasm in Node, beside the native figures of `cargo bench -p anchored-edit --bench speed`.
//
// Inputs and calls: target/bench-inputs/ (scripts/bench-inputs.mjs, run here when
// missing): str_replace exact / re-indented / miss on 100 000-line Python and
// JavaScript. Each call through the package's Session (pkg/index.node.js),
// {newText: false} (what editor hosts ask for), three ways:
//   reader   dry run, the text handed over by the reader on every call (copied into wasm memory)
//   kept     dry run, the text kept in the session (openBuffer once): only the request crosses
//   applied  exact hits only: the hit applied and its edits forwarded (editBuffer), as an
//            editor host that keeps its buffers does, then undone the same way (untimed);
//            the forward adopts the session's new text (crate/src/buffers.rs), no copy
//   spliced  the same, the edits forwarded with an empty edit appended at the last one's
//            end (a no-op the engine does not recognise as the call's edits): the kept text
//            is spliced as any other change (a whole copy while the text before is shared
//            with the version store), the path before adoption, timed in the same minute
// Native medians are read from criterion's estimates: `hosts/<call>, kept text, edits only`
// (the same call natively: a kept text, no new_text), else `goals/<call>` (new_text
// wanted), and for the applied hits `hosts/<name> exact, applied` (the hit applied, the
// next call meeting the text the session wrote, as the native server does); run
// `cargo bench -p anchored-edit --bench speed -- hosts` first.
// Each figure is the lowest of 5 interleaved rounds' medians (the machine is shared).
//
// Usage: node scripts/bench-wasm-goals.mjs [--iterations N] [--smoke] [--pkg DIR]
//   needs pkg/ (scripts/build-wasm); --pkg: another build of it (e.g. a copy taken before a
//   change, to compare in the same minute); --smoke: 3 calls per figure on big.py only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const iterations = smoke ? 3 : Number(args[args.indexOf('--iterations') + 1]) || 40;
const pkg = args.includes('--pkg') ? path.resolve(args[args.indexOf('--pkg') + 1]) : path.join(root, 'pkg');

const dir = execFileSync('node', [path.join(root, 'scripts/bench-inputs.mjs')], { encoding: 'utf8' }).trim();
const cases = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8'));

/** Criterion's median for a bench, in ms, or undefined. */
function criterionMs(group, name) {
  const file = path.join(root, 'target/criterion', group, name, 'new/estimates.json');
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')).median.point_estimate / 1e6;
}

/** The native median of the call on a kept text without new_text, else the goals' call. */
function nativeMs(call) {
  return criterionMs('hosts', `${call}, kept text, edits only`) ?? criterionMs('goals', call);
}

/** The lowest of the rounds' medians of each function, rounds interleaved. A function
 * returning a number times itself (ms); otherwise its whole call is timed. */
function measureAll(fns) {
  const rounds = smoke ? 1 : 5;
  const per = Math.max(3, Math.ceil(iterations / rounds));
  const best = fns.map(() => Infinity);
  for (const fn of fns) for (let i = 0; i < (smoke ? 1 : 3); i++) fn();
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, k) => {
      const times = [];
      for (let i = 0; i < per; i++) {
        const t0 = performance.now();
        const own = fn();
        times.push(typeof own === 'number' ? own : performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      best[k] = Math.min(best[k], times[Math.floor(times.length / 2)]);
    });
  }
  return best;
}

const none = { read: () => undefined };

/** The call's edits and an empty edit at the last one's end: the same change, not the same edits. */
const withNoOp = (edits) => {
  const end = edits[edits.length - 1].range.end;
  return [...edits, { range: { start: end, end }, text: '' }];
};

/**
 * An exact hit applied to a kept text and forwarded (timed), undone the same way (not);
 * `spliced`: forwarded as other edits (withNoOp), so the kept text is spliced.
 */
function appliedAndForwarded(session, name, hit, spliced) {
  const apply = (a) => {
    const r = session.call({ tool: 'str_replace', arguments: { path: name, ...a } }, none, { newText: false });
    const edits = r.ok ? (spliced ? withNoOp(r.files[0].edits) : r.files[0].edits) : null;
    if (!r.ok || session.editBuffer(name, edits) !== true) throw new Error(`${name} applied: ${JSON.stringify(r.error ?? r).slice(0, 300)}`);
  };
  return () => {
    const t0 = performance.now();
    apply(hit);
    const ms = performance.now() - t0;
    apply({ old_str: hit.new_str, new_str: hit.old_str });
    return ms;
  };
}

const engine = await import(path.join(pkg, 'index.node.js'));
const wasm = fs.statSync(path.join(pkg, 'node/anchored_edit_bg.wasm')).size;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
console.log(`Node ${process.version}, module ${wasm} bytes, ${iterations} calls per figure, load average ${load()}`);
console.log('call | native ms | wasm, reader ms | wasm, kept ms | kept/native | wasm, kept, applied and forwarded ms | the same, spliced ms | native, applied ms | applied/native applied');
console.log('---|---|---|---|---|---|---|---|---');
const fmt = (x) => (x === undefined ? 'n/a' : x.toFixed(2));
for (const name of smoke ? ['big.py'] : ['big.py', 'big.js']) {
  const text = fs.readFileSync(path.join(dir, name), 'utf8');
  const reader = { read: (p) => (p === name ? text : undefined) };
  const kept = new engine.Session();
  kept.openBuffer(name, text);
  const applying = new engine.Session();
  applying.openBuffer(name, text);
  const splicing = new engine.Session();
  splicing.openBuffer(name, text);
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
    const fns = [() => plain.call(request, reader, { newText: false }), () => kept.call(request, none, { newText: false })];
    if (call === 'exact') fns.push(appliedAndForwarded(applying, name, cases[name][call], false), appliedAndForwarded(splicing, name, cases[name][call], true));
    const [viaReader, viaKept, applied, spliced] = measureAll(fns);
    const native = nativeMs(`${name} ${call}`);
    const ratio = native === undefined ? 'n/a' : `${(viaKept / native).toFixed(2)}×`;
    const nativeApplied = applied === undefined ? undefined : criterionMs('hosts', `${name} ${call}, applied`);
    const appliedRatio = nativeApplied === undefined ? '' : `${(applied / nativeApplied).toFixed(2)}×`;
    const cell = (x) => (applied === undefined ? '' : fmt(x));
    console.log(`${name} ${call} | ${fmt(native)} | ${fmt(viaReader)} | ${fmt(viaKept)} | ${ratio} | ${cell(applied)} | ${cell(spliced)} | ${cell(nativeApplied)} | ${appliedRatio}`);
  }
  // The applied hits were all undone: the kept texts are the file's again.
  for (const session of [applying, splicing]) {
    const check = session.call({ tool: 'get_document', arguments: { path: name } }, none);
    if (check.content !== text) throw new Error(`${name}: the kept text drifted (${JSON.stringify(check).slice(0, 200)})`);
  }
}
console.log(`load average at the end ${load()}`);
