'use strict';
// A minimal MCP client over Streamable HTTP using Node's `http` module, for the specs
// that run inside Pulsar: there, `fetch` is Chromium's and a page loaded from file://
// sends CORS preflights the server (rightly) does not serve, so the SDK client cannot
// be used from the editor's window. The Node tests use this helper too
// (test/e2e.test.js), so it is checked against the real server on every run.

const http = require('http');

function post(url, headers, message) {
  const target = new URL(url);
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        // A new connection per request: no pooled socket outlives a stopped server.
        agent: false,
        headers: {
          Host: target.host,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Content-Length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Parses a JSON-RPC response body: plain JSON, or the `data:` lines of an SSE stream. */
function parseBody(body) {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return JSON.parse(trimmed);
  const data = trimmed
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trim());
  return JSON.parse(data[data.length - 1]);
}

/**
 * Connects (initialize + initialized) and resolves to
 * {callTool(name, args) → MCP tool result, close()}. Rejects with an Error carrying
 * `status` when the server refuses the connection (401, 403).
 */
async function connectMcp(url, token, { origin } = {}) {
  const base = {};
  if (token !== undefined) base.Authorization = `Bearer ${token}`;
  if (origin !== undefined) base.Origin = origin;
  const init = await post(url, base, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'anchored-edit-spec', version: '1' } },
  });
  if (init.status !== 200) throw Object.assign(new Error(`initialize: HTTP ${init.status} ${init.body}`), { status: init.status });
  const session = init.headers['mcp-session-id'];
  const protocol = parseBody(init.body).result.protocolVersion;
  const headers = { ...base, 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': protocol };
  await post(url, headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  let nextId = 2;
  return {
    async callTool(name, args) {
      const res = await post(url, headers, { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } });
      if (res.status !== 200) throw Object.assign(new Error(`tools/call: HTTP ${res.status} ${res.body}`), { status: res.status });
      const message = parseBody(res.body);
      if (message.error) throw new Error(`tools/call: ${message.error.message}`);
      return message.result;
    },
    async close() {
      await new Promise((resolve) => {
        const target = new URL(url);
        const req = http.request(
          { host: target.hostname, port: target.port, path: target.pathname, method: 'DELETE', agent: false, headers: { Host: target.host, ...headers } },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', () => resolve());
        req.end();
      });
    },
  };
}

module.exports = { connectMcp };
