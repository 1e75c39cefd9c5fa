//! Adversarial inputs for the syntax and chess layers: huge nesting, huge tokens, huge counts.
//! Each must give a clear diagnostic with a short message, use memory in proportion to the
//! input (no recursion proportional to nesting), and never panic. The command line and the
//! server are tested on the same inputs in their own tests.

mod common;

use pgn_lsp::syntax::{Code, Diagnostic, parse_games};

/// Every diagnostic of a text, checking that no message quotes a huge piece of it.
fn diagnostics(text: &str) -> Vec<Diagnostic> {
    let out = common::diagnostics(text);
    for d in &out {
        assert!(d.message.len() < 300, "message too long: {}", &d.message[..300]);
    }
    out
}

fn count(diagnostics: &[Diagnostic], code: Code) -> usize {
    diagnostics.iter().filter(|d| d.code == code).count()
}

#[test]
fn a_million_nested_variations() {
    let text = format!("1. e4 {}", "(".repeat(1_000_000));
    let d = diagnostics(&text);
    assert_eq!(count(&d, Code::UnclosedVariation), 1);
    assert!(d.iter().any(|d| d.message.contains("1000000 variations")));
}

#[test]
fn a_million_open_braces() {
    let text = format!("1. e4 {}", "{".repeat(1_000_000));
    let d = diagnostics(&text);
    assert_eq!(count(&d, Code::UnterminatedComment), 1);
}

#[test]
fn a_ten_megabyte_line() {
    let text = format!("[Event \"x\"]\n\n{}*\n", "1. e4 e5 2. Nf3 Nc6 3. Nd4 ".repeat(400_000));
    let d = diagnostics(&text);
    assert_eq!(count(&d, Code::LineTooLong), 1);
    assert_eq!(count(&d, Code::IllegalMove), 1, "one bad move, one diagnostic");
}

#[test]
fn two_hundred_thousand_one_move_games() {
    let text = "1. e4 *\n".repeat(200_000);
    assert_eq!(parse_games(&text).count(), 200_000);
}

#[test]
fn binary_with_nul_bytes() {
    let text: String = (0..=255u8).cycle().take(100_000).map(char::from).collect();
    let d = diagnostics(&text);
    assert!(count(&d, Code::UnexpectedToken) > 0);
}

#[test]
fn a_ten_thousand_character_symbol() {
    let text = format!("1. {} *", "a".repeat(10_000));
    let d = diagnostics(&text);
    assert_eq!(count(&d, Code::InvalidSan), 1);
}

#[test]
fn huge_numbers() {
    let d = diagnostics("1. e4 $99999999999999999999 99999999999999999999. e5 *");
    assert_eq!(count(&d, Code::NagOutOfRange), 1);
    assert_eq!(count(&d, Code::MoveNumber), 1);
}

#[test]
fn impossible_fens() {
    for fen in ["KKKKKKKK/KKKKKKKK/KKKK4/8/8/8/8/k7 w - - 0 1", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"] {
        let text = format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. Kd2 *\n");
        assert_eq!(count(&diagnostics(&text), Code::InvalidFen), 1, "{fen}");
    }
}

#[test]
fn ten_thousand_tags() {
    let distinct: String = (0..10_000).map(|i| format!("[Tag{i} \"v\"]\n")).collect();
    assert_eq!(count(&diagnostics(&format!("{distinct}\n1. e4 *\n")), Code::DuplicateTag), 0);
    let same = "[Annotator \"v\"]\n".repeat(10_000);
    assert_eq!(count(&diagnostics(&format!("{same}\n1. e4 *\n")), Code::DuplicateTag), 9_999);
}

#[test]
fn a_one_megabyte_comment() {
    let text = format!("1. e4 {{{}}} e5 *", "word ".repeat(200_000));
    let mut codes: Vec<Code> = diagnostics(&text).iter().map(|d| d.code).collect();
    codes.sort();
    assert_eq!(codes, vec![Code::MissingTag, Code::LineTooLong]);
}
