//! `multi_replace`: several str_replace edits, in one or more files, in one call.
//!
//! Each item is a str_replace call: it is parsed with str_replace's own [`ToolSpec`]
//! (same names, aliases and errors) and run by str_replace's own code
//! ([`str_replace::replace`]), so an item matches, recovers and refuses exactly as a
//! single call would. Items run in order on the call's workspace, so items on one file
//! see the text the earlier ones left; an item whose match overlaps text an earlier
//! item wrote is refused (`overlapping_edits`): it was almost certainly written against
//! the text before the batch, and applying it to the rewritten text would be a guess.
//! A batch whose items cannot see each other's work (plain, byte-exact, unique, apart:
//! `at_once.rs`) is run in one pass with that same outcome: each item is searched for
//! once in the file as it was, and each file is written once, as one change.
//!
//! `atomic: true` (the default): any failure refuses the whole batch, naming every
//! failed item with its full diagnostics. `atomic: false`: failed items are skipped
//! (their partial work is rolled back) and the others are applied; `results` reports
//! each.
//!
//! `replacements` arrives in three shapes, all read here: an array of objects, that
//! array as a JSON string, or `<replacement>…` XML inside any wrapper element, where
//! models write code unescaped: element text is taken literally up to its closing tag,
//! and CDATA is honoured. XML entities: an item whose old_str reads differently decoded
//! and literally is decoded unless only the literal text occurs in the file (once);
//! both occurring is `ambiguous` ([`pick_reading`]); otherwise entities are decoded
//! only when the document was consistently escaped. The XML reader and its grammar are
//! in `xml.rs`.

mod at_once;
mod xml;

use super::params::{ALLOW_UNBALANCED, DRY_RUN, ENCODING, EXPECTED_VERSIONS};
use super::str_replace;
use super::{check_versions, Ctx, Outcome};
use crate::args::{
    describe_value, resolve_name, typed_args, Annotations, Args, Param, ParamType, ToolSpec,
};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::locate::{MatchedVia, Via};
use crate::text::words::{lines_label, plural};
use crate::text::Text;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::ops::Range;

pub static SPEC: ToolSpec = ToolSpec {
    name: "multi_replace",
    description: "Apply several str_replace edits in one call, in one or more files. \
`replacements` is an array of str_replace argument objects, each with its own path and any \
str_replace option (occurrence, line_hint, after_hint, replace_all, …). Items on one file \
apply in order to the text as the earlier items left it; an item may not match text an \
earlier item wrote. atomic (default true): if any item fails, nothing changes and the \
error names it; atomic: false applies the items that succeed and reports each in `results`. \
Example: {\"replacements\": [{\"path\": \"src/a.py\", \"old_str\": \"x = 1\", \"new_str\": \"x = 2\"}, \
{\"path\": \"src/b.py\", \"old_str\": \"import a\", \"new_str\": \"import a, b\"}]}",
    params: &[
        Param {
            name: "replacements",
            aliases: &["edits", "changes"],
            ty: ParamType::ObjectList,
            required: true,
            description: "The edits: an array of {path, old_str, new_str, …} objects (the same array as a JSON string, or <replacements><replacement><path>…</path><old_str>…</old_str><new_str>…</new_str></replacement></replacements> XML, is accepted too).",
        },
        Param {
            name: "path",
            aliases: &["file_path", "filepath", "file", "filename", "target_file"],
            ty: ParamType::String,
            required: false,
            description: "The file for items that name none.",
        },
        Param {
            name: "atomic",
            aliases: &["all_or_nothing"],
            ty: ParamType::Boolean,
            required: false,
            description: "true (default): any failure changes nothing. false: apply the items that succeed.",
        },
        DRY_RUN,
        ALLOW_UNBALANCED,
        EXPECTED_VERSIONS,
        ENCODING,
    ],
    annotations: Annotations {
        title: "Replace text in several places",
        read_only: false,
        destructive: true,
        idempotent: false,
    },
};

