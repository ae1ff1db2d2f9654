//! Tool specifications and strict argument parsing.
//!
//! Each tool declares one [`ToolSpec`]: its name, an LLM-facing description and its
//! parameters. That one declaration drives three things, so they cannot drift apart:
//! the JSON Schemas hosts publish ([`ToolSpec::schema`]), the parser that checks every
//! call ([`Args::parse`]), and the reference in docs/tools.md.
//!
//! Parsing is strict where a silent guess could edit the wrong place, and forgiving
//! where the intent is plain: well-known aliases from other agents' tools and
//! camelCase spellings are accepted, `null` means "not given", but an unknown argument
//! or a wrong type is refused with the closest valid name or the expected type.

use crate::error::{EditError, EditResult};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The JSON type a parameter accepts.
#[derive(Clone, Copy, Debug)]
pub enum ParamType {
    String,
    /// An integer no smaller than `min`.
    Integer {
        min: i64,
    },
    Boolean,
    /// An object with exactly these string fields, all required.
    StringPair(&'static [&'static str]),
    /// An array of argument objects, or the same as a JSON string or XML text.
    ObjectList,
    /// An object whose values are strings, keyed by any name (e.g. path → version).
    StringMap,
    /// An array of strings (a single string is taken as a list of one).
    StringList,
    /// An array of integers.
    IntegerList,
}

#[derive(Debug)]
pub struct Param {
    pub name: &'static str,
    /// Other spellings accepted (snake_case; camelCase spellings are derived).
    pub aliases: &'static [&'static str],
    pub ty: ParamType,
    pub required: bool,
    pub description: &'static str,
}

#[derive(Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    /// What the tool does, written for an LLM, with a short example.
    pub description: &'static str,
    pub params: &'static [Param],
    /// What a client may assume about the tool (published as MCP tool annotations).
    pub annotations: Annotations,
}

/// MCP tool annotations, declared once per tool. Hosts read "does this tool edit" from
/// `read_only` (published as `readOnlyHint`), never from the shape of its schema.
#[derive(Debug, Clone, Copy)]
pub struct Annotations {
    /// A short human-readable name.
    pub title: &'static str,
    /// The tool changes no file (`readOnlyHint`).
    pub read_only: bool,
    /// An editing tool that may remove or overwrite existing text (`destructiveHint`);
    /// false for additive tools such as `insert`.
    pub destructive: bool,
    /// A second identical call changes nothing more (`idempotentHint`).
    pub idempotent: bool,
}

impl Annotations {
    /// The MCP `annotations` object.
    pub fn to_json(self) -> Value {
        json!({
            "title": self.title,
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": false,
        })
    }
}

impl ToolSpec {
    /// Whether the tool changes files (it then takes `dry_run` and `expected_version`).
    pub const fn edits(&self) -> bool {
        !self.annotations.read_only
    }

    /// Whether the syntax-regression guard checks this tool's calls: every tool that
    /// takes `allow_unbalanced` (the argument that turns it off). A tool that restores
    /// texts that existed (`undo_edit`) does not take it, and so is exempt.
    pub fn guarded(&self) -> bool {
        self.param("allow_unbalanced").is_some()
    }

    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The JSON Schema of this tool's arguments.
    pub fn schema(&self) -> Value {
        schema_of(self.params.iter(), false)
    }

    /// The schema a profile lists: every argument but [`UNLISTED`] (with `keep`, only
    /// the required ones and those `keep` names), each with its description's first
    /// sentence, and no `additionalProperties: false`: calls still take every argument,
    /// and the refusals that need an unlisted one name it.
    pub fn listed_schema(&self, keep: Option<&[&str]>) -> Value {
        let kept = self.params.iter().filter(|p| {
            !UNLISTED.contains(&p.name) && keep.is_none_or(|k| p.required || k.contains(&p.name))
        });
        let mut schema = schema_of(kept, true);
        if let Some(o) = schema.as_object_mut() {
            o.remove("additionalProperties");
        }
        schema
    }
}

/// Optional arguments the `minimal` profile lists.
pub const COMPACT_KEEP: &[&str] = &["replace_all", "start_line", "end_line", "glob", "regex"];

/// Arguments profiles do not list (docs/tools.md documents them; the refusals that
/// need one name it): the file's encoding, and the switches that turn a check off.
pub const UNLISTED: &[&str] = &[
    "encoding",
    "allow_placeholders",
    "allow_unbalanced",
    "strict",
    "expected_versions",
];

