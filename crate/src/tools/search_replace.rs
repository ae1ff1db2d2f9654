//! SEARCH/REPLACE blocks ([`crate::patch::blocks`]) applied as patch hunks (one file
//! operation per block, in order, each on the text the earlier ones left): a block's
//! SEARCH lines are found on whole lines through the same matching cascade as
//! `apply_patch` and `str_replace`, exactly once, and the blocks of a call apply all or
//! nothing.
//!
//! Each harness's meaning is kept where it is safe:
//! - Roo's `:start_line:` is the hunk's line hint (it breaks ties between equal
//!   candidates, never moves a unique match); `:end_line:` must agree with it and the
//!   SEARCH's line count, or the block is refused.
//! - An empty SEARCH (Cline, aider: a new file) writes the REPLACE as the whole file only
//!   where the file is missing or empty; on a file with text it is refused with the call
//!   that replaces a whole file.
//! - SEARCH and REPLACE are whole lines: a block with no REPLACE lines removes the SEARCH
//!   lines with their line breaks.

use super::{Ctx, Outcome};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::MatchedVia;
use crate::patch::blocks::{Block, Blocks};
use crate::patch::{apply, FileOp, Format, Hunk, Patch, PathChoice, Sign};

/// Applies `blocks` to `path` when given (text outside the blocks is then ignored, as
/// Roo and Cline do), else each to the file named on the line before it (aider).
pub fn apply(ctx: &mut Ctx, blocks: &Blocks, default_path: Option<&str>) -> EditResult<Outcome> {
    if blocks.blocks.is_empty() {
        return Err(EditError::invalid(
            "The text holds no complete SEARCH/REPLACE block. Nothing was changed. Send `<<<<<<< SEARCH`, the exact lines, `=======`, the new lines, `>>>>>>> REPLACE`.",
        ));
    }
    let mut ops = Vec::new();
    let mut written = Vec::new();
    for (i, block) in blocks.blocks.iter().enumerate() {
        let number = i + 1;
        let path = default_path.or(block.path.as_deref()).ok_or_else(|| {
            EditError::invalid(format!(
                "Block {number} (line {}) names no file. Nothing was changed. Put the file's path, relative to the project root, on the line before the block (or before its ``` fence).",
                block.line
            ))
        })?;
        check_lines(number, block)?;
        if block.search_lines == 0 {
            written.push(whole_file(ctx, number, path, block)?);
            continue;
        }
        ops.push(FileOp::Update {
            path: PathChoice::exact(path),
            move_to: None,
            hunks: vec![hunk(block)],
            line: block.line,
        });
    }
    if ops.is_empty() {
        return Ok(Outcome::Edited {
            message: written.join(" "),
        });
    }
    let patch = Patch {
        format: Format::Unified,
        ops,
    };
    let applied = apply::apply(&mut ctx.ws, &patch, false)?;
    ctx.warnings.extend(applied.notes.iter().cloned());
    ctx.matched_via = applied.matched_via().map(MatchedVia::Level);
    written.push(applied.message());
    Ok(Outcome::Edited {
        message: written.join(" "),
    })
}

/// A block as a patch hunk: its SEARCH lines removed, its REPLACE lines added, found on
/// whole lines by content (`:start_line:` only breaks ties between equal candidates).
fn hunk(block: &Block) -> Hunk {
    let mut hunk = Hunk::new(block.line);
    let lines = |text: &str, n: usize| -> Vec<String> {
        match n {
            0 => Vec::new(),
            _ => text.split('\n').map(str::to_string).collect(),
        }
    };
    hunk.lines.extend(
        lines(&block.search, block.search_lines)
            .into_iter()
            .map(|l| (Sign::Remove, l)),
    );
    hunk.lines.extend(
        lines(&block.replace, block.replace_lines)
            .into_iter()
            .map(|l| (Sign::Add, l)),
    );
    hunk.line_hint = block.start_line;
    hunk
}

/// Roo's `:end_line:` against `:start_line:` and the SEARCH's lines.
fn check_lines(number: usize, block: &Block) -> EditResult<()> {
    let (Some(start), Some(end)) = (block.start_line, block.end_line) else {
        return Ok(());
    };
    let want = start.saturating_add(block.search_lines.max(1) - 1);
    if end == want {
        return Ok(());
    }
    Err(EditError::invalid(format!(
        "Block {number} (line {}): :end_line:{end} disagrees with :start_line:{start} and its SEARCH of {} line(s), which would end at line {want}. Nothing was changed. Send the block with :end_line:{want}, or without :end_line:, with SEARCH copied from the file.",
        block.line, block.search_lines
    )))
}

/// An empty SEARCH: the REPLACE becomes the file, where it is missing or empty.
fn whole_file(ctx: &mut Ctx, number: usize, path: &str, block: &Block) -> EditResult<String> {
    let path = ctx.ws.path(path)?;
    if let Some(old) = ctx.ws.try_read(&path)? {
        if !old.is_empty() {
            let lines = old.lines().count();
            return Err(EditError::new(
                ErrorKind::FileExists,
                format!(
                    "Block {number} (line {}) has an empty SEARCH, which writes a whole file only where the file is empty; {path} has {lines} line(s). Nothing was changed. Copy the lines to change into SEARCH, or replace the whole file with write_to_file (create_file with overwrite: true).",
                    block.line
                ),
            ));
        }
    }
    let mut text = block.replace.clone();
    if block.replace_lines > 0 {
        text.push('\n');
    }
    crate::guard::check(&text, "REPLACE", None, false)?;
    // The file is missing or empty: one insertion into the empty text.
    ctx.ws.splice(&path, vec![(0..0, text)])?;
    Ok(format!(
        "Wrote {path} ({} lines) from block {number}.",
        block.replace_lines
    ))
}
