'use strict';
// The diff pane (atom://anchored-edit/preview): the pending dry run or held edit, one
// section per file with the engine's unified diff shown in a read-only editor that has
// the file's grammar (syntax colours), added and removed lines highlighted, a gutter
// of old/new line numbers that link to the file, and Apply / Discard buttons.

const { parseUnifiedDiff, rowTarget } = require('./diff-model');

const PREVIEW_URI = 'atom://anchored-edit/preview';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const STATUS_TEXT = {
  pending: null,
  applied: 'Applied.',
  discarded: 'Discarded.',
  replaced: 'Replaced by a newer dry run.',
  expired: null,
  stale: null,
  failed: null,
};

class PreviewView {
  /**
   * `host`: lib/host.js Host. `apply(id)`, `discard(id)`: the package's actions (they
   * notify the user). `openFile(path, line)`: opens an engine path at a 1-based line.
   */
  constructor({ host, apply, discard, openFile }) {
    this.host = host;
    this.applyAction = apply;
    this.discardAction = discard;
    this.openFile = openFile;
    this.editors = [];
    this.element = el('div', 'anchored-edit-preview');
    this.element.tabIndex = -1;
    this.onQueue = () => this.render();
    host.on('queue', this.onQueue);
    this.render();
  }

  getTitle() {
    return 'Agent Edit Preview';
  }

  getURI() {
    return PREVIEW_URI;
  }

  getIconName() {
    return 'diff';
  }

  getDefaultLocation() {
    return 'center';
  }

  getElement() {
    return this.element;
  }

  /** The item shown (a dry run or a held edit), or null. */
  currentItem() {
    return this.host.queue.current();
  }

