// Runs each example call through the CLI and prints what an agent would see.
// Usage: node scripts/demo.mjs <anchored-edit binary> <project copy> <calls.json>
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [bin, root, callsPath] = process.argv.slice(2);
const calls = JSON.parse(readFileSync(callsPath, 'utf8'));
const stats = join(root, '.anchored-edit-stats.jsonl');
const rule = '─'.repeat(78);

calls.forEach(({ title, explain, call }, i) => {
  console.log(`\n${rule}\n${i + 1}. ${title}\n   ${explain}\n${rule}`);
  console.log(`call: ${JSON.stringify(call)}`);
  const run = spawnSync(bin, ['call', '--root', root, '--stats', stats], { input: JSON.stringify(call), encoding: 'utf8' });
  if (run.status === 2) {
    console.error(run.stderr);
    process.exit(2);
  }
  const result = JSON.parse(run.stdout);
  const head = result.ok ? `ok${result.matched_via ? ` (matched_via: ${result.matched_via})` : ''}` : `refused: ${result.error.kind}`;
  console.log(`exit ${run.status} · ${head}`);
  console.log(`message: ${result.ok ? result.message ?? '' : result.error.message}`);
  for (const w of result.warnings ?? []) console.log(`warning: ${w}`);
  for (const f of result.files ?? []) console.log(f.diff.replace(/\r/g, '␍').trimEnd());
  if (result.ok && result.content && result.tool !== 'get_edit_stats') console.log(result.content.trimEnd());
  for (const sym of result.symbols ?? []) console.log(`  ${sym.kind} ${sym.name}: lines ${sym.start_line}-${sym.end_line}`);
  if (!result.ok && result.error.diagnostics?.closest) {
    const c = result.error.diagnostics.closest;
    console.log(`closest area: lines ${c.start_line}-${c.end_line} (score ${c.score})`);
  }
});
