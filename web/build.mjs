// Builds the playground into web/dist/: index.html, playground.js (one classic script:
// the page's code, CodeMirror and the engine's wasm bytes inlined), playground.css
// (fonts inlined). No module scripts and no fetch, so the page works opened from
// file:// as well as from any static server. Needs pkg/ (scripts/build-wasm).
//
//   node build.mjs [--dev]     --dev: no minification, inline source map
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const dev = process.argv.includes('--dev');
const wasm = path.join(here, '../pkg/web/anchored_edit_bg.wasm');
if (!fs.existsSync(wasm)) {
  console.error('build: pkg/web/anchored_edit_bg.wasm is missing: run scripts/build-wasm first');
  process.exit(1);
}

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: { playground: path.join(here, 'src/main.js') },
  outdir: dist,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome105', 'firefox110', 'safari16'],
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  legalComments: 'eof',
  loader: { '.wasm': 'binary', '.woff2': 'dataurl' },
  // wasm-bindgen's loader mentions import.meta.url for fetching the .wasm by default;
  // the page always passes the inlined bytes, so that path is never taken.
  logOverride: { 'empty-import-meta': 'silent' },
  logLevel: 'warning',
});
fs.copyFileSync(path.join(here, 'src/index.html'), path.join(dist, 'index.html'));
// The bundled fonts' licence (SIL OFL 1.1) travels with them.
fs.mkdirSync(path.join(dist, 'licenses'));
for (const font of ['inter', 'jetbrains-mono']) {
  fs.copyFileSync(path.join(here, `node_modules/@fontsource/${font}/LICENSE`), path.join(dist, `licenses/${font}-OFL.txt`));
}

let total = 0;
let totalGz = 0;
for (const name of ['index.html', 'playground.js', 'playground.css']) {
  const bytes = fs.readFileSync(path.join(dist, name));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  total += bytes.length;
  totalGz += gz;
  console.log(`  web/dist/${name.padEnd(15)} ${bytes.length.toLocaleString('en').padStart(11)} bytes ${gz.toLocaleString('en').padStart(10)} gzipped`);
}
console.log(`==> build-web: web/dist/ ready: ${total.toLocaleString('en')} bytes, ${totalGz.toLocaleString('en')} gzipped (wasm ${fs.statSync(wasm).size.toLocaleString('en')} bytes of it, inlined as base64)`);
