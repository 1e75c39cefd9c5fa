//! The greedy line filler (§8.2.1): words go on the current line while it stays within the
//! width, so every line holds as many tokens as fit; a line never starts or ends with a space.
//! A unit of words tied together (by `Sep::Tie` or `Sep::Join`) moves to the next line as a
//! whole; a unit wider than the line gets a line of its own. A run of single-spaced words is
//! filled the same way, a line at a time rather than a word at a time.

use memchr::{memchr, memrchr};

use super::doc::{Doc, Sep, Word};

/// Print `doc` into `out` with at most `max_width` printing characters per line where the words
/// allow it. Adds no final line break.
pub(crate) fn print(doc: &Doc<'_>, max_width: usize, out: &mut String) {
    let words = doc.words();
    let mut column = 0usize;
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            match word.sep {
                Sep::Line => {
                    out.push('\n');
                    column = 0;
                }
                Sep::Space if column > 0 && column + 1 + unit_width(&words[i..]) <= max_width => {
                    out.push(' ');
                    column += 1;
                }
                Sep::Space if column > 0 => {
                    out.push('\n');
                    column = 0;
                }
                Sep::Space | Sep::Join => {}
                Sep::Tie => {
                    out.push(' ');
                    column += 1;
                }
            }
        }
        if let Some(run) = doc.run_text(word) {
            let tail = tied_width(&words[i + 1..]);
            column = print_run(run, column, max_width, tail, out);
            continue;
        }
        out.push_str(doc.word_text(word));
        column = match word.last_width {
            Some(last) => last,
            None => column + word.first_width,
        };
    }
}

/// The width, up to its first line end, of the unit that starts with `words[0]`: the word and
/// the words tied or joined to it.
fn unit_width(words: &[Word<'_>]) -> usize {
    match words.split_first() {
        None => 0,
        Some((first, _)) if first.ends_unit() => first.first_width,
        Some((first, rest)) => first.first_width + tied_width(rest),
    }
}

/// The width, up to its first line end, of the words at the start of `words` tied or joined to
/// the word before them.
fn tied_width(words: &[Word<'_>]) -> usize {
    let mut width = 0;
    for word in words {
        match word.sep {
            Sep::Tie => width += 1,
            Sep::Join => {}
            Sep::Space | Sep::Line => break,
        }
        width += word.first_width;
        if word.ends_unit() {
            break;
        }
    }
    width
}

/// Print the run of single-spaced ASCII words `run` from `column`, its first word on the current
/// line and each later one on the line when it fits (the last one with the `tail` of words tied
/// to it); returns the column after it. The words that fit on a line are found at once: they end
/// at the last space within the room left, as word-by-word filling would end the line there.
fn print_run(
    run: &str,
    mut column: usize,
    max_width: usize,
    tail: usize,
    out: &mut String,
) -> usize {
    let bytes = run.as_bytes();
    // `at`: the end of the words printed, the space before the next word or the end of the run.
    let mut at = memchr(b' ', bytes).unwrap_or(bytes.len());
    out.push_str(&run[..at]);
    column += at;
    while at < bytes.len() {
        let room = max_width.saturating_sub(column);
        if bytes.len() - at + tail <= room {
            out.push_str(&run[at..]);
            return column + bytes.len() - at;
        }
        // The words ending at the last space within reach fit; the word after them does not
        // (the last word of all has not fit with its tail), so it starts the next line.
        let reach = (at + room).min(bytes.len() - 1);
        if reach > at
            && let Some(end) = memrchr(b' ', &bytes[at + 1..=reach])
        {
            let end = at + 1 + end;
            out.push_str(&run[at..end]);
            at = end;
        }
        let start = at + 1;
        at = memchr(b' ', &bytes[start..]).map_or(bytes.len(), |len| start + len);
        out.push('\n');
        out.push_str(&run[start..at]);
        column = at - start;
    }
    column
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(words: &[(Sep, &str)], max_width: usize) -> String {
        let mut doc = Doc::default();
        for &(sep, text) in words {
            if text.contains('\n') {
                doc.push_written_lines(sep, |out| out.push_str(text));
            } else {
                doc.push(sep, text);
            }
        }
        let mut out = String::new();
        print(&doc, max_width, &mut out);
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

    #[test]
    fn width_counts_characters_not_bytes() {
        let words = [(Sep::Space, "♘♘♘"), (Sep::Space, "é")];
        assert_eq!(printed(&words, 5), "♘♘♘ é");
    }
}
