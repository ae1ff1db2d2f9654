'use strict';
// The editor's own problems, for get_diagnostics. Pulsar has no diagnostics API of its
// own; the `linter` package (steelbrain/linter, the one linter providers such as
// linter-eslint-node, linter-ruff or ide-* language servers report to) collects every
// provider's messages and hands them to each "linter UI" it consumes. So this package
// provides the `linter-ui` service (package.json `providedServices`): the linter then
// calls `render({added, removed, messages})` with the full current list after every
// lint, and we keep the last one. Without the linter package active there is nothing to
// ask, and get_diagnostics says so instead of reporting a clean project.
//
// Messages are Linter v2's ({location: {file, position}, severity, excerpt,
// linterName, url}); the older v1 shape ({filePath, range, type, text}) is read too.

const path = require('path');

const SEVERITY = { error: 'error', warning: 'warning', info: 'info', trace: 'info', Error: 'error', Warning: 'warning' };

/** A linter message as the editor tools' item {file, range, severity, message, source, code}, or null. */
function itemOf(m) {
  if (!m || typeof m !== 'object') return null;
  const file = m.location ? m.location.file : m.filePath;
  const range = m.location ? m.location.position : m.range;
  if (typeof file !== 'string' || !range || !range.start || !range.end) return null;
  const severity = SEVERITY[m.severity ?? m.type] ?? 'info';
  const message = m.excerpt ?? m.text ?? (typeof m.html === 'string' ? m.html.replace(/<[^>]*>/g, '') : '');
  return {
    file: path.resolve(file).replace(/\\/g, '/'),
    range: {
      start: { row: range.start.row, column: range.start.column },
      end: { row: range.end.row, column: range.end.column },
    },
    severity,
    message,
    source: m.linterName ?? m.name,
    code: undefined,
  };
}

/**
 * The store. `linterActive()`: whether Pulsar's `linter` package is active
 * (atom.packages.isPackageActive('linter')). `linterUi()` is the provided service.
 */
function createDiagnosticsStore({ linterActive }) {
  let messages = [];
  let rendered = false;

  return {
    /** The `linter-ui` service object (a fresh one per consumer is not needed: one linter). */
    linterUi() {
      return {
        name: 'anchored-edit',
        render({ messages: current }) {
          messages = Array.isArray(current) ? current : [];
          rendered = true;
        },
        didBeginLinting() {},
        didFinishLinting() {},
        dispose() {
          messages = [];
          rendered = false;
        },
      };
    },

    /** {available: true, items} or {available: false, why}. */
    state() {
      if (!linterActive()) {
        return {
          available: false,
          why: 'Pulsar has no linter running (the `linter` package is not installed or not active, so no linter or language server reports problems to ask)',
        };
      }
      if (!rendered) return { available: true, items: [] };
      return { available: true, items: messages.map(itemOf).filter((x) => x !== null) };
    },
  };
}

module.exports = { createDiagnosticsStore, itemOf };
