//! The analysis of one document, kept up to date edit by edit (DESIGN §3): for every game its
//! length and its syntax and chess diagnostics. Game trees are not kept (a feature re-parses
//! the game it needs, which takes microseconds), and game offsets are derived from the lengths,
//! so an edit re-analyses only the games it touches and shifts the others for free.

use std::sync::Arc;

use rayon::prelude::*;

use super::game_list::{Entry, GameList};
use super::guard;
use crate::chess;
use crate::syntax::{
    Code, CodeSet, Diagnostic, DiagnosticFilter, Edit, Game, Severity, TextSource, parse_games,
    reparse,
};
use crate::text::{self, TextRange};

/// What is known about one game. Ranges are relative to the game's start.
#[derive(Debug, PartialEq)]
pub struct GameAnalysis {
    /// The game's length in bytes.
    pub len: u32,
    /// Where the token after the game starts, from its start ([`Game::lookahead`]): the text
    /// to read, up to that token's line break, to parse the game again as the whole text does.
    pub lookahead: u32,
    /// The line breaks in the game's text (`\n`, `\r\n` or a lone `\r`).
    pub line_breaks: u32,
    /// Whether the text ends with a line break, so that the next game starts a line.
    pub ends_line: bool,
    /// Syntax and chess diagnostics, in text order.
    pub diagnostics: Vec<Diagnostic>,
}

/// The diagnostics of a document to show, when at most so many can be, game by game.
#[derive(Debug)]
pub struct SelectedDiagnostics {
    pub games: Vec<SelectedGame>,
    /// How many were left out.
    pub omitted: usize,
}

/// The diagnostics chosen in one game.
#[derive(Debug)]
pub struct SelectedGame {
    pub start: u32,
    /// The line the game starts, when it starts at the start of a line.
    pub first_line: Option<u32>,
    pub game: Arc<GameAnalysis>,
    /// Indices into `game.diagnostics`, in text order.
    pub chosen: Vec<usize>,
}

impl SelectedDiagnostics {
    /// The chosen diagnostics in text order, with ranges in the document.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.games
            .iter()
            .flat_map(|g| g.chosen.iter().map(|&i| g.game.diagnostics[i].shifted(g.start)))
            .collect()
    }
}

impl GameAnalysis {
    /// Analyse `game`, whose own text is `src`. A panic in the chess analysis is contained:
    /// the game keeps its syntax diagnostics.
    pub fn new(game: &Game, src: &str) -> Self {
        let mut diagnostics = match guard::catch("chess analysis", || chess::analyze(game, src)) {
            Ok(analysis) => analysis.with_syntax_diagnostics(game.diagnostics.clone()),
            Err(_) => game.diagnostics.clone(),
        };
        diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
        // A game after the first starts at its first token or at the blanks before it on its
        // line, never inside a line break: the breaks of a document are those of its games.
        let line_breaks = text::line_break_count(src);
        let ends_line = src.ends_with(['\n', '\r']);
        GameAnalysis {
            len: game.len,
            lookahead: game.lookahead,
            line_breaks,
            ends_line,
            diagnostics,
        }
    }
}

/// The analysis of a whole document. Cloning it is cheap (a snapshot for a read request).
#[derive(Clone, Debug, Default)]
pub struct DocumentAnalysis {
    games: Arc<GameList>,
}

impl DocumentAnalysis {
    /// Analyse a whole text: games are parsed one after the other and analysed in parallel.
    pub fn new(text: &str) -> Self {
        let mut games: Vec<(u32, Entry)> = parse_games(text)
            .par_bridge()
            .map(|(start, game)| {
                let src = &text[start as usize..(start + game.len) as usize];
                (start, Entry::new(GameAnalysis::new(&game, src)))
            })
            .collect();
        games.par_sort_unstable_by_key(|&(start, _)| start);
        DocumentAnalysis {
            games: Arc::new(GameList::new(games.into_iter().map(|(_, g)| g).collect())),
        }
    }

    /// Bring the analysis up to date after `edit`; `new_text` is the whole text after it.
    pub fn apply_edit(&mut self, new_text: &dyn TextSource, edit: Edit) {
        let splice = reparse(&*self.games, new_text, edit);
        let removed = splice.first..splice.first + splice.removed;
        // The games the edit cannot have changed keep their analysis (the game before the
        // edited one, usually).
        let kept = splice.unchanged;
        let mut starts = Vec::with_capacity(splice.inserted.len() - kept);
        let mut at = splice.inserted[..kept].iter().map(|g| g.len as usize).sum::<usize>();
        for game in &splice.inserted[kept..] {
            starts.push(at);
            at += game.len as usize;
        }
        let text = splice.text.as_str();
        let analysed: Vec<Entry> = splice.inserted[kept..]
            .par_iter()
            .zip(starts)
            .map(|(game, start)| {
                Entry::new(GameAnalysis::new(game, &text[start..start + game.len as usize]))
            })
            .collect();
        Arc::make_mut(&mut self.games).splice(removed.start + kept..removed.end, analysed);
    }

