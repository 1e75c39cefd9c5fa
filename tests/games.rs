//! Game splitting fixtures: every `tests/fixtures/games/*.pgn` is split into games, and each
//! game's first line, tag names, movetext and syntax diagnostic codes are compared with an
//! insta snapshot.

use pgn_lsp::syntax::{NodeKind, parse_games};

fn render(text: &str) -> String {
    let mut out = String::new();
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        let line = text[..start as usize].matches('\n').count() + 1;
        let tags: Vec<&str> = game.tags.iter().map(|t| t.name(src)).collect();
        let moves: Vec<&str> = game
            .nodes
            .iter()
            .filter(|n| !matches!(n.kind, NodeKind::Comment | NodeKind::LineComment))
            .map(|n| &src[n.range])
            .collect();
        let codes: Vec<&str> = game.diagnostics.iter().map(|d| d.code.as_str()).collect();
        out += &format!(
            "game at line {line}: tags [{}], notes {}, movetext [{}], diagnostics [{}]\n",
            tags.join(", "),
            game.tag_notes.len(),
            moves.join(" "),
            codes.join(", ")
        );
    }
    out
}

#[test]
fn game_splitting_fixtures() {
    insta::glob!("fixtures/games/*.pgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(render(&text));
    });
}
