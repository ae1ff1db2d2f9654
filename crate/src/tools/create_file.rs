//! `create_file`: write a whole file (a new one, or an existing one with `overwrite`).

use super::params::*;
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::guard;
use crate::text::count_lines;

pub static SPEC: ToolSpec = ToolSpec {
    name: "create_file",
    description: "Create a file with the given content. Refuses to replace an existing file \
unless overwrite is true (to change part of a file, use str_replace or apply_patch). \
Example: {\"path\": \"src/util.py\", \"content\": \"def helper():\\n    return 1\\n\"}",
    params: &[
        PATH,
        Param {
            name: "content",
            aliases: &["file_text", "contents", "text", "new_str"],
            ty: ParamType::String,
            required: true,
            description: "The whole text of the file, written exactly as given.",
        },
        Param {
            name: "overwrite",
            aliases: &["force", "replace"],
            ty: ParamType::Boolean,
            required: false,
            description: "Replace the file if it exists.",
        },
        ALLOW_PLACEHOLDERS,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Create a file",
        read_only: false,
        destructive: true,
        idempotent: true,
    },
};

typed_args! {
    /// create_file's arguments, one field per parameter of [`SPEC`].
    pub struct CreateFileArgs<'a> {
        path: &'a str,
        content: &'a str,
        overwrite: bool,
        allow_placeholders: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_version: Option<&'a str>,
        encoding: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = CreateFileArgs::from_args(args);
    let path = ctx.ws.path(a.path)?;
    let content = a.content;
    let existing = ctx.ws.try_read(&path)?;
    if let Some(old) = &existing {
        if let Some(expected) = a.expected_version {
            ctx.check_version(&path, old, expected)?;
        }
        if !a.overwrite {
            return Err(EditError::new(
                ErrorKind::FileExists,
                format!(
                    "{path} already exists ({}). To change part of it use str_replace or apply_patch; to replace it whole send create_file again with overwrite: true.",
                    crate::text::words::counted(count_lines(old), "line")
                ),
            ));
        }
        if old.as_ref() == content {
            return Err(EditError::new(
                ErrorKind::NoChange,
                format!("{path} already has exactly this content. Nothing was changed."),
            ));
        }
    }
    // Lines the file already has (a literal `...` in a doc, say) are not placeholders.
    guard::check(
        content,
        "content",
        existing
            .as_deref()
            .map(|old| ("the existing file", old.as_str())),
        a.allow_placeholders,
    )?;
    let lines = count_lines(content);
    let message = match &existing {
        Some(old) => format!(
            "Overwrote {path}: {} (it had {}).",
            crate::text::words::counted(lines, "line"),
            count_lines(old)
        ),
        None => format!(
            "Created {path} ({}).",
            crate::text::words::counted(lines, "line")
        ),
    };
    // One change: an insertion into the empty text, or the whole old text replaced.
    let whole = 0..existing.as_deref().map_or(0, String::len);
    ctx.ws.splice(&path, vec![(whole, content.to_string())])?;
    Ok(Outcome::Edited { message })
}
