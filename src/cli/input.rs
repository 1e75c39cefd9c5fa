//! Reading PGN input: UTF-8 (a BOM is kept as text, the lexer treats it as whitespace), with a
//! Latin-1 fallback for files that are not UTF-8 (spec §4.1 names ISO 8859-1), and UTF-16 for
//! files that start with its byte order mark.
//!
//! The fallback reads the whole file as Latin-1, one character per byte, even where some bytes
//! would be valid UTF-8, but for a UTF-8 byte order mark at its start, which stays one (U+FEFF):
//! that decoding is one-to-one, so writing the text back as Latin-1 (the mark as UTF-8) gives
//! the same bytes (`fmt` relies on it). UTF-16 is decoded whole, its mark as U+FEFF too; a unit
//! that is no character is read as U+FFFD, and such a file is not written back (`rewrite`).
//!
//! A regular file is mapped into memory, not copied: copying a large file from the page cache
//! into fresh memory costs as much as checking an engine archive's moves. Its bytes are checked
//! as UTF-8 where they lie and the text is borrowed from the map (only the Latin-1 fallback
//! builds a text of its own). This assumes that no other process truncates or rewrites the file
//! while it is read, the trade ripgrep makes too: reading a page cut off by truncation kills the
//! process (SIGBUS), and bytes rewritten in place would change under the program a text it
//! holds as fixed and checked as UTF-8 (undefined behaviour for Rust, in practice diagnostics
//! of a mixture of the old and the new bytes).
//! The program itself never writes to a file it has mapped: `fmt` writes a new file and renames
//! it over the old one, whose pages stay mapped as they were. Standard input is read, not
//! mapped (it may be the same file as standard output), and so are files that are not regular
//! or report no length (pipes, `/proc`) and files that cannot be mapped. (`check` reads
//! standard input and pipes a piece at a time instead: `stream`.)
//!
//! A large input is checked as UTF-8 in pieces on all workers: the check is the first to touch
//! every page of a mapped file, and faulting them in is work the workers share. Asked to, the
//! check counts each piece's line breaks too, while the piece is in the cache: the workers of
//! `check` then find the line of any game from the start of its piece.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read};

use memmap2::Mmap;
use rayon::prelude::*;

use super::line_breaks::{BLOCK_BYTES, LineBreaks, count_line_breaks};
use crate::text::{UTF8_BOM, Utf16};

/// How a source's bytes were decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// The bytes were not valid UTF-8 and were read as Latin-1, one character per byte.
    Latin1 {
        /// Where the first byte that is not UTF-8 landed in the decoded text (a byte offset).
        first_invalid: usize,
    },
    /// The bytes started with a UTF-16 byte order mark and were read as UTF-16.
    Utf16 {
        order: Utf16,
        /// Where the first unit that is no character (read as U+FFFD) landed in the decoded
        /// text, if one was found.
        first_invalid: Option<usize>,
    },
}

impl Encoding {
    /// The encoding of the text after its first `len` bytes (its byte order mark): the
    /// offsets, which all lie after them, moved back.
    pub fn after(self, len: usize) -> Encoding {
        match self {
            Encoding::Utf8 => Encoding::Utf8,
            Encoding::Latin1 { first_invalid } => {
                Encoding::Latin1 { first_invalid: first_invalid - len }
            }
            Encoding::Utf16 { order, first_invalid } => {
                Encoding::Utf16 { order, first_invalid: first_invalid.map(|at| at - len) }
            }
        }
    }
}

/// The bytes of one input file, or of standard input, before decoding.
pub struct Input {
    name: String,
    bytes: Bytes,
}

enum Bytes {
    Mapped(Mmap),
    Read(Vec<u8>),
}

impl Input {
    /// Open `path` (mapped when it is a regular file), or read standard input for `-`.
    pub fn open(path: &str) -> io::Result<Input> {
        if path == "-" {
            let mut bytes = Vec::new();
            io::stdin().read_to_end(&mut bytes)?;
            return Ok(Input { name: "<stdin>".to_owned(), bytes: Bytes::Read(bytes) });
        }
        Input::from_file(path, File::open(path)?)
    }

    /// The input of `file`, opened already, named `name`.
    pub fn from_file(name: &str, file: File) -> io::Result<Input> {
        Ok(Input { name: name.to_owned(), bytes: open_file(file)? })
    }

    /// Bytes already in memory (the fixed text of standard input), named `name`.
    pub fn from_bytes(name: &str, bytes: Vec<u8>) -> Input {
        Input { name: name.to_owned(), bytes: Bytes::Read(bytes) }
    }

