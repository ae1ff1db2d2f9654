//! Hard cases for the Rust lexer.
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
