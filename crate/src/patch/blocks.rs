//! SEARCH/REPLACE blocks, the edit format of Roo (`apply_diff`), Cline (`replace_in_file`)
//! and aider, read into [`Block`]s.
//!
//! ```text
//! input      = { outside-line | block } ;
//! block      = open , [ start-hint ] , [ end-hint ] , [ dashes ] ,   (* dashes: Roo, after `<<<` only *)
//!              { line } , divider , { line } , close ;
//! open       = ( "<"{3,} | "-"{3,} ) , " SEARCH" , [ ">" ] ;    (* Roo, aider: <<<<<<<; Cline: ------- *)
//! start-hint = ":start_line:" , [ " " ] , digits ;                (* Roo: a line hint *)
//! end-hint   = ":end_line:" , [ " " ] , digits ;                  (* Roo: checked against the SEARCH *)
//! dashes     = "-"{3,} ;
//! divider    = "="{3,} ;
//! close      = ( ">"{3,} | "+"{3,} ) , " REPLACE" , [ ">" ] ;
//! outside-line = fence | file-line | blank ;
//! fence      = "```" , { char } ;                                  (* aider: skipped *)
//! file-line  = any other line: the path of the blocks after it     (* aider *)
//! ```
//!
//! - Marker lines are compared with trailing whitespace removed. Inside a block, a line
//!   that is `\` followed by a marker is that marker's text, literally (Roo's escape).
//! - A block's path is the last file-line before it (aider's file name line: surrounding
//!   `` ` ``, `*`, `#` and a trailing `:` removed); blocks before any file-line have none
//!   (the call's `path` names their file).
//! - SEARCH and REPLACE are whole lines: their text is the lines joined by LF, without
//!   the last line's break (the caller decides how lines end).
//! - Anything else is a refusal naming the line: a block without its divider or close.

use crate::error::{EditError, EditResult, ErrorKind};
use serde_json::json;

/// One SEARCH/REPLACE block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The file-line before it (aider), if any.
    pub path: Option<String>,
    /// The SEARCH lines, joined by LF (no final line break); empty for no lines.
    pub search: String,
    /// The REPLACE lines, the same way.
    pub replace: String,
    /// How many lines SEARCH has.
    pub search_lines: usize,
    /// How many lines REPLACE has (an empty `replace` is no line or one blank line).
    pub replace_lines: usize,
    /// Roo's `:start_line:` hint.
    pub start_line: Option<usize>,
    /// Roo's `:end_line:`.
    pub end_line: Option<usize>,
    /// The 1-based line of the text where the block opens.
    pub line: usize,
}

/// The blocks of one text and whose format they were written in.
#[derive(Clone, Debug, PartialEq)]
pub struct Blocks {
    pub blocks: Vec<Block>,
    /// "Roo's", "Cline's" or "aider's": for the warning that names the format.
    pub format: &'static str,
}

#[derive(Clone, Copy, PartialEq)]
enum Marker {
    /// `<<<<<<< SEARCH` (true) or `------- SEARCH` (false).
    Open(bool),
    Divider,
    Close,
}

/// `line` (trailing whitespace removed) as a marker: `word` after 3+ `c`, then `>`.
fn is_run(line: &str, chars: &[char], word: &str) -> bool {
    let rest = line.strip_suffix('>').unwrap_or(line);
    let Some(head) = rest.strip_suffix(word) else {
        return false;
    };
    let Some(head) = head.strip_suffix(' ') else {
        return false;
    };
    head.len() >= 3 && chars.iter().any(|c| head.chars().all(|h| h == *c))
}

fn marker(line: &str) -> Option<Marker> {
    let line = line.trim_end();
    if is_run(line, &['<'], "SEARCH") {
        Some(Marker::Open(true))
    } else if is_run(line, &['-'], "SEARCH") {
        Some(Marker::Open(false))
    } else if is_run(line, &['>', '+'], "REPLACE") {
        Some(Marker::Close)
    } else if line.len() >= 3 && line.chars().all(|c| c == '=') {
        Some(Marker::Divider)
    } else {
        None
    }
}

/// Whether `text` holds a SEARCH/REPLACE block: a line opening one.
pub fn detect(text: &str) -> bool {
    text.lines()
        .any(|l| matches!(marker(l), Some(Marker::Open(_))))
}

fn hint(line: &str, name: &str) -> Option<usize> {
    line.trim()
        .strip_prefix(name)
        .and_then(|n| n.trim().parse().ok())
}

fn is_dashes(line: &str) -> bool {
    let l = line.trim_end();
    l.len() >= 3 && l.chars().all(|c| c == '-')
}

