//! The "sort tags" source action: the tag pairs of one game put in export order (the Seven Tag
//! Roster first in its order, then the others in ASCII order, §8.1.1), each pair moved whole and
//! as written, the line breaks and blank lines between pairs left where they are.

use crate::fmt::export_order;
use crate::syntax::Game;
use crate::text::{TextEdit, TextRange, minimal_edit};

/// The edit that sorts the tags of `game` (`src` is its own text; the edit's range is relative
/// to it), or `None` when they are in order already, or when comments or escape lines stand
/// between them (moving pairs past them could change what they are about).
pub fn sort_tags(game: &Game, src: &str) -> Option<TextEdit> {
    let (first, last) = (game.tags.first()?, game.tags.last()?);
    let span = TextRange::new(first.range.start, last.range.end);
    if game.tag_notes.iter().any(|n| span.intersects(n.range)) {
        return None;
    }
    let mut order: Vec<usize> = (0..game.tags.len()).collect();
    order.sort_by(|&a, &b| {
        export_order(game.tags[a].name(src)).cmp(&export_order(game.tags[b].name(src)))
    });
    if order.iter().enumerate().all(|(slot, &tag)| slot == tag) {
        return None;
    }
    // Slot `i` of the span takes tag `order[i]`; the gaps between slots stay.
    let mut sorted = String::with_capacity(span.len() as usize);
    for (slot, &tag) in order.iter().enumerate() {
        if slot > 0 {
            let gap = TextRange::new(game.tags[slot - 1].range.end, game.tags[slot].range.start);
            sorted.push_str(&src[gap]);
        }
        sorted.push_str(&src[game.tags[tag].range]);
    }
    let edit = minimal_edit(&src[span], &sorted)?;
    Some(TextEdit { range: edit.range.shift(span.start), new_text: edit.new_text })
}
