// Share links: the buffers and the tool call in the URL fragment, so a link reproduces
// exactly what its author saw (the fragment never reaches a server).
//
// Format: `#play=1.` + base64url(deflate-raw(UTF-8(JSON))) where the JSON is
// {files: [[path, text], …], active, call} and `call` is the JSON editor's text as
// typed (even when it does not parse). Texts go through JSON strings and UTF-8, so CRLF,
// tabs, a BOM and any non-ASCII text round-trip byte for byte (lone UTF-16 surrogates,
// which UTF-8 cannot carry, become U+FFFD as everywhere texts cross into the engine).

const PREFIX = 'play=1.';

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64Url(bytes) {
  let bin = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    bin += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b64 = text.replaceAll('-', '+').replaceAll('_', '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** The fragment (without '#') for {files: [[path, text]], active, call}. */
export async function encodeShare(state) {
  const json = JSON.stringify({ files: state.files, active: state.active, call: state.call });
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  return PREFIX + toBase64Url(packed);
}

/**
 * The state a fragment holds, or null when the fragment is not a share link. Throws
 * an Error with a readable message when it is one but cannot be read (cut short).
 */
export async function decodeShare(fragment) {
  const hash = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (!hash.startsWith(PREFIX)) return null;
  let state;
  try {
    const bytes = await pipe(fromBase64Url(hash.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
    state = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new Error('This share link could not be read: it may have been cut short when it was copied.');
  }
  const files = Array.isArray(state?.files) ? state.files : [];
  if (!files.every((f) => Array.isArray(f) && typeof f[0] === 'string' && typeof f[1] === 'string')) {
    throw new Error('This share link does not hold files in the expected form.');
  }
  return {
    files,
    active: typeof state.active === 'string' ? state.active : files[0]?.[0],
    call: typeof state.call === 'string' ? state.call : '',
  };
}
