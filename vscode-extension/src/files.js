// The workspace as the engine sees it, and the engine's changes applied to it.
//
// Reading. The engine's reader is synchronous; VS Code's file system is not. Open
// documents are read synchronously from their TextDocument (unsaved text included);
// other files must be read through `workspace.fs` (asynchronous) before the engine asks
// for them. Which files a call reads is the engine's business (a `path` argument, its
// aliases, each item of a multi_replace, every file a patch names, a move's destination),
// so the host does not guess: it runs the call, and when the engine asks for a file that
// was not read yet, the reader throws, the call's statistics are rolled back
// (statsJson/loadStats), the file is read, and the call runs again. A call over open
// documents runs once; each closed file costs one extra run.
//
// Writing. A call's changes go into one WorkspaceEdit (one undo step, also across
// files): text edits by {row, column} (UTF-16 columns, as VS Code's Position), file
// creation with its contents, deletion, rename. Before applying, every document must
// still hold exactly the text the engine read; otherwise nothing is applied.

import * as vscode from 'vscode';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** Thrown by the reader for a file not read yet; never reaches the agent. */
class NotReadYet extends Error {}

/** A refusal of the engine's kind `kind`, with `message` written for the agent. */
export function refusal(kind, message) {
  return Object.assign(new Error(message), { kind });
}

/** A host failure to apply (write_failed), or a `stale_buffer` of `path` when `stale`. */
export class ApplyError extends Error {
  constructor(message, { stale = false, path } = {}) {
    super(message);
    this.stale = stale;
    this.path = path;
  }
}

function isAbsolute(path) {
  return /^([\\/]|[A-Za-z]:[\\/]|[A-Za-z][\w+.-]*:\/\/)/.test(path);
}

/**
 * Maps the engine's workspace-relative paths to URIs under the first workspace folder.
 * Anything else is refused with `path_outside_root` (the engine already refuses a `..`
 * that climbs out before it asks).
 */
export class WorkspacePaths {
  root() {
    return vscode.workspace.workspaceFolders?.[0];
  }

  uriOf(path) {
    const folder = this.root();
    if (!folder) {
      throw refusal(
        'path_outside_root',
        `No folder is open in VS Code, so \`${path}\` cannot be resolved. Ask the user to open the project folder.`,
      );
    }
    if (isAbsolute(path)) {
      const posix = path.replace(/\\/g, '/');
      const rootPath = folder.uri.scheme === 'file' ? folder.uri.fsPath.replace(/\\/g, '/') : folder.uri.path;
      const prefix = rootPath.endsWith('/') ? rootPath : `${rootPath}/`;
      if (posix.toLowerCase().startsWith(prefix.toLowerCase()) && posix.length > prefix.length) {
        const relative = posix.slice(prefix.length);
        throw refusal(
          'path_outside_root',
          `\`${path}\` is absolute; paths are relative to the workspace folder ${folder.name}. Send "${relative}".`,
        );
      }
      throw refusal(
        'path_outside_root',
        `\`${path}\` is outside the workspace folder ${folder.name}. Send a path inside it, relative to it (e.g. "src/main.rs").`,
      );
    }
    return vscode.Uri.joinPath(folder.uri, path);
  }

  /** The workspace-relative path of `uri`, or undefined when it is not under the folder. */
  relativeOf(uri) {
    const folder = this.root();
    if (!folder || uri.scheme !== folder.uri.scheme || uri.authority !== folder.uri.authority) return undefined;
    const prefix = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
    return uri.path.startsWith(prefix) ? uri.path.slice(prefix.length) : undefined;
  }
}

function openDocument(uri) {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key && !d.isClosed);
}

/** Reads a closed file: its text, null when there is none, or {error} to refuse it with. */
async function readClosedFile(uri) {
  let bytes;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return null;
    if (e?.code === 'FileNotFound' || e?.name === 'EntryNotFound (FileSystemError)') return null;
    return { error: new Error(e?.message ?? String(e)) };
  }
  if (bytes.includes(0)) return { error: new Error('it is a binary file (it contains NUL bytes); anchored-edit edits text') };
  try {
    // The BOM, if any, is left out, as in the TextDocument VS Code makes of the file.
    return utf8.decode(bytes);
  } catch {
    return { error: new Error('it is not UTF-8 text') };
  }
}

/**
 * The texts one call read: for each path the engine asked for, the URI, the text it got
 * (null: no such file) and the document it came from. `target` (a TextDocument) makes
 * the first path the call reads mean that document, whatever its name (the "run against
 * the active editor" commands); other paths are then refused.
 */
export class CallFiles {
  #paths;
  #target;
  #cache;
  #records = new Map();
  #missing = [];

  constructor(paths, { target, cache } = {}) {
    this.#paths = paths;
    this.#target = target ? { document: target, path: undefined } : undefined;
    this.#cache = cache ?? new Map();
  }

  /** The reader handed to the engine. */
  get reader() {
    return { read: (path) => this.#read(path) };
  }

  #read(path) {
    const record = this.#resolve(path);
    this.#records.set(path, record);
    if (record.error) throw record.error;
    return record.text;
  }

