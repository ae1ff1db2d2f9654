// Writing a call's changes to disk: all files or none (the native CLI's cli/src/commit.rs,
// for Node's fs).
//
// 1. Stage: every new text goes to a temporary file beside its target (same directory,
//    so the final rename is atomic), named `.NAME.ae-RANDOM.tmp` and created exclusively
//    (`wx`: never through an existing file or symlink), with the target's permissions,
//    then fsync'ed. Any failure removes what was staged; nothing was touched.
// 2. Swap: for each change in order, an existing target is renamed to a backup beside it,
//    then the staged file is renamed into place (nothing replaces a deleted file). A
//    failure rolls back every step already done, in reverse, and removes directories
//    created for new files.
// 3. Clean up: the backups are removed.
//
// Readers of a target see the old or the new text at every moment. Everything is
// synchronous: no other call of this process runs in between.
//
// Test hook: ANCHORED_EDIT_TEST_FAULT=NAME makes the swap of the target whose file name
// is NAME fail (tests run as root, where permissions cannot make a write fail). It is
// read only when set, and only ever makes a write fail.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The disk operations for the engine's changes (`files[]` with `new_text`, `deleted`,
 * `moved_to`, `encoding`), resolving engine paths with `resolve` (which throws to refuse
 * one). A change with an `encoding` is written as `encodeText(new_text, encoding)` (the
 * engine's bytes); one without is UTF-8.
 */
export function plan(changes, resolve, encodeText) {
  const ops = [];
  for (const c of changes) {
    const target = resolve(c.path);
    const text = c.encoding ? encodeText(c.new_text ?? '', c.encoding) : (c.new_text ?? '');
    if (c.moved_to !== undefined && c.moved_to !== null) {
      ops.push({ target: resolve(c.moved_to), text });
      ops.push({ target, remove: true });
    } else if (c.deleted) ops.push({ target, remove: true });
    else ops.push({ target, text });
  }
  return ops;
}

function sibling(target, ext) {
  return path.join(path.dirname(target), `.${path.basename(target)}.ae-${randomBytes(6).toString('hex')}.${ext}`);
}

function tryUnlink(p) {
  try {
    fs.unlinkSync(p);
  } catch {
    // Already gone, or never made.
  }
}

/** Removes directories made for new files, deepest first, only when empty. */
function removeDirs(dirs) {
  for (const d of [...dirs].sort((a, b) => b.split(path.sep).length - a.split(path.sep).length)) {
    try {
      fs.rmdirSync(d);
    } catch {
      // Not empty (or gone): leave it.
    }
  }
}

function stage(target, text, createdDirs) {
  const dir = path.dirname(target);
  const missing = [];
  for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) {
    missing.push(d);
    if (path.dirname(d) === d) break;
  }
  fs.mkdirSync(dir, { recursive: true });
  createdDirs.push(...missing);
  let mode = null;
  try {
    mode = fs.statSync(target).mode & 0o7777;
  } catch {
    // A new file: the process's default permissions.
  }
  const tmp = sibling(target, 'tmp');
  const fd = fs.openSync(tmp, 'wx', mode ?? 0o666);
  try {
    fs.writeFileSync(fd, text, 'utf8');
    if (mode !== null) fs.fchmodSync(fd, mode);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    tryUnlink(tmp);
    throw e;
  }
  fs.closeSync(fd);
  return tmp;
}

function injectedFault(target) {
  const name = process.env.ANCHORED_EDIT_TEST_FAULT;
  if (name && path.basename(target) === name) {
    throw new Error(`injected fault writing ${name} (ANCHORED_EDIT_TEST_FAULT)`);
  }
}

/** Applies `ops` all or nothing; throws the first failure after rolling back. */
export function commit(ops) {
  const staged = [];
  const createdDirs = [];
  try {
    for (const op of ops) staged.push(op.remove ? null : stage(op.target, op.text, createdDirs));
  } catch (e) {
    staged.filter(Boolean).forEach(tryUnlink);
    removeDirs(createdDirs);
    throw e;
  }
  const done = []; // {index, backup}
  for (const [i, op] of ops.entries()) {
    try {
      injectedFault(op.target);
      let backup = null;
      if (exists(op.target)) {
        backup = sibling(op.target, 'bak');
        fs.renameSync(op.target, backup);
      }
      if (staged[i] !== null) {
        try {
          fs.renameSync(staged[i], op.target);
        } catch (e) {
          if (backup !== null) fs.renameSync(backup, op.target);
          throw e;
        }
      }
      done.push({ index: i, backup });
    } catch (e) {
      for (const { index, backup } of done.reverse()) {
        const target = ops[index].target;
        if (staged[index] !== null) tryUnlink(target);
        if (backup !== null) {
          try {
            fs.renameSync(backup, target);
          } catch {
            // Nothing more can be done; the backup stays beside the target.
          }
        }
      }
      staged.filter(Boolean).forEach(tryUnlink);
      removeDirs(createdDirs);
      throw e;
    }
  }
  for (const { backup } of done) if (backup !== null) tryUnlink(backup);
}

function exists(p) {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
