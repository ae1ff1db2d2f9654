// Types of the anchored-edit npm package (pkg/). The result shape is the engine's tool
// call contract (DESIGN.md); fields a tool does not produce are absent.

/** 0-based position; `column` counts UTF-16 code units (Pulsar Point, VS Code Position). */
export interface Point { row: number; column: number }
export interface Edit { range: { start: Point; end: Point }; text: string }

export interface FileChange {
  path: string;
  diff: string;
  /** Sorted, non-overlapping; ranges refer to the text before the call. */
  edits: Edit[];
  line_delta: number;
  line_count: number;
  version?: string;
  created?: boolean;
  deleted?: boolean;
  moved_to?: string;
  /** The encoding to write `new_text` in (`encodeText(new_text, encoding)`); absent: UTF-8. */
  encoding?: string;
  /** The whole new text (hosts only; an LLM's view leaves it out). */
  new_text?: string;
}

export interface ToolError { kind: string; message: string; diagnostics?: unknown }

export interface ToolResult {
  ok: boolean;
  tool: string;
  dry_run?: boolean;
  matched_via?: string;
  message?: string;
  warnings: string[];
  path?: string;
  version?: string;
  start_line?: number;
  end_line?: number;
  line_count?: number;
  content?: string;
  files?: FileChange[];
  error?: ToolError;
  [extra: string]: unknown;
}

export interface ToolRequest { tool: string; arguments?: Record<string, unknown> | string }

/**
 * The host's files. `read` gets a normalised path and returns the text (decoded by the
 * host, which writes it back itself: an editor buffer), the file's bytes as a
 * `Uint8Array` (a host that has bytes, such as a disk: the engine decodes them, UTF-8, a
 * BOM, the call's `encoding` argument or a declaration in the file, and each changed
 * file's `encoding` says how to write it back with `encodeText`), `undefined`/`null`
 * when there is no such file, or throws to refuse the path: a thrown value with `kind`
 * set to an engine error kind (e.g. "path_outside_root") becomes that refusal with its
 * `message`; anything else becomes `invalid_arguments` naming the path. Synchronous.
 */
export interface FileReader {
  read(path: string): string | Uint8Array | undefined | null;
  /**
   * Optional: every file under `folder` ("" = the root), root-relative, with the host's
   * ignore rules applied (see ignoreFilter). Without it the project tools (list_files,
   * grep_project, find_symbol, replace_in_files) refuse saying the host cannot list files.
   */
  list?(folder: string): string[] | { paths: string[]; warnings?: string[] } | undefined | null;
}

/**
 * `newText: false` leaves every `files[].new_text` out (hosts that apply `edits`);
 * `newText: "unkept"` leaves it out only for files the session keeps (openBuffer) that
 * stay in place (an editor applies their `edits`; other files keep `new_text`);
 * `dryRun: true` makes an editing call a dry run whatever the request says.
 */
export interface CallOptions { newText?: boolean | 'unkept'; dryRun?: boolean }

/** MCP tool annotations; a tool edits files exactly when `readOnlyHint` is false. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolSchema {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

/** The detail of a host refusal, by kind. */
export type HostRefusalDetail =
  | { why: string }
  | { path: string; when?: 'after_read' | 'during_review' | 'since_diff' }
  | { reason: 'discarded' | 'cancelled' } | { reason: 'timeout'; seconds: number };

