//! Brace comments in export format: `{ text }` with one space inside each brace (§5 leaves the
//! export form of comments open; this is the form python-chess and pgn-extract agree on).
//!
//! Re-flowed (the default), the text's words are separated by single spaces and lines may break
//! between them, except inside an embedded `[%command ...]` (clocks, evaluations, arrows) and
//! before words that would make a line look like a tag pair (`[Name "`), which the lexer would
//! read as the end of an unterminated comment. Kept as written, the text is one word: only the
//! padding inside the braces is made one space and CRLF line ends become LF (with any CRs
//! right before them).

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
        let mut words = words(body);
        let Some(first) = words.next() else { return Cow::Borrowed("") };
        let mut out = String::with_capacity(body.len());
        out.push_str(first);
        for word in words {
            out.push(' ');
            out.push_str(word);
        }
        Cow::Owned(out)
    } else {
        let trimmed = trim_blanks(body);
        if trimmed.contains("\r\n") {
            Cow::Owned(lf_line_ends(trimmed))
        } else {
            Cow::Borrowed(trimmed)
        }
    }
}

/// `text` with each CRLF line end made LF, together with any CRs right before it: CR CR LF
/// (a CRLF file's line end written again through a text-mode conversion) is one line end too,
/// and keeping its first CR would leave a CRLF that the next formatting changes again.
fn lf_line_ends(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\r\n") {
        out.push_str(rest[..at].trim_end_matches('\r'));
        out.push('\n');
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

/// Append the comment with text `body` to `doc`, the `{` separated by `sep` from what precedes.
pub(crate) fn push(doc: &mut Doc<'_>, sep: Sep, body: &str, reflow: bool) {
    if !reflow {
        let text = normalized(body, false);
        doc.push_written_lines(sep, |out| {
            out.push('{');
            if !text.is_empty() {
                out.push(' ');
                out.push_str(&text);
            }
            out.push_str(" }");
        });
        return;
    }
    if let Some(run) = single_spaced(body) {
        doc.push_run(sep, ["{ ", run, " }"]);
        return;
    }
    // A comment that is one command is one word: the words of a command are tied together.
    if let Some(command) = single_command(body) {
        doc.push_written(sep, |out| {
            out.push_str("{ ");
            out.push_str(command);
            out.push_str(" }");
        });
        return;
    }
    doc.push(sep, "{");
    push_words(doc, body);
    doc.push(Sep::Tie, "}");
}

/// The text of a comment as one run of words when re-flowing it is filling lines with its
/// words as they stand: non-empty printable ASCII text (one byte a character) whose words are
/// separated by single spaces and without `[`, so that no embedded command or line looking like
/// a tag pair ties words together. The engine logs of computer chess archives are such comments.
/// (Text with other control characters than whitespace would do too; it is rare, and goes word
/// by word.)
fn single_spaced(body: &str) -> Option<&str> {
    let text = trim_blanks(body);
    (!text.is_empty() && is_plain_run(text.as_bytes())).then_some(text)
}

/// Whether `bytes` are printable ASCII characters other than `[`, with no two spaces in a row
/// and no `%` after a space (a word that must not start a line: see [`push_words`]).
/// Blocks of bytes are marked without branches, which the compiler turns into vector
/// instructions (this is most of what formatting an engine log costs).
fn is_plain_run(bytes: &[u8]) -> bool {
    // A byte is printable ASCII when, read as signed, it is at least a space.
    let unfit = |b: u8| (b as i8) < b' ' as i8 || b == b'[';
    let len = bytes.len();
    if len <= PLAIN_BLOCK {
        return is_single_spaced(bytes, |b| !unfit(b));
    }
    let mut marks = [false; PLAIN_BLOCK];
    let mut at = 0;
    while at + PLAIN_BLOCK < len {
        mark_unplain(&mut marks, bytes, at);
        at += PLAIN_BLOCK;
    }
    // The last block overlaps the one before; it leaves out the last byte, which has no byte
    // after it.
    mark_unplain(&mut marks, bytes, len - PLAIN_BLOCK - 1);
    marks == [false; PLAIN_BLOCK] && !unfit(bytes[len - 1])
}

/// The bytes [`is_plain_run`] checks at a time.
const PLAIN_BLOCK: usize = 32;

/// Mark in `marks` the bytes of the block at `at` of `bytes` that are not printable ASCII or are
/// `[`, and the spaces followed by a space (the block and the byte after it are in `bytes`).
fn mark_unplain(marks: &mut [bool; PLAIN_BLOCK], bytes: &[u8], at: usize) {
    let (block, next) = (&bytes[at..at + PLAIN_BLOCK], &bytes[at + 1..=at + PLAIN_BLOCK]);
    for ((mark, &b), &after) in marks.iter_mut().zip(block).zip(next) {
        // Two bytes whose bits together are a space's are two spaces, or a space and a NUL,
        // which is marked anyway (as the last byte of `bytes` it is checked on its own).
        *mark |= ((b as i8) < b' ' as i8)
            | (b == b'[')
            | ((b | after) == b' ')
            | ((b == b' ') & (after == b'%'));
    }
}

/// The text of a comment that is one embedded command and nothing else, single-spaced printable
/// ASCII (`[%clk 0:01:02]`: the clocks of online games). The words of a command are tied
/// together, so the whole text is one word.
fn single_command(body: &str) -> Option<&str> {
    let text = trim_blanks(body);
    let inner = text.strip_prefix("[%")?.strip_suffix(']')?;
    let plain = |b: u8| matches!(b, b' '..=b'~') && b != b'[' && b != b']';
    is_single_spaced(inner.as_bytes(), plain).then_some(text)
}

/// Whether all of `bytes` are `fit`, with no two spaces in a row and no `%` after a space: a
/// byte at a time, for short texts.
fn is_single_spaced(bytes: &[u8], fit: impl Fn(u8) -> bool) -> bool {
    let mut after_space = false;
    bytes.iter().all(|&b| {
        let space = b == b' ';
        let single = fit(b) && !((space || b == b'%') && after_space);
        after_space = space;
        single
    })
}

/// Append the words of comment text `body` one by one, tying those that must stay on a line.
fn push_words(doc: &mut Doc<'_>, body: &str) {
    let mut words = words(body);
    let mut sep = Sep::Tie;
    let mut in_command = false;
    // Whether a line starting inside the current run of words of brackets alone would read as
    // a tag pair: the same from every word of the run, so found once a run.
    let mut bracket_run: Option<bool> = None;
    while let Some(word) = words.next() {
        let tag_line = if brackets_only(word) {
            *bracket_run.get_or_insert_with(|| starts_tag_line(word, words.clone()))
        } else {
            bracket_run = None;
            starts_tag_line(word, words.clone())
        };
        // A `%` first on a line would make it an escape line to readers that look for one
        // inside comments too (§6): such a word stays on the line of the word before.
        if sep == Sep::Space && (in_command || tag_line || word.starts_with('%')) {
            sep = Sep::Tie;
        }
        doc.push(sep, word);
        // The words of a command are tied up to its `]`; a `[%` never closed in the comment
        // ties nothing, or the rest of the comment could not break.
        let inside = ends_inside_command(word, in_command);
        let same_command = in_command && !word.contains(']');
        in_command = inside && (same_command || words.clone().any(|w| w.contains(']')));
        sep = Sep::Space;
    }
}

/// Whether `c` is a blank between the words of a comment: ASCII whitespace, as the lexer skips
/// between tokens. Other spaces (a no-break space in `10 000`, U+0085 read from a Windows-1252
/// byte, an ideographic space) are part of the text, kept as written.
pub(crate) fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t'..='\r')
}