fn schema_of<'p>(params: impl Iterator<Item = &'p Param>, short: bool) -> Value {
    {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for p in params {
            let mut prop = match p.ty {
                ParamType::String => json!({"type": "string"}),
                ParamType::Integer { min } => json!({"type": "integer", "minimum": min}),
                ParamType::Boolean => json!({"type": "boolean"}),
                ParamType::StringPair(fields) => {
                    let props: Map<String, Value> = fields
                        .iter()
                        .map(|f| (f.to_string(), json!({"type": "string"})))
                        .collect();
                    json!({"type": "object", "properties": props, "required": fields,
                           "additionalProperties": false})
                }
                ParamType::ObjectList => json!({
                    "type": ["array", "string"],
                    "items": {"type": "object"}
                }),
                ParamType::StringMap => json!({
                    "type": "object",
                    "additionalProperties": {"type": "string"}
                }),
                ParamType::StringList => json!({"type": "array", "items": {"type": "string"}}),
                ParamType::IntegerList => json!({"type": "array", "items": {"type": "integer"}}),
            };
            let description = if short {
                first_sentence(p.description)
            } else {
                p.description
            };
            prop["description"] = Value::String(description.to_string());
            properties.insert(p.name.to_string(), prop);
            if p.required {
                required.push(p.name);
            }
        }
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        })
    }
}

/// Arguments of one call, checked against a [`ToolSpec`] and keyed by canonical name.
#[derive(Debug, Clone)]
pub struct Args {
    pub spec: &'static ToolSpec,
    values: BTreeMap<&'static str, Value>,
    /// Warnings about arguments accepted and ignored (see [`IGNORED`]).
    pub notes: Vec<String>,
    /// The agent's `explanation` of the call: recorded in statistics, never acted on.
    pub explanation: Option<String>,
}

/// Arguments other edit tools define that every tool here accepts and ignores, with
/// why: refusing them would make an agent retry a correct edit.
pub const IGNORED: &[(&str, &str)] = &[
    (
        "fuzzy_whitespace",
        "`fuzzy_whitespace` was ignored: whitespace tolerance is automatic here (unique matches only).",
    ),
    ("explanation", ""),
];

impl Args {
    /// Checks `raw` against `spec`: resolves aliases, refuses unknown names, wrong
    /// types, repeated spellings and missing required arguments.
    pub fn parse(spec: &'static ToolSpec, raw: &Map<String, Value>) -> EditResult<Args> {
        let mut values: BTreeMap<&'static str, Value> = BTreeMap::new();
        let mut spelled: BTreeMap<&'static str, &str> = BTreeMap::new();
        let (mut notes, mut explanation) = (Vec::new(), None);
        for (key, value) in raw {
            let Some(param) = resolve_name(spec, key) else {
                match IGNORED.iter().find(|(name, _)| *name == to_snake_case(key)) {
                    Some(("explanation", _)) => explanation = value.as_str().map(str::to_string),
                    Some((_, note)) => notes.push(note.to_string()),
                    None => return Err(unknown_argument(spec, key)),
                }
                continue;
            };
            if value.is_null() {
                continue;
            }
            if let Some(first) = spelled.get(param.name) {
                return Err(EditError::invalid(format!(
                    "`{}` was given twice (as `{first}` and `{key}`). Send it once, as `{}`.",
                    param.name, param.name
                )));
            }
            check_type(spec, param, value)?;
            spelled.insert(param.name, key.as_str());
            values.insert(param.name, value.clone());
        }
        for p in spec.params.iter().filter(|p| p.required) {
            if !values.contains_key(p.name) {
                return Err(EditError::invalid(format!(
                    "{} needs `{}` ({}). Required: {}.",
                    spec.name,
                    p.name,
                    first_sentence(p.description),
                    required_list(spec)
                )));
            }
        }
        Ok(Args {
            spec,
            values,
            notes,
            explanation,
        })
    }

    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    pub fn value(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }

    /// A required string (presence and type were checked by [`Args::parse`]).
    pub fn str(&self, name: &str) -> &str {
        self.opt_str(name).unwrap_or("")
    }

    pub fn opt_str(&self, name: &str) -> Option<&str> {
        self.values.get(name).and_then(Value::as_str)
    }

