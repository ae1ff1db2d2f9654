#!/usr/bin/env python3
"""Writes the generated half of the oracle corpus (tests/oracle/<lang>/generated.*): per
language, functions whose bodies mix the hard cases at random
(braces in strings, comments, char / rune literals, template literals, regex literals,
raw strings, lifetimes, nested closures, multi-line signatures, K&R and Allman styles,
one-line functions). The other half, tests/oracle/<lang>/hard.*, is written by hand.
Deterministic: re-running it rewrites the same files.

    python3 tests/oracle/generate.py
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20240611)


def write(lang, name, text):
    d = os.path.join(HERE, lang)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def pick(xs):
    return rng.choice(xs)


# ---------------------------------------------------------------- Rust


def rust_body(i):
    parts = []
    for _ in range(rng.randint(1, 4)):
        parts.append(pick([
            '    let s{n} = "}} {{ \\" }}";',
            "    let c{n} = '{{';",
            "    let d{n} = '\\'';",
            '    let r{n} = r#"}} raw "quoted" {{"#;',
            "    // a comment with }} and {{",
            "    /* block }} comment {{ */",
            "    let v{n}: Vec<&'static str> = vec![\"}}\"];",
            "    if x > {n} {{\n        return x - {n};\n    }}",
            "    for k in 0..{n} {{\n        let _ = k;\n    }}",
            "    let f{n} = |a: i32| {{ a + {n} }};\n    let _ = f{n}(1);",
            "    match x {{\n        0 => {{}}\n        _ => {{ let _ = '}}'; }}\n    }}",
            "    let b{n} = b'{{';",
        ]).format(n=i))
    return "\n".join(parts)


def rust_generated():
    out = ["//! Generated functions for the oracle.\n"]
    for i in range(40):
        style = i % 4
        name = f"gen_fn_{i}"
        body = rust_body(i)
        if style == 0:
            out.append(f"pub fn {name}(x: i32) -> i32 {{\n{body}\n    x\n}}\n")
        elif style == 1:
            out.append(f"fn {name}<'a>(x: i32, _s: &'a str) -> i32\n{{\n{body}\n    x\n}}\n")
        elif style == 2:
            out.append(f"pub(crate) fn {name}(\n    x: i32,\n    _y: i32,\n) -> i32 {{\n{body}\n    x\n}}\n")
        else:
            out.append(f"fn {name}(x: i32) -> i32 {{ x + {i} }}\n")
    out.append("pub struct Gen;\n\nimpl Gen {\n")
    for i in range(10):
        out.append(f"    pub fn method_{i}(&self, x: i32) -> i32 {{\n" + "\n".join("    " + l for l in rust_body(i).split("\n")) + "\n        x\n    }\n\n")
    out.append("}\n")
    return "\n".join(out)


# ---------------------------------------------------------------- Python


def py_body(i):
    parts = []
    for _ in range(rng.randint(1, 4)):
        parts.append(pick([
            "    s{n} = '}} {{ \\' '",
            '    d{n} = {{"k": [1, 2, {n}]}}',
            "    # comment with def inside: def fake():",
            '    m{n} = """\n    def looks_like_a_def():\n    """',
            "    if x > {n}:\n        x -= {n}\n    else:\n        x += 1",
            "    for k in range({n}):\n        x += k",
            "    total = (x +\n             {n})",
            "    call{n} = max(\n        x,\n        {n},\n    )",
            "    y = x \\\n        + {n}",
            "    lam = lambda z: z + {n}",
        ]).format(n=i))
    return "\n".join(parts)


def py_generated():
    out = ['"""Generated functions for the oracle."""\n\n']
    for i in range(40):
        style = i % 4
        body = py_body(i)
        if style == 0:
            out.append(f"def gen_fn_{i}(x):\n{body}\n    return x\n\n\n")
        elif style == 1:
            out.append(f"@decorator_{i}\ndef gen_fn_{i}(x, y=None):\n{body}\n    return x\n\n\n")
        elif style == 2:
            out.append(f"def gen_fn_{i}(\n    x,\n    y=({i}, {i}),\n):\n{body}\n    return x\n\n\n")
        else:
            out.append(f"async def gen_fn_{i}(x):\n{body}\n    return x\n\n\n")
    out.append("class Gen:\n")
    for i in range(10):
        body = "\n".join("    " + l for l in py_body(i).split("\n"))
        out.append(f"    def method_{i}(self, x):\n{body}\n        return x\n\n")
    return "".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- JavaScript


def js_body(i):
    parts = []
    for _ in range(rng.randint(1, 4)):
        parts.append(pick([
            '  const s{n} = "}} {{ \\" }}";',
            "  const q{n} = '}} {{';",
            "  const t{n} = `${{x}} }} ${{`{{`}} {{`;",
            "  const r{n} = /[}}{{]+\\/}}/.test(String(x));",
            "  const d{n} = x / {n} / 2;",
            "  // comment with }} and {{",
            "  /* block }} comment {{ */",
            "  if (x > {n}) {{\n    x -= {n};\n  }}",
            "  for (let k = 0; k < {n}; k++) {{\n    x += k;\n  }}",
            "  const o{n} = {{ a: {{ b: '}}' }} }};",
            "  [1, 2].map((v) => {{\n    return v + {n};\n  }});",
        ]).format(n=i))
    return "\n".join(parts)


def js_generated():
    out = ["// Generated functions for the oracle.\n"]
    for i in range(34):
        style = i % 4
        body = js_body(i)
        if style == 0:
            out.append(f"function genFn{i}(x) {{\n{body}\n  return x;\n}}\n")
        elif style == 1:
            out.append(f"export const genFn{i} = (x) => {{\n{body}\n  return x;\n}};\n")
        elif style == 2:
            out.append(f"async function genFn{i}(\n  x,\n  y = {{}},\n) {{\n{body}\n  return x;\n}}\n")
        else:
            out.append(f"function genFn{i}(x) {{ return x + {i}; }}\n")
    out.append("class Gen {\n")
    for i in range(8):
        body = "\n".join("  " + l for l in js_body(i).split("\n"))
        out.append(f"  method{i}(x) {{\n{body}\n    return x;\n  }}\n")
    out.append("}\n")
    return "\n".join(out)


# ---------------------------------------------------------------- TypeScript


def ts_generated():
    out = ["// Generated functions for the oracle.\n"]
    for i in range(28):
        style = i % 3
        body = js_body(i)
        if style == 0:
            out.append(f"export function genFn{i}(x: number): number {{\n{body}\n  return x;\n}}\n")
        elif style == 1:
            out.append(f"const genFn{i} = (x: number): number => {{\n{body}\n  return x;\n}};\n")
        else:
            out.append(f"function genFn{i}<T>(\n  x: number,\n  y?: T,\n): number {{\n{body}\n  return x;\n}}\n")
    out.append("export class Gen {\n")
    for i in range(8):
        body = "\n".join("  " + l for l in js_body(i).split("\n"))
        mod = pick(["public ", "private ", "static ", "async ", ""])
        ret = "Promise<number>" if mod == "async " else "number"
        out.append(f"  {mod}method{i}(x: number): {ret} {{\n{body}\n    return x;\n  }}\n")
    out.append("}\n")
    return "\n".join(out)


# ---------------------------------------------------------------- Go


def go_body(i):
    parts = []
    for _ in range(rng.randint(1, 4)):
        parts.append(pick([
            '\ts{n} := "}} {{ \\" }}"\n\t_ = s{n}',
            "\tc{n} := '{{'\n\t_ = c{n}",
            "\tr{n} := `}} raw {{`\n\t_ = r{n}",
            "\t// comment with }} and {{",
            "\t/* block }} comment {{ */",
            "\tif x > {n} {{\n\t\tx -= {n}\n\t}}",
            "\tfor k := 0; k < {n}; k++ {{\n\t\tx += k\n\t}}",
            "\tf{n} := func(a int) int {{ return a + {n} }}\n\t_ = f{n}",
            "\tm{n} := map[string]int{{\"}}\": {n}}}\n\t_ = m{n}",
        ]).format(n=i))
    return "\n".join(parts)


def go_generated():
    out = ["// Generated functions for the oracle.\npackage gen\n\ntype Gen struct{}\n"]
    for i in range(40):
        style = i % 4
        body = go_body(i)
        if style == 0:
            out.append(f"func GenFn{i}(x int) int {{\n{body}\n\treturn x\n}}\n")
        elif style == 1:
            out.append(f"func (g *Gen) Method{i}(x int) int {{\n{body}\n\treturn x\n}}\n")
        elif style == 2:
            out.append(f"func genFn{i}(\n\tx int,\n\ty string,\n) int {{\n{body}\n\treturn x\n}}\n")
        else:
            out.append(f"func genFn{i}(x int) int {{ return x + {i} }}\n")
    return "\n".join(out)


# ---------------------------------------------------------------- C


def c_body(i):
    parts = []
    for _ in range(rng.randint(1, 4)):
        parts.append(pick([
            '    const char *s{n} = "}} {{ \\" }}";',
            "    char c{n} = '{{';",
            "    char d{n} = '\\'';",
            "    /* block }} comment {{ */",
            "    // comment with }} and {{",
            "    if (x > {n}) {{\n        x -= {n};\n    }}",
            "    for (int k = 0; k < {n}; k++) {{\n        x += k;\n    }}",
            "    switch (x) {{\n    case {n}: {{\n        x++;\n        break;\n    }}\n    default:\n        break;\n    }}",
            "    int arr{n}[] = {{ {n}, 2, 3 }};",
        ]).format(n=i))
    return "\n".join(parts)


def c_generated():
    out = ["/* Generated functions for the oracle. */\n#include <stddef.h>\n"]
    for i in range(40):
        style = i % 4
        body = c_body(i)
        if style == 0:
            out.append(f"int gen_fn_{i}(int x) {{\n{body}\n    return x;\n}}\n")
        elif style == 1:
            out.append(f"static int\ngen_fn_{i}(int x)\n{{\n{body}\n    return x;\n}}\n")
        elif style == 2:
            out.append(f"int gen_fn_{i}(int x,\n             const char *y)\n{{\n{body}\n    return x;\n}}\n")
        else:
            out.append(f"int gen_fn_{i}(int x) {{ return x + {i}; }}\n")
    return "\n".join(out)


# ---------------------------------------------------------------- C++


def cpp_generated():
    out = ["// Generated functions for the oracle.\n#include <string>\n"]
    for i in range(30):
        style = i % 3
        body = c_body(i)
        if style == 0:
            out.append(f"int gen_fn_{i}(int x) {{\n{body}\n    return x;\n}}\n")
        elif style == 1:
            out.append(f"template <typename T>\nT gen_fn_{i}(T x)\n{{\n{body}\n    return x;\n}}\n")
        else:
            out.append(f"auto gen_fn_{i}(int x) -> int {{\n    auto s = R\"({'}'} raw {'{'})\";\n{body}\n    return x;\n}}\n")
    out.append("class Gen {\npublic:\n")
    for i in range(8):
        body = "\n".join("    " + l for l in c_body(i).split("\n"))
        out.append(f"    int method_{i}(int x) const {{\n{body}\n        return x;\n    }}\n")
    out.append("};\n")
    return "\n".join(out)


# ---------------------------------------------------------------- Java


def java_body(i):
    parts = []
    for _ in range(rng.randint(1, 4)):
        parts.append(pick([
            '        String s{n} = "}} {{ \\" }}";',
            "        char c{n} = '{{';",
            "        char d{n} = '\\'';",
            "        /* block }} comment {{ */",
            "        // comment with }} and {{",
            "        if (x > {n}) {{\n            x -= {n};\n        }}",
            "        for (int k = 0; k < {n}; k++) {{\n            x += k;\n        }}",
            "        int[] arr{n} = {{ {n}, 2, 3 }};",
            "        Runnable r{n} = () -> {{\n            System.out.println(\"}}\");\n        }};",
        ]).format(n=i))
    return "\n".join(parts)


def java_generated():
    out = ["// Generated functions for the oracle.\npackage gen;\n\npublic class Gen {\n"]
    for i in range(40):
        style = i % 4
        body = java_body(i)
        if style == 0:
            out.append(f"    public int genFn{i}(int x) {{\n{body}\n        return x;\n    }}\n")
        elif style == 1:
            out.append(f"    @Deprecated\n    private static int genFn{i}(int x)\n    {{\n{body}\n        return x;\n    }}\n")
        elif style == 2:
            out.append(f"    protected <T> int genFn{i}(\n            int x,\n            T y) throws Exception {{\n{body}\n        return x;\n    }}\n")
        else:
            out.append(f"    int genFn{i}(int x) {{ return x + {i}; }}\n")
    out.append("}\n")
    return "\n".join(out)


write("rust", "generated.rs", rust_generated())
write("python", "generated.py", py_generated())
write("javascript", "generated.js", js_generated())
write("typescript", "generated.ts", ts_generated())
write("go", "generated.go", go_generated())
write("c", "generated.c", c_generated())
write("cpp", "generated.cpp", cpp_generated())
write("java", "Generated.java", java_generated())
