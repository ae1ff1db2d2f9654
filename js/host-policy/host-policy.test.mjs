// js/host-policy with the real engine (pkg/): the refusals every JS host returns are the
// engine's words, one review timeout default, the LLM view, and "does this tool edit"
// read from the annotations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as engine from '../../pkg/index.node.js';
import {
  REVIEW_TIMEOUT_SECONDS,
  RefusalError,
  createRefusals,
  editingTools,
  editsFiles,
  llmView,
  notApplied,
  reviewTimeoutSeconds,
  undoSteps,
} from './index.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('refusals are the engine hostRefusal results, by kind', () => {
  const r = createRefusals(engine);
  const cases = [
    [r.writeFailed('str_replace', 'EACCES'), 'write_failed', /could not be written \(EACCES\)/],
    [r.stale('insert', 'a.py'), 'stale_buffer', /`a\.py` changed after the engine read it/],
    [r.stale('insert', 'a.py', 'during_review'), 'stale_buffer', /`a\.py` changed while the edit waited for review/],
    [r.stale('insert', 'a.py', 'since_diff'), 'stale_buffer', /since the diff was computed/],
    [r.rejected('apply_patch', 'discarded'), 'edit_rejected', /discarded this edit/],
    [r.rejected('apply_patch', 'cancelled'), 'edit_rejected', /cancelled/],
    [r.rejected('apply_patch', 'timeout', 1.5), 'edit_rejected', /within 1\.5 s/],
  ];
  for (const [result, kind, words] of cases) {
    assert.equal(result.ok, false);
    assert.equal(result.error.kind, kind);
    assert.match(result.error.message, words);
    assert.deepEqual(result.files, []);
  }
  const e = r.staleError('insert', 'a.py');
  assert.ok(e instanceof RefusalError);
  assert.equal(e.kind, 'stale_buffer');
  assert.equal(e.message, e.result.error.message);
});

