#!/usr/bin/env node
// Cross-host conformance: every case of tests/corpus/ (format: tests/corpus/README.md)
// runs through (a) the native CLI on a real directory and (b) the wasm package in Node,
// and both must give the same answer:
//
// - the same result JSON as an LLM sees it (the wasm result without `files[].new_text`
//   equals the CLI's stdout, compared as parsed JSON: numbers as JS numbers);
// - the same texts: what the CLI left on disk equals the case's files with the wasm
//   result's changes applied (`new_text`, `deleted`, `moved_to`; nothing for a dry run
//   or a refusal), byte for byte; and the wasm `edits` applied to the old texts (rows,
//   UTF-16 columns) give `new_text`;
// - the CLI's exit status matches (0 applied or read, 1 refused);
// - the case's own expectations hold (ok, error_kind, files, matched_via,
//   warnings_contain, message_contains).
//
// Usage: node tests/js/conformance.mjs [--cli PATH] [FILTER]
//   --cli defaults to $ANCHORED_EDIT_CLI, else target/release/anchored-edit or
//   target/debug/anchored-edit, whichever is newer. FILTER keeps cases whose
//   "file#name" contains it. Needs pkg/ (scripts/build-wasm).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpusDir = path.join(root, 'tests/corpus');

function parseArgs(argv) {
  const opts = { cli: process.env.ANCHORED_EDIT_CLI, filter: '' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cli') opts.cli = argv[++i];
    else opts.filter = argv[i];
  }
  if (!opts.cli) {
    const built = ['release', 'debug']
      .map((p) => path.join(root, 'target', p, 'anchored-edit'))
      .filter((p) => fs.existsSync(p))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
    opts.cli = built[0];
  }
  if (!opts.cli || !fs.existsSync(opts.cli)) {
    console.error('conformance: no CLI binary; run `cargo build -p anchored-edit-cli` or pass --cli PATH');
    process.exit(2);
  }
  return opts;
}

/** Every case file under tests/corpus, sorted, as [relative path, case]. */
function loadCases() {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.json')) {
        const parsed = JSON.parse(fs.readFileSync(p, 'utf8'));
        for (const c of Array.isArray(parsed) ? parsed : [parsed]) out.push([path.relative(corpusDir, p), c]);
      }
    }
  };
  walk(corpusDir);
  return out;
}

/** The result as an LLM sees it: without `files[].new_text`. */
function llmView(result) {
  if (!Array.isArray(result.files)) return result;
  return { ...result, files: result.files.map(({ new_text, ...rest }) => rest) };
}

/** Applies edits ({row, column} with UTF-16 columns) to a string, last first. */
function applyEdits(text, edits) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p) => starts[p.row] + p.column;
  let out = text;
  for (const e of [...edits].reverse()) {
    out = out.slice(0, offset(e.range.start)) + e.text + out.slice(offset(e.range.end));
  }
  return out;
}

