//! Case tables: for each language, a source, a 1-based line, and the block that line
//! opens (or that it opens none); outlines; the lexer's blanking of literals.

use super::*;
use proptest::prelude::*;

fn analysis_outline(path: &str, src: &str) -> Vec<String> {
    let text = Text::new(src);
    let a = Analysis::new(&text, path);
    a.outline()
        .iter()
        .map(|s| {
            format!(
                "{} {} {}-{}",
                s.kind.as_str(),
                s.qualified(),
                s.start_line + 1,
                s.end_line + 1
            )
        })
        .collect()
}

/// The block line `line` (1-based) opens: Ok((first, last)) 1-based, or the error.
fn block(path: &str, src: &str, line: usize) -> Result<(usize, usize), BlockError> {
    let text = Text::new(src);
    let a = Analysis::new(&text, path);
    a.block_at(line - 1).map(|(f, l)| (f + 1, l + 1))
}

/// (path, source, anchor line, expected last line; 0 = opens no block)
const BLOCK_CASES: &[(&str, &str, usize, usize)] = &[
    // braces inside strings, chars and comments
    ("a.c", "int f() {\n  char c = '}';\n  const char *s = \"}\";\n  /* } */\n  // }\n  return 0;\n}\nint g;\n", 1, 7),
    ("a.c", "int f()\n{\n  return 1;\n}\n", 1, 4), // Allman
    ("a.c", "static int\nf(int a,\n  int b)\n{\n  return a;\n}\n", 2, 6), // multi-line Allman signature
    ("a.c", "int x = 1;\nint y;\n", 1, 0), // opens nothing
    ("a.c", "int f() { return 1; }\nint g;\n", 1, 1), // one-line function
    ("a.c", "#define OPEN {\nint f() {\n  return 1;\n}\n", 2, 4), // preprocessor braces ignored
    ("a.c", "if (a) {\n  x();\n} else {\n  y();\n}\nz();\n", 1, 5), // else chain
    ("a.cpp", "auto s = R\"x(})\" {)x\";\nint f() {\n  return '}';\n}\n", 2, 4), // raw string
    ("a.cpp", "long n = 1'000;\nint f() {\n  return 0;\n}\n", 2, 4), // digit separators
    ("a.rs", "fn f<'a>(x: &'a str) -> &'a str {\n    let c = '{';\n    let r = r#\"}\"#;\n    x\n}\nfn g() {}\n", 1, 5),
    ("a.rs", "fn f() {\n    /* nested /* } */ still } */\n    let b = b'}';\n}\n", 1, 4),
    ("a.rs", "let v = vec![\n    1,\n    2,\n];\n", 1, 4), // bracket left open: a block
    ("a.go", "func f() rune {\n\tr := '}'\n\ts := `}\n{`\n\treturn r\n}\n", 1, 6),
    ("a.js", "function f(x) {\n  const t = `${x} } ${`{`}`;\n  const r = /}/g;\n  return x / 2;\n}\n", 1, 5),
    ("a.js", "const f = (a) => {\n  return a;\n};\nf(1);\n", 1, 3),
    ("a.jsx", "function A() {\n  return <p>Don't {'}'}</p>;\n}\n", 1, 3),
    ("a.ts", "function f<T extends { a: number }>(x: T): { b: string } {\n  return { b: '}' };\n}\n", 1, 3),
    ("a.java", "class A {\n  String s = \"\"\"\n    }\n    \"\"\";\n  char c = '}';\n}\n", 1, 6),
    ("a.kt", "fun f(x: Int): String {\n    return \"${x + 1} }\"\n}\n", 1, 3),
    ("a.swift", "func f() -> String {\n    return \"\\(g(\")\")) }\"\n}\n", 1, 3),
    ("a.cs", "void F() {\n    var s = $\"{x} }}\";\n    var v = @\"\\ }\";\n}\n", 1, 4),
    ("a.php", "<?php\nfunction f() {\n    $s = 'it''s }';\n    # comment }\n    return \"{$a['}']}\";\n}\n", 2, 6),
    ("a.css", "a { color: red; /* } */ }\nb {\n  content: \"}\";\n}\n", 2, 4),
    ("a.json", "{\n  \"a\": \"}\",\n  \"b\": [1, 2]\n}\n", 1, 4),
    ("a.unknownext", "thing {\n  \"}\"\n}\n", 1, 3), // generic fallback
    // headers spanning lines: the block runs through the body's closing brace
    ("a.rs", "fn f<M, F>(\n    m: M,\n    f: F,\n) -> R\nwhere\n    F: Fn(M) -> R,\n{\n    f(m)\n}\nfn g() {}\n", 1, 9),
    ("a.rs", "pub fn f(\n    a: u8,\n) -> Result<u8, E>\n{\n    Ok(a)\n}\n", 1, 6),
    ("a.rs", "#[inline]\nfn f() {\n    1\n}\nfn g() {}\n", 1, 4), // attribute line
    ("a.rs", "#[derive(Debug)]\nstruct A;\nfn g() {\n}\n", 1, 0), // `;` ends it
    ("a.rs", "let v = f(\n    1,\n);\nif x {\n}\n", 1, 3), // the group, not the next statement
    ("a.rs", "match x {\n    A => 1,\n    B => {\n        2\n    }\n}\n", 2, 0), // an arm is not a header
    ("a.js", "res.contentType =\nres.type = function contentType(type) {\n  return this;\n};\nx();\n", 1, 4),
    ("a.js", "foo()\nbar(function () {\n  x();\n});\n", 1, 0), // a finished statement
    ("a.js", "foo(a,\n  b)\nif (c) {\n  d();\n}\n", 1, 2), // no continuation: the group only
    ("a.ts", "@Component({\n  selector: 'x',\n})\nexport class A {\n  m() {}\n}\n", 1, 6), // decorator
    ("a.ts", "function f(\n  a: number,\n): Promise<\n  number\n> {\n  return g(a);\n}\n", 1, 7),
    ("a.java", "@Override\npublic String toString()\n    throws IOException {\n  return s;\n}\n", 1, 5),
    ("a.c", "#include <a.h>\nint f(int a)\n{\n  return a;\n}\n", 1, 0), // preprocessor line
    ("a.cpp", "template <typename T>\nT f(T a) {\n  return a;\n}\n", 1, 4),
    // Python
    ("a.py", "def f(a,\n      b):\n    s = '''\n}\n'''\n    return a\n\nx = 1\n", 1, 6),
    ("a.py", "@dec\ndef f():\n    return 1\n\n\ndef g():\n    pass\n", 1, 3), // decorator line spans the definition
    ("a.py", "@dec\ndef f():\n    return 1\n", 2, 3), // def line: decorators not included
    ("a.py", "def f():\n    x = 1\n# dedented comment\n    return x\n# trailing comment\n", 1, 4),
    ("a.py", "def f(): return 1\ndef g():\n    pass\n", 1, 0), // one-liner opens nothing more
    ("a.py", "x = [\n    1,\n]\n", 1, 3),
    ("a.py", "if a:\n    b()\nelse:\n    c()\n", 1, 2),
    ("a.py", "def f():\n    y = x \\\n+ 1\n    return y\n", 1, 4), // backslash continuation
    // YAML
    ("a.yaml", "a:\n  b: 1\n  c: 'x: }'\nd: 2\n", 1, 3),
    ("a.yml", "list:\n- a\n- b\nother: 1\n", 1, 3),
    ("a.yaml", "a: 1\nb: 2\n", 1, 0),
];

