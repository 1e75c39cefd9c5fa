//! The properties that fuzzing and the property tests hold the code to (DESIGN §8), one module
//! per fuzz target. Each module has a typed case, a `check` that panics when the property does
//! not hold, and a `run` that decodes a case from raw bytes and checks it: the fuzz targets
//! (`fuzz/`) call `run`, the replay of fuzz failures (`tests/regressions.rs`) calls `run` on
//! every saved input, and the property tests (`tests/fuzz_properties.rs`) build cases with
//! proptest and call `check`.
//!
//! Test crates include this module with `#[path]`; each uses only some of it.

pub mod document;
pub mod fix;
pub mod format;
pub mod ide;
pub mod lossless;
pub mod reparse;
pub mod replay;

use arbitrary::Unstructured;

/// Pieces of text that matter to PGN: delimiters, move and number shapes, multi-byte
/// characters, line ends and whole tag lines. Random text made of them reaches the parser's
/// corners far more often than random bytes.
pub const FRAGMENTS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    "\"",
    "\\",
    ";",
    "%",
    "$",
    ".",
    "!",
    "?",
    "*",
    "-",
    "+",
    "#",
    "=",
    "/",
    "@",
    ":",
    "<",
    ">",
    "0",
    "1",
    "2",
    "5",
    "8",
    "9",
    "a",
    "e",
    "h",
    "x",
    "N",
    "B",
    "R",
    "Q",
    "K",
    "O",
    "P",
    "Z",
    " ",
    " ",
    "\n",
    "\n",
    "\r\n",
    "\t",
    "é",
    "♘",
    "𝄞",
    "½",
    "–",
    "\u{feff}",
    "Event",
    "[Event \"x\"]\n",
    "1. e4",
    " e5",
    " Nf3",
    " 1-0",
    " *",
    "\n\n",
    "O-O",
    "exd5",
];

/// Text made of `count` fragments chosen by the bytes.
pub fn fragments(u: &mut Unstructured<'_>, count: usize) -> String {
    (0..count).map(|_| *u.choose(FRAGMENTS).unwrap_or(&"")).collect()
}

/// The rest of the bytes as text: UTF-8 where it is, U+FFFD where it is not.
pub fn rest_as_text(u: Unstructured<'_>) -> String {
    String::from_utf8_lossy(u.take_rest()).into_owned()
}
