//! The adversarial inputs that `check`, `fmt` and the server are run on (`adversarial_cli.rs`,
//! `adversarial_server.rs`): huge nesting, huge tokens, huge counts, binary. Each is made at
//! one of two sizes: [`Size::Test`] keeps a debug build to a few seconds in `cargo test`;
//! [`Size::Full`] is the size the reliability requirements name (a million `(`, a 100 MB line, a
//! million games), run on the release build with its time and memory measured. Each input says
//! which diagnostics `check` must report for it.

#![allow(dead_code)] // Each test crate that includes this module uses a different part of it.

use pgn_lsp::syntax::Code;
use pgn_lsp::syntax::diagnostic::MAX_PER_CODE;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Test,
    Full,
}

impl Size {
    /// `full` at full size, else `test`.
    fn pick(self, test: usize, full: usize) -> usize {
        match self {
            Size::Test => test,
            Size::Full => full,
        }
    }
}

/// How many diagnostics of a code `check` must report.
#[derive(Clone, Copy, Debug)]
pub enum Count {
    Exactly(usize),
    AtLeast(usize),
}

impl Count {
    pub fn holds(self, n: usize) -> bool {
        match self {
            Count::Exactly(want) => n == want,
            Count::AtLeast(want) => n >= want,
        }
    }
}

pub struct Input {
    pub name: &'static str,
    pub bytes: Vec<u8>,
    /// Diagnostic codes `check` must report, and how many; codes not listed may appear too.
    pub expected: Vec<(Code, Count)>,
    /// Whether an error is among the diagnostics (`check` exits with 1, else 0).
    pub has_error: bool,
}

/// Makes an input at a size.
pub type Make = fn(Size) -> Input;

/// Every input, by name, made on demand (the full sizes take hundreds of megabytes each).
pub const INPUTS: &[(&str, Make)] = &[
    ("nested-variations", nested_variations),
    ("open-braces", open_braces),
    ("stray-closing-parens", stray_closing_parens),
    ("long-line", long_line),
    ("one-move-games", one_move_games),
    ("random-binary", random_binary),
    ("invalid-utf8", invalid_utf8),
    ("long-symbol", long_symbol),
    ("huge-numbers", huge_numbers),
    ("impossible-fens", impossible_fens),
    ("ten-thousand-tags", ten_thousand_tags),
    ("megabyte-comment", megabyte_comment),
    ("uci-moves", uci_moves),
];

/// The input called `name`.
pub fn input(name: &str, size: Size) -> Input {
    let (_, make) = INPUTS.iter().find(|(n, _)| *n == name).expect("a known input");
    make(size)
}

/// A million `(` after a move: one game, all its variations open.
fn nested_variations(size: Size) -> Input {
    let n = size.pick(100_000, 1_000_000);
    Input {
        name: "nested-variations",
        bytes: format!("[Event \"x\"]\n\n1. e4 {}\n", "(".repeat(n)).into_bytes(),
        expected: vec![
            (Code::UnclosedVariation, Count::Exactly(1)),
            // Every `(` but the first opens before the first move of its line: one report.
            (Code::UnexpectedToken, Count::Exactly(1)),
        ],
        has_error: true,
    }
}

/// A million `{`: the first opens a comment that runs to the end.
fn open_braces(size: Size) -> Input {
    let n = size.pick(100_000, 1_000_000);
    Input {
        name: "open-braces",
        bytes: format!("[Event \"x\"]\n\n1. e4 {}\n", "{".repeat(n)).into_bytes(),
        expected: vec![(Code::UnterminatedComment, Count::Exactly(1))],
        has_error: true,
    }
}

/// A million `)` with nothing to close: the first `MAX_PER_CODE` are reported, then a count.
fn stray_closing_parens(size: Size) -> Input {
    let n = size.pick(100_000, 1_000_000);
    Input {
        name: "stray-closing-parens",
        bytes: format!("[Event \"x\"]\n\n1. e4 {} *\n", ")".repeat(n)).into_bytes(),
        expected: vec![(Code::UnexpectedToken, Count::Exactly(MAX_PER_CODE as usize + 1))],
        has_error: true,
    }
}

/// One game of about `bytes` bytes whose moves take the knights out and back, every move
/// legal and numbered right: `four_moves(n)` writes moves `n` and `n + 1` of both sides.
fn knights_out_and_back(bytes: usize, four_moves: impl Fn(u32) -> String) -> String {
    let mut text = String::with_capacity(bytes + 64);
    text.push_str("[Event \"x\"]\n\n");
    let mut n = 1;
    while text.len() < bytes {
        text.push_str(&four_moves(n));
        n += 2;
    }
    text.push_str("*\n");
    text
}

