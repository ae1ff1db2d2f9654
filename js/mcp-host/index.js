// The in-process MCP server for editor hosts (Pulsar, VS Code): the engine's tools over
// MCP Streamable HTTP on 127.0.0.1, for an agent to edit the editor's live buffers.
//
// The host supplies the engine (the anchored-edit package), `read(path)` (the buffer's
// or file's text) and `apply(files)` (apply the engine's changes: each file's `edits`
// or `new_text`, `deleted`, `moved_to`). Everything else is here, once:
// - every tool from `toolSchemas()` is registered with the engine's own description and
//   JSON Schema; arguments go to the engine unchanged (it parses them strictly, with
//   aliases and LLM-facing messages);
// - a call runs in the engine, then, when it succeeded and is not a dry run, the host
//   applies its changes. Calls are serialised: the next call reads the texts only
//   after the previous call's changes were applied;
// - a refusal is a normal tool result with `isError: true`: the message as the first text
//   content, the result JSON (without `new_text`) as the second and as `structuredContent`
//   (the native `anchored-edit mcp` shape); changes the host fails to apply are refused
//   as `write_failed`, as the CLI does;
// - the HTTP layer's checks (guard.js): loopback only, bearer token, Host/Origin
//   against DNS rebinding, body size limit;
// - an editor host may add its editor tools (`editorTools`: js/host-policy/editor-tools.js
//   over the host's adapter): listed after the engine's, run in the same queue (so a
//   save_file sees the previous call's edit applied).

import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { checkRequest, newToken } from './guard.js';
import { toolResult } from './result.js';
import { changesToWrite, createRefusals, editingTools, notApplied, whyOf } from '../host-policy/index.js';

export { newToken, checkRequest } from './guard.js';
export { llmView, toolResult } from './result.js';

/** Default request body limit: large enough for a whole-file create_file or a big patch. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Default idle time after which an MCP session is forgotten: longer than an agent's pause
 * between turns, short enough that abandoned sessions (each an McpServer with every tool
 * registered, ~50 KB) do not pile up. A client whose session expired gets HTTP 404 and
 * initialises again (MCP Streamable HTTP, session management).
 */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/** Default cap on live MCP sessions: a few agents, each reconnecting now and then. */
export const DEFAULT_MAX_SESSIONS = 32;

/**
 * The refusal for changes the host did not apply. A thrown host-policy `RefusalError`
 * carries the engine-worded result (e.g. `stale_buffer` when the buffer changed while
 * the edit waited for review, or the user's rejection); a thrown value with a string
 * `kind` and `message` is the host's own refusal (as with `read`); anything else is
 * `write_failed`, worded by the engine.
 */
function applyFailed(refusals, tool, e) {
  if (e !== null && typeof e === 'object' && e.result && e.result.ok === false) return toolResult({ ...e.result, tool });
  const own = e !== null && typeof e === 'object' && typeof e.kind === 'string' && typeof e.message === 'string';
  if (own) return toolResult({ ok: false, tool, warnings: [], files: [], error: { kind: e.kind, message: e.message } });
  return toolResult(refusals.writeFailed(tool, whyOf(e)));
}

function errorResult(message) {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Runs tool calls against the host: engine call, then `apply` for committed edits, one
 * call at a time. Used by the MCP server; usable alone by a host's other entry points.
 * A host that runs whole calls itself (asynchronous reads, review before applying) passes
 * `call(tool, args)` instead of `read`/`apply`: it resolves to the engine's result, or to
 * the host's own refusal in the same shape. `engine`: the package (its `hostRefusal`).
 */
export function createToolRunner({ engine, session, read, list, apply, call, editorTools }) {
  const files = list ? { read, list } : { read };
  const refusals = createRefusals(engine);
  // Only a tool that edits has changes to apply (its annotations say so): a reading
  // tool's result is returned as it is, whatever fields it carries.
  const edits = editingTools(engine.toolSchemas());
  let queue = Promise.resolve();

  async function runHostCall(tool, args) {
    try {
      return toolResult(await call(tool, args ?? {}));
    } catch (e) {
      return errorResult(`${e?.message ?? e}`);
    }
  }

  async function runOnce(tool, args) {
    // A host that runs whole calls runs its editor tools too (in its own queue).
    if (call) return runHostCall(tool, args);
    if (editorTools?.has(tool)) return toolResult(await editorTools.call(tool, args ?? {}));
    let result;
    try {
      result = session.call({ tool, arguments: args ?? {} }, files);
    } catch (e) {
      return errorResult(`${e?.message ?? e}`);
    }
    if (changesToWrite(result, edits).length > 0) {
      try {
        await apply(result.files, { tool, arguments: args });
      } catch (e) {
        notApplied(session);
        return applyFailed(refusals, tool, e);
      }
    }
    return toolResult(result);
  }

  return function run(tool, args) {
    const next = queue.then(() => runOnce(tool, args));
    queue = next.catch(() => {});
    return next;
  };
}

/**
 * An McpServer listing the engine tools of `profile` (default 'full'; `tools`, an array
 * of names, narrows it: engine.profileSchemas) and the editor tools, if any, backed by
 * `run`. Every engine tool and every harness's tool name is callable whatever is listed.
 */
export function createMcpServer({ engine, run, editorTools, name = 'anchored-edit', version = '0.0.0', profile = 'full', tools = [] }) {
  const listed = engine.profileSchemas ? engine.profileSchemas(profile, tools) : engine.toolSchemas();
  const schemas = [...listed, ...(editorTools?.schemas ?? [])];
  const server = new McpServer({ name, version }, { capabilities: { tools: {} } });
  // The engine validates arguments itself (strictly, with aliases and messages written
  // for LLMs), so the SDK's validation must let every argument through unchanged.
  const passThrough = z.looseObject({});
  for (const tool of schemas) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: passThrough },
      (args) => run(tool.name, args),
    );
  }
  // Publish the engine's own JSON Schemas (the SDK would list the pass-through schema).
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: schemas.map(({ name: n, description, inputSchema, annotations }) => ({ name: n, description, inputSchema, annotations })),
  }));
  return server;
}

