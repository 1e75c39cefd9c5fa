//! The `not-utf8` diagnostics of a file's encoding, each in the game it falls in: the first
//! byte of a file read as Latin-1 that is not UTF-8; the start of a file read as UTF-16 (by its
//! byte order mark), and its first unit that is no character.

use std::ops::Range;

use super::input::Encoding;
use crate::syntax::{Code, Diagnostic};
use crate::text::{TextRange, Utf16};

/// The diagnostics of `encoding` (its offsets in the text checked, a byte order mark left out)
/// that fall in the game at `game` of that text, whose text is `src`; their ranges are relative
/// to the game.
pub fn encoding_diagnostics(encoding: Encoding, game: Range<usize>, src: &str) -> Vec<Diagnostic> {
    let local = |at: usize| game.contains(&at).then(|| (at - game.start) as u32);
    match encoding {
        Encoding::Utf8 => Vec::new(),
        Encoding::Latin1 { first_invalid } => {
            local(first_invalid).map(|at| read_as_latin1(src, at)).into_iter().collect()
        }
        Encoding::Utf16 { order, first_invalid } => {
            let start = local(0).map(|at| read_as_utf16(order, at));
            let invalid = first_invalid.and_then(local).map(|at| not_utf16(src, at));
            start.into_iter().chain(invalid).collect()
        }
    }
}

/// The character at `at` of `src`, and its range.
fn character_at(src: &str, at: u32) -> (char, TextRange) {
    let c = src[at as usize..].chars().next().unwrap_or('\u{0}');
    (c, TextRange::new(at, at + c.len_utf8() as u32))
}

/// At the first character that was read as Latin-1.
fn read_as_latin1(src: &str, at: u32) -> Diagnostic {
    let (c, range) = character_at(src, at);
    Diagnostic::new(
        Code::NotUtf8,
        range,
        format!(
            "the file is not valid UTF-8: byte 0x{:02X} here, and every other byte that is not \
             UTF-8, was read as Latin-1 (ISO 8859-1)",
            u32::from(c)
        ),
    )
}

/// At the start of the file (`at`, the start of its first game).
fn read_as_utf16(order: Utf16, at: u32) -> Diagnostic {
    Diagnostic::new(
        Code::NotUtf8,
        TextRange::empty(at),
        format!(
            "the file is UTF-16 ({}, as its byte order mark says), not UTF-8: it was read as \
             UTF-16, and `fmt` and `check --fix` write it so",
            order.byte_order()
        ),
    )
}

/// At the first U+FFFD that stands for a unit that is no character.
fn not_utf16(src: &str, at: u32) -> Diagnostic {
    let (_, range) = character_at(src, at);
    Diagnostic::new(
        Code::NotUtf8,
        range,
        "the file is not valid UTF-16 here: a surrogate without its pair, or a last byte without \
         its pair, was read as U+FFFD; `fmt` and `check --fix` leave the file as it is (they \
         could not write it back)"
            .to_owned(),
    )
}
