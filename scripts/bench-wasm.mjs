#!/usr/bin/env node
// scripts/bench-wasm.mjs — the criterion benches' calls (crate/benches/engine.rs) through
// the wasm package in Node, and the wasm/native ratio.
//
// Each call is a whole host call: the request object and the 4 MB text come from JS
// strings (the reader hands the text over on every call, as an editor host does), and
// the result comes back as a JS object (for the edit, with the 4 MB `new_text`).
// Native figures are read from criterion's estimates (target/criterion/*/new/
// estimates.json) when `cargo bench -p anchored-edit --bench engine` has run.
//
// Each figure is the best of 5 interleaved rounds' medians (the machine is shared).
//
// Usage: node scripts/bench-wasm.mjs [--iterations N]   (needs pkg/: scripts/build-wasm)
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const iterations = Number(args[args.indexOf('--iterations') + 1]) || 50;

/** The same text as crate/benches/engine.rs `big_file`. */
function bigFile(lines) {
  const out = [];
  let n = 0;
  while (n < lines) {
    const f = Math.floor(n / 8);
    const chunk = [
      `/// Handles case ${f} of the dispatcher table.`,
      `pub fn handler_${f}(input: &Request, ctx: &mut Context) -> Response {`,
      '    let mut total = 0usize;',
      `    for item in input.items.iter().filter(|i| i.kind == ${f % 17}) {`,
      '        total += item.weight * ctx.scale;',
      '    }',
      `    Response::new(total, "handler ${f}")`,
      '}',
    ];
    for (const line of chunk) {
      if (n >= lines) break;
      out.push(line, '\n');
      n += 1;
    }
  }
  return out.join('');
}

/** Criterion's mean for a bench, in ms, or undefined. */
function nativeMs(name) {
  const dir = path.join(root, 'target/criterion', name);
  const file = path.join(dir, 'new/estimates.json');
  if (!fs.existsSync(file)) return undefined;
  const e = JSON.parse(fs.readFileSync(file, 'utf8'));
  // The figure criterion prints: the slope when it sampled linearly, else the mean.
  return (e.slope ?? e.mean).point_estimate / 1e6;
}

/**
 * The median of `iterations` timed calls, taken in several rounds interleaved with the
 * other figures of the same call; the best round counts (the machine is shared, and
 * other processes' bursts only ever add time).
 */
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
const raw = (await import(path.join(root, 'pkg/node/anchored_edit.js'))).default;
const text = bigFile(100_000);
const files = { read: (p) => (p === 'big.rs' ? text : undefined) };

const calls = [
  {
    name: 'str_replace exact unique, 100k lines',
    request: {
      tool: 'str_replace',
      arguments: {
        path: 'big.rs',
        dry_run: true,
        old_str: '    Response::new(total, "handler 6000")',
        new_str: '    Response::new(total * 2, "handler 6000")',
      },
    },
    check: (r) => r.ok && r.files[0].new_text.length === text.length + 4,
  },
  {
    name: 'str_replace no_match + diagnostics, 100k lines',
    request: {
      tool: 'str_replace',
      arguments: {
        path: 'big.rs',
        dry_run: true,
        old_str:
          'pub fn handler_6000(input: &Request, context: &mut Context) -> Response {\n    let mut sum = 0usize;\n    for item in input.items.iter().filter(|i| i.kind == 16) {',
        new_str: 'pub fn handler_6000(input: &Request) -> Response {',
        strict: true,
      },
    },
    check: (r) => !r.ok && r.error.kind === 'no_match',
  },
  {
    name: 'grep_file literal, 100k lines',
    request: { tool: 'grep_file', arguments: { path: 'big.rs', pattern: 'handler 6000")' } },
    check: (r) => r.ok && r.matches.length === 1,
  },
];

console.log(`text: ${text.length} bytes, ${iterations} iterations per figure, Node ${process.version}`);
console.log('call | wasm ms | wasm ms, {newText: false} | wasm ms, raw binding | native ms | wasm/native | wasm/native, {newText: false}');
console.log('---|---|---|---|---|---|---');
const session = new engine.Session();
const rawSession = new raw.Session();
const ratio = (ms, native) => (native === undefined ? 'n/a' : `${(ms / native).toFixed(2)}×`);
for (const c of calls) {
  if (!c.check(session.call(c.request, files))) throw new Error(`${c.name}: unexpected result`);
  const [whole, lean, bare] = measureAll([
    () => session.call(c.request, files),
    () => session.call(c.request, files, { newText: false }),
    () => rawSession.call(c.request, files, undefined),
  ]);
  const native = nativeMs(c.name);
  console.log(
    `${c.name} | ${whole.toFixed(2)} | ${lean.toFixed(2)} | ${bare.toFixed(2)} | ${native === undefined ? 'n/a (cargo bench)' : native.toFixed(2)} | ${ratio(whole, native)} | ${ratio(lean, native)}`,
  );
}

// Where the time of the 4 MB edit goes: the copy of the text into wasm memory alone
// (a call whose answer is tiny), and JS-side string handling for scale.
const [copyIn, encode] = measureAll([
  () => rawSession.call({ tool: 'line_count', arguments: { path: 'big.rs' } }, files, undefined),
  () => new TextEncoder().encode(text),
]);
console.log(
  `\nline_count (copy in + line index, tiny result): ${copyIn.toFixed(2)} ms; TextEncoder.encode of the text alone: ${encode.toFixed(2)} ms`,
);
