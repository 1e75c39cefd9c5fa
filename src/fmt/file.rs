//! Whole texts, game by game: games are parsed in order, formatted in parallel in batches, and
//! handed out in order, each either formatted or kept byte for byte with the reason.
//!
//! Joining games: every formatted game ends with an empty line, and games start at the start of
//! a line, so a game never runs into the next one, with these exceptions, where a game that would
//! merge into the one before is kept as it is:
//! - after a game with no movetext, the parser starts a new game only at a tag pair the game
//!   already has (tag-only games written back to back); after a game without a termination
//!   marker, or one kept as it is (an unclosed comment runs to the next tag pair), only at a tag
//!   pair, which a formatted game may no longer have (reduced export format): checked by parsing
//!   the joint;
//! - commentary never starts a game (the parser gives it to the game before), so a formatted
//!   game without tags whose text opens with commentary (`{ c } 1. e4`, once a move number
//!   before the comment is dropped) cannot follow another game.
//!
//! A UTF-8 byte order mark at the start of the text is kept.

use std::collections::VecDeque;

use rayon::prelude::*;

use super::{FormatOptions, Formatted, format_or_keep};
use crate::syntax::{Diagnostic, Game, parse_game, parse_games};

/// Games formatted together, at most this many bytes of input ...
const BATCH_BYTES: usize = 1 << 20;
/// ... and this many games.
const BATCH_GAMES: usize = 1024;

/// Why a game was kept as it is.
#[derive(Clone, Debug)]
pub enum KeepReason {
    /// A structural syntax error (its first one; ranges relative to the whole text, or to the
    /// game from `format_or_keep`).
    SyntaxError(Diagnostic),
    /// The chess replay did not reach every move, so the moves could not be numbered.
    NotReplayed,
    /// Formatted, the game would join the game before it (see the module notes).
    WouldJoinPrevious,
    /// Formatted, the game would have no movetext left: its movetext has neither moves nor a
    /// termination marker (only move numbers and commentary), or, in reduced export format,
    /// nothing that format keeps.
    NoMovetextLeft,
}

/// What became of one game.
#[derive(Clone, Debug)]
pub enum GameOutput {
    Formatted(String),
    Kept(KeepReason),
}

/// One game of a text and its formatted form.
#[derive(Clone, Debug)]
pub struct FormattedGame<'a> {
    /// Where the game starts in the text.
    pub start: u32,
    /// The game's text.
    pub source: &'a str,
    pub output: GameOutput,
}

impl FormattedGame<'_> {
    /// The text that replaces the game: its formatted form, or its source when kept.
    pub fn text(&self) -> &str {
        match &self.output {
            GameOutput::Formatted(text) => text,
            GameOutput::Kept(_) => self.source,
        }
    }
}

/// The export-format text of a whole file.
pub fn format_text(text: &str, options: &FormatOptions) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for game in format_games(text, options) {
        out.push_str(game.text());
    }
    out
}

/// The games of `text` with their formatted forms, in order; concatenating their `text()`s
/// gives the formatted file.
pub fn format_games<'a>(
    text: &'a str,
    options: &'a FormatOptions,
) -> impl Iterator<Item = FormattedGame<'a>> + 'a {
    let mut games = parse_games(text);
    let mut ready: VecDeque<FormattedGame<'a>> = VecDeque::new();
    // The output of the last game, when the next one might join it.
    let mut previous: Option<Previous> = None;
    let mut first = true;
    std::iter::from_fn(move || {
        if ready.is_empty() {
            let mut batch: Vec<(u32, Game)> = Vec::new();
            let mut bytes = 0usize;
            while bytes < BATCH_BYTES && batch.len() < BATCH_GAMES {
                let Some((start, game)) = games.next() else { break };
                bytes += game.len as usize;
                batch.push((start, game));
            }
            let outputs: Vec<(GameOutput, bool)> =
                batch.par_iter().map(|(start, game)| output(text, *start, game, options)).collect();
            for ((start, game), (output, has_movetext)) in batch.iter().zip(outputs) {
                let source = &text[*start as usize..(*start + game.len) as usize];
                let mut formatted = FormattedGame { start: *start, source, output };
                let mut has_movetext = has_movetext;
                let joins_previous = match &formatted.output {
                    GameOutput::Formatted(out) if !first && opens_with_commentary(out) => true,
                    _ => previous.as_ref().is_some_and(|p| !p.joins_cleanly(formatted.text())),
                };
                if joins_previous {
                    formatted.output = GameOutput::Kept(KeepReason::WouldJoinPrevious);
                    has_movetext = kept_has_movetext(game);
                }
                let text = formatted.text();
                if !text.is_empty() {
                    let open_ended = !has_movetext
                        || matches!(formatted.output, GameOutput::Kept(_))
                        || game.result_node().is_none();
                    previous = open_ended.then(|| Previous(text.to_owned()));
                    first = false;
                }
                ready.push_back(formatted);
            }
        }
        ready.pop_front()
    })
}

/// Whether formatted text opens with commentary.
fn opens_with_commentary(text: &str) -> bool {
    text.starts_with(['{', ';', '%'])
}

/// Whether a game kept as it is has movetext (any movetext node, move numbers included, ends
/// the tag section).
fn kept_has_movetext(game: &Game) -> bool {
    !game.nodes.is_empty()
}

/// The game's output, and whether it has movetext elements.
fn output(text: &str, start: u32, game: &Game, options: &FormatOptions) -> (GameOutput, bool) {
    let source = &text[start as usize..(start + game.len) as usize];
    match format_or_keep(game, source, options) {
        Ok(Formatted { mut text, has_movetext }) => {
            if start == 0 && source.starts_with('\u{FEFF}') {
                text.insert(0, '\u{FEFF}');
            }
            (GameOutput::Formatted(text), has_movetext)
        }
        Err(reason) => {
            let reason = match reason {
                KeepReason::SyntaxError(d) => KeepReason::SyntaxError(d.shifted(start)),
                other => other,
            };
            (GameOutput::Kept(reason), kept_has_movetext(game))
        }
    }
}

/// The output of a game the next game might join: one without movetext, without a termination
/// marker, or kept as it is.
struct Previous(String);

impl Previous {
    /// Whether a game starting with `next` right after this one is parsed as a game of its own.
    fn joins_cleanly(&self, next: &str) -> bool {
        let joint = format!("{}{next}", self.0);
        parse_game(&joint).len as usize == self.0.len()
    }
}
