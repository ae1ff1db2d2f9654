// The Node entry ("main" in package.json): desktop VS Code. Everything of the browser
// entry (extension.js), plus what needs Node: stdio MCP server definitions (the CLI is a
// process) and the in-editor MCP server over HTTP (src/node/editor-server.js) with its
// commands. The engine is the same web build, read from the extension's files.

import * as vscode from 'vscode';
import { activateExtension } from './extension.js';
import { SERVER_NAME, clientConfigs, startEditorMcpServer } from './node/editor-server.js';
import { realPathEscapes } from './node/real-path.js';

const TOKEN_KEY = 'anchoredEdit.mcpToken';
let server;

export async function activate(context) {
  const api = await activateExtension(context, {
    loadWasm: (uri) => vscode.workspace.fs.readFile(uri),
    canSpawn: true,
    // The npm package's MCP server, bundled (scripts/build.mjs), run by VS Code's Node.
    nodeServer: {
      command: process.execPath,
      args: [vscode.Uri.joinPath(context.extensionUri, 'dist', 'mcp', 'server.cjs').fsPath],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    },
    http: () => server && { url: server.url, token: server.token },
    realPathEscapes,
  });

  async function start() {
    if (server) return server;
    const config = vscode.workspace.getConfiguration('anchoredEdit');
    // The token is kept in the secret store, so a copied client configuration stays valid
    // across restarts (with a fixed port).
    const token = await context.secrets.get(TOKEN_KEY);
    server = await startEditorMcpServer({
      engine: api.engine,
      session: api.session,
      runCall: (tool, args) => api.host.agentCall(tool, args),
      editorTools: api.editorTools,
      port: config.get('port', 0),
      profile: config.get('mcp.profile', 'full'),
      tools: config.get('mcp.tools', []),
      token: token || undefined,
      version: context.extension.packageJSON.version,
    });
    if (!token) await context.secrets.store(TOKEN_KEY, server.token);
    api.log(`MCP server (live documents) listening on ${server.url}`);
    api.refreshMcp();
    return server;
  }

  async function stop() {
    if (!server) return;
    const s = server;
    server = undefined;
    await s.close();
    api.log('MCP server stopped');
    api.refreshMcp();
  }

  context.subscriptions.push(
    vscode.commands.registerCommand('anchoredEdit.startMcpServer', async () => {
      const s = await start();
      vscode.window.showInformationMessage(`anchored-edit: MCP server on ${s.url} (copy the client configuration to connect an agent).`);
      return { url: s.url };
    }),
    vscode.commands.registerCommand('anchoredEdit.stopMcpServer', stop),
    vscode.commands.registerCommand('anchoredEdit.copyMcpConfig', async () => {
      const s = await start();
      const choice = await vscode.window.showQuickPick(clientConfigs({ url: s.url, token: s.token, name: SERVER_NAME }), {
        title: 'anchored-edit: copy the MCP client configuration (it contains the token)',
      });
      if (!choice) return;
      await vscode.env.clipboard.writeText(choice.text);
      vscode.window.showInformationMessage(`anchored-edit: ${choice.label} copied. Anyone with the token can edit this editor's documents.`);
    }),
    { dispose: () => stop() },
  );
  if (vscode.workspace.getConfiguration('anchoredEdit').get('startServerOnStartup', false)) {
    start().catch((e) => api.log(`MCP server not started: ${e?.message ?? e}`));
  }
  return api;
}

export async function deactivate() {
  const s = server;
  server = undefined;
  await s?.close();
}
