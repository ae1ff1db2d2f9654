#!/usr/bin/env node
// scripts/bench-peers.mjs — the speed goals' three calls (issue 28) made by peers' search/replace
// in the same run as ours, on the same files with the same texts (docs/performance.md, "Peers
// in the same run"). No peer code is in this repository: each peer is loaded at run time from
// a checkout of its own repository (scripts/fetch-peers clones them at the commits the docs
// name).
//
//   ours     the npm package's Session (pkg/index.node.js) as a host calls it without kept
//            buffers: the whole text handed over by the reader, `new_text` wanted (text in,
//            text out, as the peers work); dry run. With --native also the engine in-process,
//            the same calls (`cargo bench -p anchored-edit --bench speed -- hosts`, the
//            "new text, new_text" rows, criterion's median estimate)
//   Roo      Roo Code's MultiSearchReplaceDiffStrategy.applyDiff (src/core/diff/strategies/
//            multi-search-replace.ts), as Roo constructs it (default fuzzy threshold 1.0,
//            40 buffer lines), one SEARCH/REPLACE block with `:start_line:` set to the line the
//            old text starts at (the ±40-line window); the text in, the new content out.
//            The TypeScript is bundled at run time by esbuild (web/'s dependency) with its own
//            imports: fastest-levenshtein (npm, installed into target/bench-peers/ when the
//            checkout has none), src/integrations/misc/extract-text.ts (line-number helpers)
//            and src/utils/text-normalization.ts. Every other import is stubbed by an empty
//            module (the run prints the list: extract-text.ts's file readers — pdf, docx,
//            xlsx, fs —, which the three helpers used here do not call); type-only imports
//            (@roo-code/types, shared/tools) vanish in the transpile
//   aider    replace_most_similar_chunk from aider/coders/editblock_coder.py, run by
//            scripts/bench-peers-aider.py under python3 (see its header for what it stubs),
//            and on the miss also find_similar_lines, the "Did you mean" lines aider's coder
//            sends back with the failure
//
// Calls: exact / re-indented / miss of target/bench-inputs/cases.json on big.py and big.js
// (scripts/bench-inputs.mjs). Every hit is checked to give the file with old_str replaced by
// new_str (the exact call's new text for the re-indented call); every miss to refuse.
// Each figure is the median of N calls, the lowest of 3 rounds' medians (ours and Roo
// interleaved in one process; aider in its own process right after), in wall-clock time
// and in CPU time of the process (user + system: less moved by other processes sharing
// the machine than wall-clock time, though not unmoved).
//
// Usage: node scripts/bench-peers.mjs [--roo DIR] [--aider DIR] [--native] [--iterations N] [--smoke]
//   DIR: a checkout of RooCodeInc/Roo-Code or Aider-AI/aider (also ROO_DIR, AIDER_DIR);
//   a peer not given is not run, and the output says so.
//   --smoke: 2 calls per figure on big.py only (checks the script still runs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, 'target', 'bench-peers');
const CALLS = ['exact', 'reindented', 'miss'];

function option(args, flag, env) {
  const at = args.indexOf(flag);
  if (at >= 0 && args[at + 1]) return path.resolve(args[at + 1]);
  return process.env[env] ? path.resolve(process.env[env]) : null;
}

/** The text `name` has after `call` hits: old_str replaced by new_str where the exact call's old_str is. */
function expectedAfter(text, c) {
  const at = text.indexOf(c.exact.old_str);
  return text.slice(0, at) + c.exact.new_str + text.slice(at + c.exact.old_str.length);
}

/** The commit of a peer checkout: the .peer-commit file scripts/fetch-peers writes, else its git HEAD. */
function commitOf(dir) {
  const marker = path.join(dir, '.peer-commit');
  if (fs.existsSync(marker)) return fs.readFileSync(marker, 'utf8').trim();
  try {
    const git = (...a) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (fs.realpathSync(git('rev-parse', '--show-toplevel')) === fs.realpathSync(dir)) return git('rev-parse', 'HEAD');
  } catch {
    // not a git checkout
  }
  return 'unknown commit';
}

/** The median of `times`. */
const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

/**
 * Each fn's median wall-clock and CPU time (this process's user + system, ms) over `rounds`
 * interleaved rounds (the lowest round's of each).
 */
async function measure(fns, iterations, rounds) {
  const per = Math.max(1, Math.ceil(iterations / rounds));
  const best = fns.map(() => ({ wall: Infinity, cpu: Infinity }));
  for (const f of fns) await f();
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < fns.length; k++) {
      const wall = [];
      const cpu = [];
      for (let i = 0; i < per; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await fns[k]();
        wall.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      best[k] = { wall: Math.min(best[k].wall, median(wall)), cpu: Math.min(best[k].cpu, median(cpu)) };
    }
  }
  return best;
}