    /// The file's name as messages give it (`<stdin>` for standard input).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The text: borrowed from the bytes when they are UTF-8, else decoded as UTF-16 or Latin-1.
    /// `count_lines` asks for the line breaks of a large UTF-8 input, counted in its check.
    pub fn decode(&self, count_lines: bool) -> Source<'_> {
        let bytes = match &self.bytes {
            Bytes::Mapped(map) => &map[..],
            Bytes::Read(bytes) => &bytes[..],
        };
        let (text, encoding, line_breaks) = decode(bytes, count_lines);
        Source { name: &self.name, text, encoding, line_breaks }
    }
}

/// A file's text and how it was decoded.
pub struct Source<'a> {
    pub name: &'a str,
    pub text: Cow<'a, str>,
    pub encoding: Encoding,
    /// The text's line breaks, when they were asked for and counted in the UTF-8 check (of a
    /// large input, on several workers).
    pub line_breaks: Option<LineBreaks>,
}

impl Source<'_> {
    /// Whether the bytes were read as Latin-1.
    pub fn is_latin1(&self) -> bool {
        matches!(self.encoding, Encoding::Latin1 { .. })
    }
}

/// The bytes of `file`: mapped when it is a regular file that reports a length and can be
/// mapped, else read.
fn open_file(mut file: File) -> io::Result<Bytes> {
    let metadata = file.metadata()?;
    if metadata.is_file() && metadata.len() > 0 {
        // SAFETY: sound only if the mapped bytes do not change while the map lives (it is
        // owned by the `Input` and only read). That is assumed, not enforced (see the module
        // documentation): no other process truncates the file or rewrites its bytes meanwhile.
        // This program never writes to a file it has mapped (`fmt` renames a new file over it).
        if let Ok(map) = unsafe { Mmap::map(&file) } {
            return Ok(Bytes::Mapped(map));
        }
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(Bytes::Read(bytes))
}

/// UTF-16 when the bytes start with its byte order mark, UTF-8 when they are UTF-8 (borrowed),
/// else Latin-1 (after a UTF-8 byte order mark, kept as one); with `count_lines`, the line
/// breaks too where the UTF-8 check counted them.
pub(super) fn decode(
    bytes: &[u8],
    count_lines: bool,
) -> (Cow<'_, str>, Encoding, Option<LineBreaks>) {
    if let Some(order) = Utf16::from_bom(bytes) {
        let mut text = String::new();
        let (_, first_invalid) = order.decode(bytes, true, &mut text);
        return (Cow::Owned(text), Encoding::Utf16 { order, first_invalid }, None);
    }
    match utf8(bytes, count_lines) {
        Ok((text, line_breaks)) => (Cow::Borrowed(text), Encoding::Utf8, line_breaks),
        Err(e) => {
            // U+FEFF is as long in the text as its mark in the bytes, and the first byte that
            // is not UTF-8 comes after the mark.
            let mark = if bytes.starts_with(UTF8_BOM) { "\u{FEFF}" } else { "" };
            let rest = &bytes[mark.len()..];
            let first_invalid = mark.len() + latin1_offset(rest, e.valid_up_to() - mark.len());
            let mut text = String::with_capacity(bytes.len());
            text.push_str(mark);
            push_latin1(&mut text, rest);
            (Cow::Owned(text), Encoding::Latin1 { first_invalid }, None)
        }
    }
}

/// `bytes` read as Latin-1, one character per byte, appended to `text`.
pub(super) fn push_latin1(text: &mut String, bytes: &[u8]) {
    text.extend(bytes.iter().map(|&b| char::from(b)));
}

/// Where byte `at` of `bytes` lands in their Latin-1 text: every byte from 0x80 up becomes a
/// two-byte character.
pub(super) fn latin1_offset(bytes: &[u8], at: usize) -> usize {
    at + bytes[..at].iter().filter(|&&b| b >= 0x80).count()
}

/// Inputs from this size up are checked as UTF-8 in pieces on the workers (when there are
/// several).
pub(super) const PARALLEL_CHECK_BYTES: usize = 4 << 20;

/// `bytes` as text when they are UTF-8; a large input is checked in pieces on all workers,
/// which count its line breaks too with `count_lines`.
fn utf8(
    bytes: &[u8],
    count_lines: bool,
) -> Result<(&str, Option<LineBreaks>), std::str::Utf8Error> {
    if rayon::current_num_threads() == 1 || bytes.len() < PARALLEL_CHECK_BYTES {
        return utf8_at_once(bytes).map(|text| (text, None));
    }
    utf8_in_pieces(bytes, BLOCK_BYTES, count_lines)
}

/// `bytes` as text when they are UTF-8, checked by simdutf8 (the vector instructions the
/// processor has, chosen at run time); std's check, slower, then says where they stop being
/// UTF-8.
///
/// It is the one pass over a whole file besides the parse's, and where games are mostly
/// comments (engine archives) reading the bytes is much of a `check` run. With simdutf8
/// `check --jobs 1` took 3% less time on the TCEC archive and 2% less on TWIC files (four to
/// six rounds of 20 runs of each build, alternated, 2026-11-22).
pub(super) fn utf8_at_once(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes))
}

