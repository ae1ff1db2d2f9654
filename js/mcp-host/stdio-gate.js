// The line gate of the npm package's MCP stdio server: the native server's
// cli/src/mcp_gate.rs, in JavaScript, as an MCP SDK transport (start / send / close,
// onmessage / onerror / onclose). Every line a client sends gets an answer, as JSON-RPC
// 2.0 requires; the SDK's own stdio transport drops what it cannot parse (the client
// waits forever) and closes on a line over its buffer.
//
// Per line (never holding more than MAX_LINE bytes of it):
// - blank: ignored;
// - longer than MAX_LINE: skipped to its end, answered -32600 naming the limit; the
//   server keeps serving;
// - not UTF-8, or a string with a lone UTF-16 surrogate (`"\ud800"`: JSON syntax, not
//   Unicode): -32700 with the request's id when it can be read (nothing is decoded into
//   U+FFFD, so a bad path or text is never written);
// - not JSON: -32700, id null;
// - not one JSON-RPC 2.0 object (a batch, a number, no "jsonrpc": "2.0", a bad id or
//   method): -32600, with the id when it is valid;
// - tools/call whose params are not {name: string, arguments?: object}: -32602;
// - anything else goes to the SDK's server.
// Notifications never get an answer.

/** The largest message accepted (bytes, without its line break): the native server's. */
export const MAX_LINE = 16 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

const error = (id, code, message) => ({ jsonrpc: '2.0', id, error: { code, message } });
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const validId = (id) => typeof id === 'string' || typeof id === 'number';

/** Whether every string in `value` (keys included) is well-formed UTF-16. */
function wellFormed(value) {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (isObject(value)) return Object.entries(value).every(([k, v]) => k.isWellFormed() && wellFormed(v));
  return true;
}

/** The id of the request in `text` (lossily decoded: only to answer it), or null. */
function readableId(text) {
  try {
    const v = JSON.parse(text);
    return isObject(v) && validId(v.id) ? v.id : null;
  } catch {
    return null;
  }
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');

/**
 * What to do with one whole line (a Buffer without its line break):
 * {ignore: true} | {answer: response} | {forward: message}.
 */
export function judge(line) {
  let bytes = line;
  if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0c)) return { ignore: true };
  let text;
  try {
    text = strict.decode(bytes);
  } catch {
    return {
      answer: error(readableId(lossy.decode(bytes)), PARSE_ERROR,
        'Parse error: the line is not UTF-8. Send each message as one line of UTF-8 JSON.'),
    };
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return {
      answer: error(null, PARSE_ERROR,
        `Parse error: ${e.message}. Send each message as one JSON object on its own line (no NaN or Infinity, strings escaped).`),
    };
  }
  if (!wellFormed(value)) {
    return {
      answer: error(isObject(value) && validId(value.id) ? value.id : null, PARSE_ERROR,
        'Parse error: a string escapes a lone UTF-16 surrogate (such as \\ud800), which is not Unicode text. Send characters as UTF-8 or as a surrogate pair.'),
    };
  }
  return judgeValue(value);
}

function judgeValue(value) {
  if (!isObject(value)) {
    const why = Array.isArray(value)
      ? 'batches (arrays) are not part of MCP; send one message per line'
      : 'a message is a JSON object';
    return { answer: error(null, INVALID_REQUEST, `Invalid Request: ${why}.`) };
  }
  const hasId = Object.hasOwn(value, 'id');
  const idOk = !hasId || validId(value.id);
  const replyId = idOk && hasId ? value.id : null;
  const isResponse = Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error');
  const invalid = (why) => ({
    answer: error(replyId, INVALID_REQUEST,
      `Invalid Request: ${why}. A request is {"jsonrpc": "2.0", "id": <number or string>, "method": <string>, "params": <object>}.`),
  });
  if (value.jsonrpc !== '2.0') return invalid('`jsonrpc` must be "2.0"');
  if (!idOk) return invalid('`id` must be a number or a string');
  const hasMethod = Object.hasOwn(value, 'method');
  if (!hasMethod && !isResponse) return invalid('it has no `method`');
  if (hasMethod && typeof value.method !== 'string') return invalid('`method` must be a string');
  const isRequest = hasMethod && hasId;
  if (value.method === 'tools/call') {
    const why = toolCallParamsProblem(value.params);
    if (why) return isRequest ? { answer: error(replyId, INVALID_PARAMS, why) } : { ignore: true };
  }
  return { forward: value };
}

function toolCallParamsProblem(params) {
  const shape = 'Send params as {"name": <tool name>, "arguments": {…}}.';
  if (!isObject(params)) return `Invalid params: tools/call needs params as an object. ${shape}`;
  if (typeof params.name !== 'string') return `Invalid params: \`name\` must be the tool's name, a string. ${shape}`;
  if (params.arguments !== undefined && params.arguments !== null && !isObject(params.arguments)) {
    return `Invalid params: \`arguments\` must be an object. ${shape}`;
  }
  return null;
}

/**
 * Splits a byte stream into lines, holding at most MAX_LINE bytes of one; calls
 * `onLine(buffer)` for each whole line and `onOversized(length)` for a longer one.
 */
export function lineSplitter(onLine, onOversized) {
  let parts = [];
  let total = 0;
  return (chunk) => {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      total += piece.length;
      if (total <= MAX_LINE) parts.push(piece);
      else parts = []; // This line will not be decoded: keep nothing of it.
      if (nl < 0) return;
      if (total > MAX_LINE) onOversized(total);
      else onLine(parts.length === 1 ? parts[0] : Buffer.concat(parts));
      parts = [];
      total = 0;
      start = nl + 1;
    }
  };
}

/** The MCP SDK transport over stdin/stdout with the gate in front. */
export class GatedStdioTransport {
  constructor(stdin = process.stdin, stdout = process.stdout) {
    this._stdin = stdin;
    this._stdout = stdout;
    this.onmessage = undefined;
    this.onerror = undefined;
    this.onclose = undefined;
  }

  async start() {
    const split = lineSplitter(
      (line) => {
        const verdict = judge(line);
        if (verdict.answer) this.#write(verdict.answer);
        else if (verdict.forward) this.onmessage?.(verdict.forward);
      },
      (length) => this.#write(error(null, INVALID_REQUEST,
        `Invalid Request: the message is ${length} bytes, over the ${MAX_LINE}-byte limit, and was not read. Send smaller calls (split a large edit into several).`)),
    );
    this._onData = (chunk) => split(chunk);
    this._onEnd = () => this.close();
    this._onError = (e) => this.onerror?.(e);
    this._stdin.on('data', this._onData);
    this._stdin.on('end', this._onEnd);
    this._stdin.on('error', this._onError);
  }

  #write(message) {
    this._stdout.write(`${JSON.stringify(message)}\n`);
  }

  async send(message) {
    this.#write(message);
  }

  async close() {
    this._stdin.off('data', this._onData);
    this._stdin.off('end', this._onEnd);
    this._stdin.off('error', this._onError);
    this._stdin.pause();
    this.onclose?.();
  }
}
