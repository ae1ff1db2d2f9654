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
// Listing. The project tools list files (`list(folder)`, DESIGN contract 1), then read
// many of them. A listing not fetched yet is a miss like a closed file: the run stops,
// the listing is fetched (listing.js), the call runs again. In that run a project tool
// asks for every file it needs and skips the ones it cannot read yet (it goes on past
// an unreadable file), so every miss is known after one run and they are read together,
// in parallel batches: a grep_project over a thousand closed files costs three runs,
// never one run per file, and reads only the files the tool wanted. The texts live only
// as long as the call (each call has its own CallFiles).
//
// Writing. A call's changes go into one WorkspaceEdit (one undo step, also across
// files): text edits by {row, column} (UTF-16 columns, as VS Code's Position), file
// creation with its contents, deletion, rename. Before applying, every document must
// still hold exactly the text the engine read; otherwise nothing is applied. undo_edit
// {steps} comes as groups (js/host-policy's `undoSteps`), one WorkspaceEdit each, in
// order: one undo step of the editor per call taken back.
//
// Encodings. An open document is text VS Code decoded in its encoding (the one in the
// status bar: `files.encoding`, a BOM, or `files.autoGuessEncoding`) and saves back in
// that encoding, so the engine edits its text and VS Code keeps the encoding. A closed
// file goes to the engine as bytes, as on disk in the CLI (the engine decodes them: a
// BOM, the call's `encoding`, UTF-8, a declaration; binary and undeclared legacy files
// are refused in the engine's words), except a UTF-8 file with a BOM, handed as the text
// its document holds (without the BOM). A changed closed file the engine decoded as UTF-8
// is applied through the WorkspaceEdit like any other (one undo step); one in another
// encoding (the result names its `encoding`: UTF-16, a legacy encoding, or the call's
// `encoding` argument) is written directly, `encodeText(new_text, encoding)` through
// `workspace.fs`, because a document of it would be decoded by VS Code's settings, not
// the engine's. Such a write is not on VS Code's undo stack.
// It keeps the call all or nothing: before anything is written, each such file must
// hold the bytes the engine read and have no document open; a failure puts back the
// bytes written and takes back the WorkspaceEdit. A call reading a file as bytes asks
// the engine for `new_text` (callWithFiles). A file the call creates is written in the
// result's `encoding` (the engine's `encodeText`), UTF-8 when it names none.

import * as vscode from 'vscode';
import { encodeText } from '../../pkg/index.web.js';
import { listFolder } from './listing.js';

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

/** A folder's path as the engine's roots name it: the file system path, or the URI's path. */
function folderPath(folder) {
  return (folder.uri.scheme === 'file' ? folder.uri.fsPath : folder.uri.path).replace(/\\/g, '/');
}

/**
 * The workspace's one path rule, the engine's (`session.setRoots`): the roots are the
 * workspace folders, the first is the project root; a relative path is relative to it;
 * an absolute path is accepted inside any folder; anything else, and (where the platform
 * can tell) any path a symlink leads out of its folder, is refused with
 * `path_outside_root`. `realPathEscapes(fsPath, rootFsPath)`: the desktop's realpath
 * check (src/node/real-path.js); without it (the browser), links are checked with
 * `workspace.fs.stat` when a closed file is read (CallFiles.readMissing).
 */
export class WorkspacePaths {
  #realPathEscapes;
  #engine;

  /** `engine`: words the refusals (`hostRefusal`, the same words in every host). */
  constructor({ realPathEscapes, engine } = {}) {
    this.#realPathEscapes = realPathEscapes;
    this.#engine = engine;
  }

  /** Whether symlinks are resolved here (desktop) rather than checked by stat. */
  get resolvesLinks() {
    return typeof this.#realPathEscapes === 'function';
  }

  folders() {
    return vscode.workspace.workspaceFolders ?? [];
  }

  root() {
    return this.folders()[0];
  }

