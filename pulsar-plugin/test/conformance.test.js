'use strict';
// Cross-host conformance for the Pulsar host: every case of tests/corpus/ runs through
// lib/host.js (engine, then apply, as an agent's MCP call runs) on a temporary project,
// and must leave exactly what the native CLI leaves: the same result as the agent sees it
// and the same files afterwards (tests/js/corpus.mjs compares them; known differences are
// listed, with why, in tests/js/host-differences.json). Two passes:
// - "pulsar-buffers": every file of the case is open in Pulsar's real TextBuffer
//   (@pulsar-edit/text-buffer), so reads come from buffers and edits land in them (left
//   unsaved: the files afterwards are the buffers' texts, the disk's for the others);
// - the same with the engine keeping the buffers (lib/kept-buffers.js), each buffer
//   holding another text when the engine starts keeping it and brought back to the
//   file's text by Pulsar edits forwarded as incremental changes: the results must be
//   those of fresh texts (the first pass reads every buffer whole through the reader);
// - "pulsar-disk": no file is open, so reads and writes go to the disk.
// The CLI runs each case first in the same directory the host then gets as its root, so
// messages naming the root agree. Needs the CLI (cargo build -p anchored-edit-cli;
// ANCHORED_EDIT_CLI overrides) and
// vendor/host.js (scripts/build-pulsar). Prints how many cases each pass ran.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const os = require('os');
const { openBuffer, makeHost, resultOf } = require('./helpers');

const corpusModule = pathToFileURL(path.join(__dirname, '..', '..', 'tests', 'js', 'corpus.mjs')).href;

/** The files of the project after the call: the disk's, with each open buffer's text over its file. */
function treeAfter(lib, project, buffers) {
  const tree = lib.readTree(project.root);
  for (const b of buffers) {
    const file = b.getPath();
    if (!file || !fs.existsSync(file)) continue;
    tree[path.relative(project.root, file).split(path.sep).join('/')] = b.getText();
  }
  return lib.sortedTree(tree);
}

/** A project at `root` (an existing, empty directory) holding the case's files. */
function projectAt(lib, root, files, filesBase64) {
  lib.writeFiles(root, files, filesBase64);
  return { root, file: (rel) => path.join(root, rel) };
}

/**
 * One case through the CLI and then the Pulsar host, both with the same directory as
 * their root (messages that name the root then agree); resolves to {native, outcome}.
 */
