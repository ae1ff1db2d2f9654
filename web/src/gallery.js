// The gallery: LLM failure modes as ready examples, each with the outcome the engine
// must show. Data only: the page lists and loads them, and the tests (web/test/) run
// every one through the engine in Node and through the page in Chromium and assert
// `expect`.
//
// An example:
//   id, title, group ('basics' | 'recovered' | 'refused' | 'patches' | 'formats')
//   llm      what the model did wrong (one sentence, shown on the card)
//   engine   what the engine does about it and why (shown on the card)
//   files    {path: exact text} — one tab each; `active` is the tab shown first
//   call     the tool call, as the model sent it
//   expect   the outcome: {ok: true, matched_via, files: {path: exact text after}}
//            or {ok: false, error_kind}; the same shape as tests/corpus cases.

/** Lines joined with '\n', each line ended: L('a', 'b') === 'a\nb\n'. */
const L = (...lines) => lines.map((l) => `${l}\n`).join('');
/** The same with CRLF line breaks. */
const CRLF = (...lines) => lines.map((l) => `${l}\r\n`).join('');

// ---------------------------------------------------------------------------------
// Shared files

const inventoryPy = L(
  'import json',
  '',
  '',
  'class Inventory:',
  '    def __init__(self, items):',
  '        self.items = items',
  '',
  '    def total(self):',
  '        result = 0',
  '        for item in self.items:',
  '            result += item.price * item.quantity',
  '        return result',
  '',
  '    def to_json(self):',
  '        return json.dumps([i.__dict__ for i in self.items])',
);

const serverGo = L(
  'package server',
  '',
  'import (',
  '\t"errors"',
  '\t"log"',
  '\t"net/http"',
  ')',
  '',
  'var errAlreadyRunning = errors.New("server: already running")',
  '',
  'type Server struct {',
  '\taddr    string',
  '\trunning bool',
  '}',
  '',
  'func (s *Server) Start() error {',
  '\tif s.running {',
  '\t\treturn errAlreadyRunning',
  '\t}',
  '\ts.running = true',
  '\treturn http.ListenAndServe(s.addr, nil)',
  '}',
);

const paperTex = L(
  String.raw`\documentclass{article}`,
  String.raw`\usepackage{amsmath}`,
  '',
  String.raw`\begin{document}`,
  String.raw`\section{Results}`,
  String.raw`The error falls as $\mathcal{O}(n^{-1/2})$, see \cite{knuth}.`,
  String.raw`\end{document}`,
);

const configJson = L(
  '{',
  '  "name": "log-shipper",',
  '  "paths": {',
  String.raw`    "logs": "C:\\ProgramData\\Shipper\\logs",`,
  String.raw`    "cache": "C:\\ProgramData\\Shipper\\cache"`,
  '  },',
  String.raw`  "pattern": "^\\d{4}-\\d{2}-\\d{2}"`,
  '}',
);

const tokenizerRs = L(
  'use std::iter::Peekable;',
  'use std::str::Chars;',
  '',
  'pub fn skip_whitespace(chars: &mut Peekable<Chars>) -> usize {',
  '    let mut skipped = 0;',
  '    while chars.next_if(|c| c.is_whitespace()).is_some() {',
  '        skipped += 1;',
  '    }',
  '    skipped',
  '}',
);

const argsTs = L(
  'export interface Options {',
  '  verbose: boolean;',
  '  files: string[];',
  '}',
  '',
  'export function parseArgs(argv: string[]): Options {',
  '  const opts: Options = { verbose: false, files: [] };',
  '  for (const arg of argv) {',
  '    if (arg === "-v" || arg === "--verbose") {',
  '      opts.verbose = true;',
  '    } else if (arg.startsWith("-")) {',
  '      throw new Error(`unknown flag: ${arg}`);',
  '    } else {',
  '      opts.files.push(arg);',
  '    }',
  '  }',
  '  return opts;',
  '}',
);

const cartJs = L(
  'import { charge } from "./payments.js";',
  '',
  'const TAX_RATE = 0.2;',
  '',
  'export function checkout(cart, user) {',
  '  validate(cart);',
  '  const total = cart.items.reduce((sum, item) => sum + item.price, 0);',
  '  const tax = total * TAX_RATE;',
  '  return charge(user, total + tax);',
  '}',
);

