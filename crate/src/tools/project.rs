//! What the project tools share: which files a call covers, reading them one at a time,
//! and finding the one file that defines a symbol.
//!
//! Design decisions:
//! - The host lists ([`crate::Files::list`], ignore rules applied by the host); the
//!   engine keeps only paths under the asked folder, applies `glob`, and sorts, so the
//!   order and the filter are the same in every host.
//! - Files are read one at a time through the workspace's one read path
//!   ([`crate::workspace::Workspace::peek`]) and dropped after use: memory stays bounded
//!   by the largest file, not the project. A file that cannot be read, or whose text
//!   holds a NUL byte (binary), is skipped and counted, never fatal.
//! - A call without `path` reaches a file only through a symbol's definition
//!   ([`file_of_symbol`]): one file defines it → that file, with a warning saying so;
//!   several → `ambiguous` listing them; none → `no_match`. Never a guess.

use super::Ctx;
use crate::args::{Param, ParamType};
use crate::blocks::{split_query, Analysis, Symbol};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::listing::{is_under, Glob};
use crate::text::Text;
use serde_json::{json, Value};
use std::sync::Arc;

/// `path` of the project tools: a folder, optional.
pub const FOLDER: Param = Param {
    name: "path",
    aliases: &["folder", "dir", "directory"],
    ty: ParamType::String,
    required: false,
    description:
        "Only files under this folder, relative to the project root (default: the whole project).",
};

/// `glob` of the project tools.
pub const GLOB: Param = Param {
    name: "glob",
    aliases: &["include", "file_pattern", "file_glob"],
    ty: ParamType::String,
    required: false,
    description: "Only files matching this glob: without `/` it matches file names at any depth (`*.rs`, `*.{ts,tsx}`); with `/` the path from the root (`src/**/*.rs`).",
};

/// The files a call covers and what was skipped while reading them.
pub struct Scope {
    /// Sorted, root-relative.
    pub paths: Vec<String>,
}

/// The refusal of a host that cannot list files.
pub fn cannot_list(tool: &str) -> EditError {
    EditError::invalid(format!(
        "This host cannot list files, so {tool} cannot search the project. Name the file instead: grep_file {{path, pattern}} to search one file, file_summary {{path}} for its outline, str_replace {{path, old_str, new_str}} to edit it."
    ))
}

/// The folder named by `path` ("" = the root), normalised by the one path rule.
fn folder_arg(ctx: &Ctx, raw: Option<&str>) -> EditResult<String> {
    let trimmed = raw.unwrap_or("").trim().trim_end_matches(['/', '\\']);
    if trimmed.is_empty() || trimmed == "." {
        return Ok(String::new());
    }
    ctx.ws.path(trimmed)
}

/// The files under the call's `path` matching its `glob`, sorted.
pub fn scope(
    ctx: &mut Ctx,
    tool: &str,
    raw_folder: Option<&str>,
    glob: Option<&str>,
) -> EditResult<Scope> {
    scope_or(ctx, raw_folder, glob, || cannot_list(tool))
}

/// [`scope`], refusing with `cannot_list()` when the host cannot list files.
fn scope_or(
    ctx: &mut Ctx,
    raw_folder: Option<&str>,
    glob: Option<&str>,
    cannot_list: impl FnOnce() -> EditError,
) -> EditResult<Scope> {
    let folder = folder_arg(ctx, raw_folder)?;
    let glob = match glob.map(str::trim).filter(|g| !g.is_empty()) {
        Some(g) => Some(Glob::new(g).map_err(|e| {
            EditError::invalid(format!(
                "glob `{g}` is not a valid glob: {e}. Send e.g. \"*.rs\" or \"src/**/*.ts\"."
            ))
        })?),
        None => None,
    };
    let Some(mut paths) = ctx.ws.list(&folder)? else {
        return Err(cannot_list());
    };
    let skipped = ctx.ws.take_list_warnings();
    ctx.warnings.extend(skipped);
    paths.retain(|p| is_under(p, &folder));
    if paths.is_empty() && !folder.is_empty() {
        return Err(EditError::invalid(format!(
            "No file under `{folder}`: it is not a folder of the project, or holds only hidden or ignored files. Send path: a folder from list_files, or leave it out for the whole project."
        )));
    }
    paths.retain(|p| glob.as_ref().is_none_or(|g| g.is_match(p)));
    paths.sort_unstable();
    paths.dedup();
    Ok(Scope { paths })
}

