//! `replace_function_body`: replace a whole function, found by name.
//!
//! `new_body` is the complete new function, from its signature line to its last line;
//! the function's whole lines (signature through closing brace, or through the last
//! line of a Python body) are replaced. Decorators, attributes, annotations and doc
//! comments directly above the signature stay, unless `new_body` itself starts with
//! such lines: then they replace the ones above the function. A `new_body` that does
//! not start with a signature (only the statements of the body, a common slip) is
//! refused, since writing it would delete the signature.

use super::params::*;
use super::region::{reindent, replace_lines};
use super::{Ctx, Outcome};
use crate::args::{typed_args, Annotations, Args, Param, ParamType, ToolSpec};
use crate::blocks::{Analysis, Lang, Symbol};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::guard;
use crate::locate::scope::{block_error, scope_not_found, symbol_list, symbols_json};
use crate::text::words::lines_label;
use crate::text::{count_lines, Text};

pub static SPEC: ToolSpec = ToolSpec {
    name: "replace_function_body",
    description: "Replace a whole function or method, found by name (strings, comments and \
nested blocks are understood per language). new_body is the complete new function: from its \
signature line through its last line (closing brace, or last indented line in Python); the \
function's lines are replaced by it. Decorators / attributes / doc comments above the \
signature are kept unless new_body starts with its own. Several definitions with the name: \
pass occurrence, or a qualified name (\"Type.method\" or \"Type::method\"). The result says \
if the signature changed. Example: {\"path\": \"src/net.py\", \"function_name\": \"connect\", \
\"new_body\": \"def connect(host, port=80):\\n    return socket.create_connection((host, port))\\n\"}",
    params: &[
        PATH_OR_SYMBOL,
        Param {
            name: "function_name",
            aliases: &["name", "function", "symbol", "method_name", "func_name"],
            ty: ParamType::String,
            required: true,
            description: "The function's name as defined (`connect`), or qualified (`Pool.connect`, `Pool::connect`).",
        },
        Param {
            name: "new_body",
            aliases: &["new_function", "new_code", "body", "new_str", "replacement", "code"],
            ty: ParamType::String,
            required: true,
            description: "The complete new function, signature line through last line.",
        },
        Param {
            name: "occurrence",
            aliases: &["occurrence_index", "nth"],
            ty: ParamType::Integer { min: 1 },
            required: false,
            description: "Which definition when several have this name: 1 = first from the top.",
        },
        ALLOW_PLACEHOLDERS,
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSION,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Replace a function body",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

typed_args! {
    /// replace_function_body's arguments, one field per parameter of [`SPEC`].
    pub struct ReplaceFunctionBodyArgs<'a> {
        path: Option<&'a str>,
        function_name: &'a str,
        new_body: &'a str,
        occurrence: Option<usize>,
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
    let typed = ReplaceFunctionBodyArgs::from_args(args);
    let (name, new_body) = (typed.function_name, typed.new_body);
    if new_body.trim().is_empty() {
        return Err(EditError::invalid(format!(
            "new_body is empty. Send the complete new function (signature through last line). To delete the function use delete_block {{path: \"{path}\", start_content: \"<its signature line>\", brace_match: true}}."
        )));
    }
    let sym = chosen_function(&a, &path, name, typed.occurrence)?;

    a.check_symbol(&sym, true)
        .map_err(|e| block_error(&a, &path, e, "function_name"))?;
    guard::check(
        new_body,
        "new_body",
        Some((
            "the function it replaces",
            src.get(sym.start..sym.end).unwrap_or(""),
        )),
        typed.allow_placeholders,
    )?;

    // What new_body starts with: its own decorators / doc comments, then a signature.
    let new_prelude = prelude_lines(a.lang, new_body);
    let new_rest: String = new_body.split_inclusive('\n').skip(new_prelude).collect();
    let new_sig = signature_of(a.lang, &new_rest);
    let old_sig = collapse(src.get(sym.start..sym.body).unwrap_or(""));
    check_signature(&a, &sym, &new_sig, &new_rest, &path)?;

    let mut first = sym.start_line;
    if new_prelude > 0 {
        first = a.prelude_start(sym.start_line);
    }
    let last = sym.end_line;
    let (range, replacement, how) = match partial_range(&a, &sym) {
        None => {
            let (body, reindented) = reindent(text.line(sym.start_line), new_body);
            if reindented {
                ctx.warnings.push(format!(
                    "new_body was sent without indentation; it was indented like the function it replaces (`{}`).",
                    indentation_label(text.line(sym.start_line))
                ));
            }
            let (range, rep) = replace_lines(&text, first, last, &body);
            (range, rep, lines_label(first, last))
        }
        Some(range) => {
            // Other code shares the function's first or last line: replace only the
            // function's own bytes.
            let body = new_body
                .trim_start_matches([' ', '\t'])
                .trim_end_matches(['\n', '\r']);
            let rep = crate::locate::in_file_ending(&text, first, body);
            ctx.warnings.push(format!(
                "Other code shares a line with {}; only the function's own text was replaced, not whole lines.",
                sym.name
            ));
            (range, rep, lines_label(sym.start_line, last))
        }
    };
    if src.get(range.clone()) == Some(replacement.as_str()) {
        return Err(EditError::new(
            ErrorKind::NoChange,
            format!(
                "new_body is identical to {} ({how} of {path}): nothing to change.",
                sym.qualified()
            ),
        ));
    }
    ctx.ws.splice(&path, vec![(range, replacement.clone())])?;
    ctx.matched_via = Some(crate::locate::MatchedVia::FunctionName);

    let new_lines = count_lines(&replacement);
    let mut message = format!(
        "Replaced {} `{}` ({how} of {path}); it now spans {}.",
        sym.kind.as_str(),
        sym.qualified(),
        lines_label(first, first + new_lines.max(1) - 1)
    );
    if !new_sig.is_empty() && new_sig != old_sig {
        message.push_str(&format!(
            " The signature changed: `{old_sig}` → `{new_sig}`."
        ));
        ctx.warnings.push(format!(
            "The signature of {} changed; update its callers if needed.",
            sym.qualified()
        ));
    }
    Ok(Outcome::Edited { message })
}

/// The definition of `name` the call means: the only one, or the `occurrence`-th.
fn chosen_function(
    a: &Analysis,
    path: &str,
    name: &str,
    occurrence: Option<usize>,
) -> EditResult<Symbol> {
    let found = a.find_functions(name);
    match (found.len(), occurrence) {
        (0, _) => Err(scope_not_found(a, path, name)),
        (n, Some(k)) if k > n => {
            Err(EditError::new(
                ErrorKind::OccurrenceOutOfRange,
                format!(
                    "occurrence {k} asked, but {name:?} is defined {n} time(s) in {path}: {}. Send occurrence between 1 and {n}.",
                    symbol_list(&found)
                ),
            )
            .with_diagnostics(symbols_json(&found)))
        }
        (_, Some(k)) => Ok(found[k - 1].clone()),
        (1, None) => Ok(found[0].clone()),
        (n, None) => {
            Err(EditError::new(
                ErrorKind::Ambiguous,
                format!(
                    "{name:?} is defined {n} times in {path}: {}. Say which one: add occurrence: N (1-{n}, from the top), or a qualified function_name such as \"{}\".",
                    symbol_list(&found),
                    found[0].qualified()
                ),
            )
            .with_diagnostics(symbols_json(&found)))
        }
    }
}

fn indentation_label(line: &str) -> String {
    let ind: String = line
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let tabs = ind.chars().filter(|c| *c == '\t').count();
    let spaces = ind.len() - tabs;
    match (tabs, spaces) {
        (0, s) => format!("{s} spaces"),
        (t, 0) => format!("{t} tabs"),
        (t, s) => format!("{t} tabs and {s} spaces"),
    }
}

/// Whitespace runs collapsed to one space, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How many leading lines of `s` are decorators, attributes or comments.
fn prelude_lines(lang: Lang, s: &str) -> usize {
    let mut n = 0;
    let mut depth = 0i32;
    for line in s.split_inclusive('\n') {
        let t = line.trim();
        if depth > 0 {
            depth += paren_balance(t);
            n += 1;
            continue;
        }
        let attr = t.starts_with('@')
            || t.starts_with("#[")
            || (matches!(lang, Lang::CSharp | Lang::Cpp) && t.starts_with('['));
        let comment = t.starts_with("//")
            || t.starts_with("/*")
            || t.starts_with('*')
            || (lang == Lang::Python && t.starts_with('#'));
        if attr {
            depth = paren_balance(t).max(0);
            n += 1;
        } else if comment || (t.is_empty() && n > 0) {
            n += 1;
        } else {
            break;
        }
    }
    n
}

fn paren_balance(s: &str) -> i32 {
    s.bytes()
        .map(|c| match c {
            b'(' | b'[' => 1,
            b')' | b']' => -1,
            _ => 0,
        })
        .sum()
}

/// The signature at the start of `s`: the text before its first `{` (brace
/// languages), or its first logical line (Python), whitespace collapsed.
fn signature_of(lang: Lang, s: &str) -> String {
    let t = Text::new(s);
    let a = Analysis::with_lang(&t, lang, true);
    let code = a.code();
    if lang == Lang::Python {
        // The header's logical line: up to the `:` that ends a line in code.
        let mut end = s.len();
        for l in 0..t.line_count() {
            let c = a.code_line(l).trim_ascii_end();
            if c.ends_with(b":") {
                end = t.line_start(l) + c.len() - 1;
                break;
            }
        }
        return collapse(s.get(..end).unwrap_or(s));
    }
    match code.iter().position(|c| *c == b'{') {
        Some(p) => collapse(s.get(..p).unwrap_or("")),
        None => String::new(),
    }
}

/// Refuses a new_body that does not start with a definition.
fn check_signature(
    a: &Analysis,
    sym: &Symbol,
    new_sig: &str,
    new_rest: &str,
    path: &str,
) -> EditResult<()> {
    let looks_like_def = if a.lang == Lang::Python {
        let first = new_rest.trim_start();
        first.starts_with("def ") || first.starts_with("async def ") || first.starts_with("class ")
    } else {
        !new_sig.is_empty() && !new_sig.contains(';') && {
            let words = new_sig
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .collect::<Vec<_>>();
            words.contains(&sym.name.as_str()) || {
                // renamed: it must still parse as a definition
                let t = Text::new(new_rest);
                let na = Analysis::with_lang(&t, a.lang, true);
                na.outline().iter().any(|s| s.kind.is_function())
            }
        }
    };
    if looks_like_def {
        return Ok(());
    }
    let sig_line = a.text.line(sym.start_line).trim();
    Err(EditError::invalid(format!(
        "new_body must be the complete function, starting with its signature (e.g. `{sig_line}`), but it starts with `{}`. Writing it would delete the signature of {}. Send the whole function from its signature line through its last line, or use replace_block / str_replace to change part of it.",
        new_rest.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim(),
        sym.qualified(),
    ))
    .with_diagnostics(serde_json::json!({"function": sym.qualified(), "start_line": sym.start_line + 1, "end_line": sym.end_line + 1, "path": path})))
}

/// The byte range to replace when other code shares the function's first or last line.
fn partial_range(a: &Analysis, sym: &Symbol) -> Option<std::ops::Range<usize>> {
    let code = a.code();
    let ls = a.text.line_start(sym.start_line);
    let before = code.get(ls..sym.start).unwrap_or(b"");
    let before_ok = before.iter().all(|c| c.is_ascii_whitespace())
        || before.trim_ascii_start().starts_with(b"@")
        || before.trim_ascii_start().starts_with(b"#[");
    let le = a.text.line_range(sym.end_line).end;
    let after = code.get(sym.end.min(le)..le).unwrap_or(b"");
    let after_ok = after
        .iter()
        .all(|c| c.is_ascii_whitespace() || matches!(c, b';' | b',' | b')'));
    if before_ok && after_ok {
        None
    } else {
        Some(sym.start..sym.end)
    }
}
