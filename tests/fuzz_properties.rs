//! The fuzz targets' properties (`tests/invariants`) as property tests with a modest number of
//! cases, so that every `cargo test` exercises them: incremental reparse equals a fresh parse,
//! formatting is idempotent and loses nothing, `check --fix` keeps every comment and settles,
//! the editor features answer in range wherever the cursor is, and the chess replay agrees
//! with shakmaty. (The lossless parse runs in `tests/properties.rs`.)

#[allow(dead_code)]
#[path = "invariants/mod.rs"]
mod invariants;

use invariants::FRAGMENTS;
use invariants::{fix, format, ide, reparse, replay};
use pgn_lsp::fmt::FormatOptions;
use proptest::prelude::*;

/// Real games to edit: tag sections, comments, variations, games without results, moves in
/// the notations real files hold.
const SEEDS: &[&str] = &[
    include_str!("fixtures/diagnostics/valid-tricky.pgn"),
    include_str!("fixtures/games/boundaries.pgn"),
    include_str!("fixtures/games/damage.pgn"),
    include_str!("fixtures/fmt/default/comments.pgn"),
    include_str!("fixtures/fmt/default/variations.pgn"),
    include_str!("fixtures/fmt/default/tag-notes.pgn"),
    include_str!("fixtures/fmt/default/move-numbers.pgn"),
    include_str!("fixtures/fmt/default/san.pgn"),
];

fn fragments(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..max).prop_map(|v| v.concat())
}

/// A real file, or one with a random span replaced by random PGN-ish text, or such text alone.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(SEEDS).prop_map(str::to_owned),
        (prop::sample::select(SEEDS), any::<usize>(), 0..40usize, fragments(20)).prop_map(
            |(seed, at, delete, insert)| {
                let edit = reparse::Edit { at, delete, insert };
                let mut text = seed.to_owned();
                text.replace_range(edit.range(seed), &edit.insert);
                text
            }
        ),
        fragments(200),
    ]
}

fn edit() -> impl Strategy<Value = reparse::Edit> {
    (any::<usize>(), prop_oneof![0..4usize, 0..400usize], fragments(6))
        .prop_map(|(at, delete, insert)| reparse::Edit { at, delete, insert })
}

fn options() -> impl Strategy<Value = FormatOptions> {
    (prop::sample::select(vec![80usize, 40, 12, 2]), any::<bool>(), any::<bool>(), any::<bool>())
        .prop_map(|(line_width, reflow_comments, add_missing_tags, reduced)| FormatOptions {
            line_width,
            reflow_comments,
            add_missing_tags,
            reduced,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn incremental_reparse_equals_a_fresh_parse(
        text in text(),
        edits in prop::collection::vec(edit(), 1..6),
        read_step in prop::option::of(1..64usize),
    ) {
        reparse::check(&reparse::Case { text, edits, read_step });
    }

    #[test]
    fn fixing_keeps_comments_and_the_encoding_and_settles(
        text in text(),
        min_severity in prop::sample::select(fix::SEVERITIES),
        latin1 in any::<bool>(),
    ) {
        // Read as Latin-1, the text's UTF-8 bytes are a character each.
        let text = if latin1 { text.bytes().map(char::from).collect() } else { text };
        fix::check(&fix::Case { min_severity, latin1, text });
    }

    #[test]
    fn formatting_is_idempotent_keeps_content_and_adds_no_diagnostic(
        text in text(),
        options in options(),
    ) {
        format::check(&format::Case { options, text });
    }

    #[test]
    fn editor_features_answer_in_range_wherever_the_cursor_is(
        text in text(),
        cursors in prop::collection::vec(any::<u16>(), 1..5),
    ) {
        ide::check(&ide::Case { text, cursors });
    }

    #[test]
    fn replay_agrees_with_shakmaty(data in prop::collection::vec(any::<u8>(), 0..3000)) {
        replay::run(&data);
    }
}
