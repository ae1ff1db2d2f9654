//! What a call read, remembered as its length and a 128-bit hash instead of its bytes.
//!
//! The commit's compare and swap (`commit.rs`) checks that a target still holds what
//! the engine read. Keeping the bytes for that held a second copy of every file the call
//! read (the engine decodes its own) and compared the whole file twice; a [`Digest`] is
//! 24 bytes, lets the engine take the read buffer itself, and is checked by reading the
//! file once more a block at a time ([`Digest::of_reader`]).
//!
//! Design decisions and invariants:
//! - **Equal lengths and equal 128-bit hashes count as equal bytes.** The hash guards
//!   against saves made by people and tools, not against an adversary who can write the
//!   file (who could write it after the check anyway): two lanes, each folding every
//!   16 bytes into its 64-bit state with a 64×64→128-bit multiply (the folded
//!   multiply of wyhash and similar hashes, written anew), so a file changed to other
//!   bytes of the same length passes unnoticed with a chance of about 2⁻¹²⁸, where a
//!   byte-by-byte comparison had none.
//! - **Independent of how the bytes arrive.** A [`Hasher`] carries a partial 16-byte
//!   word between [`Hasher::update`] calls, so one whole buffer and the same bytes read
//!   in blocks of any size give one digest.
//! - **No state is lost on a fixed input.** A folded multiply forgets its state when a
//!   factor is zero. Each factor here is the state xor a word, or a word xor a key whose
//!   bytes never occur in UTF-8 text; a lane forgets only on a 2⁻⁶⁴ coincidence with its
//!   state, and both lanes at once only on one 16-byte value made of those bytes.
//! - Fast enough not to matter: ~10 GB/s on this machine's core, below the cost of
//!   reading the file from the page cache.

use std::io::{self, Read};

/// Keys of the two lanes: bytes 0xC0, 0xC1 and 0xF5-0xFF never occur in UTF-8.
const KEY_A: u64 = 0xC1F7_C0FB_F5FD_C1F9;
const KEY_B: u64 = 0xF9C0_FEF6_C1FA_F8C0;

/// The length and hash of a run of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digest {
    pub len: u64,
    pub hash: u128,
}

impl Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest {
        let mut h = Hasher::default();
        h.update(bytes);
        h.finish()
    }

    /// The digest of everything `reader` yields, read a block at a time (a whole second
    /// copy of a large file would raise the process's peak memory by its size).
    pub fn of_reader(reader: &mut impl Read) -> io::Result<Digest> {
        Self::copy(reader, &mut io::sink())
    }

    /// The digest of everything `reader` yields, each block also written to `out`.
    pub fn copy(reader: &mut impl Read, out: &mut impl io::Write) -> io::Result<Digest> {
        let mut block = vec![0u8; 1 << 16];
        let mut h = Hasher::default();
        loop {
            let n = match reader.read(&mut block) {
                Ok(0) => return Ok(h.finish()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            h.update(&block[..n]);
            out.write_all(&block[..n])?;
        }
    }
}

/// A [`Digest`] under way.
#[derive(Clone, Debug)]
pub struct Hasher {
    a: u64,
    b: u64,
    len: u64,
    /// Bytes of an unfinished 16-byte word, `pending` of them.
    tail: [u8; 16],
    pending: usize,
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher {
            a: 0x243F_6A88_85A3_08D3,
            b: 0x1319_8A2E_0370_7344,
            len: 0,
            tail: [0; 16],
            pending: 0,
        }
    }
}

/// The 128-bit product of `x` and `y`, its halves folded into 64 bits.
#[inline]
fn fold(x: u64, y: u64) -> u64 {
    let p = u128::from(x) * u128::from(y);
    (p as u64) ^ ((p >> 64) as u64)
}

impl Hasher {
    #[inline]
    fn word(&mut self, w: &[u8]) {
        let lo = u64::from_le_bytes(w[..8].try_into().expect("16-byte word"));
        let hi = u64::from_le_bytes(w[8..16].try_into().expect("16-byte word"));
        self.a = fold(self.a ^ lo, hi ^ KEY_A);
        self.b = fold(self.b ^ hi, lo ^ KEY_B);
    }

    /// Adds `bytes` after those added before.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.pending > 0 {
            let take = (16 - self.pending).min(bytes.len());
            self.tail[self.pending..self.pending + take].copy_from_slice(&bytes[..take]);
            self.pending += take;
            bytes = &bytes[take..];
            if self.pending < 16 {
                return;
            }
            let tail = self.tail;
            self.word(&tail);
            self.pending = 0;
        }
        let mut words = bytes.chunks_exact(16);
        for w in &mut words {
            self.word(w);
        }
        let rest = words.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.pending = rest.len();
    }

    /// The digest of every byte added.
    pub fn finish(mut self) -> Digest {
        // The last partial word, zero-padded; the length tells `x` from `x\0`.
        if self.pending > 0 {
            let mut last = [0u8; 16];
            last[..self.pending].copy_from_slice(&self.tail[..self.pending]);
            self.word(&last);
        }
        let a = fold(self.a ^ self.len, KEY_B);
        let b = fold(self.b ^ self.len.rotate_left(32), KEY_A);
        Digest {
            len: self.len,
            hash: u128::from(fold(a, b ^ KEY_A)) << 64 | u128::from(fold(b, a ^ KEY_B)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: usize) -> Vec<u8> {
        (0..n as u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect()
    }

    #[test]
    fn blocks_of_any_size_give_the_digest_of_the_whole() {
        let bytes = sample(200_003);
        let whole = Digest::of(&bytes);
        for block in [1, 7, 15, 16, 17, 4096, 65_536, 200_003] {
            let mut h = Hasher::default();
            for chunk in bytes.chunks(block) {
                h.update(chunk);
            }
            assert_eq!(h.finish(), whole, "blocks of {block}");
        }
        assert_eq!(Digest::of_reader(&mut &bytes[..]).unwrap(), whole);
        let mut copied = Vec::new();
        assert_eq!(Digest::copy(&mut &bytes[..], &mut copied).unwrap(), whole);
        assert_eq!(copied, bytes);
    }

    #[test]
    fn any_change_of_a_byte_or_the_length_changes_the_digest() {
        let bytes = sample(100_000);
        let whole = Digest::of(&bytes);
        let mut seen = std::collections::HashSet::new();
        let mut places: Vec<usize> = (0..bytes.len()).step_by(997).collect();
        places.extend([15, 16, 99_999]);
        for &at in &places {
            for flip in [1u8, 0x80, 0xff] {
                let mut changed = bytes.clone();
                changed[at] ^= flip;
                let d = Digest::of(&changed);
                assert_ne!(d.hash, whole.hash, "byte {at} ^ {flip:#x}");
                seen.insert(d.hash);
            }
        }
        // Two blocks swapped, a zero appended, the same text shifted by a byte.
        let mut swapped = bytes.clone();
        swapped[..16].copy_from_slice(&bytes[16..32]);
        swapped[16..32].copy_from_slice(&bytes[..16]);
        let mut longer = bytes.clone();
        longer.push(0);
        let cases = [swapped, longer, bytes[1..].to_vec(), Vec::new()];
        for c in &cases {
            assert_ne!(Digest::of(c).hash, whole.hash);
            seen.insert(Digest::of(c).hash);
        }
        assert_eq!(Digest::of(b"").len, 0);
        assert_ne!(Digest::of(b"a").hash, Digest::of(b"a\0").hash);
        // No two of the changed texts collide with each other either.
        assert_eq!(seen.len(), places.len() * 3 + cases.len());
    }
}
