//! Inlay hints: the glyph after a NAG (`$14` ⩲, §10), and the clock, time and evaluation
//! commands of comments in words (`[%clk 0:01:02]` 1:02 left, `[%eval #-3]` mate in 3 for
//! Black).

use super::analysis::DocumentAnalysis;
use super::commands::{commands, readable};
use super::nags::nag_meaning;
use super::walk::for_each_game;
use crate::syntax::{NodeKind, TextSource};
use crate::text::TextRange;

/// One hint: its label, shown at `offset` of the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: u32,
    pub label: String,
    /// What the label stands for, in full.
    pub tooltip: Option<String>,
    /// Whether a space should separate it from the text before it.
    pub pad_left: bool,
}

/// The hints of the games overlapping `range` that fall inside it, in text order.
pub fn inlay_hints(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    range: TextRange,
) -> Vec<InlayHint> {
    let mut hints = Vec::new();
    for_each_game(analysis, text, Some(range), |g| {
        let notes = g.game.tag_notes.iter().map(|n| (n.kind, n.range));
        let mut elements: Vec<(NodeKind, TextRange)> =
            notes.chain(g.game.nodes.iter().map(|n| (n.kind, n.range))).collect();
        elements.sort_by_key(|&(_, r)| r.start);
        for (kind, r) in elements {
            let node_text = &g.src[r];
            match kind {
                NodeKind::Nag => {
                    let meaning = node_text[1..].parse().ok().and_then(nag_meaning);
                    if let Some((glyph, meaning)) = meaning.and_then(|m| Some((m.glyph?, m.text))) {
                        hints.push(InlayHint {
                            offset: g.start + r.end,
                            label: glyph.to_owned(),
                            tooltip: Some(meaning.to_owned()),
                            pad_left: false,
                        });
                    }
                }
                NodeKind::Comment | NodeKind::LineComment => {
                    for command in commands(node_text) {
                        if let Some(label) = readable(&command) {
                            hints.push(InlayHint {
                                offset: g.start + r.start + command.range.end,
                                label,
                                tooltip: None,
                                pad_left: true,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    });
    hints.retain(|h| range.touches(h.offset));
    hints
}
