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
// - the project tools list the same files: the wasm reader's `list` is the case's files
//   through the engine's `ignoreFilter`, the CLI walks the directory (tests/corpus/project);
// - the case's own expectations hold (ok, error_kind, files, matched_via,
//   warnings_contain, message_contains, diagnostics_keys, and for reading tools `read`:
//   what they read).
// - Cases with `files_base64` (files that are not UTF-8) hand the wasm reader those
//   files' bytes (a Uint8Array) as a disk host does; trees compare bytes.
// - Kept buffers: the same call in a session that keeps every text file of the case
//   (`openBuffer` with another text, then `editBuffer` batches that bring it to the
//   case's text, as an editor host forwards its edits: corpus.mjs's
//   incrementalChanges) gives exactly the result of the call with fresh texts.
//
// The Pulsar and VS Code hosts are compared with the CLI the same way by their own
// stages (docs/conformance.md); the shared parts are in tests/js/corpus.mjs.
//
// Usage: node tests/js/conformance.mjs [--cli PATH] [FILTER]
//   --cli defaults to $ANCHORED_EDIT_CLI, else target/release/anchored-edit or
//   target/debug/anchored-edit, whichever is newer. FILTER keeps cases whose
//   "file#name" contains it. Needs pkg/ (scripts/build-wasm).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  root,
  loadCases,
  findCli,
  llmView,
  applyEdits,
  expectedTree,
  runCli,
  checkExpectations,
  readOnlyFrom,
  caseFiles,
  compareWithCli,
  staleDifferences,
  isSequence,
  runSequence,
  checkSequence,
  incrementalChanges,
} from './corpus.mjs';

function parseArgs(argv) {
  const opts = { cli: undefined, filter: '' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cli') opts.cli = argv[++i];
    else opts.filter = argv[i];
  }
  opts.cli = findCli(opts.cli);
  if (!opts.cli) {
    console.error('conformance: no CLI binary; run `cargo build -p anchored-edit-cli` or pass --cli PATH');
    process.exit(2);
  }
  return opts;
}

/** The version of `text`, asked of the wasm engine (a line_count call). */
function wasmVersionOf(engine) {
  return (text) => new engine.Session().call({ tool: 'line_count', arguments: { path: 'v' } }, { read: () => text }).version;
}

