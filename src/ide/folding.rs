//! Folding ranges: games, tag sections (§8.1), variations (§8.2.5) and comments (§5) that span
//! more than one line. A folded game shows its name.

use super::analysis::DocumentAnalysis;
use super::symbols::game_name;
use super::walk::{content_range, for_each_game, tag_section_range, variations};
use crate::syntax::{NodeKind, TextSource};
use crate::text::TextRange;

/// What a fold hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Game,
    TagSection,
    Variation,
    Comment,
}

/// One fold, with its range in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub kind: FoldKind,
    pub range: TextRange,
    /// What to show in its place, for games.
    pub collapsed_text: Option<String>,
}

/// The folds of the whole document, ordered by start (an outer fold before the folds inside).
pub fn folding_ranges(analysis: &DocumentAnalysis, text: &dyn TextSource) -> Vec<Fold> {
    let mut folds = Vec::new();
    for_each_game(analysis, text, None, |g| {
        let (game, src) = (g.game, g.src);
        let spans_lines = |r: TextRange| src[r].contains(['\n', '\r']);
        let mut fold = |kind, range: TextRange, collapsed_text| {
            if spans_lines(range) {
                folds.push(Fold { kind, range: range.shift(g.start), collapsed_text });
            }
        };
        let game_range = content_range(game);
        if spans_lines(game_range) {
            fold(FoldKind::Game, game_range, Some(game_name(&g)));
        }
        if let Some(tags) = tag_section_range(game) {
            fold(FoldKind::TagSection, tags, None);
        }
        let notes = game.tag_notes.iter().map(|n| (n.kind, n.range));
        let comments = notes.chain(game.nodes.iter().map(|n| (n.kind, n.range)));
        let mut inner = Vec::new();
        inner.extend(variations(game).into_iter().map(|r| (FoldKind::Variation, r)));
        inner.extend(comments.filter(|&(k, _)| k == NodeKind::Comment).map(|(_, r)| r).map(|r| {
            // An unterminated comment may end with blanks: fold what it holds.
            let trimmed = src[r].trim_end().len() as u32;
            (FoldKind::Comment, TextRange::new(r.start, r.start + trimmed))
        }));
        inner.sort_by_key(|&(_, r)| (r.start, std::cmp::Reverse(r.end)));
        for (kind, range) in inner {
            fold(kind, range, None);
        }
    });
    folds
}
