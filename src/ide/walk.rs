//! Walks shared by the editor features (symbols, folding, semantic tokens, inlay hints,
//! selection ranges, hover): the games of a document parsed one at a time, the variation depth
//! of every movetext node, the node under a cursor, and the ranges of a game's parts.
//!
//! Whole-document features visit every game of a document that may be 100 MB: the text is read
//! in blocks of whole games (a rope is never made one string), every game is parsed once, from
//! its block, and dropped after its visit.

use super::analysis::DocumentAnalysis;
use crate::syntax::{Game, NodeKind, TextSource, parse_game};
use crate::text::TextRange;

/// How much text a block holds at least (unless the games run out first).
const BLOCK: usize = 1 << 20;

/// One parsed game: where it starts in the document, its tree and its own text (every range in
/// the tree is relative to `start`, and indexes `src`).
pub struct ParsedGame<'a> {
    pub start: u32,
    /// The game's index in the document.
    pub index: usize,
    pub game: &'a Game,
    pub src: &'a str,
}

/// Visit the games that overlap `range` (every game for `None`) in text order, each parsed once.
pub fn for_each_game(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    range: Option<TextRange>,
    mut visit: impl FnMut(ParsedGame<'_>),
) {
    // Each game's index, start, length and lookahead.
    let games: Vec<(usize, u32, u32, u32)> = match range {
        None => {
            analysis.games().enumerate().map(|(i, (s, g))| (i, s, g.len, g.lookahead)).collect()
        }
        Some(range) => {
            let first = analysis.games().position(|(s, g)| s + g.len > range.start);
            let first = first.unwrap_or(analysis.game_count().saturating_sub(1));
            let games = analysis.games_in(range).enumerate();
            games.map(|(i, (s, g))| (first + i, s, g.len, g.lookahead)).collect()
        }
    };
    let mut block = String::new();
    let mut next = 0;
    while next < games.len() {
        // A block of whole games, and the line of the token after the last one: the parser
        // looks that far to know where a game ends (`syntax::parse_game_at` explains why).
        let (_, block_start, _, _) = games[next];
        let mut end = next;
        let mut block_end = block_start as usize;
        let mut lookahead = block_end;
        while end < games.len() && block_end - block_start as usize <= BLOCK {
            let (_, start, len, game_lookahead) = games[end];
            (block_end, lookahead) = ((start + len) as usize, (start + game_lookahead) as usize);
            end += 1;
        }
        block.clear();
        block.push_str(&text.read(block_start as usize, block_end));
        while block_start as usize + block.len() < text.len()
            && (block_start as usize + block.len() <= lookahead
                || memchr::memchr(b'\n', &block.as_bytes()[lookahead - block_start as usize..])
                    .is_none())
        {
            let at = block_start as usize + block.len();
            text.read_into(at, at + 4096, &mut block);
        }
        for &(index, start, len, _) in &games[next..end] {
            let from = (start - block_start) as usize;
            let game = parse_game(&block[from..]);
            debug_assert_eq!(game.len, len, "the analysis agrees with the text");
            let src = &block[from..from + game.len.min(len) as usize];
            visit(ParsedGame { start, index, game: &game, src });
        }
        next = end;
    }
}

/// The movetext node under the cursor: the one containing `offset`, else the one ending there.
pub fn node_at(game: &Game, offset: u32) -> Option<usize> {
    let nodes = &game.nodes;
    nodes
        .iter()
        .position(|n| n.range.contains(offset))
        .or_else(|| nodes.iter().position(|n| !n.range.is_empty() && n.range.end == offset))
}

/// The range of every variation, from its `(` to its `)`, in the order of their `(`.
pub fn variations(game: &Game) -> Vec<TextRange> {
    let mut open = Vec::new();
    let mut ranges = Vec::new();
    for node in &game.nodes {
        match node.kind {
            NodeKind::VariationStart => {
                open.push(ranges.len());
                ranges.push(node.range);
            }
            NodeKind::VariationEnd => {
                if let Some(i) = open.pop() {
                    ranges[i] = ranges[i].cover(node.range);
                }
            }
            _ => {}
        }
    }
    ranges
}

/// From the first element of the game (tag pair, note or movetext node) to the end of its last:
/// the game without the blanks around it.
pub fn content_range(game: &Game) -> TextRange {
    let elements = game.tags.iter().map(|t| t.range).chain(game.tag_notes.iter().map(|n| n.range));
    let all = elements.chain(game.nodes.iter().map(|n| n.range));
    all.reduce(TextRange::cover).unwrap_or(TextRange::empty(0))
}

/// The tag section: from its first tag pair (or a note before it) to the end of its last tag
/// pair. The notes after that open the movetext ([`Game::opens_movetext`]).
pub fn tag_section_range(game: &Game) -> Option<TextRange> {
    let (notes, _) = game.split_notes();
    let tags = game.tags.iter().map(|t| t.range);
    tags.chain(notes.iter().map(|n| n.range)).reduce(TextRange::cover)
}

/// The movetext: from its opening commentary (the notes after the last tag pair) or its first
/// node to the end of its last node.
pub fn movetext_range(game: &Game) -> Option<TextRange> {
    let (_, opening) = game.split_notes();
    let notes = opening.iter().map(|n| n.range);
    notes.chain(game.nodes.iter().map(|n| n.range)).reduce(TextRange::cover)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_visited_once_with_its_own_text() {
        let game = "[Event \"x\"]\n\n1. e4 {a\nb} (1. d4 (1. c4)) e5 *\n\n";
        let text = game.repeat(40_000);
        let analysis = DocumentAnalysis::new(&text);
        let mut seen = Vec::new();
        for_each_game(&analysis, &text.as_str(), None, |g| {
            assert_eq!(g.src, &text[g.start as usize..g.start as usize + g.src.len()]);
            seen.push((g.index, g.start));
        });
        let expected: Vec<(usize, u32)> =
            analysis.games().enumerate().map(|(i, (s, _))| (i, s)).collect();
        assert_eq!(seen, expected);
        let mut in_range = Vec::new();
        let range = TextRange::new(game.len() as u32 * 3 + 2, game.len() as u32 * 5);
        for_each_game(&analysis, &text.as_str(), Some(range), |g| in_range.push(g.index));
        assert_eq!(in_range, [3, 4]);
    }

    #[test]
    fn depths_and_variations() {
        let src = "1. e4 (1. d4 (1. c4) 1... d5) e5 *";
        let game = parse_game(src);
        let depths: Vec<(&str, u32)> =
            game.nodes_with_depth().map(|(_, n, d)| (&src[n.range], d)).collect();
        assert_eq!(depths[1], ("e4", 0));
        assert_eq!(depths[2], ("(", 1));
        assert_eq!(depths[5], ("(", 2));
        assert_eq!(depths[8], (")", 2));
        assert_eq!(depths[10], ("d5", 1));
        assert_eq!(depths[11], (")", 1));
        assert_eq!(depths[12], ("e5", 0));
        let spans: Vec<&str> = variations(&game).iter().map(|&r| &src[r]).collect();
        assert_eq!(spans, ["(1. d4 (1. c4) 1... d5)", "(1. c4)"]);
    }
}
