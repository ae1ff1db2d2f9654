//! Where the lexer stops in code: the next byte that can start or end something.
//!
//! Between two such bytes (brackets, quotes, comment starters, line breaks when line
//! states are recorded, …: a set per language, at most 17 bytes) nothing changes the
//! lexer's state, so the loop jumps from one to the next. Checking a table byte by byte
//! costs about 4 cycles a byte (a loop exit mispredicted per stop); on x86_64 (SSE2,
//! part of every x86_64 target) and on wasm with simd128 a 64-byte window is instead
//! compared against every byte of the set at once into a bit mask, kept while the lexer
//! moves inside the window, so a stop costs a `trailing_zeros`. Elsewhere, and within
//! 64 bytes of the end, the table is read. Both give the same stops (tested).

/// The stop bytes of one language.
#[derive(Clone, Debug)]
pub(super) struct Stops {
    table: [bool; 256],
    bytes: Vec<u8>,
    /// Use the vector masks where the target has them (false: the table only).
    vector: bool,
}

/// A 64-byte window's mask: bit `k` set when `src[at + k]` is a stop.
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    at: usize,
    mask: u64,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            at: usize::MAX,
            mask: 0,
        }
    }
}

impl Stops {
    pub(super) fn new(table: [bool; 256], vector: bool) -> Stops {
        let bytes = (0..=255u8).filter(|&b| table[b as usize]).collect();
        Stops {
            table,
            bytes,
            vector: vector && simd::AVAILABLE,
        }
    }

    /// The first stop at or after `i` in `src`, if any. `w` carries the last window
    /// between calls (the caller passes the same `src` each time).
    #[inline]
    pub(super) fn next(&self, src: &[u8], mut i: usize, w: &mut Window) -> Option<usize> {
        if !self.vector {
            return self.next_plain(src, i);
        }
        loop {
            if i >= w.at && i - w.at < 64 {
                let m = w.mask >> (i - w.at);
                if m != 0 {
                    return Some(i + m.trailing_zeros() as usize);
                }
                i = w.at + 64;
            }
            if i + 64 > src.len() {
                return self.next_plain(src, i);
            }
            w.at = i;
            w.mask = simd::mask64(&src[i..i + 64], &self.bytes);
        }
    }

    /// The same, byte by byte.
    pub(super) fn next_plain(&self, src: &[u8], i: usize) -> Option<usize> {
        let rest = src.get(i..)?;
        rest.iter()
            .position(|&c| self.table[c as usize])
            .map(|k| i + k)
    }
}

