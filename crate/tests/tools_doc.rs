//! `docs/tools.md` is generated from `tool_schemas()`, the schemas every host publishes.
//!
//! The generator lives here, in the test that checks it, so the reference cannot drift
//! from the schemas: a tool, parameter, description or annotation changed without
//! regenerating the file fails this test. Regenerate with
//! `UPDATE_DOCS=1 cargo test -p anchored-edit --test tools_doc`.

use anchored_edit::tool_schemas;
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
