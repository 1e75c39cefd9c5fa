//! Reading PGN input: UTF-8 (a BOM is kept as text, the lexer treats it as whitespace), with a
//! Latin-1 fallback for files that are not UTF-8 (spec §4.1 names ISO 8859-1).
//!
//! The fallback reads the whole file as Latin-1, one character per byte, even where some bytes
//! would be valid UTF-8: that decoding is one-to-one, so writing the text back as Latin-1 gives
//! the same bytes (`fmt` relies on it).
//!
//! A large file is read in pieces on all worker threads: copying it from the page cache and
//! faulting in the memory for it cost as much as checking an engine archive's moves, and the
//! workers would otherwise wait for it.

use std::fs::File;
use std::io::{self, Read};

use rayon::prelude::*;

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
        read_file(path)?
    };
    let name = if path == "-" { "<stdin>".to_owned() } else { path.to_owned() };
    let (text, encoding) = decode(bytes);
    Ok(Source { name, text, encoding })
}

/// Files from this size up are read in pieces in parallel (when there are several workers).
const PARALLEL_READ_BYTES: u64 = 4 << 20;

/// The bytes of the file at `path`.
fn read_file(path: &str) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    #[cfg(unix)]
    if rayon::current_num_threads() > 1 && len >= PARALLEL_READ_BYTES {
        return read_in_parallel(path, file, len);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The bytes of `file` (at `path`, `len` bytes long when opened), read in pieces on the
/// workers; as they are at the end if the file grew or shrank meanwhile.
#[cfg(unix)]
fn read_in_parallel(path: &str, mut file: File, len: u64) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let len = usize::try_from(len).map_err(io::Error::other)?;
    let mut bytes = vec![0u8; len];
    let piece = len.div_ceil(rayon::current_num_threads() * 4);
    let read = bytes
        .par_chunks_mut(piece)
        .enumerate()
        .try_for_each(|(i, chunk)| file.read_exact_at(chunk, (i * piece) as u64));
    match read {
        Ok(()) => {
            // Bytes added since the length was taken.
            io::Seek::seek(&mut file, io::SeekFrom::Start(len as u64))?;
            file.read_to_end(&mut bytes)?;
            Ok(bytes)
        }
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => std::fs::read(path),
        Err(e) => Err(e),
    }
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

    #[test]
    fn a_large_file_reads_the_same_on_any_number_of_workers() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let len = PARALLEL_READ_BYTES as usize + 12_345;
        let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        io::Write::write_all(&mut file, &bytes).unwrap();
        let path = file.path().to_str().unwrap();
        for workers in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(workers).build().unwrap();
            assert!(pool.install(|| read_file(path)).unwrap() == bytes, "{workers} workers");
        }
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
