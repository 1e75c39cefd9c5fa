//! Whole texts, game by game: each game is formatted on its own (`format_alone`, which may run
//! in parallel), then joined to the one before in file order (`Joiner`); each comes out either
//! formatted or kept byte for byte with the reason.
//!
//! Joining games: every formatted game ends with an empty line, and games start at the start of
//! a line, so a game never runs into the next one, with these exceptions, where a game that would
//! merge into the one before is kept as it is:
//! - after a game with no movetext, the parser starts a new game only at tag lines of which one
//!   names a tag the game already has (tag-only games written back to back); after a game
//!   without a termination marker, or one kept as it is (an unclosed comment runs to the next
//!   tag pair), only at a tag pair, which a formatted game may no longer have (reduced export
//!   format): checked by parsing the joint;
//! - commentary starts a game only on a line after the termination marker of the game before,
//!   and only when movetext follows it (else the parser gives it to the game before): a game
//!   without tags whose text opens with commentary (`{ c } 1. e4`) is checked by parsing it
//!   after a marker.
//!
//! A game after a game with a comment left open is kept as it is too: its first line, where the
//! lexer ended the comment, may be text of the comment (`syntax::unsettles_next_game`).
//!
//! A UTF-8 byte order mark at the start of the text is kept. The games are printed with `\n`;
//! written out, a file whose first line ends with `\r\n` takes `\r\n` (`text::newline`).

use std::borrow::Cow;
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::{FormatOptions, Formatted, format_or_keep};
use crate::syntax::{Diagnostic, Game, parse_game, parse_games, unsettles_next_game};
use crate::text::{TextRange, line_break_of, with_line_break};

/// Why a game was kept as it is.
#[derive(Clone, Debug)]
pub enum KeepReason {
    /// A structural syntax error (its first one; ranges relative to the whole text, or to the
    /// game from `format_or_keep`).
    SyntaxError(Diagnostic),
    /// The moves could not be numbered: the chess replay did not reach every move (text before
    /// the first move, a FEN that cannot be read), a word among the moves reads as no move, or
    /// move numbers written after a move it could not play disagree with its count.
    NotNumbered,
    /// No game: text between games ([`chess::is_text_between_games`]), which formatting would
    /// give a tag section and move numbers.
    ///
    /// [`chess::is_text_between_games`]: crate::chess::is_text_between_games
    NotAGame,
    /// Formatted, the game would join the game before it (see the module notes).
    WouldJoinPrevious,
    /// The game before has a comment left open, which the lexer ended before this game's first
    /// line: that line may be text of the comment ([`syntax::unsettles_next_game`]), and
    /// formatting would add tags and move numbers inside it.
    ///
    /// [`syntax::unsettles_next_game`]: crate::syntax::unsettles_next_game
    AfterUnclosedComment,
    /// Text of commentary alone (no tag pair, no movetext), which reduced export format, leaving
    /// commentary out, would leave empty.
    NothingLeft,
    /// Formatted in reduced export format without added tags, the game would have no tag pair
    /// left, and its main line reads as text: it would be read back as text between games.
    WouldBeNoGame,
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

    /// [`Self::text`] written with `line_break` (the file's, [`line_break_of`]): the formatted
    /// form's lines end with it; a game kept as it is keeps its bytes. `after_cr` says that the
    /// text before the game ends with a `\r`.
    pub fn text_with_line_break(&self, line_break: &str, after_cr: bool) -> Cow<'_, str> {
        match &self.output {
            GameOutput::Formatted(text) => with_line_break(text, line_break, after_cr),
            GameOutput::Kept(_) => Cow::Borrowed(self.source),
        }
    }
}

/// The export-format text of a whole file, written with its line break.
pub fn format_text(text: &str, options: &FormatOptions) -> String {
    let line_break = line_break_of(text);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for game in format_games(text, options) {
        out.push_str(&game.text_with_line_break(line_break, out.ends_with('\r')));
    }
    out
}

