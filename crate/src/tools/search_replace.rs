//! SEARCH/REPLACE blocks ([`crate::patch::blocks`]) applied through `multi_replace`, so
//! each block matches, recovers and refuses exactly as a str_replace call would (unique
//! matches only), and the blocks of a call apply all or nothing.
//!
//! Each harness's meaning is kept where it is safe:
//! - Roo's `:start_line:` is the item's `line_hint`; `:end_line:` must agree with it and
//!   the SEARCH's line count, or the block is refused.
//! - An empty SEARCH (Cline, aider: a new file) writes the REPLACE as the whole file only
//!   where the file is missing or empty; on a file with text it is refused with the call
//!   that replaces a whole file.
//! - SEARCH and REPLACE are whole lines: a block with no REPLACE lines removes the SEARCH
//!   lines with their line break.

use super::multi_replace;
use super::{Ctx, Outcome};
use crate::args::Args;
use crate::error::{EditError, EditResult, ErrorKind};
use crate::patch::blocks::{Block, Blocks};
use serde_json::{json, Map, Value};

/// Applies `blocks`; `default_path` is the file of blocks without a file-line.
pub fn apply(ctx: &mut Ctx, blocks: &Blocks, default_path: Option<&str>) -> EditResult<Outcome> {
    if blocks.blocks.is_empty() {
        return Err(EditError::invalid(
            "The text holds no complete SEARCH/REPLACE block. Nothing was changed. Send `<<<<<<< SEARCH`, the exact lines, `=======`, the new lines, `>>>>>>> REPLACE`.",
        ));
    }
    let mut items = Vec::new();
    let mut written = Vec::new();
    for (i, block) in blocks.blocks.iter().enumerate() {
        let number = i + 1;
        let path = block.path.as_deref().or(default_path).ok_or_else(|| {
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
        let (old, new) = if block.replace_lines == 0 {
            (format!("{}\n", block.search), String::new())
        } else {
            (block.search.clone(), block.replace.clone())
        };
        let mut item = json!({"path": path, "old_str": old, "new_str": new});
        if let Some(line) = block.start_line {
            item["line_hint"] = json!(line);
        }
        items.push(item);
    }
    if items.is_empty() {
        return Ok(Outcome::Edited {
            message: written.join(" "),
        });
    }
    let mut raw = Map::new();
    raw.insert("replacements".into(), Value::Array(items));
    let args = Args::parse(&multi_replace::SPEC, &raw)?;
    let outcome = multi_replace::run(ctx, &args)?;
    match outcome {
        Outcome::Edited { message } if !written.is_empty() => Ok(Outcome::Edited {
            message: format!("{} {message}", written.join(" ")),
        }),
        other => Ok(other),
    }
}

/// Roo's `:end_line:` against `:start_line:` and the SEARCH's lines.
fn check_lines(number: usize, block: &Block) -> EditResult<()> {
    let (Some(start), Some(end)) = (block.start_line, block.end_line) else {
        return Ok(());
    };
    let want = start + block.search_lines.max(1) - 1;
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
    ctx.ws.write(&path, text)?;
    Ok(format!(
        "Wrote {path} ({} lines) from block {number}.",
        block.replace_lines
    ))
}
