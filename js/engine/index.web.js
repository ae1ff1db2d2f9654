// The package in browsers (and web workers, bundlers, Deno): the wasm-bindgen `web`
// build behind the shared wrapper. Call `await init()` (or `initSync(module)`) once
// before using `Session` or `toolSchemas`.
import initWasm, * as raw from './web/anchored_edit.js';
import { createEngine } from './session.js';

export const { Session, toolSchemas, profileSchemas, hostRefusal, encodeText, resolvePath, ignoreFilter, ignoredFolders, ignoreFileSkipped, serverInstructions, writeProtocol, EnginePanicError } = createEngine(raw);

/**
 * Loads and instantiates the engine. `input`: nothing (fetches anchored_edit_bg.wasm
 * next to this build), a URL or Request, a Response, bytes, or a WebAssembly.Module.
 */
export async function init(input) {
  await initWasm(input === undefined ? undefined : { module_or_path: input });
}

/** Instantiates the engine synchronously from bytes or a WebAssembly.Module. */
export function initSync(module) {
  raw.initSync({ module });
}

/** Test hook: makes the engine panic. Not part of the API. */
export const __panicForTests = (message) => raw.__panicForTests(message);
