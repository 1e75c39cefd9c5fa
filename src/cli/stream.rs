//! Standard input and pipes read a piece at a time, for `check`: `zstdcat
//! lichess_db_standard_rated_2024-01.pgn.zst | pgn-lsp check -` holds about a piece of the
//! archive in memory, not the whole of it (hundreds of GB).
//!
//! The text is decoded as `input` decodes a file: UTF-8, or Latin-1 when it is not UTF-8, or
//! UTF-16 when it starts with its byte order mark (a leading byte order mark left out). A
//! file's encoding is chosen from all of its bytes; a stream is UTF-8 until its first byte that
//! is not, and from then on Latin-1: the text not yet checked is read again as Latin-1, from the
//! first game not yet checked (a stream that fits in one piece is read as a file would be).

use std::io::{self, Read};
use std::sync::OnceLock;

use super::batches::TextReader;
use super::input::{Encoding, latin1_offset, push_latin1, utf8_at_once};
use crate::text::{UTF8_BOM, Utf16};

/// How much is read from the input at a time.
const READ_BYTES: usize = 1 << 20;
/// The text is checked in pieces of about this length.
pub const PIECE_BYTES: usize = 64 << 20;

/// The text of an input read a piece at a time.
pub struct StreamedText<'a, R> {
    reader: R,
    /// The bytes read and not yet taken.
    bytes: Vec<u8>,
    /// The text of `bytes`: in UTF-8, how many of them are checked (a character cut off by the
    /// end of a read waits for the next read); in Latin-1, all of them decoded.
    decoded: Decoded,
    /// The bytes of text taken so far (a byte order mark left out is not counted).
    taken: usize,
    /// Whether a byte order mark was looked for.
    started: bool,
    at_end: bool,
    error: Option<io::Error>,
    /// The encoding, as far as the stream has been read.
    encoding: &'a StreamEncoding,
}

enum Decoded {
    Utf8 {
        valid: usize,
    },
    Latin1(String),
    /// UTF-16 decoded as it is read: `bytes` holds only what is not decoded yet (a unit or a
    /// surrogate pair cut off by the end of a read).
    Utf16 {
        order: Utf16,
        text: String,
    },
}

/// What a stream's encoding turns out to be as it is read, for the workers that check its
/// games; offsets are those of its text without a byte order mark.
#[derive(Default)]
pub struct StreamEncoding {
    /// Set when the stream starts with a UTF-16 byte order mark.
    utf16: OnceLock<Utf16>,
    /// Set when the stream turns out not to be UTF-8 (where its first character read as
    /// Latin-1 lies in the whole text), or, in UTF-16, where its first unit that is no
    /// character does.
    first_invalid: OnceLock<usize>,
}

impl StreamEncoding {
    /// The encoding as far as the stream has been read.
    pub fn get(&self) -> Encoding {
        let first_invalid = self.first_invalid.get().copied();
        match (self.utf16.get(), first_invalid) {
            (Some(&order), _) => Encoding::Utf16 { order, first_invalid },
            (None, Some(first_invalid)) => Encoding::Latin1 { first_invalid },
            (None, None) => Encoding::Utf8,
        }
    }
}

impl<'a, R: Read> StreamedText<'a, R> {
    pub fn new(reader: R, encoding: &'a StreamEncoding) -> Self {
        StreamedText {
            reader,
            bytes: Vec::new(),
            decoded: Decoded::Utf8 { valid: 0 },
            taken: 0,
            started: false,
            at_end: false,
            error: None,
            encoding,
        }
    }

    /// The error that ended the reading, if one did.
    pub fn into_error(self) -> Option<io::Error> {
        self.error
    }

    /// Read once more; `false` at the end of the input.
    fn read_some(&mut self) -> bool {
        let old = self.bytes.len();
        self.bytes.resize(old + READ_BYTES, 0);
        let read = loop {
            match self.reader.read(&mut self.bytes[old..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.error = Some(e);
                    break 0;
                }
                Ok(read) => break read,
            }
        };
        self.bytes.truncate(old + read);
        read > 0
    }

