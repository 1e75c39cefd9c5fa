//! Incremental == full: random edit sequences on real games give, after every edit, the same
//! games (lengths) and the same diagnostics as analysing the edited text from scratch; also
//! when the text is read a few bytes at a time, which makes the reparse window grow.

use pgn_lsp::ide::{DocumentAnalysis, GameAnalysis};
use pgn_lsp::syntax::{Edit, TextSource};
use proptest::prelude::*;

const FIXTURES: &[&str] = &[
    include_str!("fixtures/ide/games/lichess-study-nested-variations.pgn"),
    include_str!("fixtures/ide/games/4ncl-crlf.pgn"),
    include_str!("fixtures/ide/games/torture.pgn"),
    include_str!("fixtures/ide/games/annotated-quirks.pgn"),
    include_str!("fixtures/ide/games/multibyte.pgn"),
];

/// Text that changes game boundaries, comments, variations, strings and moves when typed.
const SNIPPETS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    ";",
    "%",
    "\n",
    "\r\n",
    "\n\n",
    " ",
    "*",
    "1-0",
    "1/2-1/2",
    "e4",
    " Nf3 ",
    "O-O",
    "$14",
    "!?",
    "12.",
    "...",
    "[Event \"x\"]\n",
    "\n[Site \"y\"]\n\n",
    "1. e4 e5 *\n",
    "é",
    "♘",
    "𝄞",
    "{ 𝄞 ♘ é }",
];

/// A text source that gives out at most `step` bytes per read.
struct Stingy<'a> {
    text: &'a str,
    step: usize,
}

impl TextSource for Stingy<'_> {
    fn len(&self) -> usize {
        self.text.len()
    }

    fn read_into(&self, start: usize, end: usize, out: &mut String) {
        self.text.read_into(start, end.min(start.saturating_add(self.step)), out);
    }
}

/// One random edit: where (as a fraction of the text), how much to delete, what to insert.
#[derive(Clone, Debug)]
struct RandomEdit {
    at: f64,
    delete: usize,
    insert: String,
}

fn random_edit() -> impl Strategy<Value = RandomEdit> {
    let insert = prop_oneof![
        3 => proptest::sample::select(SNIPPETS).prop_map(str::to_owned),
        1 => proptest::collection::vec(proptest::sample::select(SNIPPETS), 0..4)
            .prop_map(|parts| parts.concat()),
        1 => Just(String::new()),
    ];
    (0.0..=1.0f64, prop_oneof![3 => 0..4usize, 1 => 0..200usize], insert)
        .prop_map(|(at, delete, insert)| RandomEdit { at, delete, insert })
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn games(analysis: &DocumentAnalysis) -> Vec<(u32, &GameAnalysis)> {
    analysis.games().map(|(start, game)| (start, &**game)).collect()
}

fn check(fixture: usize, edits: &[RandomEdit], step: usize) {
    let mut text = FIXTURES[fixture].to_owned();
    let mut analysis = DocumentAnalysis::new(&text);
    for e in edits {
        let start = floor_boundary(&text, (e.at * text.len() as f64) as usize);
        let end = floor_boundary(&text, (start + e.delete).min(text.len()));
        text.replace_range(start..end, &e.insert);
        let edit = Edit {
            old_start: start as u32,
            old_end: end as u32,
            inserted_len: e.insert.len() as u32,
        };
        analysis.apply_edit(&Stingy { text: &text, step }, edit);
        let fresh = DocumentAnalysis::new(&text);
        assert_eq!(games(&analysis), games(&fresh), "after {e:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn incremental_equals_full(
        fixture in 0..FIXTURES.len(),
        edits in proptest::collection::vec(random_edit(), 1..8),
    ) {
        check(fixture, &edits, usize::MAX);
    }

    #[test]
    fn incremental_equals_full_through_a_small_window(
        fixture in 0..FIXTURES.len(),
        edits in proptest::collection::vec(random_edit(), 1..6),
        step in 1..64usize,
    ) {
        check(fixture, &edits, step);
    }
}

#[test]
fn every_fixture_is_analysed_whole() {
    for text in FIXTURES {
        let analysis = DocumentAnalysis::new(text);
        assert_eq!(analysis.len() as usize, text.len());
        assert!(analysis.game_count() > 0);
    }
}
