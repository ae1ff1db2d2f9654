// The real-location check every JS host with a file system makes (issue 24, "a host kit"):
// where a path really leads, symlinks resolved through its deepest existing part (a file
// still to be created is judged by the folder it would land in), and whether that lies
// inside the real root. One copy for the Node server (js/node-server/disk.js), Pulsar
// (lib/workspace.js) and the VS Code desktop (src/node/real-path.js); the browser hosts
// have no realpath. Free of Node imports: the host hands in `fs` (lstatSync,
// realpathSync) and `path` (dirname, basename, join, relative, isAbsolute).

/** The real path of `p`, resolving the deepest part that exists. Throws when the root
 * of the file system itself cannot be resolved. */
export function realLocation(fsImpl, pathImpl, p) {
  const missing = [];
  let existing = p;
  for (;;) {
    try {
      fsImpl.lstatSync(existing);
      break;
    } catch {
      const parent = pathImpl.dirname(existing);
      if (parent === existing) break;
      missing.unshift(pathImpl.basename(existing));
      existing = parent;
    }
  }
  return pathImpl.join(fsImpl.realpathSync(existing), ...missing);
}

/** Whether `child` is `parent` or lies under it (both real, absolute). */
export function isInside(pathImpl, child, parent) {
  const rel = pathImpl.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !pathImpl.isAbsolute(rel));
}

/**
 * Whether the file at `fsPath` (inside `rootFsPath` by its name) really stays inside it:
 * null when it does, else why not (the `why` of a `path_outside_root` refusal; `place`
 * names the root as the host's user knows it).
 */
export function realPathEscapes(fsImpl, pathImpl, fsPath, rootFsPath, place = 'project root') {
  let real;
  let realRoot;
  try {
    real = realLocation(fsImpl, pathImpl, fsPath);
    realRoot = fsImpl.realpathSync(rootFsPath);
  } catch (e) {
    return `it cannot be resolved (${e.message})`;
  }
  return isInside(pathImpl, real, realRoot) ? null : `a symlink on the way leads out of the ${place}`;
}
