//! `insert`: add whole lines after a line number, or after/before a line found by content.

use super::params::*;
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::diagnose::{self, applied, Anchor};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::guard;
use crate::locate::{scope, Selection};
use crate::text::words::counted;
use crate::text::{split_lines, with_ending, Text};

pub static SPEC: ToolSpec = ToolSpec {
    name: "insert",
    description: "Insert whole lines into a file: after line N (`line`, 0 = at the top), or \
after / before the line containing `after_content` / `before_content` (found by content; \
must be unique, or pass occurrence). The inserted lines get the file's line ending. \
Example: {\"path\": \"src/app.py\", \"after_content\": \"import os\", \"new_str\": \"import sys\\n\"}",
    params: &[
        PATH_OR_SYMBOL,
        Param {
            name: "new_str",
            aliases: &["new_string", "new_text", "text", "insert_text", "content"],
            ty: ParamType::String,
            required: true,
            description: "The lines to insert.",
        },
        Param {
            name: "line",
            aliases: &["insert_line", "line_number", "after_line"],
            ty: ParamType::Integer { min: 0 },
            required: false,
            description: "Insert after this 1-based line; 0 inserts at the top.",
        },
        Param {
            name: "after_content",
            aliases: &["after", "anchor"],
            ty: ParamType::String,
            required: false,
            description: "Insert after the line containing this text.",
        },
        Param {
            name: "before_content",
            aliases: &["before"],
            ty: ParamType::String,
            required: false,
            description: "Insert before the line containing this text.",
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
        title: "Insert lines",
        read_only: false,
        destructive: false,
        idempotent: false,
    },
};

typed_args! {
    /// insert's arguments, one field per parameter of [`SPEC`].
    pub struct InsertArgs<'a> {
        path: Option<&'a str>,
        new_str: &'a str,
        line: Option<usize>,
        after_content: Option<&'a str>,
        before_content: Option<&'a str>,
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

impl InsertArgs<'_> {
    /// Which of the three ways to say where to insert the call gave.
    fn places_given(&self) -> Vec<&'static str> {
        [
            ("line", self.line.is_some()),
            ("after_content", self.after_content.is_some()),
            ("before_content", self.before_content.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, has)| has.then_some(name))
        .collect()
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let (path, src) = ctx.open(args)?;
    let text = ctx.text(&src);
    let a = InsertArgs::from_args(args);
    let new = a.new_str;
    if new.is_empty() {
        return Err(EditError::new(
            ErrorKind::NoChange,
            "new_str is empty: there is nothing to insert. Send the lines to insert in new_str.",
        ));
    }
    guard::check(new, "new_str", None, a.allow_placeholders)?;
    let given = a.places_given();
    if given.len() != 1 {
        return Err(EditError::invalid(format!(
            "insert needs exactly one of `line`, `after_content`, `before_content`; got {}. Example: {{path: \"{path}\", after_content: \"<a line of the file>\", new_str: \"…\"}}.",
            if given.is_empty() { "none".to_string() } else { given.join(" and ") }
        )));
    }
    let count = text.line_count();
    // The 0-based line index before which the new lines go.
    let (at, how) = if let Some(line) = a.line {
        if line > count {
            return Err(EditError::invalid(format!(
                "line {line} is past the end of {path}, which has {}. Send line: {count} to append at the end, or line: 0 for the top.", counted(count, "line"))));
        }
        ctx.note_read(&path, line.saturating_sub(1)..(line + 1).min(count));
        (line, format!("after line {line}"))
    } else {
        let (anchor, after) = match a.after_content {
            Some(after) => (after, true),
            None => (a.before_content.unwrap_or(""), false),
        };
        let what = if after {
            "after_content"
        } else {
            "before_content"
        };
        let scope = scope::resolve(&text, args, &path)?;
        let landmark = Anchor {
            strict: a.strict,
            selection: Selection {
                occurrence: a.occurrence,
                ..Selection::default()
            },
            ..Anchor::landmark(anchor, what, &path, "insert")
        };
        let located = diagnose::locate_one(&text, &scope, &landmark)?;
        ctx.note_located(&path, &text, &scope, &located.chosen[..1], None);
        ctx.matched_via = located.via.map(crate::locate::MatchedVia::Level);
        ctx.warnings.extend(located.found_notes);
        ctx.warnings.extend(located.select_notes);
        let c = &located.chosen[0];
        if after {
            let l = c.last_line(&text);
            (l + 1, format!("after line {} ({what})", l + 1))
        } else {
            let l = c.first_line(&text);
            (l, format!("before line {} ({what})", l + 1))
        }
    };

    if let Some(line) = already_present(&text, new, at) {
        return Err(EditError::new(
            ErrorKind::AlreadyApplied,
            format!(
                "The lines of new_str are already at line {line} of {path}, exactly where they would go: this insert looks applied already, probably by an earlier call. Nothing was changed."
            ),
        ));
    }

    let ending = text.ending_near(at.saturating_sub(1));
    let mut block = with_ending(new, ending);
    let at_end_without_newline = at == count && count > 0 && !text.ends_with_newline();
    let offset = text.line_start(at);
    if at_end_without_newline {
        // Keep "no newline at end of file": the break moves before the new lines.
        block = format!(
            "{}{}",
            ending.as_str(),
            block.strip_suffix(ending.as_str()).unwrap_or(&block)
        );
    } else if !block.ends_with('\n') {
        block.push_str(ending.as_str());
    }
    let inserted = split_lines(new).len();
    ctx.ws.splice(&path, vec![(offset..offset, block)])?;
    Ok(Outcome::Edited {
        message: format!(
            "Inserted {inserted} line{} {how} of {path}; {} now {}.",
            crate::text::words::plural(inserted),
            if inserted == 1 { "it is" } else { "they are" },
            crate::text::words::lines_label(at, at + inserted.max(1) - 1)
        ),
    })
}

/// Whether new_str's lines already stand at the insertion point `at` (right after the
/// line before it, or right before the line at it): the rule is
/// [`applied::applied`]'s, with that neighbouring line as the unchanged context and the
/// insertion point as the located place.
fn already_present(text: &Text, new: &str, at: usize) -> Option<usize> {
    let lines = split_lines(new).join("\n");
    let src = text.as_str();
    let scope = crate::locate::Scope::whole(text);
    let boundary = text.line_start(at);
    // (context line, new_str with it, the place, lines of context before new_str)
    let mut tries: Vec<(String, String, std::ops::Range<usize>, usize)> = Vec::new();
    if at > 0 && boundary > 0 && src.as_bytes()[boundary - 1] == b'\n' {
        let before = text.line(at - 1).to_string();
        let joined = format!("{before}\n{lines}\n");
        tries.push((before, joined, boundary - 1..boundary, 1));
    }
    if at < text.line_count() && boundary < src.len() {
        let after = text.line(at).to_string();
        let joined = format!("{lines}\n{after}");
        tries.push((after, joined, boundary..boundary + 1, 0));
    }
    tries.into_iter().find_map(|(old, new, place, context)| {
        let located = [place];
        let edit = applied::Edit {
            old: &old,
            new: &new,
            located: &located,
            tolerant: false,
        };
        applied::applied(text, &edit, &scope).map(|line| line + context)
    })
}