/** A sequence case through one wasm session and through the CLI with --state. */
async function runSequenceCase(engine, readOnly, cli, name, c) {
  const problems = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-conformance-'));
  const work = fs.realpathSync(dir);
  let wasm;
  let native;
  try {
    const session = new engine.Session();
    session.setRoots([work]);
    let files = { ...(c.files ?? {}) };
    const host = {
      call: (call) => {
        const before = files;
        const result = session.call(call, { read: (p) => (Object.hasOwn(before, p) ? before[p] : undefined) });
        for (const f of result.ok && result.dry_run !== true ? result.files ?? [] : []) {
          if (f.deleted || f.moved_to !== undefined || typeof f.new_text !== 'string') continue;
          const old = Object.hasOwn(before, f.path) ? before[f.path] : '';
          if (applyEdits(old, f.edits) !== f.new_text) problems.push(`edits of ${f.path} do not produce new_text`);
        }
        files = expectedTree(before, result);
        return result;
      },
      hostEdit: (p, text) => {
        files = { ...files };
        if (text === null) delete files[p];
        else files[p] = text;
      },
      tree: () => files,
    };
    wasm = await runSequence(c, host, wasmVersionOf(engine));
    native = await runCli(cli, c, { root: work });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (native.problem) return [native.problem];
  const wantStatus = wasm.results.map((r) => (r === null ? null : r.ok ? 0 : 1));
  if (JSON.stringify(native.status) !== JSON.stringify(wantStatus)) problems.push(`CLI exit statuses ${JSON.stringify(native.status)}, expected ${JSON.stringify(wantStatus)}`);
  problems.push(...compareWithCli('wasm', name, { result: wasm.result, tree: wasm.tree }, native));
  checkSequence(c, wasm.results, readOnly, problems);
  return problems;
}

/** The text the engine decodes from a file's bytes (get_document with the call's `encoding`). */
function decoded(engine, reader, p, encoding) {
  return new engine.Session().call({ tool: 'get_document', arguments: { path: p, encoding } }, reader).content;
}

/**
 * The call over kept buffers: a new session keeps every text of `files`, reached by
 * incremental changes; its result must equal `fresh` (new_text included).
 */
function keptDifferences(engine, work, files, reader, call, fresh) {
  const session = new engine.Session();
  session.setRoots([work]);
  const keptPaths = new Set();
  for (const [p, text] of Object.entries(files)) {
    if (typeof text !== 'string') continue;
    const { start, batches } = incrementalChanges(text);
    try {
      session.openBuffer(p, start);
    } catch {
      continue; // a path no call can name (outside the root): the reader answers for it
    }
    keptPaths.add(p);
    for (const batch of batches) {
      if (session.editBuffer(p, batch) !== true) return [`kept buffer: editBuffer(${p}) refused a batch`];
    }
  }
  const kept = session.call(call, reader);
  if (JSON.stringify(kept) !== JSON.stringify(fresh)) {
    return [`kept buffer: the result differs from the fresh text's:\n      kept:  ${JSON.stringify(llmView(kept)).slice(0, 400)}\n      fresh: ${JSON.stringify(llmView(fresh)).slice(0, 400)}`];
  }
  return forwardedDifferences(session, keptPaths, kept, reader);
}

/**
 * The host applies the call's edits and forwards them (`editBuffer` with the result's
 * `edits`; the session then keeps the call's own new text, crate/src/buffers.rs): each
 * kept text must read back as the result's `new_text`.
 */
function forwardedDifferences(session, keptPaths, result, reader) {
  const problems = [];
  for (const f of result.files ?? []) {
    if (!keptPaths.has(f.path) || f.deleted || f.moved_to !== undefined || typeof f.new_text !== 'string') continue;
    if (session.editBuffer(f.path, f.edits) !== true) {
      problems.push(`kept buffer: editBuffer(${f.path}) refused the call's own edits`);
      continue;
    }
    const read = session.call({ tool: 'get_document', arguments: { path: f.path } }, reader);
    if (read.content !== f.new_text) problems.push(`kept buffer: ${f.path} after forwarding the call's edits is not its new_text: ${JSON.stringify(read).slice(0, 300)}`);
  }
  return problems;
}

/** Runs one case through both hosts; returns its problems. */
async function runCase(engine, readOnly, cli, name, c) {
  if (isSequence(c)) return runSequenceCase(engine, readOnly, cli, name, c);
  const problems = [];
  const files = caseFiles(c);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-conformance-'));
  const work = fs.realpathSync(dir);
  let wasm;
  let native;
  const read = (p) => (Object.hasOwn(files, p) ? files[p] : undefined);
  // list(folder): the case's files under it, with the engine's ignore rules
  // (ignoreFilter), as an in-memory host lists them (project tools).
  const list = (folder) =>
    engine.ignoreFilter(
      Object.keys(files).filter((p) => folder === '' || p.startsWith(`${folder}/`)),
      { read },
    );
  const reader = { read, list };
  try {
    // (b) wasm in Node, with the CLI's root as its one root (docs/paths.md), so that
    // both judge absolute paths alike.
    const session = new engine.Session();
    session.setRoots([work]);
    wasm = session.call(c.call, reader);
    problems.push(...keptDifferences(engine, work, files, reader, c.call, wasm));
    // (a) the CLI on a real directory.
    native = await runCli(cli, c, { root: work });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (native.problem) return [native.problem];
  const wantStatus = wasm.ok ? 0 : 1;
  if (native.status !== wantStatus) problems.push(`CLI exit status ${native.status}, expected ${wantStatus}`);
  // Same answer, same texts.
  problems.push(
    ...compareWithCli('wasm', name, { result: llmView(wasm), tree: expectedTree(files, wasm, engine.encodeText) }, native),
  );

  // The minimal edits mean the same as new_text.
  for (const f of wasm.files ?? []) {
    if (f.deleted || f.moved_to !== undefined || typeof f.new_text !== 'string') continue;
    const before = !Object.hasOwn(files, f.path)
      ? ''
      : typeof files[f.path] === 'string'
        ? files[f.path]
        : decoded(engine, reader, f.path, c.call.arguments?.encoding);
    if (applyEdits(before, f.edits) !== f.new_text) problems.push(`edits of ${f.path} do not produce new_text`);
  }

  checkExpectations(c, wasm, readOnly, problems, engine.encodeText);
  return problems;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const engine = await import(path.join(root, 'pkg/index.node.js'));
  const readOnly = readOnlyFrom(engine.toolSchemas());
  const cases = loadCases(opts.filter);
  const names = new Set();
  let passed = 0;
  const failures = [];
  for (const { name, case: c } of cases) {
    if (names.has(name)) failures.push(`${name}: duplicate case name`);
    names.add(name);
    const problems = await runCase(engine, readOnly, opts.cli, name, c);
    if (problems.length === 0) passed += 1;
    else failures.push(`${name}\n    ${problems.join('\n    ')}`);
  }
  if (!opts.filter) {
    for (const stale of staleDifferences('wasm', [...names])) failures.push(`tests/js/host-differences.json lists ${stale}, which is no corpus case`);
  }
  for (const f of failures) console.error(`FAIL ${f}`);
  console.log(`conformance (CLI ${path.relative(root, opts.cli)} vs wasm): ${cases.length} cases ran, ${passed} passed, ${failures.length} failed`);
  if (cases.length === 0) {
    console.error('conformance: no cases ran');
    process.exit(1);
  }
  process.exit(failures.length === 0 ? 0 : 1);
}

main();
