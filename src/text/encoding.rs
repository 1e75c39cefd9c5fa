//! Byte order marks and UTF-16: which encoding a file's first bytes announce, and UTF-16 text
//! decoded (a piece at a time if need be) and encoded, in either byte order.

/// The UTF-8 encoding of U+FEFF, the byte order mark: the first bytes of a UTF-8 file that has
/// one.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// UTF-16, in one of its byte orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf16 {
    LittleEndian,
    BigEndian,
}

impl Utf16 {
    /// The UTF-16 whose byte order mark `bytes` start with, if they start with one.
    pub fn from_bom(bytes: &[u8]) -> Option<Utf16> {
        match bytes {
            [0xFF, 0xFE, ..] => Some(Utf16::LittleEndian),
            [0xFE, 0xFF, ..] => Some(Utf16::BigEndian),
            _ => None,
        }
    }

    /// The byte order, as messages name it.
    pub fn byte_order(self) -> &'static str {
        match self {
            Utf16::LittleEndian => "little-endian",
            Utf16::BigEndian => "big-endian",
        }
    }

    fn unit(self, bytes: [u8; 2]) -> u16 {
        match self {
            Utf16::LittleEndian => u16::from_le_bytes(bytes),
            Utf16::BigEndian => u16::from_be_bytes(bytes),
        }
    }

    /// The characters of `bytes` (a byte order mark among them as U+FEFF) appended to `out`; a
    /// unit that is no character, a surrogate without its pair or a last byte without its
    /// pair, as U+FFFD. Unless `at_end`, a unit cut off at the end and a first surrogate that
    /// ends the bytes are left for what follows. Returns how many bytes were decoded, and
    /// where in `out` the first U+FFFD for a unit that is no character went.
    pub fn decode(self, bytes: &[u8], at_end: bool, out: &mut String) -> (usize, Option<usize>) {
        let mut used = bytes.len() & !1;
        let unit_at = |at: usize| self.unit([bytes[at], bytes[at + 1]]);
        if !at_end && used >= 2 && (0xD800..0xDC00).contains(&unit_at(used - 2)) {
            used -= 2;
        }
        out.reserve(used / 2);
        let mut first_invalid = None;
        let units = (0..used).step_by(2).map(unit_at);
        for decoded in char::decode_utf16(units) {
            let c = decoded.unwrap_or_else(|_| {
                first_invalid.get_or_insert(out.len());
                char::REPLACEMENT_CHARACTER
            });
            out.push(c);
        }
        if at_end && used < bytes.len() {
            first_invalid.get_or_insert(out.len());
            out.push(char::REPLACEMENT_CHARACTER);
            used = bytes.len();
        }
        (used, first_invalid)
    }

    /// `text` in this UTF-16 (a U+FEFF at its start is the byte order mark).
    pub fn encode(self, text: &str) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|unit| match self {
                Utf16::LittleEndian => unit.to_le_bytes(),
                Utf16::BigEndian => unit.to_be_bytes(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORDERS: [Utf16; 2] = [Utf16::LittleEndian, Utf16::BigEndian];

    #[test]
    fn the_byte_order_mark_tells_the_byte_order() {
        assert_eq!(Utf16::from_bom(b"\xFF\xFE1\0"), Some(Utf16::LittleEndian));
        assert_eq!(Utf16::from_bom(b"\xFE\xFF\x001"), Some(Utf16::BigEndian));
        assert_eq!(Utf16::from_bom(b"\xFF"), None);
        assert_eq!(Utf16::from_bom(b"\xEF\xBB\xBF1."), None);
        assert_eq!(Utf16::from_bom(b"1. e4"), None);
    }

    #[test]
    fn text_is_encoded_and_decoded_in_either_byte_order() {
        let text = "\u{FEFF}[White \"Müller\"] {♘ 𝄞}\r\n";
        for order in ORDERS {
            let bytes = order.encode(text);
            assert_eq!(bytes.len(), text.encode_utf16().count() * 2);
            assert_eq!(Utf16::from_bom(&bytes), Some(order));
            let mut decoded = String::new();
            assert_eq!(order.decode(&bytes, true, &mut decoded), (bytes.len(), None));
            assert_eq!(decoded, text);
        }
        assert_eq!(Utf16::LittleEndian.encode("1."), b"1\0.\0");
        assert_eq!(Utf16::BigEndian.encode("1."), b"\x001\0.");
    }

    #[test]
    fn units_that_are_no_character_are_replaced() {
        // "a", a second surrogate alone, "b", a first surrogate before "c", then one byte.
        let bytes = b"a\0\x00\xDCb\0\x3D\xD8c\0d";
        let mut text = String::from("x");
        let (used, first_invalid) = Utf16::LittleEndian.decode(bytes, true, &mut text);
        assert_eq!((used, first_invalid), (bytes.len(), Some(2)));
        assert_eq!(text, "xa\u{FFFD}b\u{FFFD}c\u{FFFD}");
    }

    #[test]
    fn a_unit_or_a_pair_cut_off_waits_for_the_next_bytes() {
        let bytes = Utf16::BigEndian.encode("e4 𝄞");
        // Cut inside the first surrogate, after it, inside the second.
        for cut in [7, 8, 9] {
            let mut text = String::new();
            let (used, first_invalid) = Utf16::BigEndian.decode(&bytes[..cut], false, &mut text);
            assert_eq!((used, first_invalid, text.as_str()), (6, None, "e4 "), "{cut}");
            let (rest, first_invalid) = Utf16::BigEndian.decode(&bytes[used..], true, &mut text);
            assert_eq!((rest, first_invalid, text.as_str()), (bytes.len() - 6, None, "e4 𝄞"));
        }
    }

    proptest::proptest! {
        /// However the bytes are cut, decoded piece by piece they give the text decoded at once.
        #[test]
        fn pieces_decode_as_the_whole(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64), cuts in proptest::collection::vec(0..64usize, 0..6)) {
            for order in ORDERS {
                let mut whole = String::new();
                let (_, whole_invalid) = order.decode(&bytes, true, &mut whole);
                let (mut pieces, mut pending, mut first_invalid) = (String::new(), Vec::new(), None);
                let mut cuts: Vec<usize> = cuts.iter().map(|&c| c.min(bytes.len())).collect();
                cuts.sort_unstable();
                let mut from = 0;
                for end in cuts.into_iter().chain([bytes.len()]) {
                    pending.extend_from_slice(&bytes[from..end]);
                    from = end;
                    let (used, invalid) = order.decode(&pending, false, &mut pieces);
                    first_invalid = first_invalid.or(invalid);
                    pending.drain(..used);
                }
                let (used, invalid) = order.decode(&pending, true, &mut pieces);
                first_invalid = first_invalid.or(invalid);
                pending.drain(..used);
                proptest::prop_assert_eq!(&pieces, &whole);
                proptest::prop_assert_eq!(first_invalid, whole_invalid);
                proptest::prop_assert!(pending.is_empty());
            }
        }
    }
}
