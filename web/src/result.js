// The result panel: what the engine answered, shown for a person. A banner (applied,
// would apply, or refused, with matched_via or the error kind, the message and the
// warnings), then tabs: the changes as diff views (@codemirror/merge, unified or side by
// side, built from the old text and the engine's new_text; or the engine's own unified
// diff as text), the diagnostics of a refusal (closest area, per-line differences with
// whitespace as symbols, candidates, failed batch items), the content of a read, the
// result JSON as the LLM sees it, and the session's statistics.
//
// Everything shown is the engine's result; nothing here matches or diffs on its own
// except the merge view's highlighting of the engine's old and new texts.
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers, highlightWhitespace } from '@codemirror/view';
import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { json } from '@codemirror/lang-json';
import { editorTheme, highlighting } from './theme.js';
import { languageFor } from './languages.js';
import { specialChars } from './workspace.js';
import { renderPair, badge } from './visible.js';
import { llmView } from '../../js/host-policy/index.js';

const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
};

/** A message with its `backtick` spans as <code>, line breaks kept. */
export function richText(text, cls = 'message') {
  const p = el('div', { class: cls });
  const parts = String(text ?? '').split(/(`[^`\n]+`)/);
  for (const part of parts) {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 2) p.append(el('code', {}, part.slice(1, -1)));
    else p.append(part);
  }
  return p;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function readOnlyView(parent, doc, extensions = []) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        EditorState.lineSeparator.of('\n'),
        EditorState.readOnly.of(true),
        EditorView.editable.of(false),
        EditorState.tabSize.of(4),
        specialChars,
        editorTheme,
        highlighting,
        extensions,
      ],
    }),
  });
}

function diffCounts(diff) {
  let add = 0;
  let del = 0;
  for (const line of String(diff ?? '').split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) add += 1;
    else if (line.startsWith('-')) del += 1;
  }
  return { add, del };
}

// The result as an LLM sees it (without the hosts-only `new_text`): js/host-policy's.
export { llmView };

export class ResultPanel {
  /**
   * `dom`: {banner, tabs, body, diffMode}. `hooks`: {workspace, stats(reset) → result,
   * onReveal(path, line)}.
   */
  constructor(dom, hooks) {
    this.dom = dom;
    this.hooks = hooks;
    this.views = [];
    this.current = null; // {result, ctx}
    this.tab = 'changes';
    this.diffMode = 'unified';
    this.diffTexts = new Map(); // path → the new text the diff view shows
    dom.tabs.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-tab]');
      if (b && !b.disabled) this.select(b.dataset.tab);
    });
    dom.diffMode.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-mode]');
      if (!b) return;
      this.diffMode = b.dataset.mode;
      for (const x of dom.diffMode.querySelectorAll('button')) x.classList.toggle('on', x === b);
      if (this.tab === 'changes') this.renderBody();
    });
    this.showEmpty();
  }

  /** Whitespace symbols in the diff and content views follow the buffer's toggle. */
  whitespace() {
    return this.hooks.workspace?.showWhitespace ? highlightWhitespace() : [];
  }

  destroyViews() {
    for (const v of this.views) v.destroy();
    this.views = [];
  }

  showEmpty() {
    this.current = null;
    this.dom.banner.className = 'result-banner idle';
    this.dom.banner.replaceChildren(
      el('div', { class: 'banner-icon' }, '↦'),
      el(
        'div',
        { class: 'banner-main' },
        el('div', { class: 'banner-title' }, 'No call sent yet'),
        el('div', { class: 'message' }, 'Press Dry run (Ctrl+Enter) to see what the engine would do, or Apply (Ctrl+Shift+Enter) to change the buffer.'),
      ),
    );
    this.updateTabs();
    this.select(this.tab === 'stats' ? 'stats' : 'changes');
  }

  /** Shows `result` of a call; `ctx`: {mode: 'dry' | 'applied' | 'run', before: Map, request}. */
  show(result, ctx) {
    this.current = { result, ctx, stale: false };
    this.diffTexts = new Map();
    for (const f of result.files ?? []) this.diffTexts.set(f.path, f.deleted ? '' : (f.new_text ?? ''));
    this.renderBanner();
    this.updateTabs();
    const r = result;
    if (!r.ok) this.select('diagnostics');
    else if ((r.files ?? []).length) this.select('changes');
    else if (typeof r.content === 'string' || r.symbols || r.matches) this.select('content');
    else if (r.tool === 'get_edit_stats') this.select('stats');
    else this.select('json');
  }

  /** The engine's message for an exception outside the result contract (an engine bug). */
  showFailure(error) {
    this.current = null;
    this.dom.banner.className = 'result-banner refused';
    this.dom.banner.replaceChildren(
      el('div', { class: 'banner-icon' }, '!'),
      el('div', { class: 'banner-main' }, el('div', { class: 'banner-title' }, 'The engine failed'), richText(error?.message ?? String(error))),
    );
    this.updateTabs();
    this.select('json');
  }

  /** Marks the shown result as past: the buffer changed since (`note`: what happened). */
  markStale(note = 'buffer changed since') {
    if (!this.current) return;
    this.current.stale = true;
    this.dom.banner.classList.add('stale');
    const title = this.dom.banner.querySelector('.banner-title');
    if (!title) return;
    const existing = title.querySelector('.stale-note');
    if (existing) {
      if (note !== 'buffer changed since') existing.textContent = note;
      return;
    }
    title.append(el('span', { class: 'stale-note', title: 'The buffer changed after this call: run it again to see the current answer.' }, note));
  }

  /**
   * The shown call was taken back (Undo): the banner stops saying "Applied" and says
   * what Undo did; the result itself stays for reading.
   */
  markUndone() {
    if (!this.current) return;
    this.markStale('undone');
    const files = this.current.result.files ?? [];
    const title = this.dom.banner.querySelector('.banner-title-text');
    if (title) title.textContent = `Undone — ${plural(files.length, 'file')} restored`;
    const icon = this.dom.banner.querySelector('.banner-icon');
    if (icon) icon.textContent = '↶';
    this.dom.banner.classList.add('undone');
  }

  renderBanner() {
    const { result: r, ctx } = this.current;
    const b = this.dom.banner;
    const files = r.files ?? [];
    let cls;
    let icon;
    let title;
    const chips = [];
    if (!r.ok) {
      cls = 'refused';
      icon = '✕';
      title = 'Refused — nothing changed';
      chips.push(el('span', { class: 'chip chip-error', 'data-kind': r.error?.kind ?? '' }, r.error?.kind ?? 'error'));
    } else {
      cls = 'ok';
      icon = '✓';
      if (files.length && ctx.mode === 'applied' && !r.dry_run) title = `Applied — ${plural(files.length, 'file')} changed`;
      else if (files.length) title = `Dry run — would change ${plural(files.length, 'file')}`;
      else title = r.tool === 'get_edit_stats' ? 'Statistics' : 'Read — nothing changed';
      if (r.matched_via) {
        chips.push(
          el('span', { class: `chip ${r.matched_via === 'exact' ? 'chip-exact' : 'chip-recovered'}`, 'data-via': r.matched_via, title: 'matched_via' }, `matched_via: ${r.matched_via}`),
        );
      }
      if (r.dry_run) chips.push(el('span', { class: 'chip chip-muted' }, 'dry_run'));
    }
    chips.unshift(el('span', { class: 'chip chip-tool' }, r.tool ?? '?'));
    const main = el(
      'div',
      { class: 'banner-main' },
      el('div', { class: 'banner-title' }, el('span', { class: 'banner-title-text' }, title), ...chips),
      richText(r.ok ? r.message : r.error?.message),
    );
    if (r.warnings?.length) {
      main.append(el('ul', { class: 'warnings' }, ...r.warnings.map((w) => el('li', {}, richText(w, 'warning')))));
    }
    b.className = `result-banner ${cls}`;
    b.replaceChildren(el('div', { class: 'banner-icon' }, icon), main);
  }

  updateTabs() {
    const r = this.current?.result;
    const has = {
      changes: Boolean(r?.ok && r.files?.length) || !r,
      diagnostics: Boolean(r && !r.ok),
      content: Boolean(r?.ok && (typeof r.content === 'string' || r.symbols)),
      json: Boolean(r),
      stats: true,
    };
    for (const btn of this.dom.tabs.querySelectorAll('button[data-tab]')) {
      const t = btn.dataset.tab;
      btn.hidden = !has[t] && t !== 'changes';
      btn.disabled = !has[t];
      if (t === 'changes') btn.textContent = r?.files?.length ? `Changes (${r.files.length})` : 'Changes';
    }
  }

  select(tab) {
    this.tab = tab;
    for (const btn of this.dom.tabs.querySelectorAll('button[data-tab]')) {
      const on = btn.dataset.tab === tab;
      btn.classList.toggle('on', on);
      btn.setAttribute('aria-selected', String(on));
    }
    this.dom.diffMode.hidden = tab !== 'changes' || !this.current?.result?.files?.length;
    this.renderBody();
  }

  renderBody() {
    this.destroyViews();
    const body = this.dom.body;
    body.replaceChildren();
    body.dataset.tab = this.tab;
    const r = this.current?.result;
    if (this.tab === 'stats') return this.renderStats(body);
    if (!r) {
      body.append(el('div', { class: 'empty' }, el('p', {}, 'The diff of a dry run appears here; a refusal shows its diagnostics, with the closest area marked in the buffer.')));
      return;
    }
    if (this.tab === 'changes') return this.renderChanges(body, r);
    if (this.tab === 'diagnostics') return this.renderDiagnostics(body, r);
    if (this.tab === 'content') return this.renderContent(body, r);
    if (this.tab === 'json') {
      const wrap = el('div', { class: 'json-result' });
      body.append(
        el('p', { class: 'hint' }, 'The result as an LLM receives it (CLI, MCP). Hosts also get each file’s ', el('code', {}, 'new_text'), ', left out here.'),
        wrap,
      );
      this.views.push(readOnlyView(wrap, JSON.stringify(llmView(r), null, 2), [json(), lineNumbers(), EditorView.lineWrapping]));
    }
  }

  renderChanges(body, r) {
    const before = this.current.ctx.before;
    for (const f of r.files ?? []) {
      const { add, del } = diffCounts(f.diff);
      const status = f.created ? 'created' : f.deleted ? 'deleted' : f.moved_to ? 'moved' : 'modified';
      const head = el(
        'div',
        { class: 'diff-head' },
        el('span', { class: `file-status status-${status}` }, status),
        el('span', { class: 'diff-path' }, f.moved_to ? `${f.path} → ${f.moved_to}` : f.path),
        el('span', { class: 'diff-count add' }, `+${add}`),
        el('span', { class: 'diff-count del' }, `−${del}`),
        el('span', { class: 'spacer' }),
        el('span', { class: 'diff-meta' }, `${plural(f.edits?.length ?? 0, 'edit')} · ${plural(f.line_count ?? 0, 'line')}${f.line_delta ? ` (${f.line_delta > 0 ? '+' : ''}${f.line_delta})` : ''}`),
      );
      const box = el('div', { class: 'diff-file', dataset: { path: f.path } }, head);
      const host = el('div', { class: 'diff-view' });
      box.append(host);
      body.append(box);
      const oldText = before.get(f.path) ?? '';
      const newText = this.diffTexts.get(f.path) ?? '';
      const lang = languageFor(f.moved_to ?? f.path).extension;
      if (this.diffMode === 'raw') {
        const pre = el('pre', { class: 'raw-diff' });
        for (const line of String(f.diff ?? '').split('\n')) {
          const c = line.startsWith('+++') || line.startsWith('---') ? 'h' : line.startsWith('@@') ? 'at' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '';
          pre.append(el('span', { class: `dl ${c}` }, `${line}\n`));
        }
        host.append(pre);
      } else if (this.diffMode === 'split') {
        const common = [
          EditorState.lineSeparator.of('\n'),
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          EditorState.tabSize.of(4),
          lineNumbers(),
          specialChars,
          editorTheme,
          highlighting,
          lang,
          this.whitespace(),
        ];
        const mv = new MergeView({
          parent: host,
          a: { doc: oldText, extensions: common },
          b: { doc: newText, extensions: common },
          gutter: true,
          highlightChanges: true,
          collapseUnchanged: { margin: 3, minSize: 6 },
        });
        this.views.push(mv);
      } else {
        this.views.push(
          readOnlyView(host, newText, [
            lineNumbers(),
            lang,
            this.whitespace(),
            unifiedMergeView({
              original: oldText,
              mergeControls: false,
              gutter: true,
              highlightChanges: true,
              syntaxHighlightDeletions: true,
              collapseUnchanged: { margin: 3, minSize: 6 },
            }),
          ]),
        );
      }
    }
  }

  renderContent(body, r) {
    const wrap = el('div', { class: 'content-view' });
    const start = r.start_line ?? 1;
    if (r.symbols) {
      const table = el('table', { class: 'symbols' }, el('tr', {}, el('th', {}, 'symbol'), el('th', {}, 'kind'), el('th', {}, 'lines')));
      for (const s of r.symbols) {
        table.append(el('tr', {}, el('td', {}, el('code', {}, s.name)), el('td', {}, s.kind), el('td', {}, `${s.start_line}–${s.end_line}`)));
      }
      body.append(table);
    }
    if (typeof r.content === 'string' && r.content.length) {
      body.append(wrap);
      this.views.push(
        readOnlyView(wrap, r.content, [
          lineNumbers({ formatNumber: (n) => String(n + start - 1) }),
          languageFor(r.path ?? '').extension,
          this.whitespace(),
        ]),
      );
    }
  }

  // --- Diagnostics ------------------------------------------------------------------

  renderDiagnostics(body, r) {
    const err = r.error ?? {};
    const d = err.diagnostics ?? {};
    const req = this.current.ctx.request;
    const args = req?.arguments ?? {};
    const mainPath = typeof d.path === 'string' ? d.path : typeof args.path === 'string' ? args.path : null;
    body.append(this.diagnosticsBlock(d, mainPath));
    if (Array.isArray(d.failed)) {
      for (const item of d.failed) {
        const section = el(
          'section',
          { class: 'failed-item', dataset: { replacement: String(item.replacement ?? '') } },
          el(
            'div',
            { class: 'failed-head' },
            el('span', { class: 'chip chip-error' }, item.kind ?? 'error'),
            el('strong', {}, `Replacement ${item.replacement ?? '?'}`),
            item.path ? el('span', { class: 'diff-path' }, item.path) : null,
          ),
          richText(item.message),
        );
        section.append(this.diagnosticsBlock(item.diagnostics ?? {}, item.path ?? mainPath));
        body.append(section);
      }
    }
    if (Array.isArray(d.results)) {
      const list = el('ul', { class: 'batch-results' });
      for (const item of d.results) {
        list.append(
          el(
            'li',
            { class: item.ok ? 'ok' : 'bad' },
            el('span', { class: 'batch-mark' }, item.ok ? '✓' : '✕'),
            el('span', {}, `Replacement ${item.replacement}`),
            item.path ? el('code', {}, item.path) : null,
            el('span', { class: 'batch-msg' }, item.ok ? `${item.message ?? ''} (would apply; not written: the batch is atomic)` : (item.error?.kind ?? 'failed')),
          ),
        );
      }
      body.append(el('h4', { class: 'diag-title' }, 'Every item of the batch'), list);
    }
    if (body.childElementCount === 0 || (body.childElementCount === 1 && !body.firstChild.childElementCount)) {
      body.replaceChildren(el('p', { class: 'hint' }, 'No diagnostics beyond the message for this refusal. The Result JSON tab has the whole answer.'));
    }
  }

  /** One diagnostics object: closest area, differing lines, candidates, examples. */
  diagnosticsBlock(d, path) {
    const block = el('div', { class: 'diag' });
    const before = this.current.ctx.before;
    const fileLines = path && before.has(path) ? before.get(path).split('\n') : [];
    if (d.closest) {
      const c = d.closest;
      block.append(
        el(
          'div',
          { class: 'diag-row closest' },
          el('span', { class: 'diag-label' }, 'Closest area'),
          el('span', {}, `${c.start_line === c.end_line ? `line ${c.start_line}` : `lines ${c.start_line}–${c.end_line}`}${path ? ` of ${path}` : ''}`),
          typeof c.score === 'number' ? el('span', { class: 'score', title: 'similarity' }, `similarity ${c.score.toFixed(2)}`) : null,
          el('span', { class: 'spacer' }),
          path ? el('button', { type: 'button', class: 'btn tiny', onclick: () => this.hooks.onReveal(path, c.start_line) }, 'Show in buffer') : null,
        ),
      );
    }
    if (Array.isArray(d.lines) && d.lines.length) {
      const table = el(
        'table',
        { class: 'line-diffs' },
        el('thead', {}, el('tr', {}, el('th', {}, 'line'), el('th', {}, ''), el('th', {}, 'text'))),
      );
      const tbody = el('tbody');
      for (const entry of d.lines) {
        // The engine sends each line raw beside its escaped form; the raw one is shown.
        // The file's side is the buffer's line itself when it is that line, its \r
        // included: a CRLF file shows CR where the engine compared without it.
        const rawFound = String(entry.found_raw ?? '');
        const bufferLine = fileLines[entry.line - 1];
        const found = bufferLine !== undefined && bufferLine.replace(/\r$/, '') === rawFound ? bufferLine : rawFound;
        const expected = String(entry.expected_raw ?? '');
        const pair = renderPair(expected, found);
        tbody.append(
          el('tr', { class: 'expected-row' }, el('td', { class: 'ln', rowspan: entry.note ? 3 : 2 }, String(entry.line)), el('td', { class: 'side' }, 'sent'), el('td', {}, pair.expected)),
          el('tr', { class: 'found-row' }, el('td', { class: 'side' }, 'file'), el('td', {}, pair.found)),
        );
        if (entry.note) tbody.append(el('tr', { class: 'note-row' }, el('td', { colspan: 2 }, el('span', { class: 'ws-note' }, entry.whitespace_only ? `whitespace only — ${entry.note}` : entry.note))));
      }
      table.append(tbody);
      block.append(el('h4', { class: 'diag-title' }, 'Differing lines', el('span', { class: 'legend' }, '· space   → tab   ', badge('CR'), ' carriage return   ⍽ no-break space')), table);
    }
    const run = d.longest_matching_run;
    if (run?.needle_lines && run?.file_lines) {
      block.append(
        el(
          'div',
          { class: 'diag-row' },
          el('span', { class: 'diag-label' }, 'Longest match'),
          el('span', {}, `lines ${run.needle_lines[0]}–${run.needle_lines[1]} of the request match lines ${run.file_lines[0]}–${run.file_lines[1]} of the file`),
        ),
      );
    }
    if (Array.isArray(d.candidates) && d.candidates.length) {
      const list = el('ul', { class: 'candidates' });
      d.candidates.forEach((c, i) => {
        list.append(
          el(
            'li',
            {},
            el('span', { class: 'cand-n' }, `${i + 1}`),
            el('span', { class: 'cand-lines' }, c.end_line && c.end_line !== c.line ? `lines ${c.line}–${c.end_line}` : `line ${c.line}`),
            c.text ? el('code', {}, c.text) : null,
            el('span', { class: 'spacer' }),
            path ? el('button', { type: 'button', class: 'btn tiny', onclick: () => this.hooks.onReveal(path, c.line) }, 'Show') : null,
          ),
        );
      });
      block.append(el('h4', { class: 'diag-title' }, `${d.candidates.length} matches — the engine will not pick one`), list);
    }
    if (Array.isArray(d.placeholders) && d.placeholders.length) {
      const list = el('ul', { class: 'candidates placeholders' });
      for (const p of d.placeholders) {
        list.append(el('li', {}, el('span', { class: 'cand-lines' }, `new_str line ${p.line}`), el('code', {}, p.text ?? '')));
      }
      block.append(el('h4', { class: 'diag-title' }, 'Placeholder lines'), list);
    }
    if (typeof d.example === 'string') {
      block.append(el('h4', { class: 'diag-title' }, 'What to send instead'), el('pre', { class: 'example' }, d.example));
    }
    return block;
  }

  /**
   * The buffer marks of a refusal: {path: {areas, lines}} for the closest areas, the
   * differing lines and the candidates of an ambiguous match.
   */
  static marksOf(result, request) {
    const marks = new Map();
    const get = (p) => {
      if (!marks.has(p)) marks.set(p, { areas: [], lines: [] });
      return marks.get(p);
    };
    const collect = (d, path) => {
      if (!d || !path) return;
      if (d.closest) {
        get(path).areas.push({
          from: d.closest.start_line,
          to: d.closest.end_line,
          kind: 'closest',
          label: `closest area${typeof d.closest.score === 'number' ? ` · similarity ${d.closest.score.toFixed(2)}` : ''}`,
        });
      }
      for (const l of d.lines ?? []) if (typeof l.line === 'number') get(path).lines.push(l.line);
      (d.candidates ?? []).forEach((c, i, all) => {
        get(path).areas.push({ from: c.line, to: c.end_line ?? c.line, kind: 'candidate', label: `match ${i + 1} of ${all.length}` });
      });
    };
    if (!result || result.ok) return marks;
    const d = result.error?.diagnostics ?? {};
    const args = request?.arguments ?? {};
    collect(d, typeof d.path === 'string' ? d.path : args.path);
    for (const item of d.failed ?? []) collect(item.diagnostics, item.path);
    return marks;
  }

  // --- Statistics -----------------------------------------------------------------

  renderStats(body) {
    const r = this.hooks.stats(false);
    const toolbar = el(
      'div',
      { class: 'stats-toolbar' },
      el('span', { class: 'hint' }, 'get_edit_stats of this page’s engine session: every Dry run and Apply counts.'),
      el('span', { class: 'spacer' }),
      el('button', { type: 'button', class: 'btn tiny', onclick: () => this.renderBody() }, 'Refresh'),
      el(
        'button',
        {
          type: 'button',
          class: 'btn tiny',
          onclick: () => {
            this.hooks.stats(true);
            this.renderBody();
          },
        },
        'Reset',
      ),
    );
    body.append(toolbar);
    if (!r?.ok) {
      body.append(richText(r?.error?.message ?? 'No statistics.'));
      return;
    }
    body.append(el('p', { class: 'stats-summary' }, r.summary ?? r.message ?? ''));
    const tools = Object.entries(r.stats ?? {});
    if (!tools.length) {
      body.append(el('p', { class: 'hint' }, 'No calls yet.'));
      return;
    }
    const chips = (obj) => el('div', { class: 'chips' }, ...Object.entries(obj ?? {}).map(([k, v]) => el('span', { class: 'chip chip-muted' }, `${k} ${v}`)));
    const table = el(
      'table',
      { class: 'stats' },
      el(
        'thead',
        {},
        el('tr', {}, ...['tool', 'calls', 'applied', 'dry runs', 'refused', 'refusals', 'matched_via', 'committed'].map((h) => el('th', {}, h))),
      ),
    );
    const tbody = el('tbody');
    for (const [tool, s] of tools) {
      tbody.append(
        el(
          'tr',
          {},
          el('td', {}, el('code', {}, tool)),
          el('td', { class: 'num' }, String(s.calls ?? 0)),
          el('td', { class: 'num' }, String(s.applied ?? 0)),
          el('td', { class: 'num' }, String(s.previewed ?? 0)),
          el('td', { class: 'num' }, String(s.refused ?? 0)),
          el('td', {}, chips(s.errors)),
          el('td', {}, chips(s.matched_via)),
          el('td', { class: 'num' }, String(s.dry_runs_committed ?? 0)),
        ),
      );
    }
    table.append(tbody);
    body.append(el('div', { class: 'table-scroll' }, table));
  }

  /** Re-renders the open tab (after a display setting changed). */
  refresh() {
    this.renderBody();
  }

  /** Test and debugging view: the new text the diff view shows for `path`. */
  diffText(path) {
    return this.diffTexts.get(path);
  }
}
