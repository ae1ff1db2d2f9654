//! Byte scans over whole texts: newline positions and counts, common prefixes and
//! suffixes. Every call of an editing tool runs a few of these over the full file, so
//! they decide how a 4 MB edit performs.
//!
//! Natively `memchr` (SIMD) and `memcmp` are as fast as it gets. On wasm32 neither has
//! SIMD (the module is built without it so that it loads everywhere): `memchr` falls
//! back to 32-bit words and `memcmp` to a byte loop. There these functions read 64-bit
//! words instead (wasm has native 64-bit integers), which is several times faster.
//! Both paths are tested against each other natively.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// A mask with the high bit set in every byte of `word` that equals `byte`.
#[inline]
fn matches(word: u64, byte: u8) -> u64 {
    let x = word ^ (LO * u64::from(byte));
    // A byte of `x` is zero exactly when its high bit ends up clear here; no carry
    // crosses bytes because (b & 0x7f) + 0x7f ≤ 0xfe.
    !(((x & !HI) + !HI) | x) & HI
}

/// The first 8 bytes of `chunk` as a little-endian word. Spelled out byte by byte:
/// `copy_from_slice` into an array is not inlined on wasm32 and costs a call per word.
#[inline(always)]
pub(crate) fn word(chunk: &[u8]) -> u64 {
    u64::from_le_bytes([
        chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
    ])
}

/// How many times `byte` occurs in `hay`.
pub fn count_byte(hay: &[u8], byte: u8) -> usize {
    if cfg!(target_arch = "wasm32") {
        count_byte_words(hay, byte)
    } else {
        memchr::memchr_iter(byte, hay).count()
    }
}

fn count_byte_words(hay: &[u8], byte: u8) -> usize {
    let mut chunks = hay.chunks_exact(8);
    let mut n = 0;
    for c in &mut chunks {
        n += matches(word(c), byte).count_ones() as usize;
    }
    n + chunks.remainder().iter().filter(|&&b| b == byte).count()
}

/// Calls `f` with the offset of every `byte` in `hay`, in order.
pub fn for_each_byte(hay: &[u8], byte: u8, f: impl FnMut(usize)) {
    if cfg!(target_arch = "wasm32") {
        for_each_byte_words(hay, byte, f);
    } else {
        memchr::memchr_iter(byte, hay).for_each(f);
    }
}

fn for_each_byte_words(hay: &[u8], byte: u8, mut f: impl FnMut(usize)) {
    let mut chunks = hay.chunks_exact(8);
    let mut base = 0;
    for c in &mut chunks {
        let mut m = matches(word(c), byte);
        while m != 0 {
            f(base + (m.trailing_zeros() / 8) as usize);
            m &= m - 1;
        }
        base += 8;
    }
    for (i, &b) in chunks.remainder().iter().enumerate() {
        if b == byte {
            f(base + i);
        }
    }
}

const CHUNK: usize = 128;

/// Length of the longest common prefix of `a` and `b`.
pub fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = if cfg!(target_arch = "wasm32") {
        equal_words_from_start(a, b)
    } else {
        let mut i = 0;
        while i + CHUNK <= n && a[i..i + CHUNK] == b[i..i + CHUNK] {
            i += CHUNK;
        }
        i
    };
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Length of the longest common suffix of `a` and `b`.
pub fn common_suffix_len(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (la, lb) = (a.len(), b.len());
    let mut i = if cfg!(target_arch = "wasm32") {
        equal_words_from_end(a, b)
    } else {
        let mut i = 0;
        while i + CHUNK <= n && a[la - i - CHUNK..la - i] == b[lb - i - CHUNK..lb - i] {
            i += CHUNK;
        }
        i
    };
    while i < n && a[la - 1 - i] == b[lb - 1 - i] {
        i += 1;
    }
    i
}

/// Bytes in whole equal 64-bit words at the start of both.
fn equal_words_from_start(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && word(&a[i..]) == word(&b[i..]) {
        i += 8;
    }
    i
}

/// Bytes in whole equal 64-bit words at the end of both.
fn equal_words_from_end(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + 8 <= n && word(&a[la - i - 8..]) == word(&b[lb - i - 8..]) {
        i += 8;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts() -> Vec<Vec<u8>> {
        let mut seed: u64 = 7;
        let mut out = vec![Vec::new(), b"\n".to_vec(), b"abc".to_vec()];
        for len in [1usize, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let mut v = Vec::with_capacity(len);
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                v.push(b"ab\n\r\x80\xff\x0a\x8a"[(seed % 8) as usize]);
            }
            out.push(v);
        }
        out
    }

    #[test]
    fn word_scans_agree_with_plain_ones() {
        for t in texts() {
            for byte in [b'\n', b'a', 0x8a, 0xff, 0x00] {
                let plain: Vec<usize> = t
                    .iter()
                    .enumerate()
                    .filter(|(_, &b)| b == byte)
                    .map(|(i, _)| i)
                    .collect();
                assert_eq!(count_byte_words(&t, byte), plain.len());
                assert_eq!(count_byte(&t, byte), plain.len());
                let mut seen = Vec::new();
                for_each_byte(&t, byte, |i| seen.push(i));
                assert_eq!(seen, plain);
                let mut words = Vec::new();
                for_each_byte_words(&t, byte, |i| words.push(i));
                assert_eq!(words, plain);
            }
        }
    }

    #[test]
    fn common_ends() {
        let a = b"0123456789abcdefghij-tail-0123456789";
        let b = b"0123456789abcdefghiJ-tail-0123456789";
        assert_eq!(common_prefix_len(a, b), 19);
        assert_eq!(common_suffix_len(a, b), a.len() - 20);
        assert_eq!(common_prefix_len(a, a), a.len());
        assert_eq!(common_suffix_len(b"", a), 0);
        let long_a = [b'x'; 300];
        let mut long_b = long_a;
        long_b[150] = b'y';
        assert_eq!(common_prefix_len(&long_a, &long_b), 150);
        assert_eq!(common_suffix_len(&long_a, &long_b), 149);
        for (x, y) in [(&a[..], &b[..]), (&long_a[..], &long_b[..])] {
            let p = equal_words_from_start(x, y);
            assert!(
                p.is_multiple_of(8)
                    && p <= common_prefix_len(x, y)
                    && common_prefix_len(x, y) - p < 8
            );
            let q = equal_words_from_end(x, y);
            assert!(
                q.is_multiple_of(8)
                    && q <= common_suffix_len(x, y)
                    && common_suffix_len(x, y) - q < 8
            );
        }
    }
}
