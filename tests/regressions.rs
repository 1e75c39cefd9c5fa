//! Every input that once broke a property, replayed. `tests/regressions/<target>/<name>` holds
//! an input exactly as the fuzz target `<target>` (or the property test of the same property)
//! got it; each is run through that target's `run` again, and so are the fuzz targets' seeds.
//! The tests below the replay state the bugs those inputs found in words, on the smallest text
//! that shows each.

mod common;

#[allow(dead_code)]
#[path = "invariants/mod.rs"]
mod invariants;

use std::path::Path;

use invariants::{document, fix, format, ide, lossless, reparse, replay};
use pgn_lsp::fmt::FormatOptions;
use pgn_lsp::syntax::{Code, Diagnostic, parse_games};

/// A property checked on raw bytes, as a fuzz target runs it.
type Run = fn(&[u8]);

/// The fuzz targets and the property each checks.
const TARGETS: &[(&str, Run)] = &[
    ("parse", lossless::run),
    ("reparse", reparse::run),
    ("format", format::run),
    ("replay", replay::run),
    ("document", document::run),
    ("fix", fix::run),
    ("ide", ide::run),
];

#[test]
fn saved_inputs_hold_their_properties() {
    assert!(replay_directory("tests/regressions") > 0, "no saved input");
}

/// The fuzz targets' seeds (`fuzz/corpus/<target>/`) hold the properties too, and every target
/// has seeds.
#[test]
fn seeds_hold_their_properties() {
    replay_directory("fuzz/corpus");
    for (target, _) in TARGETS {
        let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
        assert!(seeds.read_dir().is_ok_and(|mut d| d.next().is_some()), "no seeds for {target}");
    }
}

/// Run every file of `<dir>/<target>/` through the target's property; returns how many.
fn replay_directory(dir: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut replayed = 0;
    for entry in std::fs::read_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display())) {
        let dir = entry.unwrap().path();
        let target = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some((_, run)) = TARGETS.iter().find(|(name, _)| *name == target) else {
            panic!("{} names no fuzz target", dir.display());
        };
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            println!("{target}: {}", path.display());
            run(&data);
            replayed += 1;
        }
    }
    replayed
}

/// UCI writes a capture without `x`: `f1a6` is `Bxa6`, a legal move to read leniently, not an
/// illegal pawn move from f1.
#[test]
fn uci_and_long_algebraic_piece_captures_without_x_are_read() {
    for (text, capture) in [
        ("1. e4 d5 2. e4d5 Qxd5 3. b1c3 a6 4. f1a6 *", "f1a6"),
        ("1. e4 d5 2. e4-d5 Qxd5 3. b1-c3 a6 4. f1-a6 *", "f1-a6"),
    ] {
        let found = common::diagnostics(text);
        assert!(
            !found.iter().any(|d| matches!(d.code, Code::IllegalMove | Code::AmbiguousMove)),
            "{found:#?}"
        );
        let at = text.find(capture).unwrap() as u32;
        let d = found.iter().find(|d| d.range.start == at).expect("a diagnostic at the capture");
        assert_eq!(d.code, Code::NonCanonicalSan);
        assert_eq!(d.fixes[0].edits[0].new_text, "Bxa6");
    }
}

/// Reduced export format keeps only the Seven Tag Roster (§3.2.4), but a game from a FEN
/// cannot lose it: its moves would be illegal from the standard position.
#[test]
fn reduced_export_keeps_the_start_position() {
    let text = "[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 1\"]\n\
                [Variant \"Standard\"]\n[Annotator \"x\"]\n\n1... Kd7 2. O-O *\n";
    let options = FormatOptions { reduced: true, ..FormatOptions::default() };
    format::check(&format::Case { options: options.clone(), text: text.to_owned() });
    let output = pgn_lsp::fmt::format_text(text, &options);
    for tag in
        ["[SetUp \"1\"]", "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 1\"]", "[Variant \"Standard\"]"]
    {
        assert!(output.contains(tag), "{tag} lost: {output}");
    }
    assert!(!output.contains("Annotator"), "{output}");
}

/// Comment text re-filled must not start a line with what reads as a tag pair: neither
/// `[Event "y"` nor `[ [ [Event "y"`, since a tag line may open with several brackets and
/// would end the comment (found by the formatter's property test).
#[test]
fn a_refilled_comment_starts_no_line_with_brackets_before_a_tag_pair() {
    let text = "1. a3 ( $0 { 0:01:02] a [\t[ [Event \"y\"} ) *\n";
    for line_width in [12, 20, 30] {
        let options = FormatOptions { line_width, ..FormatOptions::default() };
        format::check(&format::Case { options, text: text.to_owned() });
    }
}

