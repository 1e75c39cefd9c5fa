//! Hover fixtures: each `<|>` in a PGN file under `fixtures/ide/hover` is a cursor; the
//! snapshot holds the hover at every cursor (the token it covers and its Markdown).

mod common;

use common::at_each_cursor;
use pgn_lsp::ide::hover;

fn check(marked: &str) -> String {
    at_each_cursor(marked, |analysis, text, offset| match hover(analysis, &text, offset) {
        Some(h) => format!("on `{}`\n{}\n\n", &text[h.range.to_usize()], h.markdown),
        None => "no hover\n\n".to_owned(),
    })
}

#[test]
fn hover_fixtures() {
    insta::glob!("fixtures/ide/hover/*.pgn", |path| {
        let marked = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&marked));
    });
}
