#!/usr/bin/env python3
"""Writes the oracle corpus (tests/oracle/<lang>/*): per language, a file of hand-written
hard cases and a file of generated functions whose bodies mix the hard cases at random
(braces in strings, comments, char / rune literals, template literals, regex literals,
raw strings, lifetimes, nested closures, multi-line signatures, K&R and Allman styles,
one-line functions). Deterministic: re-running it rewrites the same files.

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
RUST_HARD = r'''//! Hard cases for the Rust lexer.
use std::collections::HashMap;

/// Braces in strings and chars: "{" and '}'.
pub fn braces_in_literals(s: &str) -> usize {
    let open = '{';
    let close = '}';
    let text = "a } b { c";
    let raw = r#"raw } with "quotes" {"#;
    let bytes = b"}{";
    let esc = '\'';
    let nl = '\n';
    s.matches(open).count() + text.len() + raw.len() + bytes.len() + (close as usize) + (esc as usize) + (nl as usize)
}

pub fn lifetimes<'a, 'b: 'a>(x: &'a str, _y: &'b str) -> &'a str {
    'outer: for c in x.chars() {
        if c == '}' {
            break 'outer;
        }
    }
    x
}

pub struct Holder<'a> {
    pub name: &'a str,
}

impl<'a> Holder<'a> {
    pub fn new(name: &'a str) -> Self {
        Holder { name }
    }

    pub(crate) async fn load(&self) -> Option<&'a str> {
        /* block comment with } and /* nested { */ still comment } */
        Some(self.name)
    }

    fn one_liner(&self) -> usize { self.name.len() }
}

pub trait Shape {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        format!("{{area: {}}}", self.area())
    }
}

impl Shape for Holder<'_> {
    fn area(&self) -> f64 {
        let f = |x: f64| -> f64 { x * 2.0 };
        let g = move |y: f64| {
            let h = |z: f64| { z + 1.0 };
            h(y)
        };
        f(g(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_works() {
        let m: HashMap<&str, &str> = HashMap::new();
        assert!(m.get("}").is_none());
    }
}

pub fn multi_line_signature<T>(
    first: T,
    second: &str,
) -> Result<T, String>
where
    T: Clone,
{
    if second == "}" {
        return Err(String::from("{"));
    }
    Ok(first)
}

pub unsafe extern "C" fn exported(x: i32) -> i32 {
    x
}

pub const fn constant() -> u8 {
    b'}'
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub fn uses_macro() -> i32 {
    let r = r##"a "# } still raw"##;
    square!(r.len() as i32)
}
'''


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
PY_HARD = r'''"""Hard cases for Python blocks: strings, decorators, continuations."""
import functools


def plain(a, b):
    return a + b


@functools.lru_cache(maxsize=None)
def decorated(x):
    text = """a multi-line string
def not_a_function():
    pass