test('no JS host writes its own refusal text', () => {
  // The engine's sentences (crate/src/refusals.rs) must not be spelled out in a host.
  const phrases = [/nothing was changed\. Read the file again/, /could not apply it \(/, /Nobody reviewed this edit/, /discarded this edit in/];
  const dirs = ['js/mcp-host', 'pulsar-plugin/lib', 'vscode-extension/src', 'web/src'];
  for (const dir of dirs) {
    for (const f of readdirSync(join(repo, dir))) {
      const p = join(repo, dir, f);
      if (!f.endsWith('.js') || !statSync(p).isFile()) continue;
      const text = readFileSync(p, 'utf8');
      for (const re of phrases) assert.doesNotMatch(text, re, `${dir}/${f}`);
    }
  }
});

test('one review timeout default; a setting overrides it', () => {
  assert.equal(reviewTimeoutSeconds(undefined), REVIEW_TIMEOUT_SECONDS);
  assert.equal(reviewTimeoutSeconds(null), REVIEW_TIMEOUT_SECONDS);
  assert.equal(reviewTimeoutSeconds(-1), REVIEW_TIMEOUT_SECONDS);
  assert.equal(reviewTimeoutSeconds(45), 45);
  assert.equal(reviewTimeoutSeconds(0), 0);
  const pulsar = JSON.parse(readFileSync(join(repo, 'pulsar-plugin/package.json'), 'utf8'));
  const vscode = JSON.parse(readFileSync(join(repo, 'vscode-extension/manifest.json'), 'utf8'));
  assert.equal(pulsar.configSchema.reviewTimeoutSeconds.default, REVIEW_TIMEOUT_SECONDS);
  assert.equal(vscode.contributes.configuration.properties['anchoredEdit.reviewTimeoutSeconds'].default, REVIEW_TIMEOUT_SECONDS);
});

test("undoSteps: an undo_edit's calls taken back as groups, any other result as one group", () => {
  const session = new engine.Session();
  let files = { 'a.txt': 'x = 1\ny = 1\n' };
  const reader = { read: (p) => files[p] ?? null };
  for (const [old_str, new_str] of [['x = 1', 'x = 2'], ['y = 1', 'y = 2']]) {
    const r = session.call({ tool: 'str_replace', arguments: { path: 'a.txt', old_str, new_str } }, reader);
    assert.equal(r.ok, true, r.error?.message);
    assert.deepEqual(undoSteps(r), [r.files]);
    files = { 'a.txt': r.files[0].new_text };
  }
  const u = session.call({ tool: 'undo_edit', arguments: { steps: 2 } }, reader);
  assert.equal(u.ok, true, u.error?.message);
  const texts = undoSteps(u).map((g) => g.map((f) => f.new_text));
  assert.deepEqual(texts, [['x = 2\ny = 1\n'], ['x = 1\ny = 1\n']], 'newest call first');
  assert.equal(llmView(u).undone, undefined, 'not for the agent');
  assert.deepEqual(undoSteps({ ok: false }), [[]]);
});

test('llmView leaves out new_text only', () => {
  const result = { ok: true, files: [{ path: 'a', diff: 'd', new_text: 'x', edits: [] }], warnings: [] };
  assert.deepEqual(llmView(result), { ok: true, files: [{ path: 'a', diff: 'd', edits: [] }], warnings: [] });
  // A reading tool's list of paths under `files` is left as it is (not spread into characters).
  assert.deepEqual(llmView({ ok: true, files: ['src/a.rs', 'b.md'] }), { ok: true, files: ['src/a.rs', 'b.md'] });
  assert.equal(result.files[0].new_text, 'x', 'the input is not changed');
  const bare = { ok: false };
  assert.equal(llmView(bare), bare);
});

test('editing tools are read from annotations.readOnlyHint, not from the schema', () => {
  const schemas = engine.toolSchemas();
  const edit = editingTools(schemas);
  for (const s of schemas) assert.equal(edit.has(s.name), s.annotations.readOnlyHint === false, s.name);
  assert.ok(edit.has('str_replace') && edit.has('apply_patch'));
  assert.ok(!edit.has('get_edit_stats'));
  // A schema without dry_run still edits when its annotation says so (the old guess read
  // `inputSchema.properties.dry_run`).
  const stripped = schemas.map((s) => ({ ...s, inputSchema: { type: 'object', properties: {} } }));
  assert.deepEqual(editingTools(stripped), edit);
  assert.equal(editsFiles(schemas, 'str_replace'), true);
  assert.equal(editsFiles(schemas, 'no_such_tool'), false);
});

test('notApplied: the session forgets a result that did not land; sessions without discardLast are left alone', () => {
  const session = new engine.Session();
  const files = { read: (p) => (p === 'a.txt' ? 'x = 1\n' : undefined) };
  const edit = { tool: 'str_replace', arguments: { path: 'a.txt', old_str: 'x = 1', new_str: 'x = 2' } };
  assert.equal(session.call(edit, files).ok, true);
  notApplied(session);
  const undo = session.call({ tool: 'undo_edit', arguments: {} }, files);
  assert.equal(undo.error?.kind, 'no_change', 'nothing landed, so nothing to undo');
  notApplied({});
  notApplied(undefined);
});

// Issue 24, the host kit: "is this result written?" answered once for every JS host.
test('changesToWrite: only an ok, non-dry-run result of an editing tool with files', async () => {
  const { changesToWrite } = await import('./index.js');
  const edits = new Set(['str_replace']);
  const files = [{ path: 'a.txt', new_text: 'x' }];
  const cases = [
    [{ ok: true, tool: 'str_replace', files }, files],
    [{ ok: true, tool: 'str_replace', files, dry_run: true }, []],
    [{ ok: false, tool: 'str_replace', files }, []],
    [{ ok: true, tool: 'read_lines', files }, []],
    [{ ok: true, tool: 'str_replace' }, []],
    [undefined, []],
  ];
  for (const [result, want] of cases) assert.deepEqual(changesToWrite(result, edits), want, JSON.stringify(result));
});

test('changesToPreview: only an ok dry-run result of an editing tool with files, never one that is written', async () => {
  const { changesToPreview, changesToWrite } = await import('./index.js');
  const edits = new Set(['str_replace']);
  const files = [{ path: 'a.txt', new_text: 'x' }];
  const cases = [
    [{ ok: true, tool: 'str_replace', files, dry_run: true }, files],
    [{ ok: true, tool: 'str_replace', files }, []],
    [{ ok: false, tool: 'str_replace', files, dry_run: true }, []],
    [{ ok: true, tool: 'read_lines', files, dry_run: true }, []],
    [{ ok: true, tool: 'str_replace', dry_run: true }, []],
    [undefined, []],
  ];
  for (const [result, want] of cases) {
    assert.deepEqual(changesToPreview(result, edits), want, JSON.stringify(result));
    assert.ok(changesToPreview(result, edits).length === 0 || changesToWrite(result, edits).length === 0);
  }
});

// No JS host keeps its own copy of "is this result written?" (or shown as a dry run).
test('no host decides inline whether a result is written', async () => {
  const { readFileSync } = await import('node:fs');
  const root = new URL('../../', import.meta.url);
  const hosts = ['vscode-extension/src/host.js', 'pulsar-plugin/lib/host.js', 'web/src/main.js', 'js/node-server/host.js', 'js/mcp-host/index.js'];
  for (const file of hosts) {
    const code = readFileSync(new URL(file, root), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join('\n');
    assert.doesNotMatch(code, /dry_run\s*!==|!\s*result\.dry_run|\.ok\s*&&\s*(!|this\.edits|edits)|Array\.isArray\(result\.files\)\s*&&/, `${file} decides inline`);
    assert.match(code, /changesTo(Write|Preview)/, `${file} does not ask the kit`);
  }
});

// Issue 24, the host kit: one real-location check (Pulsar, VS Code desktop, the Node server).
test('realPathEscapes: a link on the way out of the root is named; a new file inside is fine', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { realPathEscapes } = await import('./real-path.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ae-real-'));
  try {
    const root = path.join(dir, 'root');
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.mkdirSync(root);
    fs.symlinkSync(path.join(dir, 'outside'), path.join(root, 'out'));
    fs.symlinkSync('.', path.join(root, 'self'));
    assert.equal(realPathEscapes(fs, path, path.join(root, 'new/dir/a.txt'), root), null);
    assert.equal(realPathEscapes(fs, path, path.join(root, 'self/a.txt'), root), null);
    // The reason as the engine's refusal detail: the host has the engine word it.
    assert.deepEqual(realPathEscapes(fs, path, path.join(root, 'out/a.txt'), root), { why: 'link_leads_out' });
    // A name that only starts with `..` is inside (the old prefix test called it outside).
    fs.mkdirSync(path.join(root, '..data'));
    assert.equal(realPathEscapes(fs, path, path.join(root, '..data/a.txt'), root), null);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