    /// A [`ParamType::StringList`] argument (None when not given).
    pub fn opt_strings(&self, name: &str) -> Option<Vec<&str>> {
        match self.values.get(name)? {
            Value::String(s) => Some(vec![s.as_str()]),
            Value::Array(items) => Some(items.iter().filter_map(Value::as_str).collect()),
            _ => None,
        }
    }

    pub fn opt_usize(&self, name: &str) -> Option<usize> {
        self.values
            .get(name)
            .and_then(Value::as_u64)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }

    pub fn flag(&self, name: &str) -> bool {
        self.values
            .get(name)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// The two fields of a [`ParamType::StringPair`] argument, in declared order.
    pub fn pair(&self, name: &str) -> Option<(&str, &str)> {
        let ParamType::StringPair([first, second]) = self.spec.param(name)?.ty else {
            return None;
        };
        let obj = self.values.get(name)?.as_object()?;
        Some((obj.get(*first)?.as_str()?, obj.get(*second)?.as_str()?))
    }

    /// Names of the arguments given, in canonical spelling.
    pub fn given(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.values.keys().copied()
    }

    /// The arguments as a JSON object (canonical names), e.g. to fingerprint a call.
    pub fn to_json(&self) -> Map<String, Value> {
        self.values
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    /// Sets or replaces an argument (used by hosts' overrides such as `--dry-run`).
    pub fn set(&mut self, name: &'static str, value: Value) {
        self.values.insert(name, value);
    }
}

/// One argument of a checked call read as a Rust value: the field types of the
/// per-tool argument structs that [`typed_args!`] declares. [`Args::parse`] has checked
/// presence and JSON type against the spec, so reading cannot fail; `fits` says which
/// parameter declarations a type can hold (a test compares every struct with its spec).
pub trait FromArg<'a>: Sized {
    /// The value of `name` in `args`.
    fn from_arg(args: &'a Args, name: &str) -> Self;
    /// Whether a parameter of type `ty` (required or not) reads into this type.
    fn fits(ty: ParamType, required: bool) -> bool;
}

impl<'a> FromArg<'a> for &'a str {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.str(name)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        required && matches!(ty, ParamType::String)
    }
}

impl<'a> FromArg<'a> for Option<&'a str> {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.opt_str(name)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        !required && matches!(ty, ParamType::String)
    }
}

impl<'a> FromArg<'a> for bool {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.flag(name)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        !required && matches!(ty, ParamType::Boolean)
    }
}

/// A switch whose default is on (`None` when not given).
impl<'a> FromArg<'a> for Option<bool> {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.value(name).and_then(Value::as_bool)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        !required && matches!(ty, ParamType::Boolean)
    }
}

impl<'a> FromArg<'a> for usize {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.opt_usize(name).unwrap_or(0)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        required && matches!(ty, ParamType::Integer { min } if min >= 0)
    }
}

impl<'a> FromArg<'a> for Option<usize> {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.opt_usize(name)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        !required && matches!(ty, ParamType::Integer { min } if min >= 0)
    }
}

impl<'a> FromArg<'a> for Option<Vec<&'a str>> {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.opt_strings(name)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        !required && matches!(ty, ParamType::StringList)
    }
}

impl<'a> FromArg<'a> for Option<(&'a str, &'a str)> {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.pair(name)
    }
    fn fits(ty: ParamType, required: bool) -> bool {
        !required && matches!(ty, ParamType::StringPair([_, _]))
    }
}

/// An argument kept as JSON ([`ParamType::ObjectList`], [`ParamType::StringMap`]):
/// its own parser reads it.
impl<'a> FromArg<'a> for Option<&'a Value> {
    fn from_arg(args: &'a Args, name: &str) -> Self {
        args.value(name)
    }
    fn fits(ty: ParamType, _required: bool) -> bool {
        matches!(ty, ParamType::ObjectList | ParamType::StringMap)
    }
}

/// How a field type reads a parameter declaration ([`FromArg::fits`]).
pub type Fits = fn(ParamType, bool) -> bool;

