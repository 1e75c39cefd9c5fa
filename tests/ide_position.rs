//! Live-board fixtures: each `<|>` in a PGN file under `fixtures/ide/position` is a cursor; the
//! snapshot holds the board at every cursor (the move that led to it, FEN, side to move, status,
//! the text diagram). Files under `fixtures/ide/position-svg` have one cursor each and snapshot
//! the SVG drawn, seen from Black when the file name ends in `-black`. Properties: every offset
//! of every fixture gives a board or none without panicking, and along a main line the board
//! at each move is the position shakmaty reaches by playing the moves up to it.

mod common;

use std::fmt::Write;

use common::{CURSOR, at_each_cursor, cursors};

use pgn_lsp::ide::{BoardPosition, DocumentAnalysis, ShownMove, board_position};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{Chess, Color, EnPassantMode, Position};

fn shown(text: &str, m: &ShownMove) -> String {
    let square = |s: Option<shakmaty::Square>| s.map_or("-".to_owned(), |s| s.to_string());
    format!(
        "{} (SAN {}, written `{}`, {} -> {})",
        m.label,
        m.san,
        &text[m.range.start as usize..m.range.end as usize],
        square(m.from),
        square(m.to)
    )
}

fn describe(text: &str, board: &BoardPosition) -> String {
    let mut out = String::new();
    match &board.last_move {
        Some(m) => writeln!(out, "after {}", shown(text, m)),
        None => writeln!(out, "start position"),
    }
    .unwrap();
    if let Some(m) = &board.illegal_move {
        writeln!(out, "stopped before {}", shown(text, m)).unwrap();
    }
    let turn = if board.turn == Color::White { "White" } else { "Black" };
    writeln!(out, "{turn} to move, {:?}, depth {}", board.status, board.depth).unwrap();
    writeln!(out, "{}\n{}", board.fen, board.diagram).unwrap();
    out
}

fn check(marked: &str) -> String {
    at_each_cursor(marked, |analysis, text, offset| {
        match board_position(analysis, &text, offset, Color::White) {
            Some(board) => describe(text, &board) + "\n",
            None => "no board\n\n".to_owned(),
        }
    })
}

#[test]
fn position_fixtures() {
    insta::glob!("fixtures/ide/position/*.pgn", |path| {
        let marked = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&marked));
    });
}

/// The SVG with one element per line, so that a snapshot diff shows which square changed.
fn svg_lines(svg: &str) -> String {
    svg.replace("><", ">\n<")
}

#[test]
fn svg_fixtures() {
    insta::glob!("fixtures/ide/position-svg/*.pgn", |path| {
        let marked = std::fs::read_to_string(path).unwrap();
        let (text, offsets) = cursors(&marked);
        assert_eq!(offsets.len(), 1, "one cursor per SVG fixture");
        let black = path.file_stem().unwrap().to_str().unwrap().ends_with("-black");
        let orientation = if black { Color::Black } else { Color::White };
        let analysis = DocumentAnalysis::new(&text);
        let board = board_position(&analysis, &text.as_str(), offsets[0], orientation).unwrap();
        insta::assert_snapshot!(svg_lines(&board.svg));
    });
}

#[test]
fn every_offset_of_every_fixture_gives_a_board_or_none() {
    for dir in ["tests/fixtures/ide/position", "tests/fixtures/ide/hover"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let marked = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let text = marked.replace(CURSOR, "");
            let analysis = DocumentAnalysis::new(&text);
            for offset in 0..=text.len() as u32 {
                if let Some(board) = board_position(&analysis, &text.as_str(), offset, Color::Black)
                {
                    assert!(Fen::from_ascii(board.fen.as_bytes()).is_ok(), "{}", board.fen);
                    assert!(board.svg.starts_with("<svg ") && board.svg.ends_with("</svg>"));
                }
            }
        }
    }
}

#[test]
fn along_a_main_line_the_board_is_the_position_after_each_move() {
    let sans = ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Qc2", "O-O", "a3", "Bxc3+", "Qxc3", "d5"];
    let mut text = String::from("[Event \"?\"]\n\n");
    let mut ends = Vec::new();
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(san);
        ends.push(text.len() as u32);
        text.push(' ');
    }
    text.push('*');
    let analysis = DocumentAnalysis::new(&text);
    let mut pos = Chess::default();
    for (san, end) in sans.iter().zip(ends) {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        let board = board_position(&analysis, &text.as_str(), end, Color::White).unwrap();
        assert_eq!(board.fen, Fen::from_position(&pos, EnPassantMode::Legal).to_string());
        assert_eq!(board.last_move.unwrap().san, *san);
    }
}
