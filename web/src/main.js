// The playground page: wires the engine (the wasm package's web build, its bytes
// inlined in this bundle so the page works from file:// too), the buffers, the tool-call
// form and JSON editor, the result panel, the gallery and share links.
//
// The page is a host like any other (DESIGN.md, "Hosts"): it hands the tabs' texts to the
// engine through `read`, shows the engine's answer, and on Apply applies the engine's
// `edits`. It never matches, validates or diffs by itself.
import './style.css';
import wasmBytes from '../../pkg/web/anchored_edit_bg.wasm';
import { init, Session, toolSchemas, ignoreFilter } from '../../pkg/index.web.js';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { history, defaultKeymap, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { bracketMatching } from '@codemirror/language';
import { Workspace } from './workspace.js';
import { changesToWrite, editingTools, editsFiles } from '../../js/host-policy/index.js';
import { filterListing, inFolder, isIgnoreFile } from '../../js/host-policy/listing.js';
import { CallForm } from './form.js';
import { ResultPanel, richText } from './result.js';
import { encodeShare, decodeShare } from './share.js';
import { gallery, groups, defaultExampleId, expectedOutcome } from './gallery.js';
import { editorTheme, highlighting } from './theme.js';

const $ = (id) => document.getElementById(id);

function outcomeLabel(outcome) {
  if (!outcome) return '';
  if (outcome.ok) return outcome.matched_via && outcome.matched_via !== 'exact' ? `recovered · ${outcome.matched_via}` : `applied · ${outcome.matched_via ?? 'ok'}`;
  return `refused · ${outcome.error_kind}`;
}
function outcomeClass(outcome) {
  if (!outcome?.ok) return 'refused';
  return outcome.matched_via && outcome.matched_via !== 'exact' ? 'recovered' : 'applied';
}

/** Whether this engine has the tolerant matching cascade: one probe call in its own session. */
async function boot() {
  await init(wasmBytes);
  const schemas = toolSchemas();
  const schemaByName = new Map(schemas.map((s) => [s.name, s]));
  const session = new Session();

  const status = $('engine-status');
  status.textContent = `engine ready · wasm ${(wasmBytes.length / 1048576).toFixed(2)} MB · offline`;
  status.classList.add('ready');

  // --- Buffers ------------------------------------------------------------------------
  let undoStack = []; // records of Apply, newest last
  let panel;
  let infoTimer = null;
  let marked = new Set(); // paths whose buffer shows the marks of a refusal
  const workspace = new Workspace($('editor'), ({ kind, path }) => {
    if (kind !== 'doc') {
      renderTabs();
      return;
    }
    // Called on every keystroke: keep it cheap (no whole-text work unless needed).
    panel?.markStale();
    // Typing into a file the last Apply changed makes that Apply no longer the last
    // change of the file: Undo would revert the typing. Ctrl+Z in the editor still works.
    const top = undoStack.at(-1);
    if (top && top.after.has(path) && workspace.text(path) !== top.after.get(path)) {
      undoStack = [];
      updateUndo();
    }
    // The marks of a refusal went with the edit (workspace.js); so does the tab's dot.
    if (marked.delete(path)) renderTabs();
    clearTimeout(infoTimer);
    infoTimer = setTimeout(renderInfo, 150);
  });

  function renderTabs() {
    const bar = $('file-tabs');
    bar.replaceChildren();
    for (const path of workspace.paths()) {
      const tab = document.createElement('div');
      tab.className = `file-tab${path === workspace.active ? ' on' : ''}${marked.has(path) ? ' marked' : ''}`;
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(path === workspace.active));
      tab.dataset.path = path;
      tab.title = `${path} — double-click to rename`;
      const name = document.createElement('span');
      name.className = 'tab-name';
      name.textContent = path;
      const close = document.createElement('button');
      close.className = 'tab-close';
      close.type = 'button';
      close.textContent = '×';
      close.title = `Close ${path}`;
      close.setAttribute('aria-label', `Close ${path}`);
      close.addEventListener('click', (e) => {
        e.stopPropagation();
        workspace.remove(path);
      });
      tab.append(name, close);
      tab.addEventListener('click', () => workspace.select(path));
      tab.addEventListener('dblclick', () => startRename(tab, path));
      bar.append(tab);
    }
    renderInfo();
  }

  /** The status line of the active file: language, line endings. */
  function renderInfo() {
    $('buffer-language').textContent = workspace.languageName();
    const endings = workspace.lineEndings();
    const e = $('buffer-endings');
    e.textContent = endings === 'none' ? '' : endings;
    e.className = endings.toLowerCase();
    e.title = endings === 'CRLF' ? 'Windows line endings: each line ends in \\r\\n (shown as ␍)' : '';
  }

  function startRename(tab, path) {
    const input = document.createElement('input');
    input.value = path;
    input.spellcheck = false;
    input.setAttribute('aria-label', 'File path');
    tab.replaceChildren(input);
    input.focus();
    input.select();
    let done = false;
    const finish = (commit) => {
      if (done) return;
      done = true;
      const to = input.value.trim();
      if (!commit || !to || !workspace.rename(path, to)) renderTabs();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') finish(true);
      if (e.key === 'Escape') finish(false);
    });
    input.addEventListener('blur', () => finish(true));
  }

  $('add-file').addEventListener('click', () => {
    let n = 1;
    while (workspace.has(`untitled-${n}.txt`)) n += 1;
    const path = `untitled-${n}.txt`;
    workspace.put(path, '', { focus: true });
    const tab = $('file-tabs').querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (tab) startRename(tab, path);
  });
  $('show-whitespace').addEventListener('change', (e) => {
    workspace.setWhitespace(e.target.checked);
    if (panel.tab !== 'stats') panel.refresh();
  });

  // --- Marks of a refusal ---------------------------------------------------------------
  function clearMarks() {
    if (marked.size) workspace.mark(null);
    marked = new Set();
  }
  function showMarks(result, request) {
    clearMarks();
    const marks = ResultPanel.marksOf(result, request);
    let first = null;
    for (const [path, m] of marks) {
      if (!workspace.has(path)) continue;
      workspace.mark(path, m);
      marked.add(path);
      if (!first) first = [path, Math.min(...m.areas.map((a) => a.from), ...m.lines)];
    }
    if (first) reveal(first[0], first[1]);
    renderTabs();
  }
  function reveal(path, line) {
    if (!workspace.has(path)) return;
    if (workspace.active !== path) workspace.select(path);
    workspace.reveal(line);
  }

  // --- Result panel ---------------------------------------------------------------------
  panel = new ResultPanel(
    { banner: $('result-banner'), tabs: $('result-tabs'), body: $('result-body'), diffMode: $('diff-mode') },
    {
      workspace,
      stats: (reset) => session.call({ tool: 'get_edit_stats', arguments: reset ? { reset: true } : {} }, null),
      onReveal: reveal,
    },
  );
  $('stats-button').addEventListener('click', () => panel.select('stats'));

  // --- The call: form and JSON, in sync ---------------------------------------------------
  let syncing = false;
  let lastCall = { tool: 'str_replace', arguments: {} };
  const jsonStatus = $('json-status');
  const jsonView = new EditorView({
    parent: $('json-editor'),
    state: EditorState.create({
      doc: '',
      extensions: [
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        json(),
        bracketMatching(),
        EditorView.lineWrapping,
        editorTheme,
        highlighting,
        EditorView.contentAttributes.of({ 'aria-label': 'Tool call JSON' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !syncing) fromJson();
        }),
      ],
    }),
  });
  const form = new CallForm($('call-form'), schemas, (call) => {
    lastCall = call;
    setJsonText(JSON.stringify(call, null, 2));
    form.show(call);
    updateButtons(call.tool);
  });

  function jsonText() {
    return jsonView.state.doc.toString();
  }
  function setJsonText(text) {
    syncing = true;
    jsonView.dispatch({ changes: { from: 0, to: jsonView.state.doc.length, insert: text } });
    syncing = false;
    setJsonStatus(null);
  }
  function setJsonStatus(error) {
    jsonStatus.textContent = error ?? 'in sync with the form';
    jsonStatus.className = `json-status ${error ? 'error' : 'ok'}`;
    $('json-editor').classList.toggle('error', Boolean(error));
  }

  /** The call a JSON text holds for the form: {call} or {error}. */
  function readCall(text) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { error: `JSON: ${e.message}` };
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'A tool call is a JSON object: {"tool": …, "arguments": {…}}' };
    const tool = value.tool ?? value.name;
    let args = value.arguments ?? value.input ?? {};
    if (typeof tool !== 'string') return { error: 'The call names no tool ("tool": "…")' };
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        return { error: '"arguments" is a string that is not JSON' };
      }
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) return { error: '"arguments" must be an object' };
    return { call: { tool, arguments: args } };
  }

  function fromJson() {
    const { call, error } = readCall(jsonText());
    if (call) {
      lastCall = call;
      form.show(call);
      setJsonStatus(null);
      updateButtons(call.tool);
    } else {
      form.show(lastCall, `${error}. The form shows the last call that could be read; the engine will get the JSON as it is.`);
      setJsonStatus(error);
    }
  }
  function setCall(call, text = JSON.stringify(call, null, 2)) {
    setJsonText(text);
    fromJson();
  }

  function updateButtons(tool) {
    // Whether the tool edits: the engine's annotations (js/host-policy), never guessed.
    const edits = editsFiles(schemas, tool);
    $('dry-run').querySelector('.label').textContent = edits || !schemaByName.has(tool) ? 'Dry run' : 'Run';
    $('apply').disabled = !edits && schemaByName.has(tool);
  }
  function updateUndo() {
    $('undo').disabled = undoStack.length === 0;
  }

  // --- Running calls --------------------------------------------------------------------
  /**
   * The project tools' listing (DESIGN contract 1): the tabs under `folder`, with the
   * engine's ignore rules every JS host applies (js/host-policy/listing.js: hidden
   * names, and the .gitignore/.ignore tabs), so a tree of tabs lists as the CLI lists
   * it on disk.
   */
  function listTabs(texts, folder) {
    const paths = [...texts.keys()].filter((p) => inFolder(p, folder));
    const ignoreTexts = Object.fromEntries([...texts].filter(([p]) => isIgnoreFile(p)));
    return filterListing({ engine: { ignoreFilter }, paths, ignoreTexts });
  }

  let lastResult = null;
  let runs = 0;
  function run(mode) {
    runs += 1;
    const text = jsonText();
    let request = text;
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Sent as text: the engine answers a malformed call itself.
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) request = parsed;
    const before = new Map(workspace.entries());
    let result;
    try {
      // "Dry run" is the engine's call option: the request goes as the user wrote it.
      const options = { dryRun: mode === 'dry' };
      result = session.call(request, { read: (p) => (before.has(p) ? before.get(p) : undefined), list: (folder) => listTabs(before, folder) }, options);
    } catch (e) {
      // Only an engine bug gets here (EnginePanicError): the session restarted itself.
      panel.showFailure(e);
      return null;
    }
    lastResult = result;
    const applied = mode === 'apply' && changesToWrite(result, editingTools(schemas)).length > 0;
    clearMarks();
    if (applied) applyResult(result, before);
    panel.show(result, { mode: applied ? 'applied' : 'dry', before, request: readCall(text).call ?? null });
    if (!result.ok) showMarks(result, readCall(text).call ?? null);
    return result;
  }

  /**
   * Applies a successful result to the tabs: new files first, then the edits (one
   * transaction per file), then removals, so the set of tabs is never empty in between.
   */
  function applyResult(result, before) {
    const record = { edited: [], created: [], removed: new Map(), order: workspace.paths(), active: workspace.active, after: new Map() };
    for (const f of result.files) {
      const target = f.moved_to ?? (workspace.has(f.path) || f.deleted ? null : f.path);
      if (target === null) continue;
      workspace.put(target, f.new_text ?? '');
      record.created.push(target);
      record.after.set(target, f.new_text ?? '');
    }
    for (const f of result.files) {
      if (f.moved_to || f.deleted || record.created.includes(f.path)) continue;
      workspace.applyEdits(f.path, f.edits ?? []);
      if (typeof f.new_text === 'string' && workspace.text(f.path) !== f.new_text) {
        // The edits must give new_text (the conformance tests check it); never leave a
        // buffer different from what the engine computed.
        console.error(`anchored-edit playground: edits of ${f.path} did not give new_text; replaced the text instead`);
        workspace.replaceAll(f.path, f.new_text);
      }
      record.edited.push(f.path);
      record.after.set(f.path, workspace.text(f.path));
    }
    for (const f of result.files) {
      if (!f.moved_to && !f.deleted) continue;
      record.removed.set(f.path, before.get(f.path) ?? '');
      workspace.remove(f.path);
    }
    const firstChanged = result.files.find((f) => !f.deleted);
    const target = firstChanged ? (firstChanged.moved_to ?? firstChanged.path) : null;
    if (target && workspace.has(target) && workspace.active !== target) workspace.select(target);
    undoStack.push(record);
    updateUndo();
  }

  function undoLast() {
    const record = undoStack.pop();
    if (!record) return;
    for (const [p, text] of record.removed) workspace.put(p, text);
    for (const p of record.edited) workspace.undo(p);
    for (const p of record.created) workspace.remove(p);
    // A result that removed every file left a placeholder tab: it goes with the undo.
    for (const p of workspace.paths()) if (!record.order.includes(p) && workspace.text(p) === '') workspace.remove(p);
    workspace.reorder(record.order);
    if (workspace.has(record.active) && workspace.active !== record.active) workspace.select(record.active);
    clearMarks();
    panel.markUndone();
    updateUndo();
  }

  $('dry-run').addEventListener('click', () => run('dry'));
  $('apply').addEventListener('click', () => run('apply'));
  $('undo').addEventListener('click', undoLast);
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        e.stopPropagation();
        if (e.shiftKey) {
          if (!$('apply').disabled) run('apply');
        } else run('dry');
      }
    },
    true,
  );

  // --- Gallery ----------------------------------------------------------------------------
  const list = $('gallery-list');
  for (const [group, heading] of groups) {
    const items = gallery.filter((e) => e.group === group);
    if (!items.length) continue;
    const section = document.createElement('div');
    section.className = 'gallery-group';
    const h = document.createElement('h3');
    h.textContent = heading;
    section.append(h);
    for (const ex of items) {
      const outcome = expectedOutcome(ex);
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'gallery-item';
      b.dataset.example = ex.id;
      const title = document.createElement('span');
      title.className = 'gi-title';
      title.textContent = ex.title.replaceAll('`', '');
      const o = document.createElement('span');
      o.className = `gi-outcome ${outcomeClass(ex.expect)}`;
      o.textContent = outcomeLabel(ex.expect);
      b.append(title, o);
      b.title = `${ex.llm}\n\nExpected: ${outcomeLabel(ex.expect)}${outcome !== ex.expect ? ` (this build: ${outcomeLabel(outcome)})` : ''}`;
      b.addEventListener('click', () => {
        loadExample(ex.id);
        // The address names the example, so a reload or a copied address shows it again.
        try {
          window.history.replaceState(null, '', `#example=${ex.id}`);
        } catch {
          // Some file:// contexts refuse history changes; the page works the same.
        }
      });
      section.append(b);
    }
    list.append(section);
  }

  function showCard(ex) {
    const card = $('example-card');
    if (!ex) {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    card.replaceChildren();
    const h = document.createElement('h3');
    h.append(ex.title.replaceAll('`', ''));
    const chip = document.createElement('span');
    chip.className = `chip ${ex.expect.ok ? (outcomeClass(ex.expect) === 'recovered' ? 'chip-recovered' : 'chip-exact') : 'chip-error'}`;
    chip.textContent = outcomeLabel(ex.expect);
    chip.dataset.expected = ex.expect.ok ? (ex.expect.matched_via ?? 'ok') : ex.expect.error_kind;
    h.append(chip);
    const dl = document.createElement('dl');
    for (const [label, text] of [
      ['The LLM', ex.llm],
      ['Engine', ex.engine],
    ]) {
      const dt = document.createElement('dt');
      dt.textContent = label;
      const dd = document.createElement('dd');
      dd.append(...richText(text, 'x').childNodes);
      dl.append(dt, dd);
    }
    card.append(h, dl);
  }

  let currentExample = null;
  function loadExample(id) {
    const ex = gallery.find((e) => e.id === id);
    if (!ex) return false;
    currentExample = ex;
    for (const b of list.querySelectorAll('.gallery-item')) b.classList.toggle('on', b.dataset.example === id);
    undoStack = [];
    updateUndo();
    clearMarks();
    workspace.load(Object.entries(ex.files), ex.active ?? Object.keys(ex.files)[0]);
    setCall(ex.call);
    showCard(ex);
    panel.showEmpty();
    lastResult = null;
    return true;
  }

  // --- Share links ------------------------------------------------------------------------
  const popover = $('share-popover');
  $('share-button').addEventListener('click', async () => {
    if (!popover.hidden) {
      popover.hidden = true;
      return;
    }
    const fragment = await encodeShare({ files: workspace.entries(), active: workspace.active, call: jsonText() });
    const url = `${location.href.split('#')[0]}#${fragment}`;
    $('share-link').value = url;
    $('share-note').textContent = `${url.length.toLocaleString('en')} characters. Everything is in the part after #: it never leaves the browser until you send the link.`;
    popover.hidden = false;
    $('share-link').select();
  });
  $('share-copy').addEventListener('click', async () => {
    const input = $('share-link');
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand('copy');
    }
    $('share-copy').textContent = 'Copied';
    setTimeout(() => ($('share-copy').textContent = 'Copy'), 1400);
  });
  document.addEventListener('click', (e) => {
    if (!popover.hidden && !popover.contains(e.target) && e.target !== $('share-button')) popover.hidden = true;
  });

  async function loadFromHash() {
    const hash = location.hash;
    const example = /^#example=([\w-]+)$/.exec(hash);
    if (example && loadExample(example[1])) return true;
    let shared;
    try {
      shared = await decodeShare(hash);
    } catch (e) {
      loadExample(defaultExampleId);
      panel.showFailure(e);
      return true;
    }
    if (!shared) return false;
    currentExample = null;
    for (const b of list.querySelectorAll('.gallery-item')) b.classList.remove('on');
    undoStack = [];
    updateUndo();
    clearMarks();
    workspace.load(shared.files, shared.active);
    setJsonText(shared.call);
    fromJson();
    showCard(null);
    panel.showEmpty();
    return true;
  }
  window.addEventListener('hashchange', () => loadFromHash());
  if (!(await loadFromHash())) loadExample(defaultExampleId);

  // Read-only hooks for the end-to-end tests and for debugging in the console.
  window.playground = {
    ready: true,
    paths: () => workspace.paths(),
    active: () => workspace.active,
    buffer: (path) => workspace.text(path),
    diffText: (path) => panel.diffText(path),
    callText: () => jsonText(),
    formCall: () => structuredClone(form.call),
    lastResult: () => structuredClone(lastResult),
    runs: () => runs,
    example: () => currentExample?.id ?? null,
    marks: () => [...marked],
  };
  document.body.dataset.ready = 'true';
}

boot().catch((e) => {
  console.error(e);
  const status = $('engine-status');
  status.textContent = `engine failed to load: ${e.message}`;
  status.classList.add('failed');
});