/// `text` without its blanks ([`is_blank`]) at either end.
pub(crate) fn trim_blanks(text: &str) -> &str {
    text.trim_matches(is_blank)
}

/// The words of comment text: the runs of characters between blanks ([`is_blank`]).
#[derive(Clone)]
pub(crate) struct Words<'a> {
    rest: &'a str,
}

pub(crate) fn words(text: &str) -> Words<'_> {
    Words { rest: text }
}

impl<'a> Words<'a> {
    /// The length of the longest prefix of `self.rest` whose characters are (or are not)
    /// blanks. Blanks are ASCII, and no byte of a character beyond ASCII is one: the prefix
    /// ends at a character boundary.
    fn span(&self, blank: bool) -> usize {
        let bytes = self.rest.as_bytes();
        bytes.iter().position(|&b| is_blank(char::from(b)) != blank).unwrap_or(bytes.len())
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.rest = &self.rest[self.span(true)..];
        let len = self.span(false);
        let (word, rest) = self.rest.split_at(len);
        self.rest = rest;
        (!word.is_empty()).then_some(word)
    }
}

/// Whether a line starting with `word` and then the `rest` of the words would read as a tag
/// pair.
fn starts_tag_line<'w>(word: &str, rest: impl Iterator<Item = &'w str>) -> bool {
    if !word.starts_with('[') {
        return false;
    }
    // The line's words of brackets alone (`[ [ Event "x"` reads as a tag pair too), then the
    // name and the opening quote, in two words at most.
    let mut probe = String::from(word);
    let mut others = usize::from(!brackets_only(word));
    for next in rest {
        others += usize::from(!brackets_only(next));
        if others > 2 {
            break;
        }
        probe.push(' ');
        probe.push_str(next);
    }
    is_tag_line(probe.as_bytes())
}