/// One game on one line of 100 MB: knights out and back, every move legal and numbered right.
fn long_line(size: Size) -> Input {
    let bytes = size.pick(1_000_000, 100_000_000);
    let text = knights_out_and_back(bytes, |n| format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
    Input {
        name: "long-line",
        bytes: text.into_bytes(),
        expected: vec![(Code::LineTooLong, Count::Exactly(1))],
        has_error: false,
    }
}

/// A million games of one move each, without tags.
fn one_move_games(size: Size) -> Input {
    let n = size.pick(10_000, 1_000_000);
    Input {
        name: "one-move-games",
        bytes: "1. e4 *\n".repeat(n).into_bytes(),
        expected: vec![(Code::MissingTag, Count::Exactly(n))],
        has_error: false,
    }
}

/// Random bytes (NULs included), the same on every run: read as Latin-1 since they are not
/// UTF-8, and full of text that belongs nowhere.
fn random_binary(size: Size) -> Input {
    let n = size.pick(100_000, 10_000_000);
    // xorshift64*: deterministic, no dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let bytes = (0..n)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect();
    Input {
        name: "random-binary",
        bytes,
        expected: vec![
            (Code::NotUtf8, Count::Exactly(1)),
            (Code::UnexpectedToken, Count::AtLeast(1)),
        ],
        has_error: true,
    }
}

/// A Latin-1 file (§4.1): names and comments with bytes that are not UTF-8.
fn invalid_utf8(_: Size) -> Input {
    let game: &[u8] = b"[Event \"Z\xfcrich\"]\n[White \"G\xf6ran\"]\n[Black \"Ren\xe9e\"]\n\n\
        1. e4 {\xe9t\xe9 \xb1} e5 2. Nf3 {\xff\xfe} Nc6 *\n\n";
    Input {
        name: "invalid-utf8",
        bytes: game.repeat(3),
        expected: vec![(Code::NotUtf8, Count::Exactly(1))],
        has_error: false,
    }
}

/// A symbol of 10,000 characters where a move belongs.
fn long_symbol(_: Size) -> Input {
    Input {
        name: "long-symbol",
        bytes: format!("[Event \"x\"]\n\n1. {} *\n", "a".repeat(10_000)).into_bytes(),
        expected: vec![
            (Code::InvalidSan, Count::Exactly(1)),
            (Code::LineTooLong, Count::Exactly(1)),
        ],
        has_error: true,
    }
}

/// A NAG and a move number of twenty digits.
fn huge_numbers(_: Size) -> Input {
    Input {
        name: "huge-numbers",
        bytes: b"[Event \"x\"]\n\n1. e4 $99999999999999999999 99999999999999999999. e5 *\n"
            .to_vec(),
        expected: vec![
            (Code::NagOutOfRange, Count::Exactly(1)),
            (Code::MoveNumber, Count::Exactly(1)),
        ],
        has_error: false,
    }
}

/// FENs of impossible positions: twenty kings; a pawn on the first rank.
fn impossible_fens(_: Size) -> Input {
    let fens = ["KKKKKKKK/KKKKKKKK/KKKK4/8/8/8/8/k7 w - - 0 1", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"];
    let text: String =
        fens.iter().map(|fen| format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. Kd2 *\n\n")).collect();
    Input {
        name: "impossible-fens",
        bytes: text.into_bytes(),
        expected: vec![(Code::InvalidFen, Count::Exactly(2))],
        has_error: true,
    }
}

/// 10,000 tags in one game, all different; then 10,000 times the same tag in another.
fn ten_thousand_tags(_: Size) -> Input {
    let distinct: String = (0..10_000).map(|i| format!("[Tag{i} \"v\"]\n")).collect();
    let same = "[Annotator \"v\"]\n".repeat(10_000);
    Input {
        name: "ten-thousand-tags",
        bytes: format!("{distinct}\n1. e4 *\n\n{same}\n1. d4 *\n").into_bytes(),
        expected: vec![(Code::DuplicateTag, Count::Exactly(9_999))],
        has_error: false,
    }
}

/// A comment of a megabyte.
fn megabyte_comment(_: Size) -> Input {
    Input {
        name: "megabyte-comment",
        bytes: format!("[Event \"x\"]\n\n1. e4 {{{}}} e5 *\n", "word ".repeat(200_000))
            .into_bytes(),
        expected: vec![(Code::LineTooLong, Count::Exactly(1))],
        has_error: false,
    }
}

/// One game of legal moves in UCI notation, each one not standard SAN: the first
/// `MAX_PER_CODE` are reported, then a count.
fn uci_moves(size: Size) -> Input {
    let bytes = size.pick(200_000, 10_000_000);
    let text = knights_out_and_back(bytes, |n| format!("{n}. g1f3 g8f6 {}. f3g1 f6g8\n", n + 1));
    Input {
        name: "uci-moves",
        bytes: text.into_bytes(),
        expected: vec![(Code::NonCanonicalSan, Count::Exactly(MAX_PER_CODE as usize + 1))],
        has_error: false,
    }
}

/// The text the tools read from `bytes`: UTF-8, or Latin-1 when the bytes are not UTF-8.
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}
