//! Choosing among candidates: `occurrence`, `line_hint`, `replace_all`,
//! `expected_replacements`, and the nearest match after an `after_hint` landmark.
//! Exactly one candidate is chosen, or all of them when the caller asked for all;
//! anything else is a refusal that lists every candidate line so the next call can
//! name the one it means.

use super::{Candidate, Scope};
use crate::error::{EditError, EditResult, ErrorKind};
use crate::text::Text;
use serde_json::{json, Value};

/// The caller's instructions for choosing among candidates.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub replace_all: bool,
    pub occurrence: Option<usize>,
    pub expected: Option<usize>,
    pub line_hint: Option<usize>,
}

/// What is being looked for, for messages: `"old_str"`, `"after_content"`, …
pub struct Subject<'a> {
    pub what: &'a str,
    pub path: &'a str,
    /// Whether "all of them" is a valid answer (str_replace's `replace_all`).
    pub can_take_all: bool,
}

/// Chooses from `candidates` (non-empty, in file order). Returns the chosen ones and
/// notes for `warnings`.
pub fn select(
    text: &Text,
    candidates: Vec<Candidate>,
    sel: &Selection,
    subject: &Subject,
    scope: &Scope,
) -> EditResult<(Vec<Candidate>, Vec<String>)> {
    let what = subject.what;
    let n = candidates.len();
    if sel.replace_all && sel.occurrence.is_some() {
        return Err(EditError::invalid(
            "`replace_all` and `occurrence` contradict each other. Send one of them: occurrence: N for the N-th match, or replace_all: true for all.",
        ));
    }
    if let Some(k) = sel.occurrence {
        if k == 0 || k > n {
            return Err(EditError::new(
                ErrorKind::OccurrenceOutOfRange,
                format!(
                    "occurrence {k} asked, but {what} occurs {} in {}{} ({}). Send occurrence between 1 and {n} (counted from the top{}).",
                    times(n),
                    subject.path,
                    scope.describe(),
                    line_list(text, &candidates),
                    if scope.is_whole() { "" } else { " of the scope" }
                ),
            )
            .with_diagnostics(candidate_diagnostics(text, &candidates)));
        }
        let chosen = candidates[k - 1].clone();
        if let Some(e) = sel.expected.filter(|e| *e != 1) {
            return Err(EditError::invalid(format!(
                "expected_replacements: {e} with occurrence: {k} — occurrence picks exactly one match. Drop expected_replacements, or use replace_all: true."
            )));
        }
        return Ok((vec![chosen], Vec::new()));
    }
    if sel.replace_all || sel.expected.is_some_and(|e| e > 1) {
        if let Some(e) = sel.expected {
            if e != n {
                return Err(count_mismatch(text, &candidates, e, subject, scope));
            }
        }
        return Ok((candidates, Vec::new()));
    }
    if n == 1 {
        let mut notes = Vec::new();
        if let Some(hint) = sel.line_hint {
            let line = candidates[0].first_line(text) + 1;
            if line.abs_diff(hint) > 20 {
                notes.push(format!(
                    "line_hint was {hint}, but the only match of {what} is at line {line}; it was used."
                ));
            }
        }
        return Ok((candidates, notes));
    }
    if let Some(hint) = sel.line_hint {
        let distance = |c: &Candidate| (c.first_line(text) + 1).abs_diff(hint);
        let best = candidates.iter().map(distance).min().unwrap_or(0);
        let nearest: Vec<Candidate> = candidates
            .iter()
            .filter(|c| distance(c) == best)
            .cloned()
            .collect();
        if nearest.len() == 1 {
            let line = nearest[0].first_line(text) + 1;
            let note = format!(
                "{what} occurs {} ({}); line_hint {hint} chose the one at line {line}.",
                times(n),
                line_list(text, &candidates)
            );
            return Ok((nearest, vec![note]));
        }
        return Err(EditError::new(
            ErrorKind::Ambiguous,
            format!(
                "line_hint {hint} is equally near {} matches of {what} in {} ({}). Send occurrence: N (1-{n}, counted from the top) or a line_hint nearer the one you mean.",
                nearest.len(),
                subject.path,
                line_list(text, &nearest)
            ),
        )
        .with_diagnostics(candidate_diagnostics(text, &candidates)));
    }
    if scope.nearest {
        // The search began at the after_hint landmark: the first match is the nearest.
        let note = format!(
            "{what} occurs {}{} ({}); the nearest after the after_hint landmark, at line {}, was used.",
            times(n),
            scope.describe(),
            line_list(text, &candidates),
            candidates[0].first_line(text) + 1
        );
        return Ok((candidates[..1].to_vec(), vec![note]));
    }
    Err(ambiguous(text, &candidates, subject, scope))
}

