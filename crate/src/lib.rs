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
//! are UTF-16 code units).
//!
//! # Layers
//!
//! The engine's modules form layers that run one way: a module uses only modules of
//! its own layer or below it (checked by `tests/layers.rs`, which holds the ranks).
//! Bottom up:
//!
//! 0. `text`: line index, line endings, BOM, byte ↔ UTF-16 positions, versions, the
//!    splice that writes replacements, placeholder lines, and `text::words` (line
//!    labels, plurals, visible whitespace: the words every message uses). Beside it,
//!    leaf services every layer may use: `error`, `args` (reading tool arguments),
//!    `paths` (the path policy), `workspace` (the host's files), `listing` (which files a
//!    project listing shows: ignore rules, `glob`), `result`;
//! 1. `blocks`: language-aware bracket / indentation blocks, functions, outlines;
//! 2. `locate`: scopes (including `function_hint`), the matching cascade, choosing
//!    among candidates;
//! 3. `diagnose`: why a match failed and what to send next;
//! 4. `guard` (refusing placeholders such as `// ... existing code ...` in new text)
//!    and `patch` (V4A patches and unified diffs: grammar, hunk search, application);
//! 5. `changes`: diffs and minimal edits from before/after texts;
//! 6. `tools`: one module per tool;
//! 7. [`Session`]: the entry point, and the statistics.
//!
//! Why one way: a policy (how a line range is named, when a match is certain, what a
//! placeholder is) then lives in exactly one module, below everything that applies it,
//! and cannot be copied upward and drift.
//!
//! # Public API
//!
//! The API is what this page lists: [`Session`] (with [`CallOptions`]),
//! [`tool_schemas`], [`host_refusal`], the result types, [`Files`] and the errors.
//! Every module is private except `text`, `blocks`, `locate`, `guard` and `tools`,
//! which are `pub` but hidden from the documentation: the benches, the oracle test and
//! the guard scan measure them directly. They are not a stable interface.

#![deny(missing_docs)]

mod args;
#[doc(hidden)]
pub mod blocks;
mod buffers;
mod changes;
mod diagnose;
mod error;
#[doc(hidden)]
pub mod guard;
mod listing;
#[doc(hidden)]
pub mod locate;
mod patch;
mod paths;
pub mod protocol;
mod refusals;
mod result;
mod session;
mod stats;
#[doc(hidden)]
pub mod text;
#[doc(hidden)]
pub mod tools;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
mod workspace;

pub use buffers::{Buffers, Layered};
pub use error::{EditError, EditResult, ErrorKind};
pub use listing::{ignore_file_skipped, IgnoreRules, IgnoreSkip, MAX_IGNORE_FILE_BYTES};
pub use refusals::{host_refusal, outside_root, HostRefusal, OutsideWhy, Rejection, StaleWhen};
pub use result::{apply_edits, Edit, FileChange, Range, ToolResult};
pub use session::{profile_schemas, tool_schemas, CallOptions, Session};
pub use stats::{Record, Stats};
pub use text::encoding::{decode_bytes, encode_text};
pub use text::Point;
pub use tools::SERVER_INSTRUCTIONS;
pub use workspace::{file_too_large, Content, Files, NoFiles, MAX_FILE_BYTES};