  /** The roots for `session.setRoots`: every folder's path, the project root first. */
  rootPaths() {
    return this.folders().map(folderPath);
  }

  /** `reason`: the engine's detail ({why, error}, crate/src/refusals.rs). */
  #outside(path, reason) {
    return refusal('path_outside_root', this.#engine.hostRefusal('', 'path_outside_root', { path, ...reason }).error.message);
  }

  /** {uri, folder} for an engine path, or throws a `path_outside_root` refusal. */
  locate(path) {
    const folders = this.folders();
    if (folders.length === 0) {
      throw refusal(
        'path_outside_root',
        `No folder is open in VS Code, so \`${path}\` cannot be resolved. Ask the user to open the project folder.`,
      );
    }
    let found;
    if (isAbsolute(path)) {
      const posix = path.replace(/\\/g, '/');
      const caseless = /^\/?[A-Za-z]:\//.test(posix);
      const same = (a, b) => (caseless ? a.toLowerCase() === b.toLowerCase() : a === b);
      for (const folder of folders) {
        const rootPath = folderPath(folder);
        const prefix = rootPath.endsWith('/') ? rootPath : `${rootPath}/`;
        if (posix.length > prefix.length && same(posix.slice(0, prefix.length), prefix)) {
          found = { uri: vscode.Uri.joinPath(folder.uri, posix.slice(prefix.length)), folder };
          break;
        }
      }
      if (!found) throw this.#outside(path, { why: 'not_under_root' });
    } else {
      found = { uri: vscode.Uri.joinPath(folders[0].uri, path), folder: folders[0] };
    }
    if (this.resolvesLinks && found.uri.scheme === 'file' && found.folder.uri.scheme === 'file') {
      const escape = this.#realPathEscapes(found.uri.fsPath, found.folder.uri.fsPath);
      if (escape) throw this.#outside(path, escape);
    }
    return found;
  }

  uriOf(path) {
    return this.locate(path).uri;
  }

  /**
   * The browser's link check (no realpath there): null when no part of the way from the
   * folder to `uri` is a symbolic link, else the refusal. Each part's type is read from
   * its parent's `readDirectory` (file system providers report links there; `stat` may
   * follow them). Parts that do not exist yet end the walk (a file to be created).
   */
  async linkRefusal(path, uri) {
    if (this.resolvesLinks && uri.scheme === 'file') return null;
    const within = (f) => uri.path.startsWith(f.uri.path.endsWith('/') ? f.uri.path : `${f.uri.path}/`);
    const folder = this.folders().find((f) => f.uri.scheme === uri.scheme && f.uri.authority === uri.authority && within(f));
    if (!folder) return null;
    const base = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
    const parts = uri.path.slice(base.length).split('/').filter(Boolean);
    let at = folder.uri;
    for (const part of parts) {
      let entries;
      try {
        entries = await vscode.workspace.fs.readDirectory(at);
      } catch {
        return null;
      }
      const entry = entries.find(([name]) => name === part);
      if (!entry) return null;
      if (entry[1] & vscode.FileType.SymbolicLink) {
        return this.#outside(path, { why: 'link_on_the_way' });
      }
      at = vscode.Uri.joinPath(at, part);
    }
    return null;
  }

  /** The path of `uri` relative to `folder` (default the first), or undefined when it is not under it. */
  relativeOf(uri, folder = this.root()) {
    if (!folder || uri.scheme !== folder.uri.scheme || uri.authority !== folder.uri.authority) return undefined;
    const prefix = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
    return uri.path.startsWith(prefix) ? uri.path.slice(prefix.length) : undefined;
  }
}

function openDocument(uri) {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key && !d.isClosed);
}

/**
 * Reads a closed file: null when there is none, {error} to refuse it with, else what the
 * engine gets. A UTF-8 file with a BOM: {text} without the BOM, as the TextDocument VS
 * Code makes of it holds it. Any other file: {bytes} (the engine decodes them: UTF-8, the
 * call's `encoding`, a declaration; binary refused), and {text} too when the bytes are
 * valid UTF-8 (the text its document holds, compared before applying).
 */
