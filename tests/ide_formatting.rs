//! Formatting edits on the fixtures under `fixtures/ide/formatting`: applied, the edits give
//! exactly what the formatter gives for the whole file; every edit stays inside one game that
//! changed; a formatted file gives no edits; range formatting changes only the games in the
//! range, as the whole-file formatter would; cancelled work gives no edits. The text read a
//! window of a few games at a time (down to one game per window) gives the edits of the text
//! read whole, with every set of options, on the fixtures and on random sequences of games
//! whose formatting depends on the game before.

use pgn_lsp::fmt::{FormatOptions, GameOutput, KeepReason, format_games, format_text};
use pgn_lsp::ide::{Cancelled, DocumentAnalysis, Formatting, for_each_format_edit, format_edits};
use pgn_lsp::text::{TextEdit, TextRange};
use proptest::prelude::*;

fn never() -> bool {
    false
}

fn edits(text: &str, range: Option<TextRange>) -> Vec<TextEdit> {
    let analysis = DocumentAnalysis::new(text);
    format_edits(&analysis, &text, &FormatOptions::default(), range, &never).unwrap()
}

/// The games of `text` and the formatter's text for each.
fn formatted_games(text: &str) -> Vec<(TextRange, String)> {
    let options = FormatOptions::default();
    format_games(text, &options)
        .map(|g| {
            let range = TextRange::new(g.start, g.start + g.source.len() as u32);
            (range, g.text().to_owned())
        })
        .collect()
}

/// The edits in a readable form: the text each replaces and the text it puts there.
fn describe(text: &str, edits: &[TextEdit]) -> String {
    edits
        .iter()
        .map(|e| format!("{:?} {:?} -> {:?}\n", e.range, &text[e.range.to_usize()], e.new_text))
        .collect()
}

#[test]
fn formatting_fixtures() {
    insta::glob!("fixtures/ide/formatting/*.pgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let all = edits(&text, None);
        let formatted = TextEdit::apply_all(&text, &all);
        assert_eq!(formatted, format_text(&text, &FormatOptions::default()));
        let games = formatted_games(&text);
        for edit in &all {
            // The game the edit starts in (an insertion at a boundary is in the later game).
            let (game, new) =
                games.iter().rev().find(|(g, _)| g.start <= edit.range.start).unwrap();
            assert!(game.start <= edit.range.start && edit.range.end <= game.end, "{edit:?}");
            assert_ne!(&text[game.to_usize()], new, "an edit for an unchanged game");
        }
        assert_eq!(edits(&formatted, None), [], "formatted text needs no edits");
        insta::assert_snapshot!(describe(&text, &all));
    });
}

#[test]
fn range_formatting_changes_only_the_games_in_the_range() {
    let text = include_str!("fixtures/ide/formatting/mixed.pgn");
    let games = formatted_games(text);
    assert!(games.len() >= 4);
    for (i, (game, new)) in games.iter().enumerate() {
        // A cursor inside the game, and a selection of its first line.
        for range in [TextRange::empty(game.start + 1), TextRange::new(game.start, game.start + 3)]
        {
            let result = TextEdit::apply_all(text, &edits(text, Some(range)));
            let expected =
                format!("{}{new}{}", &text[..game.start as usize], &text[game.end as usize..]);
            assert_eq!(result, expected, "game {i}, range {range:?}");
        }
    }
    // A range over two games formats both.
    let (first, second) = (games[0].0, games[1].0);
    let both = edits(text, Some(TextRange::new(first.end - 1, second.start + 1)));
    let expected = format!("{}{}{}", games[0].1, games[1].1, &text[second.end as usize..]);
    assert_eq!(TextEdit::apply_all(text, &both), expected);
}

#[test]
fn cancelled_formatting_stops() {
    let text = include_str!("fixtures/ide/formatting/mixed.pgn");
    let analysis = DocumentAnalysis::new(text);
    let result = format_edits(&analysis, &text, &FormatOptions::default(), None, &|| true);
    assert_eq!(result, Err(Cancelled));
}

