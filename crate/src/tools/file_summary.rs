//! `file_summary`: the outline of a file — functions, methods, classes, structs,
//! impls, traits, interfaces… with 1-based line ranges — and its line count.

use super::params::*;
use super::{Ctx, Outcome, Reading};
use crate::args::{Annotations, Args, ToolSpec};
use crate::blocks::Analysis;
use crate::error::EditResult;
use crate::text::version_of;
use serde_json::{json, Map, Value};

pub static SPEC: ToolSpec = ToolSpec {
    name: "file_summary",
    description: "Outline a file without reading it all: its functions, methods, classes, \
structs, impls, traits and interfaces as symbols [{name, kind, start_line, end_line}] \
(1-based, inclusive; methods named Type.method), plus line_count and version. Use the \
names with replace_function_body or function_hint, and the lines with read_lines. \
Example: {\"path\": \"src/server.ts\"}",
    params: &[PATH, ENCODING],
    annotations: Annotations {
        title: "Outline a file",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = Analysis::new(&text, &path);
    ctx.warnings.extend(a.warning(&path));
    let symbols = a.outline();
    let n = text.line_count();
    let list: Vec<Value> = symbols
        .iter()
        .map(|s| {
            json!({
                "name": s.qualified(),
                "kind": s.kind.as_str(),
                "start_line": s.start_line + 1,
                "end_line": s.end_line + 1,
            })
        })
        .collect();
    let mut extra = Map::new();
    extra.insert("language".into(), json!(a.lang.name()));
    extra.insert("symbols".into(), Value::Array(list));
    Ok(Outcome::Read(Reading {
        message: Some(format!(
            "{path}: {}, {} ({}).",
            crate::text::words::counted(n, "line"),
            crate::text::words::counted(symbols.len(), "symbol"),
            a.lang.name()
        )),
        path,
        content: String::new(),
        start_line: 1,
        end_line: n,
        line_count: Some(n),
        version: version_of(&src),
        extra,
    }))
}
