//! What a long-lived session remembers about files: the texts of the versions it handed
//! out (for rebasing edits sent against an old version) and the applied editing calls
//! (for `undo_edit`).
//!
//! Decisions:
//! - Both are bounded: [`MAX_ENTRIES`] entries and [`MAX_BYTES`] of text each, the
//!   oldest dropped first. A version no longer held behaves as before rebasing existed
//!   (a plain `stale_buffer`); a call no longer in the history cannot be undone.
//! - Texts are shared (`Arc`), never copied: the workspace's originals and the new texts
//!   of a call are the same allocations the results hand out.
//! - Versions are kept per path: a version sent for a file is looked up among that
//!   file's texts only, so a version copied from another file's read is never taken for
//!   this file's past.
//! - Only what landed is remembered. Dry runs and refusals record no call; a host that
//!   fails to apply a result calls [`Living::discard_last`] (`Session::discard_last`),
//!   which drops the call and the versions only it produced.
//! - The state is plain data ([`Living::to_json`] / [`Living::from_json`]) so that a
//!   host without a long-lived process (the CLI's `--state DIR`) can carry it from one
//!   call to the next.

use crate::text::encoding::FileEncoding;
use crate::text::version_of;
use crate::workspace::Changed;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::Arc;

/// Most versions (and most calls in the history) kept.
pub const MAX_ENTRIES: usize = 64;

/// Most bytes of text kept by the version store (and, apart, by the history).
pub const MAX_BYTES: usize = 64 << 20;

/// One applied editing call: every file it changed, before and after.
#[derive(Clone, Debug)]
pub struct Applied {
    /// The tool called.
    pub tool: String,
    /// The files, as the workspace reported them (a move on its source).
    pub files: Vec<Changed>,
}

impl Applied {
    fn bytes(&self) -> usize {
        self.files
            .iter()
            .map(|c| {
                c.original.as_ref().map_or(0, |t| t.len())
                    + c.current.as_ref().map_or(0, |t| t.len())
            })
            .sum()
    }
}

/// What the last call left that a host may take back ([`Living::discard_last`]).
#[derive(Clone, Debug, Default)]
enum Last {
    #[default]
    Nothing,
    /// An editing call was pushed on the history; these (path, version) were new with it.
    Pushed(Vec<(String, String)>),
    /// `undo_edit` took these calls off the history (oldest first).
    Undid(Vec<Applied>),
}

/// The version store and the history of applied calls.
#[derive(Clone, Debug, Default)]
pub struct Living {
    /// (path, version, text), oldest first.
    versions: VecDeque<(String, String, Arc<String>)>,
    version_bytes: usize,
    history: VecDeque<Applied>,
    last: Last,
    /// Keep nothing (a host whose session ends with its one call): holding the texts
    /// would only keep a copy of each alive while the result is built.
    off: bool,
}

impl Living {
    /// Stops (or resumes) keeping versions and applied calls.
    pub fn set_off(&mut self, off: bool) {
        self.off = off;
    }

    /// Whether versions and applied calls are kept.
    pub fn is_on(&self) -> bool {
        !self.off
    }

    /// The text `path` had at `version` (lower-case hex), when held.
    pub fn text_of(&self, path: &str, version: &str) -> Option<Arc<String>> {
        self.versions
            .iter()
            .rev()
            .find(|(p, v, _)| p == path && v == version)
            .map(|(_, _, t)| t.clone())
    }

    /// Remembers that `path` had `text`; returns its version when it was not held
    /// before.
    pub fn remember(&mut self, path: &str, text: &Arc<String>) -> Option<String> {
        self.remember_as(path, text, None)
    }