#[test]
fn block_cases() {
    let mut failures = Vec::new();
    for (path, src, line, want) in BLOCK_CASES {
        let got = block(path, src, *line);
        let ok = match (&got, want) {
            (Ok((f, l)), w) => *f == *line && *l == *w,
            (Err(BlockError::NoBlock { .. }), 0) => true,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{path} line {line}: want {want}, got {got:?}\n{src}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

/// Balance lost: the refusal names the cause.
#[test]
fn unmatched_names_the_cause() {
    let cases: &[(&str, &str, usize, &str)] = &[
        (
            "a.rs",
            "fn f() {\n    let s = \"unterminated;\n}\n",
            1,
            "unterminated string starting at line 2",
        ),
        (
            "a.c",
            "int f() {\n  /* never closed\n}\n",
            1,
            "unterminated block comment starting at line 2",
        ),
        ("a.c", "int f() {\n  g(;\n}\n", 1, "does not match"),
        (
            "a.js",
            "function f() {\n  if (x) {\n}\n",
            1,
            "the file ends before it is closed",
        ),
        (
            "a.py",
            "def f(a,\n    b\n",
            1,
            "the file ends before it is closed",
        ),
    ];
    for (path, src, line, reason) in cases {
        match block(path, src, *line) {
            Err(BlockError::Unmatched { reason: r, .. }) => {
                assert!(r.contains(reason), "{path}: reason {r:?} lacks {reason:?}")
            }
            other => panic!("{path}: expected Unmatched, got {other:?}"),
        }
    }
}

#[test]
fn outlines() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "a.rs",
            "/// doc\n#[inline]\npub fn a() {\n}\nimpl<T> Tr for Foo<T> {\n    fn b(&self) { }\n}\ntrait Tr {\n    fn c(&self) {}\n}\nstruct S { x: i32 }\n",
            &["function a 3-4", "impl Foo 5-7", "method Foo.b 6-6", "trait Tr 8-10", "method Tr.c 9-9", "struct S 11-11"],
        ),
        (
            "a.go",
            "package p\n\nfunc (r *Reader) Read(p []byte) int {\n\treturn 0\n}\n\ntype T struct {\n\tA int\n}\n\nfunc main() {\n\tf := func() {}\n\t_ = f\n}\n",
            &["method Reader.Read 3-5", "struct T 7-9", "function main 11-14"],
        ),
        (
            "a.ts",
            "export class A {\n  constructor(private x: number) {}\n  get y(): number {\n    return 1;\n  }\n  handler = (e: Event): void => {\n  };\n}\nconst f = async (a: number): Promise<void> => {\n};\n",
            &["class A 1-8", "method A.constructor 2-2", "method A.y 3-5", "method A.handler 6-7", "function f 9-10"],
        ),
        (
            "a.py",
            "class C:\n    @property\n    def p(self):\n        return 1\n\n    async def q(self):\n        pass\n\ndef top():\n    def inner():\n        pass\n",
            &["class C 1-7", "method C.p 3-4", "method C.q 6-7", "function top 9-11", "function inner 10-11"],
        ),
        (
            "a.java",
            "public class A {\n    @Override\n    public String toString() {\n        return \"\";\n    }\n    A() {}\n    if_like() {}\n}\n",
            &["class A 1-8", "method A.toString 3-5", "method A.A 6-6"],
        ),
        (
            "a.cpp",
            "namespace n {\nint Foo::bar(int a) const {\n  return a;\n}\nFoo::Foo() : a{1}, b(2) {\n}\n}\n",
            &["module n 1-7", "method Foo.bar 2-4", "method Foo.Foo 5-6"],
        ),
        (
            "a.kt",
            "class K {\n    fun `weird name`() {\n    }\n    suspend fun String.ext(): Int {\n        return 1\n    }\n}\n",
            &["class K 1-7", "method K.weird name 2-3", "method K.ext 4-6"],
        ),
        (
            "a.swift",
            "struct S {\n    init(x: Int) {\n    }\n    mutating func go() {\n    }\n}\n",
            &["struct S 1-6", "method S.init 2-3", "method S.go 4-5"],
        ),
        (
            "a.php",
            "<?php\nclass P {\n    public static function make(): self {\n        return new self();\n    }\n}\nfunction helper() {\n}\n",
            &["class P 2-6", "method P.make 3-5", "function helper 7-8"],
        ),
        (
            "a.cs",
            "namespace N {\n    public class C {\n        public C(int x) : base(x) {\n        }\n        public async Task<int> Run() {\n            return 1;\n        }\n    }\n}\n",
            &["module N 1-9", "class C 2-8", "method C.C 3-4", "method C.Run 5-7"],
        ),
    ];
    for (path, src, want) in cases {
        let got = analysis_outline(path, src);
        assert_eq!(got, *want, "{path}\n{src}");
    }
}

