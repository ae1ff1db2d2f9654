'use strict';
// Applies an engine result's `files` to the editor: open buffers through their
// TextBuffer, other files on disk. Nothing here computes a change: the engine's `edits`
// (minimal replacements, ranges into the text before the call, UTF-16 columns, sorted
// and disjoint) are applied as they are, and its `new_text` is the check.
//
// - Each buffer gets its edits inside one `buffer.transact()` as `setTextInRange` calls,
//   last edit first, so cursors, markers, folds and selections outside the edited ranges
//   survive and one undo reverts the call's changes to that buffer. Line endings are
//   written exactly as the engine gives them (`normalizeLineEndings: false`), so a CRLF
//   buffer stays CRLF and a mixed one keeps each line's ending.
// - After the edits the buffer must hold exactly `new_text`; otherwise the transaction is
//   abandoned (the buffer is reverted) and the call refused. This is the guard against
//   any disagreement between the engine's coordinates and the buffer's.
// - Before anything is written, every text the engine read for the call is compared with
//   the text there now (`reads`): if the user typed in a buffer, or a file changed on disk,
//   since the engine computed the change (a held review, a preview applied later), the
//   call is refused with `stale_buffer` and nothing is written. A text read from a kept
//   buffer (lib/kept-buffers.js) is compared by the buffer's change count instead.
// - A buffer the engine keeps gets no `new_text` (`{newText: "unkept"}`): its edits are
//   checked by the new line count the result states instead.
// - A multi-file call is all or nothing: when a later file fails, the buffers and files
//   already changed are put back (buffers to a checkpoint taken before their transaction,
//   files to their previous bytes).
// - undo_edit {steps} comes as groups (js/host-policy's `undoSteps`), applied one after
//   another, one transaction per buffer per group: one undo step of the buffer per call
//   taken back. Everything is checked before the first group, and all groups are one
//   all-or-nothing unit as above.
// - Files that are not open are written to disk atomically (temporary file + rename), in
//   the encoding the result names (`encoding`, by the engine's `encodeText`; none: UTF-8);
//   created files likewise; deletions remove the file (an open buffer of it is reported
//   so the caller can close its editors); a move writes the destination, removes the
//   source and, when the source is open, applies the edits to its buffer and points the
//   buffer at the destination.
// - Refusals are js/host-policy's (worded by the engine): thrown as RefusalErrors, whose
//   `kind` and `message` are the result's error and whose `result` the agent receives.

const { policy, isRefusal } = require('./policy');
const { loadEngine } = require('./engine');
const { KeptRead } = require('./kept-buffers');

/** What to write for a changed file: its new text, encoded as its result says. */
function contentOf(f) {
  return f.encoding ? loadEngine().engine.encodeText(f.new_text, f.encoding) : f.new_text;
}

/** Whether Pulsar holds `buffer` as UTF-8 (its default; `getEncoding()` says otherwise). */
function isUtf8Buffer(buffer) {
  const encoding = typeof buffer.getEncoding === 'function' ? buffer.getEncoding() : 'utf8';
  return /^utf-?8$/i.test(encoding ?? 'utf8');
}

/** The buffer's line count as the engine counts lines (a final line break ends the last line). */
function engineLineCount(buffer) {
  const rows = buffer.getLineCount();
  return buffer.lineForRow(rows - 1) === '' ? rows - 1 : rows;
}

function point(p) {
  return [p.row, p.column];
}

/**
 * Applies `edits` to `buffer` in one transaction and checks the result is `newText`
 * (when given; else that it has `lineCount` lines, when given). Returns {checkpoint, layer}: a checkpoint from before the transaction
 * (to roll back) and a marker layer holding the ranges of the new text (for
 * highlighting). Throws a `write_failed` refusal, leaving the buffer unchanged,
 * when the buffer does not end up as `newText`.
 */
function applyEditsToBuffer(buffer, edits, newText, tool, lineCount) {
  const checkpoint = buffer.createCheckpoint();
  const layer = buffer.addMarkerLayer();
  try {
    buffer.transact(() => {
      for (let i = edits.length - 1; i >= 0; i--) {
        const e = edits[i];
        const range = buffer.setTextInRange([point(e.range.start), point(e.range.end)], e.text, {
          normalizeLineEndings: false,
        });
        layer.markRange(range, { invalidate: 'never' });
      }
      const off =
        typeof newText === 'string' ? buffer.getText() !== newText : typeof lineCount === 'number' && engineLineCount(buffer) !== lineCount;
      if (off) {
        // Throwing inside transact() reverts the transaction.
        throw policy().refusals.writeFailedError(tool, "the editor's buffer did not end up as the engine computed");
      }
    });
  } catch (e) {
    layer.destroy();
    throw e;
  }
  return { checkpoint, layer };
}

/**
 * Whether two reads agree: the same text, the same bytes (a file read from disk; a text
 * and bytes agree when the bytes are the text's UTF-8), or both none.
 */
function sameText(a, b) {
  const bytes = (x) => (x instanceof Uint8Array ? Buffer.from(x.buffer, x.byteOffset, x.length) : Buffer.from(x, 'utf8'));
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a !== null && a !== undefined && b !== null && b !== undefined && bytes(a).equals(bytes(b));
  }
  return (a ?? null) === (b ?? null);
}

