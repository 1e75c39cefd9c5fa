//! The document IR (DESIGN §5): a list of words, each with the separator that joins it to the
//! word before. Words are unbreakable; only `Sep::Space` may become a line break. The words'
//! text lives in one string, so building a game's document allocates little.

use std::fmt::Write as _;
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

/// One unbreakable word. A word kept verbatim (a comment whose text is kept as written) may
/// span lines; the printer then counts its first and last lines. Offsets and widths are `u32`
/// (texts are limited to 4 GiB, as everywhere): a game of millions of moves has millions of
/// words.
#[derive(Clone, Debug)]
pub(crate) struct Word {
    pub sep: Sep,
    text: Range<u32>,
    first_width: u32,
    last_width: Option<u32>,
}

impl Word {
    /// Printing characters on the word's first line.
    pub fn first_width(&self) -> usize {
        self.first_width as usize
    }

    /// Printing characters on its last line, when it has more than one.
    pub fn last_width(&self) -> Option<usize> {
        self.last_width.map(|w| w as usize)
    }
}

/// A document: words and the text they point into.
#[derive(Debug, Default)]
pub(crate) struct Doc {
    text: String,
    words: Vec<Word>,
    /// The next word starts a new line whatever separator it asks for.
    line_pending: bool,
}

impl Doc {
    /// An empty document with room for `words` words of `text` bytes in all (a game's
    /// movetext has about one word per node: growing a vector of millions of words by doubling
    /// would hold it twice over).
    pub fn with_capacity(words: usize, text: usize) -> Self {
        Doc {
            text: String::with_capacity(text),
            words: Vec::with_capacity(words),
            line_pending: false,
        }
    }

    pub fn words(&self) -> &[Word] {
        &self.words
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    pub fn word_text(&self, word: &Word) -> &str {
        &self.text[word.text.start as usize..word.text.end as usize]
    }

    /// Append a word.
    pub fn push(&mut self, sep: Sep, word: &str) {
        self.push_with(sep, |text| text.push_str(word));
    }

    /// Append a word written by `write` (move numbers and SAN without an allocation each).
    pub fn push_with(&mut self, sep: Sep, write: impl FnOnce(&mut String)) {
        let start = self.text.len();
        write(&mut self.text);
        let text = &self.text[start..];
        let (first_width, last_width) = match text.split_once('\n') {
            None => (width(text), None),
            Some((first, rest)) => {
                (width(first), Some(width(rest.rsplit('\n').next().unwrap_or(rest))))
            }
        };
        let sep = if std::mem::take(&mut self.line_pending) { Sep::Line } else { sep };
        let text = start as u32..self.text.len() as u32;
        let (first_width, last_width) = (first_width as u32, last_width.map(|w| w as u32));
        self.words.push(Word { sep, text, first_width, last_width });
    }

    /// Append a word from its `Display` form.
    pub fn push_display(&mut self, sep: Sep, value: impl std::fmt::Display) {
        self.push_with(sep, |text| {
            let _ = write!(text, "{value}");
        });
    }

    /// Make the next word start a new line (the line ends after a `;` comment or an escape).
    pub fn end_line(&mut self) {
        self.line_pending = true;
    }
}

/// Printing characters in `text` (§8.2.1 counts characters, not bytes).
pub(crate) fn width(text: &str) -> usize {
    if text.is_ascii() { text.len() } else { text.chars().count() }
}