const usersTs = L(
  'import { db } from "./db";',
  '',
  'export async function loadProfile(id: string) {',
  '  const user = await db.users.find(id);',
  '  if (!user) {',
  '    return null;',
  '  }',
  '  return user.profile;',
  '}',
  '',
  'export async function loadSettings(id: string) {',
  '  const user = await db.users.find(id);',
  '  if (!user) {',
  '    return null;',
  '  }',
  '  return user.settings;',
  '}',
);

const ringC = L(
  '#include "ring.h"',
  '',
  'int ring_push(struct ring *r, int value)',
  '{',
  '\tif (ring_full(r))',
  '\t\treturn -1;',
  '\tr->buf[r->head] = value;',
  '\tr->head = (r->head + 1) % r->cap;',
  '\treturn 0;',
  '}',
);

const pipelinePy = L(
  'class Reader:',
  '    def run(self):',
  '        self.count = 0',
  '        for row in self.source:',
  '            self.count += 1',
  '            yield row',
  '',
  '',
  'class Writer:',
  '    def run(self):',
  '        self.count = 0',
  '        for row in self.rows:',
  '            self.count += 1',
  '            self.sink.write(row)',
);

const configPy = L('BATCH_SIZE = 500', 'RESUME = False');

const shapesTs = L(
  'export function area(w: number, h: number): number {',
  '  return w > 0 && h > 0 ? w * h : 0;',
  '}',
);

const mainTs = L('import { area } from "./shapes";', '', 'console.log(area(2, 3));');

const deployYaml = CRLF(
  'service: checkout',
  'replicas: 2',
  'resources:',
  '  cpu: 500m',
  '  memory: 256Mi',
);

const helloJs = L('export function hello() {', '  console.log("Hello, world");', '}');

const retryPy = L(
  'import time',
  '',
  '',
  'def fetch(client, url):',
  '    retries = 3',
  '    for attempt in range(retries):',
  '        try:',
  '            return client.get(url)',
  '        except TimeoutError:',
  '            time.sleep(2 ** attempt)',
  '    raise TimeoutError(url)',
);

// ---------------------------------------------------------------------------------

