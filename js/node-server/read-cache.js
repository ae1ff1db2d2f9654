// Files the Node MCP server read, kept between calls (issue 28): a file is read again only
// when its identity (device, inode), size, modification time or change time differ from
// what they were when it was kept. One hook in the reader (disk.js `DiskFiles.read`,
// after the file is opened and `fstat`ed) asks `bytesOf`; nothing else changes: the
// commit's compare-and-swap still checks the bytes on disk before any write, so a text
// kept here that no longer matches the file can make a call refuse, never write over a
// change.
//
// A file whose modification time is within `racyMs` of the moment it was read is not
// served from here (it is read again): a write in the same timestamp tick, of the same
// size, would otherwise go unseen (git's "racily clean" rule). Memory is bounded:
// at most `maxBytes` kept in all, the least recently used dropped first; a file larger
// than a quarter of that is never kept.

/** Whether `stat` (BigIntStats) is the file `kept` was read from, unchanged. */
function unchanged(kept, stat) {
  return (
    kept.dev === stat.dev &&
    kept.ino === stat.ino &&
    kept.size === stat.size &&
    kept.mtimeNs === stat.mtimeNs &&
    kept.ctimeNs === stat.ctimeNs
  );
}

export class ReadCache {
  #entries = new Map(); // real path → {dev, ino, size, mtimeNs, ctimeNs, readAtNs, bytes}; oldest use first
  #total = 0;
  #maxBytes;
  #racyNs;
  /** How many reads were answered from here and how many read the file (for tests and benches). */
  hits = 0;
  misses = 0;

  constructor({ maxBytes = 64 * 1024 * 1024, racyMs = 1000 } = {}) {
    this.#maxBytes = maxBytes;
    this.#racyNs = BigInt(racyMs) * 1_000_000n;
  }

  /**
   * The bytes of the regular file at real path `real`, whose open handle's `stat`
   * (`fs.fstatSync(fd, {bigint: true})`) is given: the kept bytes when the file is
   * unchanged, else `readAll()`'s, kept for the next call.
   */
  bytesOf(real, stat, readAll) {
    const kept = this.#entries.get(real);
    if (kept && unchanged(kept, stat) && stat.mtimeNs + this.#racyNs <= kept.readAtNs) {
      this.#entries.delete(real);
      this.#entries.set(real, kept);
      this.hits += 1;
      return kept.bytes;
    }
    if (kept) this.#forget(real);
    const readAtNs = BigInt(Date.now()) * 1_000_000n;
    const bytes = readAll();
    this.misses += 1;
    if (bytes.length <= this.#maxBytes / 4) {
      const { dev, ino, size, mtimeNs, ctimeNs } = stat;
      this.#entries.set(real, { dev, ino, size, mtimeNs, ctimeNs, readAtNs, bytes });
      this.#total += bytes.length;
      for (const [p] of this.#entries) {
        if (this.#total <= this.#maxBytes) break;
        this.#forget(p);
      }
    }
    return bytes;
  }

  #forget(real) {
    const kept = this.#entries.get(real);
    if (!kept) return;
    this.#total -= kept.bytes.length;
    this.#entries.delete(real);
  }
}
