//! Selection ranges ("expand selection"): from the token under the cursor outwards. In the
//! movetext: token, the move with its annotations (suffix, NAGs, comments after it), the same
//! with its move number, each variation around it (§8.2.5), the movetext, the game. In the tag
//! section: token, tag pair, tag section (§8.1), the game. In a comment before the first move
//! (after the tag pairs): the comment, the movetext (§8.2), the game.

use super::analysis::DocumentAnalysis;
use super::walk::{content_range, movetext_range, node_at, tag_section_range, variations};
use crate::syntax::{Game, NodeKind, TextSource, parse_game_at};
use crate::text::TextRange;

/// For each offset, the ranges that contain it, innermost first, each strictly inside the
/// next; empty where the document has no game.
pub fn selection_ranges(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    offsets: &[u32],
) -> Vec<Vec<TextRange>> {
    offsets
        .iter()
        .map(|&offset| {
            let Some((start, _)) = analysis.game_at(offset) else {
                return Vec::new();
            };
            let (game, src) = parse_game_at(text, start as usize);
            let ranges = ranges_in_game(&game, &src, offset - start);
            ranges.into_iter().map(|r| r.shift(start)).collect()
        })
        .collect()
}

fn ranges_in_game(game: &Game, src: &str, offset: u32) -> Vec<TextRange> {
    let content = content_range(game);
    if !content.touches(offset) {
        // In the blanks around the game: nothing to select (LSP wants every range to contain
        // the cursor).
        return Vec::new();
    }
    let mut ranges = Vec::new();
    if let Some(tag) = game.tags.iter().find(|t| t.range.touches(offset)) {
        if tag.name.touches(offset) && !tag.name.is_empty() {
            ranges.push(tag.name);
        } else if let Some(value) = tag.value.filter(|v| v.touches(offset)) {
            ranges.extend(tag.value_inner(src).filter(|inner| inner.touches(offset)));
            ranges.push(value);
        }
        ranges.push(tag.range);
        ranges.extend(tag_section_range(game));
    } else if let Some(note) = game.tag_notes.iter().find(|n| n.range.touches(offset)) {
        ranges.push(note.range);
        if game.opens_movetext(note) {
            ranges.extend(movetext_range(game));
        } else {
            ranges.extend(tag_section_range(game));
        }
    } else if let Some(index) = node_at(game, offset) {
        ranges.push(game.nodes[index].range);
        if let Some(group) = move_group(game, index) {
            if game.nodes[index].kind != NodeKind::MoveNumber {
                ranges.push(group.annotated);
            }
            ranges.extend(group.numbered);
        }
        let node = game.nodes[index].range;
        let mut around: Vec<TextRange> = variations(game)
            .into_iter()
            .filter(|v| v.start <= node.start && node.end <= v.end)
            .collect();
        around.reverse();
        ranges.extend(around);
        ranges.extend(movetext_range(game));
    }
    ranges.push(content);
    // Each range strictly inside the next (a lone move is its own annotated move).
    ranges.dedup();
    ranges
}

/// A move with what belongs to it.
struct MoveGroup {
    /// The move, its suffix, NAGs, symbols and the comments after it.
    annotated: TextRange,
    /// The same with the move number before it, when there is one.
    numbered: Option<TextRange>,
}

/// The move group of the node at `index`, when it is a move, its move number or one of its
/// annotations.
fn move_group(game: &Game, index: usize) -> Option<MoveGroup> {
    let nodes = &game.nodes;
    let is_annotation = |k: NodeKind| {
        matches!(
            k,
            NodeKind::Suffix
                | NodeKind::Nag
                | NodeKind::Glyph
                | NodeKind::EnPassantMark
                | NodeKind::Comment
                | NodeKind::LineComment
        )
    };
    let is_move = |k: NodeKind| matches!(k, NodeKind::Move | NodeKind::NullMove);
    let mov = match nodes[index].kind {
        k if is_move(k) => index,
        NodeKind::MoveNumber => {
            (index + 1 < nodes.len() && is_move(nodes[index + 1].kind)).then_some(index + 1)?
        }
        k if is_annotation(k) => {
            let before = nodes[..index].iter().rposition(|n| !is_annotation(n.kind))?;
            is_move(nodes[before].kind).then_some(before)?
        }
        _ => return None,
    };
    let last = nodes[mov + 1..].iter().take_while(|n| is_annotation(n.kind)).count() + mov;
    let annotated = nodes[mov].range.cover(nodes[last].range);
    let numbered = (mov > 0 && nodes[mov - 1].kind == NodeKind::MoveNumber)
        .then(|| nodes[mov - 1].range.cover(annotated));
    Some(MoveGroup { annotated, numbered })
}
