'use strict';
// What the panes show, from the engine's own output: the diff rows (lib/diff-model.js),
// the statistics table (lib/stats-table.js) and the client configurations
// (lib/client-config.js).
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { loadEngine } = require('./helpers');
const { parseUnifiedDiff, rowTarget } = require('../lib/diff-model');
const { statsTable } = require('../lib/stats-table');
const { clientConfig, CLIENTS } = require('../lib/client-config');

const { engine } = loadEngine();

function diffOf(request, text) {
  const r = new engine.Session().call(request, { read: (p) => (typeof text === 'string' ? text : text[p]) });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  return r.files;
}

describe('diff rows', () => {
  test('two hunks: line numbers on each side and the link targets', () => {
    const text = `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    const [file] = diffOf(
      {
        tool: 'multi_replace',
        arguments: {
          replacements: [
            { path: 'a.txt', old_str: 'line 2\n', new_str: 'line two\n' },
            { path: 'a.txt', old_str: 'line 28', new_str: 'line 28\nline 28b' },
          ],
        },
      },
      text,
    );
    const d = parseUnifiedDiff(file.diff);
    assert.equal(d.oldPath, 'a.txt');
    assert.equal(d.hunks.length, 2);
    const [h1, h2] = d.hunks;
    assert.deepEqual(
      h1.rows.slice(0, 3).map((r) => [r.kind, r.text, r.oldLine, r.newLine]),
      [
        ['context', 'line 1', 1, 1],
        ['removed', 'line 2', 2, null],
        ['added', 'line two', null, 2],
      ],
    );
    const added = h2.rows.findIndex((r) => r.kind === 'added');
    assert.deepEqual([h2.rows[added].text, h2.rows[added].newLine], ['line 28b', 29]);
    assert.deepEqual(h2.rows.at(-1), { kind: 'context', text: 'line 30', oldLine: 30, newLine: 31 });
    assert.deepEqual(rowTarget(h1, 1), { line: 2, side: 'new' }, 'a removed line links to its place in the new text');
  });

  test('created and deleted files, CRLF lines, a missing final newline', () => {
    const files = diffOf(
      { tool: 'apply_patch', arguments: { patch: '*** Begin Patch\n*** Add File: n.txt\n+new 1\n+new 2\n*** Delete File: d.txt\n*** End Patch\n' } },
      { 'd.txt': 'gone\n' },
    );
    const created = parseUnifiedDiff(files.find((f) => f.path === 'n.txt').diff);
    assert.equal(created.oldPath, null);
    assert.deepEqual(created.hunks[0].rows.map((r) => [r.kind, r.newLine]), [['added', 1], ['added', 2]]);
    const deleted = parseUnifiedDiff(files.find((f) => f.path === 'd.txt').diff);
    assert.equal(deleted.newPath, null);
    assert.deepEqual(deleted.hunks[0].rows.map((r) => [r.kind, r.text, r.oldLine]), [['removed', 'gone', 1]]);
    assert.deepEqual(rowTarget(deleted.hunks[0], 0), { line: 1, side: 'new' });

    const [crlf] = diffOf({ tool: 'str_replace', arguments: { path: 'w.txt', old_str: 'b', new_str: 'B' } }, 'a\r\nb\r\n');
    assert.deepEqual(parseUnifiedDiff(crlf.diff).hunks[0].rows.map((r) => r.text), ['a', 'b', 'B']);

    const [noEol] = diffOf({ tool: 'str_replace', arguments: { path: 'e.txt', old_str: 'end', new_str: 'END' } }, 'a\nend');
    const rows = parseUnifiedDiff(noEol.diff).hunks[0].rows;
    assert.deepEqual(rows.map((r) => [r.kind, r.text, r.noNewline === true]), [
      ['context', 'a', false],
      ['removed', 'end', true],
      ['added', 'END', true],
    ]);
  });

  test('nothing to show for an empty diff', () => {
    assert.deepEqual(parseUnifiedDiff(''), { oldPath: null, newPath: null, hunks: [] });
  });
});

describe('statistics table', () => {
  test('one row per tool, one column per outcome and refusal kind, totals', () => {
    const session = new engine.Session();
    const files = { read: () => 'a = 1\nb = 2\n' };
    session.call({ tool: 'str_replace', arguments: { path: 'x', old_str: 'a = 1', new_str: 'a = 2' } }, files);
    session.call({ tool: 'str_replace', arguments: { path: 'x', old_str: 'zzz', new_str: 'y' } }, files);
    session.call({ tool: 'str_replace', arguments: { path: 'x', old_str: 'b = 2', new_str: 'b = 3', dry_run: true } }, files);
    session.call({ tool: 'insert', arguments: { path: 'x', line: 9, new_str: 'c' } }, files);
    const table = statsTable(JSON.parse(session.statsJson()).tools);
    assert.deepEqual(table.columns.map((c) => c.label).slice(0, 6), ['calls', 'applied', 'dry runs', 'dry runs committed', 'recovered', 'refused']);
    const byTool = Object.fromEntries(table.rows.map((r) => [r.tool, r.cells]));
    assert.equal(byTool.str_replace.calls, 3);
    assert.equal(byTool.str_replace.applied, 1);
    assert.equal(byTool.str_replace.previewed, 1);
    assert.equal(byTool.str_replace.refused, 1);
    assert.equal(byTool.str_replace['error:no_match'], 1);
    assert.equal(byTool.insert.refused, 1);
    const insertKind = table.columns.find((c) => c.key.startsWith('error:') && byTool.insert[c.key] === 1);
    assert.ok(insertKind, 'the insert refusal has its own column');
    assert.equal(table.totals.calls, 4);
    assert.equal(table.totals.refused, 2);
  });

  test('no calls yet: no rows', () => {
    assert.deepEqual(statsTable({}).rows, []);
  });
});

describe('client configurations', () => {
  const url = 'http://127.0.0.1:38417/mcp';
  const token = 'T0k3n_abc-XYZ';

  test('Claude Code: the command line and a .mcp.json server', () => {
    const text = clientConfig('claude-code', { url, token });
    assert.match(text, /^claude mcp add --transport http anchored-edit http:\/\/127\.0\.0\.1:38417\/mcp --header "Authorization: Bearer T0k3n_abc-XYZ"$/m);
    const json = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
    assert.deepEqual(json, { mcpServers: { 'anchored-edit': { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } });
  });

  test('Codex: a [mcp_servers] table with url, the header and a tool timeout above the review timeout', () => {
    const text = clientConfig('codex', { url, token, toolTimeoutSeconds: 300 });
    const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
    assert.deepEqual(lines, [
      '[mcp_servers.anchored-edit]',
      'url = "http://127.0.0.1:38417/mcp"',
      'http_headers = { "Authorization" = "Bearer T0k3n_abc-XYZ" }',
      'tool_timeout_sec = 300',
    ]);
    assert.match(clientConfig('codex', { url, token, toolTimeoutSeconds: 10 }), /tool_timeout_sec = 60$/m, 'never below the default');
  });

  test('VS Code and Cline JSON', () => {
    assert.deepEqual(JSON.parse(clientConfig('vscode', { url, token })), {
      servers: { 'anchored-edit': { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } },
    });
    const cline = JSON.parse(clientConfig('cline', { url, token, toolTimeoutSeconds: 120 }));
    assert.deepEqual(cline.mcpServers['anchored-edit'], {
      type: 'streamableHttp',
      url,
      headers: { Authorization: `Bearer ${token}` },
      timeout: 120,
      disabled: false,
    });
    assert.deepEqual(CLIENTS.map((c) => c.id), ['claude-code', 'codex', 'vscode', 'cline']);
    assert.throws(() => clientConfig('emacs', { url, token }), /unknown MCP client/);
  });
});

describe('status-bar text', () => {
  const { statusText } = require('../lib/status-tile');
  test('off, on with the port, the last edit and its refusal kind', () => {
    assert.equal(statusText({ server: null, lastEdit: null, reviewMode: false }).text, 'MCP off');
    const server = { port: 38417, url: 'http://127.0.0.1:38417/mcp' };
    assert.equal(statusText({ server, lastEdit: { tool: 'str_replace', outcome: 'applied' }, reviewMode: false }).text, 'MCP :38417 · str_replace ✓');
    const refused = statusText({ server, lastEdit: { tool: 'insert', outcome: 'refused', kind: 'no_match', path: 'a.py', message: 'not found' }, reviewMode: true });
    assert.equal(refused.text, 'MCP :38417 · review · insert ✗ no_match');
    assert.match(refused.tooltip, /Last edit: insert on a\.py: refused no_match\nnot found/);
  });
});

describe('after an edit (lib/decorations.js)', () => {
  const { showAppliedEdit } = require('../lib/decorations');
  const { TextBuffer } = require('./helpers');

  function recordingEditor(log) {
    return {
      decorateMarkerLayer(layer, params) {
        log.push(['decorate', params.type, params.class, layer.getMarkers().map((m) => m.getRange().start.row)]);
        return { destroy: () => log.push(['undecorate', params.type]) };
      },
      destroy: () => log.push(['close']),
    };
  }

  test('changed lines are highlighted in line and gutter for the set time, then the markers go', () => {
    const buffer = new TextBuffer({ text: 'a\nb\nc\n' });
    const layer = buffer.addMarkerLayer();
    layer.markRange([[1, 0], [1, 1]]);
    const log = [];
    let fire = null;
    let delay = null;
    showAppliedEdit(
      { buffers: [{ buffer, layer }], deleted: [] },
      { editorsFor: () => [recordingEditor(log)], ms: 1500, setTimer: (f, ms) => ((fire = f), (delay = ms)) },
    );
    assert.deepEqual(log, [
      ['decorate', 'line', 'anchored-edit-changed', [1]],
      ['decorate', 'line-number', 'anchored-edit-changed', [1]],
    ]);
    assert.equal(delay, 1500);
    fire();
    assert.deepEqual(log.slice(2), [['undecorate', 'line'], ['undecorate', 'line-number']]);
    assert.equal(layer.isDestroyed(), true);
  });

  test('0 ms: no highlight; editors of a deleted file close unless it had unsaved changes', () => {
    const clean = new TextBuffer({ text: 'x\n' });
    const dirty = new TextBuffer({ text: 'y\n' });
    const layer = clean.addMarkerLayer();
    const closed = [];
    showAppliedEdit(
      { buffers: [{ buffer: clean, layer }], deleted: [{ buffer: clean, wasModified: false }, { buffer: dirty, wasModified: true }] },
      { editorsFor: (b) => [{ destroy: () => closed.push(b === clean ? 'clean' : 'dirty') }], ms: 0 },
    );
    assert.deepEqual(closed, ['clean']);
    assert.equal(layer.isDestroyed(), true);
  });
});
