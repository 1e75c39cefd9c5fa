//! The import format's line-length limit (§4.3), checked as the parser's tokens go by: one
//! diagnostic per game, at its first long line and counting the others, so that a file written
//! with one line per game, or engine output, does not drown its other diagnostics.
//!
//! Line breaks lie in the gaps between tokens, or inside comments. The gap before each token is
//! looked at (nearly always one byte, already in the cache); token text is searched only when
//! the line as known reaches past the limit: at a long line, or after a comment of several
//! lines. A line is what lies between two `\n`; the `\r`s before the `\n` are no part of it.

use super::diagnostic::{Code, Diagnostic};
use crate::text::{TextRange, char_count};

/// The longest line and string the import format allows (§4.3, §7).
pub(super) const IMPORT_LIMIT: usize = 255;

/// The lines of one game seen so far.
pub(super) struct LineLengths {
    /// Where the line not yet judged starts: every line before it has been judged.
    line_start: u32,
    /// Where the bytes not yet searched for line breaks begin, when that is past `line_start`:
    /// no `\n` lies between the two.
    searched_to: u32,
    /// How far a token may end and leave nothing to do but look at the gap before it: the
    /// limit past the line's start, or the end of a line already known to be long.
    bound: u32,
    /// The first long line and its length in characters.
    first: Option<(TextRange, usize)>,
    long_lines: usize,
}

impl Default for LineLengths {
    fn default() -> Self {
        LineLengths { line_start: 0, searched_to: 0, bound: LIMIT, first: None, long_lines: 0 }
    }
}

/// [`IMPORT_LIMIT`] as an offset.
const LIMIT: u32 = IMPORT_LIMIT as u32;

impl LineLengths {
    /// Take in the token at `token` of `src`, the bytes from `gap_start` to it being blanks.
    #[inline(always)]
    pub(super) fn token(&mut self, src: &str, gap_start: u32, token: TextRange) {
        if token.end > self.bound {
            self.search(src, token.end);
            return;
        }
        // Up to the token's end the line is within the limit, or one known to be long: only its
        // start can move, to after the last line break of the gap.
        let bytes = src.as_bytes();
        if token.start > gap_start && bytes[token.start as usize - 1] == b'\n' {
            self.start_line(token.start);
        } else if token.start > gap_start + 1 {
            self.gap_with_blanks(bytes, gap_start, token.start);
        }
    }

    #[inline(always)]
    fn start_line(&mut self, at: u32) {
        self.line_start = at;
        self.bound = at.saturating_add(LIMIT);
    }

    /// A gap of several bytes (the line break before an indented line, say).
    #[cold]
    fn gap_with_blanks(&mut self, bytes: &[u8], from: u32, to: u32) {
        if let Some(at) = memchr::memrchr(b'\n', &bytes[from as usize..to as usize]) {
            self.start_line(from + at as u32 + 1);
        }
    }

    /// Judge every line that ends before `to`. When the line `to` is on is already over the
    /// limit, look ahead to its end: the tokens up to there need nothing more.
    #[cold]
    #[inline(never)]
    fn search(&mut self, src: &str, to: u32) {
        self.judge_lines_before(src, to);
        if to > self.bound {
            let bytes = src.as_bytes();
            let line_end = memchr::memchr(b'\n', &bytes[to as usize..])
                .map_or(bytes.len(), |at| to as usize + at) as u32;
            self.bound = line_end;
            self.searched_to = line_end;
        }
    }

    /// Judge every line that ends before `to`, searching the bytes not searched yet.
    fn judge_lines_before(&mut self, src: &str, to: u32) {
        let from = self.searched_to.max(self.line_start);
        if from < to {
            let bytes = &src.as_bytes()[from as usize..to as usize];
            for at in memchr::memchr_iter(b'\n', bytes) {
                let line_end = from + at as u32;
                self.judge(src, TextRange::new(self.line_start, line_end));
                self.line_start = line_end + 1;
            }
            self.searched_to = to;
        }
        self.start_line(self.line_start);
    }

