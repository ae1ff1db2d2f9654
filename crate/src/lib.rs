//! anchored-edit: an edit engine for LLM coding agents.
//!
//! An agent asks for an edit ("replace this text", "insert after that line", "apply
//! this patch"); the engine finds the place by **content**, recovers from the mistakes
//! models make when they quote code from memory, never edits the wrong place, and when
//! it refuses it says exactly why and what to send next.
//!
//! The whole public surface is small:
//!
//! ```
//! use anchored_edit::Session;
//! use std::collections::BTreeMap;
//!
//! let mut files = BTreeMap::new();
//! files.insert("a.py".to_string(), "x = 1\ny = 2\n".to_string());
//! let mut session = Session::new();
//! let result = session.call(
//!     &serde_json::json!({"tool": "str_replace",
//!                         "arguments": {"path": "a.py", "old_str": "y = 2", "new_str": "y = 3"}}),
//!     &files,
//! );
//! assert!(result.ok);
//! let change = &result.files.as_ref().unwrap()[0];
//! assert_eq!(change.new_text.as_deref(), Some("x = 1\ny = 3\n"));
//! ```
//!
//! The crate does no I/O: hosts hand texts in through [`Files`] and apply the
//! [`FileChange`]s that come back (whole `new_text`, or minimal `edits` whose columns
//! are UTF-16 code units). Modules, bottom up:
//!
//! - [`text`]: line index, line endings, BOM, byte ↔ UTF-16 positions, versions;
//! - `locate`: scopes, the matching cascade, choosing among candidates;
//! - [`blocks`]: language-aware bracket / indentation blocks, functions, outlines;
//! - `diagnose`: why a match failed and what to send next;
//! - `patch`: V4A patches and unified diffs: grammar, hunk search, application;
//! - `guard`: refusing placeholders such as `// ... existing code ...` in new text;
//! - `tools`: one module per tool;
//! - `changes`: diffs and minimal edits from before/after texts;
//! - [`Session`]: the entry point, and the statistics.

pub mod args;
pub mod blocks;
mod changes;
pub mod diagnose;
mod error;
pub mod guard;
pub mod locate;
pub mod patch;
pub mod paths;
mod refusals;
mod result;
mod session;
pub mod stats;
pub mod text;
pub mod tools;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
mod workspace;

pub use error::{EditError, EditResult, ErrorKind};
pub use refusals::{host_refusal, HostRefusal, Rejection, StaleWhen};
pub use result::{apply_edits, Edit, FileChange, Range, ToolResult};
pub use session::{tool_schemas, CallOptions, Session};
pub use stats::{Record, Stats};
pub use text::Point;
pub use tools::SERVER_INSTRUCTIONS;
pub use workspace::{Files, NoFiles};
