'use strict';
// The status-bar tile: whether the MCP server is on, its port, and the last edit's
// result ("str_replace ✓", "str_replace ✗ no_match", "insert ⧗ review").

const OUTCOME_MARK = { applied: '✓', previewed: '◇', refused: '✗', held: '⧗', error: '✗' };

/** The tile's text and tooltip for a server (or null) and the host's last edit. */
function statusText({ server, lastEdit, reviewMode }) {
  let text = server ? `MCP :${server.port}` : 'MCP off';
  if (reviewMode) text += ' · review';
  let tooltip = server ? `anchored-edit MCP server on ${server.url}` : 'anchored-edit MCP server is off (Anchored Edit: Start Server)';
  if (lastEdit) {
    const kind = lastEdit.outcome === 'refused' && lastEdit.kind ? ` ${lastEdit.kind}` : '';
    text += ` · ${lastEdit.tool} ${OUTCOME_MARK[lastEdit.outcome] ?? ''}${kind}`;
    tooltip += `\nLast edit: ${lastEdit.tool}${lastEdit.path ? ` on ${lastEdit.path}` : ''}: ${lastEdit.outcome}${kind}${lastEdit.message ? `\n${lastEdit.message}` : ''}`;
  }
  return { text, tooltip };
}

class StatusTile {
  constructor({ onClick }) {
    this.element = document.createElement('div');
    this.element.className = 'anchored-edit-status inline-block';
    this.icon = document.createElement('span');
    this.icon.className = 'icon icon-plug';
    this.label = document.createElement('span');
    this.element.append(this.icon, this.label);
    this.element.addEventListener('click', onClick);
    this.tooltip = null;
  }

  update(state) {
    const { text, tooltip } = statusText(state);
    this.label.textContent = text;
    this.element.classList.toggle('is-on', Boolean(state.server));
    this.element.dataset.outcome = state.lastEdit ? state.lastEdit.outcome : '';
    if (this.tooltip) this.tooltip.dispose();
    const html = tooltip
      .split('\n')
      .map((line) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))
      .join('<br>');
    this.tooltip = atom.tooltips.add(this.element, { title: html });
  }

  destroy() {
    if (this.tooltip) this.tooltip.dispose();
    this.element.remove();
  }
}

module.exports = { StatusTile, statusText };
