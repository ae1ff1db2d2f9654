// Bundles the `anchored-edit` command for a fast start (scripts/build-wasm runs it after
// filling pkg/): pkg/node-server/cli.js with everything it imports (the engine's JS
// wrapper, host-policy, mcp-host/result.js, the MCP SDK, zod, ajv) as one CommonJS file,
// pkg/node/server.cjs, beside the wasm-bindgen glue whose `__dirname` finds the .wasm
// there. Loading it costs a third of the CPU the separate ES modules cost (about 40 ms
// instead of 145 ms for the SDK alone), and bin.js keeps V8's code cache of it.
//
//   node js/node-server/bundle.mjs PKG_DIR
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const js = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = path.resolve(process.argv[2] ?? path.join(js, '../pkg'));
const shim = path.join(pkg, 'node', '.import-meta-url.js');
// `import.meta.url` of the bundled modules: the bundle's own URL (cli.js reads
// ../package.json from it, which is pkg/package.json from pkg/node/ as from pkg/node-server/).
fs.writeFileSync(shim, "export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;\n");
try {
  await esbuild.build({
    entryPoints: [path.join(pkg, 'node-server/cli.js')],
    outfile: path.join(pkg, 'node/server.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    // The engine by the package's own name, and the glue left as a file (it reads the
    // .wasm beside it).
    alias: { 'anchored-edit': path.join(pkg, 'index.node.js') },
    external: ['./anchored_edit.js'],
    nodePaths: [path.join(js, 'node_modules')],
    define: { 'import.meta.url': 'importMetaUrl' },
    inject: [shim],
    logLevel: 'warning',
    plugins: [
      {
        // index.node.js imports ./node/anchored_edit.js; from pkg/node/server.cjs that file
        // is ./anchored_edit.js.
        name: 'glue-beside-bundle',
        setup(build) {
          build.onResolve({ filter: /\/node\/anchored_edit\.js$/ }, () => ({ path: './anchored_edit.js', external: true }));
        },
      },
    ],
  });
} finally {
  fs.rmSync(shim, { force: true });
}
