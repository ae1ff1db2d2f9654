use super::*;

fn outline(path: &str, src: &str) -> Vec<String> {
    let text = Text::new(src);
    let a = Analysis::new(&text, path);
    a.outline()
        .iter()
        .map(|s| format!("{} {} {}-{}", s.kind.as_str(), s.qualified(), s.start_line + 1, s.end_line + 1))
        .collect()
}

#[test]
fn smoke() {
    let rs = "use x;\n\n/// doc\n#[inline]\npub fn a(x: &str) -> usize {\n    let s = \"}\";\n    let c = '{';\n    let l: &'static str = r#\"}\"#;\n    x.len()\n}\n\nimpl<T> Foo<T> for Bar {\n    fn b(&self) {\n        if x { } \n    }\n}\n";
    eprintln!("{:#?}", outline("a.rs", rs));
    let js = "const f = (a) => {\n  return `${a}}`;\n};\nclass A {\n  m(x) {\n    const r = /}/g;\n    return x / 2;\n  }\n  static async n() {}\n}\nfunction g() {\n  return <div>{'}'}don't</div>;\n}\n";
    eprintln!("{:#?}", outline("a.jsx", js));
    let py = "import x\n\n@dec\ndef f(a,\n      b):\n    '''doc\n}'''\n    return a\n\n\nclass C:\n    def m(self):\n        pass\n    # trailing\n\nx = 1\n";
    eprintln!("{:#?}", outline("a.py", py));
    let go = "package main\n\nimport (\n\t\"fmt\"\n)\n\nfunc (r *Reader) Read(p []byte) (int, error) {\n\tc := '}'\n\ts := `}`\n\treturn 0, nil\n}\n\ntype T struct {\n\tA int\n}\n\nfunc main() {\n\tfmt.Println(\"}\")\n}\n";
    eprintln!("{:#?}", outline("a.go", go));
    let c = "#include <stdio.h>\n\nstatic int\nfoo(int a)\n{\n    return a; /* } */\n}\n\nstruct P { int x; };\n\nint main(void) {\n    char c = '}';\n    return 0;\n}\n";
    eprintln!("{:#?}", outline("a.c", c));
    let java = "public class A {\n    @Override\n    public String toString() {\n        return \"}\";\n    }\n    A(int x) { }\n    void r() { new Runnable() { public void run() {} }; }\n}\n";
    eprintln!("{:#?}", outline("A.java", java));
    let cpp = "namespace n {\ntemplate <typename T>\nT max(T a, T b) {\n  return a;\n}\nFoo::Foo() : a{1}, b(2) {\n}\nclass K : public B {\npublic:\n  K() {}\n  ~K() {}\n  bool operator==(const K& o) const { return true; }\n};\n}\nauto s = R\"x(})x\";\n";
    eprintln!("{:#?}", outline("a.cpp", cpp));
}

#[test]
fn debug_c() {
    let c = "#include <stdio.h>\n\nstatic int\nfoo(int a)\n{\n    return a; /* } */\n}\n";
    let text = Text::new(c);
    let a = Analysis::new(&text, "a.c");
    eprintln!("{}", String::from_utf8_lossy(a.code()));
    eprintln!("{:?}", a.events());
    eprintln!("{:?}", outline("a.c", c));
}

#[test]
fn debug_jsx() {
    let c = "class W {\n  render() {\n    return (\n      <div className=\"x\" onClick={() => this.handle({})}>\n        Don't break {this.state.open ? <span>{\"}\"}</span> : null}\n        <p>Braces</p>\n      </div>\n    );\n  }\n}\n";
    let text = Text::new(c);
    let a = Analysis::new(&text, "a.jsx");
    eprintln!("{}", String::from_utf8_lossy(a.code()));
    eprintln!("{:?}", a.issues());
}
