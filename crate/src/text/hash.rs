//! A fast hasher for the engine's in-memory maps keyed by lines, words and line hashes.
//!
//! The standard `HashMap` hashes with SipHash, which resists collision attacks at ~1
//! cycle a byte plus a fixed cost per key. The engine's maps are built per call from one
//! file and one request and are looked up once per line of the file, so SipHash was a
//! sixth of a diagnosed miss on 100 000 lines. Here a key is folded a word (8 bytes) at
//! a time with a multiply (the scheme of Firefox's FxHash, written anew). A crafted file
//! can at worst make one call's map slower, never wrong: maps compare keys in full.
//!
//! Also here, the [core hash](core_hash) of a line: a hash of the bytes that no key of
//! the matching cascade changes (`locate::fold` states why that is sound). A [`Text`]
//! computes its lines' core hashes once ([`Text::line_hashes`]) for every search and
//! diagnosis of a call.
//!
//! [`Text`]: super::Text
//! [`Text::line_hashes`]: super::Text::line_hashes

use std::hash::{BuildHasherDefault, Hasher};

/// `BuildHasher` for `HashMap::with_hasher` / `HashMap<K, V, FastHash>`.
pub type FastHash = BuildHasherDefault<FastHasher>;

/// The hasher of [`FastHash`].
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(super::scan::word(w));
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let word = tail
                .iter()
                .rev()
                .fold(0u64, |acc, &b| acc << 8 | u64::from(b));
            self.add(word);
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
}

/// Bytes no key of the cascade (`locate::fold`) changes: ASCII graphic characters except backslashes, quotes, `-` and
/// `.` (which escaping and typography fold).
const fn is_core(b: u8) -> bool {
    b.is_ascii_graphic() && !matches!(b, b'\\' | b'"' | b'\'' | b'`' | b'-' | b'.')
}

/// A hash of the bytes of `line` that no key changes. Lines equal under any key have
/// equal core hashes, so comparing these first never loses a match (a collision only
/// adds a window to verify).
///
/// Every line of a file is hashed once per tolerant search, so this is the cascade's
/// hottest loop. It runs in two passes without a dependency chain through each byte: the
/// core bytes are copied into `scratch` (a store and an add per byte), then hashed a
/// word at a time (a multiply per byte, chained, was ~4 cycles a byte: most of a 3.5 MB
/// file's search).
pub fn core_hash_in(line: &str, scratch: &mut Vec<u8>) -> u64 {
    const SEED: u64 = 0xcbf2_9ce4_8422_2325;
    let mix = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(K);
    let bytes = line.as_bytes();
    if scratch.len() < bytes.len() {
        scratch.resize(bytes.len(), 0);
    }
    let mut n = 0;
    for &b in bytes {
        scratch[n] = b;
        n += usize::from(CORE[usize::from(b)]);
    }
    let mut words = scratch[..n].chunks_exact(8);
    let mut h = SEED;
    for w in &mut words {
        h = mix(h, super::scan::word(w));
    }
    let tail = words
        .remainder()
        .iter()
        .rev()
        .fold(0u64, |acc, &b| acc << 8 | u64::from(b));
    mix(mix(h, tail), n as u64)
}

/// The first and last of `line`'s core bytes (0 when it has none): lines with equal
/// core hashes have equal ends (barring a collision), and finding the ends reads only a
/// line's indentation and trailing whitespace, so comparing them first skips hashing
/// the lines that cannot match.
pub fn core_ends(line: &str) -> u16 {
    core_ends_of(line.as_bytes())
}

/// [`core_ends`] of a line's bytes; its terminator and a BOM may be included (they
/// are not core bytes).
///
/// Run on every line of a file before a tolerant search, so the usual line is read in
/// a few steps: its indentation of spaces skipped 8 bytes at a time, and its last byte
/// before the terminator tried first; the byte-by-byte search is the fallback.
pub fn core_ends_of(bytes: &[u8]) -> u16 {
    let core = |b: u8| CORE[usize::from(b)];
    let from = leading_spaces(bytes);
    let first = match bytes.get(from) {
        Some(&b) if core(b) => from,
        _ => match bytes[from.min(bytes.len())..].iter().position(|&b| core(b)) {
            Some(i) => from + i,
            None => return 0,
        },
    };
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    let last = match body.last() {
        Some(&b) if core(b) => body.len() - 1,
        _ => body.iter().rposition(|&b| core(b)).unwrap_or(first),
    };
    u16::from(bytes[first]) << 8 | u16::from(bytes[last])
}

/// How many spaces `bytes` starts with.
fn leading_spaces(bytes: &[u8]) -> usize {
    let mut i = 0;
    while i + 8 <= bytes.len() {
        let other = super::scan::word(&bytes[i..]) ^ 0x2020_2020_2020_2020;
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + bytes[i..].iter().take_while(|&&b| b == b' ').count()
}

/// [`core_hash_in`] with a scratch buffer of its own.
pub fn core_hash(line: &str) -> u64 {
    core_hash_in(line, &mut Vec::new())
}

/// [`is_core`] of every byte.
static CORE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = is_core(b as u8);
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// The definition, read byte by byte.
    fn plain_core_ends(bytes: &[u8]) -> u16 {
        let Some(first) = bytes.iter().position(|&b| is_core(b)) else {
            return 0;
        };
        let last = bytes.iter().rposition(|&b| is_core(b)).unwrap_or(first);
        u16::from(bytes[first]) << 8 | u16::from(bytes[last])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn core_ends_read_fast_as_the_definition_reads_them(line in "[ \t\r\n.'a-c(;]{0,24}") {
            prop_assert_eq!(core_ends_of(line.as_bytes()), plain_core_ends(line.as_bytes()), "{:?}", line);
        }
    }

    #[test]
    fn maps_keyed_by_lines_find_every_key() {
        let lines: Vec<String> = (0..1000).map(|i| format!("line {i}")).collect();
        let mut map: HashMap<&str, usize, FastHash> = HashMap::default();
        for (i, l) in lines.iter().enumerate() {
            map.insert(l, i);
        }
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(map.get(l.as_str()), Some(&i));
        }
        assert_eq!(map.get("line 1000"), None);
    }
}
