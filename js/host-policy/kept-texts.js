// Kept texts (issue 28): an editor's open buffer kept inside the engine session
// (`openBuffer` once, then each of the editor's changes forwarded with `editBuffer`), so a
// call reads it there instead of copying the whole text across on every call. The rules
// every editor host keeps the same way (Pulsar: pulsar-plugin/lib/kept-buffers.js, VS
// Code: vscode-extension/src/kept-documents.js), each decided here:
//
// - A text holding a lone `\r` is never kept: editors count it as a line break, the
//   engine does not, so rows and columns would mean other places. A change whose new text
//   holds one (a final `\r` counts, whatever follows it) drops the kept text.
// - After each batch of changes, the kept text's running length (UTF-16 units) and line
//   count must equal the editor's; otherwise (a change missed, reordered, or rewritten by
//   the editor, e.g. line endings normalised) the kept text is dropped.
// - A forward the engine refuses (`editBuffer` false or throwing: not kept after an engine
//   restart, edits out of order) drops it.
// A dropped text is opened again, whole, before the next call; the host's reader stays
// the fallback for every path not kept.

/** Whether `text` holds a `\r` not followed by `\n` (never kept, see above). */
export function hasLoneCarriageReturn(text) {
  return /\r(?!\n)/.test(text);
}

/** The line breaks of `text` (one without a lone `\r`): its `\n`s. */
function lineBreaks(text) {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

const point = (p) => ({ row: p.row, column: p.column });

/** One editor buffer's text as `session` keeps it under the engine path `path`. */
export class KeptText {
  constructor(session, path) {
    this.session = session;
    this.path = path;
    this.live = false;
    this.length = 0;
    this.rows = 0;
  }

  /**
   * Keeps `text` (the buffer's whole text, `rows` its line count as the editor counts).
   * Returns false, keeping nothing, when it may not be kept (a lone `\r`) or the engine
   * refused it.
   */
  open(text, rows) {
    this.drop();
    if (typeof text !== 'string' || hasLoneCarriageReturn(text)) return false;
    try {
      this.session.openBuffer(this.path, text);
    } catch {
      return false;
    }
    this.length = text.length;
    this.rows = rows;
    this.live = true;
    return true;
  }

  /**
   * Forwards one batch of the editor's changes: sorted, disjoint, each
   * `{range: {start, end} ({row, column}, UTF-16 columns, in the text before the batch),
   * text, oldLength}` (`oldLength`: the UTF-16 length the range covered). `after`:
   * `{length, rows}` of the editor's text after the batch. Returns whether the text is
   * still kept (dropped otherwise).
   */
  forward(batch, after) {
    if (!this.live) return false;
    let ok = Array.isArray(batch) && batch.every((c) => typeof c.text === 'string' && !hasLoneCarriageReturn(c.text) && Number.isInteger(c.oldLength));
    if (ok) {
      for (const c of batch) {
        this.length += c.text.length - c.oldLength;
        this.rows += lineBreaks(c.text) - (c.range.end.row - c.range.start.row);
      }
      ok = this.length === after.length && this.rows === after.rows;
    }
    if (ok && batch.length > 0) {
      try {
        ok = this.session.editBuffer(this.path, batch.map((c) => ({ range: { start: point(c.range.start), end: point(c.range.end) }, text: c.text }))) === true;
      } catch {
        ok = false;
      }
    }
    if (!ok) this.drop();
    return ok;
  }

  /** Stops keeping the text (the host opens it again, whole, before the next call). */
  drop() {
    if (!this.live) return;
    this.live = false;
    try {
      this.session.closeBuffer(this.path);
    } catch {
      // The engine restarted: it keeps nothing anyway.
    }
  }

  /** After an engine restart: the engine keeps nothing any more. */
  lost() {
    this.live = false;
  }
}