/**
 * Refuses with `stale_buffer` when any text the engine read for the call differs from
 * the text there now. `reads`: Map path → text (null for "no such file"), or a KeptRead
 * (a kept buffer's text, current while the buffer has not changed); `when`: the
 * engine's 'after_read', 'during_review' or 'since_diff'.
 */
function checkNotStale(reads, workspace, { when = 'after_read', tool } = {}) {
  for (const [p, then] of reads) {
    if (then instanceof KeptRead) {
      if (!then.current(workspace, p)) throw policy().refusals.staleError(tool, p, when);
      continue;
    }
    let now;
    try {
      now = workspace.read(p);
    } catch {
      now = Symbol('unreadable');
    }
    if (!sameText(now, then)) {
      throw policy().refusals.staleError(tool, p, when);
    }
  }
}

/**
 * Applies a committed result's `files` (engine order). `reads`: the texts the engine
 * read for the call (Map); `staleWhen`: when a change to them would have happened
 * (checkNotStale); `tool`: the call's tool. Returns a report: {buffers: [{path, buffer,
 * layer}], deleted: [{path, buffer, wasModified}], moved: [{path, to, buffer}], written:
 * [path]}. Throws a refusal (`stale_buffer`, `write_failed`) with nothing changed.
 */
function applyChanges(files, options) {
  return applyGroups([files], options);
}

/**
 * Applies groups of changed files one after another (js/host-policy's `undoSteps`:
 * undo_edit's calls taken back, each relative to the texts the group before leaves),
 * one transaction per buffer per group, so each group is one step of the buffer's undo
 * history. Everything is checked before the first group is applied, and a failure in any
 * group puts back every group applied before it. Options and report as applyChanges.
 */
function applyGroups(groups, { workspace, reads, staleWhen, tool }) {
  if (reads) checkNotStale(reads, workspace, { when: staleWhen, tool });
  // Resolve every path first: a refused path changes nothing.
  for (const files of groups) {
    for (const f of files) {
      workspace.resolve(f.path);
      if (typeof f.moved_to === 'string') workspace.resolve(f.moved_to);
    }
  }
  const undo = [];
  const report = { buffers: [], deleted: [], moved: [], written: [] };
  try {
    for (const files of groups) applyGroup(files, { workspace, tool, undo, report });
  } catch (e) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // Keep undoing the rest; the refusal below says what failed.
      }
    }
    if (isRefusal(e) || (e && typeof e.kind === 'string' && e.name === 'HostRefusal')) throw e;
    throw policy().refusals.writeFailedError(tool, e.message);
  }
  return report;
}

/**
 * Applies one group's files, pushing onto `undo` what puts each change back and onto
 * `report` what changed. Buffers are looked up now: an earlier group may have moved one.
 */
function applyGroup(files, { workspace, tool, undo, report }) {
  const plan = files.map((f) => {
    const loc = workspace.resolve(f.path);
    const dest = typeof f.moved_to === 'string' ? workspace.resolve(f.moved_to) : null;
    return { f, loc, dest, buffer: workspace.bufferFor(loc) };
  });
  for (const { f, loc, dest, buffer } of plan) {
    if (f.deleted) {
      const before = workspace.snapshot(loc);
      const wasModified = buffer ? buffer.isModified() : false;
      workspace.removeFile(loc);
      undo.push(() => workspace.restore(loc, before));
      report.deleted.push({ path: f.path, buffer, wasModified });
    } else if (dest) {
      if (buffer && !isUtf8Buffer(buffer)) {
        // The engine had the buffer's decoded text, not its encoding: writing the
        // destination as UTF-8 would change the file's encoding.
        throw policy().refusals.writeFailedError(
          tool,
          `\`${f.path}\` is open in an editor in ${buffer.getEncoding()}; save and close it, then send the call again (its bytes are then read and written in their encoding)`,
        );
      }
      const destBefore = workspace.snapshot(dest);
      workspace.writeFile(dest, contentOf(f));
      undo.push(() => workspace.restore(dest, destBefore));
      const srcBefore = workspace.snapshot(loc);
      workspace.removeFile(loc);
      undo.push(() => workspace.restore(loc, srcBefore));
      if (buffer) {
        const { checkpoint, layer } = applyEditsToBuffer(buffer, f.edits, f.new_text, tool, f.line_count);
        const oldPath = buffer.getPath();
        undo.push(() => {
          layer.destroy();
          buffer.revertToCheckpoint(checkpoint);
        });
        buffer.setPath(dest.abs);
        undo.push(() => buffer.setPath(oldPath));
        report.buffers.push({ path: f.moved_to, buffer, layer });
      }
      report.moved.push({ path: f.path, to: f.moved_to, buffer });
      report.written.push(f.moved_to);
    } else if (buffer) {
      const { checkpoint, layer } = applyEditsToBuffer(buffer, f.edits, f.new_text, tool, f.line_count);
      undo.push(() => {
        layer.destroy();
        buffer.revertToCheckpoint(checkpoint);
      });
      report.buffers.push({ path: f.path, buffer, layer });
    } else {
      if (typeof f.new_text !== 'string') {
        throw policy().refusals.writeFailedError(tool, `the engine's result for \`${f.path}\` carries no new text`);
      }
      const before = workspace.snapshot(loc);
      workspace.writeFile(loc, contentOf(f));
      undo.push(() => workspace.restore(loc, before));
      report.written.push(f.path);
    }
  }
}

module.exports = { applyEditsToBuffer, applyChanges, applyGroups, checkNotStale };
