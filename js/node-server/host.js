// One call against the disk, shared by `anchored-edit call` and the MCP server: run it
// in the engine, then write what it changed (all or nothing), and keep the statistics
// file up to date. The counterpart of the native cli/src/host.rs and --stats handling.
import fs from 'node:fs';
import * as engine from 'anchored-edit';
import { changesToWrite, createRefusals, editingTools, notApplied, whyOf } from '../host-policy/index.js';
import { commit, Invalid, Journals, plan, Stale } from './commit.js';
import { DiskFiles } from './disk.js';

const refusals = createRefusals(engine);
/** The write protocol's decisions (crate/src/protocol, through wasm). */
const protocol = (op, args) => engine.writeProtocol(op, args);

/**
 * The files under `root` and their journals; finishes (or rolls back) any write a crash
 * left, as the native CLI does at every start. Without a state directory for the
 * journals, reads work and every write fails saying why. `cache` (optional): a
 * ReadCache (read-cache.js) keeping texts between calls.
 */
export function openDisk(root, { cache } = {}) {
  const disk = new DiskFiles(root, { engine, cache });
  try {
    disk.journals = new Journals(disk, protocol);
    disk.journals.recover();
  } catch (e) {
    disk.journals = null;
    disk.journalError = whyOf(e);
    process.stderr.write(`anchored-edit: no write journal (${disk.journalError}); writes will fail\n`);
  }
  return disk;
}
/** The tools that edit (annotations): only their results carry changes to write. */
const edits = editingTools(engine.toolSchemas());

/**
 * Runs `request` (object or JSON text) in `session` on `disk`; unless it is a dry run
 * (`options.dryRun`, or the request's own dry_run) or was refused, writes its changes.
 * A write that fails is rolled back and refused as `write_failed` (worded by the engine,
 * through js/host-policy like every JS host).
 */
export function execute(session, disk, request, options = {}) {
  disk.beginCall?.();
  const result = session.call(request, disk, { dryRun: options.dryRun === true });
  const changes = changesToWrite(result, edits);
  if (changes.length === 0) return result;
  try {
    if (!disk.journals) throw new Error(`no write journal: ${disk.journalError}`);
    commit(disk, disk.journals, protocol, plan(changes, engine.encodeText));
    return result;
  } catch (e) {
    notApplied(session);
    if (e instanceof Stale) return refusals.stale(result.tool, e.path);
    const refused = refusals.writeFailed(result.tool, whyOf(e));
    if (e instanceof Invalid) return { ...refused, error: { kind: 'invalid_arguments', message: e.message } };
    return refused;
  }
}

/**
 * The `--stats FILE` of a session: JSON lines, one engine record per call (the native
 * CLI's format; the two can share a file). Replayed on start; after each call the
 * call's record is appended, and a `get_edit_stats {reset: true}` empties the file so
 * that the reset outlives the process. What a call recorded is read from the engine:
 * a call that left the statistics as they were recorded nothing (get_edit_stats), and
 * statistics back to empty after a call mean it reset them.
 */
export class StatsFile {
  #path;
  #empty;

  constructor(path, session, emptyStatsJson) {
    this.#path = path;
    this.#empty = emptyStatsJson;
    let text = '';
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch {
      // No file yet: no history.
    }
    for (const line of text.split('\n')) if (line.trim() !== '') session.replayRecord(line);
  }

  /** Runs `f` (one call of `session`) and persists what it recorded. Best effort. */
  around(session, f) {
    const before = session.statsJson();
    const result = f();
    try {
      const after = session.statsJson();
      if (after === before) return result;
      if (after === this.#empty) fs.writeFileSync(this.#path, '');
      else {
        const record = session.lastRecordJson();
        if (record !== undefined) fs.appendFileSync(this.#path, `${record}\n`);
      }
    } catch (e) {
      process.stderr.write(`anchored-edit: cannot write --stats ${this.#path}: ${e.message}\n`);
    }
    return result;
  }
}