/// The default options, and those that change when a game would join the game before.
fn option_sets() -> [FormatOptions; 4] {
    let default = FormatOptions::default();
    let bare = FormatOptions { add_missing_tags: false, ..default.clone() };
    let reduced = FormatOptions { reduced: true, ..default.clone() };
    let reduced_bare = FormatOptions { reduced: true, ..bare.clone() };
    [default, bare, reduced, reduced_bare]
}

/// The edits for `range` with the text read about `window_bytes` at a time.
fn windowed_edits(
    text: &str,
    options: &FormatOptions,
    range: Option<TextRange>,
    window_bytes: usize,
) -> Vec<TextEdit> {
    let analysis = DocumentAnalysis::new(text);
    let mut edits = Vec::new();
    let push = &mut |edit| edits.push(edit);
    let ending = for_each_format_edit(&analysis, &text, options, range, window_bytes, &never, push);
    assert_eq!(ending, Ok(Formatting::Complete));
    edits
}

/// Whether some game of `text` is kept because, formatted, it would join the game before.
fn has_joins(text: &str, options: &FormatOptions) -> bool {
    format_games(text, options)
        .any(|g| matches!(g.output, GameOutput::Kept(KeepReason::WouldJoinPrevious)))
}

/// Windows of every size from one game on give the edits of the whole text, for the whole text
/// and for a cursor in each game; the whole text's edits give what the formatter gives.
fn check_windows(text: &str, window_sizes: &[usize]) {
    for options in option_sets() {
        let whole = windowed_edits(text, &options, None, usize::MAX);
        assert_eq!(TextEdit::apply_all(text, &whole), format_text(text, &options), "{options:?}");
        let cursors: Vec<Option<TextRange>> = DocumentAnalysis::new(text)
            .games()
            .map(|(start, game)| Some(TextRange::empty(start + game.len / 2)))
            .collect();
        for range in std::iter::once(None).chain(cursors) {
            let expected = windowed_edits(text, &options, range, usize::MAX);
            for &window_bytes in window_sizes {
                let edits = windowed_edits(text, &options, range, window_bytes);
                assert!(
                    edits == expected,
                    "{window_bytes}-byte windows, range {range:?}, {options:?}:\n{}\ninstead of\n{}",
                    describe(text, &edits),
                    describe(text, &expected)
                );
            }
        }
    }
}

#[test]
fn windows_give_the_edits_of_the_whole_text() {
    insta::glob!("fixtures/ide/formatting/*.pgn", |path| {
        check_windows(&std::fs::read_to_string(path).unwrap(), &[1, 40, 100, 300, 1000]);
    });
    // The fixture has a game that would join the game before in reduced export format
    // without added tags, so the windows are checked across such joins.
    let joins = include_str!("fixtures/ide/formatting/joins.pgn");
    assert_eq!(option_sets().map(|o| has_joins(joins, &o)), [false, false, false, true]);
}

/// Games whose formatting depends on the game before, and games it does not.
const GAMES: &[&str] = &[
    "1. e4 e5 *\n",
    "1. { c } 1. d4 d5 *\n",
    "2. { dropped number } Nf3 *\n",
    "{ comment first } 1. g3 *\n",
    "1. Nf3 Nf6\n",
    "[White \"w\"]\n",
    "[Event \"e\"]\n[Black \"b\"]\n",
    "[Annotator \"a\"]\n",
    "[Event \"x\"]\n[Result \"1-0\"]\n\n1.e4  e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# 1-0\n",
    "[Event \"open\"]\n1. e4 {unterminated\n",
    "1. e4 e5 2. Ke3 *\n",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// On any sequence of such games, every window size gives the edits of the whole text.
    #[test]
    fn windows_give_the_edits_of_the_whole_text_on_any_sequence(
        games in proptest::collection::vec(
            (proptest::sample::select(GAMES), proptest::sample::select(&["", "\n"][..])),
            1..10,
        ),
        window_bytes in 1..120usize,
    ) {
        let text: String = games.iter().flat_map(|(game, gap)| [*game, *gap]).collect();
        check_windows(&text, &[window_bytes]);
    }
}
