'use strict';
// The files an agent's call sees: open buffers first, the disk otherwise.
//
// Paths come from the engine already normalised (no `.`, no `..` climbing out of a
// relative start, `/` separators), and the engine is given the project folders as its
// roots (`session.setRoots`, lib/host.js): the rule below is the engine's, kept here as
// well because only the host can resolve symlinks. They map to the project like this:
// - a relative path is relative to the first project folder (`atom.project.getPaths()[0]`);
// - an absolute path is accepted when it lies in any project folder (agents such as
//   Claude Code send absolute paths);
// - anything else, and any path whose real location (symlinks resolved, as the CLI
//   does) leaves its project folder, is refused with the engine's `path_outside_root`
//   kind by throwing `{kind, message}` (docs/wasm.md, the reader contract).
// A path open in an editor is read from its TextBuffer (unsaved changes included; Pulsar
// decoded it in the buffer's encoding, `buffer.getEncoding()`, and saves it back in that
// encoding); other files are read from disk as bytes (a Uint8Array), which the engine
// decodes as the CLI does (UTF-8, a BOM, the call's `encoding`, a declaration; binary
// refused), and lib/apply.js writes each changed file in the encoding its result names.
// Nothing here matches or changes text.
//
// Listing (`list(folder)`, for the project tools) walks the project folder on disk with
// js/host-policy/listing.js and the engine's ignore rules (hidden files, .ignore; links
// neither followed nor listed), plus Pulsar's own settings: `core.ignoredNames` as
// patterns, and `.gitignore` files only while `core.excludeVcsIgnoredPaths` is on
// (Pulsar's own "hide VCS-ignored files"). Files open in an editor but not saved yet
// are listed too.

const fs = require('fs');
const path = require('path');
const { loadEngine } = require('./engine');

/** A refusal the engine (reads) or js/mcp-host (applies) reports with this kind and message. */
class HostRefusal extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'HostRefusal';
    this.kind = kind;
  }
}

function isAbsoluteEnginePath(p) {
  return p.startsWith('/') || /^[A-Za-z]:\//.test(p);
}


/**
 * `roots()`: the project folders (absolute). `openBuffers()`: the TextBuffers open in
 * editors. Both are asked on every call, so folders and editors opened later count.
 * `listing`: js/host-policy/listing.js and `engine` (its ignore rules), from
 * vendor/host.js; `ignores()`:
 * {ignoredNames, excludeVcsIgnoredPaths} (Pulsar's core settings).
 */
