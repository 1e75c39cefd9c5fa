//! The import format's line-length limit (§4.3), checked as the parser's tokens go by: one
//! diagnostic per game, at its first long line and counting the others, so that a file written
//! with one line per game, or engine output, does not drown its other diagnostics.
//!
//! Line breaks lie in the gaps between tokens, or inside comments, and the lexer tells a
//! comment with line breaks (`MultilineComment`) from one without. So the bytes of each gap are
//! looked at (nearly always one byte, already in the cache), a comment's only when it has line
//! breaks, and a line's length is known when its line break is met: no token's text is searched
//! for where its line ends. A line is what lies between two `\n`; the `\r`s before the `\n` are
//! no part of it. The limit counts a line with its line break (§4.3: "255 characters per line
//! including the newline character"), `\r\n` being one as `\n` is; a last line without one
//! counts just its characters.

use super::diagnostic::{Code, Diagnostic};
use super::lexer::{Token, TokenKind};
use crate::text::{TextRange, char_count};

/// The longest line (with its line break) and string the import format allows (§4.3, §7).
pub(super) const IMPORT_LIMIT: usize = 255;

/// The lines of one game seen so far.
#[derive(Default)]
pub(super) struct LineLengths {
    /// Where the line being read starts: every line break before it has been met, and every
    /// line before it judged.
    line_start: u32,
    /// The first long line, its length in characters, and whether a line break ends it.
    first: Option<(TextRange, usize, bool)>,
    long_lines: usize,
}

/// [`IMPORT_LIMIT`] as an offset.
const LIMIT: u32 = IMPORT_LIMIT as u32;

impl LineLengths {
    /// Take in `token` of `src`, the bytes from `gap_start` to it being blanks, or text the
    /// parser passed over (whose line breaks may have been met already).
    #[inline(always)]
    pub(super) fn token(&mut self, src: &str, gap_start: u32, token: Token) {
        let start = token.range.start;
        if start > gap_start {
            if src.as_bytes()[start as usize - 1] == b'\n' {
                if start == gap_start + 1 {
                    self.line_break(src, gap_start);
                } else {
                    // Every line that ends in the gap, with its line break, lies between the
                    // line's start and the gap's end: none is long when that is within the limit.
                    if start.saturating_sub(self.line_start) > LIMIT {
                        self.breaks_in(src, gap_start, start);
                    }
                    self.line_start = start;
                }
            } else if start > gap_start + 1 {
                self.breaks_in(src, gap_start, start);
            }
        }
        if token.kind == TokenKind::MultilineComment {
            self.breaks_in(src, start, token.range.end);
        }
    }

    /// The line break at `at` ends the line being read, unless it was met before.
    #[inline(always)]
    fn line_break(&mut self, src: &str, at: u32) {
        if at < self.line_start {
            return;
        }
        // With its line break, the line is one byte longer.
        if at + 1 - self.line_start > LIMIT {
            self.judge(src, TextRange::new(self.line_start, at), true);
        }
        self.line_start = at + 1;
    }

    /// Meet the line breaks from `from` to `to`: in a gap of several bytes (the line break
    /// before an indented line, a blank line, text the parser passed over), or in a comment of
    /// several lines.
    #[inline(never)]
    fn breaks_in(&mut self, src: &str, from: u32, to: u32) {
        let bytes = &src.as_bytes()[from as usize..to as usize];
        for at in memchr::memchr_iter(b'\n', bytes) {
            self.line_break(src, from + at as u32);
        }
    }

    /// Count `line` (without its line break, if `line_break` ends it), longer than the limit in
    /// bytes, if it is longer in characters.
    #[cold]
    #[inline(never)]
    fn judge(&mut self, src: &str, line: TextRange, line_break: bool) {
        let text = src[line].trim_end_matches('\r');
        // The characters the line may have before its line break.
        let allowed = IMPORT_LIMIT - usize::from(line_break);
        if text.len() <= allowed {
            return;
        }
        // Only the first long line's length is told: any other line whose bytes up to the
        // characters allowed and one more are ASCII is over it, without counting. (A slice of
        // a constant length: checking one of a length known at run time took five times the
        // instructions.)
        let bytes = text.as_bytes();
        let ascii_over = self.first.is_some()
            && if bytes.len() > IMPORT_LIMIT {
                bytes[..=IMPORT_LIMIT].is_ascii()
            } else {
                bytes.is_ascii()
            };
        if !ascii_over {
            let chars = char_count(text);
            if chars <= allowed {
                return;
            }
            if self.first.is_none() {
                let range = TextRange::new(line.start, line.start + text.len() as u32);
                self.first = Some((range, chars, line_break));
            }
        }
        self.long_lines += 1;
    }

