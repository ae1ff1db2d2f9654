#!/usr/bin/env node
// scripts/bench-inputs.mjs — the real-code inputs of the speed benchmarks (docs/performance.md),
// built the same way on every machine, and the calls made on them.
//
// Writes target/bench-inputs/:
//   big.py      the first 100 000 lines of Python's standard library: every top-level
//               /usr/lib/python3.*/*.py (the highest version found), sorted by name,
//               concatenated, each preceded by a `# file: NAME` line
//   big.js      the first 100 000 lines of npm's own JavaScript: every *.js under
//               <node's prefix>/lib/node_modules/npm/ (sorted by path) whose lines average
//               under 120 bytes (no minified files), each preceded by `// file: PATH`
//   cases.json  for each file: its size, the source it came from, and three calls
//               (exact hit, re-indented hit, miss), as `str_replace` arguments
//
// The calls are picked from the text, not written by hand: the first window of 6
// non-blank lines at or after line 50 000 that is indented by at least 8 spaces, occurs
// once, and whose dedented form also occurs once. exact = the window (new_str appends a
// comment to its last line); reindented = the window without its common indentation;
// miss = the window with one identifier of its third line renamed (no_match, full
// cascade, diagnostics). Idempotent: rebuilt only when missing (--force rebuilds).
//
// Usage: node scripts/bench-inputs.mjs [--force]   (prints the directory)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'target', 'bench-inputs');
const LINES = 100_000;

function walk(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...walk(p));
    else if (entry.isFile()) found.push(p);
  }
  return found;
}

function byCodeUnits(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first LINES lines of `files` (in order), each file headed by a comment line. */
function concatenate(files, comment, base) {
  const lines = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
    const own = text.split('\n');
    if (own[own.length - 1] === '') own.pop();
    lines.push(`${comment} file: ${path.relative(base, file)}`, ...own);
    if (lines.length >= LINES) break;
  }
  if (lines.length < LINES) throw new Error(`only ${lines.length} lines under ${base}`);
  return lines.slice(0, LINES).join('\n') + '\n';
}

function pythonSource() {
  const dirs = fs
    .readdirSync('/usr/lib')
    .filter((d) => /^python3\.\d+$/.test(d))
    .sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
  if (!dirs.length) throw new Error('no /usr/lib/python3.* (install python3)');
  const base = path.join('/usr/lib', dirs[dirs.length - 1]);
  const files = fs
    .readdirSync(base)
    .filter((f) => f.endsWith('.py'))
    .sort(byCodeUnits)
    .map((f) => path.join(base, f));
  return { text: concatenate(files, '#', base), source: `${base}/*.py` };
}

function javascriptSource() {
  const base = path.join(path.dirname(path.dirname(process.execPath)), 'lib', 'node_modules', 'npm');
  const files = walk(base)
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.relative(base, f))
    .sort(byCodeUnits)
    .map((f) => path.join(base, f))
    .filter((f) => {
      const t = fs.readFileSync(f, 'utf8');
      return t.length / Math.max(1, t.split('\n').length) < 120;
    });
  const version = JSON.parse(fs.readFileSync(path.join(base, 'package.json'), 'utf8')).version;
  return { text: concatenate(files, '//', base), source: `${base}/**/*.js (npm ${version})` };
}

function count(text, needle) {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) n += 1;
  return n;
}

/** The three calls on `text` (see the header). */
function pickCases(text, comment) {
  const lines = text.split('\n');
  for (let i = 50_000; i + 6 < lines.length; i++) {
    const win = lines.slice(i, i + 6);
    if (!win.every((l) => /^ {8,}\S/.test(l))) continue;
    const lead = Math.min(...win.map((l) => l.match(/^ */)[0].length));
    const old = win.join('\n') + '\n';
    const dedented = win.map((l) => l.slice(lead)).join('\n') + '\n';
    if (count(text, old) !== 1 || count(text, dedented) !== 0) continue;
    const words = win[2].match(/[A-Za-z_][A-Za-z0-9_]{3,}/g);
    if (!words) continue;
    const word = words[0];
    const renamed = win.map((l, k) => (k === 2 ? l.replace(word, `${word}_renamed`) : l));
    const miss = renamed.join('\n') + '\n';
    if (count(text, renamed[2]) !== 0) continue;
    const changed = (w) => [...w.slice(0, 5), `${w[5]}  ${comment} changed`].join('\n') + '\n';
    return {
      line: i + 1,
      exact: { old_str: old, new_str: changed(win) },
      reindented: { old_str: dedented, new_str: changed(win.map((l) => l.slice(lead))) },
      miss: { old_str: miss, new_str: changed(renamed) },
    };
  }
  throw new Error('no window for the calls');
}

function build() {
  fs.mkdirSync(out, { recursive: true });
  const cases = {};
  for (const [name, make, comment] of [
    ['big.py', pythonSource, '#'],
    ['big.js', javascriptSource, '//'],
  ]) {
    const { text, source } = make();
    fs.writeFileSync(path.join(out, name), text);
    cases[name] = { bytes: Buffer.byteLength(text), lines: LINES, source, ...pickCases(text, comment) };
  }
  fs.writeFileSync(path.join(out, 'cases.json'), JSON.stringify(cases, null, 2) + '\n');
}

const cases = path.join(out, 'cases.json');
if (process.argv.includes('--force') || !fs.existsSync(cases)) build();
console.log(out);
