//! The balance check over a real corpus: files that compile, read as unbalanced, are
//! the lexer's gaps (a false refusal waiting to happen). Not part of `cargo test`:
//! run it by hand with a list of files (one path a line), see `docs/syntax-guard.md`:
//!
//! ```sh
//! BALANCE_FILES=/tmp/files.txt cargo test --release -p anchored-edit --test balance_corpus -- --ignored --nocapture
//! ```

#![cfg(not(target_arch = "wasm32"))]

use anchored_edit::blocks::{balance, Balance};

#[test]
#[ignore]
fn files_that_compile_read_as_balanced() {
    let Ok(list) = std::env::var("BALANCE_FILES") else {
        eprintln!("BALANCE_FILES is not set: nothing to check");
        return;
    };
    let list = std::fs::read_to_string(list).expect("read the list");
    let (mut checked, mut unknown, mut unbalanced, mut bytes) = (0, 0, 0, 0);
    let start = std::time::Instant::now();
    for path in list.lines().filter(|l| !l.is_empty()) {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        bytes += text.len();
        match balance(&text, path) {
            Balance::Balanced => checked += 1,
            Balance::Unknown => unknown += 1,
            Balance::Unbalanced(u) => {
                checked += 1;
                unbalanced += 1;
                println!("UNBALANCED {path}:{} {}", u.line, u.reason);
            }
        }
    }
    println!(
        "checked {checked} files ({bytes} bytes) in {:?}: {unbalanced} read as unbalanced; {unknown} of unknown language",
        start.elapsed()
    );
}
