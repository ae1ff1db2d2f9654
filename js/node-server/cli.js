// The `anchored-edit` command of the npm package (started by bin.js): the native CLI's
// `call`, `mcp` and `tools` on the wasm engine in Node, with the same options, results and
// exit statuses (cli/src/main.rs). `mcp` also takes `--state DIR`: a directory for what
// the server keeps between runs (today its statistics, DIR/stats.jsonl, unless --stats
// names a file). `call --state DIR` keeps the session's versions and undo history in
// DIR/session.json between calls, as the native CLI does (cli/src/state.rs: the same
// file, written atomically; a damaged one is ignored).
import fs from 'node:fs';
import path from 'node:path';
import { Session, profileSchemas } from 'anchored-edit';
import { llmView } from '../host-policy/index.js';
import { ReadCache } from './read-cache.js';
import { execute, openDisk, StatsFile } from './host.js';

const version = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

const HELP = `anchored-edit — content-anchored edits for LLM coding agents (Node, wasm engine)

USAGE:
    anchored-edit call [--root DIR] [--request FILE] [--dry-run] [--stats FILE] [--state DIR]
    anchored-edit mcp  [--root DIR] [--stats FILE] [--state DIR] [--profile NAME] [--tools A,B]
    anchored-edit tools [--profile NAME] [--tools A,B]
    anchored-edit --help | --version

COMMANDS:
    call    Read one tool call {"tool": NAME, "arguments": {...}} from stdin (or
            --request FILE), run it on the files under --root, print the result JSON,
            and write the changed files (all or none, each atomically) unless it is a
            dry run or was refused.
    mcp     Serve every tool over the Model Context Protocol on stdin/stdout, working
            on the files under --root. Refused edits are tool results with isError.
    tools   Print every tool's name, description, JSON Schema and annotations.

OPTIONS:
    --root DIR        Project root; paths in calls are relative to it, and nothing
                      outside it (absolute paths, \`..\`, symlinks leading out) is read
                      or written. Default: the current directory.
    --request FILE    Read the call from FILE instead of stdin.
    --dry-run         Compute and print the result and diff, write nothing.
    --stats FILE      Keep edit statistics in FILE (JSON lines, one record per call;
                      the native CLI's format).
    --state DIR       (mcp) Keep the server's state in DIR (statistics: DIR/stats.jsonl).
                      (call) Keep the session between calls in DIR/session.json: the
                      versions handed out (stale edits are rebased) and the applied
                      calls (undo_edit). Without it each call is a fresh session.
    --profile NAME    (mcp, tools) The tool set listed: full (default), minimal, or one
                      harness's own tools: claude-code, anthropic-text-editor, codex,
                      cline, roo, aider, gemini, copilot. Calls accept every name.
    --tools A,B,C     (mcp, tools) List exactly these tools.

EXIT STATUS:
    0  the call succeeded (and its changes, if any, were written)
    1  the call was refused (nothing was written); the JSON says why
    2  usage error (bad command line, unreadable --request or --root)
`;

class UsageError extends Error {}

function parseOptions(args, command) {
  const options = { root: '.', request: null, dryRun: false, stats: null, state: null, profile: 'full', tools: '' };
  const takes = { '--root': 'root', '--stats': 'stats' };
  if (command !== 'call') Object.assign(takes, { '--profile': 'profile', '--tools': 'tools' });
  if (command === 'call') takes['--request'] = 'request';
  if (command !== 'tools') takes['--state'] = 'state';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : null;
    if (flag === '--help' || flag === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    } else if (flag === '--dry-run' && command === 'call' && inline === null) options.dryRun = true;
    else if (flag in takes) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      options[takes[flag]] = value;
    } else throw new UsageError(`unknown option \`${arg}\``);
  }
  options.listed = listed(options);
  if (!isDirectory(options.root)) throw new UsageError(`--root ${options.root} is not a directory`);
  if (options.state !== null) {
    fs.mkdirSync(options.state, { recursive: true });
    if (command === 'mcp') options.stats ??= path.join(options.state, 'stats.jsonl');
  }
  return options;
}

