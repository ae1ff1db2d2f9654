// Desktop only: where a path really leads, symlinks resolved (Node's fs.realpathSync), so
// that a link inside the workspace that points out of it is refused as the CLI and
// Pulsar refuse it. Files still to be created resolve through their deepest existing
// ancestor. The browser entry has no realpath; it checks links with workspace.fs.stat
// (files.js).

import fs from 'node:fs';
import path from 'node:path';

/** The real path of `p`, resolving the deepest part that exists. */
export function realLocation(p) {
  const missing = [];
  let existing = p;
  for (;;) {
    try {
      fs.lstatSync(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) break;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
  return path.join(fs.realpathSync(existing), ...missing);
}

function isInside(child, parent) {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether the file at `fsPath` (inside the workspace folder `rootFsPath` by its name)
 * really stays inside it. Returns null when it does, else why not (for the refusal).
 */
export function realPathEscapes(fsPath, rootFsPath) {
  let real;
  let realRoot;
  try {
    real = realLocation(fsPath);
    realRoot = fs.realpathSync(rootFsPath);
  } catch (e) {
    return `it cannot be resolved (${e.message})`;
  }
  return isInside(real, realRoot) ? null : 'a symlink on the way leads out of the workspace folder';
}