/// A file-line's path: surrounding backticks, `*`, `#` and a trailing `:` removed.
fn file_line(line: &str) -> Option<String> {
    let t = line.trim();
    if t.is_empty() || t.starts_with("```") {
        return None;
    }
    let t = t.trim_start_matches('#').trim();
    let t = t.trim_end_matches(':').trim_matches(['`', '*']).trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// A line inside a block: its text, with Roo's `\` escape of a marker removed.
fn literal(line: &str) -> &str {
    match line.strip_prefix('\\') {
        Some(rest) if marker(rest).is_some() || is_dashes(rest) => rest,
        _ => line,
    }
}

fn parse_error(line: usize, what: &str) -> EditError {
    EditError::new(
        ErrorKind::PatchParse,
        format!("SEARCH/REPLACE block, line {line}: {what} Nothing was changed. A block is `<<<<<<< SEARCH`, the exact lines to find, `=======`, their replacement, `>>>>>>> REPLACE`, each marker on its own line."),
    )
    .with_diagnostics(json!({"patch_line": line}))
}

/// Reads every block of `text`.
pub fn parse(text: &str) -> EditResult<Blocks> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (mut blocks, mut path, mut i) = (Vec::new(), None, 0);
    let (mut roo, mut cline, mut fenced) = (false, false, false);
    while i < lines.len() {
        let line = lines[i];
        let Some(Marker::Open(angled)) = marker(line) else {
            if marker(line) == Some(Marker::Close) {
                return Err(parse_error(
                    i + 1,
                    &format!(
                        "`{}` outside a block: a block opens with `<<<<<<< SEARCH`.",
                        line.trim_end()
                    ),
                ));
            }
            fenced |= line.trim_start().starts_with("```");
            if let Some(p) = file_line(line) {
                path = Some(p);
            }
            i += 1;
            continue;
        };
        cline |= !angled;
        let open = i + 1;
        i += 1;
        let mut start_line = None;
        let mut end_line = None;
        if let Some(n) = lines.get(i).and_then(|l| hint(l, ":start_line:")) {
            start_line = Some(n);
            i += 1;
        }
        if let Some(n) = lines.get(i).and_then(|l| hint(l, ":end_line:")) {
            end_line = Some(n);
            i += 1;
        }
        if angled && lines.get(i).is_some_and(|l| is_dashes(l)) {
            roo = true;
            i += 1;
        }
        roo |= start_line.is_some() || end_line.is_some();
        let (search, next) = section(&lines, i, Marker::Divider)
            .ok_or_else(|| parse_error(open, "no `=======` line ends its SEARCH part."))?;
        let (replace, next) = section(&lines, next, Marker::Close)
            .ok_or_else(|| parse_error(open, "no `>>>>>>> REPLACE` line closes it."))?;
        i = next;
        blocks.push(Block {
            path: path.clone(),
            search_lines: search.len(),
            replace_lines: replace.len(),
            search: search.join("\n"),
            replace: replace.join("\n"),
            start_line,
            end_line,
            line: open,
        });
    }
    let format = if cline {
        "Cline's"
    } else if roo {
        "Roo's"
    } else if fenced || path.is_some() {
        "aider's"
    } else {
        "Roo's"
    };
    Ok(Blocks { blocks, format })
}

/// The lines from `from` up to the line that is `end`, and the index after it.
fn section<'a>(lines: &[&'a str], from: usize, end: Marker) -> Option<(Vec<&'a str>, usize)> {
    let mut out = Vec::new();
    for (k, line) in lines.iter().enumerate().skip(from) {
        match marker(line) {
            Some(m) if m == end => return Some((out, k + 1)),
            Some(Marker::Open(_)) => return None,
            _ => out.push(literal(line)),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_format() {
        let cases: &[(&str, &str, usize, Option<&str>)] = &[
            ("<<<<<<< SEARCH\n:start_line:3\n:end_line:4\n-------\na\nb\n=======\nc\n>>>>>>> REPLACE\n", "Roo's", 1, None),
            ("------- SEARCH\na\n=======\nc\n+++++++ REPLACE\n", "Cline's", 1, None),
            ("src/x.py\n```python\n<<<<<<< SEARCH\na\n=======\nc\n>>>>>>> REPLACE\n```\n", "aider's", 1, Some("src/x.py")),
        ];
        for (text, format, n, path) in cases {
            let b = parse(text).unwrap();
            assert_eq!(b.format, *format, "{text}");
            assert_eq!(b.blocks.len(), *n);
            assert_eq!(b.blocks[0].path.as_deref(), *path);
            assert_eq!(b.blocks[0].replace, "c");
        }
    }

    #[test]
    fn hints_escapes_and_errors() {
        let b = parse("<<<<<<< SEARCH\n:start_line:3\n:end_line:4\n-------\na\n\\=======\n=======\n\n>>>>>>> REPLACE").unwrap();
        let block = &b.blocks[0];
        assert_eq!((block.start_line, block.end_line), (Some(3), Some(4)));
        assert_eq!(block.search, "a\n=======");
        assert_eq!(block.replace, "");
        assert_eq!(block.search_lines, 2);
        assert!(parse("<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n").is_err());
        assert!(parse("<<<<<<< SEARCH\na\n=======\nb\n").is_err());
        assert!(!detect("a\n=======\nb"));
        let huge = format!(
            "<<<<<<< SEARCH\n:start_line:{}\n:end_line:{}\n-------\na\n=======\nb\n>>>>>>> REPLACE",
            usize::MAX,
            usize::MAX
        );
        assert_eq!(parse(&huge).unwrap().blocks[0].start_line, Some(usize::MAX));
    }
}
