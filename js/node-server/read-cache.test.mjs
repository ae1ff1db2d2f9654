// The Node server's read cache (read-cache.js) through its hook in DiskFiles.read, on real
// files: a file is read again exactly when its identity, size or times changed, or when
// its modification time is too recent to trust; memory stays bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DiskFiles } from './disk.js';
import { ReadCache } from './read-cache.js';

const text = (bytes) => new TextDecoder().decode(bytes);
const past = new Date(Date.now() - 60_000);

/** A root with a.txt written a minute ago (older than the racy window). */
function setUp(options) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-read-cache-')));
  const file = path.join(root, 'a.txt');
  fs.writeFileSync(file, 'one\n');
  fs.utimesSync(file, past, past);
  const cache = new ReadCache(options);
  return { root, file, cache, disk: new DiskFiles(root, { cache }) };
}

const changes = [
  // [what happens to a.txt between the reads, read again?, text then]
  ['nothing', () => {}, false, 'one\n'],
  [
    'rewritten in place, same size, a new modification time',
    (f) => {
      fs.writeFileSync(f, 'two\n');
      fs.utimesSync(f, past, new Date(past.getTime() + 1000));
    },
    true,
    'two\n',
  ],
  [
    'replaced by a rename (new inode), same size, same times',
    (f) => {
      fs.writeFileSync(`${f}.new`, 'six\n');
      fs.utimesSync(`${f}.new`, past, past);
      fs.renameSync(`${f}.new`, f);
    },
    true,
    'six\n',
  ],
  [
    'rewritten in place, same size, the old times put back (the change time still moves)',
    (f) => {
      fs.writeFileSync(f, 'ten\n');
      fs.utimesSync(f, past, past);
    },
    true,
    'ten\n',
  ],
  ['grown', (f) => fs.appendFileSync(f, 'more\n'), true, 'one\nmore\n'],
  ['deleted', (f) => fs.rmSync(f), true, undefined],
];

for (const [what, change, reread, expected] of changes) {
  test(`read cache: a.txt ${what} → ${reread ? 'read again' : 'kept bytes'}`, async () => {
    const { root, file, cache, disk } = setUp();
    try {
      assert.equal(text(disk.read('a.txt')), 'one\n');
      // ctime has a coarse clock on some file systems: let it move on.
      await new Promise((r) => setTimeout(r, 20));
      change(file);
      const again = disk.read('a.txt');
      assert.equal(again === undefined ? undefined : text(again), expected);
      assert.equal(cache.hits, reread ? 0 : 1);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}

test('read cache: a file modified within the racy window is read again every time', () => {
  const { root, file, cache, disk } = setUp();
  try {
    fs.writeFileSync(file, 'now\n');
    for (let i = 0; i < 3; i++) assert.equal(text(disk.read('a.txt')), 'now\n');
    assert.equal(cache.hits, 0);
    assert.equal(cache.misses, 3);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('read cache: bounded: a file over a quarter of the budget is never kept, the least recently used goes first', () => {
  const { root, cache, disk } = setUp({ maxBytes: 40 });
  try {
    fs.writeFileSync(path.join(root, 'big.txt'), 'x'.repeat(11));
    for (const name of ['b.txt', 'c.txt', 'd.txt', 'e.txt']) fs.writeFileSync(path.join(root, name), `${name} 123\n`);
    for (const name of ['big.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']) fs.utimesSync(path.join(root, name), past, past);
    disk.read('big.txt');
    disk.read('big.txt');
    assert.equal(cache.hits, 0, 'big.txt is not kept');
    // 10 bytes each: b, c, d fit (30); a.txt (4) too; e makes 44 > 40: b (least recent) goes.
    for (const name of ['b.txt', 'c.txt', 'd.txt', 'a.txt', 'e.txt']) disk.read(name);
    const before = cache.hits;
    disk.read('c.txt');
    assert.equal(cache.hits, before + 1, 'c.txt still kept');
    disk.read('b.txt');
    assert.equal(cache.hits, before + 1, 'b.txt was dropped');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