export class Session {
  constructor();
  /** Runs one call; refusals are results with `ok: false`. Throws EnginePanicError on an engine bug. */
  call(request: ToolRequest | string, files?: FileReader | null, options?: CallOptions): ToolResult;
  /**
   * Keeps `text` as the content of `path` inside the engine: calls read it before the
   * reader (a large file crosses into wasm memory once). Lost on an engine restart;
   * the reader stays the fallback.
   */
  openBuffer(path: string, text: string): void;
  /** Applies a result's `edits` (sorted, text-before ranges) to a kept text; false when not kept or out of order. */
  editBuffer(path: string, edits: Edit[]): boolean;
  /** Forgets a kept text; false when it was not kept. */
  closeBuffer(path: string): boolean;
  /**
   * The folders calls may reach: absolute paths, the first being the project root. An
   * absolute path argument inside the first root reaches `files.read` relative to it,
   * one inside another root as is (normalised); any other absolute path, and every
   * absolute path before this is called, is refused `path_outside_root`. Relative paths
   * are relative to the first root. Kept across engine restarts. See docs/paths.md.
   */
  setRoots(roots: string[]): void;
  statsJson(): string;
  loadStats(json: string): void;
  /** The last call's statistics record as one JSON line (native `--stats` format); undefined when it recorded nothing. */
  lastRecordJson(): string | undefined;
  /** Folds in a record of an earlier call (a `--stats` line); false, changing nothing, when it is not one. */
  replayRecord(json: string): boolean;
  /** The host could not apply the last result: the session forgets it landed (undo_edit's history holds only what landed). */
  discardLast(): boolean;
  /** The versions held (for rebasing stale edits) and the undo history, as JSON text. */
  livingStateJson(): string;
  /** Restores what `livingStateJson` gave; false, changing nothing, for any other text. */
  loadLivingState(json: string): boolean;
  /** Whether the session keeps versions and applied calls (on by default); off for a one-call session. */
  keepHistory(keep: boolean): void;
  free(): void;
}

export class EnginePanicError extends Error {}

export function toolSchemas(): ToolSchema[];
/**
 * The MCP tool list of a profile: "full" (default), "minimal", or a harness's name
 * ("claude-code", "anthropic-text-editor", "codex", "cline", "roo", "aider", "gemini",
 * "copilot"); `tools` narrows it to those names. Throws for an unknown name.
 */
export function profileSchemas(profile?: string, tools?: string[]): ToolSchema[];

/** The paragraph an MCP server gives a model at initialisation: when to use which tool. */
export function serverInstructions(): string;

/** A host's own refusal as a result object, worded by the engine for every host. */
export function hostRefusal(
  tool: string,
  kind: 'write_failed' | 'stale_buffer' | 'edit_rejected',
  detail: HostRefusalDetail,
): ToolResult;

/**
 * The bytes to write for a changed file: its `new_text` in its `encoding` (undefined:
 * UTF-8). Throws for an unknown encoding or a character the encoding cannot hold.
 */
export function encodeText(text: string, encoding?: string | null): Uint8Array;

/**
 * One decision of the write protocol (docs/disk.md; crate/src/protocol/json.rs lists the
 * operations): for a host that writes files itself, as the Node server does.
 */
export function writeProtocol(op: string, args: object): unknown;

/**
 * The engine's path rule alone (docs/paths.md), for a host's own tools: `path` judged
 * against `roots` (absolute folders, the first the project root, as `setRoots`).
 */
export function resolvePath(path: string, roots: string[]): { path: string } | { error: ToolError };

/**
 * The engine's ignore rules over a plain listing (docs/wasm.md): `paths` (root-relative)
 * without hidden ones, those `.ignore`/`.gitignore` files (read through `reader`) ignore,
 * and those under such folders; order kept.
 */
export function ignoreFilter(paths: string[], reader: FileReader): string[];

/** Of `folders` (root-relative), those the same rules leave out, with everything under them. */
export function ignoredFolders(folders: string[], reader: FileReader): string[];

/**
 * The warning of an ignore file a walking host skipped (a link, not a regular file, over
 * 1 MiB, ...), in the CLI walker's words; `why` as named, `bytes` its length when known.
 */
export function ignoreFileSkipped(
  path: string,
  why: 'link' | 'not_regular' | 'too_large' | 'changed' | 'unreadable' | 'not_utf8',
  bytes?: number,
): string;

/** Browsers: loads the engine (Node: nothing to do). */
export function init(input?: unknown): Promise<void>;
export function initSync(module?: unknown): void;
