//! `check --fix`: every certain fix applied, file by file, before the file is checked.
//!
//! A game's fixes are taken as the editor's "Fix all" takes them: the first (best) fix of each
//! diagnostic the filter keeps, in text order, leaving out a fix that collides with one taken
//! before it. Then the whole text is read again and the round repeats, since a fix can make
//! room for another (two fixes at one place: tags inserted before a move number the number's
//! fix replaces) or change where a game ends (a tag pair repaired, a comment closed), until a
//! round finds nothing to fix, or after [`MAX_ROUNDS`]: a second run then finds nothing either.
//! Games without fixes keep their text byte for byte, and so does a game after one with an
//! unclosed comment (`syntax::unsettles_next_game`: it may be text of the comment).
//!
//! The fixed text is written as `fmt` writes (`rewrite`): a named file atomically in place, in
//! the encoding it was read in, the lines a fix adds ending as the file's first line does;
//! standard input to standard output. In a file read as Latin-1, a fix that writes a character
//! beyond Latin-1 is not taken, so that the file keeps its encoding; a file that is not valid
//! UTF-16 is not fixed at all (`rewrite`).

use std::borrow::Cow;
use std::convert::Infallible;
use std::io::{self, Write};

use super::batches::{ParsedGame, for_each_batch};
use super::game_report::game_diagnostics;
use super::input::Input;
use super::rewrite::{Failure, Rewrite, encode, refuse_lossy, refuse_too_long};
use crate::syntax::{DiagnosticFilter, Game, unsettles_next_game};
use crate::text::{EditSet, TextEdit, line_break_of, with_line_break};

/// The most rounds of fixes a text gets. One round fixes nearly everything; a second takes the
/// fixes the first left out as colliding; more are for what fixes uncover.
pub const MAX_ROUNDS: usize = 8;

/// Apply the certain fixes to the file `input` was read from (`path`, or `-` for standard
/// input), writing the fixed text; returns the input to check afterwards (the file as now
/// written) and how many fixes were made.
pub fn fix_input(
    input: Input,
    path: &str,
    filter: &DiagnosticFilter,
) -> Result<(Input, u64), Failure> {
    let source = input.decode(false);
    refuse_too_long(source.name, source.text.len(), "fixed")?;
    refuse_lossy(&source, "fixed")?;
    let (fixed, count) = fix_text(&source.text, filter, source.is_latin1());
    if path == "-" {
        let bytes = encode(&fixed, source.encoding).into_owned();
        let mut out = io::stdout().lock();
        out.write_all(&bytes)
            .and_then(|()| out.flush())
            .map_err(|e| Failure::io("standard output", e))?;
        return Ok((Input::from_bytes(source.name, bytes), count));
    }
    let mut rewrite = Rewrite::new(path, &source.text, source.encoding);
    rewrite.take(&fixed)?;
    let changed = rewrite.finish()?;
    drop(source);
    if !changed {
        return Ok((input, count));
    }
    // What is checked is what the file now holds.
    let written = Input::open(path).map_err(|e| Failure::io(path, e))?;
    Ok((written, count))
}

/// `text` (decoded as Latin-1 when `latin1`) with every game's certain fixes made, of the
/// diagnostics `filter` keeps, round after round, and how many were made; `text` itself when
/// there was nothing to fix.
pub fn fix_text<'a>(text: &'a str, filter: &DiagnosticFilter, latin1: bool) -> (Cow<'a, str>, u64) {
    let mut text = Cow::Borrowed(text);
    let mut count = 0;
    for _ in 0..MAX_ROUNDS {
        let Some((fixed, made)) = fix_round(&text, filter, latin1) else { break };
        text = Cow::Owned(fixed);
        count += made;
    }
    (text, count)
}

/// One round: every game read and its certain fixes made, the games in parallel. Returns the
/// fixed text and how many fixes were made, or `None` when there was nothing to fix (without
/// having copied the text: the round that confirms a file is settled copies nothing).
fn fix_round(text: &str, filter: &DiagnosticFilter, latin1: bool) -> Option<(String, u64)> {
    // Begun at the first game with a fix: the games before it are the text up to it.
    let mut fixed: Option<String> = None;
    let mut count = 0;
    let line_break = line_break_of(text);
    // Whether the game before left the next one's fixes uncertain.
    let mut unsettled = false;
    let Ok(()) = for_each_batch(
        text,
        None,
        |parsed: ParsedGame| {
            let (range, source) = (parsed.start()..parsed.end(), parsed.source());
            let unsettles_next = unsettles_next_game(&parsed.game.diagnostics);
            (range, fix_game(parsed.game, source, filter, latin1, line_break), unsettles_next)
        },
        |games, _| {
            for (range, game, unsettles_next) in games {
                let game =
                    if std::mem::replace(&mut unsettled, unsettles_next) { None } else { game };
                let Some((game_text, made)) = game else {
                    if let Some(fixed) = &mut fixed {
                        fixed.push_str(&text[range]);
                    }
                    continue;
                };
                let fixed = fixed.get_or_insert_with(|| {
                    let mut fixed = String::with_capacity(text.len());
                    fixed.push_str(&text[..range.start]);
                    fixed
                });
                fixed.push_str(&game_text);
                count += made;
            }
            Ok::<(), Infallible>(())
        },
    );
    fixed.map(|fixed| (fixed, count))
}

