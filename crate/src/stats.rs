//! Edit statistics: how an agent's calls fare, per tool.
//!
//! Every call becomes one [`Record`]; [`Stats`] is the fold of the records. Hosts that
//! live across calls (wasm, MCP servers, editors) keep a `Session` and its stats; the
//! CLI, one process per call, appends each record to a JSON-lines file and replays the
//! file on start, so both reach the same numbers (and the same "third failure in a row"
//! advice).
//!
//! Refusals are counted by kind (`errors`) and, where one kind covers several causes, by
//! cause (`reasons`, from [`failure_reason`]): a function scope not found versus an
//! after/between landmark not found, an occurrence out of range, a partial match (the
//! text was not found but a close region was) versus nothing similar. `replace_all`
//! calls are counted apart, since their success says nothing about locating one place.
//! Fields added after the first release carry `#[serde(default)]`, so stats saved by an
//! older version still load.

use crate::result::Edit;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One call, as statistics see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The tool called.
    pub tool: String,
    /// The file it named, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Whether it succeeded.
    pub ok: bool,
    /// The refusal's kind, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<String>,
    /// The recovery that found the text, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched_via: Option<String>,
    /// Whether it was a dry run.
    #[serde(default)]
    pub dry_run: bool,
    /// Whether the tool changes files.
    #[serde(default)]
    pub edits: bool,
    /// Hint arguments given (`line_hint`, `function_hint`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
    /// How many lines `old_str` had (str_replace).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_str_lines: Option<usize>,
    /// Identifies the call apart from `dry_run`, to pair a dry run with its commit.
    #[serde(default)]
    pub fingerprint: String,
    /// The agent's `explanation` argument, kept for whoever reads the history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// The refusal's cause, finer than its kind ([`failure_reason`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The call asked for `replace_all`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replace_all: bool,
    /// Functions whose signature the edit changed ([`edit_shape`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub signature_changes: usize,
    /// Functions the edit rewrote more than half of ([`edit_shape`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub large_edits: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What an edit did to the functions of the file as it was.
#[derive(Debug, Default, PartialEq)]
pub struct EditShape {
    /// Warnings, one per function concerned.
    pub warnings: Vec<String>,
    pub signature_changes: usize,
    pub large_edits: usize,
}

/// The functions of `old` an edit to `new` touched: a changed line in a function's
/// header (from its first line to the line its body starts on) is a signature change,
/// unless the whole function went; changed lines that are more than half of a
/// function's lines make a large edit. Whole lines only inserted touch nothing. Only
/// the items around the changed lines are analysed ([`item_window`]).
pub fn edit_shape(path: &str, old: &str, edits: &[Edit]) -> EditShape {
    let mut shape = EditShape::default();
    let changed = changed_old_lines(edits);
    if changed.is_empty() {
        return shape;
    }
    let (first, last) = match (changed.first(), changed.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => return shape,
    };
    let Some((top, window)) = item_window(old, first, last) else {
        return shape;
    };
    let sub = &old[window];
    let text = crate::text::Text::new(sub);
    let analysis = crate::blocks::Analysis::new(&text, path);
    for f in analysis.outline().iter().filter(|f| f.kind.is_function()) {
        let (start_line, end_line) = (f.start_line + top, f.end_line + top);
        let lines = end_line - start_line + 1;
        let touched = rows_within(&changed, start_line, end_line);
        if touched == 0 {
            continue;
        }
        let name = f.qualified();
        // `body` is the `{` (on the header's last line) or, in Python, the byte after the
        // header line's end: the byte before it is on the header's last line either way.
        let header_end =
            (text.line_of(f.body.saturating_sub(1).min(sub.len())) + top).max(start_line);
        let header_changed = rows_within(&changed, start_line, header_end) > 0;
        if header_changed && touched < lines {
            shape.signature_changes += 1;
            shape.warnings.push(format!(
                "The signature of `{name}` (line {}) changed: check its callers (grep_file {{\"pattern\": \"{}\"}}).",
                start_line + 1,
                f.name
            ));
        }
        if touched * 2 > lines && lines > 2 {
            shape.large_edits += 1;
            shape.warnings.push(format!(
                "This edit changed {touched} of the {lines} lines of `{name}` (lines {}-{}): check that nothing was dropped.",
                start_line + 1,
                end_line + 1
            ));
        }
    }
    shape
}