function createWorkspace({ roots, openBuffers, listing, engine, realPath = loadEngine().realPath, ignores = () => ({}), fs: fsImpl = fs }) {
  // Whether `child` is `parent` or under it: the host kit's rule (js/host-policy/real-path.js),
  // the one the Node server and VS Code use (`..data` is a name inside, `../x` climbs out).
  const isInside = (child, parent) => realPath.isInside(path, child, parent);
  /** `reason`: the engine's detail ({why, error}); the words are the engine's, as in every host. */
  function outside(p, reason) {
    const words = engine || loadEngine().engine;
    return new HostRefusal('path_outside_root', words.hostRefusal('', 'path_outside_root', { path: p, ...reason }).error.message);
  }

  /** {abs, real, root} for an engine path, or throws a `path_outside_root` HostRefusal. */
  function resolve(p) {
    const folders = roots();
    if (folders.length === 0) {
      throw new HostRefusal(
        'path_outside_root',
        `No project folder is open in the editor, so \`${p}\` cannot be placed. Ask the user to open the project folder in Pulsar, then send the call again.`,
      );
    }
    const abs = isAbsoluteEnginePath(p) ? path.resolve(p) : path.resolve(folders[0], p);
    const root = folders.find((r) => isInside(abs, path.resolve(r)));
    if (root === undefined) {
      throw outside(p, { why: 'not_under_root' });
    }
    // The real-location check every JS host shares (js/host-policy/real-path.js).
    const escape = realPath.realPathEscapes(fsImpl, path, abs, root);
    if (escape !== null) throw outside(p, escape);
    return { abs, real: realPath.realLocation(fsImpl, path, abs), root };
  }

  /** The TextBuffer open for a resolved location, if any. */
  function bufferFor(loc) {
    const buffers = [...new Set(openBuffers())];
    const direct = buffers.find((b) => {
      const bp = b.getPath();
      return bp === loc.abs || bp === loc.real;
    });
    if (direct) return direct;
    return buffers.find((b) => {
      const bp = b.getPath();
      if (!bp) return false;
      try {
        return realPath.realLocation(fsImpl, path, path.resolve(bp)) === loc.real;
      } catch {
        return false;
      }
    });
  }

  function readDisk(p, loc) {
    let bytes;
    try {
      bytes = fsImpl.readFileSync(loc.real);
    } catch (e) {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return undefined;
      if (e.code === 'EISDIR') {
        throw new HostRefusal('invalid_arguments', `\`${p}\` is a directory, not a file. Send the path of a file inside it.`);
      }
      throw new HostRefusal('invalid_arguments', `\`${p}\` cannot be read: ${e.message}.`);
    }
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  /** The text of an open buffer of `p` (unsaved changes included), else the file's bytes, or undefined. */
  function read(p) {
    const loc = resolve(p);
    const buffer = bufferFor(loc);
    if (buffer) return buffer.getText();
    return readDisk(p, loc);
  }

  /** The file's bytes, or null when it does not exist (for rolling a write back). */
  function snapshot(loc) {
    try {
      return fsImpl.readFileSync(loc.real);
    } catch (e) {
      if (e.code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Writes `content` (string or bytes) to the file atomically: a temporary file, then a rename. */
  function writeFile(loc, content) {
    const dir = path.dirname(loc.real);
    fsImpl.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `.${path.basename(loc.real)}.anchored-edit-${process.pid}-${Date.now()}.tmp`);
    let mode;
    try {
      mode = fsImpl.statSync(loc.real).mode & 0o7777;
    } catch {
      mode = undefined;
    }
    try {
      fsImpl.writeFileSync(tmp, content, mode === undefined ? undefined : { mode });
      fsImpl.renameSync(tmp, loc.real);
    } catch (e) {
      try {
        fsImpl.unlinkSync(tmp);
      } catch {
        // Nothing to clean up.
      }
      throw e;
    }
  }

  /** Restores a snapshot: the old bytes, or no file. */
  function restore(loc, bytes) {
    if (bytes === null) {
      try {
        fsImpl.unlinkSync(loc.real);
      } catch (e) {
        if (e.code !== 'ENOENT') throw e;
      }
    } else {
      writeFile(loc, bytes);
    }
  }

  function removeFile(loc) {
    try {
      fsImpl.unlinkSync(loc.real);
    } catch (e) {
      if (e.code !== 'ENOENT') throw e;
    }
  }

  /** How a result's path is shown to the user: relative to its project folder. */
  function displayPath(p) {
    try {
      const loc = resolve(p);
      const rel = path.relative(loc.root, loc.abs);
      return roots().length > 1 ? path.join(path.basename(loc.root), rel) : rel;
    } catch {
      return p;
    }
  }

  /**
   * The files under `folder` (an engine path: root-relative, or absolute inside a
   * project folder; '' the first folder), unsorted, as engine paths.
   */
  function list(folder) {
    if (!listing) return undefined;
    const folders = roots();
    if (folders.length === 0) throw resolveError(folder);
    const absolute = folder !== '' && isAbsoluteEnginePath(folder);
    const root = absolute ? folders.find((r) => isInside(path.resolve(folder), path.resolve(r))) : folders[0];
    if (root === undefined) throw outside(folder, { why: 'not_under_root' });
    const base = path.resolve(root);
    const rel = absolute ? path.relative(base, path.resolve(folder)).split(path.sep).join('/') : folder;
    const at = (r) => (r === '' ? base : path.join(base, ...r.split('/')));
    const { ignoredNames = [], excludeVcsIgnoredPaths = true } = ignores();
    const { readDir, readText } = listing.fsReaders(fsImpl, at);
    const options = { engine, hostPatterns: ignoredNames, vcsIgnores: excludeVcsIgnoredPaths };
    // A folder that does not exist lists nothing; the engine words that refusal.
    const found = listing.listFiles({ ...options, folder: rel, readDir, readText }) ?? [];
    const named = (r) => (absolute || root !== folders[0] ? path.join(base, r).split(path.sep).join('/') : r);
    const out = new Set(found.map(named));
    // Open buffers whose file does not exist yet (never saved) are part of the project too.
    for (const buffer of openBuffers()) {
      const bp = buffer.getPath();
      if (!bp || !isInside(path.resolve(bp), base) || fsImpl.existsSync(bp)) continue;
      const r = path.relative(base, path.resolve(bp)).split(path.sep).join('/');
      if (listing.inFolder(r, rel) && listing.filterListing({ ...options, paths: [r], readText }).length === 1) out.add(named(r));
    }
    return [...out];
  }

  function resolveError(p) {
    return new HostRefusal(
      'path_outside_root',
      `No project folder is open in the editor, so \`${p}\` cannot be placed. Ask the user to open the project folder in Pulsar, then send the call again.`,
    );
  }

  return { roots, resolve, bufferFor, read, list, snapshot, writeFile, restore, removeFile, displayPath };
}

module.exports = { createWorkspace, HostRefusal };
