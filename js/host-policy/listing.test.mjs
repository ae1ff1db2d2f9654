// js/host-policy/listing.js with the engine's ignore rules (pkg/): the walk every
// walking host does (hidden files, .gitignore/.ignore, host patterns, links, pruned
// folders) over a tree given as data. The walker and the flat filter (VS Code's
// findFiles, the playground's tabs) must agree on every tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as engine from '../../pkg/index.node.js';
import { filterListing, listFiles } from './listing.js';

/** A tree {path: text | {link: true}} as the walker's readDir/readText. */
function treeIo(tree) {
  const readDir = (rel) => {
    const prefix = rel === '' ? '' : `${rel}/`;
    const names = new Map();
    for (const [p, v] of Object.entries(tree)) {
      if (!p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length);
      const name = rest.split('/')[0];
      const isDir = rest.includes('/');
      names.set(name, isDir ? 'dir' : typeof v === 'string' ? 'file' : 'other');
    }
    if (names.size === 0 && rel !== '') return null;
    return [...names].map(([name, type]) => ({ name, type }));
  };
  const readText = (p) => (typeof tree[p] === 'string' ? tree[p] : undefined);
  return { readDir, readText };
}

const CASES = [
  {
    name: 'hidden files and folders are left out',
    tree: { 'a.js': '', '.env': '', '.git/config': '', 'src/.cache/x': '', 'src/b.js': '' },
    want: ['a.js', 'src/b.js'],
  },
  {
    name: '.gitignore: names at any depth, anchored paths, folders only, negation',
    tree: {
      '.gitignore': '# build output\n*.log\n/dist\nbuild/\n!keep.log\ndocs/*.tmp\n',
      'a.log': '',
      'keep.log': '',
      'dist/x.js': '',
      'src/dist/y.js': '',
      'src/build/z.js': '',
      'build': '',
      'docs/n.tmp': '',
      'docs/deep/n.tmp': '',
      'src/c.js': '',
    },
    want: ['build', 'docs/deep/n.tmp', 'keep.log', 'src/c.js', 'src/dist/y.js'],
  },
  {
    name: 'a deeper ignore file wins; .ignore wins over .gitignore in one folder',
    tree: {
      '.gitignore': '*.gen.js\n',
      'src/.gitignore': '!*.gen.js\n',
      'src/a.gen.js': '',
      'b.gen.js': '',
      'lib/.gitignore': 'x.js\n',
      'lib/.ignore': '!x.js\n',
      'lib/x.js': '',
    },
    want: ['lib/x.js', 'src/a.gen.js'],
  },
  {
    name: 'a file in an ignored folder stays ignored; ** patterns',
    tree: { '.gitignore': 'out/\n!out/keep.js\n**/tmp/**\na/**/z.js\n', 'out/keep.js': '', 'tmp/x': '', 'p/tmp/q/r': '', 'a/b/c/z.js': '', 'a/z.js': '', 'a/y.js': '' },
    want: ['a/y.js'],
  },
  {
    name: 'links are neither followed nor listed; host patterns apply',
    tree: { '.gitignore': '*.tmp\n', 'x.tmp': '', 'a.js': '', 'link.js': { link: true }, 'node_modules/m.js': '', 'Thumbs.db': '' },
    host: ['node_modules', 'Thumbs.db'],
    want: ['a.js'],
  },
];

test('listFiles and filterListing agree with the rule on every tree', () => {
  for (const c of CASES) {
    const io = treeIo(c.tree);
    const walked = listFiles({ engine, ...io, hostPatterns: c.host }).sort();
    assert.deepEqual(walked, c.want, `walk: ${c.name}`);
    const files = Object.entries(c.tree).filter(([, v]) => typeof v === 'string').map(([p]) => p);
    const ignoreTexts = Object.fromEntries(files.filter((p) => /(^|\/)\.(git)?ignore$/.test(p)).map((p) => [p, c.tree[p]]));
    assert.deepEqual(filterListing({ engine, paths: files, ignoreTexts, hostPatterns: c.host }).sort(), c.want, `filter: ${c.name}`);
  }
});