/// The part of `old` analysed for an edit of lines `first..=last`, as its first line and
/// byte range: from the top-level item around `first` to the one after `last`, so an
/// edit costs the size of what it touches, not of the file (nor an index of its lines).
/// An item opens on a line that starts at column 0 with neither a closing bracket nor a
/// space, after a blank line (or on the first line): its decorators, attributes and doc
/// comments come with it, and a method's class or `impl` is part of the window (its
/// qualified name is right).
///
/// None when the window would pass [`WINDOW_MAX`] (a file without blank lines
/// between items, a minified line): the shape is then not worked out, so that an edit
/// costs at most that much analysis.
fn item_window(old: &str, first: usize, last: usize) -> Option<(usize, std::ops::Range<usize>)> {
    let b = old.as_bytes();
    let line_at = |start: usize| {
        let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |k| start + k);
        &b[start..end]
    };
    let prev_start = |start: usize| {
        (start > 0).then(|| memchr::memrchr(b'\n', &b[..start - 1]).map_or(0, |k| k + 1))
    };
    let opens = |start: usize| match prev_start(start) {
        None => true,
        Some(prev) => {
            let starts_item = line_at(start)
                .first()
                .is_some_and(|c| !c.is_ascii_whitespace() && !matches!(c, b'}' | b')' | b']'));
            starts_item && line_at(prev).iter().all(u8::is_ascii_whitespace)
        }
    };
    let (mut top, mut from) = (first, crate::text::scan::line_start(b, first));
    // Counted on from the first changed line, not from the file's start again.
    let changed_end = from + crate::text::scan::line_start(&b[from..], last + 1 - first);
    if changed_end - from > WINDOW_MAX {
        return None;
    }
    let too_far = |from: usize, to: usize| to - from > WINDOW_MAX;
    while let Some(prev) = prev_start(from).filter(|_| !opens(from)) {
        (top, from) = (top.saturating_sub(1), prev);
        if too_far(from, changed_end) {
            return None;
        }
    }
    let mut to = changed_end;
    while to < b.len() && !opens(to) {
        to = memchr::memchr(b'\n', &b[to..]).map_or(b.len(), |k| to + k + 1);
        if too_far(from, to) {
            return None;
        }
    }
    Some((top, from..to))
}

/// The most text [`edit_shape`] analyses for one edit (128 KiB, ~3 500 lines of code):
/// lexing costs ~5 ns a byte, so the warnings stay within ~1 ms of an edit. Larger
/// items (generated code, one huge class) get no shape warnings.
const WINDOW_MAX: usize = 128 << 10;

/// How many of the sorted `rows` are in `first..=last`.
fn rows_within(rows: &[usize], first: usize, last: usize) -> usize {
    rows.partition_point(|&r| r <= last)
        .saturating_sub(rows.partition_point(|&r| r < first))
}

