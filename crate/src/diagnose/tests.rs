use super::*;
use crate::locate::Scope;

fn report_for(file: &str, needle: &str) -> (EditError, Text<'static>) {
    let file: &'static str = Box::leak(file.to_string().into_boxed_str());
    let text = Text::new(file);
    let err = no_match(
        &text,
        needle,
        &Scope::whole(&text),
        &Subject {
            what: "old_str",
            path: "f.rs",
            tool: "str_replace",
        },
    );
    (err, text)
}

#[test]
fn reports_the_longest_run_and_where_it_diverges() {
    let file = "fn a() {\n    let x = 1;\n    let y = 2;\n    x + y\n}\n";
    let (err, _) = report_for(file, "fn a() {\n    let x = 1;\n    let y = 3;\n");
    assert_eq!(err.kind, ErrorKind::NoMatch);
    let run = &err.diagnostics["longest_matching_run"];
    assert_eq!(run["file_lines"], json!([1, 2]));
    assert_eq!(run["diverges"]["line"], 3);
    assert_eq!(run["diverges"]["found"], "    let y = 2;");
    assert!(
        err.message.contains("its line 3 differs"),
        "{}",
        err.message
    );
    assert_eq!(err.diagnostics["closest"]["start_line"], 1);
    assert!(
        err.message
            .contains("read_lines {path: \"f.rs\", start_line: 1, end_line: 5}"),
        "{}",
        err.message
    );
}

#[test]
fn whitespace_only_differences_are_shown_visibly() {
    let file = "def f():\n\tif x:\n\t\treturn 1\n";
    let (err, _) = report_for(file, "def f():\n    if x:\n        return 1\n");
    let lines = err.diagnostics["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["found"], "\\t\\treturn 1");
    assert_eq!(lines[1]["expected"], "        return 1");
    assert_eq!(lines[1]["whitespace_only"], true);
    assert!(
        err.message.contains("match except for whitespace"),
        "{}",
        err.message
    );
    assert!(err.message.contains("1 tab"), "{}", err.message);
}

#[test]
fn finds_a_paraphrase_by_its_words_when_no_line_matches() {
    let mut file = String::new();
    for i in 0..200 {
        file.push_str(&format!("fn filler_{i}() {{ call_{i}(); }}\n"));
    }
    file.push_str("fn connect(host: &str, port: u16) -> Conn {\n    Conn::open(host, port)\n}\n");
    let (err, _) = report_for(
        &file,
        "fn connect(host: &str, port: u32) -> Conn {\n    Conn::open(host, port).unwrap()\n}",
    );
    assert_eq!(
        err.diagnostics["closest"]["start_line"], 201,
        "{:#}",
        err.diagnostics
    );
}

#[test]
fn says_when_nothing_is_similar() {
    let (err, _) = report_for("alpha\nbeta\n", "completely_unrelated_identifier()");
    assert!(err.diagnostics.get("closest").is_none());
    assert!(err.message.contains("grep_file"), "{}", err.message);
    assert!(
        err.message.contains("completely_unrelated_identifier"),
        "{}",
        err.message
    );
}

#[test]
fn visible_and_notes() {
    assert_eq!(visible("\ta\r"), "\\ta\\r");
    assert_eq!(
        whitespace_note("  x", "\tx").unwrap(),
        "indentation: the request has 2 spaces, the file has 1 tab"
    );
    assert_eq!(
        whitespace_note("x ", "x").unwrap(),
        "trailing whitespace: the request has 1 space, the file has none"
    );
    assert_eq!(whitespace_note("x", "y"), None);
}