/// The most items one call may carry: each item searches its file (and, run in order,
/// rewrites it), so a call costs up to items × file size; beyond this it is refused
/// before any item runs.
pub const MAX_REPLACEMENTS: usize = 1000;

/// The forms `replacements` may take, for messages.
const FORMS: &str = "Send `replacements` as an array of {\"path\": …, \"old_str\": …, \"new_str\": …} objects, or that array as a JSON string, or as XML: <replacements><replacement><path>…</path><old_str>…</old_str><new_str>…</new_str></replacement></replacements> (put text containing `</` in <![CDATA[…]]>).";

typed_args! {
    /// multi_replace's arguments, one field per parameter of [`SPEC`] (each item is
    /// read as [`str_replace::StrReplaceArgs`]).
    pub struct MultiReplaceArgs<'a> {
        replacements: Option<&'a Value>,
        path: Option<&'a str>,
        /// Default on.
        atomic: Option<bool>,
        dry_run: bool,
        allow_unbalanced: bool,
        expected_versions: Option<&'a Value>,
        encoding: Option<&'a str>,
    }
}

pub fn run(ctx: &mut Ctx, args: &Args) -> EditResult<Outcome> {
    let a = MultiReplaceArgs::from_args(args);
    let raw = a.replacements.unwrap_or(&Value::Null);
    let readings = read_items(raw, &mut ctx.warnings)?;
    if readings.is_empty() {
        return Err(EditError::invalid(format!(
            "`replacements` is empty: there is nothing to do. {FORMS}"
        )));
    }
    if readings.len() > MAX_REPLACEMENTS {
        return Err(EditError::invalid(format!(
            "`replacements` has {} items, over the limit of {MAX_REPLACEMENTS} per call. Nothing was changed. Send them in calls of at most {MAX_REPLACEMENTS}, or use replace_in_files for one replacement made everywhere, or create_file to rewrite a file whole.",
            readings.len()
        ))
        .with_diagnostics(json!({"replacements": readings.len(), "limit": MAX_REPLACEMENTS})));
    }
    let atomic = a.atomic.unwrap_or(true);
    let default_path = a.path;
    check_versions(ctx, args)?;

    // Pick each XML item's reading, parse every item, and check expected_version
    // against the files as they are before the batch (later items on a file see it
    // changed by earlier ones).
    let mut items: Vec<Value> = Vec::with_capacity(readings.len());
    let mut prepared: Vec<EditResult<Args>> = Vec::with_capacity(readings.len());
    for (i, reading) in readings.into_iter().enumerate() {
        let (item, picked) = pick_reading(ctx, i + 1, reading, default_path);
        prepared.push(picked.and_then(|()| prepare(ctx, &item, default_path)));
        items.push(item);
    }

    let outcomes = match at_once::run(ctx, &prepared) {
        Some(outcomes) => outcomes,
        None => in_order(ctx, prepared, &items, default_path),
    };

    let results: Vec<Value> = outcomes.iter().map(Item::to_json).collect();
    let failed: Vec<&Item> = outcomes.iter().filter(|o| o.result.is_err()).collect();
    let total = outcomes.len();
    if !failed.is_empty() && (atomic || failed.len() == total) {
        return Err(batch_error(&failed, total, atomic, results));
    }

    let mut vias: Vec<Via> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for o in &outcomes {
        match &o.result {
            Ok(done) => {
                if let Some(MatchedVia::Level(v)) = done.via {
                    vias.push(v);
                }
                for w in &done.warnings {
                    ctx.warnings.push(format!("Replacement {}: {w}", o.number));
                }
                lines.push(format!("[{}] {}", o.number, done.message));
            }
            Err(e) => {
                ctx.warnings.push(format!(
                    "Replacement {} was not applied ({}): {}",
                    o.number, e.kind, e.message
                ));
            }
        }
    }
    ctx.matched_via = Via::least_exact(vias).map(MatchedVia::Level);
    ctx.extra.insert("results".into(), Value::Array(results));
    let applied = total - failed.len();
    let message = if failed.is_empty() {
        format!(
            "Applied all {total} replacement{}: {}",
            plural(total),
            lines.join(" ")
        )
    } else {
        let numbers: Vec<String> = failed.iter().map(|f| f.number.to_string()).collect();
        format!(
            "Applied {applied} of {total} replacements (atomic: false): {} Not applied: replacement{} {} (see `results` for why; fix and send only those again).",
            lines.join(" "),
            plural(failed.len()),
            numbers.join(", ")
        )
    };
    Ok(Outcome::Edited { message })
}

