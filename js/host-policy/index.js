// What every JS host (the MCP HTTP host, Pulsar, VS Code desktop and web, the playground,
// the Node server) decides the same way, in one place. Free of Node and editor APIs, so
// browser bundles take it as it is; the engine is passed in, never imported (a host loads
// the Node or the web build of the package itself).
//
// - Host refusals. A host refuses a computed edit it could not write (`write_failed`),
//   one whose file changed after the engine read it (`stale_buffer`), and one the user
//   did not accept in review (`edit_rejected`). The words are the engine's
//   (`hostRefusal`, crate/src/refusals.rs): a host names the kind and the facts, never
//   writes a message. A refusal travels through a host's code as a `RefusalError`
//   carrying the result, so whoever reports it returns exactly the engine's result.
// - The review timeout default, one value for every editor: 120 s. Long enough to read a
//   diff of a few hunks and decide; short enough that an agent nobody watches is not
//   blocked for minutes. (Pulsar had 50 s, under Codex's default 60 s tool timeout; the
//   client configurations the Pulsar package writes set the client's tool timeout to the
//   review timeout plus 30 s, so that constraint no longer decides the default. VS Code
//   had 300 s; its language-model tools have no timeout of their own.) Each editor's
//   setting overrides it; the manifests' defaults are checked against it by tests.
// - The LLM view of a result: every changed file's `new_text` left out (hosts apply
//   `edits` or check against `new_text`; an agent reads the diff).
// - The undo steps of a result (`undoSteps`): undo_edit's `undone` (one group of files per
//   call taken back, newest first, each relative to the texts the group before leaves),
//   so that an editor applies one undo step of its own per call; any other result is
//   one group, its `files`. Hosts that write files as a whole apply `files` as before.
// - "Does this tool edit files?": `annotations.readOnlyHint === false` in the engine's
//   `toolSchemas()`, never guessed from a schema's properties.
// - A result the host could not apply (write failed, stale, rejected in review) is
//   reported to the session (`notApplied(session)`, the engine's `discardLast`), so the
//   session's undo history and version store hold only what landed.
// - Dry runs are a call option (`session.call(request, reader, {dryRun: true})`): no
//   host rewrites a request to force one (requests come in shapes only the engine knows).

/** The review timeout every editor uses unless its setting says otherwise (seconds). */
export const REVIEW_TIMEOUT_SECONDS = 120;

/**
 * The review timeout in seconds: `setting` when it is a number ≥ 0 (0: wait without
 * limit, where a host allows it), else the shared default.
 */
export function reviewTimeoutSeconds(setting) {
  return typeof setting === 'number' && Number.isFinite(setting) && setting >= 0 ? setting : REVIEW_TIMEOUT_SECONDS;
}

/**
 * The result as an LLM sees it: every changed file's `new_text` left out, and undo_edit's
 * `undone` (the per-call groups are for editors; `files` says what changed).
 */
export function llmView(result) {
  if (!result || !Array.isArray(result.files)) return result;
  if ('undone' in result) {
    const { undone, ...rest } = result;
    result = rest;
  }
  // Only changed-file objects carry `new_text`; anything else in `files` is left as it is.
  const strip = (f) => {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) return f;
    const { new_text, ...rest } = f;
    return rest;
  };
  return { ...result, files: result.files.map(strip) };
}

/**
 * The groups of changed files an editor applies one after another, one undo step of the
 * editor each: undo_edit's `undone` (each call taken back, newest first; a group's edits
 * are relative to the texts the group before leaves), else the result's `files` as one
 * group. Every file of every group must be checked before the first group is applied.
 */
export function undoSteps(result) {
  const files = Array.isArray(result?.files) ? result.files : [];
  const undone = Array.isArray(result?.undone) ? result.undone : [];
  const groups = undone.map((s) => (Array.isArray(s?.files) ? s.files : [])).filter((g) => g.length > 0);
  return groups.length > 0 ? groups : [files];
}

