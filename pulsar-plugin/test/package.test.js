'use strict';
// The package as Pulsar loads it: package.json fields, menus and keymaps naming
// existing commands, the CommonJS bundle, and no native modules in node_modules (Pulsar
// refuses to activate a package whose native modules were built for another Node ABI).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

function commandsInMain() {
  const source = fs.readFileSync(path.join(root, 'lib', 'main.js'), 'utf8');
  return [...source.matchAll(/'(anchored-edit:[a-z-]+)':/g)].map((m) => m[1]);
}

test('package.json: main, engines.atom, activation, status-bar service, settings', () => {
  assert.equal(pkg.name, 'anchored-edit');
  assert.ok(fs.existsSync(path.join(root, `${pkg.main}.js`)));
  assert.match(pkg.engines.atom, /^>=1\.131\.0/);
  assert.deepEqual(pkg.activationHooks, ['core:loaded-shell-environment']);
  const registered = commandsInMain();
  for (const c of pkg.activationCommands['atom-workspace']) assert.ok(registered.includes(c), c);
  assert.equal(pkg.consumedServices['status-bar'].versions['^1.0.0'], 'consumeStatusBar');
  const schema = pkg.configSchema;
  assert.equal(schema.port.default, 38417);
  assert.notEqual(schema.port.default, 3000);
  assert.equal(schema.saveAfterEdit.default, false);
  assert.equal(schema.reviewMode.default, false);
  assert.equal(schema.token.default, '');
  // One review timeout default for every editor host (js/host-policy).
  const { hostPolicy } = require('../lib/engine').loadEngine();
  assert.equal(schema.reviewTimeoutSeconds.default, hostPolicy.REVIEW_TIMEOUT_SECONDS);
  assert.equal(pkg.dependencies, undefined, 'everything the package runs is in vendor/host.js');
});

test('menus and keymaps name commands the package registers', () => {
  const registered = new Set(commandsInMain());
  const menus = JSON.parse(fs.readFileSync(path.join(root, 'menus', 'anchored-edit.json'), 'utf8'));
  const named = [];
  const walk = (items) => {
    for (const item of items) {
      if (item.command) named.push(item.command);
      if (item.submenu) walk(item.submenu);
    }
  };
  walk(menus.menu);
  for (const items of Object.values(menus['context-menu'])) walk(items);
  const keymaps = JSON.parse(fs.readFileSync(path.join(root, 'keymaps', 'anchored-edit.json'), 'utf8'));
  for (const bindings of Object.values(keymaps)) named.push(...Object.values(bindings));
  assert.ok(named.length >= 10);
  for (const c of named) assert.ok(registered.has(c), c);
});

test('vendor/host.js is CommonJS with the engine and the MCP module; the wasm sits next to its glue', () => {
  // This whole run uses --no-experimental-require-module: an ES module reached by
  // require() fails here as it fails in Pulsar's Electron 30 (Node 20.11-20.16).
  const host = require('../vendor/host.js');
  assert.equal(typeof host.engine.Session, 'function');
  assert.equal(typeof host.mcpHost.startMcpHttpServer, 'function');
  assert.ok(fs.statSync(path.join(root, 'vendor', 'node', 'anchored_edit_bg.wasm')).size > 100_000);
});

test('no native modules in the package node_modules', () => {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.node')) found.push(p);
    }
  };
  walk(path.join(root, 'node_modules'));
  assert.deepEqual(found, []);
});
