// scripts/fuzz-seeds.mjs OUT_DIR — writes fuzz seeds taken from the conformance corpus
// (tests/corpus/**/*.json): every call as a request (call_json), every patch
// (patch), every multi_replace `replacements` (multi_replace_xml), one file per seed.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(repo, 'crate/fuzz/corpus');

function* cases(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* cases(path);
    else if (name.endsWith('.json')) {
      const data = JSON.parse(readFileSync(path, 'utf8'));
      yield* (Array.isArray(data) ? data : [data]);
    }
  }
}

const seeds = { call_json: new Set(), patch: new Set(), multi_replace_xml: new Set() };
for (const c of cases(join(repo, 'tests/corpus'))) {
  const call = c.call ?? {};
  const args = call.arguments ?? call.input ?? {};
  seeds.call_json.add(JSON.stringify(call));
  const tool = call.tool ?? call.name;
  if (tool === 'apply_patch') {
    for (const key of ['patch', 'input', 'diff', 'patch_text', 'patch_content']) {
      if (typeof args[key] === 'string') seeds.patch.add(args[key]);
    }
  }
  if (tool === 'multi_replace') {
    const r = args.replacements ?? args.edits ?? args.changes;
    if (r !== undefined) seeds.multi_replace_xml.add(typeof r === 'string' ? r : JSON.stringify(r));
  }
}
for (const [target, set] of Object.entries(seeds)) {
  const dir = join(out, target);
  mkdirSync(dir, { recursive: true });
  for (const seed of set) {
    const name = createHash('sha1').update(seed).digest('hex');
    writeFileSync(join(dir, `seed-${name}`), seed);
  }
  console.log(`${target}: ${set.size} seeds in ${dir}`);
}
