//! `replace_block`: replace the block a line opens, found by an anchor on that line.
//!
//! The block runs from the line containing `anchor` through the line that closes what
//! that line opens (brackets, strings and comments understood per language; `} else {`
//! chains included), or through its last more-indented line (Python, YAML). An
//! Allman-style `{` on the next line belongs to the block.

use super::params::*;
use super::region::{anchor_line, block_lines, hint_scope, reindent, replace_lines, RegionArgs};
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::blocks::Analysis;
use crate::error::{EditError, EditResult, ErrorKind};
use crate::guard;
use crate::text::count_lines;
use crate::text::words::lines_label;

pub static SPEC: ToolSpec = ToolSpec {
    name: "replace_block",
    description: "Replace a whole block found by an anchor: from the line containing `anchor` \
through the end of the block that line opens (its matching closing bracket, or its last \
more-indented line in Python/YAML; strings, comments, regex and char literals are understood \
per language). new_block replaces those whole lines. Use it for an `if`/loop/class/function \
whose end you do not want to quote. occurrence / function_hint disambiguate the anchor. \
Example: {\"path\": \"src/app.js\", \"anchor\": \"if (retries > 3) {\", \"new_block\": \"if (retries > 5) {\\n  fail();\\n}\\n\"}",
    params: &[
        PATH_OR_SYMBOL,
        Param {
            name: "anchor",
            aliases: &["start_content", "anchor_text", "start", "block_start"],
            ty: ParamType::String,
            required: true,
            description: "Text on the line that opens the block (copied from the file).",
        },
        Param {
            name: "new_block",
            aliases: &["new_str", "new_text", "new_content", "replacement", "content", "new_body"],
            ty: ParamType::String,
            required: true,
            description: "The lines that replace the whole block, first line through last.",
        },
        OCCURRENCE,
        FUNCTION_HINT,
        STRICT,
        ALLOW_PLACEHOLDERS,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Replace a block",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

typed_args! {
    /// replace_block's arguments, one field per parameter of [`SPEC`].
    pub struct ReplaceBlockArgs<'a> {
        path: Option<&'a str>,
        anchor: &'a str,
        new_block: &'a str,
        occurrence: Option<usize>,
        function_hint: Option<&'a str>,
        strict: bool,
        allow_placeholders: bool,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_version: Option<&'a str>,
        encoding: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = Analysis::new(&text, &path);
    ctx.warnings.extend(a.warning(&path));
    let b = ReplaceBlockArgs::from_args(args);
    let region = RegionArgs {
        start_content: b.anchor,
        end_content: None,
        brace_match: true,
        occurrence: b.occurrence,
        function_hint: b.function_hint,
        strict: b.strict,
    };
    let scope = hint_scope(&a, b.function_hint, &path)?;
    let line = anchor_line(
        ctx,
        &text,
        &region,
        &path,
        b.anchor,
        "anchor",
        "replace_block",
        &scope,
    )?;
    let (first, last) = block_lines(&a, &path, line, "anchor")?;
    let block = &src[text.lines_range(first, last)];
    guard::check(
        b.new_block,
        "new_block",
        Some(("the block it replaces", block)),
        b.allow_placeholders,
    )?;
    let (new_block, reindented) = reindent(text.line(first), b.new_block);
    if reindented {
        ctx.warnings.push(
            "new_block was sent without indentation; it was indented like the block's first line."
                .to_string(),
        );
    }
    let (range, replacement) = replace_lines(&text, first, last, &new_block);
    if src.get(range.clone()) == Some(replacement.as_str()) {
        return Err(EditError::new(
            ErrorKind::NoChange,
            format!(
                "new_block is identical to the block at {} of {path}: nothing to change.",
                lines_label(first, last)
            ),
        ));
    }
    ctx.ws.splice(&path, vec![(range, replacement.clone())])?;
    let n = count_lines(&replacement);
    let now = if n == 0 {
        "it was removed".to_string()
    } else {
        format!("the new block is {}", lines_label(first, first + n - 1))
    };
    Ok(Outcome::Edited {
        message: format!(
            "Replaced the block at {} of {path} ({} line{}); {now}.",
            lines_label(first, last),
            last - first + 1,
            if last == first { "" } else { "s" }
        ),
    })
}
