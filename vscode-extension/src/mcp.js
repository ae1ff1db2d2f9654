// MCP server definitions for VS Code's own MCP client (Copilot agent mode):
// - `anchored-edit mcp --root <folder>` (over stdio) per workspace folder on disk: the
//   agent edits files on disk; needs a host that can start processes (desktop). The
//   native CLI when `anchoredEdit.cliPath` names one, else the npm package's Node server
//   bundled with the extension (run by VS Code's own Node: `nodeServer`);
// - the in-editor Streamable HTTP server (desktop, node.js) while it runs: the agent
//   edits the live documents, with review mode.

import * as vscode from 'vscode';

/**
 * The definitions to offer. `folders`: workspace folders; `cliPath`: the native CLI's
 * path ('' or absent: none configured); `nodeServer`: {command, args, env} starting the
 * bundled Node server (args before `mcp`); `canSpawn`: whether this extension host can
 * start processes; `http`: {url, token} of the in-editor server when it runs;
 * `profile`, `tools`: the `anchoredEdit.mcp.*` settings, passed as `--profile` / `--tools`.
 */
export function serverDefinitions({ folders = [], cliPath, nodeServer, canSpawn, http, version, profile = 'full', tools = [] }) {
  const definitions = [];
  const stdio = cliPath
    ? { command: cliPath, args: [], env: {} }
    : (nodeServer ?? { command: 'anchored-edit', args: [], env: {} });
  if (canSpawn) {
    for (const folder of folders) {
      if (folder.uri.scheme !== 'file') continue;
      const definition = new vscode.McpStdioServerDefinition(
        `anchored-edit (files of ${folder.name})`,
        stdio.command,
        [...stdio.args, 'mcp', '--root', folder.uri.fsPath, ...profileArgs(profile, tools)],
        { ...stdio.env },
        version,
      );
      definition.cwd = folder.uri;
      definitions.push(definition);
    }
  }
  if (http) {
    definitions.push(
      new vscode.McpHttpServerDefinition(
        'anchored-edit (this editor: live documents)',
        vscode.Uri.parse(http.url),
        { Authorization: `Bearer ${http.token}` },
        version,
      ),
    );
  }
  return definitions;
}

/** Registers the provider; `current()` returns serverDefinitions' options at each ask. */
export function registerMcpProvider(id, current) {
  const changed = new vscode.EventEmitter();
  const registration = vscode.lm.registerMcpServerDefinitionProvider(id, {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => serverDefinitions(current()),
  });
  return {
    refresh: () => changed.fire(),
    dispose: () => {
      registration.dispose();
      changed.dispose();
    },
  };
}

/** `--profile NAME` / `--tools a,b` for a setting other than the default (full, all). */
export function profileArgs(profile, tools) {
  const args = profile && profile !== 'full' ? ['--profile', profile] : [];
  return tools?.length ? [...args, '--tools', tools.join(',')] : args;
}
