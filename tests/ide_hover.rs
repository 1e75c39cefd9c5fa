//! Hover fixtures: each `<|>` in a PGN file under `fixtures/ide/hover` is a cursor; the
//! snapshot holds the hover at every cursor (the token it covers and its Markdown).

mod common;

use common::{cursors, line_of};
use pgn_lsp::ide::{DocumentAnalysis, hover};

fn check(marked: &str) -> String {
    let (text, offsets) = cursors(marked);
    let analysis = DocumentAnalysis::new(&text);
    let mut out = String::new();
    for offset in offsets {
        let line = line_of(&text, offset);
        out.push_str(&format!("── cursor at byte {offset} (line {line})\n"));
        match hover(&analysis, &text.as_str(), offset) {
            Some(h) => {
                out.push_str(&format!("on `{}`\n{}\n\n", &text[h.range.to_usize()], h.markdown));
            }
            None => out.push_str("no hover\n\n"),
        }
    }
    out
}

#[test]
fn hover_fixtures() {
    insta::glob!("fixtures/ide/hover/*.pgn", |path| {
        let marked = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&marked));
    });
}