/**
 * The live MCP sessions: id → {transport, server, lastUsed, busy (POSTs in flight)}. Sessions idle longer
 * than `idleMs` are closed by a sweep (an unref'd timer, so it never keeps the process
 * alive) and before each new session; `makeRoom()` closes the longest-idle sessions
 * until a new one fits under `max`. Closing a session's server closes its transport,
 * whose onclose removes it here.
 */
function createSessionTable({ idleMs, max }) {
  const live = new Map();
  const close = (id, entry) => {
    live.delete(id);
    return entry.server.close().catch(() => {});
  };
  async function sweep() {
    const now = Date.now();
    for (const [id, entry] of live) if (entry.busy === 0 && now - entry.lastUsed >= idleMs) await close(id, entry);
  }
  const timer = setInterval(() => sweep(), Math.max(10, Math.min(idleMs / 2, 60_000)));
  timer.unref?.();
  return {
    get: (id) => {
      const entry = live.get(id);
      if (entry && entry.busy === 0 && Date.now() - entry.lastUsed >= idleMs) {
        close(id, entry);
        return undefined;
      }
      return entry;
    },
    add: (id, entry) => live.set(id, entry),
    delete: (id, entry) => {
      if (live.get(id) === entry) live.delete(id);
    },
    size: () => live.size,
    /** Closes expired sessions, then the longest-idle ones until one more fits; false when all are busy. */
    async makeRoom() {
      await sweep();
      while (live.size >= max) {
        let oldest = null;
        for (const [id, entry] of live) {
          if (entry.busy === 0 && (oldest === null || entry.lastUsed < oldest[1].lastUsed)) oldest = [id, entry];
        }
        if (oldest === null) return false;
        await close(...oldest);
      }
      return true;
    },
    async closeAll() {
      clearInterval(timer);
      for (const [id, entry] of [...live]) await close(id, entry);
    },
  };
}

