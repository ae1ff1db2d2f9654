// Tool-call requests as the commands receive them. No `vscode` import (tested in Node).
// A request is never rewritten: a preview is the engine's dry run (the `dryRun` call
// option, host.js), whatever shape the request has.

/** A request from a command argument or the user's text: objects as they are, text parsed. */
export function requestFrom(value) {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value; // the engine explains what is wrong with the text
  }
}