/// The text of `path` for a search, or None when it is skipped (absent, unreadable,
/// binary). Not kept in the workspace.
pub fn searchable_text(ctx: &Ctx, path: &str) -> Option<Arc<String>> {
    let text = ctx.ws.peek(path).ok().flatten()?;
    if memchr::memchr(0, text.as_bytes()).is_some() {
        return None;
    }
    Some(text)
}

/// One definition found across the project.
pub struct Definition {
    pub path: String,
    pub symbol: Symbol,
}

impl Definition {
    pub fn to_json(&self) -> Value {
        json!({
            "path": self.path,
            "name": self.symbol.qualified(),
            "kind": self.symbol.kind.as_str(),
            "start_line": self.symbol.start_line + 1,
            "end_line": self.symbol.end_line + 1,
        })
    }
}

/// Every definition in `paths` that `select` picks from a file's analysis. Files that
/// do not contain the bare name are not analysed.
pub fn definitions(
    ctx: &Ctx,
    paths: &[String],
    name: &str,
    select: &dyn Fn(&Analysis) -> Vec<Symbol>,
) -> Vec<Definition> {
    let (_, bare) = split_query(name);
    let finder = memchr::memmem::Finder::new(bare.as_bytes());
    let mut out = Vec::new();
    for path in paths {
        let Some(src) = searchable_text(ctx, path) else {
            continue;
        };
        if bare.is_empty() || finder.find(src.as_bytes()).is_none() {
            continue;
        }
        let text = Text::new(&src);
        let a = Analysis::new(&text, path);
        out.extend(select(&a).into_iter().map(|symbol| Definition {
            path: path.clone(),
            symbol,
        }));
    }
    out
}

/// The one file defining `name` (a function or method, as `function_hint` and
/// `function_name` name them), for a call that gave no `path`. `arg` names the
/// argument that carried the name, for the messages.
pub fn file_of_symbol(ctx: &mut Ctx, tool: &str, name: &str, arg: &str) -> EditResult<String> {
    let scope = scope_or(ctx, None, None, || {
        EditError::invalid(format!(
            "`path` is missing, and this host cannot list files to find `{name}` with find_symbol ({tool}). Send path: the file that defines {name}."
        ))
    })?;
    let found = definitions(ctx, &scope.paths, name, &|a| a.find_functions(name));
    let mut files: Vec<&str> = found.iter().map(|d| d.path.as_str()).collect();
    files.dedup();
    let listed = || Value::Array(found.iter().map(Definition::to_json).collect());
    match files.as_slice() {
        [] => Err(EditError::new(
            ErrorKind::NoMatch,
            format!(
                "`path` is missing and no file in the project defines `{name}` ({arg}). Send path: the file to edit; find_symbol {{name: \"{name}\"}} lists definitions by name."
            ),
        )),
        [one] => {
            let path = one.to_string();
            ctx.warnings.push(format!(
                "No path given: {path} is the only file that defines `{name}` (found with find_symbol), so the call used it."
            ));
            Ok(path)
        }
        many => Err(EditError::new(
            ErrorKind::Ambiguous,
            format!(
                "`path` is missing and {} files define `{name}`: {}. Send path: the file you mean (the definitions are in diagnostics.definitions).",
                many.len(),
                many.join(", ")
            ),
        )
        .with_diagnostics(json!({"definitions": listed()}))),
    }
}
