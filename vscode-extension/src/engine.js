// The engine in the extension: the npm package's web build (pkg/index.web.js), loaded from
// the extension's own files in both hosts (the browser's web worker and desktop Node), so
// one bundle of the engine serves vscode.dev and desktop VS Code alike.
//
// Statistics live in the engine's Session; the extension persists them in globalState
// after every call (statsJson) and hands them back on the next start (loadStats).

import { init, Session, toolSchemas, hostRefusal, resolvePath, ignoreFilter, ignoredFolders, EnginePanicError } from '../../pkg/index.web.js';

export const STATS_KEY = 'anchoredEdit.stats';
export const WASM_PATH = ['dist', 'anchored_edit_bg.wasm'];

/**
 * Instantiates the engine from the .wasm bytes the host read from the extension's files.
 * Resolves to the package's API: {Session, toolSchemas, hostRefusal, resolvePath, ignoreFilter,
 * ignoredFolders, EnginePanicError}.
 */
export async function loadEngine(bytes) {
  await init(bytes);
  return { Session, toolSchemas, hostRefusal, resolvePath, ignoreFilter, ignoredFolders, EnginePanicError };
}

/** A Session with the statistics persisted in `memento` (globalState), if any. */
export function restoreSession(engine, memento, log) {
  const session = new engine.Session();
  const saved = memento.get(STATS_KEY);
  if (typeof saved === 'string') {
    try {
      session.loadStats(saved);
    } catch (e) {
      log(`Saved statistics were not loaded (${e?.message ?? e}); counting afresh.`);
    }
  }
  return session;
}

/** Saves the session's statistics; failures are logged, never thrown into a call. */
export function persistStats(session, memento, log) {
  let json;
  try {
    json = session.statsJson();
  } catch (e) {
    log(`Statistics not saved: ${e?.message ?? e}`);
    return Promise.resolve();
  }
  return Promise.resolve(memento.update(STATS_KEY, json)).catch((e) => log(`Statistics not saved: ${e?.message ?? e}`));
}
