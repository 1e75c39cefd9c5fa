//! Formatting edits on the fixtures under `fixtures/ide/formatting`: applied, the edits give
//! exactly what the formatter gives for the whole file; every edit stays inside one game that
//! changed; a formatted file gives no edits; range formatting changes only the games in the
//! range, as the whole-file formatter would; cancelled work gives no edits.

use pgn_lsp::fmt::{FormatOptions, format_games, format_text};
use pgn_lsp::ide::{Cancelled, DocumentAnalysis, format_edits};
use pgn_lsp::text::{TextEdit, TextRange};

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
            let (game, new) = games.iter().find(|(g, _)| g.touches(edit.range.start)).unwrap();
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
