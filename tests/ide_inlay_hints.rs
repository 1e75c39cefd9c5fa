//! Inlay hint fixtures: every PGN file under `fixtures/ide/inlay_hints` gives a snapshot of its
//! text with each hint written in where the editor shows it, as `«label»` (and its tooltip
//! listed below).

use pgn_lsp::ide::{DocumentAnalysis, inlay_hints};
use pgn_lsp::text::TextRange;

fn check(text: &str) -> String {
    let analysis = DocumentAnalysis::new(text);
    let hints = inlay_hints(&analysis, &text, TextRange::new(0, text.len() as u32));
    let mut shown = String::new();
    let mut at = 0;
    let mut tooltips = String::new();
    for hint in &hints {
        shown.push_str(&text[at..hint.offset as usize]);
        let pad = if hint.pad_left { " " } else { "" };
        shown.push_str(&format!("{pad}«{}»", hint.label));
        at = hint.offset as usize;
        if let Some(tooltip) = &hint.tooltip {
            tooltips.push_str(&format!("«{}»: {tooltip}\n", hint.label));
        }
    }
    shown.push_str(&text[at..]);
    format!("{shown}\n{tooltips}")
}

#[test]
fn inlay_hint_fixtures() {
    insta::glob!("fixtures/ide/inlay_hints/*.pgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&text));
    });
}

#[test]
fn only_the_hints_in_the_range_are_given() {
    let game = "[Event \"x\"]\n\n1. e4 $14 {[%clk 0:01:02]} e5 $15 *\n\n";
    let text = game.repeat(3);
    let analysis = DocumentAnalysis::new(&text);
    let second = game.len() as u32;
    let in_second = TextRange::new(second + game.find("e5").unwrap() as u32, 2 * second);
    let hints = inlay_hints(&analysis, &text.as_str(), in_second);
    let labels: Vec<&str> = hints.iter().map(|h| h.label.as_str()).collect();
    assert_eq!(labels, ["⩱"]);
    assert!(hints.iter().all(|h| in_second.touches(h.offset)));
}