/// The 0-based lines of the old text that `edits` (the change's minimal edits, computed
/// for the result anyway) change, sorted, each once; inserting whole lines changes none.
/// A sorted vector, not a set: a `replace_all` over 190 000 lines lists them all.
fn changed_old_lines(edits: &[Edit]) -> Vec<usize> {
    let mut out = Vec::new();
    for e in edits {
        let (start, end) = (e.range.start, e.range.end);
        if start == end {
            // Whole lines inserted (before a line, or after a line's end) touch no old
            // line; text inserted inside a line changes it.
            let whole_lines =
                e.text.starts_with(['\n', '\r']) || (start.column == 0 && e.text.ends_with('\n'));
            if !whole_lines {
                out.push(start.row);
            }
            continue;
        }
        // A range ending at a line's first column leaves that line untouched.
        let last = if end.column == 0 && end.row > start.row {
            end.row - 1
        } else {
            end.row
        };
        out.extend(start.row..=last);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A refusal's cause where its kind covers several: `function_scope_not_found` /
/// `landmark_not_found` (scope_not_found with or without a function list),
/// `occurrence_out_of_range`, `partial_match` / `no_match` (a close region was shown or
/// not). None for the kinds that name their cause already.
pub fn failure_reason(kind: &str, diagnostics: &serde_json::Value) -> Option<String> {
    let has = |k: &str| diagnostics.get(k).is_some_and(|v| !v.is_null());
    let reason = match kind {
        "scope_not_found" if has("functions") || has("closest") => "function_scope_not_found",
        "scope_not_found" => "landmark_not_found",
        "occurrence_out_of_range" => "occurrence_out_of_range",
        "no_match" if has("closest") => "partial_match",
        "no_match" => "no_match",
        _ => return None,
    };
    Some(reason.to_string())
}

/// Counts for one hint argument.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HintStats {
    pub used: u64,
    pub succeeded: u64,
}

/// Counts for one tool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolStats {
    pub calls: u64,
    /// Editing tools: committed successes. Reading tools: successes.
    pub applied: u64,
    /// Successful dry runs.
    pub previewed: u64,
    pub refused: u64,
    pub errors: BTreeMap<String, u64>,
    pub matched_via: BTreeMap<String, u64>,
    pub hints: BTreeMap<String, HintStats>,
    /// Dry runs followed by the same call committed.
    pub dry_runs_committed: u64,
    pub old_str_lines_total: u64,
    pub old_str_count: u64,
    /// Refusals by cause ([`failure_reason`]).
    #[serde(default)]
    pub reasons: BTreeMap<String, u64>,
    /// Calls with `replace_all`, and how many of them succeeded.
    #[serde(default)]
    pub replace_all: HintStats,
    /// Functions whose signature successful edits changed.
    #[serde(default)]
    pub signature_changes: u64,
    /// Functions successful edits rewrote more than half of.
    #[serde(default)]
    pub large_edits: u64,
}

impl ToolStats {
    pub fn average_old_str_lines(&self) -> Option<f64> {
        (self.old_str_count > 0)
            .then(|| self.old_str_lines_total as f64 / self.old_str_count as f64)
    }
}

/// The fold of every record since the last reset.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Per tool, by name.
    pub tools: BTreeMap<String, ToolStats>,
    /// Fingerprints of recent successful dry runs not yet committed.
    #[serde(default)]
    pending_dry_runs: Vec<String>,
    /// (tool, path) → consecutive refusals.
    #[serde(default)]
    failure_streaks: BTreeMap<String, u32>,
}

const PENDING_KEPT: usize = 64;

impl Stats {
    /// Folds one call in. Returns the refusal streak of this tool on this file after it
    /// (0 after a success).
    pub fn record(&mut self, r: &Record) -> u32 {
        let t = self.tools.entry(r.tool.clone()).or_default();
        t.calls += 1;
        if r.ok {
            if r.dry_run {
                t.previewed += 1;
            } else {
                t.applied += 1;
            }
        } else {
            t.refused += 1;
            if let Some(k) = &r.error_kind {
                *t.errors.entry(k.clone()).or_default() += 1;
            }
            if let Some(k) = &r.reason {
                *t.reasons.entry(k.clone()).or_default() += 1;
            }
        }
        if r.ok {
            t.signature_changes += r.signature_changes as u64;
            t.large_edits += r.large_edits as u64;
        }
        if r.replace_all {
            t.replace_all.used += 1;
            if r.ok {
                t.replace_all.succeeded += 1;
            }
        }
        if r.ok {
            if let Some(v) = &r.matched_via {
                *t.matched_via.entry(v.clone()).or_default() += 1;
            }
        }
        for h in &r.hints {
            let hs = t.hints.entry(h.clone()).or_default();
            hs.used += 1;
            if r.ok {
                hs.succeeded += 1;
            }
        }
        if let Some(n) = r.old_str_lines {
            t.old_str_lines_total += n as u64;
            t.old_str_count += 1;
        }
        if r.ok && r.edits && !r.fingerprint.is_empty() {
            if r.dry_run {
                self.pending_dry_runs.retain(|f| f != &r.fingerprint);
                self.pending_dry_runs.push(r.fingerprint.clone());
                if self.pending_dry_runs.len() > PENDING_KEPT {
                    self.pending_dry_runs.remove(0);
                }
            } else if let Some(i) = self
                .pending_dry_runs
                .iter()
                .position(|f| f == &r.fingerprint)
            {
                self.pending_dry_runs.remove(i);
                t.dry_runs_committed += 1;
            }
        }
        let key = format!("{}\u{0}{}", r.tool, r.path.as_deref().unwrap_or(""));
        if r.ok {
            self.failure_streaks.remove(&key);
            0
        } else {
            let n = self.failure_streaks.entry(key).or_default();
            *n += 1;
            *n
        }
    }

