// The playground end to end in headless Chromium (playwright-core + Debian's chromium):
// the built page (web/dist/) served by web/serve.mjs and opened from file://. Every
// gallery example is loaded, dry-run, applied and undone through the page's buttons,
// and what the page shows is checked against the example's stated outcome; then apply +
// one-step undo, the form ⇄ JSON sync, a share link round trip (CRLF, non-ASCII, BOM,
// several tabs), reads, statistics, and the page from file:// with no network at all.
// Screenshots go to test-output/web/.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gallery, expectedOutcome } from '../src/gallery.js';
import { distDir, outputDir, startServer, launchChromium } from './support.mjs';

const engine = await import('../../pkg/index.node.js');
const fileUrl = pathToFileURL(path.join(distDir, 'index.html')).href;

let server;
let browser;
let context;
let page;
const pageErrors = [];
const foreignRequests = [];

/** A fresh page on `url` with every request outside `allowed` recorded and refused. */
async function openPage(url, allowed) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.route('**/*', (route) => {
    const u = route.request().url();
    if (allowed(u)) return route.continue();
    foreignRequests.push(u);
    return route.abort();
  });
  const p = await ctx.newPage();
  p.on('pageerror', (e) => pageErrors.push(`${url}: ${e.message}`));
  p.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${url}: console.error: ${m.text()}`);
  });
  await p.goto(url);
  await p.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { ctx, page: p };
}

const buffer = (p, path) => p.evaluate((x) => window.playground.buffer(x), path);
const paths = (p) => p.evaluate(() => window.playground.paths());

async function loadExample(p, id) {
  await p.click(`.gallery-item[data-example="${id}"]`);
  assert.equal(await p.evaluate(() => window.playground.example()), id);
}

/** Clicks a call button and returns what the banner shows. */
async function press(p, button) {
  const runs = await p.evaluate(() => window.playground.runs());
  await p.click(button);
  await p.waitForFunction((n) => window.playground.runs() > n, runs);
  return p.evaluate(() => {
    const b = document.querySelector('#result-banner');
    return {
      ok: b.classList.contains('ok'),
      refused: b.classList.contains('refused'),
      title: b.querySelector('.banner-title-text')?.textContent ?? '',
      via: b.querySelector('[data-via]')?.dataset.via ?? null,
      kind: b.querySelector('[data-kind]')?.dataset.kind ?? null,
      warnings: [...b.querySelectorAll('.warnings li')].map((li) => li.textContent),
      tab: document.querySelector('#result-tabs button.on')?.dataset.tab,
    };
  });
}

/** Pastes `text` into the CodeMirror editor under `selector`, replacing its selection, as a user's paste does. */
async function paste(p, selector, text) {
  await p.locator(`${selector} .cm-content`).evaluate((node, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    node.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function shareLink(p) {
  await p.click('#share-button');
  await p.waitForFunction(() => document.querySelector('#share-link').value.includes('#play=1.'));
  return p.inputValue('#share-link');
}

async function setJson(p, text) {
  await p.click('#json-editor .cm-content');
  await p.keyboard.press('Control+A');
  await paste(p, '#json-editor', text);
}

before(async () => {
  fs.mkdirSync(outputDir, { recursive: true });
  server = await startServer();
  browser = await launchChromium();
  ({ ctx: context, page } = await openPage(server.url, (u) => u.startsWith(server.url) || u.startsWith('data:')));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the page loads the engine and the tool schemas', async () => {
  assert.match(await page.textContent('#engine-status'), /engine ready · wasm [\d.]+ MB/);
  const tools = await page.$$eval('.tool-picker option', (os) => os.map((o) => o.value));
  const schemaNames = engine.toolSchemas().map((s) => s.name);
  assert.deepEqual(tools, schemaNames);
  assert.equal(await page.locator('.gallery-item').count(), gallery.length);
});

describe('gallery', () => {
  for (const ex of gallery) {
    const outcome = expectedOutcome(ex);
      test(`${ex.id}: ${outcome.ok ? `applied via ${outcome.matched_via}` : `refused as ${outcome.error_kind}`}`, async () => {
      await loadExample(page, ex.id);
      // The example's card states what the engine does.
      assert.ok((await page.textContent('#example-card')).includes(ex.title.replaceAll('`', '')));
      const original = Object.entries(ex.files);
      assert.deepEqual(await paths(page), original.map(([p]) => p), 'one tab per file');
      for (const [p, t] of original) assert.equal(await buffer(page, p), t, `${p} loaded exactly`);

      const dry = await press(page, '#dry-run');
      for (const [p, t] of original) assert.equal(await buffer(page, p), t, `a dry run leaves ${p} as it was`);
      if (outcome.ok) {
        assert.ok(dry.ok, `expected success, banner: ${dry.title} ${dry.kind}`);
        assert.match(dry.title, /^Dry run — would change/);
        assert.equal(dry.via, outcome.matched_via);
        // Warnings are shown with their `code` spans set as code (no backticks).
        for (const w of outcome.warnings_contain ?? []) assert.ok(dry.warnings.some((x) => x.includes(w.replaceAll('`', ''))), `warning ${w}: ${dry.warnings}`);
        assert.equal(dry.tab, 'changes');
        for (const [p, t] of Object.entries(outcome.files ?? {})) {
          assert.equal(await page.evaluate((x) => window.playground.diffText(x), p), t, `the diff view shows ${p} as the engine would write it`);
          assert.equal(await page.locator(`.diff-file[data-path="${p}"]`).count(), 1, `a diff view for ${p}`);
        }
        const applied = await press(page, '#apply');
        assert.ok(applied.ok);
        assert.match(applied.title, /^Applied —/);
        const expected = outcome.files ?? {};
        for (const [p, t] of Object.entries(expected)) assert.equal(await buffer(page, p), t, `${p} after Apply`);
        assert.equal(await page.isDisabled('#undo'), false);
        await page.click('#undo');
        assert.equal(await page.textContent('#result-banner .stale-note'), 'undone');
        // The banner no longer says the call is applied (it was taken back).
        const undone = await page.textContent('#result-banner .banner-title-text');
        assert.match(undone, /^Undone — \d+ files? restored$/);
        assert.equal(await page.textContent('#result-banner .banner-icon'), '↶');
        for (const [p, t] of original) assert.equal(await buffer(page, p), t, `${p} after Undo`);
        assert.deepEqual(await paths(page), original.map(([p]) => p));
        assert.equal(await page.isDisabled('#undo'), true);
      } else {
        assert.ok(dry.refused, `expected refusal, banner: ${dry.title} ${dry.via}`);
        assert.equal(dry.kind, outcome.error_kind);
        assert.equal(dry.tab, 'diagnostics');
        const result = await page.evaluate(() => window.playground.lastResult());
        const shown = (await page.textContent('#result-banner')).replace(/\s+/g, ' ');
        assert.ok(shown.includes(result.error.message.replaceAll('`', '').replace(/\s+/g, ' ')), 'the banner shows the whole message');
        const d = result.error.diagnostics ?? {};
        const closest = d.closest ?? d.failed?.[0]?.diagnostics?.closest;
        if (closest) {
          // The closest area is marked in the buffer, on the file it is in.
          assert.ok((await page.locator('.cm-editor .cm-mark-closest').count()) >= 1, 'closest area highlighted');
          assert.match(await page.textContent('.cm-area-label-closest'), /closest area/);
          assert.match(await page.textContent('#result-body'), /Closest area/);
        }
        if (d.candidates) assert.equal(await page.locator('.cm-editor .cm-area-label-candidate').count(), d.candidates.length);
        const applied = await press(page, '#apply');
        assert.ok(applied.refused);
        for (const [p, t] of original) assert.equal(await buffer(page, p), t, `a refused Apply leaves ${p} as it was`);
        assert.equal(await page.isDisabled('#undo'), true);
      }
    });
  }
});

