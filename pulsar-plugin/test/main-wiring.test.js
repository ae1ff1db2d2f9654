'use strict';
// lib/main.js (the package's entry) in plain Node with a stand-in for the parts of
// Pulsar's `atom` API it calls outside the panes (commands, config, notifications,
// clipboard, project, workspace editors). Pulsar itself cannot run here; this checks the
// wiring (commands → host → server → real buffers → package state) and complements the
// specs in spec/, which run the same flows, panes included, inside Pulsar.
const { test, describe, before, after } = require('node:test');
const assert = require('node:assert/strict');
const Module = require('module');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { tempProject, openBuffer, waitFor } = require('./helpers');
const { connectMcp } = require('../spec/helpers/mcp-request');

/** A minimal `atom` global: what main.js uses, recorded for the assertions. */
function standInPulsar({ roots, editors, configDir }) {
  const commands = new Map();
  const configValues = {
    'anchored-edit.port': 0,
    'anchored-edit.startAutomatically': false,
    'anchored-edit.reviewMode': false,
    'anchored-edit.reviewTimeoutSeconds': 120,
    'anchored-edit.saveAfterEdit': false,
    'anchored-edit.openPreviewOnDryRun': true,
    'anchored-edit.highlightMilliseconds': 0,
    'anchored-edit.token': '',
  };
  const notifications = [];
  const opened = [];
  const disposable = { dispose() {} };
  const notify = (type) => (message, options) => notifications.push({ type, message, options });
  return {
    notifications,
    opened,
    commands,
    atom: {
      commands: {
        add(target, map) {
          for (const [name, fn] of Object.entries(map)) commands.set(name, fn);
          return disposable;
        },
      },
      config: {
        get: (key) => configValues[key],
        set: (key, value) => {
          configValues[key] = value;
        },
        unset: (key) => {
          configValues[key] = '';
        },
        onDidChange: () => disposable,
      },
      notifications: { addSuccess: notify('success'), addInfo: notify('info'), addWarning: notify('warning'), addError: notify('error') },
      clipboard: {
        text: '',
        write(text) {
          this.text = text;
        },
      },
      project: { getPaths: () => roots },
      workspace: {
        addOpener: () => disposable,
        getTextEditors: () => editors,
        open: async (uri, options) => {
          opened.push({ uri, options });
          return null;
        },
      },
      confirm: (options, callback) => callback(options.buttons.indexOf('VS Code')),
      getConfigDirPath: () => configDir,
    },
  };
}

