//! `docs/tools.md` is generated from `tool_schemas()`, the schemas every host publishes.
//!
//! The generator lives here, in the test that checks it, so the reference cannot drift
//! from the schemas: a tool, parameter, description or annotation changed without
//! regenerating the file fails this test. Regenerate with
//! `UPDATE_DOCS=1 cargo test -p anchored-edit --test tools_doc`.

use anchored_edit::{profile_schemas, tool_schemas};
use serde_json::Value;
use std::fmt::Write;

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/tools.md");
const REGENERATE: &str = "UPDATE_DOCS=1 cargo test -p anchored-edit --test tools_doc";

#[test]
fn tools_doc_is_generated_from_the_schemas() {
    let generated = render(&tool_schemas());
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(DOC, &generated).expect("write docs/tools.md");
        return;
    }
    let on_disk = std::fs::read_to_string(DOC).unwrap_or_default();
    if on_disk != generated {
        let first = on_disk
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| on_disk.lines().count().min(generated.lines().count()));
        panic!(
            "docs/tools.md differs from what tool_schemas() generates (first at line {}: \
             file has {:?}, generator gives {:?}). Regenerate it with `{REGENERATE}` and \
             commit the result.",
            first + 1,
            on_disk.lines().nth(first).unwrap_or("<end of file>"),
            generated.lines().nth(first).unwrap_or("<end of file>"),
        );
    }
}

