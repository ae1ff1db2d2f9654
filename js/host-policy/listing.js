// How every JS host answers the reader's `list(folder)` (DESIGN contract 1: the project
// tools list files through the host, its ignore rules applied; the engine sorts and
// applies `glob`). The rules themselves are the engine's (crate/src/listing.rs, exported
// as `ignoreFilter` and `ignoredFolders`: hidden names, `.ignore` and `.gitignore` files
// with ripgrep's precedence, ignored folders hiding what is under them), so the Node
// server, Pulsar, VS Code and the playground list exactly what the CLI's walker lists.
// This module only walks, and adds what a host adds:
//
// - a walker (the Node server, Pulsar) reads folder by folder, never enters a folder
//   the engine leaves out (`.git/`, `node_modules/` when ignored), and neither follows
//   nor lists symbolic links (a link may lead out of the root);
// - a host's own exclusions (Pulsar's `core.ignoredNames`) are gitignore lines placed
//   before the root `.gitignore`'s own (so the project's rules win where they differ);
//   a host that does not honour VCS ignores (Pulsar with `core.excludeVcsIgnoredPaths`
//   off) drops `.gitignore` texts;
// - a host with its own file search (VS Code's findFiles, the playground's tabs) filters
//   that flat list (`filterListing`).
//
// Free of Node and editor APIs: the host hands in how to read a folder and a file.

/** The ignore files, strongest first (the engine's IGNORE_FILES). */
export const IGNORE_FILES = ['.ignore', '.gitignore'];

const join = (folder, name) => (folder === '' ? name : `${folder}/${name}`);
const nameOf = (p) => p.slice(p.lastIndexOf('/') + 1);

/**
 * The reader the engine reads ignore files through: `readText(path)` (text, undefined,
 * or `{skipped: why, bytes}` for a file skipped, see readIgnoreFile), cached;
 * `hostPatterns` before the root `.gitignore`; `.gitignore` files left out when
 * `vcsIgnores` is false. `skipped(path, why, bytes)` hears of each file skipped.
 */
export function ignoreReader(readText, { hostPatterns = [], vcsIgnores = true, skipped } = {}) {
  const cache = new Map();
  return {
    read(p) {
      if (!cache.has(p)) {
        const isGitignore = nameOf(p) === '.gitignore';
        let text = isGitignore && !vcsIgnores ? undefined : readText(p);
        if (text !== null && typeof text === 'object' && typeof text.skipped === 'string') {
          skipped?.(p, text.skipped, text.bytes);
          text = undefined;
        }
        if (p === '.gitignore' && hostPatterns.length > 0) text = `${hostPatterns.join('\n')}\n${text ?? ''}`;
        cache.set(p, typeof text === 'string' ? text : undefined);
      }
      return cache.get(p);
    },
  };
}

/**
 * Lists the files under root-relative `folder` ('' the root), synchronously.
 * `engine`: the package (its `ignoreFilter`, `ignoredFolders`, `ignoreFileSkipped`).
 * `readDir(rel)`: [{name, type: 'file' | 'dir' | 'other'}] (symlinks are 'other'), or
 * null when `rel` is not a folder; `readText(rel)`: see ignoreReader. `hostPatterns`,
 * `vcsIgnores`: see ignoreReader. `warnings`, an array: gets the engine's warning for
 * each ignore file skipped (the CLI walker's words). Returns root-relative paths
 * (unsorted), [] for a folder the rules leave out, or null when `folder` is not a folder.
 */
export function listFiles({ engine, folder = '', readDir, readText, hostPatterns, vcsIgnores, warnings }) {
  const skipped = warnings && ((p, why, bytes) => warnings.push(engine.ignoreFileSkipped(p, why, bytes)));
  const reader = ignoreReader(readText, { hostPatterns, vcsIgnores, skipped });
  const steps = folder === '' ? [] : folder.split('/');
  for (let k = 0; k < steps.length; k++) {
    if (readDir(steps.slice(0, k + 1).join('/')) === null) return null;
  }
  if (folder !== '' && engine.ignoredFolders([folder], reader).length > 0) return [];
  const files = [];
  const pending = [folder];
  while (pending.length > 0) {
    const rel = pending.pop();
    const entries = readDir(rel) ?? [];
    const dirs = [];
    for (const { name, type } of entries) {
      if (type === 'dir') dirs.push(join(rel, name));
      else if (type === 'file') files.push(join(rel, name));
    }
    if (dirs.length > 0) {
      const left = new Set(engine.ignoredFolders(dirs, reader));
      for (const d of dirs) if (!left.has(d)) pending.push(d);
    }
  }
  return engine.ignoreFilter(files, reader);
}