  #resolve(path) {
    if (this.#target) {
      if (this.#target.path === undefined || this.#target.path === path) {
        this.#target.path = path;
        const doc = this.#target.document;
        return { uri: doc.uri, text: doc.getText(), document: doc, version: doc.version };
      }
      return {
        uri: undefined,
        error: new Error(
          `this command runs a call against the active editor only, and the call also names \`${path}\` (after \`${this.#target.path}\`)`,
        ),
      };
    }
    const uri = this.#paths.uriOf(path);
    const doc = openDocument(uri);
    if (doc) return { uri, text: doc.getText(), document: doc, version: doc.version };
    const key = uri.toString();
    if (this.#cache.has(key)) {
      const cached = this.#cache.get(key);
      return cached !== null && typeof cached === 'object' ? { uri, ...cached } : { uri, text: cached };
    }
    this.#missing.push(uri);
    return { uri, error: new NotReadYet(path) };
  }

  /** Starts a new run of the call: forgets what the previous run read. */
  reset() {
    this.#records.clear();
    this.#missing = [];
    if (this.#target) this.#target.path = undefined;
  }

  /** The closed files the last run asked for before they were read. */
  get missing() {
    return this.#missing;
  }

  /** Reads the missing files into the cache (asynchronously). */
  async readMissing() {
    for (const uri of this.#missing) this.#cache.set(uri.toString(), await readClosedFile(uri));
  }

  /** What the engine read at `path` in the last run. */
  record(path) {
    return this.#records.get(path);
  }

  /** Where the engine's `path` lives (for paths it wrote but did not read). */
  uriOf(path) {
    return this.#records.get(path)?.uri ?? this.#paths.uriOf(path);
  }
}

/**
 * Runs `request` in `session` until the engine got every file it asked for. Returns
 * {result, files}. The statistics of runs cut short by a file not read yet are rolled back.
 */
export async function callWithFiles(session, request, files, options) {
  // Bounded: each extra run reads at least one more file.
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    files.reset();
    const saved = session.statsJson();
    const result = session.call(request, files.reader, options);
    if (files.missing.length === 0) return { result, files };
    session.loadStats(saved);
    await files.readMissing();
  }
  throw new Error('the call kept asking for files that could not be read');
}

/**
 * A created file's text: `new_text` when the result carries it, else its edits, which all
 * insert at the start of the empty file ({newText: false} results).
 */
function createdText(change) {
  if (typeof change.new_text === 'string') return change.new_text;
  const edits = change.edits ?? [];
  const atStart = (p) => p.row === 0 && p.column === 0;
  if (!edits.every((e) => atStart(e.range.start) && atStart(e.range.end))) {
    throw new ApplyError(`the result for the new file ${change.path} has edits beyond its start`);
  }
  return edits.map((e) => e.text).join('');
}

function position(p) {
  return new vscode.Position(p.row, p.column);
}

/**
 * Applies a successful call's `changes` (the result's `files`) in one WorkspaceEdit.
 * `files` is the CallFiles the engine read them from. Throws ApplyError (stale: true when
 * a document changed since the engine read it); nothing is applied then. Resolves to the
 * documents now holding the changes (for saving).
 */
export async function applyChanges(changes, files, { label = 'anchored-edit' } = {}) {
  // Every changed file as a TextDocument, opened in the background when it is not open.
  const documents = new Map();
  for (const change of changes) {
    if (change.created) continue;
    const record = files.record(change.path);
    if (!record || typeof record.text !== 'string') {
      throw new ApplyError(`${change.path} was not read by the call`);
    }
    let doc = record.document && !record.document.isClosed ? record.document : openDocument(record.uri);
    if (!doc) {
      try {
        doc = await vscode.workspace.openTextDocument(record.uri);
      } catch (e) {
        throw new ApplyError(`${change.path} could not be opened (${e?.message ?? e})`);
      }
    }
    documents.set(change.path, doc);
  }
  // No await from here to applyEdit: the texts checked are the texts edited (VS Code also
  // refuses a WorkspaceEdit whose document version moved on in the meantime).
  for (const [path, doc] of documents) {
    const record = files.record(path);
    // The same document at the same version holds the same text (cheaper than comparing
    // megabytes); a file read from disk is compared by its text.
    if (record.document === doc ? doc.version === record.version : doc.getText() === record.text) continue;
    if (!record.document) {
      throw new ApplyError(
        `${path} as VS Code opened it differs from the file the call read from disk (the file changed, or VS Code normalised its mixed line endings)`,
        { stale: true, path },
      );
    }
    throw new ApplyError(`${path} changed (the user or another extension edited it)`, { stale: true, path });
  }
  const edit = new vscode.WorkspaceEdit();
  const metadata = { label, needsConfirmation: false };
  const touched = [];
  for (const change of changes) {
    const uri = files.uriOf(change.path);
    if (change.created) {
      edit.createFile(uri, { contents: encoder.encode(createdText(change)) }, metadata);
      continue;
    }
    if (change.deleted) {
      edit.deleteFile(uri, {}, metadata);
      continue;
    }
    for (const e of change.edits ?? []) {
      edit.replace(uri, new vscode.Range(position(e.range.start), position(e.range.end)), e.text, metadata);
    }
    if (change.moved_to !== undefined) {
      const target = files.uriOf(change.moved_to);
      edit.renameFile(uri, target, {}, metadata);
      touched.push(target);
    } else {
      touched.push(uri);
    }
  }
  let ok;
  try {
    ok = await vscode.workspace.applyEdit(edit);
  } catch (e) {
    throw new ApplyError(e?.message ?? String(e));
  }
  if (!ok) throw new ApplyError('VS Code refused the workspace edit (a document changed, or a file operation failed)');
  return touched;
}

/** Saves the documents at `uris` that are open and dirty. */
export async function saveDocuments(uris) {
  for (const uri of uris) {
    const doc = openDocument(uri);
    if (doc?.isDirty) await doc.save();
  }
}