#[test]
fn find_by_name_and_qualified() {
    let src = "impl A {\n    fn new() {}\n}\nimpl B {\n    fn new() {}\n}\nfn other() {}\n";
    let text = Text::new(src);
    let a = Analysis::new(&text, "x.rs");
    assert_eq!(a.find_functions("new").len(), 2);
    let b = a.find_functions("B::new");
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].start_line, 4);
    assert_eq!(a.find_functions("B.new")[0].start_line, 4);
    assert_eq!(a.find_functions("fn other()")[0].start_line, 6);
    assert!(a.find_functions("missing").is_empty());
    // a name in a string or comment is not a definition
    let src = "// fn ghost() {}\nlet s = \"fn ghost() {}\";\n";
    let text = Text::new(src);
    assert!(Analysis::new(&text, "x.rs")
        .find_functions("ghost")
        .is_empty());
}

#[test]
fn literals_are_blanked_in_code() {
    let cases: &[(&str, &str, &str)] = &[
        ("a.rs", "let s = \"a}\"; // }\n", "let s = \"  \";     \n"),
        ("a.js", "x = `a${b}c` / 2;\n", "x = \"  {b} \" / 2;\n"),
        ("a.js", "x = /}/g;\n", "x = \"  \";\n"),
        ("a.py", "s = f'{x}' # }\n", "s = \"    \"    \n"),
        ("a.go", "r := '}'\n", "r := \" \"\n"),
        ("a.rs", "fn f<'a>() {}\n", "fn f<'a>() {}\n"),
    ];
    for (path, src, want) in cases {
        let text = Text::new(src);
        let a = Analysis::new(&text, path);
        assert_eq!(String::from_utf8_lossy(a.code()), *want, "{path}: {src:?}");
    }
}