/// Runs the items one after the other, each on the text the earlier ones left (the
/// reference [`at_once`] agrees with, and the way for every batch it does not take).
fn in_order(
    ctx: &mut Ctx,
    prepared: Vec<EditResult<Args>>,
    items: &[Value],
    default_path: Option<&str>,
) -> Vec<Item> {
    let mut written: HashMap<String, Vec<Region>> = HashMap::new();
    let mut outcomes: Vec<Item> = Vec::with_capacity(prepared.len());
    for (i, item) in prepared.into_iter().enumerate() {
        let number = i + 1;
        let outcome = match item {
            Ok(a) => run_item(ctx, number, &a, &mut written),
            Err(e) => Item {
                number,
                path: item_path(&items[i], default_path),
                result: Err(e),
            },
        };
        outcomes.push(outcome);
    }
    outcomes
}

/// One item's fate.
struct Item {
    number: usize,
    path: Option<String>,
    result: Result<Done, EditError>,
}

struct Done {
    message: String,
    via: Option<MatchedVia>,
    warnings: Vec<String>,
}

impl Item {
    fn to_json(&self) -> Value {
        let mut v =
            json!({"replacement": self.number, "path": self.path, "ok": self.result.is_ok()});
        match &self.result {
            Ok(done) => {
                v["message"] = json!(done.message);
                if let Some(via) = done.via {
                    v["matched_via"] = json!(via.as_str());
                }
                if !done.warnings.is_empty() {
                    v["warnings"] = json!(done.warnings);
                }
            }
            Err(e) => v["error"] = serde_json::to_value(e).unwrap_or(Value::Null),
        }
        v
    }
}

/// A range of a file's current text written by an earlier item.
struct Region {
    range: Range<usize>,
    item: usize,
}

/// Parses an item with str_replace's spec and checks its expected_version.
fn prepare(ctx: &mut Ctx, item: &Value, default_path: Option<&str>) -> EditResult<Args> {
    let Value::Object(obj) = item else {
        return Err(EditError::invalid(format!(
            "it is {}, but each replacement is an object {{\"path\": …, \"old_str\": …, \"new_str\": …}}.",
            describe_value(item)
        )));
    };
    let mut obj = obj.clone();
    if let Some(p) = default_path {
        if !names(&obj, "path") {
            obj.insert("path".into(), Value::String(p.to_string()));
        }
    }
    let args = Args::parse(&str_replace::SPEC, &obj)?;
    let item = str_replace::StrReplaceArgs::from_args(&args);
    if item.dry_run {
        return Err(EditError::invalid(
            "dry_run applies to the whole batch: pass it next to `replacements`, not inside an item.",
        ));
    }
    let Some(expected) = item.expected_version else {
        return Ok(args);
    };
    let path = ctx.ws.path(item.path.unwrap_or(""))?;
    let text = ctx.ws.read(&path)?;
    ctx.check_version(&path, &text, expected)?;
    // Checked; the item then runs on whatever the earlier items left.
    obj.retain(|k, _| {
        resolve_name(&str_replace::SPEC, k).map(|p| p.name) != Some("expected_version")
    });
    Args::parse(&str_replace::SPEC, &obj)
}