async function readClosedFile(uri) {
  let bytes;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return null;
    if (e?.code === 'FileNotFound' || e?.name === 'EntryNotFound (FileSystemError)') return null;
    return { error: new Error(e?.message ?? String(e)) };
  }
  const utf8Bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const utf16Bom = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  let text;
  if (!utf16Bom) {
    try {
      // The BOM, if any, is left out, as in the TextDocument VS Code makes of the file.
      text = utf8.decode(bytes);
    } catch {
      text = undefined;
    }
  }
  if (utf8Bom && text !== undefined && !bytes.includes(0)) return { text };
  return text === undefined ? { bytes } : { bytes, text };
}

/** Whether `a` and `b` hold the same bytes. */
function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
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
  #engine;
  /** folder → the listing (engine paths), or {error}; fetched by readMissing. */
  #listings = new Map();
  #missingListings = [];

  constructor(paths, { target, cache, engine } = {}) {
    this.#paths = paths;
    this.#engine = engine;
    this.#target = target ? { document: target, path: undefined } : undefined;
    this.#cache = cache ?? new Map();
  }

  /** The reader handed to the engine. */
  get reader() {
    return { read: (path) => this.#read(path), list: (folder) => this.#list(folder) };
  }

  #list(folder) {
    if (this.#target) {
      throw new Error('this command runs a call against the active editor only; project tools list the workspace: run them through Run Tool Call or an agent');
    }
    const listing = this.#listings.get(folder);
    if (listing === undefined) {
      this.#missingListings.push(folder);
      throw new NotReadYet(folder);
    }
    if (listing.error) throw listing.error;
    return listing;
  }

  #read(path) {
    const record = this.#resolve(path);
    this.#records.set(path, record);
    if (record.error) throw record.error;
    return record.bytes ?? record.text;
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
    this.#missing.push({ path, uri });
    return { uri, error: new NotReadYet(path) };
  }

  /** Starts a new run of the call: forgets what the previous run read. */
  reset() {
    this.#records.clear();
    this.#missing = [];
    this.#missingListings = [];
    if (this.#target) this.#target.path = undefined;
  }

  /** Whether a closed file was handed to the engine as bytes (its result needs `new_text`). */
  get hasBytes() {
    return [...this.#cache.values()].some((c) => c?.bytes !== undefined);
  }

  /** The closed files the last run asked for before they were read. */
  get missing() {
    return [...this.#missing.map((m) => m.uri), ...this.#missingListings];
  }

  /** Fetches what the last run missed: listings, then files (links checked first where needed), in parallel batches. */
  async readMissing() {
    for (const folder of this.#missingListings) {
      try {
        this.#listings.set(folder, await listFolder(this.#engine, this.#paths, folder));
      } catch (e) {
        this.#listings.set(folder, { error: e });
      }
    }
    const wanted = new Map(this.#missing.map((m) => [m.uri.toString(), m]));
    await inBatches([...wanted.values()], 16, async ({ path, uri }) => {
      const refused = await this.#paths.linkRefusal(path, uri);
      this.#cache.set(uri.toString(), refused ? { error: refused } : await readClosedFile(uri));
    });
  }



  /**
   * After the last run: the files of `result` the engine read from its kept texts
   * (kept-documents.js; `kept`: what sync returned), recorded as read from their
   * documents at the version the kept text is of (the stale check compares versions).
   */
  noteKept(result, kept) {
    for (const f of Array.isArray(result?.files) ? result.files : []) {
      for (const p of [f.path, f.moved_to]) {
        if (typeof p !== 'string' || this.#records.has(p)) continue;
        const k = kept.get(p);
        if (!k || !k.entry.text.live) continue;
        const { document, version } = k.entry;
        this.#records.set(p, { uri: document.uri, document, version, kept: true });
      }
    }
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

/** Runs `task` over `items`, at most `width` at a time. */
async function inBatches(items, width, task) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(task));
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
    // A file read as bytes is written from its `new_text` (writeDirect): ask for it.
    const runOptions = files.hasBytes && options?.newText === false ? { ...options, newText: true } : options;
    const result = session.call(request, files.reader, runOptions);
    if (files.missing.length === 0) return { result, files, runs: attempt + 1 };
    session.loadStats(saved);
    // A run on files not read yet is not what lands: the session forgets it.
    if (typeof session.discardLast === 'function') session.discardLast();
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
export function applyChanges(changes, files, options) {
  return applyGroups([changes], files, options);
}

/**
 * Applies groups of changes (js/host-policy's `undoSteps`: undo_edit's calls taken back,
 * each relative to the texts the group before leaves) as one WorkspaceEdit each, in
 * order: one undo step of the editor per group. Every document the engine read is
 * checked before the first group; before each later group, the documents earlier groups
 * edited must still be at the version they left (nobody typed in between). When a later
 * group fails, the groups applied are taken back (their inverse, one WorkspaceEdit) and
 * the ApplyError is thrown: nothing is applied then.
 */
export async function applyGroups(groups, files, { label = 'anchored-edit' } = {}) {
  // Every file the engine read as existing, as a TextDocument, checked now; files written
  // directly (writeDirect) by their bytes.
  const first = new Map();
  const direct = new Direct(files);
  for (const change of groups.flat()) {
    if (first.has(change.path) || change.created) continue;
    const record = files.record(change.path);
    if (!record) throw new ApplyError(`${change.path} was not read by the call`);
    if (isDirect(change, files)) await direct.check(change.path, files.uriOf(change.path));
    else if (typeof record.text === 'string' || record.kept) first.set(change.path, await documentOf(change.path, record));
  }
  checkRead(first, files);
  /** uri → the version the last group left its document at. */
  const left = new Map();
  const inverses = [];
  const touched = [];
  // Taking back is needed only when something can fail after a WorkspaceEdit landed: a
  // later group, or a direct write. Otherwise the texts before are not taken (a whole
  // getText() of each document: on 100 000 lines as long as the engine's call).
  const mayTakeBack = groups.length > 1 || groups.flat().some((c) => isDirect(c, files));
  try {
    for (const group of groups) {
      const changes = group.filter((c) => !isDirect(c, files));
      const writes = group.filter((c) => isDirect(c, files));
      for (const change of writes) await direct.check(change.path, files.uriOf(change.path));
      const documents = await groupDocuments(changes, files);
      // No await from here to applyEdit: the texts checked are the texts edited.
      for (const [path, doc] of documents) {
        const version = left.get(doc.uri.toString());
        if (version === undefined) checkRead(new Map([[path, doc]]), files);
        else if (doc.version !== version) throw new ApplyError(`${path} changed (the user or another extension edited it)`, { stale: true, path });
      }
      if (changes.length > 0) {
        const before = mayTakeBack ? new Map([...documents].map(([path, doc]) => [path, doc.getText()])) : null;
        const { edit, uris } = workspaceEdit(changes, files, label);
        await applyEdit(edit);
        if (before) inverses.push(inverseOf(changes, files, before, label));
        for (const uri of uris) {
          touched.push(uri);
          const doc = openDocument(uri);
          if (doc) left.set(uri.toString(), doc.version);
        }
      }
      for (const change of writes) await direct.write(change);
    }
  } catch (e) {
    await direct.takeBack();
    if (inverses.length > 0) await takeBack(inverses);
    throw e;
  }
  return touched;
}

/**
 * Whether `change` is written by its bytes, not through a document: a file the engine
 * read as bytes and decoded in another encoding than UTF-8 (the change names it, or the
 * bytes are not UTF-8). VS Code would decode its document by its own settings.
 */
function isDirect(change, files) {
  if (change.created) return false;
  const record = files.record(change.path);
  return record?.bytes !== undefined && (change.encoding !== undefined || typeof record.text !== 'string');
}

/**
 * The files a call writes by their bytes (`workspace.fs`): each is checked to hold the
 * bytes the engine read (or the bytes this call wrote last) and to have no document open
 * before anything is written; a failure takes back what was written. These writes are
 * not on VS Code's undo stack.
 */
class Direct {
  #files;
  /** uri → the bytes the file holds now as far as this call knows (null: no file). */
  #now = new Map();
  /** uri → its bytes before this call wrote it (null: it did not exist). */
  #before = new Map();

  constructor(files) {
    this.#files = files;
  }

  /** Refuses (stale) unless the file at `uri` holds the bytes expected and no document is open on it. */
  async check(path, uri) {
    const key = uri.toString();
    const expected = this.#now.has(key) ? this.#now.get(key) : this.#files.record(path)?.bytes;
    if (expected === undefined) throw new ApplyError(`${path} was not read by the call`);
    if (openDocument(uri)) throw new ApplyError(`${path} was opened in an editor after the call read it`, { stale: true, path });
    const bytes = await readBytes(uri);
    if (expected === null ? bytes !== null : bytes === null || !sameBytes(bytes, expected)) {
      throw new ApplyError(`${path} changed on disk since the call read it`, { stale: true, path });
    }
  }

  /** Writes one change: `encodeText(new_text, encoding)`, then a move or a delete. */
  async write(change) {
    const uri = this.#files.uriOf(change.path);
    if (change.deleted) return this.#set(uri, null);
    if (typeof change.new_text !== 'string') throw new ApplyError(`the result for ${change.path} has no new_text to write`);
    let bytes;
    try {
      bytes = encodeText(change.new_text, change.encoding);
    } catch (e) {
      throw new ApplyError(`${change.path} could not be encoded (${e?.message ?? e})`);
    }
    if (change.moved_to === undefined) return this.#set(uri, bytes);
    const target = this.#files.uriOf(change.moved_to);
    if (!this.#now.has(target.toString())) {
      if ((await readBytes(target)) !== null) throw new ApplyError(`${change.moved_to} exists now`, { stale: true, path: change.moved_to });
      this.#now.set(target.toString(), null);
    }
    await this.#set(target, bytes);
    await this.#set(uri, null);
  }

  async #set(uri, bytes) {
    const key = uri.toString();
    if (!this.#before.has(key)) this.#before.set(key, this.#now.has(key) ? this.#now.get(key) : await readBytes(uri));
    try {
      if (bytes === null) await vscode.workspace.fs.delete(uri, { useTrash: false });
      else await vscode.workspace.fs.writeFile(uri, bytes);
    } catch (e) {
      throw new ApplyError(`${uri.path} could not be written (${e?.message ?? e})`);
    }
    this.#now.set(key, bytes);
  }

  /** Puts back every file this call wrote, best effort. */
  async takeBack() {
    for (const [key, bytes] of [...this.#before].reverse()) {
      const uri = vscode.Uri.parse(key);
      try {
        if (bytes === null) await vscode.workspace.fs.delete(uri, { useTrash: false });
        else await vscode.workspace.fs.writeFile(uri, bytes);
      } catch {
        // The refusal the caller throws says what failed; nothing more can be done here.
      }
    }
  }
}

/** The bytes at `uri`, or null when there is no file. */
async function readBytes(uri) {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    if (e?.code === 'FileNotFound' || e?.name === 'EntryNotFound (FileSystemError)') return null;
    throw new ApplyError(`${uri.path} could not be read (${e?.message ?? e})`);
  }
}

/** `path`'s document (opened in the background when it is not open). */
async function documentOf(path, record) {
  const doc = record.document && !record.document.isClosed ? record.document : openDocument(record.uri);
  if (doc) return doc;
  try {
    return await vscode.workspace.openTextDocument(record.uri);
  } catch (e) {
    throw new ApplyError(`${path} could not be opened (${e?.message ?? e})`);
  }
}

/** The documents a group edits, renames or deletes (files it creates excluded). */
async function groupDocuments(changes, files) {
  const documents = new Map();
  for (const change of changes) {
    if (change.created) continue;
    const uri = files.uriOf(change.path);
    const doc = openDocument(uri) ?? (await documentOf(change.path, { ...files.record(change.path), uri, document: undefined }));
    documents.set(change.path, doc);
  }
  return documents;
}

/** Refuses (stale) unless each document still holds the text the engine read there. */
function checkRead(documents, files) {
  for (const [path, doc] of documents) {
    const record = files.record(path);
    if (!record || (typeof record.text !== 'string' && !record.kept)) continue;
    // The same document at the same version holds the same text (cheaper than comparing
    // megabytes; a kept text is of the version recorded); a file read from disk is
    // compared by its text.
    if (record.document === doc ? doc.version === record.version : doc.getText() === record.text) continue;
    if (!record.document) {
      throw new ApplyError(
        `${path} as VS Code opened it differs from the file the call read from disk (the file changed, or VS Code normalised its mixed line endings)`,
        { stale: true, path },
      );
    }
    throw new ApplyError(`${path} changed (the user or another extension edited it)`, { stale: true, path });
  }
}

/** One group's changes as a WorkspaceEdit, and the URIs that hold its texts after it. */
function workspaceEdit(changes, files, label) {
  const edit = new vscode.WorkspaceEdit();
  const metadata = { label, needsConfirmation: false };
  const uris = [];
  for (const change of changes) {
    const uri = files.uriOf(change.path);
    if (change.created) {
      const text = createdText(change);
      const contents = change.encoding ? encodeText(text, change.encoding) : encoder.encode(text);
      edit.createFile(uri, { contents }, metadata);
      uris.push(uri);
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
      uris.push(target);
    } else {
      uris.push(uri);
    }
  }
  return { edit, uris };
}

async function applyEdit(edit) {
  let ok;
  try {
    ok = await vscode.workspace.applyEdit(edit);
  } catch (e) {
    throw new ApplyError(e?.message ?? String(e));
  }
  if (!ok) throw new ApplyError('VS Code refused the workspace edit (a document changed, or a file operation failed)');
}

/**
 * What takes an applied group back, to run after it: created files deleted, deleted
 * files created again with their text (`before`: path → text before the group), moved
 * files renamed back, edited texts replaced whole by their text before.
 */
function inverseOf(changes, files, before, label) {
  return (edit) => {
    const metadata = { label, needsConfirmation: false };
    for (const change of changes) {
      const uri = files.uriOf(change.path);
      if (change.created) {
        edit.deleteFile(uri, { ignoreIfNotExists: true }, metadata);
        continue;
      }
      const old = before.get(change.path) ?? '';
      if (change.deleted) {
        edit.createFile(uri, { contents: encoder.encode(old), overwrite: true }, metadata);
        continue;
      }
      const at = change.moved_to !== undefined ? files.uriOf(change.moved_to) : uri;
      const doc = openDocument(at);
      if (doc) edit.replace(at, doc.validateRange(new vscode.Range(0, 0, doc.lineCount, 0)), old, metadata);
      if (change.moved_to !== undefined) edit.renameFile(at, uri, {}, metadata);
    }
  };
}

/** Takes back the groups applied (newest first), in one WorkspaceEdit, best effort. */
async function takeBack(inverses) {
  const edit = new vscode.WorkspaceEdit();
  for (const add of [...inverses].reverse()) add(edit);
  try {
    await vscode.workspace.applyEdit(edit);
  } catch {
    // The refusal the caller throws says what failed; nothing more can be done here.
  }
}

/** Saves the documents at `uris` that are open and dirty. */
export async function saveDocuments(uris) {
  for (const uri of uris) {
    const doc = openDocument(uri);
    if (doc?.isDirty) await doc.save();
  }
}
