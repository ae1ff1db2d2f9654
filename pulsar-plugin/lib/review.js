'use strict';
// Changes waiting for the user: dry-run previews and, in review mode, held edits.
//
// An item is an engine result (its `files`, with diffs, edits and new texts) plus the
// texts the engine read for it. The user applies it (exactly the previewed change,
// through `commit`, which refuses with `stale_buffer` when a text changed since the
// engine read it) or discards it.
// - A dry-run preview ("dry-run") changes nothing until applied; a newer dry run
//   replaces an older one that is still pending.
// - A held edit ("review") is an agent's real edit in review mode: the agent's call
//   waits on `hold()`, which resolves when the user applies it and rejects with a
//   refusal (js/host-policy's, worded by the engine) when the user discards it
//   (`discarded`), when it times out (`timeout`), when applying it is refused, or when
//   the server stops (`cancelled`). Calls are serialised by the MCP module, so at most
//   one edit is held at a time.

const { EventEmitter } = require('events');
const { policy, isRefusal } = require('./policy');

const PENDING = 'pending';

class ReviewQueue extends EventEmitter {
  /**
   * `commit(item)`: applies the item's files (throws a HostRefusal to refuse).
   * `setTimer`/`clearTimer`: injectable for tests.
   */
  constructor({ commit, setTimer = setTimeout, clearTimer = clearTimeout }) {
    super();
    this.commit = commit;
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
    this.nextId = 1;
    /** The held review, if any, and the latest dry-run preview, if any. */
    this.review = null;
    this.preview = null;
    this.counts = { previewsApplied: 0, previewsDiscarded: 0, reviewsApplied: 0, reviewsDiscarded: 0, reviewsExpired: 0, refusedStale: 0 };
  }

  /** The item the pane shows: a held review first, else the latest preview. */
  current() {
    return this.review ?? this.preview;
  }

  #make(kind, entry) {
    return {
      id: this.nextId++,
      kind,
      tool: entry.tool,
      arguments: entry.arguments,
      result: entry.result,
      files: entry.result.files,
      reads: entry.reads,
      status: PENDING,
      message: null,
      createdAt: Date.now(),
    };
  }

  /** Shows a dry run's result as a preview (replacing an older pending one). */
  showDryRun(entry) {
    if (this.preview && this.preview.status === PENDING) this.preview.status = 'replaced';
    this.preview = this.#make('dry-run', entry);
    this.emit('change', this.current());
    return this.preview;
  }

  /**
   * Holds an agent's edit until the user decides. Resolves (nothing) once it was applied;
   * rejects with a HostRefusal otherwise.
   */
  hold(entry, timeoutMs) {
    const item = this.#make('review', entry);
    item.deadline = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      item.settle = (error) => {
        this.clearTimer(item.timer);
        if (this.review === item) this.review = null;
        if (error) reject(error);
        else resolve();
        this.emit('change', this.current(), item);
      };
      item.timer = this.setTimer(() => {
        if (item.status !== PENDING) return;
        item.status = 'expired';
        this.counts.reviewsExpired += 1;
        const seconds = Math.round(timeoutMs / 10) / 100;
        item.message = `Nobody reviewed it within ${seconds} s; it was refused.`;
        item.settle(policy().refusals.rejectedError(item.tool, 'timeout', seconds));
      }, timeoutMs);
      this.review = item;
      this.emit('change', this.current());
    });
  }

  #find(id) {
    for (const item of [this.review, this.preview]) if (item && item.id === id) return item;
    return null;
  }

  /**
   * Applies item `id` (exactly its previewed files). Returns {ok, message}. A refused
   * apply (changed buffer, failed write) leaves everything unchanged and, for a held
   * edit, returns the refusal to the agent.
   */
  apply(id) {
    const item = this.#find(id);
    if (!item || item.status !== PENDING) return { ok: false, message: 'This change is no longer pending.' };
    let report;
    try {
      report = this.commit(item);
    } catch (e) {
      const refusal = isRefusal(e) || (e && typeof e.kind === 'string') ? e : policy().refusals.writeFailedError(item.tool, e.message);
      item.status = refusal.kind === 'stale_buffer' ? 'stale' : 'failed';
      if (refusal.kind === 'stale_buffer') this.counts.refusedStale += 1;
      item.message = refusal.kind === 'stale_buffer' ? 'The file changed since this diff was computed; nothing was applied.' : refusal.message;
      if (item.kind === 'review') item.settle(refusal);
      else this.emit('change', this.current(), item);
      return { ok: false, message: item.message };
    }
    item.status = 'applied';
    item.report = report;
    if (item.kind === 'review') {
      this.counts.reviewsApplied += 1;
      item.settle(null);
    } else {
      this.counts.previewsApplied += 1;
      this.emit('change', this.current(), item);
    }
    return { ok: true, report };
  }

  /**
   * Discards item `id`; a held edit's call returns the user's rejection to the agent.
   * `reason`: 'discarded' (the user, counted) or 'cancelled' (the server stopped).
   */
  discard(id, { reason } = {}) {
    const item = this.#find(id);
    if (!item || item.status !== PENDING) return false;
    item.status = 'discarded';
    if (item.kind === 'review') {
      if (reason === undefined) this.counts.reviewsDiscarded += 1;
      item.settle(policy().refusals.rejectedError(item.tool, reason ?? 'discarded'));
    } else {
      if (reason === undefined) this.counts.previewsDiscarded += 1;
      this.emit('change', this.current(), item);
    }
    return true;
  }

  /** Refuses a held edit as cancelled (the server is stopping) and drops the preview. */
  clear() {
    if (this.review) this.discard(this.review.id, { reason: 'cancelled' });
    if (this.preview && this.preview.status === PENDING) this.preview.status = 'discarded';
    this.preview = null;
    this.emit('change', this.current());
  }

  loadCounts(counts) {
    if (!counts || typeof counts !== 'object') return;
    for (const k of Object.keys(this.counts)) if (Number.isInteger(counts[k]) && counts[k] >= 0) this.counts[k] = counts[k];
  }

  resetCounts() {
    for (const k of Object.keys(this.counts)) this.counts[k] = 0;
  }
}

module.exports = { ReviewQueue };
