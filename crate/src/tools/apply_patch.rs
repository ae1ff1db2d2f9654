//! `apply_patch`: a V4A patch (Codex's format) or a unified diff, over one or more
//! files, all or nothing. The grammar, the hunk search and the application live in
//! [`crate::patch`]; this module only connects them to a call.

use super::params::*;
use super::{check_versions, Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::patch::{apply, blocks, grammar};

pub static SPEC: ToolSpec = ToolSpec {
    name: "apply_patch",
    description: "Apply a patch to one or more files, all or nothing. Accepts a V4A patch \
(`*** Begin Patch`, then `*** Add File: <path>` with `+` lines, `*** Delete File: <path>`, or \
`*** Update File: <path>` (optionally `*** Move to: <new path>`) with hunks: `@@ <a line above \
the change>` then lines starting with ' ' (unchanged), '-' (removed), '+' (added); then \
`*** End Patch`) or a unified diff (`--- a/<path>` / `+++ b/<path>` / `@@ -l,n +l,n @@`). Hunks \
are found by their content, not line numbers; paths are inside the patch. \
Example: {\"patch\": \"*** Begin Patch\\n*** Update File: src/app.py\\n@@ def main():\\n-    retries = 3\\n+    retries = 5\\n*** End Patch\"}",
    params: &[
        Param {
            name: "patch",
            aliases: &["input", "diff", "patch_text", "patch_content"],
            ty: ParamType::String,
            required: true,
            description: "The whole patch: a V4A envelope from `*** Begin Patch` to `*** End Patch`, or a unified diff.",
        },
        Param {
            name: "path",
            aliases: &["file_path", "filepath", "file", "target_file"],
            ty: ParamType::String,
            required: false,
            description: "SEARCH/REPLACE blocks only: the file they edit (file-name lines are then ignored).",
        },
        ALLOW_PLACEHOLDERS,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSIONS,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Apply a patch",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

typed_args! {
    /// apply_patch's arguments, one field per parameter of [`SPEC`].
    pub struct ApplyPatchArgs<'a> {
        patch: &'a str,
        path: Option<&'a str>,
        allow_placeholders: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_versions: Option<&'a serde_json::Value>,
        encoding: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = ApplyPatchArgs::from_args(args);
    let (patch, unwrapped) = unwrap_json(a.patch);
    if let Some(key) = unwrapped {
        ctx.warnings.push(format!(
            "The patch came wrapped in a JSON object; its `{key}` string was applied. Send the patch text alone next time."
        ));
    }
    if blocks::detect(&patch) {
        return search_replace_blocks(ctx, args, a.path, &patch);
    }
    let parsed = grammar::parse(&patch)?;
    check_versions(ctx, args)?;
    ctx.warnings.extend(parsed.warnings);
    let applied = apply::apply(&mut ctx.ws, &parsed.patch, a.allow_placeholders)?;
    if ctx.ws.changes().is_empty() {
        return Err(EditError::new(
            ErrorKind::NoChange,
            "The patch applies but changes nothing (its hunks have no '-' or '+' lines, or put back the same text). Nothing was changed.",
        ));
    }
    ctx.warnings.extend(applied.notes.iter().cloned());
    ctx.matched_via = applied.matched_via().map(crate::locate::MatchedVia::Level);
    Ok(Outcome::Edited {
        message: applied.message(),
    })
}

/// A patch sent as the JSON object of another tool's call (`{"input": "*** Begin Patch…"}`,
/// `{"patch": …}`): the string inside, and the key it was under. Anything else is
/// returned as is (a patch never starts with `{`).
fn unwrap_json(text: &str) -> (std::borrow::Cow<'_, str>, Option<&'static str>) {
    let trimmed = text.trim();
    if trimmed.starts_with('{') {
        if let Ok(serde_json::Value::Object(o)) = serde_json::from_str(trimmed) {
            for key in ["input", "patch"] {
                if let Some(inner) = o.get(key).and_then(serde_json::Value::as_str) {
                    return (inner.to_string().into(), Some(key));
                }
            }
        }
    }
    (text.into(), None)
}

/// SEARCH/REPLACE blocks (Roo, Cline, aider) sent as the patch: applied through
/// [`super::search_replace`], with a warning naming the format when the call came as a
/// patch (no `path`: the dialects' block tools send one).
fn search_replace_blocks(
    ctx: &mut Ctx,
    args: &Args,
    path: Option<&str>,
    text: &str,
) -> EditResult<Outcome> {
    let parsed = blocks::parse(text)?;
    check_versions(ctx, args)?;
    if path.is_none() {
        ctx.warnings.push(format!(
            "The patch was read as SEARCH/REPLACE blocks ({} format) and applied block by block, unique matches only.",
            parsed.format
        ));
    }
    super::search_replace::apply(ctx, &parsed, path)
}
