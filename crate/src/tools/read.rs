//! The plain reading tools: `get_document`, `read_lines`, `line_count`.
//!
//! Their `content` is the exact text of the lines, line endings included and without
//! line-number prefixes, so an agent can copy `old_str` from it byte for byte.

use super::params::*;
use super::{Ctx, Outcome, Reading};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::error::{EditError, EditResult};
use crate::text::version_of;
use crate::text::words::counted;
use serde_json::Map;

pub static GET_DOCUMENT: ToolSpec = ToolSpec {
    name: "get_document",
    description: "Read a whole file. Returns its exact text (line endings included, no line \
numbers), its line count and its version (pass it as expected_version to a later edit). \
For large files prefer read_lines, grep_file or file_summary. Example: {\"path\": \"src/app.py\"}",
    params: &[PATH, ENCODING],
    annotations: Annotations {
        title: "Read a file",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

pub static READ_LINES: ToolSpec = ToolSpec {
    name: "read_lines",
    description: "Read lines start_line through end_line (1-based, inclusive) of a file: their \
exact text, without line-number prefixes, plus the file's version. \
Example: {\"path\": \"src/app.py\", \"start_line\": 40, \"end_line\": 60}",
    params: &[
        PATH,
        Param {
            name: "start_line",
            aliases: &["start", "from_line", "first_line", "offset"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "First line to read (1-based); defaults to 1.",
        },
        Param {
            name: "end_line",
            aliases: &["end", "to_line", "last_line"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "Last line to read (inclusive); defaults to the last line.",
        },
        ENCODING,
    ],
    annotations: Annotations {
        title: "Read lines",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

pub static LINE_COUNT: ToolSpec = ToolSpec {
    name: "line_count",
    description: "Count the lines of a file (as `wc -l`, plus one if the last line has no \
newline) and return its version. Example: {\"path\": \"src/app.py\"}",
    params: &[PATH, ENCODING],
    annotations: Annotations {
        title: "Count lines",
        read_only: true,
        destructive: false,
        idempotent: true,
    },
};

typed_args! {
    /// get_document's, line_count's and file_summary's arguments: one field per
    /// parameter of [`GET_DOCUMENT`] (and of [`LINE_COUNT`], the same).
    pub struct FileArgs<'a> {
        path: &'a str,
        encoding: Option<&'a str>,
    }
}

typed_args! {
    /// read_lines' arguments, one field per parameter of [`READ_LINES`].
    pub struct ReadLinesArgs<'a> {
        path: &'a str,
        start_line: Option<usize>,
        end_line: Option<usize>,
        encoding: Option<&'a str>,
    }
}

pub fn get_document(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let n = text.line_count();
    Ok(Outcome::Read(Reading {
        path,
        content: src.to_string(),
        start_line: 1,
        end_line: n,
        line_count: Some(n),
        version: version_of(&src),
        message: None,
        extra: Map::new(),
    }))
}

pub fn read_lines(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let n = text.line_count();
    let a = ReadLinesArgs::from_args(args);
    let start = a.start_line.unwrap_or(1);
    let mut end = a.end_line.unwrap_or(n);
    if start > n.max(1) {
        return Err(EditError::invalid(format!(
            "start_line {start} is past the end of {path}, which has {}. Send start_line between 1 and {n}.",
            counted(n, "line")
        )));
    }
    if end < start {
        return Err(EditError::invalid(format!(
            "end_line {end} is before start_line {start}. Send start_line ≤ end_line."
        )));
    }
    if end > n {
        ctx.warnings.push(format!(
            "end_line {end} is past the end; {path} has {}, so lines {start}-{n} are returned.",
            counted(n, "line")
        ));
        end = n;
    }
    let content = if n == 0 {
        String::new()
    } else {
        src[text.lines_range(start - 1, end - 1)].to_string()
    };
    Ok(Outcome::Read(Reading {
        path,
        content,
        start_line: start,
        end_line: end,
        line_count: Some(n),
        version: version_of(&src),
        message: None,
        extra: Map::new(),
    }))
}

pub fn line_count(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let n = ctx.text(&src).line_count();
    Ok(Outcome::Read(Reading {
        message: Some(format!("{path} has {}.", counted(n, "line"))),
        path,
        content: String::new(),
        start_line: 1,
        end_line: n,
        line_count: Some(n),
        version: version_of(&src),
        extra: Map::new(),
    }))
}