/// 64-byte masks of "any of these bytes" from 16-byte vector compares.
mod simd {
    /// Whether [`mask64`] is vectorised on this target.
    pub const AVAILABLE: bool = cfg!(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ));

    /// Bit `k` set where `chunk[k]` is one of `set`; `chunk` holds 64 bytes.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub fn mask64(chunk: &[u8], set: &[u8]) -> u64 {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8, _mm_setzero_si128,
        };
        assert!(chunk.len() >= 64);
        let p = chunk.as_ptr().cast::<__m128i>();
        // SAFETY: SSE2 is part of every x86_64 target; the four unaligned 16-byte loads
        // read chunk[0..64], in bounds by the assert above.
        unsafe {
            let v = [
                _mm_loadu_si128(p),
                _mm_loadu_si128(p.add(1)),
                _mm_loadu_si128(p.add(2)),
                _mm_loadu_si128(p.add(3)),
            ];
            let mut hit = [_mm_setzero_si128(); 4];
            for &b in set {
                let needle = _mm_set1_epi8(b as i8);
                for k in 0..4 {
                    hit[k] = _mm_or_si128(hit[k], _mm_cmpeq_epi8(v[k], needle));
                }
            }
            let mut m = 0u64;
            for (k, h) in hit.iter().enumerate() {
                m |= u64::from(_mm_movemask_epi8(*h) as u16) << (16 * k);
            }
            m
        }
    }

    /// Bit `k` set where `chunk[k]` is one of `set`; `chunk` holds 64 bytes.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline]
    pub fn mask64(chunk: &[u8], set: &[u8]) -> u64 {
        use std::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128, v128_load, v128_or};
        assert!(chunk.len() >= 64);
        let p = chunk.as_ptr().cast::<v128>();
        let mut m = 0u64;
        for k in 0..4 {
            // SAFETY: an unaligned 16-byte load of chunk[16k..16k+16], in bounds by the
            // assert above (wasm loads have no alignment requirement).
            let v = unsafe { v128_load(p.add(k)) };
            let mut hit = u8x16_splat(0);
            for &b in set {
                hit = v128_or(hit, u8x16_eq(v, u8x16_splat(b)));
            }
            m |= u64::from(u8x16_bitmask(hit)) << (16 * k);
        }
        m
    }

    /// Not vectorised here: [`AVAILABLE`] is false and this is never called.
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    pub fn mask64(chunk: &[u8], set: &[u8]) -> u64 {
        (0..64).fold(0, |m, i| m | u64::from(set.contains(&chunk[i])) << i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The vector path stops where the byte-by-byte reading stops, from any
        /// sequence of starting points (forwards, backwards, inside a window).
        #[test]
        fn vector_stops_are_the_plain_stops(
            src in proptest::collection::vec(prop_oneof![Just(b'{'), Just(b'\n'), Just(b'"'), Just(b' '), Just(b'a'), any::<u8>()], 0..400),
            set in proptest::collection::vec(any::<u8>(), 0..18),
            starts in proptest::collection::vec(0usize..420, 1..40),
        ) {
            let mut table = [false; 256];
            for b in set {
                table[b as usize] = true;
            }
            let stops = Stops::new(table, true);
            let mut w = Window::default();
            for i in starts {
                prop_assert_eq!(stops.next(&src, i, &mut w), stops.next_plain(&src, i), "from {}", i);
            }
        }

        /// A whole lex with the vector stops and the `memchr` jumps through strings
        /// equals one reading byte by byte, in every language, with and without line
        /// states recorded.
        #[test]
        fn lexing_with_vector_stops_is_lexing_byte_by_byte(
            pieces in proptest::collection::vec(0usize..PIECES.len(), 0..300),
            lang in 0usize..LANGS.len(),
            traced in any::<bool>(),
        ) {
            let src: String = pieces.iter().map(|&k| PIECES[k]).collect();
            let syn = crate::blocks::Lang::from_path(LANGS[lang]).unwrap().syntax();
            let run = |vector: bool| {
                let tracer = traced.then(super::super::trace::Tracer::for_test);
                let mut lx = super::super::Lexer::new(src.as_bytes(), &syn, tracer, None);
                lx.stops = Stops::new(super::super::interesting_table(&syn, traced), vector);
                lx.fast = vector;
                lx.run();
                (lx.code, lx.events, lx.issues, lx.multiline)
            };
            prop_assert_eq!(run(true), run(false), "{}: {:?}", LANGS[lang], src);
        }
    }

    const LANGS: &[&str] = &[
        "a.rs", "a.js", "a.tsx", "a.py", "a.go", "a.c", "a.cs", "a.kt", "a.swift", "a.php",
        "a.css", "a.json", "a.yaml", "a.java",
    ];

    /// Pieces of code in many languages, long runs without stops among them.
    const PIECES: &[&str] = &[
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        ",",
        "\"",
        "'",
        "`",
        "/",
        "*",
        "#",
        "<",
        ">",
        "?",
        "|",
        "$",
        "@",
        "\\",
        "\n",
        " ",
        "    ",
        "x",
        "r#\"",
        "\"#",
        "${",
        "<?php ",
        "?>",
        "'''",
        "\"\"\"",
        "//",
        "/*",
        "*/",
        "<p>",
        "</p>",
        "return ",
        "= /re/g",
        "an_identifier_long_enough_to_fill_a_window_of_sixty_four_bytes_and_more ",
        "                                                                  ",
    ];
}