    fn judge(&mut self, src: &str, line: TextRange) {
        if line.len() <= LIMIT {
            return;
        }
        let text = src[line].trim_end_matches('\r');
        if text.len() <= IMPORT_LIMIT {
            return;
        }
        // Only the first long line's length is told: any other line whose bytes up to the
        // limit and one more are ASCII is over it, without counting.
        let ascii_over = self.first.is_some() && text.as_bytes()[..=IMPORT_LIMIT].is_ascii();
        if !ascii_over {
            let chars = char_count(text);
            if chars <= IMPORT_LIMIT {
                return;
            }
            if self.first.is_none() {
                let range = TextRange::new(line.start, line.start + text.len() as u32);
                self.first = Some((range, chars));
            }
        }
        self.long_lines += 1;
    }

    /// The diagnostic for the game's long lines, its text ending at `end`, if it has any.
    pub(super) fn finish(mut self, src: &str, end: u32) -> Option<Diagnostic> {
        // The game's last line ends at `end`: nothing to look ahead to.
        self.judge_lines_before(src, end);
        self.judge(src, TextRange::new(self.line_start, end));
        let (range, chars) = self.first?;
        let others = match self.long_lines - 1 {
            0 => String::new(),
            1 => " (and 1 more line of this game)".to_owned(),
            n => format!(" (and {n} more lines of this game)"),
        };
        let message =
            format!("line of {chars} characters; the import format allows {IMPORT_LIMIT}{others}");
        Some(Diagnostic::new(Code::LineTooLong, range, message))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::syntax::parse_games;

    /// The long lines of `text` the plain way: each line, its characters counted.
    fn long_lines(text: &str) -> Vec<(TextRange, usize)> {
        let mut start = 0;
        let mut found = Vec::new();
        for line in text.split('\n') {
            let content = line.trim_end_matches('\r');
            let chars = content.chars().count();
            if chars > IMPORT_LIMIT {
                found.push((TextRange::from(start..start + content.len()), chars));
            }
            start += line.len() + 1;
        }
        found
    }

    /// What a line of the generated texts is made of: a kind and a length.
    fn piece((kind, len): (u8, usize)) -> String {
        match kind {
            0 => "x".repeat(len),
            1 => "é".repeat(len / 2),
            2 => " ".repeat(len),
            3 => "\t".to_owned(),
            4 => "{".to_owned(),
            5 => "}".to_owned(),
            6 => "\r".to_owned(),
            _ => ";".to_owned(),
        }
    }

    proptest! {
        /// Each game's line-length diagnostic reports its first long line and counts the
        /// others, as a visit of every line would, however the lines' lengths fall around the
        /// limit and wherever their breaks lie: between tokens, after blanks, inside comments.
        #[test]
        fn long_lines_are_found_as_by_visiting_every_line(
            lines in prop::collection::vec(
                (prop::collection::vec((0u8..8, 0usize..300), 0..6), 0usize..3),
                0..12,
            )
        ) {
            let text: String = lines
                .iter()
                .map(|(pieces, end)| {
                    let line: String = pieces.iter().copied().map(piece).collect();
                    format!("{line}{}", ["\n", "\r\n", ""][*end])
                })
                .collect();
            for (start, game) in parse_games(&text) {
                let game_text = &text[start as usize..(start + game.len) as usize];
                let reported: Vec<_> = game
                    .diagnostics
                    .iter()
                    .filter(|d| d.code == Code::LineTooLong)
                    .map(|d| (d.range, d.message.clone()))
                    .collect();
                let expected = long_lines(game_text);
                prop_assert_eq!(reported.len(), usize::from(!expected.is_empty()));
                if let (Some((range, message)), Some(&(first, chars))) =
                    (reported.first(), expected.first())
                {
                    prop_assert_eq!(*range, first);
                    let told = format!("line of {chars} characters");
                    prop_assert!(message.starts_with(&told), "{}", message);
                    let others = expected.len() - 1;
                    let counted = format!("and {others} more line");
                    prop_assert_eq!(message.contains(&counted), others > 0, "{}", message);
                }
            }
        }
    }

    #[test]
    fn a_long_line_is_told_once_with_the_others_counted() {
        let long = format!("1. e4 {{{}}} e5\n", "x".repeat(300));
        let text = format!("{long}2. Nf3 Nc6\n{long}{long}*\n");
        let game = parse_games(&text).next().unwrap().1;
        let d = game.diagnostics.iter().find(|d| d.code == Code::LineTooLong).unwrap();
        assert_eq!(d.range, TextRange::from(0..long.len() - 1));
        assert_eq!(
            d.message,
            "line of 311 characters; the import format allows 255 (and 2 more lines of this game)"
        );
    }
}