    /// [`Living::remember`], with the text's version when the caller has it already.
    /// A text held under `path` as this very string (a host's kept buffer, read again)
    /// is not hashed again: the store holds it, so the pointer cannot have been reused.
    fn remember_as(
        &mut self,
        path: &str,
        text: &Arc<String>,
        known: Option<&str>,
    ) -> Option<String> {
        if self.off {
            return None;
        }
        if let Some(i) = self
            .versions
            .iter()
            .position(|(p, _, t)| p == path && Arc::ptr_eq(t, text))
        {
            let entry = self.versions.remove(i)?;
            self.versions.push_back(entry);
            return None;
        }
        let version = known.map_or_else(|| version_of(text), str::to_string);
        if let Some(i) = self
            .versions
            .iter()
            .position(|(p, v, _)| p == path && *v == version)
        {
            // Seen again: it becomes the newest, held as this allocation (the one a kept
            // buffer holds now, found by pointer on the next call instead of hashed).
            let (p, v, held) = self.versions.remove(i)?;
            self.version_bytes = self.version_bytes - held.len() + text.len();
            self.versions.push_back((p, v, Arc::clone(text)));
            return None;
        }
        self.version_bytes += text.len();
        self.versions
            .push_back((path.to_string(), version.clone(), text.clone()));
        while self.versions.len() > MAX_ENTRIES
            || (self.version_bytes > MAX_BYTES && self.versions.len() > 1)
        {
            if let Some((_, _, t)) = self.versions.pop_front() {
                self.version_bytes -= t.len();
            }
        }
        Some(version)
    }

    /// Forgets the last call's bookkeeping (a call that changed nothing, a refusal).
    pub fn no_call(&mut self) {
        self.last = Last::Nothing;
    }

    /// Records an applied editing call and the texts it produced; `versions` gives the
    /// version of each produced text by its path, where the caller computed it already.
    pub fn applied(&mut self, tool: &str, files: Vec<Changed>, versions: &[(&str, &str)]) {
        if self.off {
            return;
        }
        let mut new_versions = Vec::new();
        for c in &files {
            let at = c.moved_to.as_deref().unwrap_or(&c.path);
            let known = versions.iter().find(|(p, _)| *p == at).map(|(_, v)| *v);
            if let Some(v) = c
                .current
                .as_ref()
                .and_then(|t| self.remember_as(at, t, known))
            {
                new_versions.push((at.to_string(), v));
            }
        }
        self.history.push_back(Applied {
            tool: tool.to_string(),
            files,
        });
        let mut bytes: usize = self.history.iter().map(Applied::bytes).sum();
        while self.history.len() > MAX_ENTRIES || (bytes > MAX_BYTES && self.history.len() > 1) {
            if let Some(a) = self.history.pop_front() {
                bytes -= a.bytes();
            }
        }
        self.last = Last::Pushed(new_versions);
    }

    /// The files of the last call when it was an applied editing call (empty after a
    /// dry run, a refusal, an undo, or with keeping off).
    pub fn last_applied(&self) -> &[Changed] {
        match (&self.last, self.history.back()) {
            (Last::Pushed(_), Some(a)) => &a.files,
            _ => &[],
        }
    }

    /// The last `steps` applied calls, newest first (fewer when the history is shorter).
    pub fn newest(&self, steps: usize) -> Vec<&Applied> {
        self.history.iter().rev().take(steps).collect()
    }

    /// How many calls the history holds.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Takes the last `steps` calls off the history (an undo landed, or will: the host
    /// reports a failure with [`Living::discard_last`]).
    pub fn undone(&mut self, steps: usize, restored: &[(String, Arc<String>)]) {
        let keep = self.history.len().saturating_sub(steps);
        let taken: Vec<Applied> = self.history.drain(keep..).collect();
        for (path, t) in restored {
            self.remember(path, t);
        }
        self.last = Last::Undid(taken);
    }

    /// The host could not apply the last result: forget that it landed. Returns whether
    /// there was anything to take back.
    pub fn discard_last(&mut self) -> bool {
        match std::mem::take(&mut self.last) {
            Last::Nothing => false,
            Last::Pushed(versions) => {
                self.history.pop_back();
                self.versions
                    .retain(|(p, v, _)| !versions.iter().any(|(vp, vv)| vp == p && vv == v));
                self.version_bytes = self.versions.iter().map(|(_, _, t)| t.len()).sum();
                true
            }
            Last::Undid(taken) => {
                self.history.extend(taken);
                true
            }
        }
    }

    /// The state as JSON, for hosts that keep it between processes.
    pub fn to_json(&self) -> Value {
        let text = |t: &Option<Arc<String>>| t.as_deref().map_or(Value::Null, |s| json!(s));
        let history: Vec<Value> = self
            .history
            .iter()
            .map(|a| {
                let files: Vec<Value> = a
                    .files
                    .iter()
                    .map(|c| json!({"path": c.path, "before": text(&c.original), "after": text(&c.current), "moved_to": c.moved_to, "encoding": c.encoding}))
                    .collect();
                json!({"tool": a.tool, "files": files})
            })
            .collect();
        let versions: Vec<Value> = self
            .versions
            .iter()
            .map(|(p, _, t)| json!({"path": p, "text": t.as_str()}))
            .collect();
        json!({"format": 1, "versions": versions, "history": history})
    }

