//! The smallest single edit that turns one text into another.

use super::{TextEdit, TextRange};

/// The single edit replacing only what differs between `old` and `new` (common prefix and
/// suffix are kept), or `None` when they are equal. Boundaries fall on UTF-8 char boundaries.
pub fn minimal_edit(old: &str, new: &str) -> Option<TextEdit> {
    if old == new {
        return None;
    }
    let (ob, nb) = (old.as_bytes(), new.as_bytes());
    let mut prefix = ob.iter().zip(nb).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let max_suffix = (ob.len() - prefix).min(nb.len() - prefix);
    let mut suffix =
        ob.iter().rev().zip(nb.iter().rev()).take(max_suffix).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(ob.len() - suffix) || !new.is_char_boundary(nb.len() - suffix) {
        suffix -= 1;
    }
    Some(TextEdit::new(TextRange::from(prefix..ob.len() - suffix), &new[prefix..nb.len() - suffix]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_covers_only_the_difference() {
        let e = minimal_edit("1. e4 e5 2. Nf3", "1. e4 c5 2. Nf3").unwrap();
        assert_eq!((e.range, e.new_text.as_str()), (TextRange::new(6, 7), "c"));
        assert_eq!(TextEdit::apply_all("1. e4 e5 2. Nf3", &[e]), "1. e4 c5 2. Nf3");
        assert_eq!(minimal_edit("same", "same"), None);
    }

    #[test]
    fn edit_boundaries_respect_multibyte_chars() {
        let (old, new) = ("{♘}", "{♗}");
        let e = minimal_edit(old, new).unwrap();
        assert_eq!(TextEdit::apply_all(old, std::slice::from_ref(&e)), new);
        assert_eq!(e.new_text, "♗");
    }
}
