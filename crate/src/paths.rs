//! Path arguments: the one path rule every host relies on.
//!
//! The engine never touches a file system, but every host must agree on what a path
//! names and which paths a call may reach, so the rule lives here once ([`resolve`]):
//!
//! - a path is normalised lexically (`\` → `/`, `.` dropped, `x/..` resolved, a
//!   `file://` prefix dropped); a relative path that climbs above its start is refused;
//! - a relative path stays relative (to the project root, the host's first root);
//! - an absolute path inside the first root becomes relative to it;
//! - an absolute path inside another root stays absolute, and the host reads it as is;
//! - any other absolute path, and every absolute path when the host set no roots, is
//!   refused `path_outside_root`.
//!
//! So a host's reader only ever receives a root-relative path or an absolute path
//! inside one of its roots. Hosts still check what only they can see (symlinks leading
//! out of their root).

use crate::error::{EditError, EditResult, ErrorKind};

/// Normalises a path argument: trims it, turns `\` into `/`, drops `.` segments and
/// resolves `x/..` pairs. Relative paths stay relative; a `..` that climbs above the
/// start is refused with `path_outside_root`. Absolute paths (`/x`, `C:/x`) keep their
/// root and are judged by the host.
pub fn normalize(path: &str) -> EditResult<String> {
    let trimmed = path.trim();
    let trimmed = trimmed.strip_prefix("file://").unwrap_or(trimmed);
    if trimmed.is_empty() {
        return Err(EditError::invalid(
            "`path` is empty. Send the file's path relative to the project root, e.g. \"src/main.rs\".",
        ));
    }
    if trimmed.contains('\0') {
        return Err(EditError::invalid("`path` contains a NUL character."));
    }
    let unified = trimmed.replace('\\', "/");
    if unified.ends_with('/') {
        return Err(EditError::invalid(format!(
            "`{path}` names a directory, not a file. Send a file's path, e.g. \"src/main.rs\"."
        )));
    }
    let (root, rest) = split_root(&unified);
    let mut parts: Vec<&str> = Vec::new();
    for segment in rest.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                // `/..` is `/`; a relative path must not climb above its start.
                if parts.pop().is_none() && root.is_empty() {
                    return Err(EditError::new(
                        ErrorKind::PathOutsideRoot,
                        format!(
                            "`{path}` climbs out of the project root with `..`. Send a path inside the root, relative to it (e.g. \"src/main.rs\")."
                        ),
                    ));
                }
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return Err(EditError::invalid(format!(
            "`{path}` names a directory, not a file. Send a file's path, e.g. \"src/main.rs\"."
        )));
    }
    Ok(format!("{root}{}", parts.join("/")))
}

/// Normalises each root a host declares (absolute folder paths; the first is the
/// project root). Entries that are not absolute folder paths are dropped.
pub fn normalize_roots(roots: &[String]) -> Vec<String> {
    roots
        .iter()
        .filter_map(|r| {
            let r = r.trim();
            let r = r.strip_prefix("file://").unwrap_or(r);
            let unified = r.replace('\\', "/");
            let (root, rest) = split_root(&unified);
            if root.is_empty() {
                return None;
            }
            if rest.trim_matches('/').is_empty() {
                return Some(root.to_string());
            }
            normalize(rest.trim_end_matches('/'))
                .ok()
                .map(|rest| format!("{root}{rest}"))
        })
        .collect()
}

/// Applies the path rule (see the module docs) to one path argument, given the host's
/// normalised roots ([`normalize_roots`]). Every path argument of every tool goes
/// through here: `path`, patch headers and move destinations, multi_replace items.
pub fn resolve(path: &str, roots: &[String]) -> EditResult<String> {
    let normal = normalize(path)?;
    if !is_absolute(&normal) {
        return within_depth(path, &normal).map(|()| normal);
    }
    for (k, root) in roots.iter().enumerate() {
        if let Some(rest) = inside(&normal, root) {
            within_depth(path, rest)?;
            return Ok(if k == 0 { rest.to_string() } else { normal });
        }
    }
    Err(outside(path, roots))
}

/// The most folders a path may go down below its root: deeper paths are refused before
/// any host resolves or creates them (each level costs a host a lookup, and creating
/// them all is the work of `create_file`).
pub const MAX_PATH_DEPTH: usize = 256;

/// `Ok` when `below_root` (a normalised path below its root) is at most
/// [`MAX_PATH_DEPTH`] folders deep.
fn within_depth(path: &str, below_root: &str) -> EditResult<()> {
    let folders = below_root.bytes().filter(|&b| b == b'/').count();
    if folders <= MAX_PATH_DEPTH {
        return Ok(());
    }
    let shown: String = path.trim().chars().take(60).collect();
    Err(EditError::invalid(format!(
        "`{shown}…` is {folders} folders deep, over the limit of {MAX_PATH_DEPTH}. Send a path at most {MAX_PATH_DEPTH} folders below the project root."
    ))
    .with_diagnostics(serde_json::json!({"depth": folders, "limit": MAX_PATH_DEPTH})))
}

/// The part of `path` below `root`, when `path` lies inside it. A drive letter matches
/// in either case (`c:/x` is `C:/x`).
fn inside<'p>(path: &'p str, root: &str) -> Option<&'p str> {
    let head = path.get(..root.len())?;
    let (h, r) = (head.as_bytes(), root.as_bytes());
    let same = h == r
        || (h.len() >= 2
            && h[1] == b':'
            && r[1] == b':'
            && h[0].eq_ignore_ascii_case(&r[0])
            && h[2..] == r[2..]);
    if !same {
        return None;
    }
    let rest = &path[root.len()..];
    if root.ends_with('/') {
        return Some(rest).filter(|r| !r.is_empty());
    }
    rest.strip_prefix('/')
}

