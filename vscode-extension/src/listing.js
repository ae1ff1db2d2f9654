// The project listing in VS Code (the reader's `list(folder)`, DESIGN contract 1):
// `workspace.findFiles` over the folder (which applies the user's `files.exclude`), then
// the engine's ignore rules over the result (js/host-policy/listing.js: hidden files,
// .gitignore/.ignore files, read here from the listed ones), then the path rule (a file a symlink leads
// out of the folder to is left out where the platform can tell: the desktop's realpath
// check). Asynchronous, so the host fetches it before the engine asks (files.js).

import * as vscode from 'vscode';
import { filterListing, inFolder, isIgnoreFile } from '../../js/host-policy/listing.js';

const decoder = new TextDecoder('utf-8');

/**
 * The files under engine folder `folder` ('' the first workspace folder; absolute: inside
 * any workspace folder), as engine paths, unsorted; a folder that does not exist lists
 * nothing. Throws a `path_outside_root` refusal ({kind, message}) for a folder outside
 * the workspace.
 */
export async function listFolder(engine, paths, folder) {
  const folders = paths.folders();
  if (folders.length === 0) {
    throw Object.assign(new Error(`No folder is open in VS Code, so \`${folder}\` cannot be listed. Ask the user to open the project folder.`), {
      kind: 'path_outside_root',
    });
  }
  let root = folders[0];
  let rel = folder;
  let absolute = false;
  if (folder !== '' && /^([\\/]|[A-Za-z]:[\\/])/.test(folder)) {
    // An absolute folder: the workspace folder it lies in (locate refuses any other).
    const loc = paths.locate(`${folder}/.`);
    root = loc.folder;
    rel = paths.relativeOf(loc.uri, root) ?? '';
    absolute = true;
  }
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(root, '**/*'));
  const all = [];
  for (const uri of found) {
    const p = paths.relativeOf(uri, root);
    if (p !== undefined) all.push(p);
  }
  // A folder that does not exist lists nothing; the engine words that refusal.
  const ignoreTexts = {};
  for (const p of all) {
    if (!isIgnoreFile(p)) continue;
    try {
      ignoreTexts[p] = decoder.decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root.uri, p)));
    } catch {
      // An unreadable ignore file ignores nothing.
    }
  }
  const base = paths.rootPaths()[folders.indexOf(root)];
  const named = (p) => (absolute || root !== folders[0] ? `${base.replace(/\/$/, '')}/${p}` : p);
  return filterListing({ engine, paths: all, ignoreTexts })
    .filter((p) => inFolder(p, rel))
    .map(named)
    .filter((p) => {
      try {
        paths.locate(p);
        return true;
      } catch {
        return false;
      }
    });
}
