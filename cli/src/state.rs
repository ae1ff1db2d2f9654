//! `--state DIR`: the session's versions and undo history carried from one
//! `anchored-edit call` process to the next.
//!
//! One file, `DIR/session.json`, holding what `Session::living_state` gives (bounded
//! by the engine: 64 versions and 64 calls, 64 MB of text each). It is written to a
//! temporary file in DIR and renamed over the old one, so a crash leaves the old state
//! or the new, never half of one. A missing file is a fresh session; a damaged one is
//! ignored with a note on stderr (the session then starts afresh: it can only hold
//! fewer versions, never wrong ones, since a version is the hash of its text).

use anchored_edit::Session;
use std::path::Path;

const FILE: &str = "session.json";

/// Loads the state kept in `dir` into `session` (creating `dir` when missing).
pub fn load(dir: &Path, session: &mut Session) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--state {}: {e}", dir.display()))?;
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("--state {}: {e}", path.display())),
    };
    let loaded = serde_json::from_str(&text)
        .ok()
        .is_some_and(|v| session.load_living_state(&v));
    if !loaded {
        eprintln!(
            "anchored-edit: --state {} is not a session state; starting afresh",
            path.display()
        );
    }
    Ok(())
}

/// Writes `session`'s state to `dir`, atomically.
pub fn save(dir: &Path, session: &Session) -> Result<(), String> {
    let path = dir.join(FILE);
    let tmp = dir.join(format!(".{FILE}.{}.tmp", std::process::id()));
    let text = serde_json::to_string(&session.living_state()).unwrap_or_default();
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("--state {}: {e}", path.display())
    })
}
