// Share links (src/share.js) in Node, which has the same CompressionStream, Blob and
// atob/btoa as the browser: random states round-trip exactly, and any fragment either
// decodes to a state of the right shape, is not a share link (null), or is refused with a
// readable Error — never anything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeShare, decodeShare } from '../src/share.js';

/** A small deterministic PRNG (mulberry32), so failures reproduce. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces texts are made of: line breaks of every kind, tabs, a BOM, no-break and
// typographic characters, CJK, emoji (surrogate pairs), quotes and backslashes.
const pieces = ['a', 'Z', ' ', '    ', '\t', '\n', '\r\n', '\r', '\ufeff', '\u00a0', '“', '—', '…', 'é', '日本', '😀', '👩‍💻', '"', '\\', '\\\\n', '{', '}', '#', '%', '&', '=', '+', '/', '`'];
function text(r, max) {
  let s = '';
  const n = Math.floor(r() * max);
  for (let i = 0; i < n; i += 1) s += pieces[Math.floor(r() * pieces.length)];
  return s;
}

test('share states round-trip exactly (300 random states)', async () => {
  const r = rng(8);
  for (let i = 0; i < 300; i += 1) {
    const files = [];
    const count = 1 + Math.floor(r() * 3);
    for (let f = 0; f < count; f += 1) files.push([`dir/${text(r, 4) || 'x'}${f}.txt`, text(r, 200)]);
    const state = { files, active: files[Math.floor(r() * files.length)][0], call: text(r, 120) };
    const fragment = await encodeShare(state);
    assert.match(fragment, /^play=1\.[A-Za-z0-9_-]*$/, 'URL-safe');
    assert.deepEqual(await decodeShare(`#${fragment}`), state, `state ${i}`);
  }
});

test('a large buffer round-trips (1 MB, CRLF)', async () => {
  const big = 'fn main() {\r\n    println!("héllo 😀");\r\n}\r\n'.repeat(25000);
  const state = { files: [['main.rs', big]], active: 'main.rs', call: '{"tool": "get_document", "arguments": {"path": "main.rs"}}' };
  const fragment = await encodeShare(state);
  assert.ok(fragment.length < big.length / 20, `compressed to ${fragment.length} characters`);
  assert.deepEqual(await decodeShare(fragment), state);
});

test('fragments that are not share links, or are damaged, are told apart (500 random ones)', async () => {
  assert.equal(await decodeShare(''), null);
  assert.equal(await decodeShare('#example=exact'), null);
  const good = await encodeShare({ files: [['a.py', 'x = 1\n']], active: 'a.py', call: '{}' });
  await assert.rejects(decodeShare(good.slice(0, good.length - 5)), /could not be read/);
  const r = rng(99);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/%.#';
  for (let i = 0; i < 500; i += 1) {
    let body = '';
    const n = Math.floor(r() * 80);
    for (let k = 0; k < n; k += 1) body += alphabet[Math.floor(r() * alphabet.length)];
    // Half of them damage a real link in one place.
    if (r() < 0.5) {
      const at = Math.floor(r() * good.length);
      body = good.slice(0, at) + alphabet[Math.floor(r() * alphabet.length)] + good.slice(at + 1);
    } else {
      body = `play=1.${body}`;
    }
    try {
      const state = await decodeShare(body);
      if (state !== null) {
        assert.ok(Array.isArray(state.files));
        for (const f of state.files) assert.ok(typeof f[0] === 'string' && typeof f[1] === 'string');
        assert.equal(typeof state.call, 'string');
      }
    } catch (e) {
      assert.ok(e instanceof Error && /share link/.test(e.message), `fragment ${i}: ${e}`);
    }
  }
});
