//! One game's text as the renderers see it: the whole lines of the file that the game touches
//! (a game can start or end in the middle of a line), and the conversion of game-relative
//! offsets to 1-based file lines and character columns.
//!
//! Lines and columns are counted from a cursor that follows the offsets asked for: diagnostics
//! come in text order, so converting all of a game's positions reads its text about once (a
//! million diagnostics on one long line cost no more than the line), and games without
//! diagnostics cost nothing.

use std::cell::Cell;

use super::line_breaks::count_line_breaks;
use crate::text::TextRange;

/// The lines of a file that hold one game.
pub struct GameText<'a> {
    pub file: &'a str,
    /// From the start of the game's first line to the end of its last line (line break
    /// excluded).
    pub lines_text: &'a str,
    /// Where the game starts in `lines_text`.
    game_start: u32,
    /// The 0-based file line on which `lines_text` starts.
    first_line: u32,
    cursor: Cell<Cursor>,
}

/// An offset of `lines_text` and what is known of it.
#[derive(Clone, Copy, Debug, Default)]
struct Cursor {
    at: u32,
    /// Line breaks before it.
    breaks: u32,
    /// Where its line starts.
    line_start: u32,
    /// Characters between its line's start and it.
    column: u32,
}

/// A 1-based line and 1-based column counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl<'a> GameText<'a> {
    /// The game at `game` (file offsets) of `file_text`, which starts on 0-based `first_line`.
    pub fn new(file: &'a str, file_text: &'a str, game: TextRange, first_line: u32) -> Self {
        let bytes = file_text.as_bytes();
        let start = memchr::memrchr(b'\n', &bytes[..game.start as usize]).map_or(0, |i| i + 1);
        let end = if game.end > game.start && bytes[game.end as usize - 1] == b'\n' {
            game.end as usize - 1
        } else {
            memchr::memchr(b'\n', &bytes[game.end as usize..])
                .map_or(bytes.len(), |i| game.end as usize + i)
        };
        let lines_text = &file_text[start..end];
        let lines_text = lines_text.strip_suffix('\r').unwrap_or(lines_text);
        GameText {
            file,
            lines_text,
            game_start: game.start - start as u32,
            first_line,
            cursor: Cell::new(Cursor::default()),
        }
    }

    /// A game-relative range as a range of `lines_text`.
    pub fn local(&self, range: TextRange) -> TextRange {
        range.shift(self.game_start)
    }

    /// The 1-based file line of an offset of `lines_text`.
    pub fn line_number(&self, offset: u32) -> u32 {
        self.first_line + self.move_cursor(offset).breaks + 1
    }

    /// Where the line holding an offset of `lines_text` starts.
    pub fn line_start(&self, offset: u32) -> u32 {
        self.move_cursor(offset).line_start
    }

    /// The file position of a game-relative offset.
    pub fn position(&self, offset: u32) -> Position {
        let cursor = self.move_cursor(offset + self.game_start);
        Position { line: self.first_line + cursor.breaks + 1, column: cursor.column + 1 }
    }

    /// Move the cursor to `offset` of `lines_text`, reading only the text between.
    fn move_cursor(&self, offset: u32) -> Cursor {
        let text = self.lines_text;
        let chars = |s: &str| s.chars().count() as u32;
        let old = self.cursor.get();
        let (from, to) = (old.at.min(offset) as usize, old.at.max(offset) as usize);
        let gap = &text[from..to];
        let gap_breaks = count_line_breaks(gap.as_bytes());
        let new = if offset >= old.at {
            match memchr::memrchr(b'\n', gap.as_bytes()) {
                None => Cursor { at: offset, column: old.column + chars(gap), ..old },
                Some(i) => Cursor {
                    at: offset,
                    breaks: old.breaks + gap_breaks,
                    line_start: (from + i + 1) as u32,
                    column: chars(&gap[i + 1..]),
                },
            }
        } else if gap_breaks == 0 {
            Cursor { at: offset, column: old.column - chars(gap), ..old }
        } else {
            let before = &text[..from];
            let line_start = memchr::memrchr(b'\n', before.as_bytes()).map_or(0, |i| i + 1);
            Cursor {
                at: offset,
                breaks: old.breaks - gap_breaks,
                line_start: line_start as u32,
                column: chars(&before[line_start..]),
            }
        };
        self.cursor.set(new);
        new
    }

    /// The smallest range of whole lines of `lines_text` (line breaks at its ends excluded)
    /// covering `range` (a range of `lines_text`).
    pub fn whole_lines(&self, range: TextRange) -> TextRange {
        let text = self.lines_text.as_bytes();
        let start = memchr::memrchr(b'\n', &text[..range.start as usize]).map_or(0, |i| i + 1);
        let mut end = memchr::memchr(b'\n', &text[range.end as usize..])
            .map_or(text.len(), |i| range.end as usize + i);
        if end > range.end as usize && text[end - 1] == b'\r' {
            end -= 1;
        }
        TextRange::from(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_from_the_file_start() {
        // The game starts in the middle of line 4, after "é 1-0 ".
        let file = "a\nb\nc\né 1-0 {♘} e4\r\n𝄞 Nf3 *\n\n[Event \"next\"]";
        let start = file.find("{♘}").unwrap();
        let end = file.find("[Event").unwrap();
        let text = GameText::new("f.pgn", file, TextRange::from(start..end), 3);
        assert_eq!(text.lines_text, "é 1-0 {♘} e4\r\n𝄞 Nf3 *\n");
        let game = &file[start..end];
        let e4 = game.find("e4").unwrap() as u32;
        assert_eq!(text.position(e4), Position { line: 4, column: 11 });
        let nf3 = game.find("Nf3").unwrap() as u32;
        assert_eq!(text.position(nf3), Position { line: 5, column: 3 });
        assert_eq!(&text.lines_text[text.local(TextRange::new(e4, e4 + 2))], "e4");
        // Backwards too: the line cursor moves both ways.
        assert_eq!(text.position(e4), Position { line: 4, column: 11 });
        assert_eq!(text.position(0), Position { line: 4, column: 7 });
    }

    #[test]
    fn a_game_ending_mid_line_keeps_its_whole_last_line() {
        let file = "1. e4 * 1. d4 *";
        let text = GameText::new("f.pgn", file, TextRange::new(0, 8), 0);
        assert_eq!(text.lines_text, file);
        assert_eq!(text.line_number(0), 1);
    }

    #[test]
    fn whole_lines_exclude_line_breaks() {
        let file = "ab\r\ncd\nef";
        let text = GameText::new("f.pgn", file, TextRange::new(0, 9), 0);
        assert_eq!(text.whole_lines(TextRange::new(1, 1)), TextRange::new(0, 2));
        assert_eq!(text.whole_lines(TextRange::new(4, 5)), TextRange::new(4, 6));
        assert_eq!(text.whole_lines(TextRange::new(1, 8)), TextRange::new(0, 9));
    }
}
