'use strict';
// Ready-to-paste MCP client configurations for the running server: its URL and bearer
// token in each client's own format (checked against the clients' documentation):
// - Claude Code: `claude mcp add --transport http NAME URL --header "Authorization: Bearer …"`,
//   or the same server in a project's `.mcp.json` (`mcpServers`, `"type": "http"`).
// - Codex: a `[mcp_servers.NAME]` table in ~/.codex/config.toml with `url` and
//   `http_headers` (Codex refuses an inline `bearer_token`; `bearer_token_env_var` is the
//   alternative shown in the comment), and `tool_timeout_sec` above the review timeout.
// - VS Code (Copilot agent mode): `.vscode/mcp.json`, `servers`, `"type": "http"`.
// - Cline: cline_mcp_settings.json, `mcpServers`, `"type": "streamableHttp"` (without the
//   type Cline falls back to the old SSE transport), `timeout` in seconds.

const SERVER_NAME = 'anchored-edit';

/** The clients offered, in the order the command shows them. */
const CLIENTS = [
  { id: 'claude-code', label: 'Claude Code' },
  { id: 'codex', label: 'Codex' },
  { id: 'vscode', label: 'VS Code' },
  { id: 'cline', label: 'Cline' },
];

function tomlString(s) {
  return JSON.stringify(s);
}

/**
 * The configuration text for `client` ('claude-code' | 'codex' | 'vscode' | 'cline').
 * `url`, `token`: the server's; `toolTimeoutSeconds`: how long a call may take (review
 * mode holds calls), used where the client has such a setting.
 */
function clientConfig(client, { url, token, toolTimeoutSeconds = 60 }) {
  const authorization = `Bearer ${token}`;
  const timeout = Math.max(60, Math.ceil(toolTimeoutSeconds));
  switch (client) {
    case 'claude-code': {
      const json = {
        mcpServers: { [SERVER_NAME]: { type: 'http', url, headers: { Authorization: authorization } } },
      };
      return [
        '# Claude Code: run this once (add --scope user to use it in every project):',
        `claude mcp add --transport http ${SERVER_NAME} ${url} --header "Authorization: ${authorization}"`,
        '',
        '# or put this in the project\'s .mcp.json:',
        JSON.stringify(json, null, 2),
        '',
      ].join('\n');
    }
    case 'codex':
      return [
        '# Codex: add to ~/.codex/config.toml (or a trusted project\'s .codex/config.toml).',
        `# To keep the token out of the file: export ANCHORED_EDIT_TOKEN=${token}`,
        '# and replace the http_headers line with: bearer_token_env_var = "ANCHORED_EDIT_TOKEN"',
        `[mcp_servers.${SERVER_NAME}]`,
        `url = ${tomlString(url)}`,
        `http_headers = { "Authorization" = ${tomlString(authorization)} }`,
        `tool_timeout_sec = ${timeout}`,
        '',
      ].join('\n');
    case 'vscode':
      return `${JSON.stringify({ servers: { [SERVER_NAME]: { type: 'http', url, headers: { Authorization: authorization } } } }, null, 2)}\n`;
    case 'cline':
      return `${JSON.stringify(
        {
          mcpServers: {
            [SERVER_NAME]: { type: 'streamableHttp', url, headers: { Authorization: authorization }, timeout, disabled: false },
          },
        },
        null,
        2,
      )}\n`;
    default:
      throw new Error(`unknown MCP client ${client}`);
  }
}

module.exports = { clientConfig, CLIENTS, SERVER_NAME };
