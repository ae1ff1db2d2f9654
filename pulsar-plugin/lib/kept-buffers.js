'use strict';
// Kept buffers (docs/pulsar.md, issue 28): the text of every open buffer is handed to the
// engine session once (`openBuffer`), and each change Pulsar makes to it afterwards is
// forwarded as it happens (`onDidChange` → `editBuffer`), so a call reads the buffer
// inside the engine instead of copying the whole text across on every call.
//
// Correctness rests on two rules:
// - A kept text is the buffer's text. Every change event is forwarded in order, in the
//   coordinates of the text just before it (Pulsar's `oldRange`, UTF-16 columns); the
//   rules every editor host shares (no lone `\r`, length and line count checked after
//   each batch, dropped on anything uncertain, opened again whole before the next call)
//   are js/host-policy/kept-texts.js's (`KeptText`, bundled into vendor/host.js).
// - A kept text answers for exactly the paths the reader would answer with this buffer:
//   it is keyed by the engine's own path rule over the project folders (`openBuffer`
//   with the buffer's path, after `setRoots`), and kept only while the workspace
//   resolves that path to this buffer (a symlink leading out of the project is refused
//   by the workspace, so its buffer is not kept).
// Every other path still goes to the reader (lib/workspace.js), which stays the fallback.
//
// For the stale check (lib/apply.js) each kept buffer counts its changes: a call notes
// the count of each kept path it changed, and applying refuses with `stale_buffer` when
// the buffer changed since (or is no longer the buffer that path resolves to).

const { loadEngine } = require('./engine');

/** A text the call read from a kept buffer: still current while its change count is. */
class KeptRead {
  constructor(entry, changes) {
    this.entry = entry;
    this.changes = changes;
  }

  /** Whether the buffer is unchanged since the read and `path` still resolves to it. */
  current(workspace, path) {
    const { buffer } = this.entry;
    if (this.entry.changes !== this.changes || buffer.isDestroyed?.()) return false;
    try {
      return workspace.bufferFor(workspace.resolve(path)) === buffer;
    } catch {
      return false;
    }
  }
}

class KeptBuffers {
  /**
   * `session`: the engine Session (openBuffer, editBuffer, closeBuffer); `workspace`:
   * lib/workspace.js; `openBuffers()`: the TextBuffers open in editors; `resolvePath`:
   * the engine's path rule (`engine.resolvePath`).
   */
  constructor({ session, workspace, openBuffers, resolvePath }) {
    this.session = session;
    this.workspace = workspace;
    this.openBuffers = openBuffers;
    this.resolvePath = resolvePath;
    /** TextBuffer → {buffer, path, key, text (KeptText), live, changes, refusedAt, subscriptions}. */
    this.entries = new Map();
    this.roots = null;
  }

  /**
   * Before a call (after `session.setRoots(roots)`): keeps every open buffer the reader
   * would answer for, opening those not kept (or dropped) with their whole text, and
   * forgets buffers closed since. Returns Map key → {entry, changes} of the kept ones.
   */
  sync(roots) {
    const rootsKey = JSON.stringify(roots);
    if (rootsKey !== this.roots) {
      // Keys are relative to the first folder: new folders, new keys.
      for (const buffer of [...this.entries.keys()]) this.#forget(buffer);
      this.roots = rootsKey;
    }
    const open = new Set(this.openBuffers());
    for (const buffer of [...this.entries.keys()]) if (!open.has(buffer)) this.#forget(buffer);
    const kept = new Map();
    for (const buffer of open) {
      const entry = this.#keep(buffer, roots);
      if (entry && entry.live) kept.set(entry.key, { entry, changes: entry.changes });
    }
    return kept;
  }

  /** The entry of `buffer`, kept live when it can be. */
  #keep(buffer, roots) {
    const path = typeof buffer.getPath === 'function' ? buffer.getPath() : undefined;
    let entry = this.entries.get(buffer);
    if (entry && entry.path !== path) {
      this.#forget(buffer);
      entry = undefined;
    }
    if (!path) return undefined;
    if (!entry) entry = this.#track(buffer, path);
    if (!this.#answersFor(buffer, path)) {
      this.#drop(entry);
      return entry;
    }
    if (entry.live || entry.refusedAt === entry.changes) return entry;
    const resolved = this.resolvePath(path, roots);
    if (!resolved || typeof resolved.path !== 'string' || !entry.text.open(buffer.getText(), buffer.getLineCount())) {
      entry.refusedAt = entry.changes;
      return entry;
    }
    entry.key = resolved.path;
    return entry;
  }

  /** Whether the workspace reads `path` from this buffer (the reader's own answer). */
  #answersFor(buffer, path) {
    try {
      return this.workspace.bufferFor(this.workspace.resolve(path)) === buffer;
    } catch {
      return false;
    }
  }

  #track(buffer, path) {
    const { KeptText } = loadEngine().hostPolicy;
    const entry = {
      buffer,
      path,
      key: null,
      text: new KeptText(this.session, path),
      get live() {
        return this.text.live;
      },
      changes: 0,
      refusedAt: -1,
      subscriptions: [],
    };
    entry.subscriptions.push(buffer.onDidChange((change) => this.#changed(entry, change)));
    if (typeof buffer.onDidDestroy === 'function') entry.subscriptions.push(buffer.onDidDestroy(() => this.#forget(buffer)));
    this.entries.set(buffer, entry);
    return entry;
  }

  /**
   * Forwards one event of the buffer: Pulsar reports each transaction once, its changes
   * compacted, sorted and disjoint, each `oldRange` in the text before the transaction:
   * the shape of `editBuffer`'s batch. A listener that changes the buffer while the event
   * is delivered makes the next events arrive out of order; the running length and line
   * count, compared with the buffer's after each event, catch that (and drop the text).
   */
  #changed(entry, event) {
    entry.changes += 1;
    if (!entry.live) return;
    const changes = Array.isArray(event && event.changes) ? event.changes : [];
    const batch = changes.map((c) => ({
      range: c.oldRange,
      text: c.newText,
      oldLength: typeof c.oldText === 'string' ? c.oldText.length : undefined,
    }));
    entry.text.forward(batch, { length: entry.buffer.getMaxCharacterIndex(), rows: entry.buffer.getLineCount() });
  }

  /** Stops keeping the text (opened again, whole, before the next call). */
  #drop(entry) {
    entry.text.drop();
  }

  #forget(buffer) {
    const entry = this.entries.get(buffer);
    if (!entry) return;
    this.#drop(entry);
    for (const s of entry.subscriptions) s.dispose();
    this.entries.delete(buffer);
  }

  /** After an engine restart: nothing is kept any more; open everything again. */
  reset() {
    for (const entry of this.entries.values()) entry.text.lost();
  }

  /** Stops keeping anything. */
  dispose() {
    for (const buffer of [...this.entries.keys()]) this.#forget(buffer);
  }

  /**
   * The reads of a call's kept texts, for the stale check: for each file of `result`
   * the reader was not asked for, its kept text as of the call (`kept`: what sync returned).
   */
  static noteReads(result, kept, reads) {
    for (const f of Array.isArray(result && result.files) ? result.files : []) {
      for (const p of [f.path, f.moved_to]) {
        if (typeof p !== 'string' || reads.has(p)) continue;
        const k = kept.get(p);
        if (k) reads.set(p, new KeptRead(k.entry, k.changes));
      }
    }
  }
}

module.exports = { KeptBuffers, KeptRead };