/// The text of one game (`game`, parsed from `src`) with its certain fixes made, and how many
/// were made; `None` when it has none. The fixes' new lines end with the file's `line_break`.
fn fix_game(
    game: Game,
    src: &str,
    filter: &DiagnosticFilter,
    latin1: bool,
    line_break: &str,
) -> Option<(String, u64)> {
    let mut edits = EditSet::default();
    let mut count = 0;
    for diagnostic in game_diagnostics(game, src, None, filter) {
        let Some(fix) = diagnostic.fixes.first() else { continue };
        if latin1 && !fix.edits.iter().all(|e| e.new_text.chars().all(is_latin1)) {
            continue;
        }
        let fix_edits: Vec<TextEdit> = fix
            .edits
            .iter()
            .map(|e| {
                let after_cr = src[..e.range.start as usize].ends_with('\r');
                TextEdit::new(e.range, with_line_break(&e.new_text, line_break, after_cr))
            })
            .collect();
        if edits.take(&fix_edits) {
            count += 1;
        }
    }
    (!edits.is_empty()).then(|| (TextEdit::apply_all(src, &edits.into_edits()), count))
}

fn is_latin1(c: char) -> bool {
    u32::from(c) <= 0xFF
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{Code, Severity, parse_game};

    fn fix(src: &str, filter: &DiagnosticFilter, latin1: bool) -> (String, u64) {
        let (text, count) = fix_text(src, filter, latin1);
        (text.into_owned(), count)
    }

    fn all() -> DiagnosticFilter {
        DiagnosticFilter::default()
    }

    /// The Seven Tag Roster with `result`, then `movetext`.
    fn game(result: &str, movetext: &str) -> String {
        format!(
            "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n\
             [Black \"b\"]\n[Result \"{result}\"]\n\n{movetext}\n"
        )
    }

    #[test]
    fn fixes_are_made_round_after_round() {
        // The tags inserted before the first move number and the number's own fix collide: the
        // second round makes the one the first left out.
        let src = "2. e4 e5 3. Nf3 *\n";
        let (fixed, count) = fix(src, &all(), false);
        let roster = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                      [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n";
        assert_eq!(fixed, format!("{roster}1. e4 e5 2. Nf3 *\n"));
        assert_eq!(count, 3);
        let (again, none) = fix(&fixed, &all(), false);
        assert_eq!((again, none), (fixed, 0), "a second run fixes nothing");
    }

    #[test]
    fn a_fix_that_changes_two_places_counts_once() {
        // Mate contradicts the marker: the fix writes 0-1 in the marker and the Result tag.
        let src = game("1/2-1/2", "1. f3 e5 3. g4 Qh4# 1/2-1/2");
        let (fixed, count) = fix(&src, &all(), false);
        assert_eq!(fixed, game("0-1", "1. f3 e5 2. g4 Qh4# 0-1"));
        assert_eq!(count, 2);
    }

    #[test]
    fn only_the_diagnostics_the_filter_keeps_are_fixed() {
        let src = "[Event \"x\"]\n\n1. e4 e5 2. Ng1f3 *\n";
        let (fixed, _) = fix(src, &all(), false);
        assert!(fixed.starts_with("[Event \"x\"]\n[Site \"?\"]"), "{fixed}");
        assert!(fixed.contains("2. Nf3 *"), "{fixed}");
        let warnings = DiagnosticFilter { min_severity: Severity::Warning, ignored: vec![] };
        assert_eq!(fix(src, &warnings, false).0, "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n");
        let ignored =
            DiagnosticFilter { min_severity: Severity::Hint, ignored: vec![Code::NonCanonicalSan] };
        assert!(fix(src, &ignored, false).0.contains("2. Ng1f3 *"));
    }

    #[test]
    fn a_game_without_fixes_keeps_its_text() {
        // An illegal move has no certain fix.
        let src = game("*", "1. e4 {a comment}   e5 (1... c5) 2. Qh5 Kxe5 *");
        assert!(fix_game(parse_game(&src), &src, &all(), false, "\n").is_none());
    }

    #[test]
    fn a_latin1_file_takes_no_fix_beyond_latin1() {
        // `&plusmn;` stands for ±, which Latin-1 has; `&#8723;` for ∓, which it has not.
        let src = "[Event \"x\"]\n\n1. e4 &plusmn; e5 &#8723; *\n";
        let (utf8, _) =
            fix(src, &DiagnosticFilter { min_severity: Severity::Warning, ignored: vec![] }, false);
        assert!(utf8.contains("1. e4 ± e5 ∓ *"), "{utf8}");
        let (latin1, _) =
            fix(src, &DiagnosticFilter { min_severity: Severity::Warning, ignored: vec![] }, true);
        assert!(latin1.contains("1. e4 ± e5 &#8723; *"), "{latin1}");
    }
}
