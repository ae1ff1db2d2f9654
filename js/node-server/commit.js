// The Node server's executor of the write protocol: all files or none, at every instant,
// and never outside the root. Every decision (staging names, how each target is written,
// the journal's states and sealed text, the compare and swap, aliases, what a rollback
// does) is the engine's `writeProtocol` (crate/src/protocol, through wasm), the same code
// the native CLI runs (cli/src/commit.rs, journal.rs); this file only performs the file
// system's primitives with Node's `fs`, beneath the root as disk.js opens it (directory
// descriptors, `at(fd, name)` through /proc/self/fd, O_NOFOLLOW, O_EXCL). docs/disk.md
// describes the protocol and both executors.
//
// The order of the steps is the protocol's too (`writeProtocol('steps')`, the list the
// CLI interprets, crate/src/protocol/steps.rs): after locating every target and
// comparing it with the engine's read (aliases refused, a change is stale), `run`
// performs each step of that list with `fs` and decides no order: journal `staging`;
// create folders; stage (new texts beside their targets, created exclusively, synced;
// old texts kept by a hard link, or a checked copy for an in-place write); journal
// `swapping`; compare again, bytes too; swap (rename, link, in-place write, unlink);
// sync; journal `done`; clean up. A failure at any step runs `undo` (the protocol's
// `undo_steps`), the code that recovers a batch a crash left (`Journals.recover`, at
// every start).
//
// Faults for tests (read from the environment): ANCHORED_EDIT_FAIL_AT=STEP fails a step,
// ANCHORED_EDIT_CRASH_AT=STEP exits with status 137 there (nothing more written, as a
// kill), ANCHORED_EDIT_PAUSE_AT=STEP with ANCHORED_EDIT_PAUSE_FILE=PATH creates PATH and
// waits (up to 30 s) until it is removed. STEP is N (the Nth step) or NAME:K (the Kth step
// named journal, mkdir, stage, write, fsync, keep-old, check, swap, sync, cleanup): the
// names of the protocol's steps, counted as the CLI's debug build counts them. ANCHORED_EDIT_TEST_FAULT=NAME fails the swap of the
// target named NAME. They only ever make a write fail or stop.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { at, digestOf, idOf, O_READ, openDirAt, ownStat, procStat } from './disk.js';

const C = fs.constants;
const O_NEW = C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW;
const CRASH = 'injected crash';
/** The largest journal read back. */
const JOURNAL_MAX = 64 << 20;

/** A target changed since the engine read it: nothing was written. */
export class Stale extends Error {
  constructor(p) {
    super(`${p} changed after it was read`);
    this.path = p;
  }
}

/** The call cannot be written as asked (two names of one file); the message says why. */
export class Invalid extends Error {}

/**
 * The disk operations for the engine's changes (`files[]` with `new_text`, `deleted`,
 * `moved_to`, `encoding`): `{path, bytes}` writes and `{path, remove: true}` deletes.
 */
export function plan(changes, encodeText) {
  const ops = [];
  for (const c of changes) {
    const bytes = () => (c.encoding ? encodeText(c.new_text ?? '', c.encoding) : Buffer.from(c.new_text ?? '', 'utf8'));
    if (c.moved_to !== undefined && c.moved_to !== null) {
      ops.push({ path: c.moved_to, bytes: bytes() });
      ops.push({ path: c.path, remove: true });
    } else if (c.deleted) ops.push({ path: c.path, remove: true });
    else ops.push({ path: c.path, bytes: bytes() });
  }
  return ops;
}

function split(rel) {
  const cut = rel.lastIndexOf('/');
  return cut < 0 ? ['', rel] : [rel.slice(0, cut), rel.slice(cut + 1)];
}

