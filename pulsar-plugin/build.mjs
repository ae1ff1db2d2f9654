// Builds vendor/: the engine (pkg/), the shared MCP HTTP module (js/mcp-host/) and the
// shared host policy (js/host-policy/) as CommonJS that Pulsar can `require`.
//
// Why a bundle and not `import()`: Pulsar loads packages with CommonJS `require` in the
// renderer of an Electron window with `contextIsolation: false`. There, a dynamic
// `import()` goes to Chromium's module loader (Electron's ESM docs: only a context-isolated
// preload may route `import()` to Node's loader), which cannot load `node:http`, bare
// package names or CommonJS files. `require()` of an ES module needs Node >= 20.19 /
// 22.12; Pulsar 1.131-1.132 run Electron 30 (Node 20.11-20.16). So the ES modules
// (pkg/index.node.js, pkg/session.js, js/mcp-host/*.js and the MCP SDK with zod) are
// bundled by esbuild into one CommonJS file, vendor/host.js. The wasm-bindgen glue of
// the Node build (pkg/node/, already CommonJS, loading its .wasm from its own folder)
// stays a separate file next to it: vendor/node/.
//
// Usage: node build.mjs   (after scripts/build-wasm made ../pkg/ and `npm ci` here).

import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const pkg = join(repo, 'pkg');
const stage = join(here, '.build');
const vendor = join(here, 'vendor');

if (!existsSync(join(pkg, 'node', 'anchored_edit_bg.wasm'))) {
  console.error('pulsar-plugin/build.mjs: ../pkg/ is missing; run scripts/build-wasm first (scripts/build-pulsar does both).');
  process.exit(1);
}

// Stage the ES sources inside this package, so that their bare imports
// (@modelcontextprotocol/sdk, zod) resolve to this package's pinned devDependencies.
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'engine'), { recursive: true });
mkdirSync(join(stage, 'mcp-host'), { recursive: true });
mkdirSync(join(stage, 'host-policy'), { recursive: true });
for (const f of ['index.node.js', 'session.js']) cpSync(join(pkg, f), join(stage, 'engine', f));
// Every module of js/mcp-host (not its tests), so a new one never breaks the bundle.
for (const dir of ['mcp-host', 'host-policy']) {
  for (const f of readdirSync(join(repo, 'js', dir))) {
    if (f.endsWith('.js') && !f.endsWith('.test.js')) cpSync(join(repo, 'js', dir, f), join(stage, dir, f));
  }
}
writeFileSync(join(stage, 'package.json'), '{ "type": "module" }\n');
writeFileSync(
  join(stage, 'entry.js'),
  "export * as engine from './engine/index.node.js';\nexport * as mcpHost from './mcp-host/index.js';\nexport * as hostPolicy from './host-policy/index.js';\nexport * as editorTools from './host-policy/editor-tools.js';\nexport * as listing from './host-policy/listing.js';\nexport * as realPath from './host-policy/real-path.js';\n",
);

rmSync(vendor, { recursive: true, force: true });
mkdirSync(join(vendor, 'node'), { recursive: true });
for (const f of ['anchored_edit.js', 'anchored_edit_bg.wasm']) cpSync(join(pkg, 'node', f), join(vendor, 'node', f));

await build({
  entryPoints: [join(stage, 'entry.js')],
  outfile: join(vendor, 'host.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Electron 30 (Pulsar 1.131) ships Node 20.
  target: 'node20',
  legalComments: 'eof',
  logLevel: 'warning',
  plugins: [
    {
      // The wasm-bindgen glue reads anchored_edit_bg.wasm from its own directory:
      // keep it a file of its own (vendor/node/) rather than inlining it.
      name: 'wasm-glue-external',
      setup(b) {
        b.onResolve({ filter: /\/node\/anchored_edit\.js$/ }, () => ({ path: './node/anchored_edit.js', external: true }));
      },
    },
  ],
});
rmSync(stage, { recursive: true, force: true });
console.log('pulsar-plugin/build.mjs: vendor/host.js and vendor/node/ ready');
