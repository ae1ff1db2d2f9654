// Activation shared by both entries (web.js for the browser's web-worker extension host,
// node.js for desktop): the engine from the extension's own .wasm, the host queue over
// live documents, previews, commands, language-model tools, the MCP server definitions,
// the review-mode status bar item. Behaviour comes from the engine; this adapts VS Code.

import * as vscode from 'vscode';
import { STATS_KEY, WASM_PATH, loadEngine, persistStats, restoreSession } from './engine.js';
import { WorkspacePaths } from './files.js';
import { createEditorAdapter } from './editor.js';
import { listFolder } from './listing.js';
import { createEditorTools } from '../../js/host-policy/editor-tools.js';
import { Host, keptWorkspace, settings } from './host.js';
import { KeptDocuments } from './kept-documents.js';
import { PREVIEW_SCHEME, Previews } from './previews.js';
import { registerLanguageModelTools } from './tools.js';
import { registerMcpProvider, serverDefinitions } from './mcp.js';
import { statsTable } from './stats.js';
import { requestFrom } from './requests.js';

export const MCP_PROVIDER_ID = 'anchored-edit.servers';

/**
 * Activates the extension. `loadWasm(uri)` reads the .wasm bytes at `uri` (fetch in the
 * browser, the file system on desktop); `canSpawn`: whether processes can be started
 * (stdio MCP servers); `nodeServer`: {command, args, env} starting the bundled Node MCP
 * server (mcp.js); `http()`: the in-editor MCP server's {url, token} while it runs;
 * `realPathEscapes(fsPath, rootFsPath)`: the desktop's symlink check (files.js).
 * Resolves to the API the Node entry and the tests use.
 */
