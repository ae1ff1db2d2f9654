// Proposed edits shown in VS Code's diff editor before they are applied: dry runs the
// user asked for, and every agent edit while review mode is on.
//
// The proposed text of each file is a virtual document (`anchored-edit-preview:` URIs,
// served by a TextDocumentContentProvider from the engine's `new_text`); the diff editor
// compares it with the live document (or with an empty document for a file the call
// creates). Apply / Discard are editor-title buttons on those diff editors. A preview
// holds the engine's result and the texts it was computed from; applying it later is
// refused when a document changed in between (files.js checks).

import * as vscode from 'vscode';

export const PREVIEW_SCHEME = 'anchored-edit-preview';

function previewUri(id, path, query = '') {
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${id}/${path}`, query });
}

function idOfUri(uri) {
  if (uri?.scheme !== PREVIEW_SCHEME) return undefined;
  return uri.path.split('/')[1];
}

/** The preview URI of a diff tab, if it shows one. */
function previewOfTab(tab) {
  const input = tab.input;
  if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === PREVIEW_SCHEME) return input.modified;
  return undefined;
}

export class Previews {
  #items = new Map();
  #next = 1;
  #changed = new vscode.EventEmitter();

  /** Fires when a preview is added or removed. */
  onDidChange = this.#changed.event;

  /** The TextDocumentContentProvider of the proposed texts. */
  provider = {
    provideTextDocumentContent: (uri) => {
      const item = this.#items.get(idOfUri(uri));
      if (!item || uri.query === 'before') return '';
      return item.entries.find((e) => e.right.path === uri.path)?.text ?? '';
    },
  };

  /**
   * Registers a preview of `result` (a successful call with changes) read from `files`
   * (CallFiles). `review`: an agent's edit waiting for the user's decision.
   */
  add({ result, files, review = false }) {
    const id = String(this.#next++);
    const entries = result.files.map((change) => {
      const shownPath = change.moved_to ?? change.path;
      // The document's own name (the call's path may mean the active editor's document).
      const name = change.created ? change.path : vscode.workspace.asRelativePath(files.uriOf(change.path), false);
      return {
        path: change.path,
        shownPath,
        label: change.moved_to !== undefined ? `${name} → ${change.moved_to}` : name,
        left: change.created ? previewUri(id, change.path, 'before') : files.uriOf(change.path),
        right: previewUri(id, shownPath),
        text: change.deleted ? '' : (change.new_text ?? ''),
        change,
      };
    });
    const item = { id, tool: result.tool, result, files, review, entries, shown: false, decide: undefined };
    this.#items.set(id, item);
    this.#changed.fire();
    return item;
  }

  /** Opens a diff editor per changed file. */
  async show(item, { preserveFocus = false } = {}) {
    for (const entry of item.entries) {
      const what = entry.change.deleted
        ? 'deleted'
        : entry.change.created
          ? 'created'
          : entry.change.moved_to !== undefined
            ? 'moved'
            : 'proposed';
      const title = `${item.review ? 'Review' : 'Dry run'}: ${item.tool} · ${entry.label} (${what})`;
      await vscode.commands.executeCommand('vscode.diff', entry.left, entry.right, title, {
        preview: false,
        preserveFocus,
      });
    }
    item.shown = true;
  }

  /**
   * The preview meant by `ref`: its id, one of its URIs, or nothing for the one in the
   * active editor (else the most recent).
   */
  find(ref) {
    if (typeof ref === 'string') return this.#items.get(ref);
    if (ref instanceof vscode.Uri) return this.#items.get(idOfUri(ref));
    const active = vscode.window.tabGroups.activeTabGroup.activeTab;
    const uri = active && previewOfTab(active);
    if (uri) return this.#items.get(idOfUri(uri));
    return [...this.#items.values()].pop();
  }

  /** The diff tabs showing `item`. */
  tabsOf(item) {
    return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => idOfUri(previewOfTab(t)) === item.id);
  }

  /** Closes the item's diff editors and forgets it. */
  async remove(item) {
    this.#items.delete(item.id);
    this.#changed.fire();
    const tabs = this.tabsOf(item);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  /** Previews shown whose diff editors were all closed by the user. */
  orphans() {
    return [...this.#items.values()].filter((item) => item.shown && this.tabsOf(item).length === 0);
  }

  pending() {
    return [...this.#items.values()];
  }

  dispose() {
    this.#changed.dispose();
  }
}
