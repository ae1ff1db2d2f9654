// The editor tools: what an agent may ask of the editor itself (its selection, its open
// files, open a file, save, the editor's own problems), beside the engine's tools. They
// exist only in the editor hosts (Pulsar, VS Code), and are defined here once: their
// schemas (with MCP annotations shaped as the engine's), the checking of their
// arguments, the path rule, and every word of their results and refusals. A host gives
// a small adapter over its editor API (see `createEditorTools`); nothing else is per host.
//
// Decisions:
// - Results have the engine's shape (`{ok, tool, message, warnings}` or `{ok: false,
//   tool, error: {kind, message}}` with the engine's error kinds), so every host reports
//   them as it reports the engine's (js/mcp-host's toolResult). They never carry a
//   `files` member: in an engine result that means changed files, which hosts apply.
// - Paths an agent sends go through the engine's path rule (`resolvePath`, the rule of
//   `Session.setRoots`: relative to the first root, absolute inside a root, nothing
//   outside) and then through the host's `locate`, which checks what only it can see
//   (symlinks leading out). Paths the editor reports are named the same way: relative to
//   the first root, absolute inside another one; a file outside every root keeps its
//   absolute path and is marked `outside_root: true` (the engine's tools refuse it).
// - Lines and columns are 1-based (as `get_region`'s lines); columns count UTF-16 code
//   units, as both editors do.
// - "No editor", "no linter" and "nothing to save" are answers (`ok: true`) that say why,
//   not refusals: the agent asked a fair question about the editor's state.
// Free of Node and editor APIs (browser bundles take it as it is).

/** MCP annotations shaped as the engine's (contract 2): none of these tools edits text. */
function annotations(title, { readOnly, idempotent }) {
  return { title, readOnlyHint: readOnly, destructiveHint: false, idempotentHint: idempotent, openWorldHint: false };
}

const PATH_DESCRIPTION =
  'The file: relative to the project root (e.g. "src/main.rs"), or absolute inside a project folder.';

/** The editor tools' MCP schemas: {name, description, inputSchema, annotations}. */
export const EDITOR_TOOL_SCHEMAS = [
  {
    name: 'get_selection',
    description:
      "The user's selection in the active editor: its file, range (1-based lines and columns) and text. With nothing selected, where the cursor is. Use it when the user says \"this\", \"here\" or \"the selected code\".",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: annotations('Get the selection', { readOnly: true, idempotent: true }),
  },
  {
    name: 'list_open_files',
    description:
      'The files open in the editor: each path, which one is active, and which have unsaved changes (an edit through this editor reads those changes, not the disk).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: annotations('List open files', { readOnly: true, idempotent: true }),
  },
  {
    name: 'open_file',
    description:
      'Opens a project file in the editor for the user to see, optionally with the cursor at a line. Changes no text.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: PATH_DESCRIPTION },
        line: { type: 'integer', minimum: 1, description: 'The 1-based line to put the cursor on (default: where the editor had it).' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    annotations: annotations('Open a file', { readOnly: true, idempotent: true }),
  },
  {
    name: 'save_file',
    description:
      'Saves an open file with unsaved changes to disk (`path`), or every such file (`all: true`). Files that are not open have nothing to save: edits to them are written to disk at once.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: PATH_DESCRIPTION },
        all: { type: 'boolean', description: 'true: save every open file with unsaved changes (instead of `path`).' },
      },
      additionalProperties: false,
    },
    annotations: annotations('Save files', { readOnly: false, idempotent: true }),
  },
  {
    name: 'get_diagnostics',
    description:
      "The editor's own problems (errors, warnings from its linters and language servers) for one file (`path`) or for every file. An empty list says why it is empty (no problems, or no linter to ask).",
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: PATH_DESCRIPTION } },
      additionalProperties: false,
    },
    annotations: annotations('Get diagnostics', { readOnly: true, idempotent: true }),
  },
];

export const EDITOR_TOOL_NAMES = EDITOR_TOOL_SCHEMAS.map((s) => s.name);

/** At most this many diagnostics are listed (a generated file can have thousands). */
export const MAX_DIAGNOSTICS = 200;

const ARGUMENT_ALIASES = { file_path: 'path', filePath: 'path', line_number: 'line' };

const SEVERITIES = ['error', 'warning', 'info', 'hint'];

function refusal(tool, kind, message) {
  return { ok: false, tool, warnings: [], error: { kind, message } };
}

function success(tool, message, fields = {}, warnings = []) {
  return { ok: true, tool, message, warnings, ...fields };
}

