//! One call against the disk: run it in the engine, then write what it changed.
//! Shared by `anchored-edit call` and the MCP server.

use crate::commit::{self, Failure};
use crate::disk::DiskFiles;
use anchored_edit::{host_refusal, CallOptions, HostRefusal, Session, StaleWhen, ToolResult};
use serde_json::Value;

/// Runs `request` and, unless it is a dry run or was refused, writes its changes.
/// A write that fails is rolled back and reported as `write_failed`; a target that
/// changed since the engine read it is refused as `stale_buffer` before anything is
/// written.
pub fn execute(
    session: &mut Session,
    disk: &DiskFiles,
    request: &Value,
    options: &CallOptions,
) -> ToolResult {
    disk.begin_call();
    let result = session.call_with(request, disk, options);
    let committed = commit_result(disk, result);
    if !committed.ok {
        // Not written (a refusal by the engine recorded nothing): the session forgets
        // the call, so undo_edit's history holds only what landed.
        session.discard_last();
    }
    committed
}

/// Writes the changes of a successful, non-dry-run result.
pub fn commit_result(disk: &DiskFiles, result: ToolResult) -> ToolResult {
    let Some(changes) = result.files.as_ref().filter(|f| !f.is_empty()) else {
        return result;
    };
    if !result.ok || result.dry_run == Some(true) {
        return result;
    }
    match commit::plan(changes).and_then(|ops| commit::commit(disk, &ops)) {
        Ok(()) => result,
        Err(Failure::Stale(path)) => host_refusal(
            &result.tool,
            &HostRefusal::Stale {
                path,
                when: StaleWhen::AfterRead,
            },
        ),
        Err(Failure::Invalid(why)) => {
            ToolResult::failure(&result.tool, anchored_edit::EditError::invalid(why))
        }
        Err(Failure::Io(e)) => host_refusal(
            &result.tool,
            &HostRefusal::WriteFailed { why: e.to_string() },
        ),
    }
}
