'use strict';
// Cross-host conformance for the Pulsar host: every case of tests/corpus/ runs through
// lib/host.js (engine, then apply, as an agent's MCP call runs) on a temporary project,
// and must leave exactly what the native CLI leaves: the same result as the agent sees it
// and the same files afterwards (tests/js/corpus.mjs compares them; known differences are
// listed, with why, in tests/js/host-differences.json). Two passes:
// - "pulsar-buffers": every file of the case is open in Pulsar's real TextBuffer
//   (@pulsar-edit/text-buffer), so reads come from buffers and edits land in them (left
//   unsaved: the files afterwards are the buffers' texts, the disk's for the others);
// - "pulsar-disk": no file is open, so reads and writes go to the disk.
// Needs the CLI (cargo build -p anchored-edit-cli; ANCHORED_EDIT_CLI overrides) and
// vendor/host.js (scripts/build-pulsar). Prints how many cases each pass ran.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { tempProject, openBuffer, makeHost, resultOf } = require('./helpers');

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

/** One case through the Pulsar host; resolves to {result, tree}. */
async function runInPulsar(lib, c, { open }) {
  const project = tempProject(c.files ?? {});
  const buffers = [];
  try {
    if (open) for (const rel of Object.keys(c.files ?? {})) buffers.push(await openBuffer(project.file(rel)));
    const { host } = makeHost({ roots: [project.root], buffers });
    const call = c.call;
    const result = resultOf(await host.call(call.tool, call.arguments));
    return { result, tree: treeAfter(lib, project, buffers) };
  } finally {
    for (const b of buffers) b.destroy();
    project.cleanup();
  }
}

const cliOutcomes = new Map();

async function runPass(host, open) {
  const lib = await import(corpusModule);
  const cli = lib.findCli();
  assert.ok(cli, 'no CLI binary: run `cargo build -p anchored-edit-cli` (or set ANCHORED_EDIT_CLI)');
  const differences = lib.loadDifferences();
  const cases = lib.loadCases(process.env.CONFORMANCE_FILTER ?? '');
  const failures = [];
  for (const { name, case: c } of cases) {
    if (!cliOutcomes.has(name)) cliOutcomes.set(name, lib.runCli(cli, c));
    const native = cliOutcomes.get(name);
    if (native.problem) {
      failures.push(`${name}\n    ${native.problem}`);
      continue;
    }
    let problems;
    try {
      problems = lib.compareWithCli(host, name, await runInPulsar(lib, c, { open }), native, differences);
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
  console.log(`conformance (${host} vs CLI): ${cases.length} cases ran, ${cases.length - failures.length} passed, ${failures.length} failed`);
  assert.ok(cases.length > 0, 'no corpus case ran');
  assert.equal(failures.length, 0, `${failures.length} of ${cases.length} cases differ from the CLI:\n${failures.join('\n')}`);
}

test('every corpus case through the Pulsar host, files open in TextBuffers, as through the CLI', () => runPass('pulsar-buffers', true));

test('every corpus case through the Pulsar host, files on disk, as through the CLI', () => runPass('pulsar-disk', false));
