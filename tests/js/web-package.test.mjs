// The web build of the package (pkg/index.web.js, wasm-bindgen `web` target) in headless
// Chromium, on the main thread of a page: init(), a call with UTF-16 edits, and recovery
// from an engine panic (wasm-bindgen's reinit instantiates the module again in the page).
// Needs pkg/ (scripts/build-wasm) and /usr/bin/chromium (scripts/setup).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../pkg');
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.html': 'text/html' };

let server;
let browser;
let page;

before(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><title>anchored-edit web package</title>');
      return;
    }
    const file = path.join(pkgDir, path.normalize(url.pathname));
    if (!file.startsWith(pkgDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.evaluate(async () => {
    const engine = await import('/index.web.js');
    await engine.init();
    window.engine = engine;
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

test('a call in the browser returns new_text and UTF-16 edits', async () => {
  const r = await page.evaluate(() => {
    const s = new window.engine.Session();
    const text = 'let s = "😀 世界";\n';
    const result = s.call(
      { tool: 'str_replace', arguments: { path: 'a.js', old_str: '世界', new_str: 'world' } },
      { read: (p) => (p === 'a.js' ? text : undefined) },
    );
    return { result, column: text.indexOf('世界') };
  });
  assert.equal(r.result.ok, true);
  assert.equal(r.result.files[0].new_text, 'let s = "😀 world";\n');
  assert.deepEqual(r.result.files[0].edits[0].range.start, { row: 0, column: r.column });
  assert.deepEqual(r.result.files[0].edits[0].range.end, { row: 0, column: r.column + 2 });
});

test('a panic in the browser throws EnginePanicError and the session keeps working', async () => {
  const r = await page.evaluate(() => {
    const { Session, EnginePanicError, __panicForTests, toolSchemas } = window.engine;
    const files = { read: (p) => (p === 'a.txt' ? 'a\nb\n' : undefined) };
    const s = new Session();
    s.call({ tool: 'str_replace', arguments: { path: 'a.txt', old_str: 'b', new_str: 'c' } }, files);
    const before = s.statsJson();
    let thrown;
    try {
      s.call({ tool: 'get_document', arguments: { path: 'a.txt' } }, { read: () => __panicForTests('boom in the browser') });
    } catch (e) {
      thrown = { isPanic: e instanceof EnginePanicError, message: e.message };
    }
    const restored = s.statsJson();
    const after = s.call({ tool: 'str_replace', arguments: { path: 'a.txt', old_str: 'b', new_str: 'c' } }, files);
    const calls = JSON.parse(s.statsJson()).tools.str_replace.calls;
    return { thrown, sameStats: restored === before, calls, after, tools: toolSchemas().length };
  });
  assert.equal(r.thrown?.isPanic, true);
  assert.match(r.thrown.message, /boom in the browser/);
  assert.equal(r.after.ok, true);
  assert.equal(r.after.files[0].new_text, 'a\nc\n');
  assert.equal(r.sameStats, true);
  assert.equal(r.calls, 2);
  assert.ok(r.tools > 0);
});