/**
 * `readDir` and `readText` for `listFiles` over a Node-style file system (`fsImpl`:
 * `lstatSync`, `readdirSync`, `readFileSync`), where `at(rel)` is the location of a
 * root-relative path. Links are neither folders nor files here: never followed.
 */
export function fsReaders(fsImpl, at) {
  const readDir = (rel) => {
    try {
      if (!fsImpl.lstatSync(at(rel)).isDirectory()) return null;
      return fsImpl.readdirSync(at(rel), { withFileTypes: true }).map((d) => ({
        name: d.name,
        type: d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other',
      }));
    } catch {
      return null;
    }
  };
  const readText = (rel) => readIgnoreFile(fsImpl, at(rel));
  return { readDir, readText };
}

/** The largest ignore file read (bytes): the engine's MAX_IGNORE_FILE_BYTES. */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * An ignore file's text; undefined when there is none; `{skipped, bytes}` when it is
 * skipped (`skipped`: the engine's `ignoreFileSkipped` reason, `bytes` the length when
 * over the bound). Read only when `lstat` says regular file (not a link, FIFO or
 * device) of at most MAX_IGNORE_FILE_BYTES, opened without following a link or waiting
 * for a writer (O_NOFOLLOW | O_NONBLOCK), checked again through the descriptor, and
 * read through the bound (issue 24 finding 6, the same steps as cli/src/walk.rs).
 */
export function readIgnoreFile(fsImpl, location) {
  const skip = (why, bytes) => ({ skipped: why, bytes });
  let first;
  try {
    first = fsImpl.lstatSync(location);
  } catch {
    return undefined; // No such file (or no way to tell): nothing to read, as the CLI.
  }
  if (first.isSymbolicLink()) return skip('link');
  if (!first.isFile()) return skip('not_regular');
  if (first.size > MAX_IGNORE_FILE_BYTES) return skip('too_large', first.size);
  const { O_RDONLY = 0, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fsImpl.constants ?? {};
  let fd;
  try {
    fd = fsImpl.openSync(location, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return skip('changed');
  }
  try {
    const st = fsImpl.fstatSync(fd);
    if (!st.isFile()) return skip('changed');
    let buf = Buffer.alloc(Math.min(st.size, MAX_IGNORE_FILE_BYTES) + 1);
    let got = 0;
    try {
      // Through the bound: one byte past it says "too large", whatever the stat said.
      for (let n; (n = fsImpl.readSync(fd, buf, got, buf.length - got, null)) > 0;) {
        got += n;
        if (got < buf.length) continue;
        if (buf.length > MAX_IGNORE_FILE_BYTES) break;
        const more = Buffer.alloc(Math.min(buf.length * 2, MAX_IGNORE_FILE_BYTES + 1));
        buf.copy(more);
        buf = more;
      }
    } catch {
      return skip('unreadable');
    }
    if (got > MAX_IGNORE_FILE_BYTES) return skip('too_large');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, got));
    } catch {
      return skip('not_utf8');
    }
  } finally {
    fsImpl.closeSync(fd);
  }
}

/**
 * Filters a flat list of root-relative file paths (a host's own file search) by the
 * engine's rules. `ignoreTexts`: {path of an ignore file → text} for the tree's ignore
 * files (the caller reads them), or `readText(path)` to read them on demand.
 */
export function filterListing({ engine, paths, ignoreTexts = {}, readText, hostPatterns, vcsIgnores }) {
  const reader = ignoreReader(readText ?? ((p) => ignoreTexts[p]), { hostPatterns, vcsIgnores });
  return engine.ignoreFilter(paths, reader);
}

/** Whether root-relative `path` lies in `folder` ('' = everywhere). */
export function inFolder(path, folder) {
  return folder === '' || path.startsWith(`${folder}/`);
}

/** Whether `path` names an ignore file (so a host reads it for `filterListing`). */
export function isIgnoreFile(path) {
  return IGNORE_FILES.includes(nameOf(path));
}
