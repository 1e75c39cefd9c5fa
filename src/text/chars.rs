//! Counting characters in long ASCII text quickly.

/// The number of characters in `text`; its length when it is ASCII.
///
/// std's `is_ascii` checks whole blocks of 64 bytes and then what is left a byte at a time, in a
/// loop whose exit the processor mispredicts: on the long lines of engine logs that tail cost
/// several times the blocks. Here what is left is checked as one more block, the last 64 bytes,
/// which overlaps the one before it (text shorter than a block is checked by `is_ascii` alone).
pub fn char_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    let ascii = match bytes.len() {
        0..BLOCK => bytes.is_ascii(),
        len => bytes[..len - len % BLOCK].is_ascii() && bytes[len - BLOCK..].is_ascii(),
    };
    if ascii { bytes.len() } else { text.chars().count() }
}

/// The block std's `is_ascii` checks at a time.
const BLOCK: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_ascii_anywhere_is_counted_by_characters() {
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 300] {
            let ascii = "x".repeat(len);
            assert_eq!(char_count(&ascii), len);
            for at in [0, len / 2, len.saturating_sub(1), len] {
                let mut text = ascii.clone();
                text.insert(at, 'é');
                assert_eq!(char_count(&text), len + 1, "{len} {at}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn counts_as_chars_does(text in "[a-z ]{0,200}[é♘𝄞]?[a-z ]{0,200}") {
            proptest::prop_assert_eq!(char_count(&text), text.chars().count());
        }
    }
}