/**
 * The changed files a host writes for `result`, [] when it writes nothing: the result of
 * an editing tool (`edits`, from `editingTools`), ok, not a dry run, with files. The one
 * answer to "is this result written?" for every JS host.
 */
export function changesToWrite(result, edits) {
  const written = result?.ok === true && result.dry_run !== true && edits.has(result.tool) && Array.isArray(result.files);
  return written ? result.files : [];
}

/**
 * The changed files a host shows as a dry run's diff, [] when there is nothing to show:
 * the result of an editing tool, ok, a dry run, with files. Never written: applying them
 * later is the user's decision, checked again then (`stale`, `since_diff`).
 */
export function changesToPreview(result, edits) {
  const shown = result?.ok === true && result.dry_run === true && edits.has(result.tool) && Array.isArray(result.files);
  return shown ? result.files : [];
}

/** The names of the tools that edit files, from the engine's `toolSchemas()`. */
export function editingTools(schemas) {
  return new Set(schemas.filter((s) => s.annotations?.readOnlyHint === false).map((s) => s.name));
}

/** Whether `tool` edits files (false for unknown tools: the engine refuses those). */
export function editsFiles(schemas, tool) {
  return schemas.some((s) => s.name === tool && s.annotations?.readOnlyHint === false);
}

/** A host refusal thrown through a host's code: `result` is the engine-worded result. */
export class RefusalError extends Error {
  constructor(result) {
    super(result.error.message);
    this.name = 'RefusalError';
    this.kind = result.error.kind;
    this.result = result;
  }
}

/**
 * The host refusals over `engine` (the package: its `hostRefusal`). Each function returns
 * the result object a host answers with; `…Error` variants return it as a RefusalError.
 * - `writeFailed(tool, why)`: the change was computed but not written (`why`: what
 *   failed); everything was left as it was.
 * - `stale(tool, path, when)`: `path` changed since the engine read it; `when`:
 *   'after_read' (default), 'during_review' or 'since_diff'.
 * - `rejected(tool, reason, seconds)`: `reason` 'discarded', 'cancelled' or 'timeout'
 *   (with the review timeout in `seconds`).
 */
export function createRefusals(engine) {
  const make = (tool, kind, detail) => engine.hostRefusal(tool ?? 'unknown', kind, detail);
  const refusals = {
    writeFailed: (tool, why) => make(tool, 'write_failed', { why: String(why) }),
    stale: (tool, path, when = 'after_read') => make(tool, 'stale_buffer', { path, when }),
    rejected: (tool, reason, seconds) =>
      make(tool, 'edit_rejected', reason === 'timeout' ? { reason, seconds } : { reason }),
    // `reason`: {why, error} as real-path.js's realPathEscapes gives it, or a why name.
    outsideRoot: (tool, path, reason) =>
      make(tool, 'path_outside_root', { path, ...(typeof reason === 'string' ? { why: reason } : reason) }),
  };
  return {
    ...refusals,
    writeFailedError: (...a) => new RefusalError(refusals.writeFailed(...a)),
    staleError: (...a) => new RefusalError(refusals.stale(...a)),
    rejectedError: (...a) => new RefusalError(refusals.rejected(...a)),
    outsideRootError: (...a) => new RefusalError(refusals.outsideRoot(...a)),
  };
}

/**
 * Tells `session` that its last result was not applied (the write failed, the file was
 * stale, the user rejected it): undo_edit's history then holds only what landed.
 * Sessions of engine builds without `discardLast` are left alone.
 */
export function notApplied(session) {
  if (session && typeof session.discardLast === 'function') session.discardLast();
}

/** The reason a thrown value gives, for `writeFailed`'s `why`. */
export function whyOf(e) {
  return e instanceof Error ? e.message : String(e);
}

// Kept texts: the editor hosts' kept buffers (issue 28), one rule set.
export { KeptText, hasLoneCarriageReturn } from './kept-texts.js';
