// Files on disk under a root directory: the Node server's reader for the engine, with the
// same guarantees and the same refusal texts as the native CLI's `DiskFiles`
// (cli/src/disk.rs), so that both servers answer every call alike.
//
// - The root jail: the engine has already normalised every path lexically (no `..`
//   climbing out); what only the disk can tell is checked here. A path is resolved by
//   taking the real path (fs.realpathSync) of its deepest existing part, so a symlink
//   anywhere on the way is followed before the check, and a file that does not exist yet
//   (a create, a patch's Add) is judged by the directory it would land in. The real
//   location must lie under the real root, else `path_outside_root`.
// - Only regular files are read: a directory, FIFO, socket or device is refused without
//   being opened for reading in a way that could block (the file is opened O_NONBLOCK
//   and checked with fstat before a byte is read).
// - `.anchored-edit/` under the root is the native CLI's write journal: refused, as there.
// - Bytes, not text: `read` returns the file's bytes (a Uint8Array) and the engine
//   decodes them as it does for the native CLI (UTF-8, a BOM, the call's `encoding`, a
//   declaration; binary and undecodable files refused with the engine's words). The
//   commit writes each new text encoded as the result's `encoding` says (commit.js).
// - Listing (`list(folder)`, for the project tools): js/host-policy/listing.js's walk
//   with the engine's ignore rules (hidden files, .gitignore/.ignore; links neither
//   followed nor listed) under the real root; `.anchored-edit/` is hidden, never listed.
import fs from 'node:fs';
import path from 'node:path';
import { fsReaders, listFiles } from '../host-policy/listing.js';

/** A refusal the engine turns into its own error kind (see FileReader in index.d.ts). */
export class Refusal extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

/** The native CLI's folder for its write journal (cli/src/jail.rs): no call reaches it. */
const RESERVED = '.anchored-edit';

function outside(p, why) {
  return new Refusal(
    'path_outside_root',
    `\`${p}\` is outside the project root: ${why}. Send a path inside the root, relative to it.`,
  );
}

function invalid(message) {
  return new Refusal('invalid_arguments', message);
}

function exists(p) {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
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
  }

  /** Whether the real path `real` is the root or lies under it. */
  #inside(real) {
    return real === this.root || real.startsWith(this.root.endsWith(path.sep) ? this.root : this.root + path.sep);
  }

  /** The real location of an engine path (relative or absolute), or throws `path_outside_root`. */
  resolve(p) {
    const joined = path.isAbsolute(p) ? p : `${this.root}${path.sep}${p}`;
    // Split into the deepest existing ancestor and the names below it (without
    // normalising: `..` below the existing part is refused, not folded).
    let existing = joined;
    const missing = [];
    while (!exists(existing)) {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      missing.push(path.basename(existing));
      existing = parent;
    }
    let real;
    try {
      real = fs.realpathSync(existing);
    } catch (e) {
      throw outside(p, `it cannot be resolved (${e.message})`);
    }
    if (!this.#inside(real)) {
      throw outside(p, path.isAbsolute(p) ? 'it is not under the root' : 'a symlink on the way leads out of the root');
    }
    for (const name of missing.reverse()) {
      if (name === '..') throw outside(p, 'it climbs out with `..`');
      real = path.join(real, name);
    }
    if (path.relative(this.root, real).split(path.sep)[0] === RESERVED) {
      throw invalid(
        `\`${p}\` is inside \`${RESERVED}/\`, which anchored-edit keeps for its own write journal. Send the path of a project file.`,
      );
    }
    return real;
  }

  /**
   * The files under root-relative `folder` ('' the root), ignore rules applied
   * (js/host-policy/listing.js); unsorted. A folder that does not exist (or is a link)
   * lists nothing (the engine refuses that).
   */
  list(folder) {
    const at = (rel) => (rel === '' ? this.root : path.join(this.root, ...rel.split('/')));
    const { readDir, readText } = fsReaders(fs, at);
    // A folder that does not exist lists nothing; the engine words that refusal, the
    // same in every host.
    return listFiles({ engine: this.#engine, folder, readDir, readText }) ?? [];
  }

  /** The engine's reader: the file's bytes, undefined for no such file, or a thrown refusal. */
  read(p) {
    const real = this.resolve(p);
    let fd;
    try {
      // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
      fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    } catch (e) {
      if (e.code === 'ENOENT') return undefined;
      if (e.code === 'EISDIR') throw isDirectory(p);
      throw invalid(`\`${p}\` cannot be read: ${e.message}.`);
    }
    try {
      const stat = fs.fstatSync(fd, { bigint: true });
      if (stat.isDirectory()) throw isDirectory(p);
      if (!stat.isFile()) {
        throw invalid(`\`${p}\` is not a regular file (a FIFO, socket or device); anchored-edit edits text files only.`);
      }
      const readAll = () => new Uint8Array(fs.readFileSync(fd));
      // The read cache's one hook (read-cache.js): the kept bytes while the file is unchanged.
      return this.#cache ? this.#cache.bytesOf(real, stat, readAll) : readAll();
    } finally {
      fs.closeSync(fd);
    }
  }
}

function isDirectory(p) {
  return invalid(`\`${p}\` is a directory, not a file. Send the path of a file inside it.`);
}