/// Declares a tool's argument struct: one field per parameter of its [`ToolSpec`], named
/// as the parameter's canonical name, so that a tool reads `a.old_str`, not
/// `args.str("old_str")`. Aliases, camelCase, dialect names, unknown names and types are
/// settled before, by [`Args::parse`] (one home); `from_args` only reads. The generated
/// `fields()` lists each field's name and type for [`check_fields`], which a test runs
/// against every tool's spec: a field the schema lacks, a parameter the struct lacks, or
/// a type that cannot hold the parameter fails it.
macro_rules! typed_args {
    ($(#[$meta:meta])* pub struct $name:ident<$lt:lifetime> {
        $($(#[$fmeta:meta])* $field:ident: $ty:ty),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone)]
        pub struct $name<$lt> {
            $($(#[$fmeta])* pub $field: $ty,)*
            /// Ties the struct to the call it reads (a tool may have no borrowed field).
            pub call: std::marker::PhantomData<&$lt $crate::args::Args>,
        }

        impl<$lt> $name<$lt> {
            /// Reads the checked arguments of a call.
            pub fn from_args(args: &$lt $crate::args::Args) -> Self {
                Self {
                    $($field: $crate::args::FromArg::from_arg(args, stringify!($field)),)*
                    call: std::marker::PhantomData,
                }
            }

            /// Each field's name and how its type reads a parameter.
            pub fn fields() -> Vec<(&'static str, $crate::args::Fits)> {
                vec![$((
                    stringify!($field),
                    <$ty as $crate::args::FromArg<$lt>>::fits as $crate::args::Fits,
                )),*]
            }
        }
    };
}
pub(crate) use typed_args;

#[cfg(test)]
/// Whether a struct's `fields` (see [`typed_args!`]) are exactly `spec`'s parameters,
/// each of a type that holds it; else what differs.
pub fn check_fields(spec: &ToolSpec, fields: &[(&'static str, Fits)]) -> Result<(), String> {
    let mut problems = Vec::new();
    for p in spec.params {
        match fields.iter().find(|(name, _)| *name == p.name) {
            None => problems.push(format!("no field `{}`", p.name)),
            Some((_, fits)) if !fits(p.ty, p.required) => problems.push(format!(
                "field `{}` cannot hold {:?} (required: {})",
                p.name, p.ty, p.required
            )),
            Some(_) => {}
        }
    }
    for (name, _) in fields {
        if spec.param(name).is_none() {
            problems.push(format!("field `{name}` is no parameter"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}: {}", spec.name, problems.join("; ")))
    }
}

/// The parameter `key` names in `spec` (its name, an alias, or their camelCase).
pub fn resolve_name(spec: &'static ToolSpec, key: &str) -> Option<&'static Param> {
    let snake = to_snake_case(key);
    spec.params.iter().find(|p| {
        p.name == key || p.name == snake || p.aliases.iter().any(|a| *a == key || *a == snake)
    })
}

/// `oldString` → `old_string`; `file-path` → `file_path`.
pub fn to_snake_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for (i, c) in key.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c == '-' {
            out.push('_');
        } else {
            out.push(c);
        }
    }
    out
}

fn unknown_argument(spec: &ToolSpec, key: &str) -> EditError {
    let names: Vec<&str> = spec.params.iter().map(|p| p.name).collect();
    let candidates = spec
        .params
        .iter()
        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
        .map(|n| (n, resolve_canonical(spec, n)));
    let snake = to_snake_case(key);
    let best = candidates
        .map(|(alias, canonical)| (edit_distance(&snake, alias), canonical))
        .min_by_key(|(d, _)| *d);
    let hint = match best {
        Some((d, canonical)) if d <= (snake.chars().count() / 2).max(2) => {
            format!(" Did you mean `{canonical}`?")
        }
        _ => String::new(),
    };
    EditError::invalid(format!(
        "{} has no argument `{key}`.{hint} Valid arguments: {}.",
        spec.name,
        names.join(", ")
    ))
}

fn resolve_canonical(spec: &ToolSpec, alias: &str) -> &'static str {
    spec.params
        .iter()
        .find(|p| p.name == alias || p.aliases.contains(&alias))
        .map(|p| p.name)
        .unwrap_or("")
}

fn check_type(spec: &ToolSpec, param: &Param, value: &Value) -> EditResult<()> {
    let ok = match param.ty {
        ParamType::String => value.is_string(),
        ParamType::Integer { min } => value.as_i64().is_some_and(|n| n >= min),
        ParamType::Boolean => value.is_boolean(),
        ParamType::StringPair(fields) => value.as_object().is_some_and(|o| {
            o.len() == fields.len()
                && fields
                    .iter()
                    .all(|f| o.get(*f).is_some_and(Value::is_string))
        }),
        ParamType::ObjectList => value.is_array() || value.is_string(),
        ParamType::StringMap => value
            .as_object()
            .is_some_and(|o| o.values().all(Value::is_string)),
        ParamType::IntegerList => value
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_i64)),
        ParamType::StringList => {
            value.is_string()
                || value
                    .as_array()
                    .is_some_and(|a| a.iter().all(Value::is_string))
        }
    };
    if ok {
        return Ok(());
    }
    let expected = match param.ty {
        ParamType::String => "a string".to_string(),
        ParamType::Integer { min } => format!("an integer ≥ {min}"),
        ParamType::Boolean => "true or false".to_string(),
        ParamType::StringPair(fields) => format!(
            "an object {{{}}} of strings",
            fields
                .iter()
                .map(|f| format!("\"{f}\": \"…\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ParamType::ObjectList => "an array of objects".to_string(),
        ParamType::StringMap => "an object {\"<path>\": \"<version>\", …} of strings".to_string(),
        ParamType::StringList => "an array of strings".to_string(),
        ParamType::IntegerList => "an array of integers".to_string(),
    };
    Err(EditError::invalid(format!(
        "{}: `{}` must be {expected}, not {}.",
        spec.name,
        param.name,
        describe_value(value)
    )))
}

/// A short description of a JSON value for error messages: its type and a glimpse.
pub fn describe_value(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let glimpse: String = s.chars().take(40).collect();
            let more = if s.chars().count() > 40 { "…" } else { "" };
            format!("the string {:?}", format!("{glimpse}{more}"))
        }
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(_) => "an object".into(),
    }
}

fn first_sentence(s: &str) -> &str {
    match s.find(". ") {
        Some(i) => &s[..i],
        None => s.trim_end_matches('.'),
    }
}

fn required_list(spec: &ToolSpec) -> String {
    spec.params
        .iter()
        .filter(|p| p.required)
        .map(|p| format!("`{}`", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Levenshtein distance over chars (names are short).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest of `names` to `word`, if it is close enough to be a likely typo.
pub fn closest<'n>(word: &str, names: impl IntoIterator<Item = &'n str>) -> Option<&'n str> {
    let lower = word.to_lowercase();
    names
        .into_iter()
        .map(|n| (edit_distance(&lower, &n.to_lowercase()), n))
        .filter(|(d, n)| *d <= (n.chars().count() / 2).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_conversion() {
        assert_eq!(to_snake_case("oldString"), "old_string");
        assert_eq!(to_snake_case("filePath"), "file_path");
        assert_eq!(to_snake_case("old_str"), "old_str");
        assert_eq!(to_snake_case("dry-run"), "dry_run");
    }

    static SPEC: ToolSpec = ToolSpec {
        name: "t",
        description: "",
        params: &[
            Param {
                name: "old_str",
                aliases: &["old_string"],
                ty: ParamType::String,
                required: true,
                description: "",
            },
            Param {
                name: "line",
                aliases: &[],
                ty: ParamType::Integer { min: 1 },
                required: false,
                description: "",
            },
        ],
        annotations: Annotations {
            title: "t",
            read_only: true,
            destructive: false,
            idempotent: true,
        },
    };

    typed_args! {
        /// Matches SPEC.
        pub struct Right<'a> {
            old_str: &'a str,
            line: Option<usize>,
        }
    }

    typed_args! {
        /// A misspelt field, and a type that cannot hold `line`.
        pub struct Wrong<'a> {
            old_sr: &'a str,
            line: Option<&'a str>,
        }
    }

    #[test]
    fn a_typed_struct_reads_the_canonical_names_and_must_match_its_spec() {
        let raw = json!({"oldString": "x", "line": 3});
        let args = Args::parse(&SPEC, raw.as_object().unwrap()).unwrap();
        let a = Right::from_args(&args);
        assert_eq!((a.old_str, a.line), ("x", Some(3)));
        assert_eq!(check_fields(&SPEC, &Right::fields()), Ok(()));
        // What the check is for: a misspelt field reads as empty.
        let w = Wrong::from_args(&args);
        assert_eq!((w.old_sr, w.line), ("", None));
        assert_eq!(
            check_fields(&SPEC, &Wrong::fields()),
            Err("t: no field `old_str`; field `line` cannot hold Integer { min: 1 } (required: false); field `old_sr` is no parameter".to_string())
        );
    }

    #[test]
    fn distances() {
        assert_eq!(edit_distance("old_sr", "old_str"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(
            closest("str_replce", ["insert", "str_replace"]),
            Some("str_replace")
        );
        assert_eq!(closest("zzzzzz", ["insert", "str_replace"]), None);
    }
}