/// `bytes` as text when they are UTF-8, checked in pieces of about `piece` bytes in parallel;
/// with `count_lines`, the line breaks of each piece counted after its check, while it is in
/// the cache.
///
/// Before, the workers counted as their games asked: the line breaks of the segments before
/// theirs, which another worker was still parsing, from memory. On the TCEC archive that was
/// an eighth of the samples of `check --jobs 2`; counted here, the count is a twentieth, and
/// the run takes about a tenth less processor time (2026-11-23).
fn utf8_in_pieces(
    bytes: &[u8],
    piece: usize,
    count_lines: bool,
) -> Result<(&str, Option<LineBreaks>), std::str::Utf8Error> {
    let cuts = character_starts(bytes, piece);
    let checked: Option<Vec<u32>> = cuts
        .par_windows(2)
        .map(|cut| {
            let piece = &bytes[cut[0]..cut[1]];
            simdutf8::basic::from_utf8(piece).ok()?;
            Some(if count_lines { count_line_breaks(piece) } else { 0 })
        })
        .collect();
    match checked {
        // SAFETY: the pieces between the cuts are all of `bytes`, one after the other, and each
        // is UTF-8; UTF-8 strings put together are UTF-8.
        Some(breaks) => Ok((
            unsafe { std::str::from_utf8_unchecked(bytes) },
            count_lines.then(|| LineBreaks::from_blocks(&cuts, &breaks)),
        )),
        // Where the bytes stop being UTF-8.
        None => std::str::from_utf8(bytes).map(|text| (text, None)),
    }
}

