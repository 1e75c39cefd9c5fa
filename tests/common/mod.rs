//! Helpers shared by several test files.

#![allow(dead_code)] // Each test crate that includes this module uses a different part of it.

use pgn_lsp::chess;
use pgn_lsp::ide::DocumentAnalysis;
use pgn_lsp::syntax::{Diagnostic, parse_games};

/// Every diagnostic of a text (syntax and chess layers), in file offsets, in text order.
pub fn diagnostics(text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        let analysis = chess::analyze(&game, src);
        let all = analysis.with_syntax_diagnostics(game.diagnostics);
        out.extend(all.iter().map(|d| d.shifted(start)));
    }
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out
}

/// The cursor marker of fixtures with cursors.
pub const CURSOR: &str = "<|>";

/// The text without its cursor markers, and the byte offset of each cursor in it.
pub fn cursors(marked: &str) -> (String, Vec<u32>) {
    let mut text = String::new();
    let mut offsets = Vec::new();
    for (i, piece) in marked.split(CURSOR).enumerate() {
        if i > 0 {
            offsets.push(text.len() as u32);
        }
        text.push_str(piece);
    }
    (text, offsets)
}

/// The 1-based line of `offset` in `text`.
pub fn line_of(text: &str, offset: u32) -> usize {
    text[..offset as usize].matches('\n').count() + 1
}

/// What a feature shows at every cursor of a marked fixture, each under a heading with the
/// cursor's byte offset and line: `show` gets the analysis and text without markers and the
/// cursor's offset.
pub fn at_each_cursor(
    marked: &str,
    mut show: impl FnMut(&DocumentAnalysis, &str, u32) -> String,
) -> String {
    let (text, offsets) = cursors(marked);
    let analysis = DocumentAnalysis::new(&text);
    let mut out = String::new();
    for offset in offsets {
        out += &format!("── cursor at byte {offset} (line {})\n", line_of(&text, offset));
        out += &show(&analysis, &text, offset);
    }
    out
}

/// Run the `pgn-lsp` binary with `args` in `dir`, `stdin` written to its standard input (from
/// a thread of its own, so that a large input and output cannot block each other).
pub fn run_pgn_lsp(args: &[&str], dir: &std::path::Path, stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pgn-lsp"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&input).expect("stdin is written"));
    let output = child.wait_with_output().expect("the binary runs");
    writer.join().expect("the stdin writer finishes");
    output
}
