// Extracts the peers' SEARCH/REPLACE test inputs as data (run once; peers.json is the
// committed output, with `expect` / `why` added by hand). Inputs: Roo-Code cb83656718
// src/core/diff/strategies/__tests__/multi-search-replace{,-trailing-newline}.spec.ts and
// cline 791d238996^ src/core/assistant-message/diff.test.ts, saved under /tmp/dl; esbuild
// (from web/node_modules) strips their types, a stub strategy records each applyDiff
// input and the assertions on it. aider 5dc9490bb tests/basic/test_editblock.py: the
// replace_most_similar_chunk tests' whole/part/replace/expected_output strings (read with
// Python's ast), sent as a block under the file name `file.txt`.
import fs from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire('/work/wt/dialects/web/package.json');
const esbuild = require('esbuild');
const out = {};
async function runTs(file, stubs) {
  const raw = fs.readFileSync(file, 'utf8');
  const head = raw.indexOf('describe(');
  let src = raw.slice(0, head).replace(/^import .*$/gm, '') + raw.slice(head);
  src = esbuild.transformSync(src, { loader: 'ts', format: 'esm' }).code;
  const tests = [];
  const stack = [];
  const before = [];
  globalThis.describe = (n, f) => { stack.push(n); f(); stack.pop(); };
  globalThis.beforeEach = (f) => { before.push([stack.length, f]); };
  globalThis.it = (n, f) => tests.push({ path: [...stack, n].join(' > '), f, before: before.filter(([d]) => d <= stack.length).map(([, g]) => g) });
  Object.assign(globalThis, stubs);
  const mod = 'data:text/javascript,' + encodeURIComponent(src);
  await import(mod);
  return tests;
}
// Roo
{
  const cases = [];
  let cur = null;
  class MultiSearchReplaceDiffStrategy {
    constructor(threshold = 1.0) { this.threshold = threshold; }
    validateMarkerSequencing() { return { success: true, error: '' }; }
    getName() { return ''; }
    getToolDescription() { return ''; }
    async applyDiff(original, diff, startLine, endLine) {
      cur = { original, diff, threshold: this.threshold, start_line: startLine ?? null };
      cases.push(cur);
      return { success: SUCC, content: CONT, error: ERR, failParts: [] };
    }
  }
  const SUCC = { tag: 'success' }, CONT = { tag: 'content' }, ERR = { tag: 'error' };
  const expect = (v) => ({
    toBe: (x) => { if (v === SUCC) cur.peer_ok = x; if (v === CONT) cur.peer_content = x; },
    toEqual: (x) => { if (v === SUCC) cur.peer_ok = x; if (v === CONT) cur.peer_content = x; },
    toContain: (x) => { if (v === CONT) (cur.peer_contains ??= []).push(x); },
    toBeDefined() {}, toMatch() {}, toBeUndefined() {}, toBeTruthy() {}, toBeFalsy() {},
    not: { toBe() {}, toContain: (x) => { if (v === CONT) (cur.peer_not_contains ??= []).push(x); }, toBeDefined() {}, toMatch() {} },
  });
  for (const [file, src] of [['/tmp/dl/roo.spec.ts', 'src/core/diff/strategies/__tests__/multi-search-replace.spec.ts'], ['/tmp/dl/roo2.spec.ts', 'src/core/diff/strategies/__tests__/multi-search-replace-trailing-newline.spec.ts']]) {
    const tests = await runTs(file, { MultiSearchReplaceDiffStrategy, expect, vi: { fn: () => () => {} } });
    for (const t of tests) {
      const n0 = cases.length;
      try { for (const b of t.before) b(); await t.f(); } catch (e) { /* a stubbed assertion path */ }
      cases.slice(n0).forEach((c, i) => { c.name = t.path + (i ? ` #${i + 1}` : ''); c.source = src; });
    }
  }
  out.roo = cases.filter((c) => typeof c.diff === 'string' && typeof c.original === 'string' && c.peer_ok !== undefined);
}
// Cline
{
  const src = fs.readFileSync('/tmp/dl/cline.test.ts', 'utf8');
  const i = src.indexOf('const testCases = [');
  let depth = 0, j = src.indexOf('[', i), k = j;
  for (; k < src.length; k++) { const ch = src[k]; if (ch === '`') { k = src.indexOf('`', k + 1); continue; } if (ch === '"') { k = src.indexOf('"', k + 1); continue; } if (ch === '[') depth++; if (ch === ']' && --depth === 0) break; }
  const arr = eval(esbuild.transformSync('(' + src.slice(j, k + 1) + ')', { loader: 'ts' }).code);
  out.cline = arr.map((c) => ({ name: c.name, source: 'src/core/assistant-message/diff.test.ts', original: c.original, diff: c.diff, peer_ok: !c.shouldThrow, peer_content: c.expected ?? null, is_final: c.isFinal ?? true }));
}
fs.writeFileSync('/tmp/dl/peers.json', JSON.stringify(out, null, 1));
console.log(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.length])));
