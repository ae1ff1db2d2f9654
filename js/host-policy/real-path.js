// The real-location check every JS host with a file system makes (issue 24, "a host kit"):
// where a path really leads, symlinks resolved through its deepest existing part (a file
// still to be created is judged by the folder it would land in), and whether that lies
// inside the real root. One copy for the Node server (js/node-server/disk.js), Pulsar
// (lib/workspace.js) and the VS Code desktop (src/node/real-path.js); the browser hosts
// have no realpath. Free of Node imports: the host hands in `fs` (lstatSync,
// realpathSync) and `path` (dirname, basename, join, relative, isAbsolute).

/**
 * `p` split at its deepest existing part: `{real, missing}`, the real path of that part
 * and the names below it that do not exist yet (not normalised: a host may refuse a
 * `..` among them). Throws when the existing part cannot be resolved.
 */
export function realParts(fsImpl, pathImpl, p) {
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
  return { real: fsImpl.realpathSync(existing), missing };
}

/** The real path of `p`, resolving the deepest part that exists. Throws when the root
 * of the file system itself cannot be resolved. */
export function realLocation(fsImpl, pathImpl, p) {
  const { real, missing } = realParts(fsImpl, pathImpl, p);
  return pathImpl.join(real, ...missing);
}

/** Whether `child` is `parent` or lies under it (both real, absolute). */
export function isInside(pathImpl, child, parent) {
  const rel = pathImpl.relative(parent, child);
  // `..` or `../…` climbs out; a name that merely starts with `..` (`..data`) is inside.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${pathImpl.sep}`) && !pathImpl.isAbsolute(rel));
}

/**
 * Whether the file at `fsPath` (inside `rootFsPath` by its name) really stays inside it:
 * null when it does, else why not as the engine's `path_outside_root` detail
 * (`{why: 'link_leads_out'}` or `{why: 'unresolvable', error}`), which the host has the
 * engine word (`createRefusals(engine).outsideRoot`), the same in every host.
 */
export function realPathEscapes(fsImpl, pathImpl, fsPath, rootFsPath) {
  let real;
  let realRoot;
  try {
    real = realLocation(fsImpl, pathImpl, fsPath);
    realRoot = fsImpl.realpathSync(rootFsPath);
  } catch (e) {
    return { why: 'unresolvable', error: e.message };
  }
  return isInside(pathImpl, real, realRoot) ? null : { why: 'link_leads_out' };
}
