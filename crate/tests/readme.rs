//! The README documents every tool, every argument and every error kind: a tool or
//! argument added without its documentation fails here.

use anchored_edit::{tool_schemas, ErrorKind};

#[test]
fn readme_documents_every_tool_argument_and_error_kind() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md at the repository root");
    let mut missing = Vec::new();
    for tool in tool_schemas().as_array().expect("a list") {
        let name = tool["name"].as_str().unwrap_or_default();
        if !readme.contains(&format!("### {name}")) && !readme.contains(&format!("· {name}")) {
            missing.push(format!("tool {name} has no README section"));
        }
        for param in tool["inputSchema"]["properties"]
            .as_object()
            .into_iter()
            .flatten()
        {
            if !readme.contains(&format!("`{}`", param.0)) {
                missing.push(format!(
                    "{name}: argument `{}` is not in the README",
                    param.0
                ));
            }
        }
    }
    for kind in ErrorKind::ALL {
        if !readme.contains(&format!("| `{kind}` |")) {
            missing.push(format!(
                "error kind {kind} has no row in the README's table"
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "README is missing:\n{}",
        missing.join("\n")
    );
}
