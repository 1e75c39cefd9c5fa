//! The adversarial inputs (`tests/adversarial_inputs`) opened in the real server: it publishes
//! diagnostics for the document (at most its limit, the most severe first; the expected ones
//! when they all fit), answers a hover and a formatting request on it, and still ends with
//! status 0 on `shutdown` and `exit`.
//!
//! `cargo test` opens each input at its test size; `cargo test --release --test
//! adversarial_server -- --ignored` (`scripts/adversarial.sh`) opens the full sizes and bounds
//! the server's peak memory (`VmHWM`) while it analyses and publishes by [`memory_bound`],
//! printing the times and peaks, and the peak once it has also answered the formatting request
//! (not bounded: a response of a million edits is a million JSON objects in tower-lsp).

mod adversarial_inputs;
mod lsp_client;

use std::time::Instant;

use adversarial_inputs::{INPUTS, Input, Size, decode, input};
use lsp_client::{Client, vscode_capabilities};
use pgn_lsp::syntax::{Code, Severity, parse_games};
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_pgn-lsp");
const URI: &str = "file:///adversarial.pgn";
/// The server's default `diagnostics.limit`.
const LIMIT: usize = 1000;

/// The most memory the server may use for a document of `input_bytes` in `games` games:
/// linear in the text (the message, the text, its rope) and in the games (each keeps its length
/// and its diagnostics, a missing-tag one with its fix at least), with room for the runtime.
fn memory_bound(input_bytes: usize, games: usize) -> u64 {
    20 * input_bytes as u64 + 2048 * games as u64 + (256 << 20)
}

/// What opening one input took.
struct Opened {
    /// From `didOpen` to its diagnostics.
    seconds: f64,
    /// The server's peak resident memory, in bytes, once it has published the diagnostics and
    /// answered a hover, then once it has answered the formatting request too.
    peak: u64,
    peak_with_formatting: u64,
}

/// Open `input` in a fresh server and check how it copes; ends the server.
fn open(input: &Input) -> Opened {
    let name = input.name;
    let text = decode(&input.bytes);
    let mut client = Client::spawn(BINARY, &[]);
    client.initialize(vscode_capabilities(), Value::Null);
    let started = Instant::now();
    client.open(URI, &text);
    let diagnostics = client.diagnostics(URI, 1);
    let seconds = started.elapsed().as_secs_f64();
    check_diagnostics(input, &diagnostics);

    let position = json!({ "line": 0, "character": 1 });
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": URI }, "position": position }),
    );
    assert!(client.response(hover).get("error").is_none(), "{name}: hover failed");
    let peak = peak_memory(client.pid());
    let formatting = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert!(client.response(formatting).get("error").is_none(), "{name}: formatting failed");

    let peak_with_formatting = peak_memory(client.pid());
    client.call("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let status = client.wait_for_exit();
    assert_eq!(status.code(), Some(0), "{name}: the server's exit status");
    Opened { seconds, peak, peak_with_formatting }
}

/// At most the limit and a note; the diagnostics `check` gives when they all fit (but
/// `not-utf8`: the server is given text, not bytes), else at least one of each expected error
/// (errors are published first).
fn check_diagnostics(input: &Input, diagnostics: &[Value]) {
    let name = input.name;
    assert!(diagnostics.len() <= LIMIT + 1, "{name}: {} diagnostics", diagnostics.len());
    let count = |code: Code| diagnostics.iter().filter(|d| d["code"] == code.as_str()).count();
    let truncated = diagnostics.len() > LIMIT;
    for &(code, want) in input.expected.iter().filter(|(code, _)| *code != Code::NotUtf8) {
        if !truncated {
            let found = count(code);
            assert!(want.holds(found), "{name}: {found} {}, {want:?} expected", code.as_str());
        } else if code.default_severity() == Severity::Error {
            assert!(count(code) > 0, "{name}: no {} among the published", code.as_str());
        }
    }
    if !truncated {
        let errors = diagnostics.iter().any(|d| d["severity"] == 1);
        assert_eq!(errors, input.has_error, "{name}: whether errors are published");
    }
}

/// The peak resident memory of process `pid` (Linux `VmHWM`), in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("a VmHWM line");
    let kib: u64 = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("KiB");
    kib * 1024
}

fn open_at_test_size(name: &str) {
    open(&input(name, Size::Test));
}

#[test]
fn deeply_nested_variations() {
    open_at_test_size("nested-variations");
}

#[test]
fn a_flood_of_open_braces() {
    open_at_test_size("open-braces");
}

#[test]
fn a_flood_of_stray_closing_parens() {
    open_at_test_size("stray-closing-parens");
}

#[test]
fn one_very_long_line() {
    open_at_test_size("long-line");
}

#[test]
fn a_great_many_one_move_games() {
    open_at_test_size("one-move-games");
}

#[test]
fn random_binary_with_nul_bytes() {
    open_at_test_size("random-binary");
}

#[test]
fn invalid_utf8() {
    open_at_test_size("invalid-utf8");
}

#[test]
fn a_ten_thousand_character_symbol() {
    open_at_test_size("long-symbol");
}

#[test]
fn twenty_digit_nags_and_move_numbers() {
    open_at_test_size("huge-numbers");
}

#[test]
fn fens_with_twenty_kings_or_a_pawn_on_the_first_rank() {
    open_at_test_size("impossible-fens");
}

#[test]
fn ten_thousand_tags_in_one_game() {
    open_at_test_size("ten-thousand-tags");
}

#[test]
fn a_one_megabyte_comment() {
    open_at_test_size("megabyte-comment");
}

#[test]
fn a_game_of_uci_moves() {
    open_at_test_size("uci-moves");
}

#[test]
fn every_input_has_a_test() {
    let source = include_str!("adversarial_server.rs");
    for (name, _) in INPUTS {
        assert!(source.contains(&format!("open_at_test_size(\"{name}\")")), "no test opens {name}");
    }
}

/// Every input at full size in the release server, with time and peak memory: `cargo test
/// --release --test adversarial_server -- --ignored --nocapture`.
#[test]
#[ignore = "full sizes: minutes and gigabytes; run by scripts/adversarial.sh"]
fn full_size_inputs_in_bounded_memory() {
    println!("| input | size | games | diagnostics published | server peak | with formatting |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut over = Vec::new();
    for (name, make) in INPUTS {
        let input = make(Size::Full);
        let (size, games) = (input.bytes.len(), parse_games(&decode(&input.bytes)).count());
        let opened = open(&input);
        println!(
            "| {name} | {} | {games} | {:.2} s | {} | {} |",
            megabytes(size as u64, size),
            opened.seconds,
            megabytes(opened.peak, size),
            megabytes(opened.peak_with_formatting, size)
        );
        if opened.peak > memory_bound(size, games) {
            over.push(format!("{name}: {} bytes for {size} in {games} games", opened.peak));
        }
    }
    assert!(over.is_empty(), "peak memory over the bound: {over:#?}");
}

/// `bytes` in megabytes, with its ratio to an input of `input` bytes when that is a megabyte or
/// more.
fn megabytes(bytes: u64, input: usize) -> String {
    let mb = format!("{:.1} MB", bytes as f64 / 1e6);
    if input >= 1_000_000 { format!("{mb} ({:.1}×)", bytes as f64 / input as f64) } else { mb }
}