    /// The diagnostic for the game's long lines, if it has any: its text ends at `end`, after
    /// blanks from `gap_start` on.
    pub(super) fn finish(mut self, src: &str, gap_start: u32, end: u32) -> Option<Diagnostic> {
        if end > gap_start {
            self.breaks_in(src, gap_start, end);
        }
        // The game's last line ends at `end`, without a line break in the game.
        if end.saturating_sub(self.line_start) > LIMIT {
            self.judge(src, TextRange::new(self.line_start, end), false);
        }
        let (range, chars, line_break) = self.first?;
        let others = match self.long_lines - 1 {
            0 => String::new(),
            1 => " (and 1 more line of this game)".to_owned(),
            n => format!(" (and {n} more lines of this game)"),
        };
        let message = format!("{}{others}", line_message(chars, line_break));
        Some(Diagnostic::new(Code::LineTooLong, range, message))
    }
}

/// What is wrong with a line of `chars` characters, and a line break if `line_break`.
fn line_message(chars: usize, line_break: bool) -> String {
    let with_break =
        if line_break { format!(", {} with its line break", chars + 1) } else { String::new() };
    format!("line of {chars} characters{with_break}; the import format allows {IMPORT_LIMIT}")
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::syntax::parse_games;

    /// The long lines of `text` the plain way: each line, its characters and its line break
    /// (all but the last have one) counted.
    fn long_lines(text: &str) -> Vec<(TextRange, usize)> {
        let mut start = 0;
        let mut found = Vec::new();
        let lines = text.split('\n').count();
        for (i, line) in text.split('\n').enumerate() {
            let content = line.trim_end_matches('\r');
            let chars = content.chars().count();
            if chars + usize::from(i + 1 < lines) > IMPORT_LIMIT {
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
            7 => ";".to_owned(),
            8 => "%".to_owned(),
            9 => "\"".to_owned(),
            10 => "[".to_owned(),
            11 => "(".to_owned(),
            _ => "\u{a0}".to_owned(),
        }
    }

    proptest! {
        /// Each game's line-length diagnostic reports its first long line and counts the
        /// others, as a visit of every line would, however the lines' lengths fall around the
        /// limit and wherever their breaks lie: between tokens, after blanks, inside comments.
        #[test]
        fn long_lines_are_found_as_by_visiting_every_line(
            lines in prop::collection::vec(
                (prop::collection::vec((0u8..13, 0usize..300), 0..6), 0usize..3),
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
            "line of 311 characters, 312 with its line break; the import format allows 255 (and 2 more lines of this game)"
        );
    }

    /// §4.3 counts a line with its line break: 254 characters and a line break are within the
    /// limit, 255 and a line break over it; a last line without a line break may have 255. A
    /// line break `\r\n` counts as one, as `\n` does.
    #[test]
    fn the_line_limit_counts_the_line_break() {
        // A comment makes a line of `n` characters: `{`, `n - 2` letters, `}`.
        let line = |n: usize| format!("{{{}}}", "x".repeat(n - 2));
        let over = "line of 255 characters, 256 with its line break; the import format allows 255";
        for (text, told) in [
            (format!("{}\n*\n", line(254)), None),
            (format!("{}\r\n*\r\n", line(254)), None),
            (format!("{}\n*\n", line(255)), Some(over)),
            (format!("{}\r\n*\r\n", line(255)), Some(over)),
            (format!("* {}", line(253)), None),
            (
                format!("* {}", line(254)),
                Some("line of 256 characters; the import format allows 255"),
            ),
        ] {
            let game = parse_games(&text).next().unwrap().1;
            let message = game
                .diagnostics
                .iter()
                .find(|d| d.code == Code::LineTooLong)
                .map(|d| d.message.as_str());
            assert_eq!(message, told, "{text:?}");
        }
    }
}