/** A refusal to throw through a tool's code: {kind, message}. */
class ToolRefusal extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const invalid = (message) => new ToolRefusal('invalid_arguments', message);

/** The arguments after aliases, checked against the schema: unknown names and wrong types refused. */
function checkArguments(schema, raw) {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid(`\`${schema.name}\` takes an object of arguments, e.g. ${example(schema)}.`);
  }
  const properties = schema.inputSchema.properties;
  const args = {};
  for (const [name, value] of Object.entries(raw)) {
    const key = Object.hasOwn(properties, name) ? name : ARGUMENT_ALIASES[name];
    if (key === undefined || !Object.hasOwn(properties, key)) {
      const known = Object.keys(properties);
      throw invalid(
        `\`${schema.name}\` has no argument \`${name}\`; ${known.length ? `it takes ${known.map((k) => `\`${k}\``).join(', ')}` : 'it takes none'}. Send e.g. ${example(schema)}.`,
      );
    }
    if (value === undefined || value === null) continue;
    const type = properties[key].type;
    const good =
      type === 'integer' ? Number.isInteger(value) && value >= (properties[key].minimum ?? -Infinity) : typeof value === type;
    if (!good) {
      const want = type === 'integer' ? `an integer${properties[key].minimum !== undefined ? ` ≥ ${properties[key].minimum}` : ''}` : `a ${type}`;
      throw invalid(`\`${key}\` must be ${want}, not ${JSON.stringify(value)}. Send e.g. ${example(schema)}.`);
    }
    args[key] = value;
  }
  for (const name of schema.inputSchema.required ?? []) {
    if (args[name] === undefined) throw invalid(`\`${schema.name}\` needs \`${name}\`. Send e.g. ${example(schema)}.`);
  }
  return args;
}

function example(schema) {
  const samples = {
    get_selection: '{}',
    list_open_files: '{}',
    open_file: '{"path": "src/main.rs", "line": 12}',
    save_file: '{"path": "src/main.rs"} or {"all": true}',
    get_diagnostics: '{"path": "src/main.rs"} or {}',
  };
  return samples[schema.name];
}

/** Whether `p` lies in folder `root` (both `/`-separated; a drive letter in either case). */
function below(p, root) {
  const base = root.endsWith('/') ? root : `${root}/`;
  const caseless = /^\/?[A-Za-z]:\//.test(base);
  const head = p.slice(0, base.length);
  return p.length > base.length && (caseless ? head.toLowerCase() === base.toLowerCase() : head === base);
}

/**
 * How the agent sees an editor file path (absolute, `/`-separated as the roots are):
 * {path} relative to the first root, absolute inside another root, or absolute with
 * `outside_root: true`.
 */
export function agentPath(file, roots) {
  const unified = String(file).replace(/\\/g, '/');
  for (const [k, root] of roots.map((r) => String(r).replace(/\\/g, '/')).entries()) {
    if (below(unified, root)) {
      return { path: k === 0 ? unified.slice(root.endsWith('/') ? root.length : root.length + 1) : unified };
    }
  }
  return { path: unified, outside_root: true };
}