/// The path an item names (for messages about an item that could not be parsed).
fn item_path(item: &Value, default_path: Option<&str>) -> Option<String> {
    let obj = item.as_object()?;
    obj.iter()
        .find(|(k, _)| resolve_name(&str_replace::SPEC, k).is_some_and(|p| p.name == "path"))
        .and_then(|(_, v)| v.as_str())
        .or(default_path)
        .map(str::to_string)
}

/// Whether `obj` has a key naming str_replace's parameter `name`.
fn names(obj: &Map<String, Value>, name: &str) -> bool {
    obj.keys()
        .any(|k| resolve_name(&str_replace::SPEC, k).is_some_and(|p| p.name == name))
}

/// Runs one parsed item; on failure its partial work is undone.
fn run_item(
    ctx: &mut Ctx,
    number: usize,
    args: &Args,
    written: &mut HashMap<String, Vec<Region>>,
) -> Item {
    let path = ctx
        .ws
        .path(
            str_replace::StrReplaceArgs::from_args(args)
                .path
                .unwrap_or(""),
        )
        .ok();
    let before = path
        .as_deref()
        .and_then(|p| ctx.ws.try_read(p).ok().flatten());
    let snapshot = ctx.ws.snapshot();
    let warnings_before = ctx.warnings.len();
    ctx.matched_via = None;
    let result = str_replace::replace(ctx, args).and_then(|done| {
        let regions = written.get(&done.path).map(Vec::as_slice).unwrap_or(&[]);
        match overlap(regions, &done.spans) {
            Some((span, region)) => Err(overlap_error(
                &done.path,
                before.as_deref().map_or("", String::as_str),
                span,
                region,
            )),
            None => Ok(done),
        }
    });
    let warnings = ctx.warnings.split_off(warnings_before);
    let via = ctx.matched_via.take();
    match result {
        Ok(done) => {
            let regions = written.entry(done.path.clone()).or_default();
            record(regions, &done.spans, number);
            Item {
                number,
                path: Some(done.path),
                result: Ok(Done {
                    message: done.message,
                    via,
                    warnings,
                }),
            }
        }
        Err(e) => {
            ctx.ws.restore(snapshot);
            Item {
                number,
                path,
                result: Err(e),
            }
        }
    }
}

/// The first span of this item that overlaps a region written earlier.
fn overlap<'r>(
    regions: &'r [Region],
    spans: &[(Range<usize>, usize)],
) -> Option<(Range<usize>, &'r Region)> {
    for (span, _) in spans {
        for r in regions {
            let hit = if r.range.is_empty() {
                span.start < r.range.start && r.range.start < span.end
            } else {
                span.start < r.range.end && r.range.start < span.end
            };
            if hit {
                return Some((span.clone(), r));
            }
        }
    }
    None
}

/// Moves earlier regions past this item's changes and adds what it wrote.
fn record(regions: &mut Vec<Region>, spans: &[(Range<usize>, usize)], item: usize) {
    let shift =
        |at: usize, delta: i64| -> usize { usize::try_from(at as i64 + delta).unwrap_or(0) };
    for r in regions.iter_mut() {
        let delta: i64 = spans
            .iter()
            .filter(|(s, _)| s.end <= r.range.start)
            .map(|(s, len)| *len as i64 - s.len() as i64)
            .sum();
        r.range = shift(r.range.start, delta)..shift(r.range.end, delta);
    }
    let mut delta: i64 = 0;
    for (s, len) in spans {
        let start = shift(s.start, delta);
        regions.push(Region {
            range: start..start + len,
            item,
        });
        delta += *len as i64 - s.len() as i64;
    }
}

