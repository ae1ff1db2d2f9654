#!/usr/bin/env python3
"""Extract every hunk that ADDS a comment line from the history of git repositories.

Usage: scripts/extract-added-comments.py OUT NAME=GIT_DIR [NAME=GIT_DIR ...]

For each repository, `git log --no-merges -p -U3` over its source files; a hunk is kept
when one of its `+` lines is a comment (or a C preprocessor line, which the placeholder
guard reads like a `#` comment), it has at most MAX_HUNK_LINES lines, and it is valid
UTF-8. Identical hunks are kept once. Only these hunks (data) are written, never whole
files. The output (read by crate/tests/added_comments.rs):

    # header lines (repositories, their HEAD commits, counts)
    @ NAME COMMIT PATH
     context line
    -removed line
    +added line

Each `@` line starts a hunk; the lines after it keep their diff sign.
"""

import subprocess
import sys

MAX_HUNK_LINES = 40
EXTS = {
    ".go": "//",
    ".c": "//",
    ".h": "//",
    ".rs": "//",
    ".js": "//",
    ".ts": "//",
    ".py": "#",
    ".sh": "#",
}


def is_comment(line, path):
    t = line.strip()
    ext = "." + path.rsplit(".", 1)[-1] if "." in path else ""
    lead = EXTS.get(ext)
    if lead is None:
        return False
    if lead == "//":
        return t.startswith(("//", "/*", "* ", "*/")) or t == "*" or (
            ext in (".c", ".h") and t.startswith("#")
        )
    return t.startswith("#")


def hunks(git_dir):
    specs = ["*" + e for e in EXTS]
    out = subprocess.run(
        ["git", "-C", git_dir, "log", "--no-merges", "--no-renames", "-p", "-U3",
         "--no-color", "--format=@@@COMMIT %H", "--"] + specs,
        capture_output=True, check=True,
    ).stdout
    commit = path = None
    cur = None
    for raw in out.split(b"\n"):
        if raw.startswith(b"@@@COMMIT "):
            if cur:
                yield cur
            cur = None
            commit = raw[10:].decode()[:12]
            continue
        if raw.startswith(b"diff --git "):
            if cur:
                yield cur
            cur = None
            path = None
            continue
        if raw.startswith(b"+++ "):
            p = raw[4:].decode("utf-8", "replace")
            path = p[2:] if p.startswith("b/") else None
            continue
        if raw.startswith(b"--- ") and cur is None:
            continue
        if raw.startswith(b"@@ "):
            if cur:
                yield cur
            cur = (commit, path, []) if path else None
            continue
        if cur is None or not raw or raw[:1] not in (b" ", b"-", b"+"):
            continue
        cur[2].append(raw)
    if cur:
        yield cur


def main():
    out_path, repos = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    seen = set()
    records = []
    header = []
    for name, git_dir in repos:
        head = subprocess.run(["git", "-C", git_dir, "rev-parse", "HEAD"],
                              capture_output=True, check=True, text=True).stdout.strip()
        kept = comments = 0
        for commit, path, lines in hunks(git_dir):
            if len(lines) > MAX_HUNK_LINES:
                continue
            try:
                text = [l.decode("utf-8") for l in lines]
            except UnicodeDecodeError:
                continue
            if any("\r" in l or "\0" in l for l in text):
                continue
            added = [l for l in text if l.startswith("+") and is_comment(l[1:], path)]
            if not added:
                continue
            key = "\n".join(text)
            if key in seen:
                continue
            seen.add(key)
            kept += 1
            comments += len(added)
            records.append(f"@ {name} {commit} {path}\n" + key + "\n")
        header.append(f"# {name}: HEAD {head}; {kept} hunks, {comments} added comment lines")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("# Hunks that add comment lines, extracted from public repositories' histories\n")
        f.write("# by scripts/extract-added-comments.py (git log --no-merges -p -U3; hunks of at\n")
        f.write(f"# most {MAX_HUNK_LINES} lines, deduplicated). Data only: no whole files.\n")
        for h in header:
            f.write(h + "\n")
        f.writelines(records)


if __name__ == "__main__":
    main()
