// Kept documents (docs/vscode.md#kept-documents, issue 28): the text of every open
// document the workspace reads is handed to the engine session once (`openBuffer`), and
// each change VS Code reports afterwards (`onDidChangeTextDocument`'s content changes) is
// forwarded as it happens (`editBuffer`), so a call reads the document inside the engine
// instead of its whole `getText()` crossing into wasm on every call. The Pulsar package
// does the same (pulsar-plugin/lib/kept-buffers.js); the rules both keep (no lone `\r`,
// length and line count checked after each event, dropped on anything uncertain) are
// js/host-policy/kept-texts.js's.
//
// What is VS Code's own here:
// - An event's content changes are sorted from the end of the text to its start and do
//   not overlap, so each range is in the coordinates of the text before the event: they
//   are forwarded as one batch, in order from the start. Changes in any other order (or
//   two insertions at one place) drop the kept text.
// - Each kept document notes the version its kept text is of (the event's
//   `document.version`); a document whose version is another one before a call (an event
//   missed) is opened again, whole. A call's read of a kept document is of that version,
//   and applying refuses `stale_buffer` when the document's version differs (files.js,
//   checkRead): the stale check is by version, as for documents the reader read.
// - A document is kept only when the workspace resolves its path to this very document
//   (`answersFor`: the engine's path rule over the workspace folders, symlinks leading out
//   of a folder refused), so a kept text answers for exactly the path the reader would
//   answer with it. Any other path still goes to the reader (files.js), the fallback.
//
// The VS Code API reaches this module through an adapter (`workspace` below; the
// extension's is vscodeKeptWorkspace in host.js), so the Node tests drive it with the real
// engine (test/node/kept-documents.test.mjs).

import { KeptText } from '../../js/host-policy/kept-texts.js';

/** -1, 0, 1: the order of two {row, column} positions. */
function compare(a, b) {
  return a.row !== b.row ? Math.sign(a.row - b.row) : Math.sign(a.column - b.column);
}

/** A VS Code Position ({line, character}) as the engine's {row, column}. */
const point = (p) => ({ row: p.line, column: p.character });

/**
 * One event's content changes as one batch in the text before the event, sorted from the
 * start; undefined when they are not sorted from the end, disjoint, and unambiguous.
 */
export function batchOf(contentChanges) {
  if (!Array.isArray(contentChanges)) return undefined;
  const batch = [];
  for (let i = contentChanges.length - 1; i >= 0; i -= 1) {
    const c = contentChanges[i];
    if (!c || !c.range || typeof c.text !== 'string' || !Number.isInteger(c.rangeLength)) return undefined;
    const change = { range: { start: point(c.range.start), end: point(c.range.end) }, text: c.text, oldLength: c.rangeLength };
    const before = batch[batch.length - 1];
    if (before) {
      const order = compare(before.range.end, change.range.start);
      const bothInsert = compare(before.range.start, before.range.end) === 0 && compare(change.range.start, change.range.end) === 0;
      if (order > 0 || (order === 0 && bothInsert)) return undefined;
    }
    batch.push(change);
  }
  return batch;
}

export class KeptDocuments {
  /**
   * `session`: the engine Session (openBuffer, editBuffer, closeBuffer); `resolvePath`:
   * the engine's path rule (`engine.resolvePath`); `workspace`: the adapter to VS Code:
   * - `documents()`: the open TextDocuments;
   * - `pathOf(document)`: its absolute path as the engine's roots name it, or undefined
   *   (untitled, not in a workspace folder);
   * - `answersFor(document, path)`: resolves to whether the workspace reads `path` from
   *   this document (the path rule and the link check of files.js);
   * - `size(document)`: {length (UTF-16 units), rows (line count)};
   * - `onDidChange(listener)`: subscribes to content changes ({document, contentChanges}),
   *   returns a Disposable.
   */
  constructor({ session, resolvePath, workspace }) {
    this.session = session;
    this.resolvePath = resolvePath;
    this.workspace = workspace;
    /** TextDocument → {document, path, key, text (KeptText), version, refusedAt}. */
    this.entries = new Map();
    this.roots = null;
    this.subscription = workspace.onDidChange((event) => this.#changed(event));
  }

  /**
   * Before a call (after `session.setRoots(roots)`): keeps every open document the reader
   * would answer for, opening those not kept (or dropped) with their whole text, and
   * forgets documents closed since. Resolves to Map key → {entry, version}: the kept
   * texts the call may read, each of that document version.
   */
  async sync(roots) {
    const rootsKey = JSON.stringify(roots);
    if (rootsKey !== this.roots) {
      // Keys are relative to the first folder: new folders, new keys.
      this.suspend();
      this.roots = rootsKey;
    }
    const open = new Set(this.workspace.documents().filter((d) => !d.isClosed));
    for (const document of [...this.entries.keys()]) if (!open.has(document)) this.#forget(document);
    const kept = new Map();
    for (const document of open) {
      const entry = await this.#keep(document, roots);
      if (entry && entry.text.live) kept.set(entry.key, { entry, version: entry.version });
    }
    return kept;
  }

  async #keep(document, roots) {
    const path = this.workspace.pathOf(document);
    let entry = this.entries.get(document);
    if (entry && entry.path !== path) {
      this.#forget(document);
      entry = undefined;
    }
    if (!path) return undefined;
    if (!entry) {
      entry = { document, path, key: null, text: new KeptText(this.session, path), version: -1, refusedAt: undefined };
      this.entries.set(document, entry);
    }
    if (entry.text.live && entry.version === document.version) return entry;
    if (entry.refusedAt === document.version) return entry;
    entry.text.drop();
    const resolved = this.resolvePath(path, roots);
    const text = document.getText();
    const version = document.version;
    // The link check may wait (the browser reads folders): the text is taken first, and
    // kept only if the document did not change meanwhile.
    const answers = resolved && typeof resolved.path === 'string' && (await this.workspace.answersFor(document, path));
    if (!answers || document.isClosed || document.version !== version || !entry.text.open(text, this.workspace.size(document).rows)) {
      entry.refusedAt = version;
      return entry;
    }
    entry.key = resolved.path;
    entry.version = version;
    return entry;
  }

  /** Forwards one change event of a kept document (dropping its text on anything uncertain). */
  #changed(event) {
    const entry = event && this.entries.get(event.document);
    if (!entry || !entry.text.live) return;
    const batch = batchOf(event.contentChanges);
    if (!batch) return entry.text.drop();
    if (entry.text.forward(batch, this.workspace.size(event.document))) entry.version = event.document.version;
  }

  #forget(document) {
    const entry = this.entries.get(document);
    if (!entry) return;
    entry.text.drop();
    this.entries.delete(document);
  }

  /** Stops keeping every text (a call against the active editor reads only through the reader). */
  suspend() {
    for (const document of [...this.entries.keys()]) this.#forget(document);
  }

  /** After an engine restart: nothing is kept any more; open everything again. */
  reset() {
    for (const entry of this.entries.values()) entry.text.lost();
  }

  dispose() {
    this.suspend();
    this.subscription?.dispose();
  }
}