    /// Forgets every record.
    pub fn reset(&mut self) {
        *self = Stats::default();
    }

    /// "34 edits: 28 applied (82%), 6 refused (no_match 4, ambiguous 2); …"
    pub fn summary(&self) -> String {
        let mut edits = ToolStats::default();
        let mut reads = 0;
        for (name, t) in &self.tools {
            let editing = crate::tools::spec(name).is_some_and(|s| s.edits());
            if !editing {
                reads += t.calls;
                continue;
            }
            edits.calls += t.calls;
            edits.applied += t.applied;
            edits.previewed += t.previewed;
            edits.refused += t.refused;
            edits.dry_runs_committed += t.dry_runs_committed;
            for (k, n) in &t.errors {
                *edits.errors.entry(k.clone()).or_default() += n;
            }
            for (k, n) in &t.matched_via {
                *edits.matched_via.entry(k.clone()).or_default() += n;
            }
        }
        if edits.calls == 0 && reads == 0 {
            return "No calls recorded yet.".into();
        }
        let pct = |n: u64| {
            (n * 100 + edits.calls / 2)
                .checked_div(edits.calls)
                .unwrap_or(0)
        };
        let mut s = format!(
            "{} edit{}: {} applied ({}%), {} refused",
            edits.calls,
            crate::text::words::plural(edits.calls),
            edits.applied,
            pct(edits.applied),
            edits.refused
        );
        if !edits.errors.is_empty() {
            s.push_str(&format!(" ({})", counts(&edits.errors)));
        }
        if edits.previewed > 0 {
            s.push_str(&format!(
                ", {} dry run{} ({} committed after)",
                edits.previewed,
                crate::text::words::plural(edits.previewed),
                edits.dry_runs_committed
            ));
        }
        let recovered: BTreeMap<String, u64> = edits
            .matched_via
            .iter()
            .filter(|(k, _)| k.as_str() != "exact")
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        if !recovered.is_empty() {
            let n: u64 = recovered.values().sum();
            s.push_str(&format!("; {n} recovered ({})", counts(&recovered)));
        }
        s.push_str(&format!(
            "; {reads} read{}.",
            crate::text::words::plural(reads)
        ));
        s
    }
}

