//! Path arguments: lexical normalisation shared by every host.
//!
//! The engine never touches a file system, but every host must agree on what a path
//! names, so that `src/./a.rs` and `src/a.rs` are one file in a multi-file call and a
//! `..` that climbs out of the project is refused the same way everywhere. Hosts still
//! check what only they can see (symlinks leading out of their root, absolute paths
//! outside it).

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
}
