// Syntax highlighting by file extension: the engine's languages (README, "Languages")
// with CodeMirror's Lezer grammars where a pinned @codemirror/lang-* package has one,
// and legacy stream modes for the rest (C#, Kotlin, Swift, LaTeX, shell, TOML).
// Highlighting only: what counts as a block or a function is always the engine's call.
import { StreamLanguage } from '@codemirror/language';
import { rust } from '@codemirror/lang-rust';
import { python } from '@codemirror/lang-python';
import { javascript } from '@codemirror/lang-javascript';
import { go } from '@codemirror/lang-go';
import { cpp } from '@codemirror/lang-cpp';
import { java } from '@codemirror/lang-java';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { css } from '@codemirror/lang-css';
import { markdown } from '@codemirror/lang-markdown';
import { php } from '@codemirror/lang-php';
import { csharp, kotlin } from '@codemirror/legacy-modes/mode/clike';
import { swift } from '@codemirror/legacy-modes/mode/swift';
import { stex } from '@codemirror/legacy-modes/mode/stex';
import { shell } from '@codemirror/legacy-modes/mode/shell';
import { toml } from '@codemirror/legacy-modes/mode/toml';

const stream = (name, parser) => ({ name, load: () => StreamLanguage.define(parser) });

/** Extension (lower case, no dot) → {name, load()} giving a CodeMirror extension. */
const byExtension = new Map();
function register(exts, entry) {
  for (const e of exts.split(' ')) byExtension.set(e, entry);
}
register('rs', { name: 'Rust', load: rust });
register('py pyi pyw', { name: 'Python', load: python });
register('js mjs cjs', { name: 'JavaScript', load: () => javascript() });
register('jsx', { name: 'JSX', load: () => javascript({ jsx: true }) });
register('ts mts cts', { name: 'TypeScript', load: () => javascript({ typescript: true }) });
register('tsx', { name: 'TSX', load: () => javascript({ jsx: true, typescript: true }) });
register('go', { name: 'Go', load: go });
register('c h', { name: 'C', load: cpp });
register('cc cpp cxx c++ hpp hh hxx h++ ino', { name: 'C++', load: cpp });
register('java', { name: 'Java', load: java });
register('json jsonc json5', { name: 'JSON', load: json });
register('yaml yml', { name: 'YAML', load: yaml });
register('css scss less', { name: 'CSS', load: css });
register('md markdown', { name: 'Markdown', load: markdown });
register('php phtml', { name: 'PHP', load: () => php({ plain: false }) });
register('cs', stream('C#', csharp));
register('kt kts', stream('Kotlin', kotlin));
register('swift', stream('Swift', swift));
register('tex latex sty cls', stream('LaTeX', stex));
register('sh bash zsh', stream('Shell', shell));
register('toml', stream('TOML', toml));

const cache = new Map();

/** {name, extension} for a path: the language's CodeMirror support, or plain text. */
export function languageFor(path) {
  const base = path.split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const entry = byExtension.get(ext);
  if (!entry) return { name: 'Plain text', extension: [] };
  if (!cache.has(entry)) cache.set(entry, entry.load());
  return { name: entry.name, extension: cache.get(entry) };
}