    /// The games with their start offsets, in order.
    pub fn games(&self) -> impl Iterator<Item = (u32, &Arc<GameAnalysis>)> {
        self.games.iter().map(|(start, entry)| (start, &entry.analysis))
    }

    pub fn game_count(&self) -> usize {
        self.games.count()
    }

    /// The length of the analysed text.
    pub fn len(&self) -> u32 {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.count() == 0
    }

    /// The game holding `offset` (the last game for the end of the text), with its start.
    pub fn game_at(&self, offset: u32) -> Option<(u32, &Arc<GameAnalysis>)> {
        self.games_in(TextRange::empty(offset)).next()
    }

    /// The games that overlap `range` (for an empty range, the game holding it), with their
    /// starts.
    pub fn games_in(&self, range: TextRange) -> impl Iterator<Item = (u32, &Arc<GameAnalysis>)> {
        self.games
            .iter_from(range.start)
            .enumerate()
            .take_while(move |&(i, (start, entry))| {
                i == 0 || TextRange::new(start, start + entry.len).intersects(range)
            })
            .map(|(_, (start, entry))| (start, &entry.analysis))
    }

    /// At most `limit` of the diagnostics of the document that `filter` keeps: the most
    /// severe first (errors, then warnings, information, hints), and among those of one
    /// severity the earliest. A document can have hundreds of thousands of diagnostics (a hint
    /// on every long line of an engine log), more than an editor can usefully take after every
    /// keystroke; the games that hold none of the chosen ones are skipped by their codes.
    pub fn diagnostics(&self, limit: usize, filter: &DiagnosticFilter) -> SelectedDiagnostics {
        let mut code_counts = [0usize; Code::COUNT];
        for (_, chunk) in self.games.chunks() {
            for (total, &count) in code_counts.iter_mut().zip(&chunk.code_counts) {
                *total += count as usize;
            }
        }
        // The codes shown, by severity, and how many diagnostics of each severity are shown.
        let kept = Severity::ALL.map(|severity| filter.kept_codes(severity));
        let totals = kept.map(|codes| {
            let shown = Code::ALL.iter().filter(|&&code| codes.contains(code));
            shown.map(|&code| code_counts[code as usize]).sum::<usize>()
        });
        // Every diagnostic more severe than `cutoff` is shown, and the first `quota` of it.
        let (mut cutoff, mut quota, mut left) = (Severity::ALL.len(), 0, limit);
        for (severity, &total) in totals.iter().enumerate() {
            if total > left {
                (cutoff, quota) = (severity, left);
                break;
            }
            left -= total;
        }
        let more_severe = kept[..cutoff].iter().fold(CodeSet::default(), |a, &b| a.union(b));
        let at_cutoff = kept.get(cutoff).copied().unwrap_or_default();
        // Whether games with these codes hold a chosen diagnostic.
        let holds_chosen = |codes: CodeSet, quota: usize| {
            codes.intersects(more_severe) || (quota > 0 && codes.intersects(at_cutoff))
        };
        let mut omitted: usize = totals.iter().sum();
        let mut games = Vec::new();
        // The line at `start`, and whether `start` starts it.
        let (mut line, mut starts_line) = (0, true);
        for (chunk_start, chunk) in self.games.chunks() {
            if !holds_chosen(chunk.codes, quota) {
                (line, starts_line) = (line + chunk.line_breaks, chunk.ends_line);
                continue;
            }
            let mut start = chunk_start;
            for entry in &chunk.entries {
                let (game_start, first_line) = (start, starts_line.then_some(line));
                start += entry.len;
                (line, starts_line) = (line + entry.line_breaks, entry.ends_line);
                if !holds_chosen(entry.codes, quota) {
                    continue;
                }
                let game = &entry.analysis;
                let mut chosen = Vec::new();
                for (i, d) in game.diagnostics.iter().enumerate() {
                    if quota > 0 && at_cutoff.contains(d.code) {
                        quota -= 1;
                    } else if !more_severe.contains(d.code) {
                        continue;
                    }
                    chosen.push(i);
                }
                omitted -= chosen.len();
                games.push(SelectedGame {
                    start: game_start,
                    first_line,
                    game: Arc::clone(game),
                    chosen,
                });
            }
        }
        SelectedDiagnostics { games, omitted }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::text::{LineIndex, PositionEncoding};

    const TWO: &str = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 {x 1-0\n";

    #[test]
    fn games_and_offsets() {
        let a = DocumentAnalysis::new(TWO);
        let starts: Vec<u32> = a.games().map(|(s, _)| s).collect();
        let second = TWO.find("[Event \"b\"]").unwrap() as u32;
        assert_eq!(starts, [0, second]);
        assert_eq!(a.len() as usize, TWO.len());
        assert_eq!(a.game_at(0).unwrap().0, 0);
        assert_eq!(a.game_at(second - 1).unwrap().0, 0);
        assert_eq!(a.game_at(second).unwrap().0, second);
        assert_eq!(a.game_at(TWO.len() as u32).unwrap().0, second);
        assert!(DocumentAnalysis::new("").game_at(0).is_none());
        let in_range = |r: TextRange| a.games_in(r).map(|(s, _)| s).collect::<Vec<_>>();
        assert_eq!(in_range(TextRange::empty(3)), [0]);
        assert_eq!(in_range(TextRange::new(3, second + 1)), [0, second]);
        assert_eq!(in_range(TextRange::empty(second)), [second]);
    }

    #[test]
    fn diagnostics_are_shifted_to_the_document() {
        let a = DocumentAnalysis::new(TWO);
        let comment = TWO.find("{x").unwrap() as u32;
        let all = a.diagnostics(usize::MAX, &DiagnosticFilter::default());
        assert_eq!(all.omitted, 0);
        assert!(all.diagnostics().iter().any(|d| d.range == TextRange::new(comment, comment + 1)));
    }

    #[test]
    fn a_limit_keeps_the_most_severe_then_the_earliest() {
        // Game 1: a warning (move number); game 2: an error (illegal move) and a warning;
        // every game: an information (missing tags).
        let text = "1. e4 1. e5 *\n\n1. e4 e5 2. Ke3 3. Nc6 *\n\n1. d4 *\n";
        let a = DocumentAnalysis::new(text);
        let codes = |limit| {
            let d = a.diagnostics(limit, &DiagnosticFilter::default());
            (d.diagnostics().iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), d.omitted)
        };
        let (all, omitted) = codes(usize::MAX);
        assert_eq!(omitted, 0);
        assert_eq!(
            all,
            ["missing-tag", "move-number", "missing-tag", "illegal-move", "missing-tag"]
        );
        assert_eq!(codes(1), (vec!["illegal-move"], 4));
        assert_eq!(codes(2), (vec!["move-number", "illegal-move"], 3));
        assert_eq!(codes(3), (vec!["missing-tag", "move-number", "illegal-move"], 2));
        assert_eq!(codes(0), (vec![], 5));
    }

    #[test]
    fn a_filter_leaves_out_codes_and_severities_before_the_limit_counts() {
        let text = "1. e4 1. e5 *\n\n1. e4 e5 2. Ke3 3. Nc6 *\n\n1. d4 *\n";
        let a = DocumentAnalysis::new(text);
        let codes = |limit, min_severity, ignored: &[Code]| {
            let filter = DiagnosticFilter { min_severity, ignored: ignored.to_vec() };
            let d = a.diagnostics(limit, &filter);
            (d.diagnostics().iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), d.omitted)
        };
        // The ignored error is neither shown nor counted as left out.
        assert_eq!(codes(1, Severity::Hint, &[Code::IllegalMove]), (vec!["move-number"], 3));
        assert_eq!(
            codes(usize::MAX, Severity::Warning, &[]),
            (vec!["move-number", "illegal-move"], 0)
        );
        assert_eq!(codes(1, Severity::Warning, &[Code::MoveNumber]), (vec!["illegal-move"], 0));
        assert_eq!(codes(5, Severity::Error, &[Code::IllegalMove]), (vec![], 0));
    }

