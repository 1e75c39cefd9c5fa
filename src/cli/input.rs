//! Reading PGN input: UTF-8 (a BOM is kept as text, the lexer treats it as whitespace), with a
//! Latin-1 fallback for files that are not UTF-8 (spec §4.1 names ISO 8859-1).
//!
//! The fallback reads the whole file as Latin-1, one character per byte, even where some bytes
//! would be valid UTF-8: that decoding is one-to-one, so writing the text back as Latin-1 gives
//! the same bytes (`fmt` relies on it).

use std::io::{self, Read};

/// How a source's bytes were decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// The bytes were not valid UTF-8 and were read as Latin-1, one character per byte.
    Latin1 {
        /// Where the first byte that is not UTF-8 landed in the decoded text (a byte offset).
        first_invalid: u32,
    },
}

/// A file's text and how it was decoded.
pub struct Source {
    pub name: String,
    pub text: String,
    pub encoding: Encoding,
}

impl Source {
    /// Whether the bytes were read as Latin-1.
    pub fn is_latin1(&self) -> bool {
        matches!(self.encoding, Encoding::Latin1 { .. })
    }
}

/// Read `path`, or standard input for `-`.
pub fn read_source(path: &str) -> io::Result<Source> {
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        buf
    } else {
        std::fs::read(path)?
    };
    let name = if path == "-" { "<stdin>".to_owned() } else { path.to_owned() };
    let (text, encoding) = decode(bytes);
    Ok(Source { name, text, encoding })
}

/// UTF-8 when the bytes are UTF-8, else Latin-1.
pub(super) fn decode(bytes: Vec<u8>) -> (String, Encoding) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, Encoding::Utf8),
        Err(e) => {
            let valid_up_to = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            // Every byte from 0x80 up becomes a two-byte character in the decoded text.
            let widened = bytes[..valid_up_to].iter().filter(|&&b| b >= 0x80).count();
            let first_invalid = (valid_up_to + widened) as u32;
            let text = bytes.iter().map(|&b| char::from(b)).collect();
            (text, Encoding::Latin1 { first_invalid })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_kept_as_it_is() {
        let (text, encoding) = decode("\u{FEFF}[Event \"Zürich\"]".as_bytes().to_vec());
        assert_eq!((text.as_str(), encoding), ("\u{FEFF}[Event \"Zürich\"]", Encoding::Utf8));
    }

    #[test]
    fn latin1_fallback_points_at_the_first_invalid_byte() {
        // "é" in UTF-8 (valid, but read as the two Latin-1 characters of its bytes) and then
        // "ü" and "ß" in Latin-1 (not UTF-8).
        let (text, encoding) = decode(b"{\xC3\xA9} {\xFC\xDF}".to_vec());
        assert_eq!(text, "{Ã©} {üß}");
        let Encoding::Latin1 { first_invalid } = encoding else { panic!("{encoding:?}") };
        assert_eq!(&text[first_invalid as usize..], "üß}");
    }

    proptest::proptest! {
        /// Decoding loses nothing: UTF-8 text is the bytes themselves, and Latin-1 text gives
        /// the bytes back one character per byte.
        #[test]
        fn decoding_is_lossless(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let (text, encoding) = decode(bytes.clone());
            match encoding {
                Encoding::Utf8 => proptest::prop_assert_eq!(text.as_bytes(), &bytes[..]),
                Encoding::Latin1 { first_invalid } => {
                    let back: Vec<u8> = text.chars().map(|c| u8::try_from(c).unwrap()).collect();
                    proptest::prop_assert_eq!(back, bytes);
                    proptest::prop_assert!(text.is_char_boundary(first_invalid as usize));
                }
            }
        }
    }
}
