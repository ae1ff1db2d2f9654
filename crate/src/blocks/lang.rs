//! Languages: which one a path is, and the lexical rules each one needs.
//!
//! Only what decides where strings, comments and other literals start and end is
//! described here; the lexer (`lex.rs`) is shared by every brace language, and
//! Python and YAML have their own indentation rules (`indent.rs`).

/// A language the block finder knows, chosen from a file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    C,
    Cpp,
    CSharp,
    Java,
    Kotlin,
    Swift,
    Go,
    Rust,
    /// JavaScript, JSX included (`.js`, `.jsx`, `.mjs`, `.cjs`).
    JavaScript,
    /// TypeScript without JSX (`.ts`): `<T>` is a type, never an element.
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    Php,
    Css,
    Scss,
    Json,
    Python,
    Yaml,
    /// Unknown extension: C-like rules (`//`, `/* */`, `"…"`, `'…'`, braces).
    Generic,
}

impl Lang {
    /// The language of `path` by its extension, or `None` when it is not one we know.
    pub fn from_path(path: &str) -> Option<Lang> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let ext = name.rsplit_once('.').map(|(_, e)| e)?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "c" | "h" => Lang::C,
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" | "inl"
            | "cu" | "cuh" | "ino" => Lang::Cpp,
            "cs" => Lang::CSharp,
            "java" => Lang::Java,
            "kt" | "kts" => Lang::Kotlin,
            "swift" => Lang::Swift,
            "go" => Lang::Go,
            "rs" => Lang::Rust,
            "js" | "jsx" | "mjs" | "cjs" => Lang::JavaScript,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "php" | "phtml" => Lang::Php,
            "css" => Lang::Css,
            "scss" | "less" => Lang::Scss,
            "json" | "jsonc" | "json5" => Lang::Json,
            "py" | "pyi" | "pyw" => Lang::Python,
            "yaml" | "yml" => Lang::Yaml,
            _ => return None,
        })
    }

    /// `from_path`, with the generic fallback for unknown extensions.
    pub fn for_path(path: &str) -> Lang {
        Lang::from_path(path).unwrap_or(Lang::Generic)
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "C",
            Lang::Cpp => "C++",
            Lang::CSharp => "C#",
            Lang::Java => "Java",
            Lang::Kotlin => "Kotlin",
            Lang::Swift => "Swift",
            Lang::Go => "Go",
            Lang::Rust => "Rust",
            Lang::JavaScript => "JavaScript",
            Lang::TypeScript => "TypeScript",
            Lang::Tsx => "TSX",
            Lang::Php => "PHP",
            Lang::Css => "CSS",
            Lang::Scss => "SCSS",
            Lang::Json => "JSON",
            Lang::Python => "Python",
            Lang::Yaml => "YAML",
            Lang::Generic => "generic C-like",
        }
    }

    /// Blocks are indentation, not brackets.
    pub fn indented(self) -> bool {
        matches!(self, Lang::Python | Lang::Yaml)
    }

    /// JavaScript and TypeScript (with or without JSX).
    pub fn is_js(self) -> bool {
        matches!(self, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
    }

    pub(crate) fn syntax(self) -> Syntax {
        let c_like = Syntax {
            slash_comments: true,
            block_comments: true,
            single_quote: Quote::Char,
            ..Syntax::default()
        };
        match self {
            Lang::C => Syntax {
                preprocessor: true,
                ..c_like
            },
            Lang::Cpp => Syntax {
                preprocessor: true,
                cpp_raw: true,
                digit_separators: true,
                ..c_like
            },
            Lang::CSharp => Syntax {
                preprocessor: true,
                csharp: true,
                triple: true,
                ..c_like
            },
            Lang::Java => Syntax {
                triple: true,
                ..c_like
            },
            Lang::Kotlin => Syntax {
                nested_comments: true,
                triple: true,
                dollar_holes: true,
                backtick: Backtick::Plain,
                ..c_like
            },
            Lang::Swift => Syntax {
                nested_comments: true,
                triple: true,
                swift: true,
                backtick: Backtick::Plain,
                ..c_like
            },
            Lang::Go => Syntax {
                backtick: Backtick::Raw,
                ..c_like
            },
            Lang::Rust => Syntax {
                nested_comments: true,
                single_quote: Quote::CharOrLifetime,
                multiline_strings: true,
                rust_raw: true,
                ..c_like
            },
            Lang::JavaScript | Lang::Tsx => Syntax {
                single_quote: Quote::String,
                backtick: Backtick::Template,
                regex: true,
                jsx: true,
                ..c_like
            },
            Lang::TypeScript => Syntax {
                single_quote: Quote::String,
                backtick: Backtick::Template,
                regex: true,
                ..c_like
            },
            Lang::Php => Syntax {
                hash_comments: true,
                single_quote: Quote::String,
                multiline_strings: true,
                backtick: Backtick::Plain,
                php: true,
                ..c_like
            },
            Lang::Css => Syntax {
                slash_comments: false,
                single_quote: Quote::String,
                ..c_like
            },
            Lang::Scss => Syntax {
                single_quote: Quote::String,
                ..c_like
            },
            Lang::Json => Syntax {
                single_quote: Quote::String,
                ..c_like
            },
            Lang::Python => Syntax {
                slash_comments: false,
                block_comments: false,
                hash_comments: true,
                single_quote: Quote::String,
                triple: true,
                python: true,
                ..Syntax::default()
            },
            Lang::Yaml => Syntax {
                slash_comments: false,
                block_comments: false,
                hash_comments: true,
                single_quote: Quote::String,
                yaml: true,
                ..Syntax::default()
            },
            Lang::Generic => Syntax {
                backtick: Backtick::Plain,
                multiline_strings: true,
                ..c_like
            },
        }
    }
}