    /// Decode the bytes read since the last call (at the start, once there are enough of them
    /// to tell a byte order mark).
    fn decode(&mut self, from: usize) {
        if !self.started {
            if self.bytes.len() < UTF8_BOM.len() && !self.at_end {
                return;
            }
            self.started = true;
            self.leave_out_bom();
        }
        match &mut self.decoded {
            Decoded::Latin1(text) => push_latin1(text, &self.bytes[from..]),
            Decoded::Utf16 { order, text } => {
                let (used, first_invalid) = order.decode(&self.bytes, self.at_end, text);
                if let Some(first_invalid) = first_invalid {
                    let _ = self.encoding.first_invalid.set(self.taken + first_invalid);
                }
                self.bytes.drain(..used);
            }
            Decoded::Utf8 { valid } => match utf8_at_once(&self.bytes[*valid..]) {
                Ok(_) => *valid = self.bytes.len(),
                // A character cut off by the end of a read.
                Err(e) if e.error_len().is_none() && !self.at_end => *valid += e.valid_up_to(),
                Err(e) => {
                    let at = latin1_offset(&self.bytes, *valid + e.valid_up_to());
                    let _ = self.encoding.first_invalid.set(self.taken + at);
                    let mut text = String::with_capacity(self.bytes.len());
                    push_latin1(&mut text, &self.bytes);
                    self.decoded = Decoded::Latin1(text);
                }
            },
        }
    }

    /// Leave a byte order mark at the start out of the text; a UTF-16 one makes the stream
    /// UTF-16.
    fn leave_out_bom(&mut self) {
        if self.bytes.starts_with(UTF8_BOM) {
            self.bytes.drain(..UTF8_BOM.len());
        } else if let Some(order) = Utf16::from_bom(&self.bytes) {
            self.bytes.drain(..2);
            let _ = self.encoding.utf16.set(order);
            self.decoded = Decoded::Utf16 { order, text: String::new() };
        }
    }
}

impl<R: Read> TextReader for StreamedText<'_, R> {
    fn text(&self) -> &str {
        match &self.decoded {
            // SAFETY: the first `valid` bytes were checked as UTF-8, and every take ends at a
            // character boundary.
            Decoded::Utf8 { valid } => unsafe {
                std::str::from_utf8_unchecked(&self.bytes[..*valid])
            },
            Decoded::Latin1(text) | Decoded::Utf16 { text, .. } => text,
        }
    }

    fn read_to(&mut self, len: usize) {
        while self.text().len() < len && !self.at_end {
            let from = self.bytes.len();
            self.at_end = !self.read_some();
            self.decode(from);
        }
    }

    fn at_end(&self) -> bool {
        self.at_end
    }

    fn take(&mut self, len: usize) {
        match &mut self.decoded {
            Decoded::Utf8 { valid } => {
                self.bytes.drain(..len);
                *valid -= len;
            }
            Decoded::Latin1(text) => {
                self.bytes.drain(..text[..len].chars().count());
                text.drain(..len);
            }
            Decoded::Utf16 { text, .. } => drop(text.drain(..len)),
        }
        self.taken += len;
    }
}

/// A reader for tests that hands out at most `step` bytes a read, then fails if `fails`.
#[cfg(test)]
pub struct Stingy<'a> {
    pub bytes: &'a [u8],
    pub step: usize,
    pub fails: bool,
}

