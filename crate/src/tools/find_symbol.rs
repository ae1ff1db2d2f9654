//! `find_symbol`: where a function, method or type is defined across the project.
//!
//! Definitions come from the block engine's outline (the same one `file_summary`
//! shows), so a name inside a string or a comment is never a definition. Only files
//! containing the bare name are analysed.

use super::project::{definitions, scope, Definition, FOLDER, GLOB};
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::blocks::split_query;
use crate::error::{EditError, EditResult};
use crate::text::words::plural;
use serde_json::{Map, Value};

pub static SPEC: ToolSpec = ToolSpec {
    name: "find_symbol",
    description: "Find where a function, method, class, struct, trait, interface... is \
defined across the project (from each file's outline, not a text search). Returns \
definitions [{path, name, kind, start_line, end_line}] (1-based, inclusive). name may be \
qualified (\"Pool.connect\"); kind narrows (\"function\", \"method\", \"class\", \"struct\", \
...). Then edit with replace_function_body {path, function_name}. \
Example: {\"name\": \"connect\", \"kind\": \"method\"}",
    params: &[
        Param {
            name: "name",
            aliases: &["symbol", "symbol_name", "function_name", "query"],
            ty: ParamType::String,
            required: true,
            description: "The name as defined (`connect`), or qualified (`Pool.connect`, `Pool::connect`).",
        },
        Param {
            name: "kind",
            aliases: &["type", "symbol_kind"],
            ty: ParamType::String,
            required: false,
            description: "Only definitions of this kind: function, method, class, struct, enum, interface, trait, impl, module, object, record, union, macro, rule, key.",
        },
        GLOB,
        FOLDER,
    ],
    annotations: Annotations {
        title: "Find a definition",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

/// The kinds `kind` accepts (`blocks::Kind::as_str` of each).
const KINDS: [&str; 15] = [
    "function",
    "method",
    "class",
    "struct",
    "enum",
    "interface",
    "trait",
    "impl",
    "module",
    "object",
    "record",
    "union",
    "macro",
    "rule",
    "key",
];

typed_args! {
    /// find_symbol's arguments, one field per parameter of [`SPEC`].
    pub struct FindSymbolArgs<'a> {
        name: &'a str,
        kind: Option<&'a str>,
        glob: Option<&'a str>,
        path: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = FindSymbolArgs::from_args(args);
    let name = a.name.trim();
    let (qualifier, bare) = split_query(name);
    if bare.is_empty() {
        return Err(EditError::invalid(
            "`name` is empty. Send the name of the function, method or type, e.g. \"connect\" or \"Pool.connect\".",
        ));
    }
    let kind = a.kind.map(|k| k.trim().to_ascii_lowercase());
    if let Some(k) = kind.as_deref().filter(|k| !KINDS.contains(k)) {
        return Err(EditError::invalid(format!(
            "kind `{k}` is not a kind of definition. Send one of: {}, or leave kind out.",
            KINDS.join(", ")
        )));
    }
    let paths = scope(ctx, SPEC.name, a.path, a.glob)?.paths;
    let found: Vec<Definition> = definitions(ctx, &paths, name, &|a| {
        a.outline()
            .into_iter()
            .filter(|s| s.name == bare)
            .filter(|s| {
                qualifier
                    .as_deref()
                    .is_none_or(|q| s.container.as_deref() == Some(q))
            })
            .filter(|s| kind.as_deref().is_none_or(|k| s.kind.as_str() == k))
            .collect()
    });
    let n = found.len();
    let message = match n {
        0 => format!(
            "No definition of `{name}`{} in the {} file{} listed.",
            kind.as_deref()
                .map(|k| format!(" ({k})"))
                .unwrap_or_default(),
            paths.len(),
            plural(paths.len())
        ),
        _ => format!("{n} definition{} of `{name}`.", plural(n)),
    };
    let mut extra = Map::new();
    extra.insert(
        "definitions".into(),
        Value::Array(found.iter().map(Definition::to_json).collect()),
    );
    Ok(Outcome::Found {
        message,
        content: None,
        extra,
    })
}