  #clear() {
    for (const editor of this.editors) editor.destroy();
    this.editors = [];
    this.element.textContent = '';
  }

  render() {
    this.#clear();
    const item = this.currentItem();
    if (!item) {
      this.element.appendChild(
        el(
          'div',
          'anchored-edit-preview-empty',
          'No pending change. Dry runs (dry_run: true) and, in review mode, every edit the agent sends appear here as diffs to apply or discard.',
        ),
      );
      return;
    }
    this.element.dataset.itemId = String(item.id);
    this.element.dataset.status = item.status;

    const header = el('div', 'anchored-edit-preview-header');
    const title = el('div', 'anchored-edit-preview-title');
    const kind = item.kind === 'review' ? 'Held for review' : 'Dry run';
    title.appendChild(el('span', 'badge badge-info', kind));
    title.appendChild(el('span', 'anchored-edit-preview-tool', ` ${item.tool}`));
    header.appendChild(title);
    if (item.result.message) header.appendChild(el('div', 'anchored-edit-preview-message', item.result.message));
    for (const w of item.result.warnings ?? []) header.appendChild(el('div', 'anchored-edit-preview-warning text-warning', w));

    const status = item.status === 'pending' ? this.#pendingText(item) : STATUS_TEXT[item.status] ?? item.message;
    header.appendChild(el('div', `anchored-edit-preview-status status-${item.status}`, status ?? item.message ?? ''));

    const buttons = el('div', 'btn-group anchored-edit-preview-buttons');
    const apply = el('button', 'btn btn-primary icon icon-check anchored-edit-apply', 'Apply');
    const discard = el('button', 'btn icon icon-x anchored-edit-discard', 'Discard');
    apply.disabled = discard.disabled = item.status !== 'pending';
    apply.addEventListener('click', () => this.applyAction(item.id));
    discard.addEventListener('click', () => this.discardAction(item.id));
    buttons.append(apply, discard);
    header.appendChild(buttons);
    this.element.appendChild(header);

    for (const file of item.files) this.element.appendChild(this.#renderFile(file));
  }

  #pendingText(item) {
    if (item.kind !== 'review') return 'Nothing is written until you apply it. The agent has its result already.';
    const at = new Date(item.deadline).toLocaleTimeString();
    return `The agent's call waits for your decision (refused at ${at} if none).`;
  }

  #renderFile(file) {
    const section = el('section', 'anchored-edit-preview-file');
    const head = el('header', 'anchored-edit-preview-file-header');
    const shown = this.host.workspace.displayPath(file.path);
    const link = el('a', 'anchored-edit-preview-file-link icon icon-file-text', shown);
    link.addEventListener('click', () => this.openFile(file.moved_to ?? file.path, 1));
    head.appendChild(link);
    if (file.created) head.appendChild(el('span', 'badge badge-success', 'new file'));
    if (file.deleted) head.appendChild(el('span', 'badge badge-error', 'deleted'));
    if (file.moved_to) head.appendChild(el('span', 'badge badge-warning', `moved to ${this.host.workspace.displayPath(file.moved_to)}`));
    const diff = parseUnifiedDiff(file.diff);
    let added = 0;
    let removed = 0;
    for (const h of diff.hunks) for (const r of h.rows) r.kind === 'added' ? added++ : r.kind === 'removed' ? removed++ : 0;
    head.appendChild(el('span', 'anchored-edit-preview-counts', ` +${added} −${removed}`));
    section.appendChild(head);
    if (diff.hunks.length > 0) section.appendChild(this.#renderDiff(file, diff));
    return section;
  }

  /** One read-only editor holding every row of the file's hunks, with the file's grammar. */
  #renderDiff(file, diff) {
    const rows = [];
    for (const hunk of diff.hunks) hunk.rows.forEach((row, index) => rows.push({ hunk, index, row }));
    const editor = atom.workspace.buildTextEditor({ readOnly: true, autoHeight: true, lineNumberGutterVisible: false, softWrapped: false });
    this.editors.push(editor);
    // The editor is read-only for the user; the text goes in through its buffer.
    editor.getBuffer().setText(rows.map((r) => r.row.text).join('\n'));
    const grammarPath = file.moved_to ?? file.path;
    const grammar = atom.grammars.selectGrammar(grammarPath, editor.getText());
    if (grammar) atom.grammars.assignLanguageMode(editor.getBuffer(), grammar.scopeName);

    const gutter = editor.addGutter({ name: 'anchored-edit-diff-lines', priority: 0 });
    const target = file.deleted ? null : file.moved_to ?? file.path;
    rows.forEach(({ hunk, index, row }, line) => {
      const marker = editor.markBufferRange([[line, 0], [line, 0]], { invalidate: 'never' });
      if (row.kind !== 'context') editor.decorateMarker(marker, { type: 'line', class: `anchored-edit-diff-${row.kind}` });
      const numbers = el('span', `anchored-edit-diff-numbers anchored-edit-diff-${row.kind}`);
      numbers.appendChild(el('span', 'old', row.oldLine === null ? '' : String(row.oldLine)));
      numbers.appendChild(el('span', 'new', row.newLine === null ? '' : String(row.newLine)));
      numbers.appendChild(el('span', 'sign', row.kind === 'added' ? '+' : row.kind === 'removed' ? '−' : ' '));
      if (target) {
        numbers.classList.add('anchored-edit-link');
        numbers.title = 'Open the file at this line';
        numbers.addEventListener('click', () => this.openFile(target, rowTarget(hunk, index).line));
      }
      gutter.decorateMarker(marker, { type: 'gutter', item: numbers });
      if (index === 0) {
        const header = el('div', 'anchored-edit-diff-hunk', hunk.header);
        if (target) header.addEventListener('click', () => this.openFile(target, hunk.newStart));
        editor.decorateMarker(marker, { type: 'block', position: 'before', item: header });
      }
    });
    const holder = el('div', 'anchored-edit-preview-diff');
    holder.appendChild(editor.getElement());
    return holder;
  }

  destroy() {
    this.host.removeListener('queue', this.onQueue);
    this.#clear();
    this.element.remove();
  }
}

module.exports = { PreviewView, PREVIEW_URI };
