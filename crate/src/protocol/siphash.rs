//! SipHash-2-4 (Aumasson and Bernstein), written anew from the paper: the keyed hash
//! that authenticates a journal. Two runs with the key's halves swapped give 128 bits.

/// The 128-bit tag of `bytes` under `key`.
pub fn mac(key: &[u8; 16], bytes: &[u8]) -> [u8; 16] {
    let k0 = u64::from_le_bytes(key[..8].try_into().unwrap_or_default());
    let k1 = u64::from_le_bytes(key[8..].try_into().unwrap_or_default());
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&sip24(k0, k1, bytes).to_le_bytes());
    out[8..].copy_from_slice(&sip24(k1 ^ 0xee, k0, bytes).to_le_bytes());
    out
}

fn round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

/// SipHash-2-4 of `bytes` under the key (`k0`, `k1`).
pub(super) fn sip24(k0: u64, k1: u64, bytes: &[u8]) -> u64 {
    let mut v = [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ];
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let m = u64::from_le_bytes(w.try_into().unwrap_or_default());
        v[3] ^= m;
        round(&mut v);
        round(&mut v);
        v[0] ^= m;
    }
    let mut last = (bytes.len() as u64 & 0xff) << 56;
    for (i, b) in words.remainder().iter().enumerate() {
        last |= u64::from(*b) << (8 * i);
    }
    v[3] ^= last;
    round(&mut v);
    round(&mut v);
    v[0] ^= last;
    v[2] ^= 0xff;
    for _ in 0..4 {
        round(&mut v);
    }
    v[0] ^ v[1] ^ v[2] ^ v[3]
}
