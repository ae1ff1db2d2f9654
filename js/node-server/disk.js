// Files on disk under a root directory: the Node server's reader for the engine, with the
// same guarantees and the same refusal texts as the native CLI's `DiskFiles`
// (cli/src/disk.rs), so that both servers answer every call alike.
//
// - The root jail: the engine has already normalised every path lexically (no `..`
//   climbing out); what only the disk can tell is checked here. A path is resolved by
//   taking the real path (fs.realpathSync) of its deepest existing part, so a symlink
//   anywhere on the way is followed before the check, and a file that does not exist yet
//   (a create, a patch's Add) is judged by the directory it would land in. The real
//   location must lie under the real root, else `path_outside_root`. That check is
//   js/host-policy/real-path.js's (`realParts`, `isInside`), as in Pulsar and VS Code;
//   the refusal's words are the engine's (`hostRefusal`), as in every host.
// - Opening beneath the root (Node has no openat): the root is opened once; a directory
//   is opened from it one component at a time through `/proc/self/fd/N/NAME` with
//   `O_DIRECTORY|O_NOFOLLOW` (the kernel resolves NAME in the directory of descriptor N,
//   as openat does, and refuses a link), and the descriptor's real path
//   (`readlink /proc/self/fd/N`) must be the one resolved: a directory flipped to a link,
//   or moved out of the root, between the check and the use makes the use fail; it
//   never reaches outside. Files are then opened, created, linked, renamed and removed
//   through their directory's descriptor the same way (`at(fd, name)`).
// - Only regular files are read: a directory, FIFO, socket or device is refused without
//   being opened for reading in a way that could block (the file is opened O_NONBLOCK |
//   O_NOFOLLOW and checked with fstat before a byte is read).
// - What a call read is remembered (`seen`, keyed by real path: identity, length and a
//   SHA-256 of the bytes) for the write protocol's compare and swap (commit.js).
// - Files are identified by device and inode (`identity`), so the engine keeps one text
//   for `a.txt` and a symlink or hard link to it.
// - Bytes, not text: `read` returns the file's bytes (a Uint8Array) and the engine
//   decodes them as it does for the native CLI. The commit writes each new text encoded
//   as the result's `encoding` says (commit.js).
// - Listing (`list(folder)`, for the project tools): js/host-policy/listing.js's walk
//   with the engine's ignore rules (hidden files, .gitignore/.ignore; links neither
//   followed nor listed) under the real root.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fsReaders, listFiles } from '../host-policy/listing.js';
import { isInside, realParts } from '../host-policy/real-path.js';

/** A refusal the engine turns into its own error kind (see FileReader in index.d.ts). */
export class Refusal extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const C = fs.constants;
/** A file for reading: never through a link, never waiting for a FIFO's writer. */
export const O_READ = C.O_RDONLY | C.O_NONBLOCK | C.O_NOFOLLOW;

/**
 * Whether this system has Linux's /proc/self/fd. Without it (macOS) a directory
 * descriptor is used by the path it was opened at: each step still refuses a link
 * (O_NOFOLLOW), but a directory swapped between two steps is not caught (docs/npx.md).
 */
const PROC = fs.existsSync('/proc/self/fd');
/** Without /proc: the path each directory descriptor was opened at. */
const opened = new Map();

/** `name` in the directory open as `fd` (openat's meaning, on Linux's /proc). */
export function at(fd, name) {
  return PROC ? `/proc/self/fd/${fd}/${name}` : path.join(opened.get(fd), name);
}

/** The real path of an open descriptor. */
export function realOf(fd) {
  return PROC ? fs.readlinkSync(`/proc/self/fd/${fd}`) : opened.get(fd);
}

/**
 * Opens the directory `name` in the one open as `fd` (null: `name` is an absolute
 * path), not through a link unless `follow`.
 */
export function openDirAt(fd, name, follow = false) {
  const p = fd === null ? name : at(fd, name);
  const out = fs.openSync(p, C.O_RDONLY | C.O_DIRECTORY | (follow ? 0 : C.O_NOFOLLOW));
  if (!PROC) opened.set(out, path.resolve(p));
  return out;
}

