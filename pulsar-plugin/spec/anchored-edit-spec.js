'use strict';
// Specs for the workspace glue, in Pulsar's format (Jasmine 1.3 with waitsForPromise /
// waitsFor / runs): run them with `pulsar --test spec` in this folder after the build
// (scripts/build-pulsar). They drive the real package in a real Pulsar window: commands,
// the MCP server reached over HTTP, edits in open editors, the diff pane, review mode,
// the statistics pane, the status-bar tile and the package state.

const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { connectMcp } = require('./helpers/mcp-request');

const PREVIEW_URI = 'atom://anchored-edit/preview';
const STATS_URI = 'atom://anchored-edit/stats';

function paneItemWithURI(uri) {
  return atom.workspace.getPaneItems().find((item) => typeof item.getURI === 'function' && item.getURI() === uri);
}

function httpStatus(url) {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { Host: target.host, 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
    req.on('error', (e) => resolve(e.code));
    req.end('{}');
  });
}

describe('anchored-edit', () => {
  let workspaceElement;
  let projectDir;
  let pkg;

  function activate() {
    const activation = atom.packages.activatePackage('anchored-edit');
    atom.packages.triggerActivationHook('core:loaded-shell-environment');
    atom.packages.triggerDeferredActivationHooks();
    waitsForPromise(() => activation);
    runs(() => {
      pkg = atom.packages.getActivePackage('anchored-edit').mainModule;
    });
  }

  function startServer() {
    runs(() => atom.commands.dispatch(workspaceElement, 'anchored-edit:start-server'));
    waitsFor('the MCP server to start', () => pkg.host && pkg.host.server, 5000);
  }

  beforeEach(() => {
    workspaceElement = atom.views.getView(atom.workspace);
    jasmine.attachToDOM(workspaceElement);
    projectDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-spec-')));
    fs.writeFileSync(path.join(projectDir, 'app.py'), 'def connect():\n    retries = 3\n    return retries\n');
    atom.project.setPaths([projectDir]);
    atom.config.set('anchored-edit.port', 0);
    atom.config.set('anchored-edit.reviewMode', false);
    activate();
  });

  afterEach(() => {
    waitsForPromise(() => (pkg && pkg.host ? pkg.host.stop() : Promise.resolve()));
    runs(() => fs.rmSync(projectDir, { recursive: true, force: true }));
  });

  it('registers its commands', () => {
    const names = atom.commands.findCommands({ target: workspaceElement }).map((c) => c.name);
    for (const name of [
      'anchored-edit:start-server',
      'anchored-edit:stop-server',
      'anchored-edit:copy-client-config',
      'anchored-edit:show-stats',
      'anchored-edit:review-mode',
      'anchored-edit:apply-preview',
      'anchored-edit:discard-preview',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('starts the MCP server on 127.0.0.1 with a stored token, refuses requests without it, and stops', () => {
    let url;
    startServer();
    runs(() => {
      url = pkg.host.server.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(atom.config.get('anchored-edit.token')).toBe(pkg.host.server.token);
      expect(pkg.host.server.token.length).toBe(43);
    });
    waitsForPromise(() => httpStatus(url).then((status) => expect(status).toBe(401)));
    runs(() => atom.commands.dispatch(workspaceElement, 'anchored-edit:stop-server'));
    waitsFor('the server to stop', () => !pkg.host.server, 5000);
    waitsForPromise(() => httpStatus(url).then((status) => expect(status).toBe('ECONNREFUSED')));
  });

  it("applies an agent's edit to the open editor: unsaved changes included, one undo step, lines highlighted", () => {
    let editor;
    let result;
    atom.config.set('anchored-edit.highlightMilliseconds', 60000);
    waitsForPromise(() => atom.workspace.open(path.join(projectDir, 'app.py')).then((e) => (editor = e)));
    runs(() => editor.setTextInBufferRange([[2, 0], [2, 0]], '    # unsaved\n'));
    startServer();
    waitsForPromise(async () => {
      const client = await connectMcp(pkg.host.server.url, pkg.host.server.token);
      result = await client.callTool('str_replace', { path: 'app.py', old_str: '    retries = 3\n    # unsaved', new_str: '    retries = 5\n    # edited' });
      await client.close();
    });
    runs(() => {
      expect(result.isError).toBe(false);
      expect(editor.getText()).toBe('def connect():\n    retries = 5\n    # edited\n    return retries\n');
      expect(editor.isModified()).toBe(true);
      expect(fs.readFileSync(path.join(projectDir, 'app.py'), 'utf8')).toBe('def connect():\n    retries = 3\n    return retries\n');
    });
    waitsForPromise(() => editor.component.getNextUpdatePromise());
    runs(() => {
      expect(editor.getElement().querySelectorAll('.line.anchored-edit-changed').length).toBeGreaterThan(0);
      editor.undo();
      expect(editor.getText()).toBe('def connect():\n    retries = 3\n    # unsaved\n    return retries\n');
    });
  });

  it('shows a dry run in the diff pane and applies exactly it on Apply', () => {
    let editor;
    let result;
    waitsForPromise(() => atom.workspace.open(path.join(projectDir, 'app.py')).then((e) => (editor = e)));
    startServer();
    waitsForPromise(async () => {
      const client = await connectMcp(pkg.host.server.url, pkg.host.server.token);
      result = await client.callTool('str_replace', { path: 'app.py', old_str: 'retries = 3', new_str: 'retries = 7', dry_run: true });
      await client.close();
    });
    waitsFor('the diff pane', () => paneItemWithURI(PREVIEW_URI), 5000);
    // The hunk header is a block decoration: it appears once the diff editor rendered.
    waitsFor('the diff to render', () => paneItemWithURI(PREVIEW_URI).getElement().querySelectorAll('.anchored-edit-diff-hunk').length === 1, 5000);
    runs(() => {
      expect(result.isError).toBe(false);
      expect(editor.getText()).toContain('retries = 3');
      const pane = paneItemWithURI(PREVIEW_URI).getElement();
      expect(pane.querySelector('.anchored-edit-preview-file-link').textContent).toBe('app.py');
      expect(pane.querySelector('.anchored-edit-preview-diff atom-text-editor').textContent.replace(/\u00a0/g, ' ')).toContain('retries = 7');
      expect(pane.querySelector('.anchored-edit-apply').disabled).toBe(false);
      pane.querySelector('.anchored-edit-apply').click();
      expect(editor.getText()).toBe('def connect():\n    retries = 7\n    return retries\n');
      expect(paneItemWithURI(PREVIEW_URI).getElement().querySelector('.anchored-edit-apply').disabled).toBe(true);
    });
  });

  it("refuses to apply a preview after the buffer changed", () => {
    let editor;
    startServer();
    waitsForPromise(() => atom.workspace.open(path.join(projectDir, 'app.py')).then((e) => (editor = e)));
    waitsForPromise(async () => {
      const client = await connectMcp(pkg.host.server.url, pkg.host.server.token);
      await client.callTool('str_replace', { path: 'app.py', old_str: 'retries = 3', new_str: 'retries = 7', dry_run: true });
      await client.close();
    });
    waitsFor('the diff pane', () => paneItemWithURI(PREVIEW_URI), 5000);
    runs(() => {
      editor.insertText('# typed by the user\n');
      const before = editor.getText();
      atom.commands.dispatch(paneItemWithURI(PREVIEW_URI).getElement(), 'anchored-edit:apply-preview');
      expect(editor.getText()).toBe(before);
      expect(pkg.host.queue.current().status).toBe('stale');
    });
  });

  it('holds edits in review mode until the user applies or discards them', () => {
    let editor;
    let applied;
    let discarded;
    let client;
    waitsForPromise(() => atom.workspace.open(path.join(projectDir, 'app.py')).then((e) => (editor = e)));
    runs(() => {
      atom.commands.dispatch(workspaceElement, 'anchored-edit:review-mode');
      expect(atom.config.get('anchored-edit.reviewMode')).toBe(true);
    });
    startServer();
    waitsForPromise(async () => {
      client = await connectMcp(pkg.host.server.url, pkg.host.server.token);
    });
    runs(() => {
      client.callTool('str_replace', { path: 'app.py', old_str: 'retries = 3', new_str: 'retries = 4' }).then((r) => (applied = r));
    });
    waitsFor('the held edit in the diff pane', () => paneItemWithURI(PREVIEW_URI) && pkg.host.queue.review, 5000);
    runs(() => {
      expect(editor.getText()).toContain('retries = 3');
      atom.commands.dispatch(paneItemWithURI(PREVIEW_URI).getElement(), 'anchored-edit:apply-preview');
    });
    waitsFor('the call to return', () => applied, 5000);
    runs(() => {
      expect(applied.isError).toBe(false);
      expect(editor.getText()).toContain('retries = 4');
      client.callTool('str_replace', { path: 'app.py', old_str: 'retries = 4', new_str: 'retries = 9' }).then((r) => (discarded = r));
    });
    waitsFor('the second held edit', () => pkg.host.queue.review, 5000);
    runs(() => atom.commands.dispatch(paneItemWithURI(PREVIEW_URI).getElement(), 'anchored-edit:discard-preview'));
    waitsFor('the second call to return', () => discarded, 5000);
    runs(() => {
      expect(discarded.isError).toBe(true);
      expect(discarded.content[0].text).toMatch(/The user discarded this edit/);
      expect(editor.getText()).toContain('retries = 4');
    });
    waitsForPromise(() => client.close());
  });

  it("copies the chosen client's configuration with the URL and the token", () => {
    spyOn(atom, 'confirm').andCallFake((options, callback) => callback(options.buttons.indexOf('Codex')));
    runs(() => atom.commands.dispatch(workspaceElement, 'anchored-edit:copy-client-config'));
    waitsFor('the clipboard', () => atom.clipboard.read().includes('[mcp_servers.anchored-edit]'), 5000);
    runs(() => {
      const text = atom.clipboard.read();
      expect(text).toContain(`url = "${pkg.host.server.url}"`);
      expect(text).toContain(`"Authorization" = "Bearer ${pkg.host.server.token}"`);
    });
  });

  it('shows the statistics per tool and keeps them in the package state across a restart', () => {
    startServer();
    waitsForPromise(async () => {
      const client = await connectMcp(pkg.host.server.url, pkg.host.server.token);
      await client.callTool('str_replace', { path: 'app.py', old_str: 'retries = 3', new_str: 'retries = 6' });
      await client.callTool('str_replace', { path: 'app.py', old_str: 'absent', new_str: 'x' });
      await client.close();
    });
    runs(() => atom.commands.dispatch(workspaceElement, 'anchored-edit:show-stats'));
    waitsFor('the statistics pane', () => paneItemWithURI(STATS_URI), 5000);
    runs(() => {
      const row = paneItemWithURI(STATS_URI).getElement().querySelector('tr[data-tool="str_replace"]');
      expect(row).not.toBeNull();
      expect(row.textContent).toContain('2');
    });
    waitsForPromise(() => pkg.host.stop());
    waitsForPromise(() => Promise.resolve(atom.packages.deactivatePackage('anchored-edit')));
    activate();
    runs(() => {
      const stats = pkg.getHost().stats();
      expect(stats.tools.str_replace.calls).toBe(2);
      expect(stats.tools.str_replace.errors.no_match).toBe(1);
    });
  });

  it('shows the server state and the last edit in the status bar', () => {
    let tile;
    waitsForPromise(() => atom.packages.activatePackage('status-bar'));
    waitsFor('the tile', () => (tile = workspaceElement.querySelector('.anchored-edit-status')), 5000);
    runs(() => expect(tile.textContent).toContain('MCP off'));
    startServer();
    waitsForPromise(async () => {
      const client = await connectMcp(pkg.host.server.url, pkg.host.server.token);
      await client.callTool('str_replace', { path: 'app.py', old_str: 'absent', new_str: 'x' });
      await client.close();
    });
    runs(() => {
      expect(tile.textContent).toContain(`MCP :${pkg.host.server.port}`);
      expect(tile.textContent).toContain('str_replace ✗ no_match');
    });
  });
});