fn counts(map: &BTreeMap<String, u64>) -> String {
    let mut v: Vec<(&String, &u64)> = map.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    v.iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(tool: &str, ok: bool, dry: bool, fp: &str) -> Record {
        Record {
            tool: tool.into(),
            path: Some("a.rs".into()),
            ok,
            error_kind: (!ok).then(|| "no_match".into()),
            matched_via: ok.then(|| "exact".into()),
            dry_run: dry,
            edits: true,
            hints: vec!["line_hint".into()],
            old_str_lines: Some(3),
            fingerprint: fp.into(),
            explanation: None,
            reason: (!ok).then(|| "partial_match".into()),
            replace_all: false,
            signature_changes: 0,
            large_edits: 0,
        }
    }

    #[test]
    fn signature_changes_and_large_edits_are_found() {
        let old = "fn a(x: u32) -> u32 {\n    let y = x;\n    let z = y;\n    z\n}\n\nfn b() {\n    one();\n    two();\n    three();\n}\n";
        // (new text, signature changes, large edits)
        let cases = [
            (old.replace("fn a(x: u32)", "fn a(x: u64)"), 1, 0),
            (
                old.replace("    one();\n    two();\n    three();\n", "    four();\n"),
                0,
                1,
            ),
            (
                old.replace("    let z = y;\n", "    let z = y + 1;\n"),
                0,
                0,
            ),
            (
                old.replace("    one();\n", "    one();\n    extra();\n"),
                0,
                0,
            ),
        ];
        for (new, signatures, large) in cases {
            let change = crate::changes::describe(
                crate::workspace::Changed {
                    path: "a.rs".into(),
                    original: Some(std::sync::Arc::new(old.to_string())),
                    current: Some(std::sync::Arc::new(new.clone())),
                    moved_to: None,
                    encoding: None,
                    change: None,
                },
                true,
            );
            let shape = edit_shape("a.rs", old, &change.edits);
            assert_eq!(
                (shape.signature_changes, shape.large_edits),
                (signatures, large),
                "{new}"
            );
            assert_eq!(shape.warnings.len(), signatures + large);
        }
    }

    #[test]
    fn reasons_split_the_kinds_that_cover_several_causes() {
        let none = serde_json::json!({});
        let cases = [
            (
                "scope_not_found",
                serde_json::json!({"functions": []}),
                Some("function_scope_not_found"),
            ),
            ("scope_not_found", none.clone(), Some("landmark_not_found")),
            (
                "occurrence_out_of_range",
                none.clone(),
                Some("occurrence_out_of_range"),
            ),
            (
                "no_match",
                serde_json::json!({"closest": {"start_line": 3}}),
                Some("partial_match"),
            ),
            ("no_match", none.clone(), Some("no_match")),
            ("ambiguous", none.clone(), None),
        ];
        for (kind, diagnostics, want) in cases {
            assert_eq!(
                failure_reason(kind, &diagnostics).as_deref(),
                want,
                "{kind} {diagnostics}"
            );
        }
    }

    #[test]
    fn replace_all_and_reasons_are_counted_apart() {
        let mut s = Stats::default();
        s.record(&rec("str_replace", false, false, "a"));
        let mut all = rec("str_replace", true, false, "b");
        all.replace_all = true;
        s.record(&all);
        let t = &s.tools["str_replace"];
        assert_eq!(t.reasons["partial_match"], 1);
        assert_eq!(
            t.replace_all,
            HintStats {
                used: 1,
                succeeded: 1
            }
        );
    }

    #[test]
    fn stats_saved_before_the_new_fields_still_load() {
        let old = r#"{"tools": {"str_replace": {"calls": 1, "applied": 1, "previewed": 0,
            "refused": 0, "errors": {}, "matched_via": {}, "hints": {},
            "dry_runs_committed": 0, "old_str_lines_total": 2, "old_str_count": 1}}}"#;
        let s: Stats = serde_json::from_str(old).unwrap();
        let t = &s.tools["str_replace"];
        assert_eq!((t.calls, t.replace_all.used), (1, 0));
        assert!(t.reasons.is_empty());
        let record: Record =
            serde_json::from_str(r#"{"tool": "str_replace", "ok": true}"#).unwrap();
        assert!(!record.replace_all && record.reason.is_none());
    }

    #[test]
    fn folds_records_and_streaks() {
        let mut s = Stats::default();
        assert_eq!(s.record(&rec("str_replace", false, false, "x")), 1);
        assert_eq!(s.record(&rec("str_replace", false, false, "x")), 2);
        assert_eq!(s.record(&rec("str_replace", false, false, "x")), 3);
        assert_eq!(s.record(&rec("str_replace", true, true, "y")), 0);
        assert_eq!(s.record(&rec("str_replace", true, false, "y")), 0);
        assert_eq!(s.record(&rec("str_replace", true, false, "y")), 0);
        let t = &s.tools["str_replace"];
        assert_eq!((t.calls, t.applied, t.previewed, t.refused), (6, 2, 1, 3));
        assert_eq!(
            t.dry_runs_committed, 1,
            "only the first commit pairs with the dry run"
        );
        assert_eq!(t.errors["no_match"], 3);
        assert_eq!(
            t.hints["line_hint"],
            HintStats {
                used: 6,
                succeeded: 3
            }
        );
        assert_eq!(t.average_old_str_lines(), Some(3.0));
        assert_eq!(
            s.summary(),
            "6 edits: 2 applied (33%), 3 refused (no_match 3), 1 dry run (1 committed after); 0 reads."
        );
        let json = serde_json::to_string(&s).unwrap();
        let back: Stats = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        s.reset();
        assert_eq!(s.summary(), "No calls recorded yet.");
    }
}