/// What a `'` starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Quote {
    /// A string like `"…"` (JavaScript, PHP, Python, CSS).
    String,
    /// A character literal (`'a'`, `'\n'`); a `'` that does not close on its line
    /// is an apostrophe, not a literal.
    #[default]
    Char,
    /// Rust: a character literal, or a lifetime / label (`'a`, `'outer:`).
    CharOrLifetime,
}

/// What a backtick starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Backtick {
    #[default]
    None,
    /// JavaScript template literal, with `${ … }` holes.
    Template,
    /// Go raw string: no escapes, may span lines.
    Raw,
    /// A quoted name or command (Kotlin, Swift, PHP): no escapes, one line.
    Plain,
}

/// The lexical rules of one language.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Syntax {
    /// `//` line comments.
    pub slash_comments: bool,
    /// `/* … */` comments.
    pub block_comments: bool,
    /// Block comments nest (Rust, Kotlin, Swift).
    pub nested_comments: bool,
    /// `#` line comments (Python, PHP, YAML).
    pub hash_comments: bool,
    pub single_quote: Quote,
    pub backtick: Backtick,
    /// `"…"` may span lines (Rust, PHP).
    pub multiline_strings: bool,
    /// `#…` lines are preprocessor directives (C, C++, C#).
    pub preprocessor: bool,
    /// `/…/` regex literals where an expression may start (JavaScript, TypeScript).
    pub regex: bool,
    /// `<Tag …>…</Tag>` elements where an expression may start.
    pub jsx: bool,
    /// C++ raw strings `R"delim( … )delim"`.
    pub cpp_raw: bool,
    /// C++14 digit separators `1'000'000`.
    pub digit_separators: bool,
    /// Rust raw strings `r#"…"#`, byte strings `b"…"`, `b'x'`.
    pub rust_raw: bool,
    /// C#: verbatim `@"…"`, interpolated `$"…{x}…"`.
    pub csharp: bool,
    /// `"""…"""` strings (Java text blocks, Kotlin, Swift, C# raw, Python).
    pub triple: bool,
    /// `"…${ x }…"` templates inside strings (Kotlin).
    pub dollar_holes: bool,
    /// Swift: `"…\( x )…"` interpolation and `#"…"#` raw strings.
    pub swift: bool,
    /// PHP: heredoc / nowdoc, `"{$x}"` holes.
    pub php: bool,
    /// Python string prefixes (`r`, `b`, `f`, …).
    pub python: bool,
    /// YAML: `#` starts a comment only after whitespace; quotes only open a scalar.
    pub yaml: bool,
}
