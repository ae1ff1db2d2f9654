// The package in Node: the wasm-bindgen `nodejs` build (compiled and instantiated
// synchronously on import) behind the shared wrapper.
import raw from './node/anchored_edit.js';
import { createEngine } from './session.js';

export const { Session, toolSchemas, profileSchemas, hostRefusal, encodeText, resolvePath, ignoreFilter, ignoredFolders, ignoreFileSkipped, serverInstructions, writeProtocol, EnginePanicError } = createEngine(raw);

/** Nothing to do in Node (the module is ready on import); kept for code shared with browsers. */
export async function init() {}

/** Nothing to do in Node; kept for code shared with browsers. */
export function initSync() {}

/** Test hook: makes the engine panic. Not part of the API. */
export const __panicForTests = (message) => raw.__panicForTests(message);
