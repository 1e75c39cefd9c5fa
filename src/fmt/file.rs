//! Whole texts, game by game: games are parsed in order, formatted in parallel in batches, and
//! handed out in order, each either formatted or kept byte for byte with the reason.
//!
//! Joining games: every formatted game ends with an empty line, and games start at the start of
//! a line, so a game never runs into the next one, except after a game with no movetext, where
//! the parser starts a new game only at a tag pair the game already has (tag-only games written
//! back to back). That case is checked by parsing the joint, and a game that would merge into
//! the one before is kept as it is. A UTF-8 byte order mark at the start of the text is kept.

use std::collections::VecDeque;

use rayon::prelude::*;

use super::{FormatOptions, format_game};
use crate::syntax::{Diagnostic, Game, Severity, parse_game, parse_games};

/// Games formatted together, at most this many bytes of input ...
const BATCH_BYTES: usize = 1 << 20;
/// ... and this many games.
const BATCH_GAMES: usize = 1024;

/// Why a game was kept as it is.
#[derive(Clone, Debug)]
pub enum KeepReason {
    /// A structural syntax error (its first one, with ranges relative to the whole text).
    SyntaxError(Diagnostic),
    /// The chess replay did not reach every move, so the moves could not be numbered.
    NotReplayed,
    /// Formatted, the game would join the game before it (see the module notes).
    WouldJoinPrevious,
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
    let mut games = parse_games(text).peekable();
    let mut ready: VecDeque<FormattedGame<'a>> = VecDeque::new();
    let mut previous: Option<Previous> = None;
    std::iter::from_fn(move || {
        if ready.is_empty() {
            let mut batch: Vec<(u32, Game)> = Vec::new();
            let mut bytes = 0usize;
            while bytes < BATCH_BYTES && batch.len() < BATCH_GAMES {
                let Some((start, game)) = games.next() else { break };
                bytes += game.len as usize;
                batch.push((start, game));
            }
            let outputs: Vec<GameOutput> =
                batch.par_iter().map(|(start, game)| output(text, *start, game, options)).collect();
            for ((start, game), output) in batch.iter().zip(outputs) {
                let source = &text[*start as usize..(*start + game.len) as usize];
                let mut formatted = FormattedGame { start: *start, source, output };
                if let Some(previous) = &previous
                    && !previous.joins_cleanly(formatted.text())
                {
                    formatted.output = GameOutput::Kept(KeepReason::WouldJoinPrevious);
                }
                previous = game.nodes.is_empty().then(|| Previous(formatted.text().to_owned()));
                ready.push_back(formatted);
            }
        }
        ready.pop_front()
    })
}

fn output(text: &str, start: u32, game: &Game, options: &FormatOptions) -> GameOutput {
    let source = &text[start as usize..(start + game.len) as usize];
    match format_game(game, source, options) {
        Some(mut formatted) => {
            if start == 0 && source.starts_with('\u{FEFF}') {
                formatted.insert(0, '\u{FEFF}');
            }
            GameOutput::Formatted(formatted)
        }
        None => GameOutput::Kept(match first_error(game) {
            Some(d) => KeepReason::SyntaxError(d.shifted(start)),
            None => KeepReason::NotReplayed,
        }),
    }
}

/// The game's first error from the parser: the parser's errors are its structural ones.
fn first_error(game: &Game) -> Option<&Diagnostic> {
    game.diagnostics.iter().find(|d| d.severity == Severity::Error)
}

/// The output of a game without movetext, which the next game might join.
struct Previous(String);

impl Previous {
    /// Whether a game starting with `next` right after this one is parsed as a game of its own.
    fn joins_cleanly(&self, next: &str) -> bool {
        let joint = format!("{}{next}", self.0);
        parse_game(&joint).len as usize == self.0.len()
    }
}