function refuse(res, status, message, headers = {}, code = -32000) {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Reads a request body up to `limit` bytes; resolves to null when it is larger. */
function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/**
 * Starts the server. Options:
 * - `engine`: the anchored-edit package module ({Session, toolSchemas}); required.
 * - `read(path)`: the text (an editor buffer's), the file's bytes as a `Uint8Array` (a
 *   file read from disk: the engine decodes it, and `apply` writes each changed file
 *   as `engine.encodeText(new_text, encoding)` when it names an `encoding`), `undefined`
 *   for no such file, or throw (with `kind`, e.g. "path_outside_root", to choose the
 *   refusal). Synchronous.
 *   `list(folder)` (optional): the files under a root-relative folder, ignore rules
 *   applied, for the project tools (DESIGN contract 1). Synchronous.
 * - `apply(files, call)`: applies a committed call's `files[]`; may be async; throw to
 *   report failure (a thrown `{kind, message}` is the refusal the agent reads, as is).
 * - `call(tool, args)`: instead of `read` and `apply`, for hosts that run whole calls
 *   themselves; resolves to the result object (the engine's, or the host's refusal).
 * - `editorTools`: the host's editor tools (js/host-policy/editor-tools.js), published
 *   beside the engine's and run in the same queue (by `call`, when the host gives one).
 * - `session`: an engine Session to use (e.g. with loaded statistics); default new.
 * - `port` (default 0: any free port), `token` (default random), `maxBodyBytes`,
 *   `allowedOrigins` (extra browser origins, e.g. a webview's), `name`, `version`.
 * - `profile` (default 'full') and `tools` (names): the tool set listed, as
 *   `anchored-edit mcp --profile NAME --tools a,b` (engine.profileSchemas).
 * - `sessionIdleMs` (default DEFAULT_SESSION_IDLE_MS): an MCP session without a request
 *   for that long is closed; `maxSessions` (default DEFAULT_MAX_SESSIONS): an initialize
 *   beyond the cap closes the session idle the longest (never one serving a request; when
 *   every session is busy the initialize gets 503). A request naming a closed or unknown
 *   session gets 404, on which MCP clients initialise again.
 * Resolves to {url, port, token, session, close()}.
 */
export async function startMcpHttpServer(options) {
  const {
    engine,
    read,
    list,
    apply,
    call,
    editorTools,
    session = new engine.Session(),
    port = 0,
    token = newToken(),
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    allowedOrigins = [],
    name = 'anchored-edit',
    version = '0.0.0',
    sessionIdleMs = DEFAULT_SESSION_IDLE_MS,
    profile = 'full',
    tools = [],
    maxSessions = DEFAULT_MAX_SESSIONS,
  } = options;
  if (typeof call !== 'function' && (typeof read !== 'function' || typeof apply !== 'function')) {
    throw new TypeError('startMcpHttpServer: read(path) and apply(files), or call(tool, args), are required');
  }
  const run = createToolRunner({ engine, session, read, list, apply, call, editorTools });
  const sessions = createSessionTable({ idleMs: sessionIdleMs, max: maxSessions });
  let listeningPort = port;

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp');
    const refusal = checkRequest(req.headers, { port: listeningPort, token, allowedOrigins });
    if (refusal) return refuse(res, refusal.status, refusal.message, refusal.headers);
    if (!['POST', 'GET', 'DELETE'].includes(req.method)) {
      return refuse(res, 405, 'Method not allowed', { Allow: 'GET, POST, DELETE' });
    }

    let body;
    if (req.method === 'POST') {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBodyBytes) {
        req.resume();
        return refuse(res, 413, `Payload too large: at most ${maxBodyBytes} bytes`, { Connection: 'close' });
      }
      const text = await readBody(req, maxBodyBytes);
      if (text === null) {
        return refuse(res, 413, `Payload too large: at most ${maxBodyBytes} bytes`, { Connection: 'close' });
      }
      try {
        body = JSON.parse(text);
      } catch {
        return refuse(res, 400, 'Parse error: the body is not JSON');
      }
    }

    const sessionId = req.headers['mcp-session-id'];
    let entry = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!entry) {
      if (sessionId !== undefined) {
        // -32001, as the SDK's own transport answers an unknown session.
        return refuse(res, 404, 'Session not found: it expired or never existed; send a new initialize request without Mcp-Session-Id', {}, -32001);
      }
      if (req.method !== 'POST' || !isInitializeRequest(body)) {
        return refuse(res, 400, 'Bad request: start with an initialize request');
      }
      if (!(await sessions.makeRoom())) {
        return refuse(res, 503, `Too many MCP sessions (${maxSessions}), all busy; retry shortly`, { 'Retry-After': '5' });
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => sessions.add(id, entry),
      });
      const server = createMcpServer({ engine, run, editorTools, name, version, profile, tools });
      entry = { transport, server, lastUsed: Date.now(), busy: 0 };
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId, entry);
      };
      await server.connect(transport);
    }
    // A POST in flight (a call, maybe held for review) keeps its session; an open GET
    // stream does not: clients keep one open for as long as they live, and a session
    // closed under it ends the stream, after which the client's next POST gets 404.
    const counts = req.method === 'POST';
    if (counts) entry.busy += 1;
    entry.lastUsed = Date.now();
    try {
      await entry.transport.handleRequest(req, res, body);
    } finally {
      if (counts) entry.busy -= 1;
      entry.lastUsed = Date.now();
    }
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((e) => refuse(res, 500, `Internal error: ${e?.message ?? e}`));
  });
  await new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  listeningPort = http.address().port;

  return {
    url: `http://127.0.0.1:${listeningPort}/mcp`,
    port: listeningPort,
    token,
    session,
    /** The number of live MCP sessions (for tests and status). */
    sessionCount: () => sessions.size(),
    async close() {
      await sessions.closeAll();
      http.closeAllConnections?.();
      await new Promise((resolve) => http.close(() => resolve()));
    },
  };
}
