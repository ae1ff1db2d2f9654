//! `get_region`: read the lines from a start anchor to an end anchor (inclusive) or to
//! the end of the block the start line opens. Read-only.

use super::params::*;
use super::region::{start_end_region, BRACE_MATCH, END_CONTENT, START_CONTENT};
use super::{Ctx, Outcome, Reading};
use crate::args::{typed_args, Annotations, Args, ToolSpec};
use crate::blocks::Analysis;
use crate::error::EditResult;
use crate::text::version_of;
use serde_json::Map;

pub static SPEC: ToolSpec = ToolSpec {
    name: "get_region",
    description: "Read a region found by content: from the line containing start_content through \
the line containing end_content (inclusive), or with brace_match: true through the end of the \
block the start line opens. Returns content (the exact lines), start_line, end_line and the \
file's version. Example: {\"path\": \"src/app.go\", \"start_content\": \"func (s *Server) Start(\", \"brace_match\": true}",
    params: &[
        PATH_OR_SYMBOL,
        START_CONTENT,
        END_CONTENT,
        BRACE_MATCH,
        OCCURRENCE,
        FUNCTION_HINT,
        STRICT,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Read a block",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

typed_args! {
    /// get_region's arguments, one field per parameter of [`SPEC`].
    pub struct GetRegionArgs<'a> {
        path: Option<&'a str>,
        start_content: &'a str,
        end_content: Option<&'a str>,
        brace_match: bool,
        occurrence: Option<usize>,
        function_hint: Option<&'a str>,
        strict: bool,
        encoding: Option<&'a str>,
    }
}

super::region::region_from_args!(GetRegionArgs);

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = Analysis::new(&text, &path);
    ctx.warnings.extend(a.warning(&path));
    let (first, last) = start_end_region(
        ctx,
        &a,
        &GetRegionArgs::from_args(args).region(),
        &path,
        "get_region",
    )?;
    let content = src[text.lines_range(first, last)].to_string();
    Ok(Outcome::Read(Reading {
        path,
        content,
        start_line: first + 1,
        end_line: last + 1,
        line_count: Some(text.line_count()),
        version: version_of(&src),
        message: None,
        extra: Map::new(),
    }))
}
