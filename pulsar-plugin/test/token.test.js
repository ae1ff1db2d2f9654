'use strict';
// lib/token.js: the bearer token is generated (≥ 128 bits), kept in an owner-only file
// outside Pulsar's synced config, and a weak user-set token is refused.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { resolveToken, weakTokenReason, tokenBits, regenerateToken } = require('../lib/token');
const { clientConfig } = require('../lib/client-config');

const posix = process.platform !== 'win32';

function tempDir() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-token-'));
  return { dir: path.join(base, 'anchored-edit'), cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

test('tokens: weak ones are refused, strong ones accepted', () => {
  const cases = [
    ['', false],
    ['secret', false],
    ['hunter2hunter2hunter2hunter2', false], // long but few distinct characters
    ['0123456789abcdef0123456789abcde', false], // 31 hex characters: 124 bits
    ['0123456789abcdef0123456789abcdef', true], // 32 hex: 128 bits
    ['aB3dE5gH7jK9mN1pQ2sT4v', true], // 22 base64url: 132 bits
    ['aB3dE5gH7jK9mN1pQ2sT4', false], // 21: 126 bits
    ['with space but long enough abcdefghijklmnop', false],
    [require('crypto').randomBytes(32).toString('base64url'), true],
  ];
  for (const [token, ok] of cases) assert.equal(weakTokenReason(token) === null, ok, `${token}: ${tokenBits(token)} bits`);
});

test('first start: a generated 256-bit token in an owner-only file; later starts reuse it', () => {
  const t = tempDir();
  try {
    const first = resolveToken({ dir: t.dir, configured: '' });
    assert.equal(first.movedFromConfig, false);
    assert.equal(Buffer.from(first.token, 'base64url').length, 32);
    const file = path.join(t.dir, 'token');
    assert.equal(fs.readFileSync(file, 'utf8').trim(), first.token);
    if (posix) {
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.equal(fs.statSync(t.dir).mode & 0o777, 0o700);
    }
    assert.equal(resolveToken({ dir: t.dir, configured: '' }).token, first.token);
    const fresh = regenerateToken(t.dir);
    assert.notEqual(fresh, first.token);
    assert.equal(resolveToken({ dir: t.dir, configured: '' }).token, fresh);
  } finally {
    t.cleanup();
  }
});

test('looser modes on the folder or file are tightened', { skip: !posix }, () => {
  const t = tempDir();
  try {
    const { token } = resolveToken({ dir: t.dir, configured: '' });
    const file = path.join(t.dir, 'token');
    fs.chmodSync(file, 0o644);
    fs.chmodSync(t.dir, 0o755);
    assert.equal(resolveToken({ dir: t.dir, configured: '' }).token, token);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(t.dir).mode & 0o777, 0o700);
  } finally {
    t.cleanup();
  }
});

test('a token file that is a symlink is refused', { skip: !posix }, () => {
  const t = tempDir();
  try {
    fs.mkdirSync(t.dir, { recursive: true, mode: 0o700 });
    const elsewhere = path.join(path.dirname(t.dir), 'elsewhere');
    fs.writeFileSync(elsewhere, 'aB3dE5gH7jK9mN1pQ2sT4vXyZ\n');
    fs.symlinkSync(elsewhere, path.join(t.dir, 'token'));
    assert.throws(() => resolveToken({ dir: t.dir, configured: '' }), /symbolic link/);
  } finally {
    t.cleanup();
  }
});

test('a weak configured token is refused; a strong one moves to the file', () => {
  const t = tempDir();
  try {
    const weak = resolveToken({ dir: t.dir, configured: 'my-password' });
    assert.match(weak.refused, /at least 128 are required/);
    assert.equal(fs.existsSync(path.join(t.dir, 'token')), false);
    const strong = 'aB3dE5gH7jK9mN1pQ2sT4vXyZ';
    const moved = resolveToken({ dir: t.dir, configured: strong });
    assert.deepEqual(moved, { token: strong, movedFromConfig: true });
    assert.equal(resolveToken({ dir: t.dir, configured: '' }).token, strong);
  } finally {
    t.cleanup();
  }
});

test('the client configurations carry the stored token', () => {
  const t = tempDir();
  try {
    const { token } = resolveToken({ dir: t.dir, configured: '' });
    const url = 'http://127.0.0.1:38417/mcp';
    for (const client of ['claude-code', 'codex', 'vscode', 'cline']) {
      assert.ok(clientConfig(client, { url, token }).includes(`Bearer ${token}`), client);
    }
  } finally {
    t.cleanup();
  }
});