/// Text that does not belong in a tag pair is quoted in the message only as an excerpt.
#[test]
fn stray_text_in_a_tag_pair_is_quoted_briefly() {
    let text = format!("[Event {} \"x\"]\n\n1. e4 *\n", "ÿ".repeat(10_000));
    let found = common::diagnostics(&text);
    let d = found.iter().find(|d| d.code == Code::MalformedTag).expect("a malformed tag");
    assert!(d.message.chars().count() < 80, "{}", d.message);
    assert!(d.message.starts_with("unexpected \"ÿÿÿ"), "{}", d.message);
}

/// A long tag value written without quotes is quoted in the message and in the fix's title
/// only as an excerpt; the fix itself writes all of it.
#[test]
fn a_long_unquoted_tag_value_is_quoted_briefly() {
    let value = "ÿ".repeat(10_000);
    let text = format!("[Event {value}]\n\n1. e4 *\n");
    let found = common::diagnostics(&text);
    let d = found.iter().find(|d| d.code == Code::MalformedTag).expect("a malformed tag");
    assert!(d.message.chars().count() < 100, "{}", d.message);
    assert!(d.message.starts_with("the value of tag Event is not quoted"), "{}", d.message);
    assert!(d.fixes[0].title.chars().count() < 60, "{}", d.fixes[0].title);
    assert_eq!(d.fixes[0].edits[0].new_text, format!("[Event \"{value}\"]"));
}

/// A game that loses its tag section (reduced export format drops tags outside the roster)
/// must not run into the game before when that one stays open: kept with an unclosed comment,
/// or without a termination marker.
#[test]
fn a_game_without_its_tags_does_not_join_an_open_game_before_it() {
    let options =
        FormatOptions { reduced: true, add_missing_tags: false, ..FormatOptions::default() };
    for text in [
        "[Event \"a\"]\n1. e4 { typing a comment\n\n[Foo \"b\"]\n1. d4 *\n",
        "[Foo \"a\"]\n1. e4\n\n[Foo \"b\"]\n1. d4 *\n",
        "1. e4 ( 1. d4\n\n[Foo \"b\"]\n1. c4 *\n",
    ] {
        format::check(&format::Case { options: options.clone(), text: text.to_owned() });
        let output = pgn_lsp::fmt::format_text(text, &options);
        assert_eq!(parse_games(&output).count(), 2, "{output:?}");
    }
}

/// A `%` after other text on its line, on a line after the termination marker, is no escape
/// line; as the first byte of a game of its own it would read as one, commentary that joins the
/// game before once the formatter has put it at the start of a line. It stays with its game,
/// after the termination marker, and the game is kept as it is.
#[test]
fn a_percent_sign_after_a_comment_does_not_start_a_game() {
    let options = FormatOptions { reflow_comments: false, ..FormatOptions::default() };
    let text = "*{\n}%";
    format::check(&format::Case { options: options.clone(), text: text.to_owned() });
    assert_eq!(parse_games(text).count(), 1);
    assert_eq!(pgn_lsp::fmt::format_text(text, &options), text);
}

/// A comment kept as written (no re-flow) with CR CR LF in it: the CRLF became LF and the CR
/// before it stayed, a new CRLF that the next formatting changed again. The whole line end
/// becomes one line break (CRLF, the text's first line ending so).
#[test]
fn a_cr_before_a_crlf_in_a_kept_comment_formats_once() {
    let options = FormatOptions { reflow_comments: false, ..FormatOptions::default() };
    let text = "1. e4 { a\r\r\nb } *\n";
    format::check(&format::Case { options: options.clone(), text: text.to_owned() });
    let formatted = pgn_lsp::fmt::format_text(text, &options);
    assert!(formatted.contains("{ a\r\nb }") && !formatted.contains("\r\r"), "{formatted:?}");
}

