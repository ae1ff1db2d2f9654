//! `anchored-edit`: the engine on files under a root directory.
//!
//! `call` runs one tool call (JSON on stdin or `--request FILE`) and prints the result;
//! `mcp` serves every tool over MCP stdio; `tools` prints the tool schemas.

mod after_reply;
mod commit;
mod digest;
mod disk;
mod host;
mod jail;
mod journal;
mod mcp;
mod mcp_gate;
mod read_cache;
mod state;
mod step_times;
mod walk;

use anchored_edit::{CallOptions, Record, Session};
use disk::DiskFiles;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const HELP: &str = "\
anchored-edit — content-anchored edits for LLM coding agents

USAGE:
    anchored-edit call [--root DIR] [--request FILE] [--dry-run] [--stats FILE] [--state DIR]
    anchored-edit mcp  [--root DIR] [--stats FILE] [--profile NAME] [--tools A,B,C]
    anchored-edit tools [--profile NAME] [--tools A,B,C]
    anchored-edit --help | --version

COMMANDS:
    call    Read one tool call {\"tool\": NAME, \"arguments\": {...}} from stdin (or
            --request FILE), run it on the files under --root, print the result JSON,
            and write the changed files (all or none; a crash is undone by the next
            run; a file changed since it was read is refused) unless it is a dry run
            or was refused.
    mcp     Serve every tool over the Model Context Protocol on stdin/stdout, working
            on the files under --root. Refused edits are tool results with isError.
    tools   Print the tools' names, descriptions and JSON Schemas (as mcp lists them).

OPTIONS:
    --root DIR        Project root; paths in calls are relative to it, and nothing
                      outside it (absolute paths, `..`, symlinks leading out) is read
                      or written. Default: the current directory.
    --request FILE    Read the call from FILE instead of stdin.
    --dry-run         Compute and print the result and diff, write nothing.
    --stats FILE      Keep edit statistics in FILE (JSON lines, one record per call);
                      get_edit_stats and the repeated-failure advice use its history.
    --state DIR       (call) Keep the session between calls in DIR/session.json: the
                      versions handed out (an edit sent against an old version is
                      rebased onto the current text) and the applied calls (undo_edit).
                      Bounded (64 versions, 64 calls, 64 MB each); written atomically.
                      Without it each call is a fresh session with nothing to undo.
    --profile NAME    (mcp, tools) The tool set listed: full (default), minimal
                      (str_replace, apply_patch, read_lines, grep_project, compact), or
                      one harness's own tools, names and schemas: claude-code,
                      anthropic-text-editor, codex, cline, roo, aider, gemini, copilot.
                      Calls accept every tool and every harness's names whatever it is.
    --tools A,B,C     (mcp, tools) List exactly these tools (engine or harness names).

EXIT STATUS:
    0  the call succeeded (and its changes, if any, were written)
    1  the call was refused (nothing was written); the JSON says why
    2  usage error (bad command line, unreadable --request or --root)

TOOLS:
    str_replace, insert, delete_lines, create_file, get_document, read_lines,
    line_count, grep_file, get_edit_stats (and more: see `anchored-edit tools`).
    Other agents' tool names work too (Edit, MultiEdit, Write, Read, apply_diff,
    replace_in_file, write_to_file, replace, replace_string_in_file,
    str_replace_based_edit_tool, …; see `anchored-edit tools --profile NAME`).
    docs/tools.md documents every tool and argument, docs/errors.md every error kind.

EXAMPLE:
    echo '{\"tool\":\"str_replace\",\"arguments\":{\"path\":\"src/app.py\",
           \"old_str\":\"retries = 3\",\"new_str\":\"retries = 5\"}}' \\
      | anchored-edit call --root .
";

