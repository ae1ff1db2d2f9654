// Language-model tool names are global in VS Code, so the engine's tools are prefixed.
// Shared by the build (which writes them into package.json) and the extension.

export const LM_TOOL_PREFIX = 'anchored_edit_';

export function lmToolName(engineTool) {
  return `${LM_TOOL_PREFIX}${engineTool}`;
}