/** This process's `/proc/self/stat` (without /proc: its pid, with start time 0). */
export function ownStat() {
  return PROC ? fs.readFileSync('/proc/self/stat', 'utf8') : procStat(process.pid);
}

/** `/proc/PID/stat` of a running process, or null (without /proc: from a signal 0). */
export function procStat(pid) {
  try {
    if (PROC) return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    process.kill(pid, 0);
    return `${pid} (node) S${' 0'.repeat(19)} 0\n`;
  } catch {
    return null;
  }
}

/** The device and inode of a bigint stat, as the write protocol takes them. */
export function idOf(st) {
  return [String(st.dev), String(st.ino)];
}

/** The SHA-256 of `bytes`, hex: the digest the compare and swap compares. */
export function digestOf(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * `why`: the engine's name for the reason (`link_leads_out`, …; crate/src/refusals.rs),
 * worded by `engine` (the one handed to DiskFiles: the source tree's tests pass pkg/'s,
 * the package passes its own).
 */
function outside(engine, p, why, error) {
  const { message } = engine.hostRefusal('', 'path_outside_root', { path: p, why, ...(error === undefined ? {} : { error }) }).error;
  return new Refusal('path_outside_root', message);
}

function invalid(message) {
  return new Refusal('invalid_arguments', message);
}

/**
 * Read-only view of the files under `root` (which must exist; resolved once). `engine`:
 * the package (its ignore rules), needed by `list` only.
 */
export class DiskFiles {
  #engine;
  #cache;

  /** `cache` (optional): a ReadCache (read-cache.js) keeping texts between calls. */
  constructor(root, { engine, cache } = {}) {
    this.root = fs.realpathSync(root);
    this.#engine = engine;
    this.#cache = cache;
    this.rootFd = openDirAt(null, this.root, true);
    const st = fs.fstatSync(this.rootFd, { bigint: true });
    this.rootId = { dev: String(st.dev), ino: String(st.ino) };
    /** Real root-relative path → what this call read there ({id, len, digest}, or null: nothing). */
    this.seen = new Map();
  }

  /** Forgets what the previous call read (each call compares against its own reads). */
  beginCall() {
    this.seen.clear();
  }

  /** What this call read at real root-relative `rel` (a path it never read counts as absent). */
  seenAt(rel) {
    return this.seen.get(rel) ?? null;
  }

  /** The root-relative form (`/`-separated, '' the root) of a real path under the root. */
  relOf(real) {
    return path.relative(this.root, real).split(path.sep).join('/');
  }

  /**
   * Opens the directory at root-relative `rel` one component at a time, never through
   * a link, and checks that the descriptor is really there. Throws (`code` ENOENT when
   * a component is missing; ELOOP, ENOTDIR or EXDEV when the way changed).
   */
  openDir(rel) {
    let fd = openDirAt(this.rootFd, '.');
    try {
      for (const name of rel === '' ? [] : rel.split('/')) {
        const next = openDirAt(fd, name);
        fs.closeSync(fd);
        fd = next;
      }
      const expected = rel === '' ? this.root : path.join(this.root, ...rel.split('/'));
      if (realOf(fd) !== expected) {
        throw Object.assign(new Error(`${rel || '.'} moved while it was opened`), { code: 'EXDEV' });
      }
      return fd;
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  /** The file's identity (device and inode) for the engine: one text per file. */
  identity(p) {
    const real = this.resolve(p);
    try {
      const st = fs.statSync(real, { bigint: true });
      return `inode:${st.dev}:${st.ino}`;
    } catch {
      return `path:${this.relOf(real)}`;
    }
  }

  /** The real location of an engine path (relative or absolute), or throws `path_outside_root`. */
  resolve(p) {
    const joined = path.isAbsolute(p) ? p : `${this.root}${path.sep}${p}`;
    // The deepest existing ancestor, real, and the names below it (not normalised: `..`
    // below the existing part is refused, not folded).
    let parts;
    try {
      parts = realParts(fs, path, joined);
    } catch (e) {
      throw outside(this.#engine, p, 'unresolvable', e.message);
    }
    let { real } = parts;
    if (!isInside(path, real, this.root)) {
      throw outside(this.#engine, p, path.isAbsolute(p) ? 'not_under_root' : 'link_leads_out');
    }
    for (const name of parts.missing) {
      if (name === '..') throw outside(this.#engine, p, 'climbs_out');
      real = path.join(real, name);
    }
    return real;
  }

  /**
   * The files under root-relative `folder` ('' the root), ignore rules applied
   * (js/host-policy/listing.js); unsorted, as `{paths, warnings}` (the engine's reader
   * contract): `warnings` names each ignore file skipped (a link, not a regular file,
   * over 1 MiB), in the engine's words, as the CLI's walker does. A folder that does
   * not exist (or is a link) lists nothing (the engine refuses that).
   */
  list(folder) {
    const at = (rel) => (rel === '' ? this.root : path.join(this.root, ...rel.split('/')));
    const { readDir, readText } = fsReaders(fs, at);
    const warnings = [];
    // A folder that does not exist lists nothing; the engine words that refusal, the
    // same in every host.
    const paths = listFiles({ engine: this.#engine, folder, readDir, readText, warnings }) ?? [];
    return { paths, warnings };
  }

  /**
   * The engine's reader: the file's bytes, undefined for no such file, or a thrown
   * refusal. Opened beneath the root (see the header), remembered for the compare and swap.
   */
  read(p) {
    const real = this.resolve(p);
    const rel = this.relOf(real);
    const cut = rel.lastIndexOf('/');
    const [dir, name] = cut < 0 ? ['', rel] : [rel.slice(0, cut), rel.slice(cut + 1)];
    const absent = () => {
      if (!this.seen.has(rel)) this.seen.set(rel, null);
      return undefined;
    };
    if (rel === '') throw isDirectory(p);
    let dfd;
    try {
      dfd = this.openDir(dir);
    } catch (e) {
      if (e.code === 'ENOENT') return absent();
      throw outside(this.#engine, p, 'moved_while_read');
    }
    let fd;
    try {
      // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
      fd = fs.openSync(at(dfd, name), O_READ);
    } catch (e) {
      if (e.code === 'ENOENT') return absent();
      if (e.code === 'EISDIR') throw isDirectory(p);
      if (e.code === 'ELOOP') throw outside(this.#engine, p, 'became_link');
      throw invalid(`\`${p}\` cannot be read: ${e.message}.`);
    } finally {
      fs.closeSync(dfd);
    }
    try {
      const stat = fs.fstatSync(fd, { bigint: true });
      if (stat.isDirectory()) throw isDirectory(p);
      if (!stat.isFile()) {
        throw invalid(`\`${p}\` is not a regular file (a FIFO, socket or device); anchored-edit edits text files only.`);
      }
      // Refused from stat, before any read (issue 24 finding 7), as the CLI does.
      if (stat.size > MAX_FILE_BYTES) throw tooLarge(p, stat.size);
      const readAll = () => fs.readFileSync(fd);
      // The read cache's one hook (read-cache.js): the kept bytes while the file is unchanged.
      const bytes = this.#cache ? this.#cache.bytesOf(real, stat, readAll) : readAll();
      if (!this.seen.has(rel)) this.seen.set(rel, { id: idOf(stat), len: bytes.length, digest: digestOf(bytes) });
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** The largest file read for a call (bytes): the engine's `MAX_FILE_BYTES`. */
export const MAX_FILE_BYTES = 256n * 1024n * 1024n;

/** The engine's `file_too_large` refusal (crate/src/workspace.rs), with its diagnostics. */
function tooLarge(p, bytes) {
  const refusal = invalid(
    `\`${p}\` is ${bytes} bytes, over the ${MAX_FILE_BYTES}-byte limit of a file anchored-edit reads; it was not read. Edit a smaller file, or split this one.`,
  );
  refusal.diagnostics = { path: p, bytes: Number(bytes), limit: Number(MAX_FILE_BYTES) };
  return refusal;
}

function isDirectory(p) {
  return invalid(`\`${p}\` is a directory, not a file. Send the path of a file inside it.`);
}
