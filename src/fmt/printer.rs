//! The greedy line filler (§8.2.1): words go on the current line while it stays within the
//! width, so every line holds as many tokens as fit; a line never starts or ends with a space.
//! A unit of words tied together (by `Sep::Tie` or `Sep::Join`) moves to the next line as a
//! whole; a unit wider than the line gets a line of its own. A run of single-spaced words is
//! filled the same way, a line at a time rather than a word at a time.
//!
//! Words are printed as they come, straight into the output. Where a unit starts after a space,
//! whether that space is to be a line break depends on the words tied to it, which come later:
//! the space is printed, and turned into a line break once the unit is known not to fit (a
//! byte replaced in place; the words after it stay as they are, only their column changes).
//! Where nothing separates the unit from the word before (`Sep::Break`, between the `)` of
//! variations that end together, which seldom break) the line break is inserted. The
//! same holds for the last word of a run and the words tied to it. A unit is known when a word
//! that may start a line comes, or a word inside which a line may end (a run of several words, a
//! word of several lines), which is placed only once the break before it is settled.

use super::doc::Sep;
use crate::text::{first_space, last_space};

/// The greedy filler's state: where the output stands, and the space that may yet become a line
/// break.
pub(crate) struct Printer {
    max_width: usize,
    column: usize,
    /// Whether a word has been printed (the first word takes no separator).
    started: bool,
    pending: Option<Break>,
}

/// A space printed before a word whose unit is not known yet (or the place of one not printed);
/// it becomes a line break if the unit does not fit on the line.
#[derive(Clone, Copy)]
struct Break {
    /// Where the space is in the output, or, where there is none, the line break goes (before
    /// the word's first byte, which is no space).
    space_at: usize,
    /// The column of the word after it.
    column: usize,
    /// The width of the unit from that word on so far, up to its first line end.
    width: usize,
}

impl Printer {
    /// A printer at column 0 of an empty line, for lines of at most `max_width` printing
    /// characters where the words allow it.
    pub fn new(max_width: usize) -> Self {
        Printer { max_width, column: 0, started: false, pending: None }
    }

    /// Settle the last line break; returns whether any word was printed.
    pub fn finish(&mut self, out: &mut String) -> bool {
        self.settle(out);
        self.started
    }

    /// Print `text`, a word joined to the one before by `sep`: `first_width` printing
    /// characters up to its first line end, and `last_width` on its last line when it has more
    /// than one.
    #[inline]
    pub fn word(
        &mut self,
        out: &mut String,
        sep: Sep,
        text: &str,
        first_width: usize,
        last_width: Option<usize>,
    ) {
        self.separate(sep, out);
        self.extend(first_width);
        match last_width {
            None => self.column += first_width,
            Some(last) => {
                self.settle(out);
                self.column = last;
            }
        }
        out.push_str(text);
    }

    /// Print the ASCII word of one line that `write` appends to `out`, joined to the one before
    /// by `sep`.
    #[inline]
    pub fn written(&mut self, out: &mut String, sep: Sep, write: impl FnOnce(&mut String)) {
        self.separate(sep, out);
        let start = out.len();
        write(out);
        let width = out.len() - start;
        self.extend(width);
        self.column += width;
    }

    /// Print `run`, single-spaced ASCII words, between `open` and `close` (ASCII text tied to
    /// its first and last words, such as the braces of a comment), joined to the word before by
    /// `sep`: the first word on the current line and each later one on the line when it fits.
    /// The words that fit on a line are found at once: they end at the last space within the
    /// room left, as word-by-word filling would end the line there. The last word moves to the
    /// next line later if the words tied to it do not fit after it.
    pub fn run(&mut self, out: &mut String, sep: Sep, [open, run, close]: [&str; 3]) {
        self.separate(sep, out);
        out.push_str(open);
        let bytes = run.as_bytes();
        let len = bytes.len();
        // `at`: where the words not placed yet start. On a line with words, that is the space
        // before the next word; at the start of a line, the next word itself.
        let mut at = first_space(bytes).unwrap_or(len);
        if at == len {
            out.push_str(run);
            out.push_str(close);
            let width = open.len() + len + close.len();
            self.extend(width);
            self.column += width;
            return;
        }
        self.extend(open.len() + at);
        self.column += open.len() + at;
        // A line may end inside the run: the unit before it is complete.
        self.settle(out);
        // The run goes out whole, then the last space of each full line becomes a line break in
        // place: `run[i]` is at `out[start + i]`.
        let start = out.len();
        out.push_str(run);
        out.push_str(close);
        loop {
            let room = self.max_width.saturating_sub(self.column);
            let rest = len - at;
            if rest + close.len() <= room {
                // The rest fits. Its last word, unless it starts the line, moves to the next
                // line when the words tied to it do not fit.
                self.pending = last_space(&bytes[at..]).map(|space| Break {
                    space_at: start + at + space,
                    column: self.column + space + 1,
                    width: rest - (space + 1) + close.len(),
                });
                self.column += rest + close.len();
                return;
            }
            // The words ending at the last space within reach fit; the word after them does
            // not (or the close after it does not), so it starts the next line. At the start
            // of a line, the first word goes there whatever its width.
            let reach = (at + room).min(len - 1);
            let fitting = if reach > at { last_space(&bytes[at + 1..=reach]) } else { None };
            let end = match fitting {
                Some(end) => at + 1 + end,
                None if self.column == 0 => first_space(&bytes[at..]).map_or(len, |end| at + end),
                None => at,
            };
            if end == len {
                self.column += rest + close.len();
                return;
            }
            make_line_break(out, start + end);
            self.column = 0;
            at = end + 1;
        }
    }

