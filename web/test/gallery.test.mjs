// The gallery's data against the engine itself (the wasm package in Node, no browser):
// every example's call on its files gives the outcome the example states — the exact
// texts after a success, the error kind of a refusal. The page tests (playground.test.mjs)
// then check that the page shows the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gallery, groups, defaultExampleId, expectedOutcome } from '../src/gallery.js';

const engine = await import('../../pkg/index.node.js');

test('gallery data: ids unique, groups known, outcomes stated', () => {
  const ids = gallery.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length, 'duplicate example id');
  assert.ok(ids.includes(defaultExampleId));
  const groupIds = new Set(groups.map(([g]) => g));
  for (const ex of gallery) {
    assert.match(ex.id, /^[a-z0-9-]+$/, ex.id);
    assert.ok(groupIds.has(ex.group), `${ex.id}: unknown group ${ex.group}`);
    assert.ok(ex.title && ex.llm && ex.engine, `${ex.id}: title, llm and engine are shown on its card`);
    assert.ok(Object.keys(ex.files).length > 0, `${ex.id}: no files`);
    assert.equal(typeof ex.call.tool, 'string');
    const e = ex.expect;
    if (e.ok) {
      assert.equal(typeof e.matched_via, 'string', `${ex.id}: a success names its matched_via`);
      assert.ok(e.files && Object.keys(e.files).length, `${ex.id}: a success states the texts after it`);
    } else {
      assert.equal(typeof e.error_kind, 'string', `${ex.id}: a refusal names its error kind`);
    }
  }
  // The failure modes issue 8 lists, each present.
  for (const id of ['indentation-drift', 'tabs-vs-spaces', 'escaping-latex', 'escaping-json', 'line-numbers', 'elided-middle', 'placeholder', 'duplicate-block', 'duplicate-block-hint', 'paraphrase', 'v4a-anchor', 'not-a-patch', 'multi-replace-xml', 'atomic-failure']) {
    assert.ok(ids.includes(id), `missing gallery example ${id}`);
  }
});

for (const ex of gallery) {
  const outcome = expectedOutcome(ex);
  test(`gallery example in the engine: ${ex.id}`, () => {
    const session = new engine.Session();
    const r = session.call(ex.call, { read: (p) => ex.files[p] });
    assert.equal(r.ok, outcome.ok, `${ex.id}: ${r.ok ? r.message : `${r.error.kind}: ${r.error.message}`}`);
    if (outcome.ok) {
      if (outcome.matched_via) assert.equal(r.matched_via, outcome.matched_via);
      for (const w of outcome.warnings_contain ?? []) {
        assert.ok(r.warnings.some((x) => x.includes(w)), `${ex.id}: no warning contains ${JSON.stringify(w)}: ${JSON.stringify(r.warnings)}`);
      }
      const after = Object.fromEntries(r.files.map((f) => [f.moved_to ?? f.path, f.deleted ? null : f.new_text]));
      for (const [path, text] of Object.entries(outcome.files ?? {})) {
        assert.equal(after[path], text, `${ex.id}: ${path} after the call`);
      }
      for (const f of outcome.files ? r.files : []) {
        assert.ok((f.moved_to ?? f.path) in (outcome.files ?? {}), `${ex.id}: ${f.path} changed but the example states no text for it`);
      }
    } else {
      assert.equal(r.error.kind, outcome.error_kind, r.error.message);
      assert.deepEqual(r.files, []);
    }
  });
}
