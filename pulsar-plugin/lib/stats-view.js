'use strict';
// The statistics pane (atom://anchored-edit/stats): the engine's summary line, a table
// per tool × outcome (lib/stats-table.js), and the editor's own counts of previews and
// reviews. Refreshed after every call.

const { statsTable } = require('./stats-table');

const STATS_URI = 'atom://anchored-edit/stats';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

class StatsView {
  constructor({ host }) {
    this.host = host;
    this.element = el('div', 'anchored-edit-stats');
    this.element.tabIndex = -1;
    this.onChange = () => this.render();
    for (const event of ['result', 'queue', 'stats']) host.on(event, this.onChange);
    this.render();
  }

  getTitle() {
    return 'Agent Edit Statistics';
  }

  getURI() {
    return STATS_URI;
  }

  getIconName() {
    return 'graph';
  }

  getElement() {
    return this.element;
  }

  render() {
    const { tools, summary, counts } = this.host.stats();
    this.element.textContent = '';
    this.element.appendChild(el('h2', null, 'Agent edit statistics'));
    this.element.appendChild(el('p', 'anchored-edit-stats-summary', summary || 'No calls recorded yet.'));

    const { columns, rows, totals } = statsTable(tools);
    if (rows.length > 0) {
      const table = el('table', 'anchored-edit-stats-table');
      const head = el('tr');
      head.appendChild(el('th', null, 'tool'));
      for (const c of columns) head.appendChild(el('th', c.key.startsWith('error:') ? 'error-kind' : null, c.label));
      table.appendChild(el('thead')).appendChild(head);
      const body = el('tbody');
      for (const row of rows) {
        const tr = el('tr');
        tr.dataset.tool = row.tool;
        tr.appendChild(el('td', 'tool', row.tool));
        for (const c of columns) tr.appendChild(el('td', row.cells[c.key] === 0 ? 'zero' : null, String(row.cells[c.key])));
        body.appendChild(tr);
      }
      const total = el('tr', 'total');
      total.appendChild(el('td', 'tool', 'all'));
      for (const c of columns) total.appendChild(el('td', null, String(totals[c.key])));
      body.appendChild(total);
      table.appendChild(body);
      this.element.appendChild(table);
    }

    this.element.appendChild(el('h3', null, 'In the editor'));
    const list = el('ul', 'anchored-edit-stats-counts');
    for (const [label, n] of [
      ['dry runs applied from the diff pane', counts.previewsApplied],
      ['dry runs discarded', counts.previewsDiscarded],
      ['held edits applied (review mode)', counts.reviewsApplied],
      ['held edits discarded', counts.reviewsDiscarded],
      ['held edits timed out', counts.reviewsExpired],
      ['applies refused: the file changed since the diff', counts.refusedStale],
    ]) {
      list.appendChild(el('li', null, `${label}: ${n}`));
    }
    this.element.appendChild(list);
    this.element.appendChild(
      el(
        'p',
        'text-subtle',
        'Engine counts are per call as the engine computed it; an edit held in review mode counts as applied by the engine even when you discard it (see "In the editor").',
      ),
    );
    const reset = el('button', 'btn anchored-edit-stats-reset', 'Reset statistics');
    reset.addEventListener('click', () => this.host.resetStats());
    this.element.appendChild(reset);
  }

  destroy() {
    for (const event of ['result', 'queue', 'stats']) this.host.removeListener(event, this.onChange);
    this.element.remove();
  }
}

module.exports = { StatsView, STATS_URI };