    /// Print what stands between the last word printed and the next, joined to it by `sep`.
    #[inline]
    fn separate(&mut self, sep: Sep, out: &mut String) {
        if !self.started {
            self.started = true;
            return;
        }
        match sep {
            Sep::Line => {
                self.settle(out);
                out.push('\n');
                self.column = 0;
            }
            Sep::Space => {
                self.settle(out);
                if self.column > 0 {
                    out.push(' ');
                    self.column += 1;
                    self.pending =
                        Some(Break { space_at: out.len() - 1, column: self.column, width: 0 });
                }
            }
            Sep::Break => {
                self.settle(out);
                if self.column > 0 {
                    self.pending =
                        Some(Break { space_at: out.len(), column: self.column, width: 0 });
                }
            }
            Sep::Tie => {
                out.push(' ');
                self.column += 1;
                self.extend(1);
            }
            Sep::Join => {}
        }
    }

    /// Count `width` more printing characters in the unit after the pending break.
    #[inline]
    fn extend(&mut self, width: usize) {
        if let Some(pending) = &mut self.pending {
            pending.width += width;
        }
    }

    /// The unit after the pending break is complete: make the break a line break if the unit
    /// does not fit on the line.
    #[inline]
    fn settle(&mut self, out: &mut String) {
        if let Some(pending) = self.pending.take()
            && pending.column + pending.width > self.max_width
        {
            self.break_line(out, pending);
        }
    }

    /// Make the space of `pending` a line break. Out of line, so that the separators printed
    /// most often (before moves and their numbers), which settle a break each but seldom break
    /// the line, stay short.
    #[cold]
    #[inline(never)]
    fn break_line(&mut self, out: &mut String, pending: Break) {
        // No word starts with a space: one there is the space printed before the word.
        if out.as_bytes().get(pending.space_at) == Some(&b' ') {
            make_line_break(out, pending.space_at);
        } else {
            out.insert(pending.space_at, '\n');
        }
        self.column -= pending.column;
    }
}