test('a refusal shows whitespace differences as symbols (paraphrase: tabs in the file, spaces sent)', async () => {
  await loadExample(page, 'paraphrase');
  const r = await press(page, '#dry-run');
  assert.equal(r.kind, 'no_match');
  const rows = await page.$$eval('.line-diffs tbody tr', (trs) =>
    trs.map((tr) => ({ cls: tr.className, text: tr.textContent, tabs: tr.querySelectorAll('.ws-tab').length, differs: tr.querySelectorAll('.differs').length })),
  );
  const sent5 = rows.find((x) => x.cls === 'expected-row' && x.text.includes('if·(ring_full(r))'));
  const file5 = rows.find((x) => x.cls === 'found-row' && x.text.includes('if·(ring_full(r))'));
  assert.ok(sent5 && sent5.text.includes('····if'), 'the 4 spaces sent, as dots');
  assert.ok(file5 && file5.tabs === 1, 'the file’s tab, as an arrow');
  assert.ok(sent5.differs > 0 && file5.differs > 0, 'the differing indentation is marked');
  assert.ok(rows.some((x) => x.cls === 'note-row' && x.text.includes('whitespace only')));
  // The word that differs is marked on line 7.
  const sent7 = rows.find((x) => x.cls === 'expected-row' && x.text.includes('r->data'));
  assert.ok(sent7 && sent7.differs > 0);
  // Lines 5-7 are marked in the buffer: the closest area and its differing lines.
  assert.equal(await page.locator('.cm-editor .cm-mark-closest').count(), 3);
  assert.equal(await page.locator('.cm-editor .cm-mark-differs').count(), 3);

  // CRLF: the file's \r is shown as a CR badge, in the buffer and in the differing lines.
  await loadExample(page, 'line-endings');
  assert.equal(await page.locator('#editor .cm-specialChar.cm-cr').count(), 5);
  assert.equal(await page.textContent('#buffer-endings'), 'CRLF');
  await setJson(page, JSON.stringify({ tool: 'str_replace', arguments: { path: 'deploy.yaml', old_str: 'resources:\n  cpu: 400m\n', new_str: 'resources:\n  cpu: 750m\n' } }));
  assert.equal((await press(page, '#dry-run')).kind, 'no_match');
  const found = await page.$$eval('.line-diffs tr.found-row', (trs) => trs.map((tr) => ({ text: tr.textContent, cr: [...tr.querySelectorAll('.ws-badge')].map((b) => b.textContent) })));
  const cpu = found.find((x) => x.text.includes('cpu:'));
  assert.ok(cpu, JSON.stringify(found));
  assert.deepEqual(cpu.cr, ['CR'], 'the file line ends in CR');
});

