#!/usr/bin/env node
// The package's `bin`. Node 22.1+ can keep the compiled code of the server's modules (the
// MCP SDK, zod, the engine's glue) on disk between runs, which shortens every later
// start; it must be switched on before they load, hence this file and cli.js.
import module from 'node:module';

try {
  module.enableCompileCache?.();
} catch {
  // No cache (read-only temp folder, older Node): a slower start, nothing else.
}
await import('./cli.js');
