// DiskFiles.list (the Node server's listing for the project tools) on a real temporary
// tree: js/host-policy/listing.js's rule over the disk, with links and the CLI's journal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as engine from '../../pkg/index.node.js';
import { DiskFiles } from './disk.js';

function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-list-'));
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
  return root;
}

test('list: .gitignore and .ignore honoured, hidden and journal left out, links neither followed nor listed', () => {
  const outside = tree({ 'secret.txt': 's\n' });
  const root = tree({
    '.gitignore': 'build/\n*.log\n',
    'src/.ignore': 'gen.js\n',
    'a.js': '',
    'x.log': '',
    'build/o.js': '',
    'src/b.js': '',
    'src/gen.js': '',
    '.env': '',
    '.anchored-edit/journal': '',
  });
  fs.symlinkSync(outside, path.join(root, 'out-dir'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'src', 'secret.txt'));
  try {
    const disk = new DiskFiles(root, { engine });
    assert.deepEqual(disk.list('').paths.sort(), ['a.js', 'src/b.js']);
    assert.deepEqual(disk.list('src').paths.sort(), ['src/b.js']);
    assert.deepEqual(disk.list('build'), { paths: [], warnings: [] });
    for (const folder of ['out-dir', 'nope']) {
      // Nothing listed; the engine refuses the call with the same words in every host.
      assert.deepEqual(disk.list(folder), { paths: [], warnings: [] });
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
});
