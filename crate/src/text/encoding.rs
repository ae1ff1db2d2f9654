//! A file's bytes ↔ the text the engine edits: one decision, made here for every host.
//!
//! Design decisions and invariants:
//! - **Which encoding.** In this order: a byte order mark (UTF-8, UTF-16LE, UTF-16BE)
//!   wins over everything; then the call's `encoding` argument; then UTF-8 when the
//!   bytes are valid UTF-8; then a declaration in the file's first 1024 bytes (a Python
//!   or Emacs `coding:` line among the first two lines, `<?xml … encoding="…"?>` at the
//!   start, `@charset "…";` at the start, an HTML `<meta charset>`), read only when the
//!   bytes are not valid UTF-8. Nothing else: the engine never guesses an encoding from
//!   byte statistics; an undeclared legacy file is refused with the `encoding` argument
//!   to send.
//! - **Names** are `encoding_rs`'s (the WHATWG Encoding Standard's) labels, so
//!   `latin1` and `iso-8859-1` mean windows-1252, as they do in every browser.
//! - **A BOM stays in the text** as its first character (U+FEFF), as for UTF-8 today:
//!   encoding the text writes the same BOM back, and no separate flag can disagree.
//!   Results name the encoding of every file that is not UTF-8; UTF-8 (with or without
//!   a BOM) is the default and goes unnamed.
//! - **Byte-exact or refused.** A decoding is accepted only when encoding its text again
//!   gives the very same bytes (malformed sequences, or encodings whose encoders write
//!   other bytes for the same text, are refused with where). So a file's untouched
//!   bytes come back identical after any edit.
//! - **Never lossy.** [`encode`] refuses a character the encoding cannot hold
//!   (never an HTML numeric reference or a `?`); the workspace checks every new text
//!   with it, so such a call is refused before anything is written.
//! - **Binary** files stay refused: a NUL byte (a NUL character in UTF-16).
//!
//! UTF-16 is encoded here, not by `encoding_rs` (whose encoders write UTF-8 for UTF-16,
//! as the Web does for form submission).

use crate::error::{EditError, EditResult};
use encoding_rs::{DecoderResult, EncoderResult, Encoding, UTF_16BE, UTF_16LE, UTF_8};
use std::borrow::Cow;

/// How far into a file a declaration is looked for.
const DECLARATION_WINDOW: usize = 1024;

/// Encodings named in the refusal of an undeclared legacy file when they decode it
/// byte-exact (the common legacy encodings of source code; a list, never a guess).
const CANDIDATES: &[&str] = &[
    "windows-1252",
    "shift_jis",
    "euc-jp",
    "euc-kr",
    "gbk",
    "big5",
];

/// A file's encoding (an `encoding_rs` encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileEncoding(&'static Encoding);

impl FileEncoding {
    /// UTF-8, the default of every file and every host's text.
    pub const UTF8: FileEncoding = FileEncoding(UTF_8);

    /// The encoding a label names (`"latin1"`, `"Shift_JIS"`, `"utf-16le"`, …), or
    /// `invalid_arguments`. `replacement` (which decodes every file to one U+FFFD) is no
    /// encoding a file is written in, and is refused too.
    pub fn from_label(label: &str) -> EditResult<FileEncoding> {
        let label = label.trim();
        // Python's and Emacs's spellings (`latin-1`, `shift-jis`, `euc_kr`) are the
        // WHATWG labels with `-` and `_` swapped or dropped.
        let found = [
            label.to_string(),
            label.replace('-', "_"),
            label.replace('_', "-"),
            label.replace(['-', '_'], ""),
        ]
        .iter()
        .find_map(|l| Encoding::for_label(l.as_bytes()));
        match found {
            Some(e) if e != encoding_rs::REPLACEMENT => Ok(FileEncoding(e)),
            _ => Err(EditError::invalid(format!(
                "`encoding: \"{label}\"` names no encoding anchored-edit knows. Send a WHATWG label such as \"utf-8\", \"utf-16le\", \"windows-1252\" (also \"latin1\"), \"shift_jis\", \"euc-kr\", \"gbk\", or leave `encoding` out for UTF-8."
            ))),
        }
    }

    /// The canonical name (`"UTF-8"`, `"UTF-16LE"`, `"windows-1252"`, `"Shift_JIS"`…).
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    pub fn is_utf8(self) -> bool {
        self.0 == UTF_8
    }

