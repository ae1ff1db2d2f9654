'use strict';
// Loads the engine, the shared MCP HTTP module and the shared host policy from
// vendor/host.js: CommonJS built by build.mjs (scripts/build-pulsar) from pkg/,
// js/mcp-host/ and js/host-policy/. Why a CommonJS bundle and
// not `import()` of the ES modules: see build.mjs.

const path = require('path');

let loaded = null;

/**
 * {engine: {Session, toolSchemas, hostRefusal, resolvePath, EnginePanicError}, mcpHost:
 * js/mcp-host's exports, hostPolicy: js/host-policy's exports, editorTools:
 * js/host-policy/editor-tools.js, listing: js/host-policy/listing.js, realPath:
 * js/host-policy/real-path.js}.
 */
function loadEngine() {
  if (loaded) return loaded;
  const bundle = path.join(__dirname, '..', 'vendor', 'host.js');
  try {
    loaded = require(bundle);
  } catch (e) {
    if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(bundle)) {
      throw new Error(
        'anchored-edit is not built: vendor/host.js is missing. Run `bash scripts/build-pulsar` in the anchored-edit repository, then reload the window.',
      );
    }
    throw e;
  }
  return loaded;
}

module.exports = { loadEngine };