/** fastest-levenshtein for Roo's bundle: the checkout's own, else one installed into target/bench-peers/. */
function levenshtein(rooDir) {
  for (const base of [path.join(rooDir, 'src'), rooDir, work]) {
    try {
      return createRequire(path.join(base, 'package.json')).resolve('fastest-levenshtein');
    } catch {
      // not installed there
    }
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(rooDir, 'src/package.json'), 'utf8'));
  const version = manifest.dependencies?.['fastest-levenshtein'] ?? 'latest';
  console.error(`bench-peers: installing fastest-levenshtein@${version} (Roo's dependency) into ${path.relative(root, work)}`);
  fs.mkdirSync(work, { recursive: true });
  if (!fs.existsSync(path.join(work, 'package.json'))) fs.writeFileSync(path.join(work, 'package.json'), '{"name": "bench-peers", "private": true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `fastest-levenshtein@${version}`], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
  return createRequire(path.join(work, 'package.json')).resolve('fastest-levenshtein');
}

/** Roo's MultiSearchReplaceDiffStrategy, bundled from `rooDir` (see the header); and what was stubbed. */
async function loadRoo(rooDir) {
  const src = path.join(rooDir, 'src');
  const entry = path.join(src, 'core/diff/strategies/multi-search-replace.ts');
  if (!fs.existsSync(entry)) throw new Error(`${entry} missing (is ${rooDir} a Roo-Code checkout? scripts/fetch-peers)`);
  const own = new Set(
    ['core/diff/strategies/multi-search-replace.ts', 'integrations/misc/extract-text.ts', 'utils/text-normalization.ts'].map((f) => path.join(src, f)),
  );
  const lev = levenshtein(rooDir);
  const stubbed = [];
  const stubs = {
    name: 'roo-stubs',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (a) => {
        if (a.kind === 'entry-point') return undefined;
        if (a.path === 'fastest-levenshtein') return { path: lev };
        if (a.path.startsWith('.')) {
          const file = path.resolve(a.resolveDir, a.path);
          for (const candidate of [file, `${file}.ts`]) if (own.has(candidate)) return { path: candidate };
        }
        stubbed.push(`${a.path} (${path.relative(src, a.importer)})`);
        return { path: a.path, namespace: 'stub' };
      });
      build.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'module.exports = {}', loader: 'js' }));
    },
  };
  const esbuild = createRequire(path.join(root, 'web/package.json'))('esbuild');
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    plugins: [stubs],
    logLevel: 'silent',
  });
  fs.mkdirSync(work, { recursive: true });
  const bundle = path.join(work, 'roo-multi-search-replace.mjs');
  fs.writeFileSync(bundle, out.outputFiles[0].text);
  const { MultiSearchReplaceDiffStrategy } = await import(`${pathToFileURL(bundle).href}?${Date.now()}`);
  return { MultiSearchReplaceDiffStrategy, stubbed };
}

/** One SEARCH/REPLACE block of Roo's format for str_replace arguments `a`, hinted at `line`. */
function rooDiff(a, line) {
  const strip = (s) => (s.endsWith('\n') ? s.slice(0, -1) : s);
  return `<<<<<<< SEARCH\n:start_line:${line}\n-------\n${strip(a.old_str)}\n=======\n${strip(a.new_str)}\n>>>>>>> REPLACE`;
}