fn overlap_error(path: &str, before: &str, span: Range<usize>, region: &Region) -> EditError {
    let text = Text::new(before);
    let first = text.line_of(span.start.min(before.len()));
    let last = text.line_of(span.end.saturating_sub(1).min(before.len()));
    EditError::new(
        ErrorKind::OverlappingEdits,
        format!(
            "its old_str matches {} of {path}, text that replacement {} already rewrote in this batch. Items apply in order to the text as the earlier ones left it, so an item must not match what an earlier one wrote. Merge the two into one replacement, or give this one an old_str outside replacement {}'s change.",
            lines_label(first, last.max(first)),
            region.item,
            region.item
        ),
    )
    .with_diagnostics(json!({
        "path": path,
        "start_line": first + 1,
        "end_line": last.max(first) + 1,
        "overlaps_replacement": region.item,
    }))
}

/// The refusal of a batch: every failed item, with its own kind, message and
/// diagnostics; the kind of the first failure is the batch's.
fn batch_error(failed: &[&Item], total: usize, atomic: bool, results: Vec<Value>) -> EditError {
    let first = failed[0];
    let kind = first
        .result
        .as_ref()
        .err()
        .map_or(ErrorKind::InvalidArguments, |e| e.kind);
    let on = |f: &Item| {
        f.path
            .as_ref()
            .map(|p| format!(" ({p})"))
            .unwrap_or_default()
    };
    let head = if failed.len() == 1 {
        let e = first
            .result
            .as_ref()
            .err()
            .map_or("", |e| e.message.as_str());
        format!(
            "Replacement {} of {total}{} failed: {e}",
            first.number,
            on(first)
        )
    } else {
        let details: Vec<String> = failed
            .iter()
            .filter_map(|f| {
                let e = f.result.as_ref().err()?;
                Some(format!(
                    "Replacement {}{} failed ({}): {}",
                    f.number,
                    on(f),
                    e.kind,
                    e.message
                ))
            })
            .collect();
        format!(
            "{} of {total} replacements failed. {}",
            failed.len(),
            details.join(" ")
        )
    };
    let tail = if atomic {
        format!(
            " Nothing was changed: the batch is atomic (all or nothing). Fix {} and send the whole batch again, or send atomic: false to apply the others.",
            if failed.len() == 1 { "it" } else { "them" }
        )
    } else {
        " Nothing was changed: no replacement applied.".to_string()
    };
    let failures: Vec<Value> = failed
        .iter()
        .filter_map(|f| {
            f.result.as_ref().err().map(|e| {
                json!({"replacement": f.number, "path": f.path, "kind": e.kind,
                       "message": e.message, "diagnostics": e.diagnostics})
            })
        })
        .collect();
    EditError::new(kind, format!("{head}{tail}"))
        .with_diagnostics(json!({"failed": failures, "results": results}))
}

// ---------------------------------------------------------------------------------------
// The three shapes of `replacements`

/// An item as read. An XML item whose old_str reads differently with its entities
/// decoded and taken literally carries both readings; the file decides
/// ([`pick_reading`]).
struct Reading {
    item: Value,
    literal: Option<Value>,
}

fn plain(items: Vec<Value>) -> Vec<Reading> {
    items
        .into_iter()
        .map(|item| Reading {
            item,
            literal: None,
        })
        .collect()
}

