// Which files a project listing shows, for every JS host's reader `list(folder)` (DESIGN
// contract 1: the project tools list files through the host, with its ignore rules
// applied; the engine sorts and applies `glob`). One rule for the Node server, Pulsar,
// VS Code and the playground, matching the CLI's walker (the `ignore` crate, ripgrep's):
//
// - hidden files and folders (a name starting with `.`) are left out, and so is
//   everything under them (`.git/`, `.anchored-edit/`);
// - `.gitignore` and `.ignore` files apply to their folder and below, with git's
//   pattern rules (`#` comments, `!` negation, a trailing `/` for folders only, a `/`
//   inside anchoring to the file's folder, `*`, `?`, `[…]`, `**`); a deeper file's
//   rules win over a shallower one's, and in one folder `.ignore` wins over
//   `.gitignore` (as ripgrep); a file inside an ignored folder stays ignored (the
//   walker never enters it), whatever a later `!` says;
// - symbolic links are neither followed nor listed (a link may lead out of the root);
// - a host may add its own exclusions (Pulsar's `core.ignoredNames`, VS Code's
//   `files.exclude`) as extra patterns of the same syntax, applied at the root.
//
// Free of Node and editor APIs: the host hands in how to read a folder and a file.

/** The ignore files, strongest first (within one folder). */
export const IGNORE_FILES = ['.ignore', '.gitignore'];

/** One glob segment run (no `/`) as a regex source. */
function segmentSource(glob) {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\' && i + 1 < glob.length) {
      out += escape(glob[++i]);
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = close;
    } else {
      out += escape(c);
    }
  }
  return out;
}

function escape(c) {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A gitignore pattern (without `!` and trailing `/`) as a regex over paths relative to its folder. */
function patternRegex(pattern) {
  const anchored = pattern.includes('/');
  const body = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  const parts = body.split('/');
  let source = '';
  for (const [k, part] of parts.entries()) {
    const last = k === parts.length - 1;
    if (part === '**') {
      // `a/**` matches everything inside a; `**/b` and `a/**/b` any depth (zero included).
      source += last ? '.*' : '(?:[^/]+/)*';
    } else {
      source += segmentSource(part) + (last ? '' : '/');
    }
  }
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${source}$`);
}

/**
 * Parses an ignore file's text: [{negated, dirOnly, regex}] in file order. Lines are
 * git's: blank and `#` lines skipped, `\#` and `\!` escapes, trailing spaces dropped
 * unless escaped.
 */
export function parseIgnore(text) {
  const rules = [];
  for (let line of String(text).split(/\r?\n/)) {
    line = line.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.replace(/\/+$/, '');
    if (line === '') continue;
    rules.push({ negated, dirOnly, regex: patternRegex(line) });
  }
  return rules;
}

/** The last rule of `rules` matching `rel` (relative to the rules' folder): true ignored, false re-included, undefined none. */
function verdict(rules, rel, isDir) {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i];
    if (r.dirOnly && !isDir) continue;
    if (r.regex.test(rel)) return !r.negated;
  }
  return undefined;
}

/**
 * The ignore state of a tree: per folder (root-relative, '' the root) its rule sets,
 * strongest first. `ignored(path, isDir)` judges one entry by its own name and the
 * folders above it that carry rules (the folders themselves are judged by the walker).
 */
export class IgnoreRules {
  #folders = new Map();

  /** Adds the rules of folder `folder`: `sets` = texts of its ignore files, strongest first (missing ones undefined). */
  addFolder(folder, sets) {
    const parsed = sets.filter((t) => typeof t === 'string').map(parseIgnore).filter((r) => r.length > 0);
    // Host patterns (added first, at the root) stay the weakest set.
    const host = this.#folders.get(folder) ?? [];
    if (parsed.length > 0) this.#folders.set(folder, [...parsed, ...host]);
  }

  /** Host patterns (gitignore syntax) applied at the root, weaker than every ignore file. */
  addHostPatterns(patterns) {
    const rules = parseIgnore(patterns.join('\n'));
    if (rules.length === 0) return;
    const root = this.#folders.get('') ?? [];
    this.#folders.set('', [...root, rules]);
  }

  ignored(path, isDir) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (name.startsWith('.')) return true;
    // Deepest folder first; within a folder, strongest file first.
    let folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    for (;;) {
      const sets = this.#folders.get(folder);
      if (sets) {
        const rel = folder === '' ? path : path.slice(folder.length + 1);
        for (const rules of sets) {
          const v = verdict(rules, rel, isDir);
          if (v !== undefined) return v;
        }
      }
      if (folder === '') return false;
      folder = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
    }
  }
}

const join = (folder, name) => (folder === '' ? name : `${folder}/${name}`);

/**
 * Lists the files under root-relative `folder` ('' the root), synchronously.
 * `readDir(rel)`: [{name, type: 'file' | 'dir' | 'other'}] (symlinks are 'other'), or
 * null when `rel` is not a folder; `readText(rel)`: a file's text or undefined;
 * `hostPatterns`: the host's own exclusions. Returns the paths (root-relative,
 * `/`-separated, unsorted), or null when `folder` is not a folder.
 */
export function listFiles({ folder = '', readDir, readText, hostPatterns = [] }) {
  const rules = new IgnoreRules();
  rules.addHostPatterns(hostPatterns);
  const load = (rel) => rules.addFolder(rel, IGNORE_FILES.map((f) => readText(join(rel, f))));
  // The folders above `folder` carry rules too, and may ignore it.
  const steps = folder === '' ? [] : folder.split('/');
  load('');
  for (let k = 0; k < steps.length; k++) {
    const rel = steps.slice(0, k + 1).join('/');
    if (readDir(rel) === null) return null;
    if (rules.ignored(rel, true)) return [];
    load(rel);
  }
  const out = [];
  const walk = (rel) => {
    const entries = readDir(rel);
    if (entries === null) return;
    for (const { name, type } of entries) {
      const p = join(rel, name);
      if (type === 'dir') {
        if (rules.ignored(p, true)) continue;
        load(p);
        walk(p);
      } else if (type === 'file' && !rules.ignored(p, false)) {
        out.push(p);
      }
    }
  };
  if (readDir(folder) === null) return null;
  walk(folder);
  return out;
}

/**
 * Filters a flat list of root-relative file paths (a host's own file search, e.g. VS
 * Code's findFiles) by the same rules. `ignoreTexts`: {path of an ignore file → text}
 * for every ignore file of the tree (the caller reads them). A file under an ignored or
 * hidden folder is left out, as the walker would never reach it.
 */
export function filterListing(paths, ignoreTexts, hostPatterns = []) {
  const rules = new IgnoreRules();
  rules.addHostPatterns(hostPatterns);
  const folders = new Set(['']);
  for (const p of Object.keys(ignoreTexts)) folders.add(p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  for (const f of folders) rules.addFolder(f, IGNORE_FILES.map((name) => ignoreTexts[join(f, name)]));
  const verdicts = new Map();
  const folderIgnored = (dir) => {
    if (dir === '') return false;
    if (!verdicts.has(dir)) {
      const parent = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
      verdicts.set(dir, folderIgnored(parent) || rules.ignored(dir, true));
    }
    return verdicts.get(dir);
  };
  return paths.filter((p) => {
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    return !folderIgnored(dir) && !rules.ignored(p, false);
  });
}

/** Whether root-relative `path` lies in `folder` ('' = everywhere). */
export function inFolder(path, folder) {
  return folder === '' || path.startsWith(`${folder}/`);
}
