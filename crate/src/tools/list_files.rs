//! `list_files`: the project's files, sorted, with the host's ignore rules applied.

use super::project::{scope, FOLDER, GLOB};
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::EditResult;
use crate::text::words::plural;
use serde_json::{Map, Value};

pub static SPEC: ToolSpec = ToolSpec {
    name: "list_files",
    description: "List the project's files: paths (sorted, relative to the root), without \
hidden files and those ignored by .gitignore / .ignore, with total and truncated. Narrow \
with path (a folder) and glob. Example: {\"path\": \"src\", \"glob\": \"*.rs\"}",
    params: &[
        FOLDER,
        GLOB,
        Param {
            name: "max_results",
            aliases: &["limit", "max_count"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "List at most this many paths (default 1000).",
        },
    ],
    annotations: Annotations {
        title: "List project files",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

const DEFAULT_MAX: usize = 1000;

typed_args! {
    /// list_files' arguments, one field per parameter of [`SPEC`].
    pub struct ListFilesArgs<'a> {
        path: Option<&'a str>,
        glob: Option<&'a str>,
        max_results: Option<usize>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = ListFilesArgs::from_args(args);
    let mut paths = scope(ctx, SPEC.name, a.path, a.glob)?.paths;
    let max = a.max_results.unwrap_or(DEFAULT_MAX);
    let total = paths.len();
    let truncated = total > max;
    paths.truncate(max);
    let mut message = format!("{total} file{}", plural(total));
    if truncated {
        message.push_str(&format!(", the first {max} listed"));
        ctx.warnings.push(format!(
            "Only the first {max} of {total} paths are listed; raise max_results or narrow with path or glob."
        ));
    }
    message.push('.');
    let mut extra = Map::new();
    extra.insert(
        "paths".into(),
        Value::Array(paths.into_iter().map(Value::String).collect()),
    );
    extra.insert("total".into(), Value::from(total));
    extra.insert("truncated".into(), Value::Bool(truncated));
    Ok(Outcome::Found {
        message,
        content: None,
        extra,
    })
}
