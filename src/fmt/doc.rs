//! The document IR (DESIGN §5): a list of words, each with the separator that joins it to the
//! word before. Words are unbreakable; only `Sep::Space` may become a line break. Most words
//! are slices of the game's text; the others (move numbers, SAN that differs from the text,
//! NAGs) are written into one string, so building a game's document allocates little. A comment
//! already single-spaced is one entry, a run of words, rather than one entry per word.

use std::ops::Range;

/// What stands between a word and the word before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sep {
    /// One space, or a line break when the word (with the words tied to it) does not fit.
    Space,
    /// One space that never breaks: `{ first`, `last }`, inside `[%command ...]`.
    Tie,
    /// Nothing, and never a break: `(` and the first move of the variation, the last one and `)`.
    Join,
    /// A line break: after a `;` comment, around a `%` escape line.
    Line,
}

/// One unbreakable word, or a run of words (see `Doc::push_run`). A word kept verbatim (a
/// comment whose text is kept as written) may span lines; the printer then counts its first and
/// last lines.
#[derive(Clone, Debug)]
pub(crate) struct Word<'s> {
    pub sep: Sep,
    text: Text<'s>,
    /// Printing characters on the word's first line (of a run: in its first word).
    pub first_width: usize,
    /// Printing characters on its last line, when it has more than one.
    pub last_width: Option<usize>,
}

impl Word<'_> {
    /// Whether a line may end inside the word: it spans lines, or it is a run of several words.
    pub fn ends_unit(&self) -> bool {
        self.last_width.is_some()
            || matches!(self.text, Text::Run(run) if run.len() > self.first_width)
    }
}

/// Where a word's text is: in the game's text (most words), or written into the document.
#[derive(Clone, Debug)]
enum Text<'s> {
    Borrowed(&'s str),
    Written(Range<usize>),
    /// Words of the game's text separated by single spaces, each of which may become a line
    /// break (a re-flowed comment that is single-spaced already): one entry instead of one per
    /// word.
    Run(&'s str),
}

/// A document: words, and the text written for those not taken from the game's text.
#[derive(Debug, Default)]
pub(crate) struct Doc<'s> {
    written: String,
    words: Vec<Word<'s>>,
    /// The next word starts a new line whatever separator it asks for.
    line_pending: bool,
}

impl<'s> Doc<'s> {
    /// A document with room for about `words` words.
    pub fn with_capacity(words: usize) -> Self {
        Doc {
            written: String::with_capacity(words * 2),
            words: Vec::with_capacity(words),
            line_pending: false,
        }
    }

    pub fn words(&self) -> &[Word<'s>] {
        &self.words
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    pub fn word_text<'d>(&'d self, word: &Word<'s>) -> &'d str
    where
        's: 'd,
    {
        match &word.text {
            Text::Borrowed(text) | Text::Run(text) => text,
            Text::Written(range) => &self.written[range.clone()],
        }
    }

    /// The text of `word` when it is a run of words.
    pub fn run_text(&self, word: &Word<'s>) -> Option<&'s str> {
        match word.text {
            Text::Run(run) => Some(run),
            _ => None,
        }
    }

    /// Append a word of one line.
    pub fn push(&mut self, sep: Sep, word: &'s str) {
        debug_assert!(!word.contains('\n'), "{word:?}");
        self.push_word(sep, Text::Borrowed(word), width(word), None);
    }

    /// Append a run of words: non-empty ASCII text of one line whose words are separated by
    /// single spaces, any of which the printer may turn into a line break. The first word is
    /// joined to what precedes by `sep`.
    pub fn push_run(&mut self, sep: Sep, run: &'s str) {
        debug_assert!(
            !run.is_empty()
                && run.is_ascii()
                && !run.starts_with(' ')
                && !run.ends_with(' ')
                && !run.contains("  ")
                && !run.bytes().any(|b| matches!(b, b'\t'..=b'\r')),
            "{run:?}"
        );
        let first_width = memchr::memchr(b' ', run.as_bytes()).unwrap_or(run.len());
        self.push_word(sep, Text::Run(run), first_width, None);
    }

    /// Append a word of one line written by `write` (move numbers, SAN, NAGs).
    pub fn push_written(&mut self, sep: Sep, write: impl FnOnce(&mut String)) {
        let start = self.written.len();
        write(&mut self.written);
        let text = &self.written[start..];
        debug_assert!(!text.contains('\n'), "{text:?}");
        let width = width(text);
        self.push_word(sep, Text::Written(start..self.written.len()), width, None);
    }

    /// Append a word written by `write` that may span lines (a comment kept as written).
    pub fn push_written_lines(&mut self, sep: Sep, write: impl FnOnce(&mut String)) {
        let start = self.written.len();
        write(&mut self.written);
        let text = &self.written[start..];
        let (first_width, last_width) = match text.split_once('\n') {
            None => (width(text), None),
            Some((first, rest)) => {
                (width(first), Some(width(rest.rsplit('\n').next().unwrap_or(rest))))
            }
        };
        self.push_word(sep, Text::Written(start..self.written.len()), first_width, last_width);
    }

    fn push_word(
        &mut self,
        sep: Sep,
        text: Text<'s>,
        first_width: usize,
        last_width: Option<usize>,
    ) {
        let sep = if std::mem::take(&mut self.line_pending) { Sep::Line } else { sep };
        self.words.push(Word { sep, text, first_width, last_width });
    }

    /// Make the next word start a new line (the line ends after a `;` comment or an escape).
    pub fn end_line(&mut self) {
        self.line_pending = true;
    }
}

/// Write `n` in decimal (without the formatting machinery: move numbers are many).
pub(crate) fn write_number(out: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// Printing characters in `text` (§8.2.1 counts characters, not bytes).
pub(crate) fn width(text: &str) -> usize {
    if text.is_ascii() { text.len() } else { text.chars().count() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 7, 10, 23, 999, u32::MAX] {
            let mut out = String::new();
            write_number(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }
}