test('screenshots of a fresh session: the main view after a dry run, a refusal, statistics', async () => {
  const { ctx, page: p } = await openPage(server.url, (u) => u.startsWith(server.url) || u.startsWith('data:'));
  try {
    assert.equal(await p.evaluate(() => window.playground.example()), 'exact', 'the page opens on the default example');
    assert.ok((await press(p, '#dry-run')).ok);
    await p.screenshot({ path: path.join(outputDir, 'main.png') });
    await loadExample(p, 'paraphrase');
    assert.equal((await press(p, '#dry-run')).kind, 'no_match');
    await p.screenshot({ path: path.join(outputDir, 'refusal.png') });
    await loadExample(p, 'tabs-vs-spaces');
    await press(p, '#dry-run');
    await p.click('#stats-button');
    assert.match(await p.textContent('.stats-summary'), /^3 edits: /, 'three calls so far');
    await p.screenshot({ path: path.join(outputDir, 'stats.png') });
  } finally {
    await ctx.close();
  }
});

test('diff layouts: unified, side by side, the engine’s own diff (screenshot)', async () => {
  await loadExample(page, 'v4a-anchor');
  await press(page, '#dry-run');
  await page.click('#diff-mode [data-mode="split"]');
  assert.ok((await page.locator('.cm-mergeView').count()) >= 1, 'side-by-side merge view');
  await page.screenshot({ path: path.join(outputDir, 'multi-file.png') });
  await page.click('#diff-mode [data-mode="raw"]');
  assert.match(await page.textContent('.raw-diff'), /\+RESUME = True/);
  await page.click('#diff-mode [data-mode="unified"]');
});

