//! Reading PGN input: UTF-8 (a BOM is kept as text, the lexer treats it as whitespace), with a
//! Latin-1 fallback for the bytes that are not UTF-8 (spec §4.1 names ISO 8859-1).

use std::io::{self, Read};

/// How a source's bytes were decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// The bytes were not all valid UTF-8: each byte outside a valid UTF-8 sequence was read as
    /// the Latin-1 character of the same value (a pure Latin-1 file reads as Latin-1; a UTF-8
    /// file with a few stray Latin-1 bytes keeps its UTF-8 characters).
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
    /// Whether some bytes were read as Latin-1.
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

/// UTF-8 where the bytes are UTF-8, Latin-1 for every byte that is not.
pub(super) fn decode(bytes: Vec<u8>) -> (String, Encoding) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, Encoding::Utf8),
        Err(e) => {
            let first_invalid = e.utf8_error().valid_up_to() as u32;
            let bytes = e.into_bytes();
            // A Latin-1 byte from 0x80 up takes two bytes in UTF-8.
            let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
            for chunk in bytes.utf8_chunks() {
                text.push_str(chunk.valid());
                text.extend(chunk.invalid().iter().map(|&b| char::from(b)));
            }
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
        // "é" in UTF-8 (valid, kept) and then "ü" and "ß" in Latin-1 (not UTF-8).
        let (text, encoding) = decode(b"{\xC3\xA9} {\xFC\xDF}".to_vec());
        assert_eq!(text, "{é} {üß}");
        let Encoding::Latin1 { first_invalid } = encoding else { panic!("{encoding:?}") };
        assert_eq!(&text[first_invalid as usize..], "üß}");
    }

    #[test]
    fn pure_latin1_reads_one_character_per_byte() {
        let bytes: Vec<u8> = (0x20..=0xFF).collect();
        let (text, encoding) = decode(bytes.clone());
        assert_eq!(
            text.chars().map(|c| c as u32).collect::<Vec<_>>(),
            (0x20..=0xFF).collect::<Vec<u32>>()
        );
        assert_eq!(encoding, Encoding::Latin1 { first_invalid: 0x80 - 0x20 });
    }
}
