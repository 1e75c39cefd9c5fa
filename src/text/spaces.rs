//! Finding spaces in short byte strings (tag names, the words of a comment): eight bytes at a
//! time in a `u64`, which is quicker than a vector search, which must be set up first, and than
//! a byte at a time.

/// Where the first space of `bytes` is.
pub fn first_space(bytes: &[u8]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let spaces = space_bits(chunk);
        if spaces != 0 {
            return Some(offset + spaces.trailing_zeros() as usize / 8);
        }
        offset += 8;
    }
    chunks.remainder().iter().position(|&b| b == b' ').map(|i| offset + i)
}

/// Where the last space of `bytes` is.
pub fn last_space(bytes: &[u8]) -> Option<usize> {
    let mut chunks = bytes.rchunks_exact(8);
    let mut end = bytes.len();
    for chunk in &mut chunks {
        let spaces = space_bits(chunk);
        if spaces != 0 {
            return Some(end - 8 + (63 - spaces.leading_zeros() as usize) / 8);
        }
        end -= 8;
    }
    // The bytes left over are the first ones.
    chunks.remainder().iter().rposition(|&b| b == b' ')
}

/// The spaces among eight bytes, as the high bit of their bytes in a little-endian `u64` (the
/// first byte lowest).
fn space_bits(chunk: &[u8]) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
    // Spaces become zero bytes; a byte is zero when neither its high bit nor, added to 0x7f,
    // its low seven bits set the high bit (which carries into no other byte).
    let x = word ^ 0x2020_2020_2020_2020;
    !(((x & LOW7) + LOW7) | x | LOW7)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Bytes near a space's bits, where a word-at-a-time search could go wrong, and any byte.
    fn space_search_byte() -> impl Strategy<Value = u8> {
        prop_oneof![Just(b' '), Just(b'!'), Just(0), Just(0xa0), Just(0x1f), any::<u8>()]
    }

    proptest! {
        #[test]
        fn space_searches_agree_with_a_byte_at_a_time(
            bytes in prop::collection::vec(space_search_byte(), 0..40),
        ) {
            prop_assert_eq!(first_space(&bytes), bytes.iter().position(|&b| b == b' '));
            prop_assert_eq!(last_space(&bytes), bytes.iter().rposition(|&b| b == b' '));
        }
    }
}