    #[test]
    fn an_edit_updates_only_what_it_touches() {
        let mut a = DocumentAnalysis::new(TWO);
        let untouched = Arc::clone(a.games().next().unwrap().1);
        let at = TWO.find("{x").unwrap();
        let new = format!("{}{{x}}{}", &TWO[..at], &TWO[at + 2..]);
        let edit = Edit { old_start: at as u32, old_end: at as u32 + 2, inserted_len: 3 };
        a.apply_edit(&new.as_str(), edit);
        let fresh = DocumentAnalysis::new(&new);
        assert!(a.games().map(|(_, g)| g).eq(fresh.games().map(|(_, g)| g)));
        assert!(Arc::ptr_eq(&untouched, a.games().next().unwrap().1));
    }

    /// A game whose text an edit does not touch keeps its analysis only when the edit is past
    /// the line after it: a tag line typed just after an unterminated comment that ran to the
    /// end of the text makes the comment stop before it, with another message.
    #[test]
    fn a_tag_line_typed_after_a_game_reparses_the_game() {
        let old = "1. e4 { more\n1. d4 *\n";
        let mut a = DocumentAnalysis::new(old);
        let new = format!("{old}[Event \"x\"]\n1. c4 *\n");
        let edit = Edit {
            old_start: old.len() as u32,
            old_end: old.len() as u32,
            inserted_len: (new.len() - old.len()) as u32,
        };
        a.apply_edit(&new.as_str(), edit);
        let fresh = DocumentAnalysis::new(&new);
        assert_eq!(fresh.games().next().unwrap().1.len as usize, old.len());
        assert!(a.games().eq(fresh.games()));
    }