test('Apply is one undo step in the editor (Ctrl+Z), and Undo reverts a multi-file patch', async () => {
  await loadExample(page, 'exact');
  const original = await buffer(page, 'fetch.py');
  await press(page, '#apply');
  assert.match(await buffer(page, 'fetch.py'), /retries = 5/);
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+z');
  assert.equal(await buffer(page, 'fetch.py'), original, 'one Ctrl+Z undoes the whole Apply');
  await page.keyboard.press('Control+Shift+z');
  assert.match(await buffer(page, 'fetch.py'), /retries = 5/, 'and redo brings it back');

  await loadExample(page, 'v4a-anchor');
  const files = Object.entries(gallery.find((e) => e.id === 'v4a-anchor').files);
  await press(page, '#apply');
  assert.match(await buffer(page, 'jobs/config.py'), /RESUME = True/);
  await page.click('#undo');
  for (const [p, t] of files) assert.equal(await buffer(page, p), t);
});

test('a patch that adds, moves and deletes files: tabs follow, Undo restores them', async () => {
  await loadExample(page, 'v4a-anchor');
  const call = {
    tool: 'apply_patch',
    arguments: {
      patch: '*** Begin Patch\n*** Add File: jobs/notes.md\n+# Notes\n*** Update File: jobs/config.py\n*** Move to: jobs/settings.py\n@@\n-RESUME = False\n+RESUME = True\n*** Delete File: jobs/pipeline.py\n*** End Patch\n',
    },
  };
  await setJson(page, JSON.stringify(call));
  const r = await press(page, '#apply');
  assert.ok(r.ok, r.title);
  assert.deepEqual((await paths(page)).sort(), ['jobs/notes.md', 'jobs/settings.py']);
  assert.equal(await buffer(page, 'jobs/notes.md'), '# Notes\n');
  assert.equal(await buffer(page, 'jobs/settings.py'), 'BATCH_SIZE = 500\nRESUME = True\n');
  await page.click('#undo');
  const ex = gallery.find((e) => e.id === 'v4a-anchor');
  assert.deepEqual(await paths(page), Object.keys(ex.files));
  for (const [p, t] of Object.entries(ex.files)) assert.equal(await buffer(page, p), t);
});

test('the form and the JSON editor stay in sync both ways', async () => {
  await loadExample(page, 'exact');
  const json = async () => JSON.parse(await page.evaluate(() => window.playground.callText()));
  // Form → JSON: a typed string keeps its exact text (a tab and a newline included).
  await page.fill('#arg-new_str', '\tretries = 7\n');
  assert.equal((await json()).arguments.new_str, '\tretries = 7\n');
  // An optional argument added from its chip, with its type: integer.
  await page.click('.chip-add[data-add="occurrence"]');
  assert.equal((await json()).arguments.occurrence, 1);
  await page.fill('#arg-occurrence', '2');
  assert.strictEqual((await json()).arguments.occurrence, 2);
  // Boolean: true / false are values; × removes the argument.
  await page.click('.chip-add[data-add="replace_all"]');
  await page.click('#arg-replace_all button[data-value="false"]');
  assert.strictEqual((await json()).arguments.replace_all, false);
  await page.click('.field[data-arg="replace_all"] .arg-remove');
  assert.ok(!('replace_all' in (await json()).arguments));
  // Object: between_hint {start, end}.
  await page.click('.chip-add[data-add="between_hint"]');
  await page.fill('#arg-between_hint input[data-sub="start"]', 'def fetch');
  assert.deepEqual((await json()).arguments.between_hint, { start: 'def fetch', end: '' });

  // JSON → form.
  await setJson(page, JSON.stringify({ tool: 'str_replace', arguments: { path: 'fetch.py', old_str: 'a', new_str: 'b', line_hint: 4, strict: true, old_string: 'x' } }, null, 2));
  assert.equal(await page.inputValue('#arg-old_str'), 'a');
  assert.equal(await page.inputValue('#arg-line_hint'), '4');
  assert.equal(await page.getAttribute('#arg-strict button[data-value="true"]', 'aria-pressed'), 'true');
  assert.match(await page.textContent('.field.foreign[data-arg="old_string"]'), /not in the schema/);
  assert.equal(await page.locator('.field[data-arg="occurrence"]').count(), 0, 'fields follow the JSON');
  // A wrong type in the JSON is shown as such, not coerced.
  await setJson(page, JSON.stringify({ tool: 'str_replace', arguments: { path: 'fetch.py', old_str: 'a', new_str: 'b', occurrence: '2' } }));
  assert.match(await page.textContent('.field.foreign[data-arg="occurrence"]'), /schema says integer/);
  // Invalid JSON: the form keeps the last call and says so; the engine gets the text as it is.
  await setJson(page, '{"tool": "str_replace", "arguments": {"path": ');
  assert.match(await page.textContent('#json-status'), /JSON/);
  assert.equal(await page.isVisible('.form-note'), true);
  const r = await press(page, '#dry-run');
  assert.equal(r.kind, 'invalid_arguments', 'the engine answers a truncated call itself');
  // Switching tools keeps the arguments the new tool has.
  await setJson(page, JSON.stringify({ tool: 'str_replace', arguments: { path: 'fetch.py', old_str: 'a', new_str: 'b' } }));
  await page.selectOption('.tool-picker', 'grep_file');
  assert.deepEqual(await json(), { tool: 'grep_file', arguments: { path: 'fetch.py' } });
  assert.equal(await page.textContent('#dry-run .label'), 'Run');
  assert.equal(await page.isDisabled('#apply'), true, 'nothing to apply for a reading tool');
  // multi_replace: array | string.
  await page.selectOption('.tool-picker', 'multi_replace');
  await page.fill('#arg-replacements', '[{"path": "fetch.py", "old_str": "retries = 3", "new_str": "retries = 4"}]');
  assert.deepEqual((await json()).arguments.replacements, [{ path: 'fetch.py', old_str: 'retries = 3', new_str: 'retries = 4' }]);
  await page.click('.field[data-arg="replacements"] button[data-mode="string"]');
  assert.equal(typeof (await json()).arguments.replacements, 'string');
  const r2 = await press(page, '#dry-run');
  assert.ok(r2.ok, 'the JSON-string form is accepted by the engine');
});

