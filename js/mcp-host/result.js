// Engine results as an agent sees them over MCP. Free of Node APIs, so that browser hosts
// (VS Code for the web) shape their tool results exactly as the MCP server does. The LLM
// view itself is js/host-policy's (one definition for every host).

import { llmView } from '../host-policy/index.js';

export { llmView };

/**
 * An engine result as an MCP tool result, shaped as the native `anchored-edit mcp` does:
 * the headline (success message or refusal message) as the first text block, the result
 * JSON without `new_text` (pretty-printed) as the second and as `structuredContent`.
 */
export function toolResult(result) {
  const view = llmView(result);
  const headline = (result.ok ? result.message : result.error?.message) ?? '';
  return {
    content: [
      { type: 'text', text: headline },
      { type: 'text', text: JSON.stringify(view, null, 2) },
    ],
    structuredContent: view,
    isError: !result.ok,
  };
}