/// The items of `replacements`: an array, a JSON string of one, or XML text.
fn read_items(raw: &Value, warnings: &mut Vec<String>) -> EditResult<Vec<Reading>> {
    match raw {
        Value::Array(items) => Ok(plain(items.clone())),
        Value::String(s) if s.trim_start().starts_with('<') => {
            let items = xml::read(s).map_err(|e| {
                let (line, column) = xml::line_column(s, e.at);
                EditError::invalid(format!(
                    "`replacements` looks like XML, but reading it stopped at line {line}, column {column}: expected {}. {FORMS}",
                    e.expected
                ))
                .with_diagnostics(json!({"form": "xml", "line": line, "column": column}))
            })?;
            warnings.push(format!(
                "`replacements` was XML text; {} replacement{} read from it.",
                items.0.len(),
                if items.0.len() == 1 { " was" } else { "s were" }
            ));
            let (items, consistent) = items;
            Ok(items
                .into_iter()
                .map(|x| {
                    let (decoded, literal) = (Value::Object(x.decoded), Value::Object(x.literal));
                    if old_str(&decoded) != old_str(&literal) {
                        Reading {
                            item: decoded,
                            literal: Some(literal),
                        }
                    } else if consistent && decoded != literal {
                        warnings.push("XML entities (&lt; &gt; &amp; …) in the XML were decoded: every `<` and `&` in it was escaped.".into());
                        Reading {
                            item: decoded,
                            literal: None,
                        }
                    } else {
                        Reading {
                            item: literal,
                            literal: None,
                        }
                    }
                })
                .collect())
        }
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Array(items)) => {
                warnings.push("`replacements` was a JSON string; it was parsed as the array it holds (send the array itself next time).".into());
                Ok(plain(items))
            }
            Ok(Value::Object(o)) => match o.get("replacements").or_else(|| o.get("edits")) {
                Some(Value::Array(items)) => Ok(plain(items.clone())),
                _ => Ok(plain(vec![Value::Object(o)])),
            },
            Ok(other) => Err(EditError::invalid(format!(
                "`replacements` is a JSON string holding {}, not an array of objects. {FORMS}",
                describe_value(&other)
            ))),
            Err(e) => Err(EditError::invalid(format!(
                "`replacements` is a string but not valid JSON: parsing stopped at line {}, column {} ({e}){}. {FORMS}",
                e.line(),
                e.column(),
                if e.is_eof() { "; it may have been cut off" } else { "" }
            ))
            .with_diagnostics(json!({"form": "json", "line": e.line(), "column": e.column()}))),
        },
        other => Err(EditError::invalid(format!(
            "`replacements` is {}. {FORMS}",
            describe_value(other)
        ))),
    }
}

/// An item's old_str, under any of its names.
fn old_str(item: &Value) -> Option<&str> {
    item.as_object()?
        .iter()
        .find(|(k, _)| resolve_name(&str_replace::SPEC, k).is_some_and(|p| p.name == "old_str"))
        .and_then(|(_, v)| v.as_str())
}

/// Which reading of an XML item to run: entities decoded, unless only the literal
/// old_str occurs in the file, and exactly once (code often holds `&amp;` itself).
/// When both readings occur the call is refused: the two would edit different text,
/// and nothing says which was meant.
fn pick_reading(
    ctx: &mut Ctx,
    number: usize,
    reading: Reading,
    default_path: Option<&str>,
) -> (Value, EditResult<()>) {
    let Reading { item, literal } = reading;
    let Some(literal) = literal else {
        return (item, Ok(()));
    };
    let text = item_path(&item, default_path)
        .and_then(|p| ctx.ws.path(&p).ok())
        .and_then(|p| ctx.ws.read(&p).ok());
    let Some(text) = text else {
        return (item, Ok(()));
    };
    let count = |v: &Value| {
        old_str(v)
            .filter(|o| !o.is_empty())
            .map_or(0, |o| text.matches(o).count())
    };
    match (count(&item), count(&literal)) {
        (0, 1) => {
            ctx.warnings.push(format!(
                "Replacement {number}: its XML entities were taken literally (`&amp;` stays `&amp;`): only the literal old_str occurs in the file."
            ));
            (literal, Ok(()))
        }
        (d, l) if d > 0 && l > 0 => {
            let err = EditError::new(
                ErrorKind::Ambiguous,
                format!(
                    "Replacement {number}: old_str occurs in the file both with its XML entities decoded ({d} time{}) and taken literally ({l} time{}), so which text is meant is not certain. Send that old_str in <![CDATA[…]]> (taken literally), or send `replacements` as a JSON array.",
                    plural(d),
                    plural(l)
                ),
            );
            (item, Err(err))
        }
        _ => {
            ctx.warnings.push(format!(
                "Replacement {number}: XML entities (&lt; &gt; &amp; …) in it were decoded."
            ));
            (item, Ok(()))
        }
    }
}
