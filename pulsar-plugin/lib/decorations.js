'use strict';
// After an edit: the lines it changed are highlighted for a moment in every editor of
// the buffer (the line and its gutter number); editors of a file the edit deleted are
// closed unless they held unsaved changes.

/**
 * `report`: lib/apply.js's report. `editorsFor(buffer)`: the TextEditors showing it.
 * `ms`: how long the highlight stays (0: none). Returns a function that removes the
 * highlights now.
 */
function showAppliedEdit(report, { editorsFor, ms, setTimer = setTimeout }) {
  const decorations = [];
  const layers = [];
  for (const { buffer, layer } of report.buffers) {
    layers.push(layer);
    if (ms <= 0) continue;
    for (const editor of editorsFor(buffer)) {
      decorations.push(editor.decorateMarkerLayer(layer, { type: 'line', class: 'anchored-edit-changed' }));
      decorations.push(editor.decorateMarkerLayer(layer, { type: 'line-number', class: 'anchored-edit-changed' }));
    }
  }
  for (const { buffer, wasModified } of report.deleted) {
    if (!buffer || wasModified) continue;
    for (const editor of editorsFor(buffer)) editor.destroy();
  }
  let done = false;
  const clear = () => {
    if (done) return;
    done = true;
    for (const d of decorations) d.destroy();
    for (const l of layers) if (!l.isDestroyed()) l.destroy();
  };
  if (decorations.length === 0) clear();
  else setTimer(clear, ms);
  return clear;
}

module.exports = { showAppliedEdit };
