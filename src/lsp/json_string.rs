//! Decoding a JSON string (RFC 8259 §7) inside the buffer that holds it: the decoded text is
//! written to the front of the buffer, which then becomes the `String`, so a document's text
//! sent in a message costs no buffer beyond the message's own. A decoded string is never longer
//! than its escaped form, so the writing never overtakes the reading.

use std::fmt;
use std::ops::Range;

/// Why a JSON string could not be decoded.
#[derive(Debug, PartialEq)]
pub enum Malformed {
    /// An escape that JSON does not have, or a `\u` without four hex digits.
    Escape,
    /// A `\u` escape of half a surrogate pair without the other half.
    LoneSurrogate,
    /// A control character or a quote that is not escaped.
    Unescaped,
    /// The decoded bytes are not UTF-8.
    NotUtf8,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Malformed::Escape => "an invalid escape",
            Malformed::LoneSurrogate => "a lone surrogate",
            Malformed::Unescaped => "an unescaped control character or quote",
            Malformed::NotUtf8 => "text that is not UTF-8",
        })
    }
}

/// The string whose JSON form, without its quotes, is `buffer[content]`, decoded in `buffer`
/// itself; the rest of the buffer is lost.
pub fn decode_in_place(mut buffer: Vec<u8>, content: Range<usize>) -> Result<String, Malformed> {
    let (mut read, end, mut written) = (content.start, content.end, 0);
    loop {
        let run_end = memchr::memchr(b'\\', &buffer[read..end]).map_or(end, |i| read + i);
        if buffer[read..run_end].iter().any(|&b| b < 0x20 || b == b'"') {
            return Err(Malformed::Unescaped);
        }
        buffer.copy_within(read..run_end, written);
        written += run_end - read;
        if run_end == end {
            break;
        }
        let (decoded, escape_len) = escape(&buffer[run_end..end])?;
        let mut utf8 = [0; 4];
        let decoded = decoded.encode_utf8(&mut utf8).as_bytes();
        buffer[written..written + decoded.len()].copy_from_slice(decoded);
        written += decoded.len();
        read = run_end + escape_len;
    }
    buffer.truncate(written);
    String::from_utf8(buffer).map_err(|_| Malformed::NotUtf8)
}

/// The char of the escape `escape` starts with, and the escape's length.
fn escape(escape: &[u8]) -> Result<(char, usize), Malformed> {
    let simple = match escape.get(1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode_escape(escape),
        _ => return Err(Malformed::Escape),
    };
    Ok((simple, 2))
}

