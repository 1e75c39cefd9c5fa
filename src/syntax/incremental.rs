//! Incremental reparse (DESIGN §3): after an edit, only the games from the one before the edit
//! up to the first old game boundary that lines up again are parsed; the rest are kept.
//!
//! The game before the edited one is reparsed too because where a game ends depends on the
//! start of the next game: its first token, or the first after the commentary that opens it
//! ([`Game::lookahead`]); so is any earlier game whose parse looked as far as the edit's line.
//!
//! The new text is read through a window that grows as needed ([`TextSource`]), so a document
//! held as a rope is never copied whole. A game parsed from a window is accepted only when the
//! window also holds the whole line of the token after it (or reaches the end of the text):
//! that is everything beyond the game the parser looks at to decide where the game ends (the
//! tag line or movetext that begins the next game, the tag line that stops an unterminated
//! comment).

use super::parser::parse_game;
use super::tree::Game;

/// Text that can be read piece by piece (a `str`, or a rope that is never made one string).
pub trait TextSource {
    /// The length in bytes.
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Append to `out` the text from `start` (a char boundary) towards `end`. A source may stop
    /// short of `end`, or go on to the next char boundary, but appends at least one char when
    /// `start < len()`.
    fn read_into(&self, start: usize, end: usize, out: &mut String);

    /// The text of `start..end` (both char boundaries).
    fn read(&self, start: usize, end: usize) -> String {
        let mut out = String::with_capacity(end - start);
        while start + out.len() < end {
            self.read_into(start + out.len(), end, &mut out);
        }
        out
    }

    /// The start of the line holding `offset` (`offset <= len()`): after the last `\n` before
    /// it, or 0. This reads the text from its start: a source of large texts answers faster.
    fn line_start(&self, offset: usize) -> usize {
        let before = self.read(0, offset);
        memchr::memrchr(b'\n', before.as_bytes()).map_or(0, |i| i + 1)
    }
}

impl TextSource for &str {
    fn len(&self) -> usize {
        str::len(self)
    }

    fn read_into(&self, start: usize, end: usize, out: &mut String) {
        let end = self.ceil_char_boundary(end.clamp(start, str::len(self)));
        out.push_str(&self[start..end]);
    }

    fn line_start(&self, offset: usize) -> usize {
        memchr::memrchr(b'\n', &self.as_bytes()[..offset]).map_or(0, |i| i + 1)
    }
}

/// What an edit did to the list of games: old games `first..first + removed` are replaced by
/// `inserted`; games after them are unchanged (only shifted).
#[derive(Debug)]
pub struct Splice {
    pub first: usize,
    pub removed: usize,
    pub inserted: Vec<Game>,
    /// How many of the inserted games, from the first, the edit cannot have changed: each
    /// ends, with the line after it, before the edit, so it was parsed from the same text as
    /// before (and is the old game `first + i` again).
    pub unchanged: usize,
    /// The new text of the inserted games, one after the other (game `i` starts where the
    /// lengths of the games before it add up to).
    pub text: String,
}

/// An edit: `old_start..old_end` of the old text was replaced by `inserted_len` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    pub old_start: u32,
    pub old_end: u32,
    pub inserted_len: u32,
}

/// How much text the window reads at first and at least at each growth.
const WINDOW_CHUNK: usize = 16 * 1024;

/// Where the games of a text start, as [`reparse`] asks: the document keeps its games in a
/// structure that answers in logarithmic time; [`GameOffsets`] answers from a list of lengths.
pub trait GameStarts {
    /// The number of games.
    fn count(&self) -> usize;

    /// The start of game `index` (`index < count()`).
    fn start(&self, index: usize) -> u32;

    /// The index of the last game that starts at or before `offset` (0 when there is none).
    fn index_at(&self, offset: u32) -> usize;

    /// The index of the game that starts exactly at `offset`, if one does.
    fn index_starting_at(&self, offset: u32) -> Option<usize> {
        let index = self.index_at(offset);
        (index < self.count() && self.start(index) == offset).then_some(index)
    }

