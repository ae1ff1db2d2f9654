// Who may talk to the in-process MCP server: the checks every HTTP request passes before
// the MCP transport sees it. Pure functions over headers, so each rule is tested alone.
//
// The server listens on 127.0.0.1 only, but a loopback port is reachable by every local
// process and, through DNS rebinding, by any web page the user opens: a page on
// evil.example whose name re-resolves to 127.0.0.1 sends requests with
// `Host: evil.example:PORT` and `Origin: http://evil.example`. So:
// - `Host` must name the loopback address and our port (`127.0.0.1:PORT` or
//   `localhost:PORT`);
// - `Origin`, when a browser sends one, must be our own origin (or one the host
//   allows explicitly);
// - every request carries `Authorization: Bearer <token>`, a random token the editor
//   hands to the agent out of band, compared in constant time;
// - request bodies are limited in size.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh bearer token: 32 random bytes, base64url (43 characters). */
export function newToken() {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether `header` (an Authorization header value or undefined) carries `token`.
 * Both sides are hashed first, so the comparison takes the same time whatever the
 * length or content of the guess.
 */
export function bearerMatches(header, token) {
  if (typeof header !== 'string') return false;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  const given = match ? match[1] : '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && match !== null;
}

/** The Host header values that name this server. */
export function allowedHosts(port) {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function hostAllowed(host, port) {
  return typeof host === 'string' && allowedHosts(port).includes(host.toLowerCase());
}

/** No Origin (a non-browser client) is fine; a browser's must be ours or allowed. */
export function originAllowed(origin, port, extra = []) {
  if (origin === undefined) return true;
  const own = allowedHosts(port).map((h) => `http://${h}`);
  return typeof origin === 'string' && [...own, ...extra].includes(origin.toLowerCase());
}

/**
 * Checks one request's headers. Returns null when it may proceed, or the refusal
 * {status, message, headers?}. Order matters: Host and Origin first (a rebinding page
 * learns nothing about the token), then the token.
 */
export function checkRequest(headers, { port, token, allowedOrigins = [] }) {
  if (!hostAllowed(headers.host, port)) {
    return { status: 403, message: `Forbidden: Host must be 127.0.0.1:${port} or localhost:${port}` };
  }
  if (!originAllowed(headers.origin, port, allowedOrigins)) {
    return { status: 403, message: 'Forbidden: foreign Origin' };
  }
  if (!bearerMatches(headers.authorization, token)) {
    return {
      status: 401,
      message: 'Unauthorized: send Authorization: Bearer <token>',
      headers: { 'WWW-Authenticate': 'Bearer' },
    };
  }
  return null;
}
