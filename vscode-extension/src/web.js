// The browser entry ("browser" in package.json): VS Code for the web (vscode.dev) and any
// web-worker extension host. The .wasm is fetched from the extension's own files.

import { activateExtension } from './extension.js';

export async function activate(context) {
  return activateExtension(context, {
    loadWasm: async (uri) => {
      const response = await fetch(uri.toString(true));
      if (!response.ok) throw new Error(`anchored-edit: could not load ${uri}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
    canSpawn: false,
  });
}

export function deactivate() {}
