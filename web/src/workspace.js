// The buffers: one CodeMirror state per file (a tab each) shown in one editor view.
// The engine's `read` is served from here, and the engine's edits are applied here, as
// one transaction per file so that one Apply is one undo step.
//
// Line breaks: CodeMirror normally splits lines on \r\n, \r and \n and forgets which it
// saw. The engine edits bytes, CRLF included, so every state here uses '\n' as its only
// line separator: a CRLF file keeps its '\r' at the end of each line (shown as ␍), the
// text handed to the engine is exactly the text that was loaded, and the engine's
// {row, column} positions (rows split on '\n', columns in UTF-16 code units) are
// CodeMirror's line numbers and string offsets as they are.
import { EditorState, Compartment, StateField, StateEffect, RangeSetBuilder } from '@codemirror/state';
import {
  EditorView,
  Decoration,
  WidgetType,
  keymap,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  highlightWhitespace,
  drawSelection,
  dropCursor,
} from '@codemirror/view';
import { history, defaultKeymap, historyKeymap, insertTab, undo, undoDepth } from '@codemirror/commands';
import { bracketMatching, foldGutter, indentOnInput } from '@codemirror/language';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { editorTheme, highlighting } from './theme.js';
import { languageFor } from './languages.js';

const language = new Compartment();
const whitespace = new Compartment();