/** The tools `--profile` and `--tools` list (a usage error names the valid ones). */
function listed(options) {
  const tools = options.tools.split(',').map((t) => t.trim()).filter(Boolean);
  try {
    return profileSchemas(options.profile, tools);
  } catch (e) {
    throw new UsageError(e?.message ?? `${e}`);
  }
}

function isDirectory(p) {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A session on the real root, with the engine's own path rule when it has one. */
function open(options, { keepReads = false } = {}) {
  // A server keeps the texts it read (read-cache.js); a one-call process has no use for it.
  const disk = openDisk(options.root, { cache: keepReads ? new ReadCache() : undefined });
  const session = new Session();
  if (typeof session.setRoots === 'function') session.setRoots([disk.root]);
  const emptyStats = session.statsJson();
  const stats = options.stats === null ? null : new StatsFile(options.stats, session, emptyStats);
  return { disk, session, stats };
}

function readRequest(options) {
  try {
    // Bytes, not text: the engine refuses a request that is not UTF-8 (as the native
    // CLI does) instead of Node turning its bad bytes into U+FFFD that would be written.
    return new Uint8Array(fs.readFileSync(options.request ?? 0));
  } catch (e) {
    throw new UsageError(
      options.request ? `cannot read --request ${options.request}: ${e.message}` : `cannot read the request from stdin: ${e.message}`,
    );
  }
}

/** `call --state DIR`: the session's versions and undo history, DIR/session.json. */
function loadLiving(options, session) {
  // Without --state the session ends with this call, as the native CLI's: no history
  // (the engine's undo_edit refusal then says how to keep one).
  if (options.state === null) return session.keepHistory(false);
  let text;
  try {
    text = fs.readFileSync(path.join(options.state, 'session.json'), 'utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return;
    throw new UsageError(`--state ${options.state}: ${e.message}`);
  }
  if (!session.loadLivingState(text)) process.stderr.write(`anchored-edit: --state ${options.state}/session.json is not a session state; starting afresh\n`);
}

function saveLiving(options, session) {
  if (options.state === null) return;
  const file = path.join(options.state, 'session.json');
  const tmp = path.join(options.state, `.session.json.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, session.livingStateJson());
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw new UsageError(`--state ${file}: ${e.message}`);
  }
}

function call(options) {
  const text = readRequest(options);
  const { disk, session, stats } = open(options);
  loadLiving(options, session);
  // The engine parses the text, and words the refusal of a truncated or malformed one.
  const run = () => execute(session, disk, text, { dryRun: options.dryRun });
  const result = stats ? stats.around(session, run) : run();
  saveLiving(options, session);
  process.stdout.write(`${JSON.stringify(llmView(result), null, 2)}\n`);
  return result.ok ? 0 : 1;
}

async function main(args) {
  const [command, ...rest] = args;
  switch (command) {
    case undefined:
      process.stdout.write(HELP);
      return 2;
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(HELP);
      return 0;
    case '--version':
    case '-V':
      process.stdout.write(`anchored-edit ${version}\n`);
      return 0;
    case 'tools':
      process.stdout.write(`${JSON.stringify(parseOptions(rest, 'tools').listed, null, 2)}\n`);
      return 0;
    case 'call':
      return call(parseOptions(rest, 'call'));
    case 'mcp': {
      const { serve } = await import('./mcp.js');
      const options = parseOptions(rest, 'mcp');
      await serve({ ...open(options, { keepReads: true }), version, listed: options.listed });
      return null; // Serving until stdin closes.
    }
    default:
      throw new UsageError(`unknown command \`${command}\``);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (e) => {
    if (e instanceof UsageError) {
      process.stderr.write(`anchored-edit: ${e.message}\nRun \`anchored-edit --help\` for usage.\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`anchored-edit: ${e?.stack ?? e}\n`);
      process.exitCode = 1;
    }
  },
);