/// A tag value with a lone backslash (`\x`, which §7 does not define) is written again with the
/// backslash escaped; at 255 characters that took the string over the import format's limit,
/// a diagnostic the input did not have, while the limit counted an escape as two characters.
/// It counts the string's data (§7), which escaping leaves as it was.
#[test]
fn escaping_a_tag_value_never_takes_it_over_the_string_limit() {
    let options = FormatOptions::default();
    for value in [format!("\\x{}", "a".repeat(253)), "\\x".into()] {
        let text = format!("[Annotator \"{value}\"]\n\n1. e4 *\n");
        format::check(&format::Case { options: options.clone(), text: text.clone() });
        let output = pgn_lsp::fmt::format_text(&text, &options);
        let escaped = value.replace('\\', "\\\\");
        assert!(output.contains(&format!("[Annotator \"{escaped}\"]")), "{output}");
    }
}

/// Variations nested before the first move of their line are one mistake, reported once: a
/// million `(` used to give a million diagnostics (and minutes of rendering).
#[test]
fn nested_variations_before_the_first_move_are_reported_once() {
    let text = format!("1. e4 {}", "(".repeat(1000));
    let found = common::diagnostics(&text);
    let count = |code| found.iter().filter(|d| d.code == code).count();
    assert_eq!(count(Code::UnexpectedToken), 1, "{found:#?}");
    assert_eq!(count(Code::UnclosedVariation), 1);
}

/// Garbage gives at most `MAX_PER_CODE` diagnostics of a code per game, then one that counts
/// the rest, in the parser and in the chess replay alike.
#[test]
fn diagnostics_of_one_code_stop_at_the_limit_with_a_count_of_the_rest() {
    use pgn_lsp::syntax::diagnostic::MAX_PER_CODE;
    let over = MAX_PER_CODE as usize + 5;
    let stray = format!("1. e4 {} *", ") ".repeat(over));
    // Knights out and back in UCI: each move is legal and non-canonical.
    let uci: String = (0..over / 4 + 1)
        .map(|i| format!("{}. g1f3 g8f6 {}. f3g1 f6g8 ", 2 * i + 1, 2 * i + 2))
        .collect();
    for (text, code) in [(stray, Code::UnexpectedToken), (uci + "*", Code::NonCanonicalSan)] {
        let found: Vec<Diagnostic> =
            common::diagnostics(&text).into_iter().filter(|d| d.code == code).collect();
        assert_eq!(found.len(), MAX_PER_CODE as usize + 1, "{code:?}");
        let last = found.iter().max_by_key(|d| d.range.start).unwrap();
        assert!(last.message.contains(" more "), "{}", last.message);
    }
}

/// A fix that removes text first on a line (stray brackets after the last tag pair, an empty
/// variation) left the `%` after it in the first column, where it starts an escape line (§6)
/// that hides the rest of the line: a comment opened there vanished, and the next round of
/// `check --fix` renumbered the moves that had been inside it. A space now stays before the `%`.
#[test]
fn a_removal_never_puts_a_percent_sign_first_on_its_line() {
    use pgn_lsp::cli::fix::fix_text;
    let all = pgn_lsp::syntax::DiagnosticFilter::default();
    for text in
        ["[Event \"x\"]\n]]%{ a comment\n2. e4 }\n1. d4 *\n", "1. e4 e5\n()%{ 3. d4 } 2. Nf3 *\n"]
    {
        let (fixed, count) = fix_text(text, &all, false);
        assert!(count > 0, "{text:?}");
        assert!(!fixed.lines().any(|l| l.starts_with('%')), "{fixed:?}");
    }
}

/// Sorting the games moved each game without the blanks at its end, but a tag value left
/// unclosed runs to the end of its line, blanks included: `[Site" ` lost its value's space, so
/// a second sort, which saw a site of `""` where the first had seen `" "`, ordered the games
/// again (found by the `ide` fuzz target). Each game now moves from its first element to the
/// end of its last, and the sort is made only when every game comes back byte for byte.
#[test]
fn sorting_games_keeps_the_blank_of_an_unclosed_tag_value() {
    ide::check(&ide::Case {
        text: "[White\"a\n*\nd\n[White\"T\"][Site\" ".into(),
        cursors: vec![0],
    });
}

/// The selection ranges at a cursor in the blank lines between two games: none, where they
/// were the game's ranges, which do not contain the cursor (LSP wants each to contain it;
/// found by the `ide` property test).
#[test]
fn no_selection_range_in_the_blanks_between_games() {
    ide::check(&ide::Case { text: "1. e4 *\n\n\n1. d4 *\n".into(), cursors: vec![34_000] });
}