/// The whole Markdown file.
fn render(schemas: &Value) -> String {
    let tools = schemas.as_array().expect("tool_schemas() is a list");
    let mut out = String::new();
    out.push_str(HEADER);
    out.push_str("| tool | title | edits files | destructive | idempotent |\n");
    out.push_str("|---|---|---|---|---|\n");
    for tool in tools {
        let name = str_of(&tool["name"]);
        let hints = &tool["annotations"];
        let _ = writeln!(
            out,
            "| [`{name}`](#{name}) | {} | {} | {} | {} |",
            cell(str_of(&hints["title"])),
            yes_no(hints["readOnlyHint"].as_bool().map(|read_only| !read_only)),
            yes_no(hints["destructiveHint"].as_bool()),
            yes_no(hints["idempotentHint"].as_bool()),
        );
    }
    out.push('\n');
    for tool in tools {
        render_tool(&mut out, tool);
    }
    render_profiles(&mut out);
    render_dialects(&mut out);
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

const HEADER: &str = "\
# Tools

<!-- Generated from tool_schemas() by crate/tests/tools_doc.rs. Do not edit by hand:
     UPDATE_DOCS=1 cargo test -p anchored-edit --test tools_doc -->

Every tool the engine serves, as `tool_schemas()` publishes it to MCP clients (and
`anchored-edit tools` prints it). A call is `{\"tool\": NAME, \"arguments\": {...}}`.
Argument names are snake_case; camelCase spellings and the common aliases of other
agents' tools are accepted too (`old_string`, `file_path`, …), and an unknown argument
is refused naming the closest valid one. Lines are 1-based.

The columns come from each tool's MCP annotations: *edits files* is
`!readOnlyHint` (hosts read it from there), *destructive* is `destructiveHint`,
*idempotent* is `idempotentHint`; `openWorldHint` is false for every tool.
What each tool does beyond its schema: [text-tools.md](text-tools.md),
[blocks.md](blocks.md), [patches.md](patches.md); the recovery cascade:
[recovery.md](recovery.md); refusals: [errors.md](errors.md).

";

fn render_tool(out: &mut String, tool: &Value) {
    let name = str_of(&tool["name"]);
    let hints = &tool["annotations"];
    let _ = writeln!(out, "## {name}\n");
    let _ = writeln!(out, "**{}**\n", str_of(&hints["title"]));
    if let Some(hints) = hints.as_object() {
        let list: Vec<String> = hints
            .iter()
            .filter(|(k, _)| k.as_str() != "title")
            .map(|(k, v)| format!("`{k}: {v}`"))
            .collect();
        let _ = writeln!(out, "Annotations: {}.\n", list.join(", "));
    }
    let _ = writeln!(out, "{}\n", str_of(&tool["description"]));
    let schema = &tool["inputSchema"];
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let Some(properties) = schema["properties"].as_object().filter(|p| !p.is_empty()) else {
        out.push_str("No parameters.\n\n");
        return;
    };
    out.push_str("| parameter | type | required | description |\n");
    out.push_str("|---|---|---|---|\n");
    for (param, prop) in properties {
        let _ = writeln!(
            out,
            "| `{param}` | {} | {} | {} |",
            type_of(prop),
            if required.contains(&param.as_str()) {
                "yes"
            } else {
                ""
            },
            cell(str_of(&prop["description"])),
        );
    }
    out.push('\n');
}

/// The profiles: `anchored-edit mcp --profile NAME`, their tools and their size.
const PROFILES: &[&str] = &[
    "full",
    "minimal",
    "claude-code",
    "anthropic-text-editor",
    "codex",
    "cline",
    "roo",
    "aider",
    "gemini",
    "copilot",
];

/// Budgets of issue 26, in tokens (characters of the `tools/list` result / 4).
const BUDGETS: &[(&str, usize)] = &[("full", 6000), ("minimal", 1500)];

/// A profile's `tools/list` size in tokens: the characters of `{"tools": [...]}` / 4.
fn tokens(profile: &str) -> usize {
    let tools = profile_schemas(profile, &[]).expect("a known profile");
    serde_json::json!({ "tools": tools })
        .to_string()
        .chars()
        .count()
        / 4
}

#[test]
fn profiles_meet_their_token_budgets() {
    for (profile, budget) in BUDGETS {
        let n = tokens(profile);
        assert!(n <= *budget, "{profile}: {n} tokens, budget {budget}");
    }
    for profile in PROFILES {
        assert!(tokens(profile) > 0, "{profile}");
    }
    assert!(profile_schemas("nope", &[]).is_err());
    assert!(profile_schemas("full", &["Edit".to_string(), "nope".to_string()]).is_err());
    let picked = profile_schemas("full", &["str_replace".into(), "Edit".into()]).unwrap();
    let names: Vec<&str> = picked
        .as_array()
        .unwrap()
        .iter()
        .map(|t| str_of(&t["name"]))
        .collect();
    assert_eq!(names, ["str_replace", "Edit"]);
}

fn render_profiles(out: &mut String) {
    out.push_str(PROFILES_HEADER);
    out.push_str("| profile | tools | tokens |\n|---|---|---|\n");
    for profile in PROFILES {
        let tools = profile_schemas(profile, &[]).expect("a known profile");
        let names: Vec<String> = tools
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| format!("`{}`", str_of(&t["name"])))
            .collect();
        let list = if *profile == "full" {
            format!("all {} tools above", names.len())
        } else {
            names.join(", ")
        };
        let _ = writeln!(out, "| `{profile}` | {list} | {} |", tokens(profile));
    }
    out.push('\n');
}

const PROFILES_HEADER: &str = "\
## Profiles

`anchored-edit mcp --profile NAME` (the npm package's `anchored-edit mcp` too, and the
editors' MCP settings) lists one tool set; `--tools a,b,c` lists exactly those tools
(engine or harness names). Whatever is listed, a call may name any tool and any
harness's tool. The listing gives each tool a summary and its main arguments; the
arguments it leaves out (`encoding`, `allow_unbalanced`, `allow_placeholders`, `strict`,
`expected_versions`) are still accepted, and the refusals that need one name it.
Tokens: the characters of the `tools/list` result (`{\"tools\": [...]}`) / 4, checked by
`crate/tests/tools_doc.rs` (budgets: `full` ≤ 6 000, `minimal` ≤ 1 500).

";

/// One section per harness: its tools, what runs them, and a corpus case as example.
fn render_dialects(out: &mut String) {
    out.push_str(DIALECTS_HEADER);
    for (file, title, profile) in DIALECTS {
        let _ = writeln!(out, "### {title}\n");
        let _ = writeln!(out, "Profile `{profile}`: {}.\n", dialect_tools(profile));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/dialects/").to_string();
        let text = std::fs::read_to_string(format!("{path}{file}.json")).expect("dialect cases");
        let cases: Value = serde_json::from_str(&text).expect("dialect cases JSON");
        let case = &cases[0];
        let call = serde_json::to_string_pretty(&case["call"]).unwrap_or_default();
        let _ = writeln!(
            out,
            "Example (`tests/corpus/dialects/{file}.json`, {}): {}\n\n```json\n{call}\n```\n",
            str_of(&case["name"]),
            str_of(&case["description"])
        );
    }
}

fn dialect_tools(profile: &str) -> String {
    let tools = profile_schemas(profile, &[]).expect("a known profile");
    let names: Vec<String> = tools
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            let args: Vec<&str> = t["inputSchema"]["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k.as_str())
                .collect();
            format!("`{}` ({})", str_of(&t["name"]), args.join(", "))
        })
        .collect();
    names.join("; ")
}

