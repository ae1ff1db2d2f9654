#!/usr/bin/env node
// scripts/docs-numbers.mjs — the counts quoted in README.md and docs/*.md, recomputed from
// the tree. A number the docs quote is written between markers naming what it counts:
//
//   <!--n:corpus-cases-->620<!--/n-->                          every case in tests/corpus/
//   <!--n:corpus-cases:encodings/encodings.json-->24<!--/n-->  the cases of one file or folder
//   <!--n:tests:pulsar-plugin/test/*.test.js-->84<!--/n-->     test declarations (`test(` or
//                                                             `it(` opening a line) in the files
//   <!--n:tools-->23<!--/n-->                                  the engine's tools (docs/tools.md,
//                                                             generated from tool_schemas())
//
//   node scripts/docs-numbers.mjs           check: prints each disagreement, exits 1 on any
//   node scripts/docs-numbers.mjs --write   rewrites every marked number from the tree
//
// The check also fails on a count of cases or tests written without markers (a number
// that would drift unseen); counts of a proptest's cases, which are its configuration,
// are allowed. After a merge that adds corpus cases or tests, `--write` brings the docs up
// to date. scripts/test runs the check as its first stage after set-up.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const write = process.argv.includes('--write');

/** The corpus cases of a .json file or of every .json file under a folder. */
function corpusCases(rel = '') {
  const p = path.join(repo, 'tests/corpus', rel);
  if (!fs.existsSync(p)) throw new Error(`tests/corpus/${rel} does not exist`);
  if (fs.statSync(p).isDirectory()) {
    return fs
      .readdirSync(p)
      .filter((name) => name.endsWith('.json') || fs.statSync(path.join(p, name)).isDirectory())
      .reduce((n, name) => n + corpusCases(path.join(rel, name)), 0);
  }
  const parsed = JSON.parse(fs.readFileSync(p, 'utf8'));
  return Array.isArray(parsed) ? parsed.length : (parsed.cases?.length ?? 0);
}

/** Test declarations in the files matching `pattern` (a path whose last part may hold `*`). */
function testDeclarations(pattern) {
  const dir = path.join(repo, path.dirname(pattern));
  const glob = new RegExp(`^${path.basename(pattern).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  if (!fs.existsSync(dir)) throw new Error(`${path.dirname(pattern)} does not exist`);
  const files = fs.readdirSync(dir).filter((name) => glob.test(name) && fs.statSync(path.join(dir, name)).isFile());
  if (files.length === 0) throw new Error(`no file matches ${pattern}`);
  const declaration = /^\s*(await\s+)?(test|it)\(\s*['"`]/;
  return files.reduce((n, name) => n + fs.readFileSync(path.join(dir, name), 'utf8').split('\n').filter((l) => declaration.test(l)).length, 0);
}

/** The tools of docs/tools.md's table (generated from tool_schemas(), checked by tools_doc.rs). */
function tools() {
  return fs.readFileSync(path.join(repo, 'docs/tools.md'), 'utf8').split('\n').filter((l) => /^\| \[`[a-z_]+`\]/.test(l)).length;
}

function value(key) {
  const [kind, arg] = [key.split(':')[0], key.split(':').slice(1).join(':')];
  if (kind === 'corpus-cases') return corpusCases(arg);
  if (kind === 'tests' && arg) return testDeclarations(arg);
  if (kind === 'tools' && !arg) return tools();
  throw new Error(`unknown count "${key}"`);
}

const docs = ['README.md', ...fs.readdirSync(path.join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const marker = /<!--n:([^>]+?)-->(\d+)<!--\/n-->/g;
// A count of cases or tests in prose, outside markers.
const unmarked = /\b\d+ (corpus |conformance )?(cases|tests)\b/;
let checked = 0;
const problems = [];
for (const doc of docs) {
  const file = path.join(repo, doc);
  const text = fs.readFileSync(file, 'utf8');
  const updated = text.replace(marker, (whole, key, written) => {
    checked += 1;
    let actual;
    try {
      actual = String(value(key));
    } catch (e) {
      problems.push(`${doc}: <!--n:${key}-->: ${e.message}`);
      return whole;
    }
    if (actual !== written && !write) problems.push(`${doc}: ${key} is ${actual}, the doc says ${written}`);
    return `<!--n:${key}-->${actual}<!--/n-->`;
  });
  text.split('\n').forEach((line, i) => {
    const bare = line.replace(marker, '');
    if (unmarked.test(bare) && !/proptest/.test(line)) {
      problems.push(`${doc}:${i + 1}: a count without markers (<!--n:KEY-->N<!--/n-->, see scripts/docs-numbers.mjs): ${bare.trim()}`);
    }
  });
  if (write && updated !== text) {
    fs.writeFileSync(file, updated);
    console.log(`docs-numbers: updated ${doc}`);
  }
}
for (const p of problems) console.error(`docs-numbers: ${p}`);
if (write && problems.length === 0) console.log(`docs-numbers: ${checked} numbers written from the tree`);
if (!write) console.log(`docs-numbers: ${checked - problems.filter((p) => !p.includes('without markers')).length} passed, ${problems.length} failed`);
process.exit(problems.length ? 1 : 0);