fn outside(path: &str, roots: &[String]) -> EditError {
    let path = path.trim();
    let allowed = match roots {
        [] => "This host accepts only paths relative to the project root.".to_string(),
        [one] => format!("The project root is {one}."),
        [first, rest @ ..] => format!(
            "The project root is {first}; other folders allowed: {}.",
            rest.join(", ")
        ),
    };
    EditError::new(
        ErrorKind::PathOutsideRoot,
        format!(
            "`{path}` is outside every folder this host may edit. {allowed} Nothing was changed. Send the path relative to the project root (e.g. \"src/main.rs\")."
        ),
    )
    .with_diagnostics(serde_json::json!({"path": path, "roots": roots}))
}

/// Whether a normalised path is absolute (`/x` or a drive letter `C:/x`).
pub fn is_absolute(path: &str) -> bool {
    !split_root(path).0.is_empty()
}

fn split_root(path: &str) -> (&str, &str) {
    if let Some(rest) = path.strip_prefix('/') {
        return ("/", rest);
    }
    let b = path.as_bytes();
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/' {
        return (&path[..3], &path[3..]);
    }
    ("", path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_lexically() {
        let cases = [
            ("src/a.rs", "src/a.rs"),
            ("./src/a.rs", "src/a.rs"),
            ("src//./b/../a.rs", "src/a.rs"),
            (" src/a.rs\n", "src/a.rs"),
            ("src\\lib\\a.rs", "src/lib/a.rs"),
            ("/abs/x/../y.txt", "/abs/y.txt"),
            ("/../y.txt", "/y.txt"),
            ("C:\\work\\a.rs", "C:/work/a.rs"),
            ("file:///tmp/a.rs", "/tmp/a.rs"),
        ];
        for (input, want) in cases {
            assert_eq!(normalize(input).unwrap(), want, "{input:?}");
        }
    }

    #[test]
    fn refuses_escapes_and_empty_paths() {
        assert_eq!(
            normalize("../x").unwrap_err().kind,
            ErrorKind::PathOutsideRoot
        );
        assert_eq!(
            normalize("a/../../x").unwrap_err().kind,
            ErrorKind::PathOutsideRoot
        );
        assert_eq!(normalize("").unwrap_err().kind, ErrorKind::InvalidArguments);
        assert_eq!(
            normalize("./").unwrap_err().kind,
            ErrorKind::InvalidArguments
        );
        assert_eq!(
            normalize("a\0b").unwrap_err().kind,
            ErrorKind::InvalidArguments
        );
    }

    #[test]
    fn resolves_every_spelling_against_the_roots() {
        let roots = normalize_roots(&[
            "/root".to_string(),
            "/other/".to_string(),
            "C:\\win\\proj".to_string(),
        ]);
        assert_eq!(roots, ["/root", "/other", "C:/win/proj"]);
        // (path, Ok(what the host reads) | Err(()) for path_outside_root)
        let cases: [(&str, Result<&str, ()>); 20] = [
            ("a", Ok("a")),
            ("./a", Ok("a")),
            ("a/../b", Ok("b")),
            ("src\\a.rs", Ok("src/a.rs")),
            ("/root/a", Ok("a")),
            ("/root/./src/../a", Ok("a")),
            ("//root//a", Ok("a")),
            ("file:///root/a", Ok("a")),
            ("/other/a", Ok("/other/a")),
            ("/other/x/../a", Ok("/other/a")),
            ("C:\\win\\proj\\a.rs", Ok("C:/win/proj/a.rs")),
            ("c:/win/proj/a.rs", Ok("c:/win/proj/a.rs")),
            ("../x", Err(())),
            ("a/../../x", Err(())),
            ("/root/../x", Err(())),
            ("/rootless/a", Err(())),
            ("/etc/passwd", Err(())),
            ("/other/../root2/a", Err(())),
            ("C:\\root\\a", Err(())),
            ("file:///elsewhere/a", Err(())),
        ];
        for (input, want) in cases {
            let got = resolve(input, &roots);
            match want {
                Ok(w) => assert_eq!(got.unwrap(), w, "{input:?}"),
                Err(()) => assert_eq!(
                    got.unwrap_err().kind,
                    ErrorKind::PathOutsideRoot,
                    "{input:?}"
                ),
            }
        }
    }

    #[test]
    fn without_roots_every_absolute_path_is_refused() {
        for input in ["/root/a", "C:\\root\\a", "file:///root/a", "/a"] {
            let err = resolve(input, &[]).unwrap_err();
            assert_eq!(err.kind, ErrorKind::PathOutsideRoot, "{input:?}");
            assert!(err.message.contains("relative to the project root"));
        }
        assert_eq!(resolve("./a", &[]).unwrap(), "a");
    }

    #[test]
    fn the_refusal_names_the_roots_and_the_next_call() {
        let roots = normalize_roots(&["/root".to_string(), "/other".to_string()]);
        let err = resolve("/etc/passwd", &roots).unwrap_err();
        assert!(
            err.message.contains("The project root is /root"),
            "{}",
            err.message
        );
        assert!(err.message.contains("/other"), "{}", err.message);
        assert!(err.message.contains("relative to the project root"));
    }

    #[test]
    fn a_root_at_the_top_holds_every_absolute_path() {
        let roots = normalize_roots(&["/".to_string()]);
        assert_eq!(roots, ["/"]);
        assert_eq!(resolve("/etc/hosts", &roots).unwrap(), "etc/hosts");
    }

    #[test]
    fn tells_absolute_paths() {
        assert!(is_absolute("/x"));
        assert!(is_absolute("C:/x"));
        assert!(!is_absolute("x/y"));
    }
}