const DIALECTS: &[(&str, &str, &str)] = &[
    (
        "anthropic",
        "Anthropic text editor",
        "anthropic-text-editor",
    ),
    ("claude-code", "Claude Code", "claude-code"),
    ("cline", "Cline", "cline"),
    ("roo", "Roo Code", "roo"),
    ("aider", "aider", "aider"),
    ("gemini", "gemini-cli", "gemini"),
    ("copilot", "GitHub Copilot (VS Code)", "copilot"),
    ("codex", "Codex", "codex"),
];

const DIALECTS_HEADER: &str = "\
## Dialects

Other agents' edit tools, under their own names and argument shapes
(`crate/src/tools/dialects.rs`), run as the engine's tools: the same unique-only
matching, recovery and refusals. `call` accepts every harness's tool names without a
profile; a result's `tool` is the engine tool that ran (hosts read whether it edits from
there). SEARCH/REPLACE blocks (Roo's `<<<<<<< SEARCH` with `:start_line:` /
`:end_line:` and `-------`, Cline's `------- SEARCH` / `+++++++ REPLACE`, aider's blocks
under a file name line and a code fence) are read by `crate/src/patch/blocks.rs`; sent
to `apply_patch` they are applied too, with a warning naming the format. What each
harness's options mean here:

- Anthropic: `view` answers numbered lines (`cat -n`), `view_range: [start, end]`
  (`-1`: to the end) pages; `create` overwrites; `insert` inserts after `insert_line`
  (`new_str` or `insert_text`); `undo_edit` takes back the session's last applied call.
- Claude Code: absolute paths inside the root are accepted; `Read` numbers lines.
- Roo: `:start_line:` is a line hint (it picks among equal matches); `:end_line:` must
  agree with it and the SEARCH's line count; `write_to_file`'s `line_count` larger than
  the content's lines is refused as cut off.
- Cline, aider: an empty SEARCH writes a whole file only where it is missing or empty;
  on a file with text it is refused, naming `write_to_file`.
- gemini-cli: `instruction` is recorded; `allow_multiple` is `replace_all`;
  `read_file`'s `offset` is 0-based.
- Copilot: `insert_edit_into_file` is a lazy snippet (`edit_file`).
- A block's SEARCH and REPLACE are whole lines, applied as a patch hunk: found by
  content on whole lines, exactly once (whitespace, quote and line-number-prefix slips
  recovered); a block with no REPLACE lines removes its SEARCH lines with their line
  breaks. Similarity matches and first-of-several matches, which some peers accept, are
  refused (`tests/dialects/peers.json`: the peers' own test inputs, run by
  `crate/tests/dialect_peers.rs`).

";

/// A parameter's JSON Schema type in words: `integer ≥ 1`, `object {start, end}`, …
fn type_of(prop: &Value) -> String {
    let types: Vec<&str> = match &prop["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let mut words = types.join(" or ");
    if let Some(min) = prop["minimum"].as_i64() {
        let _ = write!(words, " ≥ {min}");
    }
    if let Some(fields) = prop["properties"].as_object() {
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        let _ = write!(words, " {{{}}}", names.join(", "));
    }
    if let Some(item) = prop["items"]["type"].as_str() {
        let _ = write!(words, " (items: {item})");
    }
    words
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// Text safe inside one Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn yes_no(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "yes",
        Some(false) => "no",
        None => "",
    }
}
