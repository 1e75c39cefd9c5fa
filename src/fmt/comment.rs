//! Brace comments in export format: `{ text }` with one space inside each brace (§5 leaves the
//! export form of comments open; this is the form python-chess and pgn-extract agree on).
//!
//! Re-flowed (the default), the text's words are separated by single spaces and lines may break
//! between them, except inside an embedded `[%command ...]` (clocks, evaluations, arrows) and
//! before words that would make a line look like a tag pair (`[Name "`), which the lexer would
//! read as the end of an unterminated comment. Kept as written, the text is one word: only the
//! padding inside the braces is made one space and CRLF line ends become LF.

use std::borrow::Cow;

use super::doc::{Doc, Sep};
use crate::syntax::is_tag_line;

/// The text between the braces of a closed comment token.
pub(crate) fn body(token: &str) -> &str {
    let inner = token.strip_prefix('{').unwrap_or(token);
    inner.strip_suffix('}').unwrap_or(inner)
}

/// The comment text that formatting keeps: the words joined by single spaces when re-flowing,
/// else the text with its padding and CRLF line ends normalised.
pub fn normalized(body: &str, reflow: bool) -> Cow<'_, str> {
    if reflow {
        let mut words = body.split_whitespace();
        let Some(first) = words.next() else { return Cow::Borrowed("") };
        let mut out = String::with_capacity(body.len());
        out.push_str(first);
        for word in words {
            out.push(' ');
            out.push_str(word);
        }
        Cow::Owned(out)
    } else {
        let trimmed = body.trim();
        if trimmed.contains("\r\n") {
            Cow::Owned(trimmed.replace("\r\n", "\n"))
        } else {
            Cow::Borrowed(trimmed)
        }
    }
}

/// Append the comment with text `body` to `doc`, the `{` separated by `sep` from what precedes.
pub(crate) fn push(doc: &mut Doc, sep: Sep, body: &str, reflow: bool) {
    if !reflow {
        let text = normalized(body, false);
        doc.push_with(sep, |out| {
            out.push('{');
            if !text.is_empty() {
                out.push(' ');
                out.push_str(&text);
            }
            out.push_str(" }");
        });
        return;
    }
    doc.push(sep, "{");
    let words: Vec<&str> = body.split_whitespace().collect();
    let mut in_command = false;
    for (i, word) in words.iter().enumerate() {
        let sep = if i == 0 || in_command || starts_tag_line(&words[i..]) {
            Sep::Tie
        } else {
            Sep::Space
        };
        doc.push(sep, word);
        in_command = ends_inside_command(word, in_command);
    }
    doc.push(Sep::Tie, "}");
}

/// Whether a line starting with these words would read as a tag pair.
fn starts_tag_line(words: &[&str]) -> bool {
    if !words[0].starts_with('[') {
        return false;
    }
    // `[`, the name and the opening quote can be three words at most.
    let probe = words.iter().take(3).copied().collect::<Vec<_>>().join(" ");
    is_tag_line(probe.as_bytes())
}

/// Whether an embedded command `[%...` is still open after `word`.
fn ends_inside_command(word: &str, mut inside: bool) -> bool {
    let bytes = word.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'[' if bytes.get(i + 1) == Some(&b'%') => inside = true,
            b']' => inside = false,
            _ => {}
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmt::printer::print;

    fn printed(body: &str, reflow: bool, max_width: usize) -> String {
        let mut doc = Doc::default();
        push(&mut doc, Sep::Space, body, reflow);
        let mut out = String::new();
        print(&doc, max_width, &mut out);
        out
    }

    #[test]
    fn reflow_joins_words_with_single_spaces_and_pads_braces() {
        assert_eq!(printed("a  b\n\tc", true, 79), "{ a b c }");
        assert_eq!(printed("", true, 79), "{ }");
        assert_eq!(printed(" \n ", true, 79), "{ }");
        assert_eq!(printed("one two three", true, 9), "{ one two\nthree }");
        assert_eq!(printed("one two three", true, 8), "{ one\ntwo\nthree }");
    }

    #[test]
    fn commands_never_break() {
        let out = printed("[%clk 0:01:02]   [%cal Ge2e4,\nGd2d4] end", true, 16);
        assert_eq!(out, "{ [%clk 0:01:02]\n[%cal Ge2e4, Gd2d4]\nend }");
    }

    #[test]
    fn no_line_inside_a_comment_looks_like_a_tag_pair() {
        let out = printed("see [Event \"x\"] and [ Site \"y\"]", true, 5);
        for line in out.lines().skip(1) {
            assert!(!is_tag_line(line.as_bytes()), "{out}");
        }
    }

    #[test]
    fn kept_text_normalises_only_padding_and_crlf() {
        assert_eq!(printed("a  b\r\n c", false, 79), "{ a  b\n c }");
        assert_eq!(printed("   ", false, 79), "{ }");
        assert_eq!(normalized("\n x  y \n", false), "x  y");
        assert_eq!(normalized("\n x  y \n", true), "x y");
    }
}