describe('lib/main.js wiring', () => {
  let p;
  let buffer;
  let pulsar;
  let pkg;
  let originalLoad;
  let configDir;

  before(async () => {
    p = tempProject({ 'a.txt': 'one\n' });
    buffer = await openBuffer(p.file('a.txt'));
    const editor = { getBuffer: () => buffer };
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-config-'));
    pulsar = standInPulsar({ roots: [p.root], editors: [editor], configDir });
    global.atom = pulsar.atom;
    originalLoad = Module._load;
    Module._load = function load(request, ...rest) {
      if (request === 'atom') {
        return {
          CompositeDisposable: class {
            add() {}
            dispose() {}
          },
        };
      }
      return originalLoad.call(this, request, ...rest);
    };
    pkg = require('../lib/main');
    pkg.activate({});
  });

  after(async () => {
    await pkg.deactivate();
    Module._load = originalLoad;
    delete global.atom;
    p.cleanup();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('registers the commands', () => {
    for (const name of ['start-server', 'stop-server', 'copy-client-config', 'show-stats', 'review-mode', 'apply-preview', 'discard-preview']) {
      assert.equal(typeof pulsar.commands.get(`anchored-edit:${name}`), 'function', name);
    }
  });

  test('a weak token in the settings is refused with a notification; the server does not start', async () => {
    pulsar.atom.config.set('anchored-edit.token', 'hunter2hunter2');
    await pulsar.commands.get('anchored-edit:start-server')();
    assert.equal(pkg.host === null ? null : pkg.host.server, null);
    const note = pulsar.notifications.at(-1);
    assert.equal(note.type, 'error');
    assert.match(note.message, /refused the bearer token/);
    assert.match(note.options.detail, /at least 128 are required/);
    pulsar.atom.config.set('anchored-edit.token', '');
  });

  test('start-server generates the token into the private file (0600, dir 0700), not the config; agents edit the open buffer', async () => {
    await pulsar.commands.get('anchored-edit:start-server')();
    const server = pkg.host.server;
    assert.ok(server, JSON.stringify(pulsar.notifications));
    assert.equal(pulsar.atom.config.get('anchored-edit.token'), '', 'the synced config holds no token');
    const file = path.join(configDir, 'anchored-edit', 'token');
    assert.equal(fs.readFileSync(file, 'utf8').trim(), server.token);
    assert.ok(Buffer.from(server.token, 'base64url').length >= 16);
    if (process.platform !== 'win32') {
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    }
    assert.match(pulsar.notifications.at(-1).message, /MCP server on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const client = await connectMcp(server.url, server.token);
    const r = await client.callTool('str_replace', { path: 'a.txt', old_str: 'one', new_str: 'two' });
    assert.equal(r.isError, false);
    assert.equal(buffer.getText(), 'two\n');
    // A dry run opens the diff pane (setting openPreviewOnDryRun).
    await client.callTool('str_replace', { path: 'a.txt', old_str: 'two', new_str: 'three', dry_run: true });
    await waitFor(() => pulsar.opened.some((o) => o.uri === 'atom://anchored-edit/preview'));
    assert.equal(pkg.applyCurrent().ok, true);
    assert.equal(buffer.getText(), 'three\n');
    await client.close();
  });

  test('copy-client-config copies the chosen client\'s configuration', async () => {
    await pulsar.commands.get('anchored-edit:copy-client-config')();
    const json = JSON.parse(pulsar.atom.clipboard.text);
    assert.equal(json.servers['anchored-edit'].url, pkg.host.server.url);
    assert.equal(json.servers['anchored-edit'].headers.Authorization, `Bearer ${pkg.host.server.token}`);
    assert.doesNotMatch(pulsar.notifications.at(-1).options.detail, new RegExp(pkg.host.server.token), 'the notification hides the token');
  });

  test('review-mode toggles the setting', () => {
    pulsar.commands.get('anchored-edit:review-mode')();
    assert.equal(pulsar.atom.config.get('anchored-edit.reviewMode'), true);
    pulsar.commands.get('anchored-edit:review-mode')();
    assert.equal(pulsar.atom.config.get('anchored-edit.reviewMode'), false);
  });

  test('serialize() carries the statistics; stop-server stops', async () => {
    const state = pkg.serialize();
    assert.equal(JSON.parse(state.statsJson).tools.str_replace.calls, 2);
    assert.equal(state.hostCounts.previewsApplied, 1);
    const url = pkg.host.server.url;
    await pulsar.commands.get('anchored-edit:stop-server')();
    assert.equal(pkg.host.server, null);
    await assert.rejects(connectMcp(url, 'x'), (e) => e.code === 'ECONNREFUSED');
  });

  test('a port in use is reported with advice', async () => {
    const net = require('net');
    const blocker = net.createServer();
    await new Promise((r) => blocker.listen(0, '127.0.0.1', r));
    pulsar.atom.config.set('anchored-edit.port', blocker.address().port);
    try {
      assert.equal(await pkg.startServer(), null);
      assert.equal(pulsar.notifications.at(-1).type, 'error');
      assert.match(pulsar.notifications.at(-1).options.detail, /is in use by another program/);
    } finally {
      pulsar.atom.config.set('anchored-edit.port', 0);
      blocker.close();
    }
  });
});