/// Whether `word` is one or more `[` and nothing else.
fn brackets_only(word: &str) -> bool {
    word.bytes().all(|b| b == b'[')
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

    fn printed(body: &str, reflow: bool, max_width: usize) -> String {
        let mut out = String::new();
        let mut doc = Doc::new(&mut out, max_width);
        push(&mut doc, Sep::Space, body, reflow);
        doc.finish();
        out
    }

    /// A word starting with `%` never starts a line (§6: an escape line), at any width, in
    /// plain ASCII text (a run) and in other text (word by word).
    #[test]
    fn no_line_starts_with_a_percent_sign() {
        for body in ["aaaa %bcd efg %h", "aaaa\u{e9} %bcd  efg %h", "%a %b %c"] {
            for width in 1..20 {
                let out = printed(body, true, width);
                assert!(!out.lines().any(|l| l.starts_with('%')), "{width}: {out}");
                assert_eq!(normalized(&out[1..out.len() - 1], true), normalized(body, true));
            }
        }
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
    fn a_command_never_closed_ties_nothing() {
        let out = printed("[%clk a b c d e f g h i j k l", true, 12);
        assert_eq!(out, "{ [%clk a b\nc d e f g h\ni j k l }");
    }

    #[test]
    fn no_line_inside_a_comment_looks_like_a_tag_pair() {
        let out = printed("see [Event \"x\"] and [ Site \"y\"] or [ [ [ Round \"z\"]", true, 5);
        for line in out.lines().skip(1) {
            assert!(!is_tag_line(line.as_bytes()), "{out}");
        }
    }

    /// `body` as a comment after `before`, followed by `after` joined to it (`)`) and a word:
    /// printed by `push`, and with the comment's words one by one.
    fn printed_both_ways(before: &str, body: &str, after: &str, max_width: usize) -> [String; 2] {
        [true, false].map(|by_push| {
            let mut out = String::new();
            let mut doc = Doc::new(&mut out, max_width);
            doc.push(Sep::Space, before);
            if by_push {
                push(&mut doc, Sep::Space, body, true);
            } else {
                doc.push(Sep::Space, "{");
                push_words(&mut doc, body);
                doc.push(Sep::Tie, "}");
            }
            if !after.is_empty() {
                doc.push(Sep::Join, after);
            }
            doc.push(Sep::Space, "Nf3");
            doc.finish();
            out
        })
    }

    #[test]
    fn single_spaced_bodies_only_make_runs() {
        assert_eq!(single_spaced(" d=27, pv=e4 e5, wv=0.37, "), Some("d=27, pv=e4 e5, wv=0.37,"));
        assert_eq!(single_spaced("\n one two\n"), Some("one two"));
        for body in ["", "  ", "a  b", "a\nb", "a\tb", "a\u{0B}b", "é", "[%clk 0:01]", "x [Event"]
        {
            assert_eq!(single_spaced(body), None, "{body:?}");
        }
    }

    /// What [`is_plain_run`] checks, byte by byte.
    fn is_plain_run_bytewise(bytes: &[u8]) -> bool {
        bytes.iter().all(|&b| (b' '..0x80).contains(&b) && b != b'[')
            && !bytes.windows(2).any(|pair| pair == b"  ")
    }

    #[test]
    fn plain_runs_are_checked_across_blocks() {
        for len in 2..=100 {
            for at in 0..len - 1 {
                let mut text = vec![b'x'; len];
                text[at] = b' ';
                assert!(is_plain_run(&text), "{len} {at}");
                for unfit in [*b" ", [0x00], [0x01], [b'['], [0x80], [b'\n']] {
                    text[at + 1] = unfit[0];
                    assert!(!is_plain_run(&text), "{len} {at} {unfit:?}");
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn plain_run_check_is_bytewise(text in "[ax ]{0,150}[ \\[\\x00\x01\t\x7Fé]?[ax ]{0,150}") {
            proptest::prop_assert_eq!(
                is_plain_run(text.as_bytes()),
                is_plain_run_bytewise(text.as_bytes())
            );
        }
    }

    #[test]
    fn a_run_breaks_where_words_would() {
        let [run, words] = printed_both_ways("e4", "one two three four", ")", 12);
        assert_eq!(run, "e4 { one two\nthree\nfour }) Nf3");
        assert_eq!(run, words);
    }

    proptest::proptest! {
        #[test]
        fn runs_print_like_words(
            before in "[a-z]{1,12}",
            body in "[a-z=,.]{1,14}( [a-z=,.]{1,14}){0,12}",
            after in proptest::sample::select(vec!["", ")", "))"]),
            max_width in 1usize..40,
        ) {
            proptest::prop_assert!(single_spaced(&body).is_some());
            let [run, words] = printed_both_ways(&before, &body, after, max_width);
            proptest::prop_assert_eq!(run, words);
        }
    }

    #[test]
    fn single_commands_are_one_word() {
        assert_eq!(single_command(" [%clk 0:01:02] "), Some("[%clk 0:01:02]"));
        assert_eq!(single_command("[%]"), Some("[%]"));
        for body in ["[%clk  1]", "[%clk 1] x", "[%a] [%b]", "[%a [b]", "[clk 1]", "[%é]", "[%\t]"]
        {
            assert_eq!(single_command(body), None, "{body:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn commands_print_like_words(
            before in "[a-z]{1,12}",
            body in " ?\\[%[a-z0-9:.]{0,6}( [a-z0-9:.]{1,6}){0,4}\\] ?",
            after in proptest::sample::select(vec!["", ")", "))"]),
            max_width in 1usize..40,
        ) {
            proptest::prop_assert!(single_command(&body).is_some());
            let [command, words] = printed_both_ways(&before, &body, after, max_width);
            proptest::prop_assert_eq!(command, words);
        }
    }

    /// Words split at ASCII blanks only: other spaces (`\u{85}` is what a Windows-1252 file's
    /// ellipsis reads as in Latin-1) stay in the words, as written.
    #[test]
    fn words_split_at_ascii_blanks_only() {
        for (text, expected) in [
            ("", vec![]),
            ("  a b\t\tc\n", vec!["a", "b", "c"]),
            ("x\u{0B}y\u{A0}z\u{3000}w é ♘", vec!["x", "y\u{A0}z\u{3000}w", "é", "♘"]),
            ("\u{2003}", vec!["\u{2003}"]),
            ("Wins\u{85} maybe\u{85}", vec!["Wins\u{85}", "maybe\u{85}"]),
            ("end\x0C ", vec!["end"]),
        ] {
            assert_eq!(words(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
        assert_eq!(normalized("\u{A0}a\u{85} ", false), "\u{A0}a\u{85}");
    }

    #[test]
    fn kept_text_normalises_only_padding_and_crlf() {
        assert_eq!(printed("a  b\r\n c", false, 79), "{ a  b\n c }");
        assert_eq!(printed("   ", false, 79), "{ }");
        assert_eq!(normalized("\n x  y \n", false), "x  y");
        assert_eq!(normalized("\n x  y \n", true), "x y");
        // CRs right before a CRLF go with it, so that formatting again changes nothing; a CR
        // on its own stays.
        for (body, kept) in
            [("a\r\r\nb", "a\nb"), ("a\r\r\n\r\nb\rc\r\n", "a\n\nb\rc"), ("a\rb", "a\rb")]
        {
            assert_eq!(normalized(body, false), kept);
            assert_eq!(normalized(kept, false), kept);
        }
    }
}
