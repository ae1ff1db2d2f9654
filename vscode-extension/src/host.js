// Tool calls in VS Code: one queue for every caller (language-model tools, the in-editor
// MCP server, the commands), so each call reads the texts only after the previous call's
// changes were applied.
//
// A call runs in the engine over live documents (files.js); a successful, committed call
// is then applied as one WorkspaceEdit (undo_edit {steps}: one per call taken back), or, for an agent's call while review mode is on,
// held as a diff preview until the user applies or discards it (or the review times out).
// What the agent gets back is the engine's result, or, when the editor could not apply
// it, the host's refusal in the same shape: `write_failed` (VS Code refused the edit),
// `stale_buffer` (a document changed after the engine read it, e.g. during review) or
// `edit_rejected` (the user discarded it, or nobody decided in time). The refusals, the
// review timeout default and dry runs (a call option, never a rewritten request) are
// js/host-policy's.

import * as vscode from 'vscode';
import { ApplyError, CallFiles, applyGroups, callWithFiles, saveDocuments } from './files.js';
import { persistStats } from './engine.js';
import { changesToPreview, changesToWrite, createRefusals, editingTools, notApplied, reviewTimeoutSeconds, undoSteps } from '../../js/host-policy/index.js';

/** The user's decisions on a held edit → the engine's rejection reasons. */
const REJECTION_REASONS = { discard: 'discarded', timeout: 'timeout', cancelled: 'cancelled' };

export function settings() {
  const c = vscode.workspace.getConfiguration('anchoredEdit');
  return {
    reviewMode: c.get('reviewMode', false),
    reviewTimeoutSeconds: reviewTimeoutSeconds(c.get('reviewTimeoutSeconds')),
    saveAfterEdit: c.get('saveAfterEdit', false),
  };
}

/**
 * The VS Code side of KeptDocuments (kept-documents.js): open documents, their engine
 * paths (as WorkspacePaths' roots name folders), whether the workspace reads a path from
 * a document (the path rule, the desktop's realpath check, the browser's link check),
 * their size, and content changes.
 */
export function keptWorkspace(paths) {
  return {
    documents: () => vscode.workspace.textDocuments,
    pathOf(document) {
      const uri = document.uri;
      const folder = paths.folders().find((f) => paths.relativeOf(uri, f) !== undefined);
      if (!folder || document.isUntitled) return undefined;
      return (uri.scheme === 'file' ? uri.fsPath : uri.path).replace(/\\/g, '/');
    },
    async answersFor(document, path) {
      try {
        const { uri } = paths.locate(path);
        if (uri.toString() !== document.uri.toString()) return false;
        return (await paths.linkRefusal(path, uri)) === null;
      } catch {
        return false;
      }
    },
    size(document) {
      const rows = document.lineCount;
      return { length: document.offsetAt(document.lineAt(rows - 1).range.end), rows };
    },
    onDidChange: (listener) => vscode.workspace.onDidChangeTextDocument(listener),
  };
}

export class Host {
  #queue = Promise.resolve();

  /**
   * engine: the package API; session: its Session; memento: where statistics persist;
   * paths: WorkspacePaths; previews: Previews; log(line); editorTools: the editor tools
   * (js/host-policy/editor-tools.js over editor.js), run in the same queue.
   */
  constructor({ engine, session, memento, paths, previews, log, editorTools, kept }) {
    this.engine = engine;
    /** KeptDocuments (kept-documents.js): open documents kept in the session, or none. */
    this.kept = kept;
    this.session = session;
    this.memento = memento;
    this.paths = paths;
    this.previews = previews;
    this.log = log;
    this.editorTools = editorTools;
    this.refusals = createRefusals(engine);
    /** The tools that edit (annotations): only their results carry changes to apply. */
    this.edits = editingTools(engine.toolSchemas());
    /** How many engine runs the last call took (closed files and listings fetched between runs). */
    this.lastRuns = 0;
  }

  /**
   * Runs `request` ({tool, arguments} or its JSON text) after the calls before it.
   * Options: `origin` "agent" (review mode applies) or "user"; `target`: a TextDocument
   * the call's path means (commands on the active editor); `preview`: show the changes as
   * a dry-run preview and apply nothing; `token`: a CancellationToken.
   * Resolves to {result, previewId?}.
   */
  run(request, options = {}) {
    return this.#enqueue(() => this.#runOnce(request, options));
  }

  #enqueue(task) {
    const next = this.#queue.then(task);
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * An agent's call (language-model tools, MCP): resolves to the result only. Editor
   * tools (get_selection, save_file, …) run here too, after the calls before them.
   */
  async agentCall(tool, args, token) {
    if (this.editorTools?.has(tool)) {
      const result = await this.#enqueue(() => this.editorTools.call(tool, args ?? {}));
      this.#logResult('agent', result);
      return result;
    }
    const { result } = await this.run({ tool, arguments: args ?? {} }, { origin: 'agent', token });
    return result;
  }

