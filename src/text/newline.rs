//! The line break a text is written with, and new text written with it: tools that rewrite
//! text (`fmt`, `check --fix`, sorting games) write `\n`, and a file written with `\r\n` keeps
//! its line breaks, as the PGN standard allows a system's own newline (§3.2.2), and as
//! rustfmt's "auto" newline style does.

use std::borrow::Cow;

/// The line break of `text`: `"\r\n"` when its first `\n` ends a `\r\n`, else `"\n"`.
pub fn line_break_of(text: &str) -> &'static str {
    line_break_of_chunks([text])
}

/// [`line_break_of`] the text made of `chunks` (a rope's), read only up to its first `\n`.
pub fn line_break_of_chunks<'a>(chunks: impl IntoIterator<Item = &'a str>) -> &'static str {
    let mut last = 0u8;
    for chunk in chunks {
        let bytes = chunk.as_bytes();
        if let Some(i) = memchr::memchr(b'\n', bytes) {
            let before = if i > 0 { bytes[i - 1] } else { last };
            return if before == b'\r' { "\r\n" } else { "\n" };
        }
        last = bytes.last().copied().unwrap_or(last);
    }
    "\n"
}

/// `text` with each `\n` that is no `\r\n`'s written as `line_break`; `after_cr` says that a
/// `\r` stands right before the text, making a `\n` first in it a `\r\n`'s too.
pub fn with_line_break<'a>(text: &'a str, line_break: &str, after_cr: bool) -> Cow<'a, str> {
    if line_break == "\n" || !text.contains('\n') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut rest = text;
    let mut cr_before = after_cr;
    while let Some(i) = memchr::memchr(b'\n', rest.as_bytes()) {
        let line = &rest[..i];
        out.push_str(line);
        let ends_crlf = if line.is_empty() { cr_before } else { line.ends_with('\r') };
        out.push_str(if ends_crlf { "\n" } else { line_break });
        cr_before = false;
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_break_decides() {
        assert_eq!(line_break_of("[Event \"a\"]\r\n\n"), "\r\n");
        assert_eq!(line_break_of("[Event \"a\"]\n\r\n"), "\n");
        assert_eq!(line_break_of("\r\n"), "\r\n");
        assert_eq!(line_break_of("1. e4 *"), "\n");
        assert_eq!(line_break_of("a\rb\n"), "\n");
        assert_eq!(line_break_of_chunks(["[Event", " \"a\"]\r", "", "\n1. e4"]), "\r\n");
        assert_eq!(line_break_of_chunks(["[Event \"a\"]", "\n\r\n"]), "\n");
        assert_eq!(line_break_of_chunks(["", "\r", "x\n"]), "\n");
    }

    #[test]
    fn bare_line_feeds_take_the_line_break() {
        assert_eq!(with_line_break("a\nb\r\nc\n", "\r\n", false), "a\r\nb\r\nc\r\n");
        assert_eq!(with_line_break("\n\na\rb", "\r\n", false), "\r\n\r\na\rb");
        // After a `\r`, a first `\n` ends that `\r`'s line break.
        assert_eq!(with_line_break("\n\na\n", "\r\n", true), "\n\r\na\r\n");
        assert_eq!(with_line_break("a\n", "\r\n", true), "a\r\n");
        assert!(matches!(with_line_break("a\nb", "\n", false), Cow::Borrowed("a\nb")));
        assert!(matches!(with_line_break("a b", "\r\n", true), Cow::Borrowed("a b")));
    }
}