    fn is_utf16(self) -> bool {
        self.0 == UTF_16LE || self.0 == UTF_16BE
    }

    /// The name a result carries for a file in this encoding: None for UTF-8, which
    /// every host writes by default (a UTF-8 BOM is the text's first character, so the
    /// text alone says it; a host that hands text and one that hands bytes then give
    /// the same result).
    pub fn result_name(self) -> Option<&'static str> {
        (!self.is_utf8()).then(|| self.name())
    }
}

/// The text of a file's `bytes` and its encoding, decoded as the module doc says
/// (`requested`: the call's `encoding` argument), or `invalid_arguments` saying why
/// and what to send.
pub fn decode(
    path: &str,
    bytes: &[u8],
    requested: Option<FileEncoding>,
) -> EditResult<(String, FileEncoding)> {
    decode_from(path, Cow::Borrowed(bytes), requested)
}

/// [`decode`] of bytes the caller gives up: a UTF-8 file's bytes become its text
/// without a copy (a host reading a 4 MB file then holds it once, not twice).
pub fn decode_owned(
    path: &str,
    bytes: Vec<u8>,
    requested: Option<FileEncoding>,
) -> EditResult<(String, FileEncoding)> {
    decode_from(path, Cow::Owned(bytes), requested)
}

fn decode_from(
    path: &str,
    bytes: Cow<'_, [u8]>,
    requested: Option<FileEncoding>,
) -> EditResult<(String, FileEncoding)> {
    let bom = Encoding::for_bom(&bytes).map(|(e, _)| FileEncoding(e));
    let encoding = match (bom, requested) {
        (Some(e), _) | (None, Some(e)) => e,
        (None, None) if std::str::from_utf8(&bytes).is_ok() => FileEncoding::UTF8,
        (None, None) => match declared(&bytes) {
            Some(e) => e,
            None => return Err(undeclared(path, &bytes)),
        },
    };
    // memchr's vectorised scan: `contains` reads a word at a time (0.16 ms on 3.5 MB here,
    // memchr 0.035 ms).
    if !encoding.is_utf16() && memchr::memchr(0, &bytes).is_some() {
        return Err(binary(path));
    }
    if encoding.is_utf8() {
        return match String::from_utf8(bytes.into_owned()) {
            Ok(text) => Ok((text, encoding)),
            Err(e) => Err(not_in(
                path,
                e.as_bytes(),
                encoding,
                e.utf8_error().valid_up_to(),
            )),
        };
    }
    let bytes = &bytes[..];
    if bom.is_none() && requested.is_some() && has_non_ascii_utf8(bytes) {
        return Err(utf8_not_legacy(path, encoding));
    }
    let text = match encoding
        .0
        .decode_without_bom_handling_and_without_replacement(bytes)
    {
        Some(text) => text.into_owned(),
        None => return Err(not_in(path, bytes, encoding, malformed_at(bytes, encoding))),
    };
    if encoding.is_utf16() && text.contains('\0') {
        return Err(binary(path));
    }
    match encode(&text, encoding) {
        Ok(again) if again == bytes => Ok((text, encoding)),
        _ => Err(no_round_trip(path, bytes, &text, encoding)),
    }
}

/// For hosts: the bytes to write for a changed file's `new_text` and `encoding` (the
/// result's field; None: UTF-8). Refuses an unknown label and a character the encoding
/// cannot hold (the engine has refused such a call already, so a host sees this only
/// for texts it made itself).
pub fn encode_text(text: &str, encoding: Option<&str>) -> EditResult<Vec<u8>> {
    let encoding = match encoding {
        Some(label) => FileEncoding::from_label(label)?,
        None => FileEncoding::UTF8,
    };
    encode(text, encoding).map_err(|u| unencodable("the text", text, encoding, u))
}

/// For hosts and tests: the text of a file's bytes, decoded as the engine decodes a
/// file it reads (`encoding`: the call's argument), with the encoding's name.
pub fn decode_bytes(
    path: &str,
    bytes: &[u8],
    encoding: Option<&str>,
) -> EditResult<(String, &'static str)> {
    let requested = encoding.map(FileEncoding::from_label).transpose()?;
    decode(path, bytes, requested).map(|(text, e)| (text, e.name()))
}

