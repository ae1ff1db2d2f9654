// The engine's tools as VS Code language-model tools (Copilot agent mode and any chat
// participant). The `languageModelTools` contribution in package.json is generated at
// build time from the engine's toolSchemas() (scripts/build.mjs, one source); here each
// contributed tool is backed by the engine through the host's queue.

import * as vscode from 'vscode';
import { toolResult } from '../../js/mcp-host/result.js';
import { lmToolName } from './tool-names.js';

/**
 * Registers every engine tool that the manifest contributes. Returns the disposables and
 * the names registered; mismatches (a manifest built from another engine) are logged.
 */
export function registerLanguageModelTools({ engine, host, manifest, log }) {
  const contributed = new Set((manifest.contributes?.languageModelTools ?? []).map((t) => t.name));
  const disposables = [];
  const names = [];
  for (const schema of engine.toolSchemas()) {
    const name = lmToolName(schema.name);
    if (!contributed.has(name)) {
      log(`The engine's tool ${schema.name} is not in package.json (languageModelTools); rebuild the extension.`);
      continue;
    }
    contributed.delete(name);
    names.push(name);
    disposables.push(
      vscode.lm.registerTool(name, {
        prepareInvocation: () => ({ invocationMessage: `anchored-edit: ${schema.name}` }),
        invoke: async (options, token) => {
          const result = await host.agentCall(schema.name, options.input, token);
          const shaped = toolResult(result);
          return new vscode.LanguageModelToolResult(shaped.content.map((c) => new vscode.LanguageModelTextPart(c.text)));
        },
      }),
    );
  }
  for (const stale of contributed) log(`package.json contributes ${stale}, which the engine does not have; rebuild the extension.`);
  return { disposables, names };
}