/** An editor's {file, untitled, name} as the agent's {path, …}. */
function named(entry, roots) {
  if (entry.file) return agentPath(entry.file, roots);
  return { path: null, untitled: entry.name ?? 'untitled' };
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function where(p) {
  return p.path ?? `the unsaved new file "${p.untitled}"`;
}

/** A 0-based editor range {start: {row, column}, end} as the agent's 1-based fields. */
function lines(range) {
  return {
    start_line: range.start.row + 1,
    start_column: range.start.column + 1,
    end_line: range.end.row + 1,
    end_column: range.end.column + 1,
  };
}

/**
 * The editor tools over a host's adapter. `engine`: the package (its `resolvePath`).
 * `editorName`: how results name the editor ("Pulsar", "VS Code"). `adapter` (every
 * method may return a promise):
 * - `roots()`: the project folders, absolute, `/`-separated, the first the project root;
 * - `locate(path)`: the host's location of an engine-resolved path (throws `{kind,
 *   message}` where only the host can tell it is outside, e.g. a symlink);
 * - `exists(loc)`: 'file', 'directory' or null;
 * - `selection()`: null without an active text editor, else {file (absolute or null when
 *   untitled), name, selections: [{range, text}]} (0-based rows and columns, primary first);
 * - `openFiles()`: [{file, name, active, modified}];
 * - `open(loc, line)`: shows the file (line 0-based or undefined); resolves to
 *   {line_count} of the opened document;
 * - `save(loc)`: saves the open, modified document at loc; resolves to 'saved',
 *   'clean' (open, nothing to save) or 'closed' (not open); throws why it failed
 *   (`all: true` saves each modified open file inside the roots this way; files
 *   outside them and untitled ones are left to the user, with a warning);
 * - `diagnostics(loc | null)`: {available, why?, items: [{file, range, severity,
 *   message, source?, code?}]} (`why`: the reason there is nothing to ask).
 * Returns {schemas, names, has(tool), call(tool, args) → Promise<result>}.
 */
export function createEditorTools({ engine, adapter, editorName = 'the editor' }) {
  async function resolve(raw) {
    const roots = await adapter.roots();
    const judged = engine.resolvePath(raw, roots);
    if (judged.error) throw new ToolRefusal(judged.error.kind, judged.error.message);
    const loc = await adapter.locate(judged.path);
    return { path: judged.path, loc, roots };
  }

  async function existingFile(raw) {
    const target = await resolve(raw);
    const kind = await adapter.exists(target.loc);
    if (kind === 'directory') throw invalid(`\`${target.path}\` is a directory, not a file. Send a file's path, e.g. "${target.path}/…"; list_files lists them.`);
    if (kind !== 'file') {
      throw new ToolRefusal('file_not_found', `\`${target.path}\` does not exist. Check the path (list_files lists the project's files), or create it with create_file.`);
    }
    return target;
  }

  const tools = {
    async get_selection(tool) {
      const state = await adapter.selection();
      if (!state) {
        return success(tool, `No text editor is active in ${editorName}, so there is no selection. Ask the user to focus the file they mean, or read it with get_region.`, { path: null });
      }
      const roots = await adapter.roots();
      const file = named(state, roots);
      const [primary, ...others] = state.selections;
      const fields = { ...file, ...lines(primary.range), text: primary.text };
      if (others.length > 0) fields.other_selections = others.map((s) => ({ ...lines(s.range), text: s.text }));
      const at = `${where(file)}, line ${fields.start_line}, column ${fields.start_column}`;
      const more = others.length > 0 ? ` (and ${plural(others.length, 'other selection')}, in other_selections)` : '';
      const message =
        primary.text === ''
          ? `Nothing is selected; the cursor is in ${at}${more}.`
          : `Selected in ${where(file)}: lines ${fields.start_line}-${fields.end_line} (${plural(primary.text.length, 'character')})${more}.`;
      return success(tool, message, fields, file.outside_root ? [`${file.path} is outside the project: the editing tools cannot reach it.`] : []);
    },

    async list_open_files(tool) {
      const roots = await adapter.roots();
      const open = (await adapter.openFiles()).map((e) => ({ ...named(e, roots), active: e.active === true, modified: e.modified === true }));
      if (open.length === 0) return success(tool, `No file is open in ${editorName}.`, { open_files: [] });
      const active = open.find((f) => f.active);
      const modified = open.filter((f) => f.modified).map(where);
      const message = `${plural(open.length, 'file')} open in ${editorName}; active: ${active ? where(active) : 'none'}; ${
        modified.length ? `unsaved changes in ${modified.join(', ')}` : 'none has unsaved changes'
      }.`;
      return success(tool, message, { open_files: open });
    },

    async open_file(tool, args) {
      const target = await existingFile(args.path);
      const shown = await adapter.open(target.loc, args.line === undefined ? undefined : args.line - 1);
      const count = shown?.line_count;
      const warnings = [];
      let line = args.line;
      if (line !== undefined && typeof count === 'number' && line > count) {
        warnings.push(`\`${target.path}\` has ${plural(count, 'line')}; the cursor is on the last one, not line ${line}.`);
        line = count;
      }
      const message = `Opened ${target.path} in ${editorName}${line !== undefined ? ` at line ${line}` : ''}.`;
      return success(tool, message, { path: target.path, ...(line !== undefined ? { line } : {}) }, warnings);
    },

    async save_file(tool, args) {
      if (args.all === true) {
        if (args.path !== undefined) throw invalid('Send either `path` (one file) or `all: true` (every file with unsaved changes), not both.');
        return saveAll(tool);
      }
      if (args.path === undefined) {
        throw invalid('`save_file` needs `path` (the file to save) or `all: true` (every open file with unsaved changes).');
      }
      const target = await resolve(args.path);
      let outcome;
      try {
        outcome = await adapter.save(target.loc);
      } catch (e) {
        return refusal(tool, 'write_failed', `${editorName} could not save \`${target.path}\` (${e?.message ?? e}); its unsaved changes are still in the editor. Fix the cause (permissions, disk space), then send the same call again.`);
      }
      if (outcome === 'closed') {
        return success(tool, `\`${target.path}\` is not open in ${editorName}, so it has nothing unsaved: edits to files that are not open are written to disk at once.`, { saved: [] });
      }
      if (outcome === 'clean') return success(tool, `\`${target.path}\` has no unsaved changes; nothing to save.`, { saved: [] });
      return success(tool, `Saved ${target.path}.`, { saved: [target.path] });
    },

    async get_diagnostics(tool, args) {
      const target = args.path === undefined ? null : await existingFile(args.path);
      const roots = target?.roots ?? (await adapter.roots());
      const found = await adapter.diagnostics(target?.loc ?? null);
      const scope = target ? `\`${target.path}\`` : 'the open project';
      if (!found.available) {
        return success(tool, `No diagnostics for ${scope}: ${found.why}. The list is empty for that reason, not because the code is clean.`, {
          diagnostics: [],
          available: false,
        });
      }
      const items = found.items.map((d) => ({
        ...agentPath(d.file, roots),
        ...lines(d.range),
        severity: SEVERITIES.includes(d.severity) ? d.severity : 'info',
        message: String(d.message),
        ...(d.source ? { source: String(d.source) } : {}),
        ...(d.code !== undefined && d.code !== null && d.code !== '' ? { code: String(d.code) } : {}),
      }));
      items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.start_line - b.start_line || a.start_column - b.start_column));
      const shown = items.slice(0, MAX_DIAGNOSTICS);
      const counts = SEVERITIES.map((s) => [s, items.filter((d) => d.severity === s).length]).filter(([, n]) => n > 0);
      const summary = counts.map(([s, n]) => plural(n, s)).join(', ');
      const message = items.length === 0 ? `${editorName} reports no problems for ${scope}.` : `${editorName} reports ${summary} for ${scope}${shown.length < items.length ? ` (the first ${shown.length} listed)` : ''}.`;
      return success(tool, message, { diagnostics: shown, available: true, ...(shown.length < items.length ? { truncated: true } : {}) });
    },
  };

  /** `all: true`: each modified open file inside the roots, saved through `save` one by one. */
  async function saveAll(tool) {
    const roots = await adapter.roots();
    const saved = [];
    const failed = [];
    const warnings = [];
    for (const entry of await adapter.openFiles()) {
      if (entry.modified !== true) continue;
      const shown = named(entry, roots);
      if (shown.path === null || shown.outside_root) {
        warnings.push(`${where(shown)} was not saved: ${shown.path === null ? 'it has no file yet (the user chooses where to save it)' : 'it is outside the project'}.`);
        continue;
      }
      try {
        const target = await resolve(shown.path);
        if ((await adapter.save(target.loc)) === 'saved') saved.push(target.path);
      } catch (e) {
        failed.push(`\`${shown.path}\` (${e?.message ?? e})`);
      }
    }
    if (failed.length > 0) {
      return refusal(tool, 'write_failed', `${editorName} could not save ${failed.join(', ')}${saved.length ? `; it saved ${saved.join(', ')}` : ''}. The unsaved changes are still in the editor; fix the cause, then send the same call again.`);
    }
    if (saved.length === 0) return success(tool, `No open file in the project has unsaved changes; nothing to save.`, { saved: [] }, warnings);
    return success(tool, `Saved ${plural(saved.length, 'file')}: ${saved.join(', ')}.`, { saved }, warnings);
  }

  /** Runs one editor tool call; resolves to a result (refusals included), never throws. */
  async function call(name, rawArgs) {
    const schema = EDITOR_TOOL_SCHEMAS.find((s) => s.name === name);
    if (!schema) return refusal(name, 'invalid_arguments', `\`${name}\` is not an editor tool; they are ${EDITOR_TOOL_NAMES.join(', ')}.`);
    try {
      return await tools[name](name, checkArguments(schema, rawArgs));
    } catch (e) {
      if (e !== null && typeof e === 'object' && typeof e.kind === 'string' && typeof e.message === 'string') return refusal(name, e.kind, e.message);
      return refusal(name, 'invalid_arguments', `${editorName} could not answer \`${name}\`: ${e?.message ?? e}.`);
    }
  }

  return {
    schemas: EDITOR_TOOL_SCHEMAS,
    names: EDITOR_TOOL_NAMES,
    has: (name) => EDITOR_TOOL_NAMES.includes(name),
    call,
  };
}
