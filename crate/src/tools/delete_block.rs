//! `delete_block`: delete whole lines from a start anchor to an end anchor (inclusive)
//! or to the end of the block the start line opens. Blank lines around stay.

use super::params::*;
use super::region::{replace_lines, start_end_region, BRACE_MATCH, END_CONTENT, START_CONTENT};
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, ToolSpec};
use crate::blocks::Analysis;
use crate::error::EditResult;
use crate::text::words::lines_label;

pub static SPEC: ToolSpec = ToolSpec {
    name: "delete_block",
    description:
        "Delete whole lines by content: from the line containing start_content through \
the line containing end_content (inclusive, the first one at or after the start), or with \
brace_match: true through the end of the block the start line opens (matching bracket, or \
last more-indented line in Python/YAML). Blank lines around the block stay. \
Example: {\"path\": \"src/app.rs\", \"start_content\": \"fn legacy_parse(\", \"brace_match\": true}",
    params: &[
        PATH_OR_SYMBOL,
        START_CONTENT,
        END_CONTENT,
        BRACE_MATCH,
        OCCURRENCE,
        FUNCTION_HINT,
        STRICT,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Delete a block",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

typed_args! {
    /// delete_block's arguments, one field per parameter of [`SPEC`].
    pub struct DeleteBlockArgs<'a> {
        path: Option<&'a str>,
        start_content: &'a str,
        end_content: Option<&'a str>,
        brace_match: bool,
        occurrence: Option<usize>,
        function_hint: Option<&'a str>,
        strict: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_version: Option<&'a str>,
        encoding: Option<&'a str>,
    }
}

super::region::region_from_args!(DeleteBlockArgs);

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = Analysis::new(&text, &path);
    ctx.warnings.extend(a.warning(&path));
    let (first, last) = start_end_region(
        ctx,
        &a,
        &DeleteBlockArgs::from_args(args).region(),
        &path,
        "delete_block",
    )?;
    let (range, replacement) = replace_lines(&text, first, last, "");
    ctx.ws.splice(&path, vec![(range, replacement)])?;
    let removed = last - first + 1;
    let count = text.line_count();
    if last + 1 < count {
        ctx.warnings.push(format!(
            "Lines after {} moved up by {removed}: old line {} is now line {}.",
            last + 1,
            last + 2,
            first + 1
        ));
    }
    Ok(Outcome::Edited {
        message: format!(
            "Deleted {} ({}) from {path}; it now has {}.",
            lines_label(first, last),
            crate::text::words::counted(removed, "line"),
            crate::text::words::counted(count - removed, "line")
        ),
    })
}