/** The criterion medians of the in-process host path (`-- hosts`, "new text, new_text"), by "name call". */
function nativeFigures(smoke) {
  const args = ['bench', '-p', 'anchored-edit', '--bench', 'speed', '--', 'hosts', '--output-format', 'bencher'];
  if (smoke) args.push('--warm-up-time', '1', '--measurement-time', '1');
  const out = execFileSync('cargo', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const figures = {};
  for (const m of out.matchAll(/^test hosts\/(\S+) (\w+), new text, new_text \.\.\. bench:\s+([\d,]+) ns\/iter/gm)) {
    figures[`${m[1]} ${m[2]}`] = { wall: Number(m[3].replaceAll(',', '')) / 1e6 };
  }
  return figures;
}

/** Runs the peers given in `args` and ours; prints one Markdown table. */
export async function benchPeers(args = process.argv.slice(2)) {
  const smoke = args.includes('--smoke');
  const iterations = smoke ? 2 : Number(args[args.indexOf('--iterations') + 1]) || 12;
  const rounds = smoke ? 1 : 3;
  const rooDir = option(args, '--roo', 'ROO_DIR');
  const aiderDir = option(args, '--aider', 'AIDER_DIR');
  const load = () => os.loadavg()[0].toFixed(1);
  const loadAtStart = load();
  const dir = execFileSync('node', [path.join(root, 'scripts/bench-inputs.mjs')], { encoding: 'utf8' }).trim();
  const cases = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8'));
  const names = smoke ? ['big.py'] : ['big.py', 'big.js'];
  const notes = [];

  const native = args.includes('--native') ? nativeFigures(smoke) : null;
  if (!native) notes.push('ours in-process: not run (pass --native: cargo bench -p anchored-edit --bench speed -- hosts)');

  let engine = null;
  if (fs.existsSync(path.join(root, 'pkg/index.node.js'))) engine = await import(path.join(root, 'pkg/index.node.js'));
  else notes.push('ours (npm package): not run (bash scripts/build-wasm)');

  let roo = null;
  if (rooDir) {
    roo = await loadRoo(rooDir);
    notes.push(`Roo: ${rooDir} at ${commitOf(rooDir)}; stubbed imports: ${roo.stubbed.join(', ') || 'none'}`);
  } else notes.push('Roo: not run (pass --roo DIR or ROO_DIR)');

  const rows = {};
  for (const name of names) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    const c = cases[name];
    const want = expectedAfter(text, c);
    const session = engine ? new engine.Session() : null;
    const strategy = roo ? new roo.MultiSearchReplaceDiffStrategy() : null;
    for (const call of CALLS) {
      const fns = [];
      if (session) {
        const reader = { read: (p) => (p === name ? text : undefined) };
        const request = { tool: 'str_replace', arguments: { path: name, dry_run: true, ...c[call] } };
        fns.push(() => {
          const r = session.call(request, reader);
          const ok = call === 'miss' ? !r.ok && r.error.kind === 'no_match' : r.ok && r.files[0].new_text === want;
          if (!ok) throw new Error(`ours ${name} ${call}: ${JSON.stringify(r.error ?? r.files?.[0]?.edits).slice(0, 300)}`);
        });
      }
      if (strategy) {
        const diff = rooDiff(c[call], c.line);
        fns.push(async () => {
          const r = await strategy.applyDiff(text, diff);
          const ok = call === 'miss' ? !r.success : r.success && r.content === want;
          if (!ok) throw new Error(`Roo ${name} ${call}: ${r.success ? 'content differs from the expected text' : (r.error ?? r.failParts?.[0]?.error ?? '').slice(0, 300)}`);
        });
      }
      const figures = fns.length ? await measure(fns, iterations, rounds) : [];
      rows[`${name} ${call}`] = {
        native: native?.[`${name} ${call}`],
        npm: session ? figures.shift() : undefined,
        roo: strategy ? figures.shift() : undefined,
      };
    }
  }

  let aider = null;
  if (aiderDir) {
    const out = execFileSync('python3', [path.join(root, 'scripts/bench-peers-aider.py'), aiderDir, dir, names.join(','), String(iterations), String(rounds)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    aider = JSON.parse(out);
    notes.push(`aider: ${aiderDir} at ${aider.commit ?? 'unknown commit'}, Python ${aider.python}; miss: replace_most_similar_chunk (+ find_similar_lines, its "Did you mean" lines, one call)`);
  } else notes.push('aider: not run (pass --aider DIR or AIDER_DIR)');

  const fmt = (x) => (x === undefined || x === null ? '' : x.toFixed(2));
  console.log(`Node ${process.version}; ${iterations} calls per figure; load average ${loadAtStart} at start, ${load()} at end`);
  for (const n of notes) console.log(`- ${n}`);
  for (const [kind, title] of [
    ['wall', 'wall-clock medians'],
    ['cpu', 'CPU-time medians (the process\'s user + system time; criterion gives none)'],
  ]) {
    console.log(`\n${title}\n`);
    console.log('call, 100 000 lines | ours in-process ms | ours npm package ms | Roo ms | aider ms');
    console.log('---|---|---|---|---');
    for (const name of names) {
      for (const call of CALLS) {
        const r = rows[`${name} ${call}`];
        const a = aider?.rows[name];
        const ai = a ? (call === 'miss' ? `${fmt(a.miss[kind])} (+ ${fmt(a.miss_message[kind])})` : fmt(a[call][kind])) : '';
        console.log(`${name} ${call} | ${fmt(r.native?.[kind])} | ${fmt(r.npm?.[kind])} | ${fmt(r.roo?.[kind])} | ${ai}`);
      }
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    await benchPeers();
  } catch (e) {
    console.error(`bench-peers: ${e.message}`);
    process.exit(1);
  }
}