/** Every regular file under `dir`, as {relative path (with /) → text}. */
function readTree(dir) {
  const out = {};
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) out[path.relative(dir, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** The files after the wasm result is applied to the case's files. */
function expectedTree(files, result) {
  const tree = { ...files };
  if (!result.ok || result.dry_run === true) return tree;
  for (const f of result.files ?? []) {
    if (f.moved_to !== undefined) {
      delete tree[f.path];
      tree[f.moved_to] = f.new_text;
    } else if (f.deleted) delete tree[f.path];
    else tree[f.path] = f.new_text;
  }
  return tree;
}

function strings(v) {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
}

/** The case's own expectations, on the wasm result (README of tests/corpus). */
function checkExpectations(c, result, problems) {
  const expect = c.expect ?? {};
  const wantOk = expect.ok === true;
  const headline = (result.ok ? result.message : result.error?.message) ?? '';
  if (result.ok !== wantOk) {
    problems.push(`ok is ${result.ok}, expected ${wantOk}: ${headline}`);
    return;
  }
  const changes = result.files ?? [];
  if (wantOk) {
    const expected = expect.files ?? {};
    const touched = new Set();
    for (const f of changes) {
      const after = f.deleted || f.moved_to !== undefined ? null : f.new_text;
      touched.add(f.path);
      if (!(f.path in expected)) problems.push(`WRONG WRITE: ${f.path} changed but the case expects it untouched`);
      else if (expected[f.path] !== after) {
        problems.push(`WRONG WRITE in ${f.path}: expected ${JSON.stringify(expected[f.path])}, got ${JSON.stringify(after)}`);
      }
      if (f.moved_to !== undefined) {
        touched.add(f.moved_to);
        if (expected[f.moved_to] !== f.new_text) problems.push(`WRONG WRITE: move to ${f.moved_to}`);
      }
    }
    for (const p of Object.keys(expected)) if (!touched.has(p)) problems.push(`${p} was expected to change but did not`);
    if (expect.matched_via !== undefined && result.matched_via !== expect.matched_via) {
      problems.push(`matched_via ${result.matched_via}, expected ${expect.matched_via}`);
    }
    for (const w of strings(expect.warnings_contain)) {
      if (!(result.warnings ?? []).some((x) => x.includes(w))) problems.push(`no warning contains ${JSON.stringify(w)}`);
    }
  } else {
    if (changes.length !== 0) problems.push('a refused call reported changed files');
    if (result.error?.kind !== expect.error_kind) {
      problems.push(`error kind ${result.error?.kind}, expected ${expect.error_kind}: ${headline}`);
    }
  }
  for (const m of strings(expect.message_contains)) {
    if (!headline.includes(m)) problems.push(`message lacks ${JSON.stringify(m)}: ${headline}`);
  }
}

/** Runs one case through both hosts; returns its problems. */
function runCase(engine, cli, c) {
  const problems = [];
  const files = c.files ?? {};

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-conformance-'));
  const work = path.join(dir, 'root');
  fs.mkdirSync(work);

  // (b) wasm in Node, with the CLI's root as its one root (docs/paths.md), so that
  // both judge absolute paths alike.
  const session = new engine.Session();
  session.setRoots([fs.realpathSync(work)]);
  const reader = { read: (p) => (Object.hasOwn(files, p) ? files[p] : undefined) };
  const wasm = session.call(c.call, reader);

  try {

    // (a) the CLI on a real directory.
    for (const [p, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(work, p)), { recursive: true });
      fs.writeFileSync(path.join(work, p), text, 'utf8');
    }
    const requestFile = path.join(dir, 'request.json');
    fs.writeFileSync(requestFile, JSON.stringify(c.call));
    const run = spawnSync(cli, ['call', '--root', work, '--request', requestFile], { encoding: 'utf8' });
    let cliResult;
    try {
      cliResult = JSON.parse(run.stdout);
    } catch {
      problems.push(`CLI printed no result JSON (exit ${run.status}): ${run.stdout}${run.stderr}`);
      return problems;
    }
    const wantStatus = wasm.ok ? 0 : 1;
    if (run.status !== wantStatus) problems.push(`CLI exit status ${run.status}, expected ${wantStatus}`);

    // Same answer.
    if (!isDeepStrictEqual(llmView(wasm), cliResult)) {
      problems.push(
        `result JSON differs\n      wasm: ${JSON.stringify(llmView(wasm))}\n      cli:  ${JSON.stringify(cliResult)}`,
      );
    }
    // Same texts.
    const onDisk = readTree(work);
    const expected = expectedTree(files, wasm);
    if (!isDeepStrictEqual(onDisk, expected)) {
      problems.push(`files differ\n      wasm: ${JSON.stringify(expected)}\n      cli:  ${JSON.stringify(onDisk)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // The minimal edits mean the same as new_text.
  for (const f of wasm.files ?? []) {
    if (f.deleted || f.moved_to !== undefined || typeof f.new_text !== 'string') continue;
    const before = Object.hasOwn(files, f.path) ? files[f.path] : '';
    if (applyEdits(before, f.edits) !== f.new_text) problems.push(`edits of ${f.path} do not produce new_text`);
  }

  checkExpectations(c, wasm, problems);
  return problems;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const engine = await import(path.join(root, 'pkg/index.node.js'));
  const cases = loadCases().filter(([file, c]) => `${file}#${c.name}`.includes(opts.filter));
  const names = new Set();
  let passed = 0;
  const failures = [];
  for (const [file, c] of cases) {
    const name = `${file}#${c.name}`;
    if (names.has(name)) failures.push(`${name}: duplicate case name`);
    names.add(name);
    const problems = runCase(engine, opts.cli, c);
    if (problems.length === 0) passed += 1;
    else failures.push(`${name}\n    ${problems.join('\n    ')}`);
  }
  for (const f of failures) console.error(`FAIL ${f}`);
  console.log(`conformance (CLI ${path.relative(root, opts.cli)} vs wasm): ${passed} passed, ${failures.length} failed`);
  if (cases.length === 0) {
    console.error('conformance: no cases found');
    process.exit(1);
  }
  process.exit(failures.length === 0 ? 0 : 1);
}

main();
