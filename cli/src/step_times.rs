//! `ANCHORED_EDIT_STEP_TIMES=1`: one line per call on stderr with the microseconds
//! each step took, for the benchmark of the write path's floor
//! (`node scripts/bench-hosts.mjs --only mcp --step-times`, docs/performance.md).
//!
//! Steps: `parse` and `engine` (the engine's work before and after its reads), `read`
//! and `hash` (the file, or `read` alone when the read cache answered; `read` includes
//! the wait for the previous call's hand-over to the read cache, disk.rs), the commit's
//! disk steps by their hook names (`plan`, `journal`, `stage`, `write`, `fsync`,
//! `keep-old`, `check`, `swap`, `sync`, `cleanup`: each time runs from its hook to the
//! next), `hand-over`, `reply` (the result turned into the MCP reply), and `total`. The
//! work after the reply is a second line, `after-reply`. Off (one relaxed load per
//! mark) unless the variable is set when the process starts; benchmarks, not tests,
//! read these figures.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::time::Instant;

struct Call {
    start: Instant,
    last: Instant,
    /// The step under way (named by the last [`announce`]).
    current: Option<String>,
    steps: Vec<(String, u128)>,
}

thread_local! {
    static CALL: RefCell<Option<Call>> = const { RefCell::new(None) };
}

/// Whether `ANCHORED_EDIT_STEP_TIMES` was set.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("ANCHORED_EDIT_STEP_TIMES").is_some_and(|v| v != "0"))
}

/// Starts timing a call on this thread.
pub fn begin() {
    if enabled() {
        let now = Instant::now();
        CALL.with(|c| {
            *c.borrow_mut() = Some(Call {
                start: now,
                last: now,
                current: None,
                steps: Vec::new(),
            })
        });
    }
}

/// The time since the last mark belongs to `step` (added to it if it ran before).
pub fn mark(step: &str) {
    if !enabled() {
        return;
    }
    CALL.with(|c| {
        if let Some(call) = c.borrow_mut().as_mut() {
            let now = Instant::now();
            let us = now.duration_since(call.last).as_micros();
            call.last = now;
            match call.steps.iter_mut().find(|(s, _)| s == step) {
                Some((_, t)) => *t += us,
                None => call.steps.push((step.to_string(), us)),
            }
        }
    });
}

/// A commit hook step starts: the time since the last mark belongs to the step
/// announced before it (or to `plan`).
pub fn announce(step: &str) {
    if !enabled() {
        return;
    }
    let previous = CALL.with(|c| {
        c.borrow_mut()
            .as_mut()
            .and_then(|call| call.current.replace(step.to_string()))
    });
    mark(previous.as_deref().unwrap_or("plan"));
}

/// Ends the announced steps (the commit returned).
pub fn settle_announced() {
    if !enabled() {
        return;
    }
    let previous = CALL.with(|c| c.borrow_mut().as_mut().and_then(|call| call.current.take()));
    if let Some(step) = previous {
        mark(&step);
    }
}

/// Prints the call's line and stops timing.
pub fn end() {
    if !enabled() {
        return;
    }
    if let Some(call) = CALL.with(|c| c.borrow_mut().take()) {
        let mut line = String::from("anchored-edit step-times us:");
        for (step, us) in &call.steps {
            line.push_str(&format!(" {step}={us}"));
        }
        line.push_str(&format!(" total={}", call.start.elapsed().as_micros()));
        eprintln!("{line}");
    }
}

/// Prints how long the work after a reply took.
pub fn after_reply(started: Instant) {
    if enabled() {
        eprintln!(
            "anchored-edit step-times us: after-reply={}",
            started.elapsed().as_micros()
        );
    }
}