"""
    return text * x


@staticmethod
@functools.wraps(plain)
def two_decorators(
    first,
    second=(1, 2),
    *args,
    **kwargs,
):
    if first:
        return second
    value = first + \
        second
    return value


async def coroutine(url):
    async with session(url) as s:
        return await s.read()


class Base:
    """Docstring with def inside: def x(): pass"""

    attr = {"def": 1}

    def method(self):
        data = [
            1,
            2,
        ]
        return data

    @property
    def prop(self):
        return 'it\'s a string with "quotes" and # not a comment'

    class Inner:
        def inner_method(self):
            def nested(y):
                return y
            return nested(1)

    def one_line(self): return 1

    def after_one_line(self):
        s = r"raw \" string"
        t = f"{self.attr['def']} braces {{ }}"
        return s + t


def with_comment_dedent():
    x = 1
# a comment at column 0 inside the function
    y = 2
    return x + y


def last_function():
    return QQQsingle '' quoted
multi-lineQQQ
'''.replace("QQQ", "'" * 3)


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
JS_HARD = r'''// Hard cases for JavaScript: templates, regex literals, JSX.
import React from "react";

export function templates(name) {
  const s = `a } b ${name + `nested ${"}"} }`} c {`;
  const t = `${{ a: 1 }.a}`;
  return s + t;
}

function regexes(text) {
  const re = /\}[{]+\/}/g;
  const half = text.length / 2 / 1;
  const again = text.replace(/{/, "}");
  return re.test(text) && half > 0 ? again : "";
}

const arrow = (a, b) => {
  if (a) {
    return { b };
  }
  return b;
};

export const asyncArrow = async (x) => {
  await x;
  return '}';
};

let assigned = function (x) {
  return x / 2;
};

class Widget extends React.Component {
  constructor(props) {
    super(props);
    this.state = { open: false };
  }

  static create() {
    return new Widget({});
  }

  get size() {
    return 1;
  }

  async load(url) {
    const res = await fetch(`${url}/}`);
    return res.json();
  }

  *items() {
    yield '{';
  }

  handle = (event) => {
    this.setState({ open: !this.state.open });
  };

  render() {
    return (
      <div className="x" onClick={() => this.handle({})}>
        Don't break on apostrophes {this.state.open ? <span>{"}"}</span> : null}
        <p>Braces in text are JSX expressions</p>
      </div>
    );
  }
}

const obj = {
  method(a) {
    return a;
  },
  prop: function (b) {
    return b;
  },
  arrowProp: (c) => {
    return c;
  },
};

function* generator() {
  yield 1;
}

function callbacks() {
  [1, 2].forEach(function (x) {
    console.log(x);
  });
  setTimeout(() => {
    console.log("}");
  }, 0);
}

export default function defaultExport() {
  return obj.method(1) / 2;
}
'''


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
TS_HARD = r'''// Hard cases for TypeScript.
export interface Shape {
  area(): number;
}

export function generic<T extends { id: string }>(items: T[]): Map<string, T> {
  const m = new Map<string, T>();
  for (const it of items) {
    m.set(`${it.id}}`, it);
  }
  return m;
}

export class Circle implements Shape {
  private readonly r: number;

  constructor(r: number) {
    this.r = r;
  }

  public area(): number {
    return Math.PI * this.r * this.r;
  }

  protected static fromJSON(json: string): Circle {
    const o = JSON.parse(json) as { r: number };
    return new Circle(o.r);
  }

  private async load<T>(url: string): Promise<T | undefined> {
    const r = /\/api\/{id}/;
    return undefined;
  }

  handler = (e: Event): void => {
    console.log(e, "}");
  };
}

export const typedArrow = async (
  a: number,
  b: { x: string },
): Promise<number> => {
  return a / 2;
};

enum Color {
  Red = "{",
  Green = "}",
}

namespace Geometry {
  export function distance(a: number, b: number): number {
    return Math.abs(a - b);
  }
}

function overloaded(x: string): string;
function overloaded(x: number): number;
function overloaded(x: any): any {
  return x;
}

export default class {
  run(): void {}
}
'''


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
GO_HARD = r'''// Hard cases for Go: runes, raw strings, methods.
package hard

import (
	"fmt"
	"strings"
)

type Reader struct {
	buf []byte
}

type Generic[T any] struct {
	items []T
}

type Doer interface {
	Do() error
}

func runes() rune {
	r := '}'
	s := '{'
	q := '\''
	return r + s + q
}

func rawStrings() string {
	return `raw } with "quotes" and { ` + "}"
}

func (r *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := copy(p, r.buf)
	return n, nil
}

func (g Generic[T]) Len() int {
	return len(g.items)
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func closures() func() string {
	inner := func() string {
		return strings.Repeat("}", 2)
	}
	return func() string {
		defer func() {
			fmt.Println("{")
		}()
		return inner()
	}
}

func multiLine(
	a int,
	b string,
) (int, error) {
	switch {
	case a > 0:
		return a, nil
	default:
		return 0, fmt.Errorf("%s}", b)
	}
}
'''


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
C_HARD = r'''/* Hard cases for C: K&R and Allman, preprocessor, char literals. */
#include <stdio.h>
#include <string.h>

#define OPEN '{'
#define BLOCK(x) { x; }
#define MULTI_LINE(a) \
    do { \
        (a)++; \
    } while (0)

struct point {
    int x;
    int y;
};

typedef struct {
    char name[16];
} record_t;

static int
allman_style(int a)
{
    if (a > 0)
    {
        return a;
    }
    return -a;
}

int knr_style(int a) {
    char c = '}';
    char d = '\'';
    const char *s = "} { \" }";
    /* comment } { */
    // line comment {
    return a + c + d + (int)strlen(s);
}

static inline const char *
multi_line_signature(const char *first,
                     int second)
{
    return second ? first : "{";
}

int one_liner(void) { return 1; }

struct point *make_point(int x, int y) {
    static struct point p;
    p.x = x;
    p.y = y;
    return &p;
}

void (*get_handler(void))(int) {
    return NULL;
}

int main(int argc, char **argv) {
    struct point p = { 1, 2 };
    for (int i = 0; i < argc; i++) {
        printf("%s }\n", argv[i]);
    }
    return p.x;
}
'''


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
CPP_HARD = r'''// Hard cases for C++: raw strings, templates, classes, operators.
#include <string>
#include <vector>

namespace outer {
namespace inner {

template <typename T>
T maximum(T a, T b) {
    return a > b ? a : b;
}

class Widget : public Base {
public:
    Widget() : size_{0}, name_("}") {}
    explicit Widget(int size) : size_(size) {
        auto f = [this](int x) { return x + size_; };
        (void)f;
    }
    ~Widget() {}

    int size() const { return size_; }

    bool operator==(const Widget& other) const {
        return size_ == other.size_;
    }

    static std::string raw() {
        return R"x(raw } with )" and { )x";
    }

private:
    int size_;
    std::string name_;
};

int Widget::compute(int a) const noexcept {
    const char c = '}';
    long big = 1'000'000;
    return a + c + static_cast<int>(big);
}

}  // namespace inner
}  // namespace outer

template <class T>
class Box {
public:
    T get() const {
        return value;
    }
private:
    T value;
};

auto trailing(int x) -> int {
    std::vector<int> v{1, 2, 3};
    return x + v.size();
}

int main() {
    outer::inner::Widget w;
    return w.size();
}
'''


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
JAVA_HARD = r'''// Hard cases for Java: annotations, text blocks, anonymous classes, lambdas.
package hard;

import java.util.List;

public class Hard<T extends Comparable<T>> {
    private final String name = "}";

    public Hard() {
        this(null);
    }

    public Hard(String n) {
        System.out.println(n + "{");
    }

    @Override
    public String toString() {
        return "Hard{" + name + "}";
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <U> List<U> generic(
            List<U> items,
            int limit) throws Exception {
        char c = '}';
        char q = '\'';
        String block = """
            text block with } and { and "quotes"
            """;
        return items;
    }

    public void anonymous() {
        Runnable r = new Runnable() {
            @Override
            public void run() {
                System.out.println("}");
            }
        };
        r.run();
    }

    public int lambdas(List<Integer> xs) {
        xs.forEach(x -> {
            System.out.println(x);
        });
        return xs.stream().map(x -> x + 1).reduce(0, (a, b) -> a + b);
    }

    static class Nested {
        void nestedMethod() { }
    }

    interface Greeter {
        String greet(String who);

        default String hello() {
            return greet("{world}");
        }
    }

    enum Level {
        LOW {
            @Override
            int weight() {
                return 1;
            }
        },
        HIGH;

        int weight() {
            return 2;
        }
    }
}
'''


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


write("rust", "hard.rs", RUST_HARD)
write("rust", "generated.rs", rust_generated())
write("python", "hard.py", PY_HARD)
write("python", "generated.py", py_generated())
write("javascript", "hard.jsx", JS_HARD)
write("javascript", "generated.js", js_generated())
write("typescript", "hard.ts", TS_HARD)
write("typescript", "generated.ts", ts_generated())
write("go", "hard.go", GO_HARD)
write("go", "generated.go", go_generated())
write("c", "hard.c", C_HARD)
write("c", "generated.c", c_generated())
write("cpp", "hard.cpp", CPP_HARD)
write("cpp", "generated.cpp", cpp_generated())
write("java", "Hard.java", JAVA_HARD)
write("java", "Generated.java", java_generated())