    /// The first of the games before game `before` whose parse looked at `offset` or past it:
    /// its start plus its [`Game::lookahead`] is at or past `offset`.
    fn first_reaching(&self, offset: u32, before: usize) -> Option<usize>;
}

/// The starts of games given by their lengths and lookaheads.
#[derive(Debug)]
pub struct GameOffsets {
    starts: Vec<u32>,
    /// Each game's start plus its lookahead.
    reaches: Vec<u32>,
}

impl GameOffsets {
    /// The games of `(length, lookahead)` ([`Game::len`], [`Game::lookahead`]), in order.
    pub fn new(games: impl IntoIterator<Item = (u32, u32)>) -> Self {
        let mut at = 0u32;
        let (starts, reaches) = games
            .into_iter()
            .map(|(len, lookahead)| {
                let start = at;
                at += len;
                (start, start + lookahead)
            })
            .unzip();
        GameOffsets { starts, reaches }
    }
}

impl GameStarts for GameOffsets {
    fn count(&self) -> usize {
        self.starts.len()
    }

    fn start(&self, index: usize) -> u32 {
        self.starts[index]
    }

    fn index_at(&self, offset: u32) -> usize {
        self.starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    fn first_reaching(&self, offset: u32, before: usize) -> Option<usize> {
        self.reaches[..before].iter().position(|&reach| reach >= offset)
    }
}

/// Reparse after `edit` of a text whose games started at `old`; `new_text` is the whole text
/// after the edit.
pub fn reparse(old: &dyn GameStarts, new_text: &dyn TextSource, edit: Edit) -> Splice {
    let edited = old.index_at(edit.old_start);
    // A game looked at the line of the token after it, and sometimes further: after its
    // termination marker a `(` opens a variation whose `)`, games later, decides where the game
    // ends. Every game that looked at the edit's line is reparsed, and at least the one before
    // the edited game.
    let edit_line = new_text.line_start(edit.old_start as usize) as u32;
    let reaching = old.first_reaching(edit_line, edited).unwrap_or(edited);
    let first = reaching.min(edited.saturating_sub(1));
    let new_edit_end = edit.old_start as i64 + edit.inserted_len as i64;
    let delta = edit.inserted_len as i64 - (edit.old_end as i64 - edit.old_start as i64);

    let origin = if old.count() > 0 { old.start(first) as usize } else { 0 };
    let mut window = Window { source: new_text, origin, text: String::new() };
    // `pos` is where the next game starts, relative to `origin`.
    let mut pos = 0usize;
    let mut inserted = Vec::new();
    let mut unchanged = 0;
    while origin + pos < new_text.len() {
        if window.text.len() == pos {
            window.grow(pos);
        }
        let game = parse_game(&window.text[pos..]);
        let end = pos + game.len as usize;
        let lookahead = pos + game.lookahead as usize;
        if !window.holds_line_after(lookahead) {
            window.grow(pos);
            continue;
        }
        // The line of the token after the game ends what the parse saw: when its line break is
        // before the edit, so was everything the game was parsed from.
        if unchanged == inserted.len()
            && memchr::memchr(b'\n', &window.text.as_bytes()[lookahead..])
                .is_some_and(|i| origin + lookahead + i < edit.old_start as usize)
        {
            unchanged += 1;
        }
        pos = end;
        inserted.push(game);
        let new_pos = (origin + pos) as i64;
        if new_pos >= new_edit_end && new_pos > edit.old_start as i64 {
            let old_pos = new_pos - delta;
            if old_pos >= edit.old_end as i64
                && let Some(j) = old.index_starting_at(old_pos as u32)
                && j > first
            {
                window.text.truncate(pos);
                return Splice {
                    first,
                    removed: j - first,
                    inserted,
                    unchanged,
                    text: window.text,
                };
            }
        }
    }
    window.text.truncate(pos);
    Splice { first, removed: old.count() - first, inserted, unchanged, text: window.text }
}

/// Parse the game that starts at `start` (a game boundary) exactly as a parse of the whole
/// text would, and return it with its own text.
pub fn parse_game_at(text: &dyn TextSource, start: usize) -> (Game, String) {
    let mut window = Window { source: text, origin: start, text: String::new() };
    loop {
        window.grow(0);
        let game = parse_game(&window.text);
        if window.holds_line_after(game.lookahead as usize) {
            window.text.truncate(game.len as usize);
            return (game, window.text);
        }
    }
}

/// The text from `origin` on, read as far as needed so far.
struct Window<'a> {
    source: &'a dyn TextSource,
    origin: usize,
    text: String,
}

