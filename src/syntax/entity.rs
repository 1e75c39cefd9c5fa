//! HTML character references (`&plusmn;`, `&#177;`) where a PGN file has been through a web
//! page: the lexer reads one as a single unknown token, so that its `;` does not open a comment
//! that would take the rest of the line (§5), and the parser reports it with the annotation
//! glyph it stands for, when it stands for one.

use super::lexer::{TokenKind, lex};

/// The character `reference` (`&name;`, `&#digits;` or `&#xhex;`) stands for, when it is a
/// numeric reference or one of the named ones for annotation glyphs.
fn character(reference: &str) -> Option<char> {
    let name = reference.strip_prefix('&')?.strip_suffix(';')?;
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(code);
    }
    // HTML's names for the glyphs the lexer reads (`TokenKind::Glyph`).
    Some(match name {
        "plusmn" | "pm" => '±',
        "mnplus" | "mp" => '∓',
        "pluse" => '⩲',
        "eplus" => '⩱',
        "infin" => '∞',
        "squ" | "square" => '□',
        "xodot" => '⨀',
        "rarr" => '→',
        "uarr" => '↑',
        "lrarr" => '⇆',
        "oplus" => '⊕',
        "xutri" => '△',
        "hArr" | "iff" => '⇔',
        _ => return None,
    })
}

/// The annotation `reference` stands for, as PGN writes it: a glyph or a suffix annotation
/// (`!`, `?!`, ...) that the lexer reads as one.
pub(super) fn annotation(reference: &str) -> Option<String> {
    let text = character(reference)?.to_string();
    let mut tokens = lex(&text);
    let token = tokens.next()?;
    let whole = tokens.next().is_none() && token.range.len() as usize == text.len();
    (whole && matches!(token.kind, TokenKind::Glyph | TokenKind::Suffix)).then_some(text)
}

/// How many character references `text` is made of, one after the other (`&nbsp;&nbsp;`); 0
/// when it holds anything else.
pub(super) fn references(text: &str) -> usize {
    let mut count = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let Some(end) = rest.find(';') else { return 0 };
        if !is_reference(&rest[..=end]) {
            return 0;
        }
        count += 1;
        rest = &rest[end + 1..];
    }
    count
}

/// Whether `text` is one character reference, as the lexer reads one: `&`, a name of letters
/// and digits that starts with a letter, `#` and decimal digits, or `#x` and hexadecimal
/// digits, and `;`.
fn is_reference(text: &str) -> bool {
    let Some(body) = text.strip_prefix('&').and_then(|t| t.strip_suffix(';')) else {
        return false;
    };
    match body.strip_prefix('#') {
        Some(number) => match number.strip_prefix(['x', 'X']) {
            Some(hex) => !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            None => !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()),
        },
        None => {
            body.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
                && body.bytes().all(|b| b.is_ascii_alphanumeric())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_references_stand_for_their_glyph() {
        assert_eq!(annotation("&plusmn;").as_deref(), Some("±"));
        assert_eq!(annotation("&#177;").as_deref(), Some("±"));
        assert_eq!(annotation("&#xB1;").as_deref(), Some("±"));
        assert_eq!(annotation("&infin;").as_deref(), Some("∞"));
        assert_eq!(annotation("&#33;").as_deref(), Some("!"));
    }

    #[test]
    fn other_references_stand_for_no_annotation() {
        for reference in ["&amp;", "&nbsp;", "&#65;", "&#xD800;", "&#99999999;", "&unknown;"] {
            assert_eq!(annotation(reference), None, "{reference}");
        }
    }

    #[test]
    fn references_one_after_the_other_are_counted() {
        assert_eq!(references("&amp;"), 1);
        assert_eq!(references("&nbsp;&nbsp;&#160;&#xA0;"), 4);
        for text in ["&", "&&amp;", "&amp;x", "&;", "&#;", "&#x;", "&1a;", "&a-b;", "~"] {
            assert_eq!(references(text), 0, "{text}");
        }
    }
}