/// A character of a text that its file's encoding cannot hold, at byte `offset` of
/// the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unencodable {
    pub ch: char,
    pub offset: usize,
}

/// The bytes of `text` in `encoding`, or the first character it cannot hold.
pub fn encode(text: &str, encoding: FileEncoding) -> Result<Vec<u8>, Unencodable> {
    if encoding.is_utf8() {
        return Ok(text.as_bytes().to_vec());
    }
    if encoding.is_utf16() {
        let le = encoding.0 == UTF_16LE;
        let mut out = Vec::with_capacity(text.len() * 2);
        for unit in text.encode_utf16() {
            out.extend_from_slice(&if le {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            });
        }
        return Ok(out);
    }
    let mut encoder = encoding.0.new_encoder();
    let room = encoder
        .max_buffer_length_from_utf8_without_replacement(text.len())
        .unwrap_or(text.len().saturating_mul(4));
    let mut out = Vec::with_capacity(room);
    let mut read = 0;
    loop {
        let (result, n) =
            encoder.encode_from_utf8_to_vec_without_replacement(&text[read..], &mut out, true);
        read += n;
        match result {
            EncoderResult::InputEmpty => return Ok(out),
            EncoderResult::OutputFull => out.reserve(out.capacity().max(64)),
            EncoderResult::Unmappable(ch) => {
                return Err(Unencodable {
                    ch,
                    offset: read - ch.len_utf8(),
                })
            }
        }
    }
}

/// The refusal of a new text `encoding` cannot hold: the character, its code point and
/// its line, and what to send instead.
pub fn unencodable(path: &str, text: &str, encoding: FileEncoding, u: Unencodable) -> EditError {
    let line = line_at(text, u.offset);
    EditError::invalid(format!(
        "The new text of `{path}` has {:?} (U+{:04X}) on line {line}, which {} cannot hold; the file is written in its own encoding, never lossily. Send the call again without that character (for example as an escape the language reads, such as \\u{{{:x}}} in a string).",
        u.ch, u.ch as u32, encoding.name(), u.ch as u32
    ))
}