/// The char of `\uXXXX`, or of the surrogate pair `\uXXXX\uXXXX`, at the start of `escape`.
fn unicode_escape(escape: &[u8]) -> Result<(char, usize), Malformed> {
    // The UTF-16 unit of the four hex digits after the `\u` at `at`.
    let unit = |at: usize| -> Option<u16> {
        let digits = escape.get(at + 2..at + 6)?;
        digits.iter().try_fold(0, |unit, &b| Some(unit << 4 | char::from(b).to_digit(16)? as u16))
    };
    let first = unit(0).ok_or(Malformed::Escape)?;
    if !(0xD800..0xDC00).contains(&first) {
        let decoded = char::from_u32(first.into()).ok_or(Malformed::LoneSurrogate)?;
        return Ok((decoded, 6));
    }
    if escape.get(6..8) != Some(b"\\u") {
        return Err(Malformed::LoneSurrogate);
    }
    let second = unit(6).ok_or(Malformed::Escape)?;
    match char::decode_utf16([first, second]).next() {
        Some(Ok(decoded)) => Ok((decoded, 12)),
        _ => Err(Malformed::LoneSurrogate),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// `literal` (a JSON string with its quotes) decoded with junk around it in the buffer.
    fn decoded(literal: &str) -> Result<String, Malformed> {
        let content = literal.strip_prefix('"').and_then(|l| l.strip_suffix('"')).unwrap();
        let buffer = [b"{\"text\":\"", content.as_bytes(), b"\",\"more\":1}"].concat();
        decode_in_place(buffer, 9..9 + content.len())
    }

    /// A piece of the inside of a JSON string: plain text, a control character or a quote
    /// (refused unescaped), a short escape, a `\u` escape of any UTF-16 unit, a surrogate pair,
    /// a lone surrogate, or something that looks like an escape. Most strings are valid.
    fn piece() -> impl Strategy<Value = String> {
        let escapes = vec![r#"\""#, r"\\", r"\/", r"\b", r"\f", r"\n", r"\r", r"\t"];
        prop_oneof![
            8 => r"[a-z é♘𝄞\x7f-\xa0/]{0,8}",
            1 => r#"[\x00-\x1f"]"#,
            3 => prop::sample::select(escapes).prop_map(str::to_owned),
            3 => any::<u16>().prop_map(|u| format!(r"\u{u:04x}")),
            2 => (0xD800..0xDC00u16, 0xDC00..0xE000u16)
                .prop_map(|(high, low)| format!(r"\u{high:04X}\u{low:04x}")),
            1 => (0xD800..0xE000u16).prop_map(|u| format!(r"\u{u:04x}")),
            1 => r"\\([a-z0-9]|u[0-9a-fA-FgG+ -]{0,5})?",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any string serde_json writes decodes to itself.
        #[test]
        fn written_strings_decode_to_themselves(text in any::<String>()) {
            let literal = serde_json::to_string(&text).unwrap();
            prop_assert_eq!(decoded(&literal), Ok(text));
        }

        /// On any mix of text and escapes, decoding agrees with serde_json: the same string, or
        /// an error for both.
        #[test]
        fn decoding_agrees_with_serde_json(pieces in prop::collection::vec(piece(), 0..12)) {
            let literal = format!("\"{}\"", pieces.concat());
            let expected = serde_json::from_str::<String>(&literal);
            match decoded(&literal) {
                Ok(text) => prop_assert_eq!(Some(text), expected.ok(), "{}", literal),
                Err(why) => prop_assert!(expected.is_err(), "{literal}: {why}"),
            }
        }
    }

    #[test]
    fn every_escape_decodes() {
        let literal = r#""a\"\\\/\b\f\n\r\t\u00e9\u265E\ud834\uDD1Ez""#;
        assert_eq!(decoded(literal), Ok("a\"\\/\u{8}\u{c}\n\r\té♞𝄞z".to_owned()));
        assert_eq!(decoded(r#""""#), Ok(String::new()));
    }

    #[test]
    fn malformed_strings_are_refused() {
        for (literal, why) in [
            (r#""\a""#, Malformed::Escape),
            (r#""\""#, Malformed::Escape),
            (r#""end\""#, Malformed::Escape),
            (r#""\u12""#, Malformed::Escape),
            (r#""\u12g4""#, Malformed::Escape),
            (r#""\u+123""#, Malformed::Escape),
            (r#""\U0041""#, Malformed::Escape),
            (r#""\ud834""#, Malformed::LoneSurrogate),
            (r#""\ud834x""#, Malformed::LoneSurrogate),
            (r#""\ud834\n""#, Malformed::LoneSurrogate),
            (r#""\ud834\ud834""#, Malformed::LoneSurrogate),
            (r#""\udd1e\ud834""#, Malformed::LoneSurrogate),
            (r#""\ud834\u12""#, Malformed::Escape),
            ("\"a\nb\"", Malformed::Unescaped),
            ("\"a\"b\"", Malformed::Unescaped),
        ] {
            assert_eq!(decoded(literal), Err(why), "{literal}");
        }
        let not_utf8 = b"\"a\xff\\n\"".to_vec();
        assert_eq!(decode_in_place(not_utf8, 1..5), Err(Malformed::NotUtf8));
    }
}
