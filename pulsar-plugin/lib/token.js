'use strict';
// The MCP server's bearer token: generated, strong, and kept out of Pulsar's config.
//
// Pulsar's config.cson is often synced (dotfiles, settings-sync packages) and is readable
// by every package, so the token lives in its own file, `<config dir>/anchored-edit/token`
// (~/.pulsar/anchored-edit/token), created owner-only: the folder 0700, the file 0600
// (on POSIX; looser modes found there are tightened). It is 32 random bytes from
// crypto.randomBytes, base64url (256 bits).
//
// A token the user typed into the `token` setting is accepted only when it carries at
// least 128 bits by a conservative estimate (its length times the bits per character of
// the smallest alphabet it fits: hex 4, base64url 6, anything else 6.5, and at least 16
// distinct characters); it then moves into the token file and the setting is cleared,
// so it is not synced either. A weaker one is refused: the server does not start, and
// the notification says why and what to do.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const MIN_BITS = 128;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const POSIX = process.platform !== 'win32';

/** A fresh token: 32 random bytes, base64url (43 characters, 256 bits). */
function generateToken() {
  return crypto.randomBytes(32).toString('base64url');
}

/** A conservative estimate of the bits a token string carries (0 for non-tokens). */
function tokenBits(token) {
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) return 0;
  if (new Set(token).size < 16) return 0;
  const perChar = /^[0-9a-fA-F]+$/.test(token) ? 4 : /^[A-Za-z0-9_-]+$/.test(token) ? 6 : 6.5;
  return Math.floor(token.length * perChar);
}

/** Why `token` is refused, or null when it is strong enough. */
function weakTokenReason(token) {
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
    return 'it must be printable ASCII without spaces';
  }
  const bits = tokenBits(token);
  if (bits < MIN_BITS) {
    return `it carries about ${bits} bits and at least ${MIN_BITS} are required (e.g. 43 random base64url characters)`;
  }
  return null;
}

function tighten(p, mode) {
  if (!POSIX) return;
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) throw new Error(`${p} is a symbolic link; remove it and start the server again`);
  if ((st.mode & 0o777) !== mode) fs.chmodSync(p, mode);
}

/** Writes the token file atomically, owner-only. */
function writeTokenFile(file, token) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: DIR_MODE });
  tighten(path.dirname(file), DIR_MODE);
  const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', FILE_MODE);
  try {
    if (POSIX) fs.fchmodSync(fd, FILE_MODE);
    fs.writeSync(fd, `${token}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** The token stored in `file`, or null when there is none (or it is unusable). */
function readTokenFile(file) {
  let text;
  try {
    tighten(path.dirname(file), DIR_MODE);
    tighten(file, FILE_MODE);
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
  return weakTokenReason(text) === null ? text : null;
}

/**
 * The token the server uses. `dir`: the package's private folder (the file is
 * `dir/token`); `configured`: the `token` setting ('' when unset). Returns
 * {token, movedFromConfig} or {refused: reason}. Throws when the file cannot be
 * written (the caller reports it).
 */
function resolveToken({ dir, configured }) {
  const file = path.join(dir, 'token');
  if (typeof configured === 'string' && configured.trim() !== '') {
    const token = configured.trim();
    const weak = weakTokenReason(token);
    if (weak) return { refused: weak };
    if (readTokenFile(file) !== token) writeTokenFile(file, token);
    return { token, movedFromConfig: true };
  }
  const stored = readTokenFile(file);
  if (stored) return { token: stored, movedFromConfig: false };
  const token = generateToken();
  writeTokenFile(file, token);
  return { token, movedFromConfig: false };
}

/** Replaces the stored token with a fresh one; returns it. */
function regenerateToken(dir) {
  const token = generateToken();
  writeTokenFile(path.join(dir, 'token'), token);
  return token;
}

module.exports = { generateToken, tokenBits, weakTokenReason, resolveToken, regenerateToken, MIN_BITS };
