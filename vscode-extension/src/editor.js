// VS Code's side of the editor tools (js/host-policy/editor-tools.js): the adapter that
// answers them from VS Code's window and workspace. The words, the argument checks and
// the path rule are the shared module's; this file only asks VS Code.
//
// - Open files are the editor tabs holding a text document (TabInputText), one entry per
//   document; "modified" is the tab's dirty flag, "active" the active text editor's
//   document. Documents VS Code keeps in the background without a tab are not "open".
// - Paths go through WorkspacePaths (files.js): `locate` (the roots, the desktop's
//   realpath check) and, in the browser, `linkRefusal` (no symlink on the way).
// - Diagnostics are `vscode.languages.getDiagnostics`: every language extension's and
//   linter's problems, as the Problems panel shows them.

import * as vscode from 'vscode';

const SEVERITY = ['error', 'warning', 'info', 'hint'];

function openDocument(uri) {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === key);
}

const point = (p) => ({ row: p.line, column: p.character });
const range = (r) => ({ start: point(r.start), end: point(r.end) });

/**
 * The adapter over `paths` (WorkspacePaths). A document's file is named as the roots
 * are (the file system path on disk, the URI's path for a folder of another scheme);
 * an untitled document, or one of a scheme no folder has, has no file (null).
 */
export function createEditorAdapter({ paths }) {
  function fileOf(uri) {
    if (uri.scheme === 'untitled') return null;
    if (uri.scheme === 'file') return uri.fsPath.replace(/\\/g, '/');
    const folder = paths.folders().find((f) => f.uri.scheme === uri.scheme && f.uri.authority === uri.authority);
    return folder ? uri.path : null;
  }
  const nameOf = (uri) => (uri.scheme === 'untitled' ? uri.path : uri.toString(true));

  return {
    roots: () => paths.rootPaths(),

    async locate(p) {
      const loc = paths.locate(p);
      const refused = await paths.linkRefusal(p, loc.uri);
      if (refused) throw refused;
      return loc;
    },

    async exists(loc) {
      if (openDocument(loc.uri)) return 'file';
      try {
        const stat = await vscode.workspace.fs.stat(loc.uri);
        return stat.type & vscode.FileType.Directory ? 'directory' : stat.type & vscode.FileType.File ? 'file' : null;
      } catch {
        return null;
      }
    },

    selection() {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return null;
      const doc = editor.document;
      // editor.selection is the primary one; editor.selections holds it too.
      const others = editor.selections.filter((s) => !s.isEqual(editor.selection));
      return {
        file: fileOf(doc.uri),
        name: nameOf(doc.uri),
        selections: [editor.selection, ...others].map((s) => ({ range: range(s), text: doc.getText(s) })),
      };
    },

    openFiles() {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      const seen = new Map();
      for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
        if (!(tab.input instanceof vscode.TabInputText)) continue;
        const uri = tab.input.uri;
        const key = uri.toString();
        const entry = seen.get(key) ?? { file: fileOf(uri), name: nameOf(uri), active: key === active, modified: false };
        entry.modified = entry.modified || tab.isDirty || openDocument(uri)?.isDirty === true;
        seen.set(key, entry);
      }
      return [...seen.values()];
    },

    async open(loc, line) {
      const doc = await vscode.workspace.openTextDocument(loc.uri);
      const options = { preview: false };
      if (line !== undefined) {
        const at = new vscode.Position(Math.min(line, doc.lineCount - 1), 0);
        options.selection = new vscode.Range(at, at);
      }
      const editor = await vscode.window.showTextDocument(doc, options);
      if (line !== undefined) editor.revealRange(options.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return { line_count: doc.lineCount };
    },

    async save(loc) {
      const doc = openDocument(loc.uri);
      if (!doc) return 'closed';
      if (!doc.isDirty) return 'clean';
      if (!(await doc.save())) throw new Error('VS Code did not save it (a save participant or the file system refused)');
      return 'saved';
    },

    diagnostics(loc) {
      const entries = loc ? [[loc.uri, vscode.languages.getDiagnostics(loc.uri)]] : vscode.languages.getDiagnostics();
      const items = [];
      for (const [uri, list] of entries) {
        const file = fileOf(uri);
        if (file === null) continue;
        for (const d of list) {
          items.push({
            file,
            range: range(d.range),
            severity: SEVERITY[d.severity] ?? 'info',
            message: d.message,
            source: d.source,
            code: typeof d.code === 'object' && d.code !== null ? d.code.value : d.code,
          });
        }
      }
      return { available: true, items };
    },
  };
}