test('reading tools show their content; Stats shows the session', async () => {
  await loadExample(page, 'duplicate-block');
  await setJson(page, JSON.stringify({ tool: 'file_summary', arguments: { path: 'users.ts' } }));
  const r = await press(page, '#dry-run');
  assert.ok(r.ok);
  assert.equal(r.tab, 'content');
  assert.match(await page.textContent('table.symbols'), /loadProfile.*function.*3–9/s);
  await setJson(page, JSON.stringify({ tool: 'read_lines', arguments: { path: 'users.ts', start_line: 11, end_line: 12 } }));
  await press(page, '#dry-run');
  assert.match(await page.textContent('.content-view'), /loadSettings/);

  await page.click('#stats-button');
  assert.match(await page.textContent('.stats-summary'), /\d+ edits: \d+ applied/);
  const tools = await page.$$eval('table.stats tbody tr td:first-child', (tds) => tds.map((t) => t.textContent));
  assert.ok(tools.includes('str_replace') && tools.includes('apply_patch') && tools.includes('multi_replace'), tools.join());
  await page.click('.stats-toolbar button:has-text("Reset")');
  assert.match(await page.textContent('#result-body'), /No calls yet|0 edits/);
});

test('a share link round-trips the files and the call exactly (CRLF, BOM, non-ASCII, tabs)', async () => {
  await loadExample(page, 'line-endings');
  // Add a second tab with a BOM, non-ASCII text, a tab and no final newline.
  await page.click('#add-file');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('docs/café.md');
  await page.keyboard.press('Enter');
  await page.click('#editor .cm-content');
  await paste(page, '#editor', '\ufeff# Résumé 日本語 😀\n\tindented → ok');
  await page.click('.file-tab[data-path="deploy.yaml"]');
  const call = '{\n  "tool": "str_replace",\n  "arguments": {"path": "deploy.yaml", "old_str": "cpu: 500m", "new_str": "cpu: ½ — ünïcode"}\n}';
  await setJson(page, call);
  const files = await page.evaluate(() => window.playground.paths().map((p) => [p, window.playground.buffer(p)]));
  assert.deepEqual(files.map(([p]) => p), ['deploy.yaml', 'docs/café.md']);
  assert.equal(files[1][1], '\ufeff# Résumé 日本語 😀\n\tindented → ok');
  assert.ok(files[0][1].includes('\r\n'));

  const link = await shareLink(page);
  assert.ok(link.startsWith(server.url) && link.includes('#play=1.'), link.slice(0, 80));

  const { ctx, page: other } = await openPage(link, (u) => u.startsWith(server.url) || u.startsWith('data:'));
  try {
    const got = await other.evaluate(() => window.playground.paths().map((p) => [p, window.playground.buffer(p)]));
    assert.deepEqual(got, files, 'every tab, byte for byte');
    assert.equal(await other.evaluate(() => window.playground.callText()), call, 'the call as typed');
    assert.equal(await other.evaluate(() => window.playground.active()), 'deploy.yaml');
    assert.equal(await other.inputValue('#arg-new_str'), 'cpu: ½ — ünïcode', 'the form shows the shared call');
  } finally {
    await ctx.close();
  }
  // A link cut short says so instead of loading something else.
  const { ctx: ctx2, page: cut } = await openPage(link.slice(0, link.length - 40), (u) => u.startsWith(server.url) || u.startsWith('data:'));
  try {
    assert.match(await cut.textContent('#result-banner'), /share link could not be read/);
  } finally {
    await ctx2.close();
  }
});