    /// A game's end can depend on text past the line after it: commentary after its
    /// termination marker opens the next game only if moves follow it. Closing the comment
    /// ends the first game before it.
    #[test]
    fn a_comment_closed_after_a_marker_ends_the_game_before_it() {
        let old = "1. e4 *\n{\nnote\n\n1. d4 *\n";
        let mut a = DocumentAnalysis::new(old);
        assert_eq!(a.game_count(), 1);
        let at = old.find("note").unwrap() + 4;
        let new = format!("{}}}{}", &old[..at], &old[at..]);
        let edit = Edit { old_start: at as u32, old_end: at as u32, inserted_len: 1 };
        a.apply_edit(&new.as_str(), edit);
        let fresh = DocumentAnalysis::new(&new);
        assert_eq!(fresh.games().map(|(start, _)| start).collect::<Vec<_>>(), [0, 8]);
        assert!(a.games().eq(fresh.games()));
    }

    #[test]
    fn edits_in_a_document_of_many_chunks_match_a_fresh_analysis() {
        let game = |i: usize| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Ke3 *\n\n");
        let mut text: String = (0..300).map(game).collect();
        let mut a = DocumentAnalysis::new(&text);
        // A new game, a game removed, a game split and two joined, from the start to the end.
        let edits: [(usize, &str, &str); 5] = [
            (0, "", "1. d4 *\n\n"),
            (text.len() / 3, "", "{ unclosed "),
            (text.len() / 2, "1. e4", "1. e4 *\n\n[Event \"x\"]\n\n1. c4"),
            (2 * text.len() / 3, "*", ""),
            (text.len(), "", "\n1. f4 *\n"),
        ];
        for (near, old, new) in edits {
            let at = text[..near].rfind(old).filter(|_| !old.is_empty()).unwrap_or(near);
            let edit = Edit {
                old_start: at as u32,
                old_end: (at + old.len()) as u32,
                inserted_len: new.len() as u32,
            };
            text.replace_range(at..at + old.len(), new);
            a.apply_edit(&text.as_str(), edit);
            let fresh = DocumentAnalysis::new(&text);
            assert!(a.games().eq(fresh.games()), "after {old:?} -> {new:?} at {at}");
            assert_eq!((a.len(), a.game_count()), (fresh.len(), fresh.game_count()));
            for offset in (0..=text.len() as u32).step_by(97) {
                assert_eq!(a.game_at(offset), fresh.game_at(offset), "offset {offset}");
            }
            let all = |a: &DocumentAnalysis| {
                a.diagnostics(usize::MAX, &DiagnosticFilter::default()).diagnostics()
            };
            assert_eq!(all(&a), all(&fresh));
            let some = |a: &DocumentAnalysis| {
                a.diagnostics(250, &DiagnosticFilter::default()).diagnostics()
            };
            assert_eq!(some(&a), some(&fresh));
        }
    }

    /// The games with diagnostics and the line each starts, from the line breaks of the games
    /// before it (`None`: not at the start of a line).
    fn first_lines(a: &DocumentAnalysis) -> Vec<(u32, Option<u32>)> {
        a.diagnostics(usize::MAX, &DiagnosticFilter::default())
            .games
            .iter()
            .map(|g| (g.start, g.first_line))
            .collect()
    }

    /// The same from a line index of the whole text.
    fn first_lines_in(text: &str, a: &DocumentAnalysis) -> Vec<(u32, Option<u32>)> {
        let index = LineIndex::new(text);
        let first_line = |start| {
            let at = index.line_col(text, start, PositionEncoding::Utf8);
            (start, (at.col == 0).then_some(at.line))
        };
        a.diagnostics(usize::MAX, &DiagnosticFilter::default())
            .games
            .iter()
            .map(|g| first_line(g.start))
            .collect()
    }