/// Turn the space at `at` in `out` into a line break: one byte written in place. The engine
/// logs of computer chess archives break lines in every comment, and `String::replace_range`
/// (a splice) held 4% of the samples of formatting such an archive (`perf`).
fn make_line_break(out: &mut String, at: usize) {
    assert_eq!(out.as_bytes()[at], b' ', "a line breaks at a space");
    // SAFETY: the byte replaced is a space, a character of one byte, and a line break is one
    // too: the text stays UTF-8.
    unsafe { out.as_bytes_mut()[at] = b'\n' };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmt::doc::{Doc, width};

    fn printed(words: &[(Sep, &str)], max_width: usize) -> String {
        let mut out = String::new();
        let mut doc = Doc::new(&mut out, max_width);
        for &(sep, text) in words {
            if text.contains('\n') {
                doc.push_written_lines(sep, |out| out.push_str(text));
            } else {
                doc.push(sep, text);
            }
        }
        doc.finish();
        out
    }

    #[test]
    fn fills_lines_greedily_without_edge_spaces() {
        let words =
            [(Sep::Space, "aaa"), (Sep::Space, "bb"), (Sep::Space, "cc"), (Sep::Space, "d")];
        assert_eq!(printed(&words, 6), "aaa bb\ncc d");
        assert_eq!(printed(&words, 5), "aaa\nbb cc\nd");
    }

    #[test]
    fn tied_and_joined_words_move_together() {
        let words = [(Sep::Space, "xx"), (Sep::Space, "("), (Sep::Join, "ab"), (Sep::Tie, "cd")];
        assert_eq!(printed(&words, 8), "xx\n(ab cd");
        assert_eq!(printed(&words, 9), "xx (ab cd");
    }

    #[test]
    fn a_unit_wider_than_the_line_gets_its_own_line() {
        let words = [(Sep::Space, "a"), (Sep::Space, "0123456789"), (Sep::Space, "b")];
        assert_eq!(printed(&words, 5), "a\n0123456789\nb");
    }

    #[test]
    fn line_separators_and_multi_line_words() {
        let words = [(Sep::Space, ";x"), (Sep::Line, "{ a\nbcd }"), (Sep::Space, "ef")];
        assert_eq!(printed(&words, 9), ";x\n{ a\nbcd } ef");
        assert_eq!(printed(&words, 7), ";x\n{ a\nbcd }\nef");
    }

    /// A word of a document as the property test makes it.
    #[derive(Clone, Debug)]
    enum Item {
        Word(String),
        /// Single-spaced words, pushed as a run.
        Run(String),
        /// A word of several lines.
        Lines(String),
    }

    /// The greedy rule applied to a whole document at once, a word at a time, runs split into
    /// their words: a word after a space goes on the line if the unit it starts fits, up to the
    /// first line end of a word of several lines.
    fn printed_by_the_rule(items: &[(Sep, Item)], max_width: usize) -> String {
        let mut words: Vec<(Sep, &str)> = Vec::new();
        for (sep, item) in items {
            match item {
                Item::Word(text) | Item::Lines(text) => words.push((*sep, text)),
                Item::Run(run) => {
                    let mut run_words = run.split(' ');
                    words.extend(run_words.next().map(|first| (*sep, first)));
                    words.extend(run_words.map(|word| (Sep::Space, word)));
                }
            }
        }
        let first_width = |text: &str| width(text.split('\n').next().unwrap_or(text));
        let unit_width = |rest: &[(Sep, &str)]| {
            let mut unit = first_width(rest[0].1);
            for &(sep, text) in rest.iter().skip(1).take_while(|_| !rest[0].1.contains('\n')) {
                match sep {
                    Sep::Tie => unit += 1 + first_width(text),
                    Sep::Join => unit += first_width(text),
                    Sep::Space | Sep::Break | Sep::Line => break,
                }
                if text.contains('\n') {
                    break;
                }
            }
            unit
        };
        let mut out = String::new();
        let mut column = 0;
        for (i, &(sep, text)) in words.iter().enumerate() {
            let space = match sep {
                _ if i == 0 => None,
                Sep::Line => Some('\n'),
                Sep::Space if column == 0 => None,
                Sep::Space if column + 1 + unit_width(&words[i..]) <= max_width => Some(' '),
                Sep::Space => Some('\n'),
                Sep::Break if column == 0 => None,
                Sep::Break if column + unit_width(&words[i..]) <= max_width => None,
                Sep::Break => Some('\n'),
                Sep::Tie => Some(' '),
                Sep::Join => None,
            };
            if let Some(space) = space {
                out.push(space);
                column = if space == '\n' { 0 } else { column + 1 };
            }
            out.push_str(text);
            column = match text.rsplit_once('\n') {
                Some((_, last)) => width(last),
                None => column + width(text),
            };
        }
        out
    }

    fn printed_by_the_printer(items: &[(Sep, Item)], max_width: usize) -> String {
        let mut out = String::new();
        let mut doc = Doc::new(&mut out, max_width);
        for (sep, item) in items {
            match item {
                Item::Word(text) => doc.push(*sep, text),
                Item::Run(run) => doc.push_run(*sep, ["", run, ""]),
                Item::Lines(text) => doc.push_written_lines(*sep, |out| out.push_str(text)),
            }
        }
        doc.finish();
        out
    }

    fn item() -> impl proptest::strategy::Strategy<Value = (Sep, Item)> {
        use proptest::prelude::*;
        let sep = prop_oneof![
            Just(Sep::Space),
            Just(Sep::Tie),
            Just(Sep::Join),
            Just(Sep::Break),
            Just(Sep::Line)
        ];
        let item = prop_oneof![
            4 => "[a-c(){}é]{1,9}".prop_map(Item::Word),
            2 => "[a-c]{1,7}( [a-c]{1,7}){0,6}".prop_map(Item::Run),
            1 => "[a-c]{0,5}(\n[a-cé]{0,5}){1,2}[a-c]".prop_map(Item::Lines),
        ];
        (sep, item)
    }

    proptest::proptest! {
        #[test]
        fn printing_as_words_come_follows_the_rule(
            items in proptest::collection::vec(item(), 0..24),
            max_width in 1usize..30,
        ) {
            proptest::prop_assert_eq!(
                printed_by_the_printer(&items, max_width),
                printed_by_the_rule(&items, max_width)
            );
        }
    }

    #[test]
    fn width_counts_characters_not_bytes() {
        let words = [(Sep::Space, "♘♘♘"), (Sep::Space, "é")];
        assert_eq!(printed(&words, 5), "♘♘♘ é");
    }
}
