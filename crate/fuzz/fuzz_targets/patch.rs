//! Any text as a patch: the grammar alone, then apply_patch on the files.
#![no_main]

#[path = "common.rs"]
mod common;

use anchored_edit::patch::grammar;
use anchored_edit::Session;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Ok(patch) = std::str::from_utf8(data) else {
        return;
    };
    let _ = grammar::parse(patch);
    let files = common::files();
    let request = json!({"tool": "apply_patch", "arguments": {"patch": patch, "dry_run": true}});
    common::check(&Session::new().call(&request, &files));
});