function lstatAt(fd, name) {
  try {
    return fs.lstatSync(at(fd, name), { bigint: true });
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
}

function ignoreMissing(f) {
  try {
    f();
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
}

function closeAll(fds) {
  for (const fd of fds) if (fd !== null && fd !== undefined) fs.closeSync(fd);
}

/** The bytes of the regular file `name` in `dfd` (no link, no FIFO), with its stat. */
function readRegular(dfd, name) {
  const fd = fs.openSync(at(dfd, name), O_READ);
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile()) throw Object.assign(new Error(`${name} is not a regular file`), { code: 'EINVAL' });
    return { bytes: fs.readFileSync(fd), st };
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `bytes` over the whole open file, truncates it to their length, syncs it. */
function overwrite(fd, bytes) {
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done, done);
  fs.ftruncateSync(fd, bytes.length);
  fs.fsyncSync(fd);
}

function writeAll(fd, bytes) {
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

/** The test faults of the environment (see the header), as a hook called before each step. */
export function testFaults(env = process.env) {
  const { ANCHORED_EDIT_FAIL_AT: failAt, ANCHORED_EDIT_CRASH_AT: crashAt, ANCHORED_EDIT_PAUSE_AT: pauseAt } = env;
  const pauseFile = env.ANCHORED_EDIT_PAUSE_FILE;
  let step = 0;
  const counts = new Map();
  return (name) => {
    step += 1;
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    const is = (spec) => spec !== undefined && (spec === String(step) || spec === `${name}:${count}`);
    if (is(crashAt)) process.exit(137);
    if (is(pauseAt) && pauseFile) {
      fs.writeFileSync(pauseFile, '');
      const start = Date.now();
      const nap = new Int32Array(new SharedArrayBuffer(4));
      while (fs.existsSync(pauseFile) && Date.now() - start < 30_000) Atomics.wait(nap, 0, 0, 5);
    }
    if (is(failAt)) throw new Error(`injected failure at step ${step} (${name})`);
  };
}

/**
 * The journals of one root in the user's state directory:
 * `$XDG_STATE_HOME/anchored-edit/` (else `~/.local/state/anchored-edit/`, 0700) with the
 * per-user `key` (0600) and `root-<dev>-<ino>/` (0700) holding `<tag>.journal` (0600),
 * sealed by the protocol. The same place and format as the CLI's (cli/src/journal.rs):
 * either recovers what the other left.
 */
export class Journals {
  #p;

  constructor(disk, protocol, env = process.env) {
    this.#p = protocol;
    this.disk = disk;
    const home =
      env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
        ? path.join(env.XDG_STATE_HOME, 'anchored-edit')
        : env.HOME && path.isAbsolute(env.HOME)
          ? path.join(env.HOME, '.local/state/anchored-edit')
          : null;
    if (home === null) throw new Error('neither XDG_STATE_HOME nor HOME is set, so there is no place for the write journal');
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    const base = openDirAt(null, home, true);
    try {
      if (fs.fstatSync(base).uid !== process.geteuid()) {
        throw new Error(`${home} belongs to another user; anchored-edit keeps its write journal there`);
      }
      this.key = this.#key(base);
      const name = protocol('root_dir', disk.rootId);
      try {
        fs.mkdirSync(at(base, name), { mode: 0o700 });
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
      }
      this.dirFd = openDirAt(base, name);
      this.shown = path.join(home, name);
    } finally {
      fs.closeSync(base);
    }
  }

  /**
   * The user's key, made when missing (16 random bytes written to a private temporary
   * file, then linked into place: no process reads a half-written key), as the CLI does.
   */
  #key(base) {
    if (lstatAt(base, 'key') === null) {
      const tmp = `key.${randomBytes(8).toString('hex')}.tmp`;
      const fd = fs.openSync(at(base, tmp), O_NEW, 0o600);
      try {
        writeAll(fd, randomBytes(16));
        fs.fsyncSync(fd);
        fs.linkSync(at(base, tmp), at(base, 'key'));
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
      } finally {
        fs.closeSync(fd);
        ignoreMissing(() => fs.unlinkSync(at(base, tmp)));
      }
    }
    const { bytes, st } = readRegular(base, 'key');
    if (bytes.length !== 16 || Number(st.uid) !== process.geteuid() || (Number(st.mode) & 0o077) !== 0) {
      throw new Error("the write journal's key is not a private 16-byte file of this user");
    }
    return [...bytes];
  }

  /** Writes (or atomically replaces) `journal` in `state`. */
  save(journal, state) {
    const text = this.#p('seal', { journal, state, key: this.key });
    const next = `${journal.tag}.next`;
    const fd = fs.openSync(at(this.dirFd, next), C.O_WRONLY | C.O_CREAT | C.O_TRUNC | C.O_NOFOLLOW, 0o600);
    try {
      writeAll(fd, Buffer.from(text, 'utf8'));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(at(this.dirFd, next), at(this.dirFd, `${journal.tag}.journal`));
    fs.fsyncSync(this.dirFd);
  }

  /** Removes the journal, then its lock. */
  discard(tag) {
    ignoreMissing(() => fs.unlinkSync(at(this.dirFd, `${tag}.next`)));
    ignoreMissing(() => fs.unlinkSync(at(this.dirFd, `${tag}.journal`)));
    ignoreMissing(() => fs.unlinkSync(at(this.dirFd, `${tag}.lock`)));
  }

  /**
   * `<tag>.lock`, naming this process (its pid and start time) while the batch runs. A
   * recovery in another process may remove a lock file before its text is written (it
   * looks like a crash's leftover); so after writing, the name must still be this
   * file, or it is made again (the CLI's rule).
   */
  hold(tag) {
    const text = Buffer.from(this.#p('lock_text', { stat: ownStat() }) ?? '', 'utf8');
    const name = `${tag}.lock`;
    for (let i = 0; i < 5; i++) {
      const fd = fs.openSync(at(this.dirFd, name), C.O_WRONLY | C.O_CREAT | C.O_NOFOLLOW, 0o600);
      try {
        fs.ftruncateSync(fd, 0);
        writeAll(fd, text);
        const [mine, now] = [fs.fstatSync(fd, { bigint: true }), lstatAt(this.dirFd, name)];
        if (now !== null && now.dev === mine.dev && now.ino === mine.ino) return;
      } finally {
        fs.closeSync(fd);
      }
    }
    throw new Error("could not hold the write journal's lock");
  }

  /** Whether the process that holds `tag`'s lock still runs. */
  #alive(tag) {
    let lock;
    try {
      lock = readRegular(this.dirFd, `${tag}.lock`).bytes.toString('utf8').slice(0, 64);
    } catch {
      return false;
    }
    const pid = this.#p('lock_pid', { lock });
    return this.#p('lock_alive', { lock, stat: pid === null ? null : procStat(pid) });
  }

  /**
   * Finishes every batch a dead run left: rolled back in `swapping`, cleaned up
   * otherwise. A journal that does not verify is left alone (named on stderr).
   */
  recover() {
    const unreadable = [];
    for (const name of fs.readdirSync(at(this.dirFd, '.'))) {
      const dot = name.lastIndexOf('.');
      if (dot < 0) continue;
      const [tag, ext] = [name.slice(0, dot), name.slice(dot + 1)];
      if (this.#alive(tag)) continue;
      if (ext !== 'journal') {
        if (lstatAt(this.dirFd, `${tag}.journal`) === null) ignoreMissing(() => fs.unlinkSync(at(this.dirFd, name)));
        continue;
      }
      const journal = this.#read(name, tag);
      if (journal === null) {
        unreadable.push(name);
        continue;
      }
      undo(this.disk, this.#p, journal, []);
      this.discard(tag);
    }
    if (unreadable.length > 0) {
      process.stderr.write(`anchored-edit: left alone write journal(s) that do not verify in ${this.shown}: ${unreadable.join(', ')}\n`);
    }
  }

  #read(name, tag) {
    try {
      const st = lstatAt(this.dirFd, name);
      if (st === null || !st.isFile() || st.size > JOURNAL_MAX) return null;
      const text = readRegular(this.dirFd, name).bytes.toString('utf8');
      return this.#p('unseal', { text, key: this.key, tag, root: this.disk.root });
    } catch {
      return null;
    }
  }
}

/** The directory at root-relative `rel`, each component opened without following a link. */
function openNoFollow(disk, rel) {
  let fd = openDirAt(disk.rootFd, '.');
  for (const name of rel === '' ? [] : rel.split('/')) {
    let next;
    try {
      next = openDirAt(fd, name);
    } finally {
      fs.closeSync(fd);
    }
    fd = next;
  }
  return fd;
}

/**
 * Returns every target of `journal` to its old text (in `swapping`; the protocol decides
 * each), then removes its staging files, old copies and (before `done`) created folders.
 * `held`: the directory descriptors the running commit used (none in a recovery).
 */
export function undo(disk, protocol, journal, held) {
  // The entry's folder, from its `open` step (null: nothing of ours is there).
  let dfd = null;
  let opened = false;
  const close = () => {
    if (opened) fs.closeSync(dfd);
    [dfd, opened] = [null, false];
  };
  try {
    for (const step of protocol('undo_steps', { journal })) {
      const e = journal.entries[step.entry];
      switch (step.step) {
        case 'open':
          close();
          dfd = held[step.entry] ?? null;
          if (dfd === null) {
            try {
              dfd = openNoFollow(disk, e.dir);
              opened = true;
            } catch {
              // Gone, or no longer a folder of the root: nothing of ours is there.
            }
          }
          break;
        case 'roll_back':
          if (dfd !== null) rollBack(protocol, dfd, e);
          break;
        case 'remove_sides':
          if (dfd !== null) for (const side of [e.staged, e.old]) if (side) ignoreMissing(() => fs.unlinkSync(at(dfd, side)));
          break;
        case 'rmdir': {
          const [parent, name] = split(journal.dirs[step.dir]);
          try {
            const pfd = openNoFollow(disk, parent);
            try {
              fs.rmdirSync(at(pfd, name));
            } finally {
              fs.closeSync(pfd);
            }
          } catch {
            // Not empty, or gone: left.
          }
          break;
        }
        default:
          throw new Error(`unknown undo step ${step.step}`);
      }
    }
  } finally {
    close();
  }
}

/** One target back to its old text, as the protocol decides from what is on disk. */
function rollBack(protocol, dfd, e) {
  const st = (n) => (n ? lstatAt(dfd, n) : null);
  const [staged, old, target] = [st(e.staged), st(e.old), st(e.name)];
  const bytes = (n) => {
    try {
      return readRegular(dfd, n).bytes;
    } catch {
      return null;
    }
  };
  let matches = false;
  if (e.kind === 'in_place' && e.old) {
    const [now, before] = [bytes(e.name), bytes(e.old)];
    matches = now !== null && before !== null && now.equals(before);
  }
  const facts = {
    staged_exists: staged !== null,
    old_exists: old !== null,
    target_exists: target !== null,
    target_is_staged: staged !== null && target !== null && staged.dev === target.dev && staged.ino === target.ino,
    target_matches_old: matches,
  };
  switch (protocol('roll_back', { kind: e.kind, has_staged: Boolean(e.staged), facts })) {
    case 'rename_old':
      fs.renameSync(at(dfd, e.old), at(dfd, e.name));
      break;
    case 'unlink_target':
      fs.unlinkSync(at(dfd, e.name));
      break;
    case 'rewrite_from_old': {
      const before = readRegular(dfd, e.old).bytes;
      const fd = fs.openSync(at(dfd, e.name), C.O_WRONLY | C.O_NONBLOCK | C.O_NOFOLLOW);
      try {
        if (!fs.fstatSync(fd).isFile()) throw new Error(`${e.name} is not a regular file`);
        overwrite(fd, before);
      } finally {
        fs.closeSync(fd);
      }
      break;
    }
    default:
  }
}

/**
 * Every target located beneath the root and compared with the engine's read: aliases
 * refused (`Invalid`), a change `Stale`. Returns the targets and the folders to create.
 */
function locate(disk, protocol, ops) {
  const targets = [];
  const named = [];
  for (const op of ops) {
    const rel = disk.relOf(disk.resolve(op.path));
    if (rel === '') throw new Error('a change names the root itself');
    const [dir, name] = split(rel);
    let meta = null;
    try {
      const dfd = disk.openDir(dir);
      try {
        meta = lstatAt(dfd, name);
      } finally {
        fs.closeSync(dfd);
      }
    } catch (e) {
      if (e.code !== 'ENOENT') throw new Stale(op.path);
    }
    named.push({ path: op.path, real: rel, id: meta ? idOf(meta) : null, remove: Boolean(op.remove) });
    const alias = protocol('aliases', { ops: named });
    if (alias !== null) throw new Invalid(alias);
    const now = meta && meta.isFile() ? { id: idOf(meta), len: Number(meta.size) } : meta ? { id: ['0', '0'] } : null;
    if (!protocol('unchanged', { seen: disk.seenAt(rel), now }) || (op.remove && meta === null)) throw new Stale(op.path);
    targets.push({ op, rel, dir, name, meta });
  }
  const dirs = [];
  for (const t of targets) {
    if (t.op.remove) continue;
    const parts = t.dir === '' ? [] : t.dir.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      if (!dirs.includes(prefix) && !fs.existsSync(path.join(disk.root, ...prefix.split('/')))) dirs.push(prefix);
    }
  }
  return { targets, dirs };
}

/** Whether the target is still what the engine read, its bytes too. */
function unchangedNow(disk, protocol, t, dfd) {
  const seen = disk.seenAt(t.rel);
  const st = lstatAt(dfd, t.name);
  if (st === null) return protocol('unchanged', { seen, now: null });
  if (!st.isFile()) return false;
  const { bytes, st: opened } = readRegular(dfd, t.name);
  return protocol('unchanged', { seen, now: { id: idOf(opened), len: bytes.length, digest: digestOf(bytes) } });
}

/** The final check: the path leads to the same place through the same folder, and the file is as read. */
function check(disk, protocol, t, dfd) {
  let samePlace = false;
  try {
    samePlace = disk.relOf(disk.resolve(t.op.path)) === t.rel;
  } catch {
    samePlace = false;
  }
  let sameDir = false;
  try {
    const now = disk.openDir(t.dir);
    try {
      const [a, b] = [fs.fstatSync(now, { bigint: true }), fs.fstatSync(dfd, { bigint: true })];
      sameDir = a.dev === b.dev && a.ino === b.ino;
    } finally {
      fs.closeSync(now);
    }
  } catch {
    sameDir = false;
  }
  if (!(samePlace && sameDir && unchangedNow(disk, protocol, t, dfd))) throw new Stale(t.op.path);
}

/** Creates entry `e`'s staging file (the `stage` step); true when `e` turned `in_place`. */
function stageFile(x, t, e, dfd) {
  closeStaged(x);
  let changed = false;
  // Owner-only until it has the target's owner and mode.
  x.staged = fs.openSync(at(dfd, e.staged), O_NEW, t.meta ? 0o600 : 0o666);
  if (t.meta) {
    const mine = fs.fstatSync(x.staged, { bigint: true });
    if (mine.uid !== t.meta.uid || mine.gid !== t.meta.gid) {
      try {
        fs.fchownSync(x.staged, Number(t.meta.uid), Number(t.meta.gid));
      } catch {
        if (e.kind === 'replace') [e.kind, changed] = ['in_place', true];
      }
    }
    fs.fchmodSync(x.staged, Number(t.meta.mode) & 0o7777);
  }
  return changed;
}

function closeStaged(x) {
  if (x.staged !== null) fs.closeSync(x.staged);
  x.staged = null;
}

/** The `copy_old` step: a private copy of the target, checked against the engine's read. */
function copyOld(x, t, e, dfd, sync) {
  const { bytes, st } = readRegular(dfd, t.name);
  const now = { id: idOf(st), len: bytes.length, digest: digestOf(bytes) };
  if (!x.protocol('unchanged', { seen: x.disk.seenAt(t.rel), now })) throw new Stale(t.op.path);
  const fd = fs.openSync(at(dfd, e.old), O_NEW, 0o600);
  try {
    writeAll(fd, bytes);
    if (sync) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** One descriptor per distinct folder (by device and inode). */
function distinct(dfds) {
  const seen = new Map();
  for (const fd of dfds) {
    const st = fs.fstatSync(fd, { bigint: true });
    seen.set(`${st.dev}:${st.ino}`, fd);
  }
  return [...seen.values()];
}

/**
 * The `sync_files` step (the CLI's `syncfs`; Node has none): every staging file and
 * kept old text that exists is synced, then every folder.
 */
function syncFiles(journal, dfds) {
  for (const [i, dfd] of dfds.entries()) {
    const e = journal.entries[i];
    for (const side of [e.staged, e.old]) {
      if (!side) continue;
      let fd;
      try {
        fd = fs.openSync(at(dfd, side), O_READ);
      } catch (err) {
        if (err.code === 'ENOENT') continue;
        throw err;
      }
      try {
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    }
  }
  for (const fd of distinct(dfds)) fs.fsyncSync(fd);
}

function swap(disk, t, e, dfd, how) {
  const name = process.env.ANCHORED_EDIT_TEST_FAULT;
  if (name && t.name === name) throw new Error(`injected fault writing ${name} (ANCHORED_EDIT_TEST_FAULT)`);
  switch (how) {
    case 'rename':
      fs.renameSync(at(dfd, e.staged), at(dfd, e.name));
      break;
    case 'link_new':
      fs.linkSync(at(dfd, e.staged), at(dfd, e.name));
      fs.unlinkSync(at(dfd, e.staged));
      break;
    case 'overwrite': {
      const fd = fs.openSync(at(dfd, e.name), C.O_WRONLY | C.O_NONBLOCK | C.O_NOFOLLOW);
      try {
        const st = fs.fstatSync(fd, { bigint: true });
        const seen = disk.seenAt(t.rel);
        if (!st.isFile() || seen === null || idOf(st).join(':') !== seen.id.join(':')) throw new Error(`${t.rel} was replaced`);
        overwrite(fd, t.op.bytes);
      } finally {
        fs.closeSync(fd);
      }
      break;
    }
    default:
      fs.unlinkSync(at(dfd, e.name));
  }
}

/** Performs one step of the protocol's list with `fs`; true when it changed the journal's kinds. */
function perform(x, step) {
  const { disk, journal, dfds } = x;
  const i = step.entry;
  const [t, e, dfd] = [x.targets[i], journal.entries[i], dfds[i]];
  switch (step.step) {
    case 'save':
      x.journals.save(journal, step.state);
      break;
    case 'enter':
      journal.state = step.state;
      break;
    case 'mkdir': {
      const [parent, name] = split(journal.dirs[step.dir]);
      const pfd = disk.openDir(parent);
      try {
        fs.mkdirSync(at(pfd, name));
      } finally {
        fs.closeSync(pfd);
      }
      break;
    }
    case 'open':
      // Kept before anything is created in it: the undo cleans through this descriptor.
      dfds.push(disk.openDir(t.dir));
      break;
    case 'stage':
      return stageFile(x, t, e, dfd);
    case 'write':
      writeAll(x.staged, t.op.bytes);
      break;
    case 'fsync':
      fs.fsyncSync(x.staged);
      closeStaged(x);
      break;
    case 'link_old':
      fs.linkSync(at(dfd, t.name), at(dfd, e.old));
      break;
    case 'copy_old':
      copyOld(x, t, e, dfd, step.sync);
      break;
    case 'sync_files':
      closeStaged(x);
      syncFiles(journal, dfds);
      break;
    case 'check':
      check(disk, x.protocol, t, dfd);
      break;
    case 'rename':
    case 'link_new':
    case 'overwrite':
    case 'unlink':
      swap(disk, t, e, dfd, step.step);
      break;
    case 'sync_dir':
      fs.fsyncSync(dfd);
      break;
    case 'sync_dirs':
      for (const fd of distinct(dfds)) fs.fsyncSync(fd);
      break;
    case 'cleanup':
      break;
    default:
      throw new Error(`unknown write step ${step.step}`);
  }
  return false;
}

/**
 * Every step of the protocol's list in its order, `hook` before each named one. A step
 * that turned a kind asks for the list again (the steps so far are the same in it). A
 * failure once the batch stands is none.
 */
function run(x, hook) {
  let steps = x.protocol('steps', { journal: x.journal });
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k];
    try {
      if (step.name !== null) hook(step.name);
      if (perform(x, step)) steps = x.protocol('steps', { journal: x.journal });
    } catch (e) {
      if (e.message === CRASH || !x.protocol('stands', { state: x.journal.state })) throw e;
    }
  }
}

/**
 * Applies `ops` all or nothing through `protocol` (the engine's writeProtocol) and
 * `journals`. Throws `Stale` or `Invalid` (nothing written), or the failure after
 * rolling back.
 */
export function commit(disk, journals, protocol, ops, hook = testFaults()) {
  const { targets, dirs } = locate(disk, protocol, ops);
  const tag = protocol('tag', { random: [...randomBytes(8)] });
  const entries = targets.map((t) =>
    protocol('entry', {
      dir: t.dir,
      name: t.name,
      remove: Boolean(t.op.remove),
      exists: t.meta !== null,
      nlink: t.meta ? Number(t.meta.nlink) : 0,
      tag,
    }),
  );
  const journal = { tag, root: disk.root, state: 'staging', entries, dirs };
  journals.hold(tag);
  const x = { disk, journals, protocol, targets, journal, dfds: [], staged: null };
  let failure = null;
  try {
    run(x, hook);
  } catch (e) {
    failure = e;
  }
  let cleanup = null;
  try {
    closeStaged(x);
    undo(disk, protocol, journal, x.dfds);
    journals.discard(tag);
  } catch (e) {
    cleanup = e;
  } finally {
    closeAll(x.dfds);
  }
  if (failure !== null) {
    if (cleanup !== null && !(failure instanceof Stale) && !(failure instanceof Invalid)) {
      throw new Error(`${failure.message}; rolling back stopped at: ${cleanup.message}, and the next run of anchored-edit finishes it`);
    }
    throw failure;
  }
  if (cleanup !== null && !protocol('stands', { state: journal.state })) throw cleanup;
}
