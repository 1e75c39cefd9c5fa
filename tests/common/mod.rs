//! Helpers shared by several test files.

use pgn_lsp::chess;
use pgn_lsp::syntax::{Diagnostic, parse_games};

/// Every diagnostic of a text (syntax and chess layers), in file offsets, in text order.
pub fn diagnostics(text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        let analysis = chess::analyze(&game, src);
        out.extend(game.diagnostics.iter().chain(&analysis.diagnostics).map(|d| d.shifted(start)));
    }
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out
}
