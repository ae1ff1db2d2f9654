//! `delete_lines`: delete an inclusive range of whole lines by number.

use super::params::*;
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult};
use crate::text::words::lines_label;

pub static SPEC: ToolSpec = ToolSpec {
    name: "delete_lines",
    description: "Delete whole lines by number, start_line through end_line (1-based, inclusive). \
Line numbers go stale after any edit that adds or removes lines: read the file again first, \
and pass expected_version from that read. To delete by content use str_replace with an \
empty new_str or delete_block. Example: {\"path\": \"src/app.py\", \"start_line\": 10, \"end_line\": 12}",
    params: &[
        PATH,
        Param {
            name: "start_line",
            aliases: &["start", "from_line", "first_line"],
            ty: ParamType::Integer { min: 1 },
            required: true,
            description: "First line to delete (1-based).",
        },
        Param {
            name: "end_line",
            aliases: &["end", "to_line", "last_line"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "Last line to delete (1-based, inclusive); defaults to start_line.",
        },
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Delete lines",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

typed_args! {
    /// delete_lines' arguments, one field per parameter of [`SPEC`].
    pub struct DeleteLinesArgs<'a> {
        path: &'a str,
        start_line: usize,
        end_line: Option<usize>,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_version: Option<&'a str>,
        encoding: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let count = text.line_count();
    let a = DeleteLinesArgs::from_args(args);
    let start = a.start_line;
    let end = a.end_line.unwrap_or(start);
    if end < start {
        return Err(EditError::invalid(format!(
            "end_line {end} is before start_line {start}. Send start_line ≤ end_line."
        )));
    }
    if end > count {
        return Err(EditError::invalid(format!(
            "{path} has {}, so lines {start}-{end} do not all exist. Send end_line ≤ {count} (read_lines shows the current text).",
            crate::text::words::counted(count, "line")
        )));
    }
    let (first, last) = (start - 1, end - 1);
    let mut range = text.lines_range(first, last);
    // Deleting the unterminated last line: drop the break before it instead, so the
    // file still ends without a newline.
    if last + 1 == count && !text.ends_with_newline() && first > 0 {
        range.start = text.line_start(first) - text.ending_near(first - 1).as_str().len();
    }
    let removed = end - start + 1;
    ctx.ws.splice(&path, vec![(range, String::new())])?;
    if end < count {
        ctx.warnings.push(format!(
            "Lines after {end} moved up by {removed}: old line {} is now line {start}. {path} now has {}.",
            end + 1,
            crate::text::words::counted(count - removed, "line")
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