    /// The state [`Living::to_json`] wrote; None when it is not that shape (a host then
    /// starts afresh rather than trusting a damaged file).
    pub fn from_json(v: &Value) -> Option<Living> {
        if v["format"] != json!(1) {
            return None;
        }
        let mut living = Living::default();
        for t in v["versions"].as_array()? {
            living.remember(
                t["path"].as_str()?,
                &Arc::new(t["text"].as_str()?.to_string()),
            );
        }
        let text = |v: &Value| -> Option<Option<Arc<String>>> {
            match v {
                Value::Null => Some(None),
                Value::String(s) => Some(Some(Arc::new(s.clone()))),
                _ => None,
            }
        };
        for a in v["history"].as_array()? {
            let mut files = Vec::new();
            for f in a["files"].as_array()? {
                files.push(Changed {
                    path: f["path"].as_str()?.to_string(),
                    original: text(&f["before"])?,
                    current: text(&f["after"])?,
                    moved_to: f["moved_to"].as_str().map(str::to_string),
                    encoding: f["encoding"]
                        .as_str()
                        .and_then(|e| FileEncoding::from_label(e).ok()?.result_name()),
                    change: None,
                });
            }
            living.history.push_back(Applied {
                tool: a["tool"].as_str()?.to_string(),
                files,
            });
        }
        Some(living)
    }
}

#[cfg(test)]
mod tests {
    use super::Living;
    use crate::workspace::Changed;
    use std::sync::Arc;

    #[test]
    fn a_version_seen_again_is_held_as_its_newest_allocation() {
        let text = "one\ntwo\n".to_string();
        let first = Arc::new(text.clone());
        let again = Arc::new(text.clone());
        let by_call = Arc::new(text.clone());
        let mut living = Living::default();
        let version = living.remember("a", &first).unwrap();
        assert!(living.remember("a", &again).is_none());
        assert!(Arc::ptr_eq(&living.text_of("a", &version).unwrap(), &again));
        // A call's new text with that content (an undo by hand, a repeated edit).
        let change = Changed {
            path: "a".into(),
            original: Some(Arc::new("one\n".into())),
            current: Some(Arc::clone(&by_call)),
            moved_to: None,
            encoding: None,
            change: None,
        };
        living.applied("str_replace", vec![change], &[("a", version.as_str())]);
        assert!(Arc::ptr_eq(
            &living.text_of("a", &version).unwrap(),
            &by_call
        ));
        assert_eq!(living.version_bytes, text.len());
    }

    #[test]
    fn a_sessions_call_on_a_kept_text_is_adopted_when_forwarded() {
        let old = "def a():\n    return 1\n";
        let call = |kept: &crate::Buffers, session: &mut crate::Session, dry_run: bool| {
            let request = serde_json::json!({"tool": "str_replace", "arguments": {
                "path": "a.py", "old_str": "return 1", "new_str": "return 10", "dry_run": dry_run}});
            let result = session.call_json_with(
                &request.to_string(),
                &kept.over(&crate::NoFiles),
                &crate::CallOptions::default(),
            );
            assert!(result.ok, "{result:?}");
            result
        };
        for dry_run in [false, true] {
            let mut kept = crate::Buffers::default();
            kept.open("a.py".into(), old.into());
            let mut session = crate::Session::new();
            let result = call(&kept, &mut session, dry_run);
            kept.expect_call(&result, session.last_applied());
            let edits = result.files.as_ref().unwrap()[0].edits.clone();
            let read = Arc::clone(kept.get("a.py").unwrap());
            assert!(kept.edit("a.py", &edits));
            let now = kept.get("a.py").unwrap();
            assert_eq!(now.as_str(), "def a():\n    return 10\n");
            let made = session
                .last_applied()
                .first()
                .and_then(|c| c.current.clone());
            // The call's own text, not a copy; a dry run made none to keep.
            assert_eq!(made.is_some_and(|m| Arc::ptr_eq(now, &m)), !dry_run);
            assert_eq!(read.as_str(), old);
        }
    }
}
