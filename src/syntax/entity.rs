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

/// Whether `text` is one character reference.
pub(super) fn is_reference(text: &str) -> bool {
    text.len() > 2 && text.starts_with('&') && text.ends_with(';') && !text[1..].contains('&')
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
        assert!(is_reference("&amp;"));
        assert!(!is_reference("&&amp;"));
        assert!(!is_reference("&"));
    }
}
