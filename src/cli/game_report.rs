//! What `check` reports for one game: the parser's diagnostics and the chess analysis's, plus
//! the file-level diagnostics that fall inside the game, filtered by the user's choice and in
//! text order. Ranges stay relative to the game's start.

use crate::chess;
use crate::syntax::{Diagnostic, DiagnosticFilter, Game};

/// The diagnostics of `game` (whose text is `src`) that pass `filter`, sorted by position;
/// `extra` are file-level diagnostics already made relative to this game. The game's own
/// (syntax) diagnostics are moved out, not copied.
pub fn game_diagnostics(
    mut game: Game,
    src: &str,
    extra: impl IntoIterator<Item = Diagnostic>,
    filter: &DiagnosticFilter,
) -> Vec<Diagnostic> {
    let analysis = chess::analyze(&game, src);
    let mut diagnostics = analysis.with_syntax_diagnostics(std::mem::take(&mut game.diagnostics));
    diagnostics.extend(extra);
    diagnostics.retain(|d| filter.keeps(d));
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    diagnostics
}

/// Whether a parsed chunk of text (`src`) holds a game at all (tags or movetext), as opposed to
/// the blank lines or stray comments at the end of a file, or text between games.
pub fn is_game(game: &Game, src: &str) -> bool {
    (!game.tags.is_empty() || !game.nodes.is_empty()) && !chess::is_text_between_games(game, src)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{Code, Severity, parse_game};

    fn codes(src: &str, filter: &DiagnosticFilter) -> Vec<&'static str> {
        let game = parse_game(src);
        game_diagnostics(game, src, None, filter).iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn filter_hides_less_severe_and_ignored_codes() {
        // No tags (information), a stray `)` (error), no result (warning, on the last move),
        // an empty variation (warning).
        let src = "1. e4 ) e5 ()";
        let all = DiagnosticFilter::default();
        assert_eq!(
            codes(src, &all),
            ["missing-tag", "unexpected-token", "missing-result", "empty-variation"]
        );
        let warnings = DiagnosticFilter { min_severity: Severity::Warning, ignored: vec![] };
        assert_eq!(
            codes(src, &warnings),
            ["unexpected-token", "missing-result", "empty-variation"]
        );
        let errors = DiagnosticFilter { min_severity: Severity::Error, ignored: vec![] };
        assert_eq!(codes(src, &errors), ["unexpected-token"]);
        let ignoring = DiagnosticFilter {
            min_severity: Severity::Hint,
            ignored: vec![Code::EmptyVariation, Code::MissingTag],
        };
        assert_eq!(codes(src, &ignoring), ["unexpected-token", "missing-result"]);
    }

    #[test]
    fn blank_chunks_are_not_games() {
        let is_game = |src| is_game(&parse_game(src), src);
        assert!(!is_game("\n\n"));
        assert!(is_game("[Event \"x\"]\n"));
        assert!(is_game("e4 *"));
        assert!(!is_game("Games from Round 2\n------------------\n"));
    }
}
