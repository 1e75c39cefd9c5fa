//! Property tests over random input: the lexer is lossless, every non-blank byte lands in the
//! game tree, games tile the input, and the chess layer never panics, whatever the bytes
//! (DESIGN §8). The property itself is `tests/invariants/lossless.rs`, shared with the fuzz
//! target `parse`.

#[allow(dead_code)]
#[path = "invariants/mod.rs"]
mod invariants;

use invariants::FRAGMENTS;
use invariants::lossless::check as check_lossless_and_total;
use proptest::prelude::*;

fn pgnish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..200).prop_map(|v| v.concat())
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
