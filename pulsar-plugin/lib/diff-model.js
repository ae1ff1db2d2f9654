'use strict';
// The engine's unified diff of one file, as rows for the diff pane: each row a line of
// the old or new text with its line numbers, so the pane can colour added and removed
// lines, show the file's syntax and link each line to its place in the file. This reads
// the engine's output; it computes no diff.

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

/**
 * Parses `diff` ("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n ctx\n-old\n+new\n") into
 * {oldPath, newPath, hunks: [{header, oldStart, newStart, rows}]}, each row
 * {kind: 'context'|'added'|'removed', text, oldLine, newLine} (1-based; null where the
 * row has no line on that side). A "\ No newline at end of file" marker sets
 * `noNewline` on the row before it. Line endings are not part of `text`.
 */
function parseUnifiedDiff(diff) {
  const out = { oldPath: null, newPath: null, hunks: [] };
  if (typeof diff !== 'string' || diff === '') return out;
  const lines = diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let hunk = null;
  let oldLine = 0;
  let newLine = 0;
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (hunk === null || (!line.startsWith(' ') && !line.startsWith('+') && !line.startsWith('-') && !line.startsWith('\\'))) {
      const m = HUNK.exec(line);
      if (m) {
        oldLine = Number(m[1]);
        newLine = Number(m[3]);
        // A side with no lines ("-0,0") starts before line 1.
        if (m[2] === '0') oldLine += 1;
        if (m[4] === '0') newLine += 1;
        hunk = { header: line, oldStart: oldLine, newStart: newLine, rows: [] };
        out.hunks.push(hunk);
      } else if (hunk === null && line.startsWith('--- ')) {
        out.oldPath = stripPrefix(line.slice(4));
      } else if (hunk === null && line.startsWith('+++ ')) {
        out.newPath = stripPrefix(line.slice(4));
      }
      continue;
    }
    const sign = line[0];
    const text = line.slice(1);
    if (sign === '\\') {
      const last = hunk.rows[hunk.rows.length - 1];
      if (last) last.noNewline = true;
    } else if (sign === ' ') {
      hunk.rows.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ });
    } else if (sign === '-') {
      hunk.rows.push({ kind: 'removed', text, oldLine: oldLine++, newLine: null });
    } else {
      hunk.rows.push({ kind: 'added', text, oldLine: null, newLine: newLine++ });
    }
  }
  return out;
}

function stripPrefix(p) {
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}

/**
 * The place in the file a row links to: {line (1-based), side}. Added and context rows
 * link to the new text; a removed row to the line now at its position in the new text.
 */
function rowTarget(hunk, index) {
  const row = hunk.rows[index];
  if (row.newLine !== null) return { line: row.newLine, side: 'new' };
  for (let i = index + 1; i < hunk.rows.length; i++) if (hunk.rows[i].newLine !== null) return { line: hunk.rows[i].newLine, side: 'new' };
  let last = hunk.newStart;
  for (const r of hunk.rows) if (r.newLine !== null) last = r.newLine + 1;
  return { line: Math.max(1, last), side: 'new' };
}

module.exports = { parseUnifiedDiff, rowTarget };