#[test]
fn language_from_extension() {
    assert_eq!(Lang::from_path("src/a.RS"), Some(Lang::Rust));
    assert_eq!(Lang::from_path("a.tsx"), Some(Lang::Tsx));
    assert_eq!(Lang::from_path("Makefile"), None);
    assert_eq!(Lang::from_path("a.weird"), None);
    let text = Text::new("x {\n}\n");
    let a = Analysis::new(&text, "a.weird");
    assert!(a.warning("a.weird").is_some_and(|w| w.contains("generic")));
    assert!(Analysis::new(&text, "a.c").warning("a.c").is_none());
}

const LANG_PATHS: &[&str] = &[
    "a.c", "a.cpp", "a.cs", "a.java", "a.kt", "a.swift", "a.go", "a.rs", "a.js", "a.ts", "a.tsx",
    "a.php", "a.css", "a.scss", "a.json", "a.py", "a.yaml", "a.txt",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Never panics, on any bytes (lossily made text), in any language; what it
    /// returns is consistent (partners pair up, blocks lie inside the file).
    #[test]
    fn never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400), line in 0usize..40) {
        let src = String::from_utf8_lossy(&bytes).into_owned();
        let text = Text::new(&src);
        for path in LANG_PATHS {
            let a = Analysis::new(&text, path);
            prop_assert_eq!(a.code().len(), src.len());
            for s in a.outline() {
                prop_assert!(s.start_line <= s.end_line && s.end_line < text.line_count().max(1));
            }
            if let Ok((f, l)) = a.block_at(line) {
                prop_assert!(f <= l && l < text.line_count());
            }
            let _ = a.find_functions("f");
            let _ = a.prelude_start(line.min(text.line_count().saturating_sub(1)));
        }
    }

    /// The same with code-like text: brackets, quotes and keywords in random order.
    #[test]
    fn never_panics_on_code_like_text(parts in proptest::collection::vec(prop::sample::select(vec![
        "{", "}", "(", ")", "[", "]", "\"", "'", "`", "/", "*", "//", "/*", "*/", "#", "\n", " ",
        "${", "<div>", "</div>", "<", ">", "r#\"", "\"#", "R\"x(", ")x\"", "fn f", "def f():",
        "function f", "class C", "=>", "\\", "'''", "\"\"\"", "@", "$\"", "<?php", "?>", "<<<E\n", "E;",
        ":", "    ", "\t", "func (r *T) M", "impl T", "::", ";", ",", "=",
    ]), 0..80)) {
        let src: String = parts.concat();
        let text = Text::new(&src);
        for path in LANG_PATHS {
            let a = Analysis::new(&text, path);
            for l in 0..text.line_count() {
                let _ = a.block_at(l);
            }
            let _ = a.outline();
            let _ = a.find_functions("f");
            let _ = a.find_functions("T.M");
        }
    }
}