/// `0`, the offsets about every `piece` bytes moved on to where a character starts (to a byte
/// that does not continue one), and the length of `bytes`.
fn character_starts(bytes: &[u8], piece: usize) -> Vec<usize> {
    let is_continuation = |b: &&u8| *b & 0xC0 == 0x80;
    let mut cuts = vec![0];
    let mut at = piece;
    while at < bytes.len() {
        // A character goes on for at most three bytes: past them the bytes are not UTF-8, and
        // any cut will do.
        at += bytes[at..].iter().take(3).take_while(is_continuation).count();
        if at < bytes.len() {
            cuts.push(at);
        }
        at += piece;
    }
    cuts.push(bytes.len());
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::line_breaks::lines_agree;
    use crate::cli::rewrite::encode;

    #[test]
    fn utf8_is_kept_as_it_is() {
        let (text, encoding, line_breaks) = decode("\u{FEFF}[Event \"Zürich\"]".as_bytes(), true);
        assert!(matches!(text, Cow::Borrowed(_)), "UTF-8 is borrowed, not copied");
        assert_eq!((&*text, encoding), ("\u{FEFF}[Event \"Zürich\"]", Encoding::Utf8));
        assert_eq!(line_breaks, None, "a small input is checked at once, its lines not counted");
    }

    #[test]
    fn latin1_fallback_points_at_the_first_invalid_byte() {
        // "é" in UTF-8 (valid, but read as the two Latin-1 characters of its bytes) and then
        // "ü" and "ß" in Latin-1 (not UTF-8).
        let (text, encoding, _) = decode(b"{\xC3\xA9} {\xFC\xDF}", false);
        assert_eq!(text, "{Ã©} {üß}");
        let Encoding::Latin1 { first_invalid } = encoding else { panic!("{encoding:?}") };
        assert_eq!(&text[first_invalid..], "üß}");
    }

    #[test]
    fn a_utf8_byte_order_mark_stays_one_before_latin1() {
        let (text, encoding, _) = decode(b"\xEF\xBB\xBF[White \"M\xFCller\"]", false);
        assert_eq!(text, "\u{FEFF}[White \"Müller\"]");
        let Encoding::Latin1 { first_invalid } = encoding else { panic!("{encoding:?}") };
        assert_eq!(&text[first_invalid..], "üller\"]");
        // Bytes that only start like the mark are Latin-1 characters.
        let (text, _, _) = decode(b"\xEF\xBB[\xFC]", false);
        assert_eq!(text, "ï»[ü]");
    }

    #[test]
    fn utf16_is_read_by_its_byte_order_mark() {
        for order in [Utf16::LittleEndian, Utf16::BigEndian] {
            let text = "\u{FEFF}[White \"Müller\"] {♘ 𝄞}";
            let bytes = order.encode(text);
            let (decoded, encoding, _) = decode(&bytes, true);
            assert_eq!(decoded, text);
            assert_eq!(encoding, Encoding::Utf16 { order, first_invalid: None });
            let mut bytes = order.encode("\u{FEFF}{é}");
            bytes.push(b'x');
            let (decoded, encoding, _) = decode(&bytes, true);
            assert_eq!(decoded, "\u{FEFF}{é}\u{FFFD}");
            assert_eq!(encoding, Encoding::Utf16 { order, first_invalid: Some(7) });
        }
    }

    /// Write `bytes` to a temporary file and open it as an input.
    fn open_written(bytes: &[u8]) -> (tempfile::NamedTempFile, Input) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        io::Write::write_all(&mut file, bytes).unwrap();
        let input = Input::open(file.path().to_str().unwrap()).unwrap();
        (file, input)
    }

    #[test]
    fn a_mapped_file_gives_the_text_read_from_it() {
        // Several pages and a part of one, with multi-byte characters across page boundaries.
        let text: String =
            (0..40_000).map(|i| ["[Event \"Zürich\"]\n", "1. e4 ♘ 𝄞 *\n"][i % 2]).collect();
        let (file, input) = open_written(text.as_bytes());
        assert!(matches!(input.bytes, Bytes::Mapped(_)), "a regular file is mapped");
        let source = input.decode(false);
        assert!(matches!(source.text, Cow::Borrowed(_)), "the text is borrowed from the map");
        assert_eq!(source.encoding, Encoding::Utf8);
        assert!(source.text == std::fs::read_to_string(file.path()).unwrap());
        assert_eq!(source.name, file.path().to_str().unwrap());
    }

    #[test]
    fn a_mapped_file_that_is_not_utf8_falls_back_to_latin1() {
        let mut bytes = "[Event \"Zürich\"]\n".repeat(5000).into_bytes();
        let at = bytes.len();
        bytes.extend_from_slice(b"{M\xFCller}\n1. e4 *\n");
        let (_file, input) = open_written(&bytes);
        assert!(matches!(input.bytes, Bytes::Mapped(_)));
        let source = input.decode(false);
        assert!(source.is_latin1());
        let back: Vec<u8> = source.text.chars().map(|c| u8::try_from(c).unwrap()).collect();
        assert!(back == bytes, "Latin-1 gives the bytes back");
        let Encoding::Latin1 { first_invalid } = source.encoding else { unreachable!() };
        // Each "ü" before the invalid byte was two bytes, read as two characters of two bytes.
        assert_eq!(first_invalid, at + 5000 * 2 + 2);
        assert_eq!(&source.text[first_invalid..], "üller}\n1. e4 *\n");
    }

    #[test]
    fn an_empty_file_is_read_as_empty_text() {
        let (_file, input) = open_written(b"");
        assert!(matches!(input.bytes, Bytes::Read(_)), "nothing to map");
        let source = input.decode(false);
        assert_eq!((&*source.text, source.encoding), ("", Encoding::Utf8));
    }

    /// Files that report no length may still have contents (those of `/proc`): they are read.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_reports_no_length_is_read() {
        assert_eq!(std::fs::metadata("/proc/self/status").unwrap().len(), 0);
        let input = Input::open("/proc/self/status").unwrap();
        assert!(matches!(input.bytes, Bytes::Read(_)));
        assert!(input.decode(false).text.starts_with("Name:"), "{}", input.decode(false).text);
    }

    #[test]
    fn a_missing_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.pgn");
        let error = Input::open(missing.to_str().unwrap()).err().expect("no such file");
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_large_input_decodes_the_same_on_any_number_of_workers() {
        // Multi-byte characters everywhere, so that most cuts fall inside one.
        let text = "{♘é𝄞}\n1. e4 ".repeat(PARALLEL_CHECK_BYTES / 10);
        let mut latin1 = text.clone().into_bytes();
        latin1[PARALLEL_CHECK_BYTES / 2] = 0xFF;
        let (latin1_text, latin1_encoding, _) = decode(&latin1, false);
        assert!(matches!(latin1_encoding, Encoding::Latin1 { .. }));
        for workers in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(workers).build().unwrap();
            pool.install(|| {
                for count_lines in [false, true] {
                    let (decoded, encoding, line_breaks) = decode(text.as_bytes(), count_lines);
                    assert!(matches!(decoded, Cow::Borrowed(_)), "{workers} workers");
                    assert!(decoded == text && encoding == Encoding::Utf8, "{workers} workers");
                    // Counted in the check's pieces, on several workers only.
                    match line_breaks {
                        Some(line_breaks) => {
                            assert!(count_lines && workers > 1, "{workers} workers");
                            assert!(lines_agree(&line_breaks, text.as_bytes()), "{workers}");
                        }
                        None => assert!(!count_lines || workers == 1, "{workers} workers"),
                    }
                    let (decoded, encoding, line_breaks) = decode(&latin1, count_lines);
                    assert!(decoded == latin1_text, "{workers} workers");
                    assert_eq!(encoding, latin1_encoding, "{workers} workers");
                    assert_eq!(line_breaks, None, "Latin-1 text is not the bytes checked");
                }
            });
        }
    }

    #[test]
    fn cuts_fall_where_characters_start() {
        let text = "a♘é𝄞".repeat(100);
        for piece in 1..12 {
            let cuts = character_starts(text.as_bytes(), piece);
            assert_eq!((cuts[0], cuts[cuts.len() - 1]), (0, text.len()));
            assert!(cuts.windows(2).all(|w| w[0] < w[1]), "{cuts:?}");
            assert!(cuts.iter().all(|&cut| text.is_char_boundary(cut)), "{cuts:?}");
        }
    }

    /// Bytes that are UTF-8 in places: characters of one to four bytes, any bytes, bytes that
    /// continue a character, and ASCII; long enough for several of simdutf8's 64-byte blocks.
    fn mostly_utf8() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            8 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
            1 => any::<u8>().prop_map(|b| vec![b]),
            1 => (0x80..0xC0u8).prop_map(|b| vec![b]),
            4 => (0..0x80u8).prop_map(|b| vec![b]),
        ];
        proptest::collection::vec(piece, 0..200).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        /// Checked at once or in pieces, bytes are UTF-8 exactly when std says so, and the
        /// error is std's, which says where they stop being UTF-8, wherever the cuts fall.
        #[test]
        fn checks_agree_with_std(bytes in mostly_utf8(), piece in 1..40usize) {
            proptest::prop_assert_eq!(utf8_at_once(&bytes), std::str::from_utf8(&bytes));
            let in_pieces = utf8_in_pieces(&bytes, piece, true);
            let text = in_pieces.as_ref().map(|&(text, _)| text).map_err(|&e| e);
            proptest::prop_assert_eq!(text, std::str::from_utf8(&bytes));
            if let Ok((_, line_breaks)) = in_pieces {
                proptest::prop_assert!(lines_agree(&line_breaks.unwrap(), &bytes));
            }
        }

        /// Text is UTF-8, checked at once or in pieces.
        #[test]
        fn text_is_utf8(text in ".{0,300}", piece in 1..40usize) {
            proptest::prop_assert_eq!(utf8_at_once(text.as_bytes()), Ok(text.as_str()));
            let in_pieces = utf8_in_pieces(text.as_bytes(), piece, false);
            proptest::prop_assert_eq!(in_pieces, Ok((text.as_str(), None)));
        }
    }

    proptest::proptest! {
        /// Decoding loses nothing but units that are no UTF-16 character: the text encoded
        /// again is the bytes (UTF-8 text is the bytes themselves); a file gives the text of its
        /// bytes.
        #[test]
        fn decoding_is_lossless(mark in 0..4usize, rest in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            // Often a byte order mark: none, UTF-8's, or UTF-16's.
            let bytes = [&[][..], UTF8_BOM, b"\xFF\xFE", b"\xFE\xFF"][mark].iter().chain(&rest);
            let bytes: Vec<u8> = bytes.copied().collect();
            let (text, encoding, _) = decode(&bytes, false);
            match encoding {
                Encoding::Utf8 => proptest::prop_assert_eq!(text.as_bytes(), &bytes[..]),
                Encoding::Latin1 { first_invalid } => {
                    proptest::prop_assert!(text.is_char_boundary(first_invalid));
                }
                Encoding::Utf16 { first_invalid: Some(first_invalid), .. } => {
                    proptest::prop_assert!(text[first_invalid..].starts_with(char::REPLACEMENT_CHARACTER));
                }
                Encoding::Utf16 { first_invalid: None, .. } => {}
            }
            if !matches!(encoding, Encoding::Utf16 { first_invalid: Some(_), .. }) {
                proptest::prop_assert_eq!(&*encode(&text, encoding), &bytes[..]);
            }
            let (_file, input) = open_written(&bytes);
            let source = input.decode(false);
            proptest::prop_assert_eq!((&*source.text, source.encoding), (&*text, encoding));
        }
    }
}
