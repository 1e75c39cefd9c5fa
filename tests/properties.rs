//! Property tests over random input: the lexer is lossless, every non-blank byte lands in the
//! game tree, games tile the input, and the chess layer never panics, whatever the bytes
//! (DESIGN §8).

use pgn_lsp::chess;
use pgn_lsp::syntax::{TokenKind, lex, parse_games};
use proptest::prelude::*;

/// Characters that matter to PGN, plus multi-byte ones and line endings.
const ALPHABET: &[&str] = &[
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

fn pgnish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..200).prop_map(|v| v.concat())
}

const SEED: &str = include_str!("fixtures/diagnostics/valid-tricky.pgn");

/// A real file with a random span replaced by random PGN-ish text.
fn edited_seed() -> impl Strategy<Value = String> {
    (0..SEED.len(), 0..40usize, pgnish()).prop_map(|(at, len, insert)| {
        let mut start = at;
        while !SEED.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + len).min(SEED.len());
        while !SEED.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}{}{}", &SEED[..start], insert, &SEED[end..])
    })
}

/// Whitespace as the lexer knows it.
fn is_blank(s: &str) -> bool {
    lex(s).all(|t| t.kind == TokenKind::Whitespace)
}

/// The lexer is lossless: its tokens come in order, and only ASCII whitespace lies between
/// them.
fn check_lexer_lossless(src: &str) {
    let mut at = 0usize;
    for t in lex(src) {
        let gap = &src[at..t.range.start as usize];
        assert!(gap.bytes().all(|b| b" \t\r\n\x0B\x0C".contains(&b)), "lost {gap:?}");
        at = t.range.end as usize;
    }
    assert!(src[at..].bytes().all(|b| b" \t\r\n\x0B\x0C".contains(&b)));
}

fn check_lossless_and_total(text: &str) {
    let mut covered = 0u32;
    for (start, game) in parse_games(text) {
        assert_eq!(start, covered, "games must follow each other");
        assert!(game.len > 0, "every game advances");
        covered += game.len;
        let src = &text[start as usize..(start + game.len) as usize];
        // Elements do not overlap, and only whitespace lies between them.
        let mut at = 0;
        for r in game.element_ranges() {
            assert!(r.start >= at, "elements overlap at {r:?}");
            assert!(is_blank(&src[at as usize..r.start as usize]), "text outside the tree");
            at = r.end;
        }
        assert!(is_blank(&src[at as usize..]), "text after the last element");
        check_lexer_lossless(src);
        chess::analyze(&game, src);
    }
    assert_eq!(covered as usize, text.len(), "games cover the text");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_text_parses_losslessly(text in pgnish()) {
        check_lossless_and_total(&text);
    }

    #[test]
    fn edited_real_games_parse_losslessly(text in edited_seed()) {
        check_lossless_and_total(&text);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text: String = bytes.iter().map(|&b| char::from(b)).collect();
        check_lossless_and_total(&text);
    }
}
