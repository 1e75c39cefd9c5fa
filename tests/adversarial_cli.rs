//! The adversarial inputs (`tests/adversarial_inputs`) through the real binary's `check` and
//! `fmt`: no crash (`check`'s exit status 0 or 1 as the diagnostics say, never 2 or a panic's
//! 101; `fmt`'s 0, or 2 when it lists games it kept as they are), nothing on `check`'s standard
//! error, the diagnostics each input calls for with short messages, and a formatted file that
//! keeps all of its content and is formatted for good.
//!
//! `cargo test` runs each input at its test size. The full sizes (a million `(`, a 100 MB line,
//! a million games, ...) run on the release build with `cargo test --release --test
//! adversarial_cli -- --ignored` (`scripts/adversarial.sh`), each command under
//! `/usr/bin/time`: its peak memory must stay within [`memory_bound`] of the input's size, and
//! the times and peaks are printed as a table.

mod adversarial_inputs;

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use adversarial_inputs::{INPUTS, Input, Size, decode, input};
use pgn_lsp::fmt::FormatOptions;
use pgn_lsp::fmt::content::compare_texts;

const BINARY: &str = env!("CARGO_BIN_EXE_pgn-lsp");

/// The most memory a command may use on an input of `input_bytes`: linear in the input, with
/// room for the runtime (threads, allocator, the binary itself).
fn memory_bound(input_bytes: usize) -> u64 {
    20 * input_bytes as u64 + (256 << 20)
}

/// What one run of the binary gave.
struct Run {
    status: i32,
    stderr: String,
    /// Wall-clock seconds and peak resident memory in bytes, when measured.
    measured: Option<(f64, u64)>,
}

/// Run `pgn-lsp ARGS` with standard output to `stdout`; under `/usr/bin/time` when `measure`.
fn pgn_lsp(args: &[&str], stdout: &Path, measure: Option<&Path>) -> Run {
    let mut command = match measure {
        Some(report) => {
            let mut c = Command::new("/usr/bin/time");
            c.arg("-f").arg("%e %M").arg("-o").arg(report).arg(BINARY);
            c
        }
        None => Command::new(BINARY),
    };
    let output = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(File::create(stdout).expect("create the output file"))
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs");
    let measured = measure.map(|report| {
        let line = std::fs::read_to_string(report).expect("/usr/bin/time wrote its report");
        let line = line.lines().last().expect("a report line");
        let (seconds, kib) = line.split_once(' ').expect("two figures");
        (seconds.parse().expect("seconds"), kib.parse::<u64>().expect("KiB") * 1024)
    });
    Run {
        status: output.status.code().expect("the binary exits with a status, not a signal"),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        measured,
    }
}

/// A scratch directory holding the input as `<name>.pgn`.
fn setup(input: &Input) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join(format!("{}.pgn", input.name));
    std::fs::write(&file, &input.bytes).expect("write the input");
    (dir, file)
}

/// `check` in both output formats: the exit status the diagnostics call for, a quiet standard
/// error, the expected diagnostics (counted in the JSON output), short messages. Returns the
/// JSON run.
fn check(input: &Input, dir: &Path, file: &Path, measure: bool) -> Run {
    let name = input.name;
    let json = dir.join("check.jsonl");
    let report = dir.join("check.time");
    let run = pgn_lsp(
        &["check", "--format", "json", file.to_str().unwrap()],
        &json,
        measure.then_some(report.as_path()),
    );
    let want_status = i32::from(input.has_error);
    assert_eq!(run.status, want_status, "{name}: check exit status; stderr: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{name}: check wrote to stderr: {}", run.stderr);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for line in BufReader::new(File::open(&json).unwrap()).lines() {
        let record: serde_json::Value = serde_json::from_str(&line.unwrap()).expect("JSON lines");
        let message = record["message"].as_str().expect("a message");
        assert!(message.len() < 300, "{name}: a message of {} bytes", message.len());
        *counts.entry(record["code"].as_str().expect("a code").to_owned()).or_default() += 1;
    }
    for (code, count) in &input.expected {
        let found = counts.get(code.as_str()).copied().unwrap_or(0);
        assert!(
            count.holds(found),
            "{name}: {found} {} diagnostics, {count:?} expected",
            code.as_str()
        );
    }
    let human =
        pgn_lsp(&["check", "--color", "never", file.to_str().unwrap()], &dir.join("human"), None);
    assert_eq!(
        human.status, want_status,
        "{name}: human check exit status; stderr: {}",
        human.stderr
    );
    assert!(human.stderr.is_empty(), "{name}: human check wrote to stderr: {}", human.stderr);
    run
}

