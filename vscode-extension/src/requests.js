// Tool-call requests as the commands receive them. No `vscode` import (tested in Node).

/** A request from a command argument or the user's text: objects as they are, text parsed. */
export function requestFrom(value) {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value; // the engine explains what is wrong with the text
  }
}

/**
 * The call with `dry_run: true` added when it is an object whose tool takes `dry_run`
 * (per the engine's schemas); anything else unchanged (the preview then shows what the
 * call would write, and nothing is written until Apply either way).
 */
export function withDryRun(request, schemas) {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return request;
  const tool = request.tool ?? request.name;
  const argsKey = 'input' in request && !('arguments' in request) ? 'input' : 'arguments';
  const args = request[argsKey] ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args) || 'dryRun' in args) return request;
  const schema = schemas.find((s) => s.name === tool);
  if (!schema?.inputSchema?.properties?.dry_run) return request;
  return { ...request, [argsKey]: { ...args, dry_run: true } };
}