export const gallery = [
  {
    id: 'exact',
    title: 'Exact replacement',
    group: 'basics',
    llm: 'The model quotes the lines exactly as the file has them.',
    engine:
      'Found once, replaced: matched_via "exact". The result carries a unified diff and the minimal edits (UTF-16 ranges) a host applies as one undo step.',
    files: { 'fetch.py': retryPy },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'fetch.py',
        old_str: '    retries = 3\n',
        new_str: '    retries = 5\n',
      },
    },
    expect: {
      ok: true,
      matched_via: 'exact',
      files: { 'fetch.py': retryPy.replace('retries = 3', 'retries = 5') },
    },
  },
  {
    id: 'indentation-drift',
    title: 'Indentation drift',
    group: 'recovered',
    llm: 'The model copied a method without the indentation of its class: every line of old_str is 4 spaces short.',
    engine:
      'The lines match once their leading whitespace is set aside, and the difference is one consistent prefix (4 spaces). The engine re-indents new_str the same way, keeps the file\'s bytes on unchanged lines, and reports matched_via "indentation".',
    files: { 'inventory.py': inventoryPy },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'inventory.py',
        old_str: L(
          'def total(self):',
          '    result = 0',
          '    for item in self.items:',
          '        result += item.price * item.quantity',
          '    return result',
        ),
        new_str: L(
          'def total(self, discount=0.0):',
          '    result = 0',
          '    for item in self.items:',
          '        result += item.price * item.quantity',
          '    return result * (1 - discount)',
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'indentation',
      files: {
        'inventory.py': inventoryPy
          .replace('    def total(self):', '    def total(self, discount=0.0):')
          .replace('        return result\n', '        return result * (1 - discount)\n'),
      },
    },
  },
  {
    id: 'tabs-vs-spaces',
    title: 'Tabs vs spaces',
    group: 'recovered',
    llm: 'The Go file indents with tabs; the model wrote 4 spaces per level in old_str and new_str.',
    engine:
      'Spaces ↔ tabs is a consistent unit change (4 spaces → 1 tab per level): matched_via "indentation". new_str is written with tabs, so the file never mixes the two.',
    files: { 'server.go': serverGo },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'server.go',
        old_str: L('    if s.running {', '        return errAlreadyRunning', '    }', '    s.running = true'),
        new_str: L(
          '    if s.running {',
          '        return errAlreadyRunning',
          '    }',
          '    s.running = true',
          '    log.Printf("listening on %s", s.addr)',
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'indentation',
      files: {
        'server.go': serverGo.replace(
          '\ts.running = true\n',
          '\ts.running = true\n\tlog.Printf("listening on %s", s.addr)\n',
        ),
      },
    },
  },
  {
    id: 'escaping-latex',
    title: 'Over-escaped backslashes (LaTeX)',
    group: 'recovered',
    llm: 'The model escaped its LaTeX once too often: every \\ of the file arrives as \\\\.',
    engine:
      'Each backslash run of old_str pairs with one of the file (2 → 1, the same everywhere), so the engine matches and writes new_str with the same correction: matched_via "escaping". Mixed ratios are applied in order only when the runs of new_str pair one to one with those of old_str; otherwise refused (escape_ambiguous), never guessed.',
    files: { 'paper.tex': paperTex },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'paper.tex',
        old_str: L(
          String.raw`\\section{Results}`,
          String.raw`The error falls as $\\mathcal{O}(n^{-1/2})$, see \\cite{knuth}.`,
        ),
        new_str: L(
          String.raw`\\section{Results}`,
          String.raw`The error falls as $\\mathcal{O}(n^{-1/2})$ (Theorem~\\ref{thm:rate}), see \\cite{knuth}.`,
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'escaping',
      files: {
        'paper.tex': paperTex.replace(
          String.raw`$\mathcal{O}(n^{-1/2})$, see`,
          String.raw`$\mathcal{O}(n^{-1/2})$ (Theorem~\ref{thm:rate}), see`,
        ),
      },
    },
  },
  {
    id: 'escaping-json',
    title: 'Over-escaped backslashes (JSON)',
    group: 'recovered',
    llm: 'A JSON string quoted inside a JSON tool call: the file\'s \\\\ became \\\\\\\\ in old_str and new_str.',
    engine:
      'Every run pairs 4 → 2, one consistent ratio: the file keeps its own escaping, the changed line gets the corrected one (matched_via "escaping"). The regex \\\\d on the untouched line is never "unescaped".',
    files: { 'config.json': configJson },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'config.json',
        old_str: L(String.raw`    "logs": "C:\\\\ProgramData\\\\Shipper\\\\logs",`),
        new_str: L(String.raw`    "logs": "D:\\\\Shipper\\\\logs",`),
      },
    },
    expect: {
      ok: true,
      matched_via: 'escaping',
      files: {
        'config.json': configJson.replace(
          String.raw`"C:\\ProgramData\\Shipper\\logs"`,
          String.raw`"D:\\Shipper\\logs"`,
        ),
      },
    },
  },
  {
    id: 'line-numbers',
    title: 'Line-number prefixes',
    group: 'recovered',
    llm: 'The model copied old_str from a numbered read (`    6→…`) and kept the prefixes, in new_str too.',
    engine:
      'Every line carries a prefix of one style with consecutive numbers: the engine strips them from old_str and new_str, matches, and warns (matched_via "line_numbers").',
    files: { 'tokenizer.rs': tokenizerRs },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'tokenizer.rs',
        old_str: L(
          '     6→    while chars.next_if(|c| c.is_whitespace()).is_some() {',
          '     7→        skipped += 1;',
          '     8→    }',
        ),
        new_str: L(
          '     6→    while chars.next_if(|c| c.is_whitespace() || *c == \'\\u{feff}\').is_some() {',
          '     7→        skipped += 1;',
          '     8→    }',
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'line_numbers',
      files: {
        'tokenizer.rs': tokenizerRs.replace(
          '|c| c.is_whitespace()',
          "|c| c.is_whitespace() || *c == '\\u{feff}'",
        ),
      },
    },
  },
  {
    id: 'elided-middle',
    title: 'Elided middle (`// ...`)',
    group: 'recovered',
    llm: 'The model quoted the head and tail of a function and wrote `// ...` for the loop in between, in old_str and new_str.',
    engine:
      'The head occurs once, the tail follows inside the same block, so the marker stands for exactly those lines. They are written back unchanged in place of new_str\'s marker: matched_via "elision".',
    files: { 'args.ts': argsTs },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'args.ts',
        old_str: L(
          'export function parseArgs(argv: string[]): Options {',
          '  const opts: Options = { verbose: false, files: [] };',
          '  // ...',
          '  return opts;',
          '}',
        ),
        new_str: L(
          'export function parseArgs(argv: string[]): Options {',
          '  const opts: Options = { verbose: false, files: [] };',
          '  // ...',
          '  if (opts.files.length === 0) opts.files.push("-");',
          '  return opts;',
          '}',
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'elision',
      files: {
        'args.ts': argsTs.replace(
          '  return opts;\n',
          '  if (opts.files.length === 0) opts.files.push("-");\n  return opts;\n',
        ),
      },
    },
  },
  {
    id: 'line-endings',
    title: 'CRLF file, LF request',
    group: 'recovered',
    llm: 'The file has Windows line endings (CRLF, \\r\\n); the model sent plain \\n.',
    engine:
      'Matched ignoring line endings; new_str is written with the file\'s CRLF, so no line of the file changes its ending (matched_via "line_endings").',
    files: { 'deploy.yaml': deployYaml },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'deploy.yaml',
        old_str: 'resources:\n  cpu: 500m\n',
        new_str: 'resources:\n  cpu: 750m\n',
      },
    },
    expect: {
      ok: true,
      matched_via: 'line_endings',
      files: { 'deploy.yaml': deployYaml.replace('500m', '750m') },
    },
  },
  {
    id: 'typography',
    title: 'Curly quotes',
    group: 'recovered',
    llm: 'The model\'s text went through a "smart quotes" filter: “Hello, world” instead of "Hello, world".',
    engine:
      'Typographic characters fold to ASCII for matching; the changed line is written with the file\'s own characters (matched_via "typography").',
    files: { 'hello.js': helloJs },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'hello.js',
        old_str: '  console.log(“Hello, world”);\n',
        new_str: '  console.log(“Hello, there”);\n',
      },
    },
    expect: {
      ok: true,
      matched_via: 'typography',
      files: { 'hello.js': helloJs.replace('world', 'there') },
    },
  },
  {
    id: 'placeholder',
    title: 'Lazy `// ... existing code ...`',
    group: 'refused',
    llm: 'The model rewrote the function and put `// ... existing code ...` where the rest of it should be.',
    engine:
      'str_replace writes new_str literally: the function body would become that comment. Refused with placeholder_in_new_str, naming the line; nothing is written. (allow_placeholders: true writes such a line on purpose.)',
    files: { 'cart.js': cartJs },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'cart.js',
        old_str: L(
          'export function checkout(cart, user) {',
          '  validate(cart);',
          '  const total = cart.items.reduce((sum, item) => sum + item.price, 0);',
          '  const tax = total * TAX_RATE;',
          '  return charge(user, total + tax);',
          '}',
        ),
        new_str: L(
          'export function checkout(cart, user) {',
          '  if (!user.verified) throw new Error("unverified user");',
          '  // ... existing code ...',
          '}',
        ),
      },
    },
    expect: { ok: false, error_kind: 'placeholder_in_new_str' },
  },
  {
    id: 'duplicate-block',
    title: 'Duplicate block, no hint',
    group: 'refused',
    llm: 'The same three lines stand in two functions; the model quoted them without saying which one.',
    engine:
      'Two exact matches and nothing to choose between them: refused as ambiguous, listing both places and the arguments that pick one (function_hint, occurrence, line_hint). The engine never guesses.',
    files: { 'users.ts': usersTs },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'users.ts',
        old_str: L('  if (!user) {', '    return null;', '  }'),
        new_str: L('  if (!user) {', '    throw new NotFoundError(id);', '  }'),
      },
    },
    expect: { ok: false, error_kind: 'ambiguous' },
  },
  {
    id: 'duplicate-block-hint',
    title: 'Duplicate block, with function_hint',
    group: 'basics',
    llm: 'The same call, with function_hint naming the function the model means.',
    engine:
      'function_hint narrows the search to loadSettings, where the lines occur once: applied there, matched_via "exact"; loadProfile is untouched.',
    files: { 'users.ts': usersTs },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'users.ts',
        old_str: L('  if (!user) {', '    return null;', '  }'),
        new_str: L('  if (!user) {', '    throw new NotFoundError(id);', '  }'),
        function_hint: 'loadSettings',
      },
    },
    expect: {
      ok: true,
      matched_via: 'exact',
      files: {
        'users.ts': usersTs.replace(
          '    return null;\n  }\n  return user.settings;',
          '    throw new NotFoundError(id);\n  }\n  return user.settings;',
        ),
      },
    },
  },
  {
    id: 'paraphrase',
    title: 'Paraphrased old_str',
    group: 'refused',
    llm: 'Quoting from memory, the model indented with spaces (the file has tabs) and wrote `r->data` where the file says `r->buf`.',
    engine:
      'Whitespace can be forgiven, words never: a renamed identifier could be another place. Refused as no_match; the diagnostics name the closest area (highlighted in the buffer) and each differing line, whitespace shown as symbols.',
    files: { 'ring.c': ringC },
    call: {
      tool: 'str_replace',
      arguments: {
        path: 'ring.c',
        old_str: L('    if (ring_full(r))', '        return -1;', '    r->data[r->head] = value;'),
        new_str: L(
          '    if (ring_full(r))',
          '        return -1;',
          '    r->data[r->head] = value;',
          '    r->count++;',
        ),
      },
    },
    expect: { ok: false, error_kind: 'no_match' },
  },
  {
    id: 'v4a-anchor',
    title: 'V4A patch with `@@ anchor @@`',
    group: 'patches',
    llm: 'A Codex-style patch over two files; the model closed its anchor line with ` @@` as in a unified diff.',
    engine:
      'The trailing ` @@` is dropped with a warning. `@@ class Writer:` picks the second of two identical `run` methods, so the hunk matches once there. Both files change together or not at all.',
    files: { 'jobs/pipeline.py': pipelinePy, 'jobs/config.py': configPy },
    call: {
      tool: 'apply_patch',
      arguments: {
        patch: L(
          '*** Begin Patch',
          '*** Update File: jobs/pipeline.py',
          '@@ class Writer: @@',
          '     def run(self):',
          '-        self.count = 0',
          '+        self.count = self.resume_from',
          '         for row in self.rows:',
          '*** Update File: jobs/config.py',
          '@@',
          '-RESUME = False',
          '+RESUME = True',
          '*** End Patch',
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'exact',
      files: {
        'jobs/pipeline.py': pipelinePy.replace(
          '        self.count = 0\n        for row in self.rows:',
          '        self.count = self.resume_from\n        for row in self.rows:',
        ),
        'jobs/config.py': configPy.replace('False', 'True'),
      },
      warnings_contain: ['trailing ` @@`'],
    },
  },
  {
    id: 'not-a-patch',
    title: 'Raw code sent as a patch',
    group: 'refused',
    llm: 'The model sent the new file contents to apply_patch instead of a patch.',
    engine:
      'Refused as patch_not_a_patch: there is no patch grammar to read. The message shows a V4A patch built for the file the text names, ready to fill in.',
    files: { 'jobs/config.py': configPy },
    call: {
      tool: 'apply_patch',
      arguments: { patch: L('# jobs/config.py', 'BATCH_SIZE = 500', 'RESUME = True') },
    },
    expect: { ok: false, error_kind: 'patch_not_a_patch' },
  },
  {
    id: 'multi-replace-xml',
    title: 'multi_replace as XML',
    group: 'patches',
    llm: 'The model sent its batch of replacements as XML, with raw `<`, `>` and `&&` in the code, one item in CDATA.',
    engine:
      'The XML form is read (element text taken literally, CDATA honoured) and reported in warnings. Both replacements apply, across two files, in one all-or-nothing batch.',
    files: { 'shapes.ts': shapesTs, 'main.ts': mainTs },
    call: {
      tool: 'multi_replace',
      arguments: {
        replacements: L(
          '<replacements>',
          '  <replacement>',
          '    <path>shapes.ts</path>',
          '    <old_str>export function area(w: number, h: number): number {',
          '  return w > 0 && h > 0 ? w * h : 0;</old_str>',
          '    <new_str>export function rectArea(w: number, h: number): number {',
          '  return w > 0 && h > 0 ? w * h : 0;</new_str>',
          '  </replacement>',
          '  <replacement>',
          '    <filePath>main.ts</filePath>',
          '    <oldString><![CDATA[import { area } from "./shapes";',
          '',
          'console.log(area(2, 3));]]></oldString>',
          '    <newString><![CDATA[import { rectArea } from "./shapes";',
          '',
          'console.log(rectArea(2, 3));]]></newString>',
          '  </replacement>',
          '</replacements>',
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'exact',
      files: {
        'shapes.ts': shapesTs.replace('function area', 'function rectArea'),
        'main.ts': mainTs.replaceAll('area', 'rectArea'),
      },
      warnings_contain: ['XML'],
    },
  },
  {
    id: 'atomic-failure',
    title: 'Atomic batch failure',
    group: 'refused',
    llm: 'Three replacements in one batch; the third quotes a line as the model remembers it (area(2, 4)), not as it is.',
    engine:
      'Batches are atomic by default: one failed item means nothing is written, not even the two that matched. The refusal names the failed item with its own diagnostics; fix it and resend the batch, or send atomic: false.',
    files: { 'shapes.ts': shapesTs, 'main.ts': mainTs },
    call: {
      tool: 'multi_replace',
      arguments: {
        replacements: [
          { path: 'shapes.ts', old_str: 'export function area(', new_str: 'export function rectArea(' },
          { path: 'main.ts', old_str: 'import { area }', new_str: 'import { rectArea }' },
          { path: 'main.ts', old_str: 'console.log(area(2, 4));', new_str: 'console.log(rectArea(2, 4));' },
        ],
      },
    },
    expect: { ok: false, error_kind: 'no_match' },
  },
  {
    id: 'lazy-snippet',
    title: 'Lazy snippet (`edit_file`)',
    group: 'formats',
    llm: 'The model sent only the method it changed, with `# ... existing code ...` for the rest of the file, as editor agents do.',
    engine:
      'Merged without a second model: the stretch between the markers is placed by its first and last lines (`def total(self):`, `return result`), each found once; the lines between them are replaced and every line under a marker is kept byte for byte.',
    files: { 'inventory.py': inventoryPy },
    call: {
      tool: 'edit_file',
      arguments: {
        path: 'inventory.py',
        code_edit: L(
          '# ... existing code ...',
          '    def total(self):',
          '        result = 0',
          '        for item in self.items:',
          '            if item.quantity > 0:',
          '                result += item.price * item.quantity',
          '        return result',
          '# ... existing code ...',
        ),
      },
    },
    expect: {
      ok: true,
      matched_via: 'exact',
      files: {
        'inventory.py': inventoryPy.replace(
          '            result += item.price * item.quantity\n',
          '            if item.quantity > 0:\n                result += item.price * item.quantity\n',
        ),
      },
    },
  },
  {
    id: 'move-block',
    title: 'Move a method (`move_block`)',
    group: 'formats',
    llm: 'The model wants `to_json` above `total` and names both by content instead of resending either method.',
    engine:
      'The block `to_json` opens is moved verbatim before `def total(self):`; the blank line that separated it travels with it, so the class keeps one blank line between methods.',
    files: { 'inventory.py': inventoryPy },
    call: {
      tool: 'move_block',
      arguments: {
        path: 'inventory.py',
        start_content: 'def to_json(self):',
        brace_match: true,
        before_content: '    def total(self):',
      },
    },
    expect: {
      ok: true,
      matched_via: 'exact',
      files: {
        'inventory.py': L(
          'import json',
          '',
          '',
          'class Inventory:',
          '    def __init__(self, items):',
          '        self.items = items',
          '',
          '    def to_json(self):',
          '        return json.dumps([i.__dict__ for i in self.items])',
          '',
          '    def total(self):',
          '        result = 0',
          '        for item in self.items:',
          '            result += item.price * item.quantity',
          '        return result',
        ),
      },
    },
  },
];

/** The example shown when the page opens without a shared link. */
export const defaultExampleId = 'exact';

/** Headings of the gallery's groups, in order. */
export const groups = [
  ['basics', 'Works as sent'],
  ['recovered', 'Recovered'],
  ['refused', 'Refused, with the reason'],
  ['patches', 'Patches and batches'],
  ['formats', 'Lazy snippets and moves'],
];

/** The outcome the engine must show for `example`. */
export function expectedOutcome(example) {
  return example.expect;
}