impl Window<'_> {
    fn reaches_end(&self) -> bool {
        self.origin + self.text.len() >= self.source.len()
    }

    /// Whether a game whose token after it starts at `lookahead` (relative) can be trusted:
    /// the window holds that token's line up to its line break, or reaches the end of the text.
    fn holds_line_after(&self, lookahead: usize) -> bool {
        self.reaches_end() || memchr::memchr(b'\n', &self.text.as_bytes()[lookahead..]).is_some()
    }

    /// Read more text: at least as much again as the game being parsed from `game_start` has
    /// seen, so a long game is reparsed a logarithmic number of times.
    fn grow(&mut self, game_start: usize) {
        let seen = self.text.len() - game_start;
        let from = self.origin + self.text.len();
        let to = from + seen.max(WINDOW_CHUNK);
        self.source.read_into(from, to, &mut self.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_games;

    /// A source that hands out at most `step` bytes per read, to force the window to grow.
    struct Stingy<'a> {
        text: &'a str,
        step: usize,
    }

    impl TextSource for Stingy<'_> {
        fn len(&self) -> usize {
            self.text.len()
        }

        fn read_into(&self, start: usize, end: usize, out: &mut String) {
            self.text.read_into(start, end.min(start + self.step), out);
        }
    }

    fn lens(text: &str) -> Vec<u32> {
        parse_games(text).map(|(_, g)| g.len).collect()
    }

    fn offsets(text: &str) -> GameOffsets {
        GameOffsets::new(parse_games(text).map(|(_, g)| (g.len, g.lookahead)))
    }

    /// Apply `old[range] -> insert`, reparse, and check the spliced lengths against a full parse.
    fn check(old: &str, range: std::ops::Range<usize>, insert: &str, step: usize) -> Splice {
        let old_lens = lens(old);
        let new = format!("{}{insert}{}", &old[..range.start], &old[range.end..]);
        let source = Stingy { text: &new, step };
        let edit = Edit {
            old_start: range.start as u32,
            old_end: range.end as u32,
            inserted_len: insert.len() as u32,
        };
        let splice = reparse(&offsets(old), &source, edit);
        let mut spliced = old_lens.clone();
        spliced.splice(
            splice.first..splice.first + splice.removed,
            splice.inserted.iter().map(|g| g.len),
        );
        assert_eq!(spliced, lens(&new), "edit {range:?} -> {insert:?} with reads of {step}");
        let unchanged = splice.first..splice.first + splice.unchanged;
        let kept_lens: Vec<u32> =
            splice.inserted[..splice.unchanged].iter().map(|g| g.len).collect();
        assert_eq!(kept_lens, old_lens[unchanged], "the games called unchanged are the old ones");
        let start: u32 = old_lens[..splice.first].iter().sum();
        let inserted_len: u32 = splice.inserted.iter().map(|g| g.len).sum();
        assert_eq!(splice.text, new[start as usize..(start + inserted_len) as usize]);
        splice
    }

    const THREE: &str = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n\n\
                         [Event \"c\"]\n\n1. c4 c5 *\n";

    #[test]
    fn an_edit_inside_a_game_reparses_it_and_the_one_before() {
        let at = THREE.find("d5").unwrap();
        for step in [1, 7, 1 << 20] {
            let splice = check(THREE, at..at + 2, "Nf6", step);
            assert_eq!((splice.first, splice.removed, splice.inserted.len()), (0, 2, 2));
            assert_eq!(
                splice.unchanged, 1,
                "the game before, and its line after, precede the edit"
            );
        }
    }

    #[test]
    fn a_game_whose_parse_looked_games_ahead_is_reparsed() {
        // After the marker a `(` opens a variation; whether it closes decides, two games later,
        // where the first game ends.
        let old = "1. e4 e5 1-0 (\n;note\n1. d4 d5 *\n)\n1. c4 *\n\n1. Nf3 *\n";
        assert_eq!(lens(old).len(), 4);
        let at = old.find(")\n").unwrap();
        for step in [1, 7, 1 << 20] {
            let splice = check(old, at..at + 1, "", step);
            assert_eq!((splice.first, splice.removed, splice.inserted.len()), (0, 4, 1));
            // An edit past the line the first game's parse looked at leaves it alone.
            let at = old.find("Nf3").unwrap();
            let splice = check(old, at..at + 1, "", step);
            assert_eq!(splice.first, 2);
        }
    }

    #[test]
    fn splitting_and_joining_games() {
        let at = THREE.find("[Event \"b\"]").unwrap();
        for step in [1, 5, 1 << 20] {
            // Removing the tag line of game b joins it to game a's movetext.
            check(THREE, at..at + 12, "", step);
            // A tag line typed inside a game starts a new one.
            let mid = THREE.find("d5").unwrap();
            check(THREE, mid..mid, "\n[Site \"x\"]\n", step);
            // Typing an unterminated comment is contained by the next tag line.
            check(THREE, mid..mid, "{", step);
        }
    }

    /// After a tag-only game, a tag line further down the next tag lines decides where the
    /// game ends: an edit there reparses it, and it is unchanged only when the edit is past it.
    #[test]
    fn a_tag_only_game_ends_where_the_next_tag_lines_repeat_a_tag() {
        let text = "[White \"a\"]\n\n[Event \"b\"]\n[Black \"c\"]\n[White \"d\"]\n\n1. e4 *\n";
        assert_eq!(lens(text).len(), 2);
        let white = text.rfind("White").unwrap();
        let e4 = text.find("e4").unwrap();
        for step in [1, 5, 1 << 20] {
            // No repeated tag: one game; a repeated one again: two.
            let splice = check(text, white..white + 5, "Site", step);
            assert_eq!((splice.first, splice.removed, splice.inserted.len()), (0, 2, 1));
            check(&text.replace("[White \"d\"]", "[Site \"d\"]"), white..white + 4, "White", step);
            let splice = check(text, e4..e4 + 2, "d4", step);
            assert_eq!(
                splice.unchanged, 1,
                "the tag lines read for the game before precede the edit"
            );
        }
    }

    #[test]
    fn edits_at_the_ends_of_the_text() {
        for step in [1, 3, 1 << 20] {
            check(THREE, 0..0, "1. f4 *\n", step);
            check(THREE, THREE.len()..THREE.len(), "[Event \"d\"]\n1. b3 *", step);
            check(THREE, 0..THREE.len(), "", step);
            check("", 0..0, THREE, step);
        }
    }

    #[test]
    fn a_game_parsed_alone_matches_the_full_parse() {
        let text = "1. e4 {unterminated\n2. Nf3 *\n[Event \"b\"]\n1. d4 d5 *\n";
        for step in [1, 4, 1 << 20] {
            let source = Stingy { text, step };
            for (start, full) in parse_games(text) {
                let (game, src) = parse_game_at(&source, start as usize);
                assert_eq!(src, text[start as usize..(start + full.len) as usize]);
                assert_eq!((&game.tags, &game.nodes), (&full.tags, &full.nodes));
                assert_eq!(game.diagnostics, full.diagnostics);
            }
        }
    }

    #[test]
    fn multibyte_text_is_read_on_char_boundaries() {
        let text = "[Event \"é♘𝄞\"]\n\n1. e4 {é♘𝄞} e5 1-0\n[Event \"𝄞\"]\n1. d4 *\n";
        let at = text.find("e5").unwrap();
        for step in [1, 2, 3] {
            check(text, at..at, "♘", step);
        }
    }
}
