//! The export-format printer (spec §8, §3.2): each game is written as words and separators
//! (`doc`), which a greedy printer (`printer`) fills into lines as they come, straight into the
//! output. The movetext is printed as the chess replay reaches each move. Formatting is
//! idempotent and loses nothing (`content` states what "nothing" is, and tests hold it to
//! that); a game with structural syntax errors is left byte for byte as it is.
//!
//! Submodules: `tags` (tag section), `movetext` (moves, numbers, annotations, variations),
//! `comment` (brace comments), `annotation` (NAG spelling), `moves` (the nodes in order, with
//! what the chess replay says about each move), `file` (whole files, game by game).

mod annotation;
mod comment;
pub mod content;
mod doc;
mod file;
mod moves;
mod movetext;
mod printer;
mod tags;

pub use file::{
    AloneGame, Buffers, FormattedGame, GameOutput, Joiner, KeepReason, format_alone, format_games,
    format_text,
};
pub use tags::export_order;

use crate::chess;
use crate::syntax::{Code, Diagnostic, Game, Severity};
use crate::text::TextRange;

/// Formatting options (CLI flags, `pgn-lsp.toml`, LSP settings). The default is the PGN export
/// format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatOptions {
    /// Lines are shorter than this many characters (§8.2.1: 80 means at most 79).
    pub line_width: usize,
    /// Re-flow the whitespace inside `{ }` comments.
    pub reflow_comments: bool,
    /// Add missing Seven Tag Roster tags with their unknown values.
    pub add_missing_tags: bool,
    /// Reduced export format (§3.2.4): STR tags only (and the start position's and the
    /// variant's, which the moves need), no comments, NAGs or variations.
    pub reduced: bool,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions {
            line_width: 80,
            reflow_comments: true,
            add_missing_tags: true,
            reduced: false,
        }
    }
}

impl FormatOptions {
    /// The most printing characters a line may hold.
    pub fn max_columns(&self) -> usize {
        self.line_width.saturating_sub(1)
    }
}

/// The export-format text of one game (`src` is the game's own text), or `None` when the game
/// has structural errors and must be left exactly as it is (or is kept for another
/// [`KeepReason`]).
///
/// The text is the tag section and its empty line, then the movetext and its empty line
/// (§8.1.1, §8.2.1); either is absent when the game has none. Line ends are LF (§3.2.2).
pub fn format_game(game: &Game, src: &str, options: &FormatOptions) -> Option<String> {
    format_or_keep(game, src, options, String::new()).ok().map(|formatted| formatted.text)
}

/// A game in export format.
pub(crate) struct Formatted {
    pub text: String,
    /// Whether the text has movetext elements (moves, a marker, ...), which end a tag section.
    pub has_movetext: bool,
}

/// The game in export format, written into `text` (whose contents are dropped), or why it is
/// kept as it is (ranges relative to the game).
pub(crate) fn format_or_keep(
    game: &Game,
    src: &str,
    options: &FormatOptions,
    mut text: String,
) -> Result<Formatted, KeepReason> {
    // Text between games may hold stray punctuation: it is no game before it is a broken one.
    if chess::is_text_between_games(game, src) {
        return Err(KeepReason::NotAGame);
    }
    // Reduced export without added tags drops every tag a game may have but the roster and its
    // start, and its variations: a game left with no tag and only words would be read back as
    // text between games.
    if options.reduced
        && !options.add_missing_tags
        && !game.tags.iter().any(|t| tags::kept_when_reduced(t.name(src)))
        && chess::main_line_reads_as_text(game, src)
    {
        return Err(KeepReason::WouldBeNoGame);
    }
    if game.has_structural_errors() {
        // The parser's errors are its structural ones; report the first.
        let first = game.diagnostics.iter().find(|d| d.severity == Severity::Error);
        let reported = first.or(game.diagnostics.first()).cloned().unwrap_or_else(|| {
            Diagnostic::new(Code::UnexpectedToken, TextRange::empty(0), "structural syntax error")
        });
        return Err(KeepReason::SyntaxError(reported));
    }
    // A game's movetext keeps its termination marker at least, added where it has none; text of
    // commentary alone has no movetext element.
    let has_movetext = tags::is_game(game);
    if options.reduced && !has_movetext {
        return Err(KeepReason::NothingLeft);
    }
    // The output is the input give or take move numbers and spaces.
    text.clear();
    text.reserve(src.len() + src.len() / 8 + 64);
    let notes = tags::write(game, src, options, &mut text);
    match movetext::print(game, src, &notes, options, &mut text) {
        None => return Err(KeepReason::NotNumbered),
        Some(true) => text.push_str("\n\n"),
        Some(false) => {}
    }
    Ok(Formatted { text, has_movetext })
}
