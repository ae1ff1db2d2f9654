//! One call against the disk: run it in the engine, then write what it changed.
//! Shared by `anchored-edit call` and the MCP server.

use crate::commit;
use crate::disk::DiskFiles;
use anchored_edit::{host_refusal, CallOptions, HostRefusal, Session, ToolResult};
use serde_json::Value;

/// Runs `request` and, unless it is a dry run or was refused, writes its changes.
/// A write that fails is rolled back and reported as `write_failed`.
pub fn execute(
    session: &mut Session,
    disk: &DiskFiles,
    request: &Value,
    options: &CallOptions,
) -> ToolResult {
    let result = session.call_with(request, disk, options);
    commit_result(disk, result)
}

/// Writes the changes of a successful, non-dry-run result.
pub fn commit_result(disk: &DiskFiles, result: ToolResult) -> ToolResult {
    let Some(changes) = result.files.as_ref().filter(|f| !f.is_empty()) else {
        return result;
    };
    if !result.ok || result.dry_run == Some(true) {
        return result;
    }
    let ops = match commit::plan(changes, &|p| disk.resolve(p).map_err(|e| e.message)) {
        Ok(ops) => ops,
        Err(message) => return write_failed(&result.tool, &message),
    };
    match commit::commit(&ops) {
        Ok(()) => result,
        Err(e) => write_failed(&result.tool, &e.to_string()),
    }
}

fn write_failed(tool: &str, why: &str) -> ToolResult {
    host_refusal(
        tool,
        &HostRefusal::WriteFailed {
            why: why.to_string(),
        },
    )
}