    /// A game with the diagnostics of `kind`: none but a missing tag or two; move numbers;
    /// an illegal move; a date that does not exist and an empty variation; a long line.
    fn game_with_problems(kind: usize) -> String {
        match kind {
            0 => "[Event \"a\"]\n\n1. e4 e5 *\n\n".to_owned(),
            1 => "1. e4 1. e5 *\n\n".to_owned(),
            2 => "[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n".to_owned(),
            3 => "[Event \"c\"]\n[Date \"2020.13.01\"]\n\n1. d4 () *\n\n".to_owned(),
            _ => format!("[Event \"d\"]\n\n1. c4 {{{}}} *\n\n", "x".repeat(300)),
        }
    }

    /// What `diagnostics(limit, filter)` chooses, found the slow way: every diagnostic the
    /// filter keeps, in text order, the most severe `limit` of them.
    fn chosen_naively(
        a: &DocumentAnalysis,
        limit: usize,
        filter: &DiagnosticFilter,
    ) -> (Vec<Diagnostic>, usize) {
        let all =
            a.games().flat_map(|(start, g)| g.diagnostics.iter().map(move |d| d.shifted(start)));
        let kept: Vec<Diagnostic> = all.filter(|d| filter.keeps(d)).collect();
        let mut order: Vec<usize> = (0..kept.len()).collect();
        order.sort_by_key(|&i| kept[i].severity);
        let mut chosen: Vec<usize> = order.into_iter().take(limit).collect();
        chosen.sort_unstable();
        (chosen.iter().map(|&i| kept[i].clone()).collect(), kept.len() - chosen.len())
    }

    proptest! {
        /// The games skipped by their chunks' and their own codes hold none of the diagnostics
        /// to show: the selection is the slow way's, across chunks, for any filter and limit.
        #[test]
        fn the_selection_is_the_most_severe_of_those_the_filter_keeps(
            games in proptest::collection::vec(0..5usize, 0..200),
            limit in 0..40usize,
            min_severity in proptest::sample::select(Severity::ALL.to_vec()),
            ignored in proptest::sample::subsequence(
                vec![Code::IllegalMove, Code::MoveNumber, Code::MissingTag, Code::LineTooLong, Code::EmptyVariation],
                0..3,
            ),
        ) {
            let text: String = games.into_iter().map(game_with_problems).collect();
            let a = DocumentAnalysis::new(&text);
            let filter = DiagnosticFilter { min_severity, ignored };
            let selected = a.diagnostics(limit, &filter);
            let (chosen, omitted) = chosen_naively(&a, limit, &filter);
            prop_assert_eq!(selected.diagnostics(), chosen);
            prop_assert_eq!(selected.omitted, omitted);
        }

        /// Games start on the lines a line index of the text gives, whatever the line breaks
        /// (`\n`, `\r\n`, a lone `\r`) and after edits, including edits that split a `\r\n`.
        #[test]
        fn games_start_on_the_lines_of_the_text(
            parts in proptest::collection::vec(
                (
                    prop_oneof![Just("[Event \"a\"]"), Just("1. e4 *"), Just("{c\r\nd} 1-0")],
                    prop_oneof![
                        Just("\n"), Just("\r\n"), Just("\r"), Just("\r\n\r\n"), Just("\r\r"),
                        Just(" ")
                    ],
                ),
                1..40,
            ),
            edits in proptest::collection::vec(
                (
                    any::<prop::sample::Index>(),
                    0..3usize,
                    prop_oneof![Just(""), Just("\n"), Just("\r"), Just("x")],
                ),
                0..6,
            ),
        ) {
            let mut text: String = parts.iter().flat_map(|&(part, end)| [part, end]).collect();
            let mut a = DocumentAnalysis::new(&text);
            // Every game has a diagnostic (missing tags, at least), so every game is selected;
            // an edit can leave a game without one (only a comment left), which is then not.
            prop_assert_eq!(a.diagnostics(usize::MAX, &DiagnosticFilter::default()).games.len(), a.game_count());
            prop_assert_eq!(first_lines(&a), first_lines_in(&text, &a));
            for (at, removed, inserted) in edits {
                let start = at.index(text.len() + 1);
                let end = (start + removed).min(text.len());
                let edit = Edit {
                    old_start: start as u32,
                    old_end: end as u32,
                    inserted_len: inserted.len() as u32,
                };
                text.replace_range(start..end, inserted);
                a.apply_edit(&text.as_str(), edit);
                prop_assert_eq!(first_lines(&a), first_lines_in(&text, &a));
            }
        }
    }
}