/// The games of `text` with their formatted forms, in order; concatenating their `text()`s
/// gives the formatted file. (To format games in parallel, run [`format_alone`] on each and
/// join the results in order with a [`Joiner`].)
pub fn format_games<'a>(
    text: &'a str,
    options: &'a FormatOptions,
) -> impl Iterator<Item = FormattedGame<'a>> + 'a {
    let mut joiner = Joiner::default();
    parse_games(text).map(move |(start, game)| {
        let range = TextRange::new(start, start + game.len);
        joiner.format(&game, &text[range], start, options)
    })
}

/// A game formatted on its own, to be joined to the game before it by a [`Joiner`].
#[derive(Clone, Debug)]
pub struct AloneGame {
    output: GameOutput,
    /// Whether the output has movetext elements (which end a tag section).
    has_movetext: bool,
    /// Whether the game's source has movetext (any movetext node, move numbers included).
    source_has_movetext: bool,
    /// Whether the game leaves the next one uncertain ([`unsettles_next_game`]).
    unsettles_next: bool,
}

/// Format `game` (`source` is its text, which starts at `start` in the file) without regard to
/// the games around it.
pub fn format_alone(game: &Game, source: &str, start: u32, options: &FormatOptions) -> AloneGame {
    format_alone_into(String::new(), game, source, start, options)
}

/// [`format_alone`], writing the text into `buffer`.
fn format_alone_into(
    buffer: String,
    game: &Game,
    source: &str,
    start: u32,
    options: &FormatOptions,
) -> AloneGame {
    let source_has_movetext = !game.nodes.is_empty();
    let (output, has_movetext) = match format_or_keep(game, source, options, buffer) {
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
            (GameOutput::Kept(reason), source_has_movetext)
        }
    };
    let unsettles_next = unsettles_next_game(&game.diagnostics);
    AloneGame { output, has_movetext, source_has_movetext, unsettles_next }
}

/// Spare text buffers for formatting the games of a file one after another (and in parallel):
/// the text of a game that has been written out comes back here, and a game formatted later is
/// written into it. Otherwise a batch of games' worth of text freed at once goes back to the
/// system, and the next batch faults fresh memory in again (a fifth of the time `fmt` takes on
/// an engine archive, whose games are long).
#[derive(Debug, Default)]
pub struct Buffers {
    spare: Mutex<Vec<String>>,
}

impl Buffers {
    /// [`format_alone`], into a spare buffer when there is one.
    pub fn format_alone(
        &self,
        game: &Game,
        source: &str,
        start: u32,
        options: &FormatOptions,
    ) -> AloneGame {
        let buffer = self.spare().pop().unwrap_or_default();
        format_alone_into(buffer, game, source, start, options)
    }

    /// Take back the buffers of games whose text has been written out, all under one lock:
    /// workers formatting more games take buffers meanwhile.
    pub fn recycle<'a>(&self, games: impl IntoIterator<Item = FormattedGame<'a>>) {
        let texts = games.into_iter().filter_map(|game| match game.output {
            GameOutput::Formatted(text) => Some(text),
            GameOutput::Kept(_) => None,
        });
        self.spare().extend(texts);
    }

    fn spare(&self) -> MutexGuard<'_, Vec<String>> {
        // A panic while the lock was held left the list as it was: whole buffers.
        self.spare.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Joins formatted games in file order, keeping as it is a game that would merge into the one
/// before (see the module notes).
#[derive(Debug, Default)]
pub struct Joiner {
    /// The output of the last game, when the next one might join it.
    previous: Option<String>,
    /// Whether some game has had output.
    started: bool,
    /// Whether the last game leaves the next one uncertain ([`unsettles_next_game`]).
    unsettled: bool,
}