/** Special characters as symbols: ␍ for the \r of CRLF, BOM, no-break spaces. */
export const specialChars = highlightSpecialChars({
  addSpecialChars: /[\u00a0\u2000-\u200a\u202f\u3000]/,
  render(code, description) {
    const span = document.createElement('span');
    span.className = 'cm-specialChar';
    span.title = description ?? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    if (code === 13) {
      span.textContent = 'CR';
      span.classList.add('cm-cr');
      span.title = 'carriage return (CRLF line ending)';
    } else if (code === 0xfeff) {
      span.textContent = 'BOM';
      span.classList.add('cm-bom');
      span.title = 'byte order mark (U+FEFF)';
    } else if (code === 0xa0 || (code >= 0x2000 && code <= 0x200a) || code === 0x202f || code === 0x3000) {
      span.textContent = '⍽';
      span.title = `no-break or Unicode space (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
    } else {
      span.textContent = '•';
    }
    return span;
  },
});

// --- Highlights of a refusal: closest area, differing lines, ambiguous candidates ----

/** setMarks.of({areas: [{from, to, kind, label}], lines: [n]}) — 1-based lines; null clears. */
const setMarks = StateEffect.define();

class LabelWidget extends WidgetType {
  constructor(text, kind) {
    super();
    this.text = text;
    this.kind = kind;
  }
  eq(other) {
    return other.text === this.text && other.kind === this.kind;
  }
  toDOM() {
    const div = document.createElement('div');
    div.className = `cm-area-label cm-area-label-${this.kind}`;
    div.textContent = this.text;
    return div;
  }
}

function buildMarks(doc, marks) {
  if (!marks) return Decoration.none;
  const perLine = new Map(); // line → set of classes
  const labels = new Map(); // line → [label widgets]
  const add = (line, cls) => {
    if (line < 1 || line > doc.lines) return;
    if (!perLine.has(line)) perLine.set(line, new Set());
    perLine.get(line).add(cls);
  };
  for (const area of marks.areas ?? []) {
    const from = Math.max(1, area.from);
    const to = Math.min(doc.lines, Math.max(from, area.to));
    for (let l = from; l <= to; l += 1) add(l, `cm-mark-${area.kind}`);
    add(from, `cm-mark-${area.kind}-first`);
    add(to, `cm-mark-${area.kind}-last`);
    if (area.label && from <= doc.lines) {
      if (!labels.has(from)) labels.set(from, []);
      labels.get(from).push(new LabelWidget(area.label, area.kind));
    }
  }
  for (const line of marks.lines ?? []) add(line, 'cm-mark-differs');
  const builder = new RangeSetBuilder();
  for (const line of [...new Set([...perLine.keys(), ...labels.keys()])].sort((a, b) => a - b)) {
    const start = doc.line(line).from;
    for (const w of labels.get(line) ?? []) builder.add(start, start, Decoration.widget({ widget: w, block: true, side: -1 }));
    if (perLine.has(line)) builder.add(start, start, Decoration.line({ class: [...perLine.get(line)].join(' ') }));
  }
  return builder.finish();
}

const marksField = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setMarks)) return buildMarks(tr.state.doc, e.value);
    // The marks describe the text the engine saw: any edit makes them stale.
    return tr.docChanged ? Decoration.none : value;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// -------------------------------------------------------------------------------------

function baseExtensions(onDocChange) {
  return [
    EditorState.lineSeparator.of('\n'),
    lineNumbers(),
    foldGutter({ openText: '▾', closedText: '▸' }),
    highlightActiveLineGutter(),
    specialChars,
    history(),
    drawSelection(),
    dropCursor(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    keymap.of([{ key: 'Tab', run: insertTab }, ...defaultKeymap, ...historyKeymap, ...searchKeymap]),
    EditorState.tabSize.of(4),
    editorTheme,
    highlighting,
    marksField,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) onDocChange(u);
    }),
  ];
}

/** Position of an engine point {row, column} (0-based, UTF-16) in `doc`, clamped to it. */
export function offsetOf(doc, point) {
  const row = Math.max(0, point.row);
  if (row + 1 > doc.lines) return doc.length;
  const line = doc.line(row + 1);
  return Math.min(line.from + Math.max(0, point.column), line.to);
}

export class Workspace {
  /**
   * `parent`: element for the editor. `onChange({kind, path})`: after any change of
   * the files (kind 'doc' for typing or applying, 'tabs' for the set of files or the
   * active one).
   */
  constructor(parent, onChange) {
    this.onChange = onChange;
    this.states = new Map();
    this.active = null;
    this.showWhitespace = true;
    this.extensions = baseExtensions(() => this.onChange({ kind: 'doc', path: this.active }));
    this.view = new EditorView({ parent, state: this.newState('', 'untitled.txt') });
  }

  newState(text, path) {
    return EditorState.create({
      doc: text,
      extensions: [
        this.extensions,
        language.of(languageFor(path).extension),
        whitespace.of(this.showWhitespace ? highlightWhitespace() : []),
      ],
    });
  }

  /** Saves the view's state under the active path (call before touching `states`). */
  sync() {
    if (this.active !== null && this.states.has(this.active)) this.states.set(this.active, this.view.state);
  }

  paths() {
    return [...this.states.keys()];
  }

  has(path) {
    return this.states.has(path);
  }

  text(path) {
    this.sync();
    return this.states.get(path)?.doc.toString();
  }

  /** [[path, text], …] of every tab, in order. */
  entries() {
    this.sync();
    return [...this.states].map(([p, s]) => [p, s.doc.toString()]);
  }

  languageName(path = this.active) {
    return languageFor(path ?? '').name;
  }

  /** Replaces every tab: `files` is [[path, text], …]. */
  load(files, active) {
    this.states = new Map(files.map(([p, t]) => [p, this.newState(t, p)]));
    if (this.states.size === 0) this.states.set('untitled.txt', this.newState('', 'untitled.txt'));
    this.active = null;
    this.select(this.states.has(active) ? active : this.paths()[0]);
  }

  select(path) {
    if (!this.states.has(path)) return;
    this.sync();
    this.active = path;
    this.view.setState(this.states.get(path));
    this.onChange({ kind: 'tabs', path });
  }

  /** A new tab (or the text of an existing one replaced, as one undoable change). */
  put(path, text, { focus = false } = {}) {
    this.sync();
    if (this.states.has(path)) {
      this.replaceAll(path, text);
    } else {
      this.states.set(path, this.newState(text, path));
      this.onChange({ kind: 'tabs', path });
    }
    if (focus) this.select(path);
  }

  remove(path) {
    this.sync();
    if (!this.states.delete(path)) return;
    if (this.states.size === 0) this.states.set('untitled.txt', this.newState('', 'untitled.txt'));
    if (this.active === path) {
      this.active = null;
      this.select(this.paths()[0]);
    } else {
      this.onChange({ kind: 'tabs', path });
    }
  }

  rename(from, to) {
    this.sync();
    if (!this.states.has(from) || from === to || this.states.has(to)) return false;
    const renamed = new Map();
    for (const [p, s] of this.states) {
      renamed.set(p === from ? to : p, p === from ? s.update({ effects: language.reconfigure(languageFor(to).extension) }).state : s);
    }
    this.states = renamed;
    if (this.active === from) {
      this.active = to;
      this.view.setState(this.states.get(to));
    }
    this.onChange({ kind: 'tabs', path: to });
    return true;
  }

  /** Puts the tabs in `order` (paths not in it keep their place after those). */
  reorder(order) {
    this.sync();
    const next = new Map();
    for (const p of order) if (this.states.has(p)) next.set(p, this.states.get(p));
    for (const [p, s] of this.states) if (!next.has(p)) next.set(p, s);
    this.states = next;
    this.onChange({ kind: 'tabs', path: this.active });
  }

  /** Runs `spec` (a transaction spec or a function of the state giving one) on a file's state. */
  transact(path, spec) {
    this.sync();
    const state = this.states.get(path);
    if (!state) return;
    const s = typeof spec === 'function' ? spec(state) : spec;
    if (path === this.active) {
      this.view.dispatch(s);
      this.states.set(path, this.view.state);
    } else {
      this.states.set(path, state.update(s).state);
      if (s.changes) this.onChange({ kind: 'doc', path });
    }
  }

  replaceAll(path, text) {
    this.transact(path, (state) => ({ changes: { from: 0, to: state.doc.length, insert: text }, userEvent: 'input.engine' }));
  }

  /**
   * Applies the engine's `edits` (sorted, disjoint ranges of the text as it was, rows and
   * UTF-16 columns) to `path` in one transaction: one undo step.
   */
  applyEdits(path, edits) {
    this.transact(path, (state) => ({
      changes: edits.map((e) => ({
        from: offsetOf(state.doc, e.range.start),
        to: offsetOf(state.doc, e.range.end),
        insert: e.text,
      })),
      userEvent: 'input.engine',
      scrollIntoView: false,
    }));
  }

  undo(path) {
    this.sync();
    const state = this.states.get(path);
    if (!state || undoDepth(state) === 0) return false;
    if (path === this.active) {
      undo(this.view);
      this.states.set(path, this.view.state);
    } else {
      let next = state;
      undo({ state, dispatch: (tr) => (next = tr.state) });
      this.states.set(path, next);
      this.onChange({ kind: 'doc', path });
    }
    return true;
  }

  /** Marks of a refusal on `path` (see setMarks); null clears every file's marks. */
  mark(path, marks) {
    this.sync();
    if (path === null) {
      for (const p of this.paths()) this.transact(p, { effects: setMarks.of(null) });
      return;
    }
    this.transact(path, { effects: setMarks.of(marks) });
  }

  /** Shows `line` (1-based) of the active file in the middle of the editor. */
  reveal(line) {
    const doc = this.view.state.doc;
    if (line < 1 || line > doc.lines) return;
    const pos = doc.line(line).from;
    this.view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
  }

  setWhitespace(on) {
    this.showWhitespace = on;
    this.sync();
    for (const p of this.paths()) {
      this.transact(p, { effects: whitespace.reconfigure(on ? highlightWhitespace() : []) });
    }
  }

  /** 'LF', 'CRLF', 'mixed' or 'none' for the active file. */
  lineEndings(path = this.active) {
    const text = this.text(path) ?? '';
    const crlf = (text.match(/\r\n/g) ?? []).length;
    const lf = (text.match(/\n/g) ?? []).length - crlf;
    if (crlf && lf) return 'mixed';
    if (crlf) return 'CRLF';
    if (lf) return 'LF';
    return 'none';
  }
}