  async #runOnce(request, { origin = 'user', target, preview = false, token } = {}) {
    const files = new CallFiles(this.paths, { target, engine: this.engine });
    // The engine's path rule over the workspace folders (guarded until every engine build has it).
    const roots = this.paths.rootPaths();
    if (typeof this.session.setRoots === 'function') this.session.setRoots(roots);
    // Open documents are read inside the engine (kept, changes forwarded:
    // kept-documents.js); a call against the active editor reads only its target.
    let kept = null;
    if (this.kept && target) this.kept.suspend();
    else if (this.kept && roots.length > 0) kept = await this.kept.sync(roots);
    // Review mode as the call starts decides its fate. Whole new texts are needed for
    // previews only; applying uses the edits.
    const review = !preview && origin === 'agent' && settings().reviewMode;
    const held = preview || review;
    let outcome;
    try {
      // A preview is the engine's dry run (a call option: the request is never rewritten).
      const options = preview ? { dryRun: true } : review ? {} : { newText: false };
      try {
        outcome = await callWithFiles(this.session, request, files, options);
      } catch (e) {
        if (e?.name === 'EnginePanicError') this.kept?.reset();
        throw e;
      }
      if (kept) files.noteKept(outcome.result, kept);
      this.lastRuns = outcome.runs;
    } finally {
      persistStats(this.session, this.memento, this.log);
    }
    const { result } = outcome;
    this.#logResult(origin, result);
    // Whether anything is shown or written: js/host-policy's one rule for every host.
    if (preview) {
      if (changesToPreview(result, this.edits).length === 0) return { result };
      const item = this.previews.add({ result, files });
      await this.previews.show(item);
      return { result, previewId: item.id };
    }
    if (changesToWrite(result, this.edits).length === 0) return { result };
    if (review) return { result: await this.#review(result, files, token) };
    return { result: await this.#apply(result, files, { when: 'after_read' }) };
  }

  #logResult(origin, result) {
    const what = result.ok ? result.message : `${result.error?.kind}: ${result.error?.message}`;
    this.log(`${origin} ${result.tool ?? '?'}${result.dry_run ? ' (dry run)' : ''}: ${what}`);
  }

  /**
   * Applies a result's changes in js/host-policy's undo steps (undo_edit: one WorkspaceEdit,
   * one undo step of the editor, per call taken back; any other result: one); resolves to
   * the result, or the host's refusal.
   */
  async #apply(result, files, { when, notify = false }) {
    try {
      const touched = await applyGroups(undoSteps(result), files, { label: `anchored-edit: ${result.tool}` });
      if (settings().saveAfterEdit) await saveDocuments(touched);
      return result;
    } catch (e) {
      notApplied(this.session);
      let refusal;
      if (e instanceof ApplyError && e.stale) {
        refusal = this.refusals.stale(result.tool, e.path, when);
      } else {
        refusal = this.refusals.writeFailed(result.tool, `VS Code: ${e?.message ?? e}`);
      }
      this.#logResult('host', refusal);
      if (notify) vscode.window.showErrorMessage(`anchored-edit: not applied. ${refusal.error.message}`);
      return refusal;
    }
  }

  /** Holds an agent's edit as a preview until the user decides; resolves to the outcome. */
  async #review(result, files, token) {
    const item = this.previews.add({ result, files, review: true });
    let finished;
    item.done = new Promise((resolve) => (finished = resolve));
    const outcome = await this.#awaitDecision(item, result, files, token);
    finished(outcome);
    return outcome;
  }

  async #awaitDecision(item, result, files, token) {
    const seconds = settings().reviewTimeoutSeconds;
    let timer;
    let cancellation;
    const decision = await new Promise((resolve) => {
      item.decide = resolve;
      if (seconds > 0) timer = setTimeout(() => resolve('timeout'), seconds * 1000);
      cancellation = token?.onCancellationRequested(() => resolve('cancelled'));
      this.previews.show(item, { preserveFocus: true }).catch((e) => this.log(`review preview failed: ${e?.message ?? e}`));
    });
    clearTimeout(timer);
    cancellation?.dispose();
    await this.previews.remove(item);
    if (decision === 'apply') {
      return this.#apply(result, files, { when: 'during_review', notify: true });
    }
    const refusal = this.refusals.rejected(result.tool, REJECTION_REASONS[decision] ?? 'discarded', seconds);
    this.#logResult('review', refusal);
    return refusal;
  }

  /**
   * The user's decision on a preview (`ref`: see Previews.find). A review ends the
   * waiting call; a dry run is applied (after the calls queued before) or dropped.
   * Resolves to {applied, result?} (result: what applying gave).
   */
  async decide(ref, decision) {
    const item = this.previews.find(ref);
    if (!item) {
      vscode.window.showInformationMessage('anchored-edit: no edit is waiting to be applied or discarded.');
      return { applied: false };
    }
    if (item.review) {
      item.decide?.(decision);
      const result = await item.done;
      return { applied: result.ok, result };
    }
    await this.previews.remove(item);
    if (decision !== 'apply') return { applied: false };
    const result = await this.#enqueue(() =>
      this.#apply(item.result, item.files, { when: 'since_diff', notify: true }),
    );
    if (result.ok) vscode.window.showInformationMessage(`anchored-edit: applied the previewed ${item.tool}.`);
    return { applied: result.ok, result };
  }
}
