//! Issue 24's findings that are not the write protocol, on real files: one file named
//! twice in replace_in_files, caps that answer before superlinear work, the walker's
//! bounded reads (ignore files, FIFOs, links to devices, sparse giants).

mod common;

use common::Sandbox;
use serde_json::json;

/// Finding 4: `a.txt` and a link to it (symbolic or hard) in one replace_in_files are one
/// file: edited once, never refused as stale with "send the same call again".
#[test]
fn replace_in_files_naming_one_file_twice_edits_it_once() {
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        ("symlink", &["a.txt", "link.txt"], None),
        ("symlink first", &["link.txt", "a.txt"], None),
        ("hard link", &["a.txt", "hard.txt"], None),
        ("glob", &[], Some("*.txt")),
    ];
    for (name, paths, glob) in cases {
        let s = Sandbox::new(&format!("rif-alias-{}", name.replace(' ', "-")));
        s.file("a.txt", "hello world\n");
        std::os::unix::fs::symlink("a.txt", s.root.join("link.txt")).unwrap();
        std::fs::hard_link(s.root.join("a.txt"), s.root.join("hard.txt")).unwrap();
        let mut args = json!({"old_str": "hello", "new_str": "bye"});
        match glob {
            Some(g) => args["glob"] = json!(g),
            None => args["paths"] = json!(paths),
        }
        let (code, out) = s.call("replace_in_files", args);
        assert_eq!(code, 0, "{name}: {out}");
        assert_eq!(s.read("a.txt"), "bye world\n", "{name}");
        assert!(
            std::fs::symlink_metadata(s.root.join("link.txt"))
                .unwrap()
                .file_type()
                .is_symlink(),
            "{name}"
        );
        assert_eq!(
            s.read("hard.txt"),
            "bye world\n",
            "{name}: the hard link is kept"
        );
        let warnings = out["warnings"].to_string();
        assert!(warnings.contains("other names of a file"), "{name}: {out}");
    }
}