/// `fmt` in place: exit status 0, or 2 when standard error lists only games kept as they are
/// (structural errors, ...); the content kept (those games byte for byte), and the result
/// formatted for good (`fmt --check` finds nothing to do but those games again).
fn fmt(input: &Input, dir: &Path, file: &Path, measure: bool) -> Run {
    let name = input.name;
    let report = dir.join("fmt.time");
    let run = pgn_lsp(
        &["fmt", file.to_str().unwrap()],
        &dir.join("fmt.out"),
        measure.then_some(report.as_path()),
    );
    let kept_games = !run.stderr.is_empty();
    assert!(
        run.stderr.lines().all(|line| line.contains(": game kept as it is: ")),
        "{name}: fmt wrote to stderr: {}",
        run.stderr
    );
    let want_status = if kept_games { 2 } else { 0 };
    assert_eq!(run.status, want_status, "{name}: fmt exit status; stderr: {}", run.stderr);
    let output = std::fs::read(file).expect("the formatted file");
    let (before, after) = (decode(&input.bytes), decode(&output));
    if let Err(e) = compare_texts(&before, &after, &FormatOptions::default()) {
        panic!("{name}: formatting changed the content: {e}");
    }
    let listed = dir.join("again.out");
    let again = pgn_lsp(&["fmt", "--check", file.to_str().unwrap()], &listed, None);
    let listed = std::fs::read_to_string(listed).expect("the files fmt --check listed");
    assert_eq!(
        (again.status, listed.as_str()),
        (want_status, ""),
        "{name}: formatting the output again would change it"
    );
    run
}

fn check_and_fmt(name: &str) {
    let input = input(name, Size::Test);
    let (dir, file) = setup(&input);
    check(&input, dir.path(), &file, false);
    fmt(&input, dir.path(), &file, false);
}

#[test]
fn deeply_nested_variations() {
    check_and_fmt("nested-variations");
}

#[test]
fn a_flood_of_open_braces() {
    check_and_fmt("open-braces");
}

#[test]
fn a_flood_of_stray_closing_parens() {
    check_and_fmt("stray-closing-parens");
}

#[test]
fn one_very_long_line() {
    check_and_fmt("long-line");
}

#[test]
fn a_great_many_one_move_games() {
    check_and_fmt("one-move-games");
}

#[test]
fn random_binary_with_nul_bytes() {
    check_and_fmt("random-binary");
}

#[test]
fn invalid_utf8_is_read_and_written_back_as_latin1() {
    check_and_fmt("invalid-utf8");
    let input = input("invalid-utf8", Size::Test);
    let (dir, file) = setup(&input);
    fmt(&input, dir.path(), &file, false);
    let output = std::fs::read(&file).unwrap();
    assert!(std::str::from_utf8(&output).is_err(), "the Latin-1 file became UTF-8");
    assert!(output.windows(6).any(|w| w == b"Z\xfcrich"), "{}", decode(&output));
}

#[test]
fn a_ten_thousand_character_symbol() {
    check_and_fmt("long-symbol");
}

#[test]
fn twenty_digit_nags_and_move_numbers() {
    check_and_fmt("huge-numbers");
}

#[test]
fn fens_with_twenty_kings_or_a_pawn_on_the_first_rank() {
    check_and_fmt("impossible-fens");
}

#[test]
fn ten_thousand_tags_in_one_game() {
    check_and_fmt("ten-thousand-tags");
}

#[test]
fn a_one_megabyte_comment() {
    check_and_fmt("megabyte-comment");
}

#[test]
fn a_game_of_uci_moves() {
    check_and_fmt("uci-moves");
}

#[test]
fn every_input_has_a_test() {
    let source = include_str!("adversarial_cli.rs");
    for (name, _) in INPUTS {
        assert!(source.contains(&format!("check_and_fmt(\"{name}\")")), "no test runs {name}");
    }
}

/// Every input at full size on the release build, with time and peak memory: `cargo test
/// --release --test adversarial_cli -- --ignored --nocapture`.
#[test]
#[ignore = "full sizes: minutes and gigabytes; run by scripts/adversarial.sh"]
fn full_size_inputs_in_bounded_memory() {
    assert!(Path::new("/usr/bin/time").exists(), "/usr/bin/time measures the runs");
    println!("| input | size | check | check peak | fmt | fmt peak |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut over = Vec::new();
    for (name, make) in INPUTS {
        let input = make(Size::Full);
        let (dir, file) = setup(&input);
        let size = input.bytes.len();
        let mut row = format!("| {name} | {} |", megabytes(size as u64, size));
        for (command, run) in [
            ("check", check(&input, dir.path(), &file, true)),
            ("fmt", fmt(&input, dir.path(), &file, true)),
        ] {
            let (seconds, peak) = run.measured.expect("measured");
            row += &format!(" {seconds:.2} s | {} |", megabytes(peak, size));
            if peak > memory_bound(size) {
                over.push(format!("{command} {name}: {peak} bytes for {size}"));
            }
        }
        println!("{row}");
    }
    assert!(over.is_empty(), "peak memory over the bound: {over:#?}");
}

/// `bytes` in megabytes, with its ratio to an input of `input` bytes when that is a megabyte or
/// more.
fn megabytes(bytes: u64, input: usize) -> String {
    let mb = format!("{:.1} MB", bytes as f64 / 1e6);
    if input >= 1_000_000 { format!("{mb} ({:.1}×)", bytes as f64 / input as f64) } else { mb }
}
