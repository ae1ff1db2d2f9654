//! Any text as multi_replace's `replacements`: the XML reader (and the JSON-string
//! reader, for text that is JSON), then the items on the files.
#![no_main]

#[path = "common.rs"]
mod common;

use anchored_edit::Session;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Ok(replacements) = std::str::from_utf8(data) else {
        return;
    };
    let files = common::files();
    for atomic in [true, false] {
        let request = json!({"tool": "multi_replace", "arguments": {
            "replacements": replacements, "atomic": atomic, "dry_run": true}});
        common::check(&Session::new().call(&request, &files));
    }
});
