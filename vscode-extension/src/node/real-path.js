// Desktop only: where a path really leads, symlinks resolved (Node's fs.realpathSync), so
// that a link inside the workspace that points out of it is refused as the CLI and
// Pulsar refuse it: js/host-policy/real-path.js (one copy for every JS host) over Node's
// fs and path. The browser entry has no realpath; it checks links with
// workspace.fs.stat (files.js).

import fs from 'node:fs';
import path from 'node:path';
import * as shared from '../../../js/host-policy/real-path.js';

/** The real path of `p`, resolving the deepest part that exists. */
export function realLocation(p) {
  return shared.realLocation(fs, path, p);
}

/**
 * Whether the file at `fsPath` (inside the workspace folder `rootFsPath` by its name)
 * really stays inside it. Returns null when it does, else why not as the engine's
 * refusal detail ({why, error}; files.js has the engine word it).
 */
export function realPathEscapes(fsPath, rootFsPath) {
  return shared.realPathEscapes(fs, path, fsPath, rootFsPath);
}
