#!/usr/bin/env node
// The package's `bin`. It runs the bundled command (node/server.cjs: cli.js with the MCP
// SDK, zod and the engine's wrapper in one file, built by scripts/build-wasm) through V8's
// code cache, kept in the temp folder per Node version and bundle: a later start parses
// and compiles nothing it compiled before. Without the bundle (a source checkout) it
// imports cli.js. Node 22.1+ also gets its own module compile cache, switched on here
// before anything loads. ANCHORED_EDIT_NO_BUNDLE=1 forces the unbundled modules.
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

try {
  module.enableCompileCache?.();
} catch {
  // No cache (read-only temp folder): a slower start, nothing else.
}

const bundle = fileURLToPath(new URL('../node/server.cjs', import.meta.url));

/** Runs the bundle as a CommonJS module, with V8's code cache when one is kept. */
function runBundle(source) {
  const stat = fs.statSync(bundle);
  const key = createHash('sha256').update(`${process.version}\0${process.arch}\0${bundle}\0${stat.size}\0${stat.mtimeMs}`).digest('hex').slice(0, 24);
  const cacheFile = path.join(os.tmpdir(), 'anchored-edit-code-cache', `${key}.bin`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // First start of this bundle under this Node: compiled from source, cached below.
  }
  const script = new vm.Script(module.wrap(source), { filename: bundle, cachedData });
  const wrapper = script.runInThisContext();
  const exported = { exports: {} };
  wrapper.call(exported.exports, exported.exports, module.createRequire(bundle), exported, bundle, path.dirname(bundle));
  if (cachedData === undefined || script.cachedDataRejected) {
    // Once the command has loaded what it runs (the MCP server's modules load in a
    // microtask), so that their code is in the cache too; only on a start without one.
    setTimeout(() => {
      try {
        fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch {
        // No cache this time.
      }
    }, 0);
  }
}

let source;
if (process.env.ANCHORED_EDIT_NO_BUNDLE !== '1') {
  try {
    source = fs.readFileSync(bundle, 'utf8');
  } catch {
    // No bundle: the modules as they are.
  }
}
if (source === undefined) await import('./cli.js');
else runBundle(source);
