// Whitespace made visible in the diagnostics: the per-line differences a refusal lists
// (`error.diagnostics.lines`) are mostly about bytes a person cannot see — tabs against
// spaces, a stray \r, a no-break space. These helpers render a line with a symbol for
// each such character and mark where the two lines part.

const SYMBOLS = {
  ' ': '·',
  '\t': '→',
  '\u00a0': '⍽',
};
// Characters shown as a small labelled badge: few fonts have the Control Pictures
// block (␍, ␊), and a badge cannot be mistaken for text.
const BADGES = {
  '\r': 'CR',
  '\n': 'LF',
  '\ufeff': 'BOM',
};
const WHITESPACE = /[\s\u00a0\ufeff]/u;

/** A labelled badge for an invisible character (CR, LF, BOM). */
export function badge(label) {
  const span = document.createElement('span');
  span.className = 'ws ws-badge';
  span.textContent = label;
  span.title = { CR: 'carriage return (\\r)', LF: 'line feed (\\n)', BOM: 'byte order mark (U+FEFF)' }[label] ?? label;
  return span;
}

function appendVisible(parent, text, marked) {
  let run = '';
  const flush = () => {
    if (run) parent.append(run);
    run = '';
  };
  for (const ch of text) {
    if (ch in BADGES) {
      flush();
      parent.append(badge(BADGES[ch]));
    } else if (ch in SYMBOLS || WHITESPACE.test(ch)) {
      flush();
      const span = document.createElement('span');
      span.className = `ws${ch === '\t' ? ' ws-tab' : ''}`;
      span.textContent = SYMBOLS[ch] ?? '␣';
      span.title = ch === '\t' ? 'tab' : ch === ' ' ? 'space' : `U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      parent.append(span);
    } else {
      run += ch;
    }
  }
  flush();
  if (marked) parent.classList.add('differs');
}

const leading = (s) => s.length - s.replace(/^[ \t\u00a0\ufeff]+/, '').length;

/**
 * Two lines as DOM nodes, whitespace as symbols, the parts that differ marked
 * (`.differs`): the leading whitespace when it differs, then the middle between the
 * longest common prefix and suffix of the rest.
 */
export function renderPair(expected, found) {
  const render = (s, other) => {
    const root = document.createElement('code');
    root.className = 'visible-line';
    const li = leading(s);
    const lo = leading(other);
    const indent = s.slice(0, li);
    const rest = s.slice(li);
    const otherRest = other.slice(lo);
    const indentNode = document.createElement('span');
    appendVisible(indentNode, indent, indent !== other.slice(0, lo));
    root.append(indentNode);
    let p = 0;
    while (p < rest.length && p < otherRest.length && rest[p] === otherRest[p]) p += 1;
    let q = 0;
    while (
      q < rest.length - p &&
      q < otherRest.length - p &&
      rest[rest.length - 1 - q] === otherRest[otherRest.length - 1 - q]
    )
      q += 1;
    const parts = [rest.slice(0, p), rest.slice(p, rest.length - q), rest.slice(rest.length - q)];
    parts.forEach((part, i) => {
      const span = document.createElement('span');
      appendVisible(span, part, i === 1 && part.length > 0);
      root.append(span);
    });
    if (s.length === 0) {
      const empty = document.createElement('span');
      empty.className = 'empty-line';
      empty.textContent = '(empty line)';
      root.append(empty);
    }
    return root;
  };
  return { expected: render(expected, found), found: render(found, expected) };
}