async function runBoth(lib, cli, c, { open, keep = false, incremental = false }) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-pulsar-conformance-')));
  const buffers = [];
  try {
    const native = await lib.runCli(cli, c, { root });
    if (native.problem) return { native };
    for (const entry of fs.readdirSync(root)) fs.rmSync(path.join(root, entry), { recursive: true, force: true });
    const project = projectAt(lib, root, c.files ?? {}, c.files_base64);
    if (open) for (const rel of Object.keys(c.files ?? {})) buffers.push(await openBuffer(project.file(rel)));
    const { host, engine } = makeHost({ roots: [root], buffers, keep });
    if (incremental) reachByChanges(lib, host, root, buffers);
    if (lib.isSequence(c)) {
      const outcome = await runSteps(lib, c, { host, engine, project, buffers });
      return { native, outcome: { result: outcome.result, tree: outcome.tree } };
    }
    const result = resultOf(await host.call(c.call.tool, c.call.arguments));
    return { native, outcome: { result, tree: treeAfter(lib, project, buffers) } };
  } finally {
    for (const b of buffers) b.destroy();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Puts each buffer's text into the engine the way an editor reaches it: the buffer holds
 * another text when the session starts keeping it, then Pulsar's own edits
 * (`setTextInRange`, forwarded by lib/kept-buffers.js) bring it back to the file's text
 * (tests/js/corpus.mjs's incrementalChanges). Buffers with a lone `\r` are left alone
 * (never kept; the reader reads them).
 */
function reachByChanges(lib, host, root, buffers) {
  const plans = [];
  for (const buffer of buffers) {
    const text = buffer.getText();
    if (/\r(?!\n)/.test(text)) continue;
    const { start, batches } = lib.incrementalChanges(text);
    buffer.setText(start);
    plans.push({ buffer, text, batches });
  }
  host.session.setRoots([root]);
  const kept = host.kept.sync([root]);
  for (const { buffer, text, batches } of plans) {
    for (const batch of batches) {
      buffer.transact(() => {
        for (const e of [...batch].reverse()) {
          const range = [
            [e.range.start.row, e.range.start.column],
            [e.range.end.row, e.range.end.column],
          ];
          buffer.setTextInRange(range, e.text, { normalizeLineEndings: false });
        }
      });
    }
    assert.equal(buffer.getText(), text, `${buffer.getPath()}: the changes did not bring the buffer back to the file's text`);
    const entry = host.kept.entries.get(buffer);
    assert.ok(entry && entry.live && kept.has(entry.key), `${buffer.getPath()}: not kept through its changes`);
  }
}

/**
 * A sequence case's steps through one Pulsar host (one engine session). A host_edit
 * changes the file as the user would: in its open buffer when there is one, else on disk.
 */
function runSteps(lib, c, { host, engine, project, buffers }) {
  const bufferOf = (rel) => buffers.find((b) => b.getPath() === project.file(rel));
  const versionOf = (text) => new engine.Session().call({ tool: 'line_count', arguments: { path: 'v' } }, { read: () => text }).version;
  return lib.runSequence(
    c,
    {
      call: async (call) => resultOf(await host.call(call.tool, call.arguments)),
      hostEdit: (rel, text) => {
        const buffer = bufferOf(rel);
        if (buffer && text !== null) buffer.setText(text);
        else if (text === null) fs.rmSync(project.file(rel), { force: true });
        else lib.writeFiles(project.root, { [rel]: text });
      },
      tree: () => treeAfter(lib, project, buffers),
    },
    versionOf,
  );
}

async function runPass(host, open, options = {}) {
  const lib = await import(corpusModule);
  const cli = lib.findCli();
  assert.ok(cli, 'no CLI binary: run `cargo build -p anchored-edit-cli` (or set ANCHORED_EDIT_CLI)');
  const differences = lib.loadDifferences();
  const cases = lib.loadCases(process.env.CONFORMANCE_FILTER ?? '');
  const failures = [];
  for (const { name, case: c } of cases) {
    let problems;
    try {
      const { native, outcome } = await runBoth(lib, cli, c, { open, ...options });
      problems = native.problem ? [native.problem] : lib.compareWithCli(host, name, outcome, native, differences);
    } catch (e) {
      problems = [`the host threw: ${e && e.stack ? e.stack : e}`];
    }
    if (problems.length > 0) failures.push(`${name}\n    ${problems.join('\n    ')}`);
  }
  if (!process.env.CONFORMANCE_FILTER) {
    for (const stale of lib.staleDifferences(host, cases.map((x) => x.name), differences)) {
      failures.push(`tests/js/host-differences.json lists ${stale}, which is no corpus case`);
    }
  }
  console.log(`conformance (${options.label ?? host} vs CLI): ${cases.length} cases ran, ${cases.length - failures.length} passed, ${failures.length} failed`);
  assert.ok(cases.length > 0, 'no corpus case ran');
  assert.equal(failures.length, 0, `${failures.length} of ${cases.length} cases differ from the CLI:\n${failures.join('\n')}`);
}

test('every corpus case through the Pulsar host, files open in TextBuffers, as through the CLI', () => runPass('pulsar-buffers', true));

test('every corpus case through the Pulsar host, buffers kept by the engine and reached by incremental changes, as through the CLI', () =>
  runPass('pulsar-buffers', true, { keep: true, incremental: true, label: 'pulsar-buffers, kept, reached by incremental changes' }));

test('every corpus case through the Pulsar host, files on disk, as through the CLI', () => runPass('pulsar-disk', false));
