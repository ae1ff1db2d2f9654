//! Any bytes as a whole request to `Session::call_json` (a session lives across runs,
//! so statistics and repeated-failure advice are exercised too).
#![no_main]

#[path = "common.rs"]
mod common;

use anchored_edit::Session;
use libfuzzer_sys::fuzz_target;
use std::sync::{Mutex, OnceLock};

static SESSION: OnceLock<Mutex<Session>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(request) = std::str::from_utf8(data) else {
        return;
    };
    let files = common::files();
    let mut session = SESSION
        .get_or_init(|| Mutex::new(Session::new()))
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let result = session.call_json(request, &files);
    common::check(&result);
});