test('project tools list the tabs: a .gitignore tab and hidden names apply, as on disk', async () => {
  const { encodeShare } = await import('../src/share.js');
  const files = [
    ['.gitignore', 'out/\n*.log\n'],
    ['src/a.js', 'let pool = 1;\n'],
    ['out/b.js', 'let pool = 2;\n'],
    ['debug.log', 'pool\n'],
    ['.env', 'pool\n'],
    ['README.md', 'the pool\n'],
  ];
  const call = JSON.stringify({ tool: 'list_files', arguments: {} });
  const link = `${server.url}#${await encodeShare({ files, active: 'src/a.js', call })}`;
  const { ctx, page: p } = await openPage(link, (u) => u.startsWith(server.url) || u.startsWith('data:'));
  try {
    assert.equal((await press(p, '#dry-run')).ok, true);
    assert.deepEqual((await p.evaluate(() => window.playground.lastResult())).paths, ['README.md', 'src/a.js']);
    await setJson(p, JSON.stringify({ tool: 'grep_project', arguments: { pattern: 'pool' } }));
    await press(p, '#dry-run');
    const found = await p.evaluate(() => window.playground.lastResult());
    assert.deepEqual(found.matches.map((m) => m.path), ['README.md', 'src/a.js']);
  } finally {
    await ctx.close();
  }
});

test('from file:// the page works with no network at all', async () => {
  const { ctx, page: p } = await openPage(`${fileUrl}#example=tabs-vs-spaces`, (u) => u.startsWith('file://') || u.startsWith('data:'));
  try {
    assert.equal(await p.evaluate(() => window.playground.example()), 'tabs-vs-spaces');
    const ex = gallery.find((e) => e.id === 'tabs-vs-spaces');
    const outcome = expectedOutcome(ex);
    const r = await press(p, '#dry-run');
    assert.equal(r.ok, outcome.ok);
    if (outcome.ok) assert.equal(r.via, outcome.matched_via);
    else assert.equal(r.kind, outcome.error_kind);
    await loadExample(p, 'exact');
    assert.ok(p.url().endsWith('#example=exact'), 'the address names the example');
    await press(p, '#apply');
    assert.match(await buffer(p, 'fetch.py'), /retries = 5/);
    await p.click('#undo');
    assert.equal(await buffer(p, 'fetch.py'), gallery.find((e) => e.id === 'exact').files['fetch.py']);
    // Share links work from a file too.
    assert.ok((await shareLink(p)).startsWith(`${fileUrl.split('#')[0]}#play=1.`));
    await p.screenshot({ path: path.join(outputDir, 'file-url.png') });
  } finally {
    await ctx.close();
  }
});

test('no request left the page, and the page logged no error', () => {
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(pageErrors, []);
});