export async function activateExtension(context, { loadWasm, canSpawn = false, nodeServer, http = () => undefined, realPathEscapes }) {
  const output = vscode.window.createOutputChannel('anchored-edit');
  context.subscriptions.push(output);
  const log = (line) => output.appendLine(`[${new Date().toISOString()}] ${line}`);

  const engine = await loadEngine(await loadWasm(vscode.Uri.joinPath(context.extensionUri, ...WASM_PATH)));
  const session = restoreSession(engine, context.globalState, log);
  const schemas = engine.toolSchemas();
  const previews = new Previews();
  const paths = new WorkspacePaths({ realPathEscapes, engine });
  const editorTools = createEditorTools({ engine, adapter: createEditorAdapter({ paths }), editorName: 'VS Code' });
  const kept = new KeptDocuments({ session, resolvePath: engine.resolvePath, workspace: keptWorkspace(paths) });
  context.subscriptions.push(kept);
  const host = new Host({ engine, session, memento: context.globalState, paths, previews, log, editorTools, kept });
  const manifest = context.extension.packageJSON;

  context.subscriptions.push(
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews.provider),
    // A shown preview whose diff editors the user closed counts as discarded.
    vscode.window.tabGroups.onDidChangeTabs(() => {
      for (const item of previews.orphans()) host.decide(item.id, 'discard');
    }),
  );

  const tools = registerLanguageModelTools({ engine, host, manifest, log });
  context.subscriptions.push(...tools.disposables);

  const mcpOptions = () => ({
    folders: vscode.workspace.workspaceFolders ?? [],
    cliPath: vscode.workspace.getConfiguration('anchoredEdit').get('cliPath', ''),
    profile: vscode.workspace.getConfiguration('anchoredEdit').get('mcp.profile', 'full'),
    tools: vscode.workspace.getConfiguration('anchoredEdit').get('mcp.tools', []),
    nodeServer,
    canSpawn,
    http: http(),
    version: manifest.version,
  });
  let mcp;
  try {
    mcp = registerMcpProvider(MCP_PROVIDER_ID, mcpOptions);
    context.subscriptions.push(mcp);
  } catch (e) {
    log(`MCP server definitions not offered: ${e?.message ?? e}`);
  }
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(() => mcp?.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('anchoredEdit.cliPath')) mcp?.refresh();
      if (e.affectsConfiguration('anchoredEdit.reviewMode')) updateStatus();
    }),
  );

  // Status bar: review mode on/off and the edits waiting for a decision.
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = 'anchoredEdit.toggleReviewMode';
  function updateStatus() {
    const waiting = previews.pending().filter((p) => p.review).length;
    const review = settings().reviewMode;
    status.text = `${review ? '$(eye)' : '$(edit)'} anchored-edit${review ? ': review' : ''}${waiting ? ` (${waiting} waiting)` : ''}`;
    status.tooltip = review
      ? 'Review mode is on: every agent edit waits in a diff until you apply or discard it. Click to turn it off.'
      : 'Agent edits are applied at once (one undo step each). Click to turn review mode on.';
    status.show();
  }
  updateStatus();
  context.subscriptions.push(status, previews.onDidChange(updateStatus));

  const commands = {
    'anchoredEdit.dryRunClipboard': async (request) => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        vscode.window.showWarningMessage('anchored-edit: open the file to run the call against first.');
        return undefined;
      }
      const raw = request ?? (await vscode.env.clipboard.readText());
      const outcome = await host.run(requestFrom(raw), {
        origin: 'user',
        target: editor.document,
        preview: true,
      });
      report(outcome.result, { previewed: outcome.previewId !== undefined });
      return outcome;
    },
    'anchoredEdit.runCall': async (request) => {
      let raw = request;
      if (raw === undefined) {
        raw = await vscode.window.showInputBox({
          title: 'anchored-edit: run a tool call on the workspace',
          prompt: 'A tool call as JSON: {"tool": "str_replace", "arguments": {"path": "…", "old_str": "…", "new_str": "…"}}',
          ignoreFocusOut: true,
        });
        if (raw === undefined) return undefined;
      }
      const outcome = await host.run(requestFrom(raw), { origin: 'user' });
      report(outcome.result);
      return outcome;
    },
    'anchoredEdit.applyPreview': (ref) => host.decide(ref, 'apply'),
    'anchoredEdit.discardPreview': (ref) => host.decide(ref, 'discard'),
    'anchoredEdit.toggleReviewMode': async () => {
      const next = !settings().reviewMode;
      await vscode.workspace.getConfiguration('anchoredEdit').update('reviewMode', next, vscode.ConfigurationTarget.Global);
      updateStatus();
      vscode.window.showInformationMessage(
        next ? 'anchored-edit: review mode on — agent edits wait in a diff for Apply or Discard.' : 'anchored-edit: review mode off.',
      );
      return next;
    },
    'anchoredEdit.showStats': () => {
      const result = session.call({ tool: 'get_edit_stats', arguments: {} }, null);
      persistStats(session, context.globalState, log);
      output.appendLine('');
      for (const line of statsTable(result)) output.appendLine(line);
      output.show(true);
      return result;
    },
  };
  for (const [id, handler] of Object.entries(commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  }

  /** Tells the user how a command's call went (agents read results, users read this). */
  function report(result, { previewed = false } = {}) {
    if (!result) return;
    if (!result.ok) {
      vscode.window.showErrorMessage(`anchored-edit ${result.tool ?? ''}: ${result.error?.kind}. ${result.error?.message}`);
    } else if (previewed) {
      vscode.window.showInformationMessage(`anchored-edit: ${result.message} Apply or discard it from the diff editor's title bar.`);
    } else if (typeof result.content === 'string') {
      output.appendLine(`${result.tool} ${result.path ?? ''} (lines ${result.start_line}-${result.end_line}):`);
      output.append(result.content);
      output.show(true);
    } else {
      vscode.window.showInformationMessage(`anchored-edit: ${result.message}`);
    }
  }

  log(`ready: ${schemas.length} tools, ${tools.names.length} registered as language-model tools`);
  return {
    engine,
    session,
    host,
    editorTools,
    /** The project listing the reader's list(folder) gives the engine (listing.js). */
    listFiles: (folder) => listFolder(engine, paths, folder),
    previews,
    lmToolNames: tools.names,
    refreshMcp: () => mcp?.refresh(),
    serverDefinitions,
    mcpOptions,
    storedStats: () => context.globalState.get(STATS_KEY),
    log,
  };
}
