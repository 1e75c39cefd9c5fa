//! The document IR (DESIGN §5): words, each with the separator that joins it to the word
//! before. Words are unbreakable; only `Sep::Space` and `Sep::Break` may become a line break.
//! A document is not held: its words go to the printer as they are added, straight into the
//! output. Most words are slices of the game's text; the others (move numbers, SAN that differs
//! from the text, NAGs) are written in place. A comment already single-spaced is one entry, a
//! run of words, rather than one entry per word.

use super::printer::Printer;

/// What stands between a word and the word before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sep {
    /// One space, or a line break when the word (with the words tied to it) does not fit.
    Space,
    /// One space that never breaks: `{ first`, `last }`, inside `[%command ...]`.
    Tie,
    /// Nothing, and never a break: `(` and the first move of the variation, the last one and `)`.
    Join,
    /// Nothing, or a line break when the word (with the words tied to it) does not fit: between
    /// the `)` of variations that end together, so that many of them fit the width.
    Break,
    /// A line break: after a `;` comment, around a `%` escape line.
    Line,
}

/// A document printed into `out` as its words are added.
pub(crate) struct Doc<'o> {
    out: &'o mut String,
    printer: Printer,
    /// The next word starts a new line whatever separator it asks for.
    line_pending: bool,
    /// The text of a word of several lines, written before it is printed.
    scratch: String,
}

impl<'o> Doc<'o> {
    /// A document printed at the end of `out`, from column 0, with at most `max_width` printing
    /// characters per line where the words allow it.
    pub fn new(out: &'o mut String, max_width: usize) -> Self {
        Doc { out, printer: Printer::new(max_width), line_pending: false, scratch: String::new() }
    }

    /// End the document; returns whether it had any word. Adds no final line break.
    pub fn finish(mut self) -> bool {
        self.printer.finish(self.out)
    }

    /// Append a word of one line.
    #[inline]
    pub fn push(&mut self, sep: Sep, word: &str) {
        debug_assert!(!word.contains('\n'), "{word:?}");
        let sep = self.sep(sep);
        self.printer.word(self.out, sep, word, width(word), None);
    }

    /// Append a run of words: non-empty ASCII text of one line whose words are separated by
    /// single spaces, any of which the printer may turn into a line break, between `open` and
    /// `close` (ASCII text tied to its first and last words, such as a comment's braces). The
    /// first word is joined to what precedes by `sep`.
    pub fn push_run(&mut self, sep: Sep, [open, run, close]: [&str; 3]) {
        debug_assert!(
            !run.is_empty()
                && run.is_ascii()
                && !run.starts_with(' ')
                && !run.ends_with(' ')
                && !run.contains("  ")
                && !run.bytes().any(|b| matches!(b, b'\t'..=b'\r')),
            "{run:?}"
        );
        debug_assert!([open, close].iter().all(|t| t.is_ascii() && !t.contains('\n')));
        let sep = self.sep(sep);
        self.printer.run(self.out, sep, [open, run, close]);
    }

    /// Append the move number indication of a White move (`12.`), or of a Black move (`12...`).
    pub fn push_move_number(&mut self, sep: Sep, fullmove: u64, black: bool) {
        self.push_written(sep, |out| {
            write_number(out, fullmove);
            out.push_str(if black { "..." } else { "." });
        });
    }

    /// Append an ASCII word of one line written by `write` (move numbers, SAN, NAGs).
    #[inline]
    pub fn push_written(&mut self, sep: Sep, write: impl FnOnce(&mut String)) {
        let sep = self.sep(sep);
        self.printer.written(self.out, sep, |out| {
            let start = out.len();
            write(out);
            let word = &out[start..];
            debug_assert!(word.is_ascii() && !word.contains('\n'), "{word:?}");
        });
    }

    /// Append a word written by `write` that may span lines (a comment kept as written).
    pub fn push_written_lines(&mut self, sep: Sep, write: impl FnOnce(&mut String)) {
        let sep = self.sep(sep);
        self.scratch.clear();
        write(&mut self.scratch);
        let text = self.scratch.as_str();
        let (first_width, last_width) = match text.split_once('\n') {
            None => (width(text), None),
            Some((first, rest)) => {
                (width(first), Some(width(rest.rsplit('\n').next().unwrap_or(rest))))
            }
        };
        self.printer.word(self.out, sep, text, first_width, last_width);
    }

    /// Make the next word start a new line (the line ends after a `;` comment or an escape).
    pub fn end_line(&mut self) {
        self.line_pending = true;
    }

    /// The separator of the next word, which asks for `sep`.
    #[inline]
    fn sep(&mut self, sep: Sep) -> Sep {
        if std::mem::take(&mut self.line_pending) { Sep::Line } else { sep }
    }
}

/// Write `n` in decimal (without the formatting machinery: move numbers are many, and small).
pub(crate) fn write_number(out: &mut String, n: u64) {
    let digit = |d: u64| char::from(b'0' + (d % 10) as u8);
    match n {
        0..10 => out.push(digit(n)),
        10..100 => {
            out.push(digit(n / 10));
            out.push(digit(n));
        }
        _ => {
            write_number(out, n / 10);
            out.push(digit(n));
        }
    }
}

/// Printing characters in `text` (§8.2.1 counts characters, not bytes).
pub(crate) fn width(text: &str) -> usize {
    crate::text::char_count(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 7, 9, 10, 23, 99, 100, 999, 1000, u64::MAX] {
            let mut out = String::new();
            write_number(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }
}
