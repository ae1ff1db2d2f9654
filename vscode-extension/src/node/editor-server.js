// Desktop only: the in-editor MCP server (js/mcp-host: Streamable HTTP on 127.0.0.1,
// bearer token, Host/Origin checks, body limit) serving the engine's tools over the live
// documents, and the client configurations that point an agent at it. No `vscode`
// import: tested in plain Node (test/node/).

import { startMcpHttpServer } from '../../../js/mcp-host/index.js';

export const SERVER_NAME = 'anchored-edit-vscode';

/** The environment variable Codex's configuration names for the token. */
export const TOKEN_ENV = 'ANCHORED_EDIT_VSCODE_TOKEN';

/**
 * Starts the server. `runCall(tool, args)` runs one call in the editor (the host's
 * queue, review mode, WorkspaceEdit; the editor tools too) and resolves to the result;
 * `editorTools` (js/host-policy/editor-tools.js) are listed beside the engine's tools;
 * `profile` and `tools` choose the engine tools listed (`anchored-edit mcp --profile`).
 * Resolves to {url, port, token, close()}.
 */
export function startEditorMcpServer({ engine, session, runCall, editorTools, port = 0, token, version, profile = 'full', tools = [] }) {
  return startMcpHttpServer({
    profile,
    tools,
    engine,
    session,
    call: runCall,
    editorTools,
    port,
    token,
    name: SERVER_NAME,
    version,
  });
}

/** The ways to hand the running server to an agent: [{label, detail, text}]. */
export function clientConfigs({ url, token, name = SERVER_NAME }) {
  const headers = { Authorization: `Bearer ${token}` };
  return [
    {
      label: 'Claude Code (command)',
      detail: 'claude mcp add --transport http …',
      text: `claude mcp add --transport http ${name} ${url} --header "Authorization: Bearer ${token}"`,
    },
    {
      label: 'Codex (~/.codex/config.toml)',
      detail: '[mcp_servers.…] url, bearer_token_env_var (Codex reads the token from the environment)',
      text: [
        `# Before starting Codex: export ${TOKEN_ENV}='${token}'`,
        `[mcp_servers.${name}]`,
        `url = "${url}"`,
        `bearer_token_env_var = "${TOKEN_ENV}"`,
        '',
      ].join('\n'),
    },
    {
      label: 'VS Code mcp.json (another window, or a workspace .vscode/mcp.json)',
      detail: '{"servers": {…: {"type": "http", …}}}',
      text: JSON.stringify({ servers: { [name]: { type: 'http', url, headers } } }, null, 2),
    },
    {
      label: 'Cline, Cursor and other mcpServers JSON',
      detail: '{"mcpServers": {…: {"type": "streamableHttp", "url", "headers"}}}',
      text: JSON.stringify({ mcpServers: { [name]: { type: 'streamableHttp', url, headers } } }, null, 2),
    },
  ];
}