/// The levels valid where lines are inserted: (path, source, 0-based gap line, widths).
#[test]
fn gap_levels_cases() {
    let cases: &[(&str, &str, usize, &[u32])] = &[
        // after the last line of a nested block, top level next: every enclosing level
        (
            "a.py",
            "def b(x):\n    if x:\n        return 2\n\n\ndef c():\n    pass\n",
            3,
            &[8, 4, 0],
        ),
        // the same with more of the function next: not shallower than it
        (
            "a.py",
            "def b(x):\n    if x:\n        return 2\n    return 3\n",
            3,
            &[8, 4],
        ),
        // after a header: its body's level only
        (
            "a.py",
            "class K:\n    def m(self):\n        pass\n",
            1,
            &[4],
        ),
        // comments and continuation lines are not statements
        (
            "a.py",
            "def f():\n    x = (1,\n  2)\n# note\n\ny = 1\n",
            3,
            &[4, 0],
        ),
        // end of file
        ("a.py", "def f():\n    return 1\n", 2, &[4, 0]),
        // brace languages: one level, from the bracket depth
        (
            "a.js",
            "class K {\n  m() {\n    return 2;\n  }\n}\n",
            1,
            &[2],
        ),
        (
            "a.js",
            "class K {\n  m() {\n    return 2;\n  }\n}\n",
            3,
            &[4],
        ),
        (
            "a.js",
            "class K {\n  m() {\n    return 2;\n  }\n}\nf();\n",
            5,
            &[0],
        ),
        ("a.js", "class K {\n  m() {}\n}\n", 3, &[0]),
        ("a.yaml", "a:\n  b: 1\n", 1, &[]),
    ];
    // Inside a statement: the statement's first line (0-based).
    let inside: &[(&str, &str, usize, usize)] = &[
        (
            "a.py",
            "def f():\n    x = g(\n        1,\n    )\n    return x\n",
            2,
            1,
        ),
        ("a.py", "def f():\n    '''doc\n    more\n    '''\n", 2, 1),
        ("a.js", "f(\n  a,\n  b,\n);\n", 2, 0),
        ("a.py", "x = 1\n@cache\n@dec(1)\ndef f():\n    pass\n", 3, 1),
        ("a.rs", "#[test]\nfn t() {}\n", 1, 0),
    ];
    for (path, src, gap, want) in inside {
        let text = Text::new(src);
        let a = Analysis::new(&text, path);
        assert_eq!(
            a.gap_levels(*gap, 0..0),
            Err(*want),
            "{path} gap {gap}\n{src}"
        );
    }
    for (path, src, gap, want) in cases {
        let text = Text::new(src);
        let a = Analysis::new(&text, path);
        let got: Vec<u32> = a
            .gap_levels(*gap, 0..0)
            .unwrap_or_default()
            .iter()
            .map(|l| l.width)
            .collect();
        assert_eq!(&got, want, "{path} gap {gap}\n{src}");
    }
}