fn ambiguous(text: &Text, candidates: &[Candidate], subject: &Subject, scope: &Scope) -> EditError {
    let n = candidates.len();
    let all = if subject.can_take_all {
        format!(", or replace_all: true to change all {n}")
    } else {
        String::new()
    };
    EditError::new(
        ErrorKind::Ambiguous,
        format!(
            "{} occurs {} in {}{} ({}). Say which one: add occurrence: N (1-{n}, counted from the top), or line_hint: <line>, or more surrounding lines in {}{all}.",
            subject.what,
            times(n),
            subject.path,
            scope.describe(),
            line_list(text, candidates),
            subject.what,
        ),
    )
    .with_diagnostics(candidate_diagnostics(text, candidates))
}

fn count_mismatch(
    text: &Text,
    candidates: &[Candidate],
    expected: usize,
    subject: &Subject,
    scope: &Scope,
) -> EditError {
    let n = candidates.len();
    let kind = if n > expected {
        ErrorKind::Ambiguous
    } else {
        ErrorKind::NoMatch
    };
    EditError::new(
        kind,
        format!(
            "expected_replacements is {expected}, but {} occurs {} in {}{} ({}). Nothing was changed. Send expected_replacements: {n} if all of them are meant, or make {} match only the places you mean.",
            subject.what,
            times(n),
            subject.path,
            scope.describe(),
            line_list(text, candidates),
            subject.what
        ),
    )
    .with_diagnostics(candidate_diagnostics(text, candidates))
}

fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// "lines 12, 40 and 88" (at most 12 listed); ranges ("lines 3-9 and 3-12") when
/// candidates share a first line, as elided matches can.
pub fn line_list(text: &Text, candidates: &[Candidate]) -> String {
    let firsts: Vec<usize> = candidates.iter().map(|c| c.first_line(text)).collect();
    let shared = firsts.windows(2).any(|w| w[0] == w[1]);
    let lines: Vec<String> = candidates
        .iter()
        .take(12)
        .map(|c| {
            let (a, b) = (c.first_line(text) + 1, c.last_line(text) + 1);
            if shared && b > a {
                format!("{a}-{b}")
            } else {
                a.to_string()
            }
        })
        .collect();
    let more = candidates.len().saturating_sub(12);
    let mut s = match lines.len() {
        0 => String::new(),
        1 => format!("line {}", lines[0]),
        _ => format!(
            "lines {} and {}",
            lines[..lines.len() - 1].join(", "),
            lines[lines.len() - 1]
        ),
    };
    if more > 0 {
        s.push_str(&format!(" and {more} more"));
    }
    s
}

/// `{"count": n, "candidates": [{line, end_line, text}]}` (first 100).
pub fn candidate_diagnostics(text: &Text, candidates: &[Candidate]) -> Value {
    let list: Vec<Value> = candidates
        .iter()
        .take(100)
        .map(|c| {
            let first = c.first_line(text);
            json!({
                "line": first + 1,
                "end_line": c.last_line(text) + 1,
                "text": text.line(first),
            })
        })
        .collect();
    json!({"count": candidates.len(), "candidates": list})
}

/// Adds to a refusal of several tolerant matches that none of them matched
/// byte-exactly, and at which level they did: more context in the request is the fix.
pub fn tolerant_refusal(mut err: EditError, via: Option<super::Via>) -> EditError {
    if let Some(via) = via.filter(|v| *v != super::Via::Exact) {
        if matches!(
            err.kind,
            ErrorKind::Ambiguous | ErrorKind::OccurrenceOutOfRange
        ) {
            err.message.push_str(&format!(
                " None of these matches is byte-exact; they were found via {}.",
                via.as_str()
            ));
            if err.diagnostics.is_object() {
                err.diagnostics["matched_via"] = json!(via.as_str());
            }
        }
    }
    err
}
