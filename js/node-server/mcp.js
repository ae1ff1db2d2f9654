// `anchored-edit mcp` on the wasm engine: every tool over MCP stdio (official SDK).
//
// A thin adapter, like the native cli/src/mcp.rs: tool names, descriptions, input
// schemas and annotations come from the engine's profileSchemas() (--profile, --tools; calls
// take every tool whatever is listed), the instructions from
// serverInstructions(), each tools/call runs through host.js's `execute` (engine, then
// an all-or-nothing write), and one Session lives for the whole connection so that
// statistics and repeated-failure advice carry across calls. A refused edit is a normal
// tool result with isError: true (the shape of js/mcp-host/result.js's toolResult, the
// same as the native server's). Calls run one at a time: each is synchronous from the
// engine call to the last rename.
//
// The low-level `Server` is used rather than `McpServer`: the engine owns the JSON
// Schemas and parses arguments itself (with aliases and LLM-facing messages), so there is
// nothing for zod to validate.
//
// stdin is read through js/mcp-host/stdio-gate.js (the native server's line gate: every
// line answered, lines up to 16 MiB, bad lines answered without closing, requests that
// are not UTF-8 or escape lone surrogates refused), and `server/discover` (protocol
// 2026-07-28, tried first by some clients) is answered as the native server does.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { profileSchemas, serverInstructions } from 'anchored-edit';
import { toolResult } from '../mcp-host/result.js';
import { GatedStdioTransport } from '../mcp-host/stdio-gate.js';
import { execute } from './host.js';

/** The protocol versions `server/discover` lists: the native server's (rmcp's). */
export const SUPPORTED_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** The answer to `server/discover`, as the native server gives it. */
function discover(request, version) {
  const meta = request.params?._meta;
  if (typeof meta?.[META_VERSION] !== 'string' || typeof meta?.[META_CAPABILITIES] !== 'object' || meta[META_CAPABILITIES] === null) {
    throw new McpError(ErrorCode.InvalidParams,
      `request _meta is missing or has malformed required fields: ${META_VERSION}, ${META_CAPABILITIES}`);
  }
  return {
    resultType: 'complete',
    supportedVersions: SUPPORTED_VERSIONS,
    capabilities: { tools: {} },
    instructions: serverInstructions(),
    ttlMs: 0,
    cacheScope: 'private',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'anchored-edit', version } },
  };
}

/**
 * The MCP server for `session` on `disk`; `stats` (a StatsFile) or null; `listed`: the
 * tool list (profileSchemas(profile, tools)), the `full` profile when not given. Calls
 * accept every tool and every harness's tool names whatever is listed.
 */
export function createServer({ session, disk, stats, version, listed }) {
  const tools = (listed ?? profileSchemas('full')).map(({ name, description, inputSchema, annotations }) => ({
    name,
    description,
    inputSchema,
    annotations,
  }));
  const server = new Server(
    { name: 'anchored-edit', version },
    { capabilities: { tools: {} }, instructions: serverInstructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.fallbackRequestHandler = async (request) => {
    if (request.method === 'server/discover') return discover(request, version);
    throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
  };
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const run = () => execute(session, disk, { tool: name, arguments: args ?? {} });
    try {
      return toolResult(stats ? stats.around(session, run) : run());
    } catch (e) {
      // An engine bug (EnginePanicError): the call changed nothing; the session restarted.
      return { content: [{ type: 'text', text: `${e?.message ?? e}` }], isError: true };
    }
  });
  return server;
}

/** Serves on stdin/stdout until the client closes the connection. */
export async function serve(options) {
  const server = createServer(options);
  await server.connect(new GatedStdioTransport());
}