#[cfg(test)]
impl Read for Stingy<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.bytes.is_empty() && self.fails {
            return Err(io::Error::other("the pipe broke"));
        }
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_cut_by_reads_wait_for_the_next_and_a_byte_order_mark_is_left_out() {
        let bytes = "\u{FEFF}{é ♘ 𝄞}".as_bytes();
        let encoding = StreamEncoding::default();
        let mut text = StreamedText::new(Stingy { bytes, step: 1, fails: false }, &encoding);
        text.read_to(1);
        assert_eq!(text.text(), "{");
        text.read_to(3);
        assert_eq!(text.text(), "{é");
        text.take(1);
        text.read_to(usize::MAX);
        assert_eq!((text.text(), text.at_end()), ("é ♘ 𝄞}", true));
        assert_eq!(encoding.get(), Encoding::Utf8);
        assert!(text.into_error().is_none());
    }

    #[test]
    fn a_byte_that_is_not_utf8_turns_the_text_not_yet_taken_to_latin1() {
        let bytes = b"{\xC3\xA9}\n{\xC3\xA9 M\xFCller}\n";
        let encoding = StreamEncoding::default();
        let mut text = StreamedText::new(Stingy { bytes, step: 8, fails: false }, &encoding);
        text.read_to(5);
        assert_eq!(text.text(), "{é}\n{é");
        // The first line is taken as UTF-8.
        text.take(5);
        text.read_to(usize::MAX);
        // The rest is read again as Latin-1, "é" as its two bytes' characters.
        assert_eq!(text.text(), "{Ã© Müller}\n");
        // Where "ü" lies in the whole text: the 5 bytes taken, then "{Ã© M".
        assert_eq!(encoding.get(), Encoding::Latin1 { first_invalid: 5 + "{Ã© M".len() });
        text.take("{Ã© M".len());
        assert_eq!(text.text(), "üller}\n");
        assert_eq!(text.bytes, b"\xFCller}\n", "the bytes taken are those of the text taken");
    }

    #[test]
    fn a_utf8_byte_order_mark_is_left_out_of_latin1_text() {
        let bytes = b"\xEF\xBB\xBF{M\xFCller}";
        let encoding = StreamEncoding::default();
        let mut text = StreamedText::new(Stingy { bytes, step: 2, fails: false }, &encoding);
        text.read_to(usize::MAX);
        assert_eq!(text.text(), "{Müller}");
        assert_eq!(encoding.get(), Encoding::Latin1 { first_invalid: 2 });
    }

    #[test]
    fn utf16_is_read_by_its_byte_order_mark_however_reads_cut_it() {
        let whole = "{é ♘ 𝄞}\n1. e4 *\n";
        for order in [Utf16::LittleEndian, Utf16::BigEndian] {
            let bytes = order.encode(&format!("\u{FEFF}{whole}"));
            for step in [1, 2, 3, 5] {
                let encoding = StreamEncoding::default();
                let reader = Stingy { bytes: &bytes, step, fails: false };
                let mut text = StreamedText::new(reader, &encoding);
                text.read_to(1);
                assert!(whole.starts_with(text.text()), "{step}: {:?}", text.text());
                text.take(1);
                text.read_to(usize::MAX);
                assert_eq!((text.text(), text.at_end()), (&whole[1..], true), "{step}");
                assert_eq!(encoding.get(), Encoding::Utf16 { order, first_invalid: None });
            }
        }
    }

    #[test]
    fn a_utf16_unit_that_is_no_character_is_replaced_and_found() {
        // "{e4}", then "x", a second surrogate alone, "}" and one more byte.
        let bytes = b"\xFE\xFF\0{\0e\x004\0}\0x\xDC\x00\0}\0";
        let encoding = StreamEncoding::default();
        let mut text = StreamedText::new(Stingy { bytes, step: 3, fails: false }, &encoding);
        text.read_to(4);
        text.take(4);
        text.read_to(usize::MAX);
        assert_eq!(text.text(), "x\u{FFFD}}\u{FFFD}");
        let order = Utf16::BigEndian;
        assert_eq!(encoding.get(), Encoding::Utf16 { order, first_invalid: Some(5) });
    }

    #[test]
    fn a_character_cut_off_by_the_end_of_the_input_makes_it_latin1() {
        let encoding = StreamEncoding::default();
        let bytes = b"{e4} \xE2\x99";
        let mut text = StreamedText::new(Stingy { bytes, step: 3, fails: false }, &encoding);
        text.read_to(usize::MAX);
        assert_eq!(text.text(), "{e4} \u{E2}\u{99}");
        assert_eq!(encoding.get(), Encoding::Latin1 { first_invalid: 5 });
    }

    #[test]
    fn a_read_error_ends_the_text_and_is_kept() {
        let encoding = StreamEncoding::default();
        let reader = Stingy { bytes: b"1. e4 *\n", step: 100, fails: true };
        let mut text = StreamedText::new(reader, &encoding);
        text.read_to(usize::MAX);
        assert_eq!((text.text(), text.at_end()), ("1. e4 *\n", true));
        assert_eq!(text.into_error().map(|e| e.to_string()), Some("the pipe broke".to_owned()));
    }
}