struct Options {
    root: PathBuf,
    request: Option<PathBuf>,
    dry_run: bool,
    stats: Option<PathBuf>,
    state: Option<PathBuf>,
    profile: String,
    tools: Vec<String>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(usage) => {
            eprintln!("anchored-edit: {usage}\nRun `anchored-edit --help` for usage.");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(command) = args.first() else {
        print!("{HELP}");
        return Ok(ExitCode::from(2));
    };
    match command.as_str() {
        "--help" | "-h" | "help" => {
            print!("{HELP}");
            Ok(ExitCode::SUCCESS)
        }
        "--version" | "-V" => {
            println!("anchored-edit {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        "tools" => {
            let options = parse_options(&args[1..], false)?;
            let schemas = anchored_edit::profile_schemas(&options.profile, &options.tools)?;
            println!(
                "{}",
                serde_json::to_string_pretty(&schemas).unwrap_or_default()
            );
            Ok(ExitCode::SUCCESS)
        }
        "call" => call(&parse_options(&args[1..], true)?),
        "mcp" => {
            let options = parse_options(&args[1..], false)?;
            let disk = DiskFiles::new(&options.root)
                .map_err(|e| format!("--root {}: {e}", options.root.display()))?
                .keep_reads();
            let session = new_session(&options)?;
            let tools = anchored_edit::profile_schemas(&options.profile, &options.tools)?;
            let server = mcp::EngineServer::new(disk, options.stats.clone(), session, &tools);
            mcp::serve(server)?;
            Ok(ExitCode::SUCCESS)
        }
        other => Err(format!("unknown command `{other}`")),
    }
}

fn parse_options(args: &[String], for_call: bool) -> Result<Options, String> {
    let mut options = Options {
        root: PathBuf::from("."),
        request: None,
        dry_run: false,
        stats: None,
        state: None,
        profile: "full".to_string(),
        tools: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag {
            "--root" => options.root = PathBuf::from(value("--root")?),
            "--stats" => options.stats = Some(PathBuf::from(value("--stats")?)),
            "--profile" if !for_call => options.profile = value("--profile")?,
            "--tools" if !for_call => {
                options.tools = value("--tools")?
                    .split(',')
                    .map(|t| t.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .collect();
            }
            "--state" if for_call => options.state = Some(PathBuf::from(value("--state")?)),
            "--request" if for_call => options.request = Some(PathBuf::from(value("--request")?)),
            "--dry-run" if for_call && inline.is_none() => options.dry_run = true,
            "--help" | "-h" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if !options.root.is_dir() {
        return Err(format!(
            "--root {} is not a directory",
            options.root.display()
        ));
    }
    Ok(options)
}

fn call(options: &Options) -> Result<ExitCode, String> {
    let bytes = read_request(options)?;
    let disk = DiskFiles::new(&options.root)
        .map_err(|e| format!("--root {}: {e}", options.root.display()))?;
    let mut session = new_session(options)?;
    match &options.state {
        Some(dir) => state::load(dir, &mut session)?,
        // The session ends with this call: keeping its texts would only cost memory.
        None => session.keep_history(false),
    }
    let call_options = CallOptions {
        dry_run: options.dry_run,
        ..CallOptions::default()
    };
    let mut result = match serde_json::from_slice::<Value>(&bytes) {
        Ok(request) => host::execute(&mut session, &disk, &request, &call_options),
        // The engine words the refusal (not UTF-8, truncated or malformed JSON).
        Err(_) => match std::str::from_utf8(&bytes) {
            Ok(text) => session.call_json_with(text, &disk, &call_options),
            Err(_) => session.call_bytes(&bytes, &disk),
        },
    };
    if let Some(path) = &options.stats {
        persist_stats(path, &mut session)?;
    }
    if let Some(dir) = &options.state {
        state::save(dir, &session)?;
    }
    // The new texts are written by now and never printed (`to_llm_json` leaves them
    // out): taken out first, so the JSON is built without a copy of each.
    let texts: Vec<String> = result
        .files
        .iter_mut()
        .flatten()
        .filter_map(|f| f.new_text.take())
        .collect();
    let out = serde_json::to_string_pretty(&result.to_llm_json()).unwrap_or_default();
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{out}");
    let _ = stdout.flush();
    exit_keeping(i32::from(!result.ok), texts)
}

/// Ends the process with `code` (stdout flushed by the caller) without freeing what is
/// left: the texts of a large file, freed page by page on return, cost milliseconds
/// the process's end does not. Nothing here needs a destructor: every file written is
/// synced and closed, the journal and `--state`/`--stats` files are closed.
fn exit_keeping<T>(code: i32, _unfreed: T) -> ! {
    std::process::exit(code)
}

/// The request's bytes, from `--request FILE` or stdin, as they are: decoding is the
/// engine's (bytes that are not UTF-8 get a JSON refusal, not a usage error).
fn read_request(options: &Options) -> Result<Vec<u8>, String> {
    match &options.request {
        Some(path) => std::fs::read(path)
            .map_err(|e| format!("cannot read --request {}: {e}", path.display())),
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read the request from stdin: {e}"))?;
            Ok(bytes)
        }
    }
}

/// A session whose one root is the canonical `--root` (so that an absolute path inside
/// it is accepted and any other refused, by the engine's path rule), with the
/// `--stats` history replayed.
fn new_session(options: &Options) -> Result<Session, String> {
    let root = options
        .root
        .canonicalize()
        .map_err(|e| format!("--root {}: {e}", options.root.display()))?;
    let mut session = Session::new();
    session.set_roots(vec![root_string(&root)]);
    if let Some(path) = &options.stats {
        for record in load_records(path) {
            session.replay(&record);
        }
    }
    Ok(session)
}

/// A canonical path as the engine's roots spell it: Windows' verbatim prefix (`\\?\`)
/// dropped, so that `C:\x` inside it matches.
fn root_string(root: &Path) -> String {
    let text = root.to_string_lossy();
    text.strip_prefix(r"\\?\").unwrap_or(&text).to_string()
}

/// Records of earlier calls; lines that do not parse are skipped.
fn load_records(path: &PathBuf) -> Vec<Record> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Brings the `--stats` file up to date after a call: emptied when the call reset the
/// statistics (so that the next run, replaying the file, starts from zero too), then
/// the call's record appended.
pub(crate) fn persist_stats(path: &PathBuf, session: &mut Session) -> Result<(), String> {
    if session.take_reset() {
        std::fs::write(path, "")
            .map_err(|e| format!("cannot reset --stats {}: {e}", path.display()))?;
    }
    match session.last_record() {
        Some(record) => append_record(path, record),
        None => Ok(()),
    }
}

fn append_record(path: &PathBuf, record: &Record) -> Result<(), String> {
    let line = serde_json::to_string(record).unwrap_or_default();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open --stats {}: {e}", path.display()))?;
    writeln!(f, "{line}").map_err(|e| format!("cannot write --stats {}: {e}", path.display()))
}