test('a sub-folder listing applies the ignore files above it; a missing folder is null', () => {
  const io = treeIo({ '.gitignore': 'gen/\n*.log\n', 'src/a.js': '', 'src/b.log': '', 'src/gen/c.js': '', 'gen/d.js': '' });
  assert.deepEqual(listFiles({ engine, ...io, folder: 'src' }).sort(), ['src/a.js']);
  assert.deepEqual(listFiles({ engine, ...io, folder: 'gen' }), []);
  assert.equal(listFiles({ engine, ...io, folder: 'nope' }), null);
});

test('the walk never enters a folder the rules leave out', () => {
  const io = treeIo({ '.gitignore': 'node_modules/\n', 'a.js': '', 'node_modules/m/index.js': '', '.git/HEAD': '' });
  const entered = [];
  const walked = listFiles({ engine, ...io, readDir: (rel) => (entered.push(rel), io.readDir(rel)) });
  assert.deepEqual(walked, ['a.js']);
  assert.deepEqual(entered, ['']);
});

test('vcsIgnores false drops .gitignore rules, not .ignore ones nor host patterns', () => {
  const io = treeIo({ '.gitignore': '*.log\n', '.ignore': '*.tmp\n', 'a.log': '', 'b.tmp': '', 'c.db': '' });
  assert.deepEqual(listFiles({ engine, ...io, vcsIgnores: false, hostPatterns: ['*.db'] }).sort(), ['a.log']);
});

// Issue 24 finding 6 for the JS walkers (the Node server, Pulsar): an ignore file is read
// only when it is a regular file, not a link, at most 1 MiB; a FIFO is never opened.
test('fsReaders reads ignore files bounded: no link, FIFO or huge file is read, each skip said why', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { execFileSync } = await import('node:child_process');
  const { fsReaders, MAX_IGNORE_FILE_BYTES } = await import('./listing.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ae-ignore-'));
  try {
    fs.writeFileSync(path.join(dir, 'outside-rules'), 'secret\n');
    fs.mkdirSync(path.join(dir, 'root'));
    const at = (rel) => path.join(dir, 'root', rel);
    fs.writeFileSync(at('plain'), 'a.txt\n');
    fs.symlinkSync(path.join(dir, 'outside-rules'), at('outside'));
    fs.symlinkSync('/dev/zero', at('zero'));
    execFileSync('mkfifo', [at('fifo')]);
    fs.writeFileSync(at('huge'), 'x\n'.repeat(MAX_IGNORE_FILE_BYTES));
    fs.writeFileSync(at('latin1'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const { readText } = fsReaders(fs, at);
    assert.equal(readText('plain'), 'a.txt\n');
    assert.equal(readText('missing'), undefined);
    for (const [name, skipped, bytes] of [
      ['outside', 'link'],
      ['zero', 'link'],
      ['fifo', 'not_regular'],
      ['huge', 'too_large', 2 * MAX_IGNORE_FILE_BYTES],
      ['latin1', 'not_utf8'],
    ]) {
      assert.deepEqual(readText(name), { skipped, bytes }, name);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The Node server's and Pulsar's walkers warn about an ignore file they skip in the
// CLI walker's words (the engine's `ignoreFileSkipped`): cli/tests/robust.rs checks the
// same warning through both servers.
test('listFiles warns, in the engine\'s words, about each ignore file it skips', () => {
  const io = treeIo({ '.gitignore': '*.log\n', 'a.log': '', 'sub/.ignore': '', 'sub/b.txt': '' });
  const readText = (p) => (p === 'sub/.ignore' ? { skipped: 'too_large', bytes: 2 << 20 } : io.readText(p));
  const warnings = [];
  const paths = listFiles({ engine, readDir: io.readDir, readText, warnings });
  assert.deepEqual(paths.sort(), ['sub/b.txt']);
  assert.deepEqual(warnings, [engine.ignoreFileSkipped('sub/.ignore', 'too_large', 2 << 20)]);
  assert.equal(
    warnings[0],
    'sub/.ignore was not read as ignore rules: it is 2097152 bytes, over the 1048576-byte limit. Its rules do not apply to this listing.',
  );
  assert.throws(() => engine.ignoreFileSkipped('x', 'nonsense'), TypeError);
  // Near miss: nothing skipped, nothing said (and no array asked for: no warnings kept).
  const none = [];
  listFiles({ engine, ...io, warnings: none });
  assert.deepEqual(none, []);
});