fn line_at(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn binary(path: &str) -> EditError {
    EditError::invalid(format!(
        "`{path}` looks binary (it contains NUL bytes); anchored-edit edits text files only."
    ))
}

/// Whether `bytes` are valid UTF-8 with at least one non-ASCII character.
fn has_non_ascii_utf8(bytes: &[u8]) -> bool {
    !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
}

fn utf8_not_legacy(path: &str, encoding: FileEncoding) -> EditError {
    EditError::invalid(format!(
        "`{path}` is valid UTF-8 text with non-ASCII characters, so `encoding: \"{}\"` would misread it. Send the call again without `encoding` (the file is UTF-8).",
        encoding.name()
    ))
}

/// The refusal of a file that is not UTF-8 and declares no encoding.
fn undeclared(path: &str, bytes: &[u8]) -> EditError {
    let at = std::str::from_utf8(bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    let fits: Vec<&str> = CANDIDATES
        .iter()
        .copied()
        .filter(|label| {
            FileEncoding::from_label(label)
                .is_ok_and(|e| round_trips(bytes, e) && !bytes.contains(&0))
        })
        .collect();
    let next = fits.first().copied().unwrap_or("windows-1252");
    let which = if fits.is_empty() {
        "none of windows-1252, shift_jis, euc-jp, euc-kr, gbk, big5 decodes it byte-exact"
            .to_string()
    } else {
        format!("it decodes byte-exact as {}", fits.join(", "))
    };
    EditError::invalid(format!(
        "`{path}` is not UTF-8 text ({}) and declares no encoding; anchored-edit never guesses one. If you know the file's encoding, send the same call again with it, e.g. `\"encoding\": \"{next}\"` ({which}).",
        where_is(bytes, at)
    ))
}

fn round_trips(bytes: &[u8], encoding: FileEncoding) -> bool {
    encoding
        .0
        .decode_without_bom_handling_and_without_replacement(bytes)
        .is_some_and(|text| encode(&text, encoding).is_ok_and(|again| again == bytes))
}

/// "byte 0xE9 at line 3, offset 41" for the byte at `at` (lines counted by `\n` bytes;
/// UTF-16 lines by `\n` code units).
fn where_is(bytes: &[u8], at: usize) -> String {
    let at = at.min(bytes.len());
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    match bytes.get(at) {
        Some(b) => format!("byte 0x{b:02X} at line {line}, offset {at}"),
        None => format!("it ends inside a character, at line {line}, offset {at}"),
    }
}

fn not_in(path: &str, bytes: &[u8], encoding: FileEncoding, at: usize) -> EditError {
    EditError::invalid(format!(
        "`{path}` is not valid {} text ({}); anchored-edit edits a file only when it can write every byte back as it was. If the file is in another encoding, send the call again with `\"encoding\"` naming it.",
        encoding.name(),
        where_is(bytes, at)
    ))
}

fn no_round_trip(path: &str, bytes: &[u8], text: &str, encoding: FileEncoding) -> EditError {
    let again = encode(text, encoding).unwrap_or_default();
    let at = again
        .iter()
        .zip(bytes)
        .position(|(a, b)| a != b)
        .unwrap_or(again.len().min(bytes.len()));
    EditError::invalid(format!(
        "`{path}` decodes as {} but would not be written back byte-exact ({}); anchored-edit refuses to edit it in this encoding. If the file is in another encoding, send the call again with `\"encoding\"` naming it.",
        encoding.name(),
        where_is(bytes, at)
    ))
}

/// The byte offset of the first malformed sequence of `bytes` in `encoding`.
fn malformed_at(bytes: &[u8], encoding: FileEncoding) -> usize {
    let mut decoder = encoding.0.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(
        decoder
            .max_utf8_buffer_length_without_replacement(bytes.len())
            .unwrap_or(bytes.len() * 3),
    );
    let mut read = 0;
    loop {
        let (result, n) =
            decoder.decode_to_string_without_replacement(&bytes[read..], &mut out, true);
        read += n;
        match result {
            DecoderResult::InputEmpty => return bytes.len(),
            DecoderResult::OutputFull => out.reserve(out.capacity().max(64)),
            DecoderResult::Malformed(bad, after) => {
                return read.saturating_sub(bad as usize + after as usize)
            }
        }
    }
}

/// The encoding a file declares in its first bytes, when one of the declarations the
/// module doc lists names an encoding (UTF-16 names are ignored: a declaration written
/// in ASCII bytes cannot be UTF-16).
pub fn declared(bytes: &[u8]) -> Option<FileEncoding> {
    let head = &bytes[..bytes.len().min(DECLARATION_WINDOW)];
    let head = String::from_utf8_lossy(head);
    let label = python_coding(&head)
        .or_else(|| xml_encoding(&head))
        .or_else(|| css_charset(&head))
        .or_else(|| html_meta_charset(&head))?;
    let encoding = FileEncoding::from_label(&label).ok()?;
    (!encoding.is_utf16()).then_some(encoding)
}

/// PEP 263: `coding[:=]\s*NAME` in a comment on the first or second line.
fn python_coding(head: &str) -> Option<String> {
    head.lines()
        .take(2)
        .filter(|line| line.trim_start().starts_with('#') || line.contains("-*-"))
        .find_map(|line| {
            let at = line.find("coding")? + "coding".len();
            let rest = line[at..].strip_prefix([':', '='])?;
            label_at(rest.trim_start())
        })
}

/// `<?xml version="1.0" encoding="NAME"?>` at the very start.
fn xml_encoding(head: &str) -> Option<String> {
    let decl = head.strip_prefix("<?xml")?;
    let decl = &decl[..decl.find("?>")?];
    let at = decl.find("encoding")? + "encoding".len();
    quoted(decl[at..].trim_start().strip_prefix('=')?.trim_start())
}

/// `@charset "NAME";` at the very start (CSS).
fn css_charset(head: &str) -> Option<String> {
    quoted(head.strip_prefix("@charset ")?)
}

/// `<meta charset="NAME">` or `<meta http-equiv=… content="…; charset=NAME">` (HTML).
fn html_meta_charset(head: &str) -> Option<String> {
    let lower = head.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("<meta") {
        let start = from + i;
        let end = lower[start..].find('>').map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        if let Some(at) = tag.find("charset") {
            let rest = tag[at + "charset".len()..].trim_start();
            if let Some(rest) = rest.strip_prefix('=') {
                let rest = rest.trim_start();
                return quoted(rest).or_else(|| label_at(rest));
            }
        }
        from = end;
    }
    None
}

/// A label in quotes at the start of `s`.
fn quoted(s: &str) -> Option<String> {
    let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let rest = &s[1..];
    Some(rest[..rest.find(q)?].to_string())
}

/// A bare label (letters, digits, `-`, `_`, `.`, `:`) at the start of `s`.
fn label_at(s: &str) -> Option<String> {
    let s = s.trim_start_matches(['"', '\'']);
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
        .unwrap_or(s.len());
    (end > 0).then(|| s[..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_read_only_from_the_forms_the_module_doc_lists() {
        let cases: &[(&str, Option<&str>)] = &[
            ("# -*- coding: latin-1 -*-\nx = 1\n", Some("windows-1252")),
            (
                "#!/usr/bin/env python\n# coding=shift_jis\n",
                Some("Shift_JIS"),
            ),
            ("# vim: set fileencoding=euc-kr :\n", Some("EUC-KR")),
            ("x = 1\ny = 2\n# coding: gbk\n", None),
            (
                "<?xml version=\"1.0\" encoding='GBK'?>\n<a/>\n",
                Some("GBK"),
            ),
            ("@charset \"iso-8859-1\";\na {}\n", Some("windows-1252")),
            ("<html><meta charset=euc-jp></html>", Some("EUC-JP")),
            (
                "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=big5\">",
                Some("Big5"),
            ),
            ("<meta charset=\"utf-16le\">", None),
            ("coding: latin1 (not a comment)\n", None),
            ("plain text\n", None),
        ];
        for (head, want) in cases {
            assert_eq!(
                declared(head.as_bytes()).map(FileEncoding::name),
                *want,
                "{head}"
            );
        }
    }

    #[test]
    fn labels_name_whatwg_encodings_and_latin1_is_windows_1252() {
        for (label, name) in [
            ("latin1", "windows-1252"),
            ("ISO-8859-1", "windows-1252"),
            ("shift-jis", "Shift_JIS"),
            ("utf-16", "UTF-16LE"),
            ("euc_kr", "EUC-KR"),
        ] {
            assert_eq!(FileEncoding::from_label(label).unwrap().name(), name);
        }
        assert!(FileEncoding::from_label("replacement").is_err());
        assert!(FileEncoding::from_label("klingon").is_err());
    }

    #[test]
    fn decoding_owned_bytes_gives_what_decoding_borrowed_bytes_gives() {
        let latin1 = FileEncoding::from_label("latin1").ok();
        let utf16 = FileEncoding::from_label("utf-16le").ok();
        let cases: &[(&[u8], Option<FileEncoding>)] = &[
            (b"", None),
            (b"x = 1\n", None),
            ("caf\u{e9} \u{65e5}\n".as_bytes(), None),
            (b"\xef\xbb\xbfbom\n", None),
            (b"\xff\xfea\x00\n\x00", None),
            (b"caf\xe9\n", None),
            (b"# coding: latin-1\ncaf\xe9\n", None),
            (b"caf\xe9\n", latin1),
            ("caf\u{e9}\n".as_bytes(), latin1),
            (b"a\x00b\n", None),
            (b"a\xc3\n", None),
            (b"a\x00\n\x00", utf16),
        ];
        for (bytes, requested) in cases {
            let borrowed = decode("f.txt", bytes, *requested);
            let owned = decode_owned("f.txt", bytes.to_vec(), *requested);
            match (borrowed, owned) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{bytes:?}"),
                (Err(a), Err(b)) => assert_eq!(a.message, b.message, "{bytes:?}"),
                (a, b) => panic!("{bytes:?}: {a:?} / {b:?}"),
            }
        }
        // A UTF-8 file's buffer becomes its text: the same allocation, not a copy.
        let bytes = b"def f():\n    return 1\n".to_vec();
        let at = bytes.as_ptr();
        let (text, _) = decode_owned("f.py", bytes, None).unwrap();
        assert_eq!(text.as_ptr(), at);
    }

    #[test]
    fn an_unencodable_character_is_named_with_its_line() {
        let latin1 = FileEncoding::from_label("latin1").unwrap();
        let u = encode("a\nb \u{65e5}\n", latin1).unwrap_err();
        assert_eq!(
            u,
            Unencodable {
                ch: '\u{65e5}',
                offset: 4
            }
        );
        let e = unencodable("a.txt", "a\nb \u{65e5}\n", latin1, u);
        assert!(e.message.contains("U+65E5") && e.message.contains("line 2"));
    }
}