impl Joiner {
    /// Format the next game of the file (`source` is its text, starting at `start`) and join it.
    pub fn format<'a>(
        &mut self,
        game: &Game,
        source: &'a str,
        start: u32,
        options: &FormatOptions,
    ) -> FormattedGame<'a> {
        self.join(source, start, format_alone(game, source, start, options))
    }

    /// The next game of the file (`source` is its text, starting at `start`).
    pub fn join<'a>(&mut self, source: &'a str, start: u32, alone: AloneGame) -> FormattedGame<'a> {
        let AloneGame { output, mut has_movetext, source_has_movetext, unsettles_next } = alone;
        let mut formatted = FormattedGame { start, source, output };
        if std::mem::replace(&mut self.unsettled, unsettles_next)
            && let GameOutput::Formatted(_) = formatted.output
        {
            formatted.output = GameOutput::Kept(KeepReason::AfterUnclosedComment);
            has_movetext = source_has_movetext;
        }
        let text = formatted.text();
        let joins_previous = match self.previous.as_deref() {
            Some(previous) => !joins_cleanly(previous, text),
            // The game before ends with its termination marker and an empty line.
            None => self.started && opens_with_commentary(text) && !joins_cleanly("*\n\n", text),
        };
        if joins_previous {
            formatted.output = GameOutput::Kept(KeepReason::WouldJoinPrevious);
            has_movetext = source_has_movetext;
        }
        let text = formatted.text();
        if !text.is_empty() {
            let kept = matches!(formatted.output, GameOutput::Kept(_));
            // A formatted game with movetext ends with its termination marker: the next game
            // cannot run into it.
            self.previous = (!has_movetext || kept).then(|| text.to_owned());
            self.started = true;
        }
        formatted
    }
}

/// Whether formatted text opens with commentary.
fn opens_with_commentary(text: &str) -> bool {
    text.starts_with(['{', ';', '%'])
}

/// Whether a game starting with `next` right after `previous` is parsed as a game of its own.
fn joins_cleanly(previous: &str, next: &str) -> bool {
    let joint = format!("{previous}{next}");
    parse_game(&joint).len as usize == previous.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of `text`, each formatted with `format` and joined.
    fn joined(text: &str, mut format: impl FnMut(&Game, &str, u32) -> AloneGame) -> Vec<String> {
        let mut joiner = Joiner::default();
        parse_games(text)
            .map(|(start, game)| {
                let source = &text[TextRange::new(start, start + game.len)];
                joiner.join(source, start, format(&game, source, start)).text().to_owned()
            })
            .collect()
    }

    #[test]
    fn recycled_buffers_hold_only_the_next_game() {
        // The second game is shorter than the first, whose text must not show through.
        let text = "[Event \"a long one\"]\n\n1. e4 { a comment that makes the text long } e5 \
                    2. Nf3 Nc6 1-0\n\n1. d4 *\n";
        let options = FormatOptions::default();
        let buffers = Buffers::default();
        let mut joiner = Joiner::default();
        let recycled: Vec<String> = parse_games(text)
            .map(|(start, game)| {
                let source = &text[TextRange::new(start, start + game.len)];
                let alone = buffers.format_alone(&game, source, start, &options);
                let formatted = joiner.join(source, start, alone);
                let out = formatted.text().to_owned();
                buffers.recycle([formatted]);
                out
            })
            .collect();
        let fresh = joined(text, |game, source, start| format_alone(game, source, start, &options));
        assert_eq!(recycled, fresh);
        assert_eq!(buffers.spare().len(), 1, "the formatted games' buffer comes back each time");
    }

    /// The byte order mark is kept, and a `%` after it opens an escape line (§6) of the game
    /// that follows, as it does for `check`, which reads the text without the mark.
    #[test]
    fn an_escape_line_after_the_byte_order_mark_is_formatted_with_its_game() {
        let text = "\u{FEFF}% exported by some program\n[Event \"e\"]\n[Result \"*\"]\n\n1.e4 *\n";
        let options = FormatOptions::default();
        let games: Vec<FormattedGame<'_>> = format_games(text, &options).collect();
        assert_eq!(games.len(), 1);
        let GameOutput::Formatted(formatted) = &games[0].output else {
            panic!("the game is kept: {:?}", games[0].output);
        };
        assert!(
            formatted.starts_with("\u{FEFF}% exported by some program\n\n[Event \"e\"]\n[Site")
        );
        assert!(formatted.ends_with("\n\n1. e4 *\n\n"), "{formatted}");
    }
}
