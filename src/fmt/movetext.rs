//! The movetext section as a document (§8.2): move numbers recomputed from the position,
//! canonical SAN for legal moves (§8.2.3.7) and moves that are not legal as written, suffix
//! annotations as NAGs (§8.2.3.8), NAGs without leading zeros, glyphs as their NAG where they
//! stand for one (`±` $16, `N` $146; export format has NAGs only, §8.2.4), others (`⟳`) as
//! written, comments, `;` comments (the line ends after them), `%` escape lines (on their own
//! line, §6), variations as `(2. f4 exf4)`, and the termination marker as written (§8.2.6), or
//! the Result tag's (or `*`) where the game has none. Reduced export format (§3.2.4) keeps only
//! the main line's moves and the marker.
//!
//! Move numbers (§8.2.2.2): every White move has `N.`; a Black move has `N...` when it opens
//! the game or a variation, or when anything other than its White move comes right before it
//! (a comment, a NAG or glyph, a variation, an escape line). The `e.p.` mark some files write
//! after an en passant capture is left out (§8.2.3.3: no special notation); one anywhere else
//! is kept, as part of the move before it.

use super::FormatOptions;
use super::annotation::nag_digits;
use super::comment;
use super::doc::{Doc, Sep, write_number};
use super::moves::{self, MoveFact};
use super::tags::is_game;
use crate::chess;
use crate::syntax::{Game, NodeKind, TagSectionNote, glyph_nag, standard_marker, suffix_nag};

/// Print the movetext of `game`, opened by the `notes` of the tag section that belong to it,
/// at the end of `out` (no final line break). Returns whether it printed anything, or `None`
/// when the moves could not be numbered ([`moves::walk`]; what was printed is then to be thrown
/// away: the game is left as it is rather than misnumbered).
pub(crate) fn print(
    game: &Game,
    src: &str,
    notes: &[&TagSectionNote],
    options: &FormatOptions,
    out: &mut String,
) -> Option<bool> {
    let mut out = Builder {
        doc: Doc::new(out, options.max_columns()),
        sep: Sep::Space,
        after_move: false,
        last_kind: None,
        en_passant: false,
        skipped_depth: 0,
        options,
    };
    for note in notes {
        out.commentary(note.kind, &src[note.range]);
    }
    let numbered = moves::walk(game, src, |i, fact| {
        let node = &game.nodes[i];
        out.node(node.kind, &src[node.range], fact);
    });
    if adds_marker(game) {
        out.node(NodeKind::Result, game.missing_marker(src), None);
    }
    let printed = out.doc.finish();
    numbered.then_some(printed)
}

/// Whether formatting adds a termination marker to `game`, a game without one (§8.2.6: every
/// movetext ends with one): the Result tag's result, or `*` (as `check`'s fix writes it).
pub(crate) fn adds_marker(game: &Game) -> bool {
    is_game(game) && game.result_node().is_none()
}

struct Builder<'o> {
    doc: Doc<'o>,
    /// The separator before the next word.
    sep: Sep,
    /// Whether the last word written was a move (or its `e.p.` mark).
    after_move: bool,
    /// The kind of the last node printed.
    last_kind: Option<NodeKind>,
    /// Whether the nodes since the last move are an en passant capture and the `e.p.` marks
    /// right after it, which are left out (one of several would else be left out in a second
    /// formatting).
    en_passant: bool,
    /// In reduced export format, how deep inside a variation being left out we are.
    skipped_depth: u32,
    options: &'o FormatOptions,
}

impl Builder<'_> {
    /// The next node of the movetext; `fact` for a move as replayed.
    fn node(&mut self, kind: NodeKind, text: &str, fact: Option<&MoveFact>) {
        if self.options.reduced && !self.kept_when_reduced(kind) {
            return;
        }
        let after_en_passant = std::mem::take(&mut self.en_passant);
        match kind {
            NodeKind::MoveNumber => {}
            NodeKind::Move | NodeKind::NullMove => self.chess_move(text, fact),
            // Left out after an en passant capture.
            NodeKind::EnPassantMark if after_en_passant => self.en_passant = true,
            NodeKind::Suffix | NodeKind::Nag | NodeKind::Glyph | NodeKind::EnPassantMark => {
                self.annotation(kind, text)
            }
            NodeKind::VariationStart => {
                self.word("(");
                self.sep = Sep::Join;
            }
            NodeKind::VariationEnd => {
                // `))`, which may break between the two when many variations end together.
                let closes_another = self.last_kind == Some(NodeKind::VariationEnd);
                self.sep = if closes_another { Sep::Break } else { Sep::Join };
                self.word(")");
            }
            NodeKind::Comment | NodeKind::LineComment | NodeKind::Escape => {
                self.commentary(kind, text)
            }
            NodeKind::Result => {
                self.word(standard_marker(text));
                // Commentary after the marker stays on its line: on a later line it would open
                // the next game (the parser's rule).
                self.sep = Sep::Tie;
            }
            NodeKind::Unexpected => self.word(text),
        }
        self.last_kind = Some(kind);
    }

    /// In reduced export format, whether a node is kept: the moves and the marker of the main
    /// line (the depth of the variations left out is followed here).
    fn kept_when_reduced(&mut self, kind: NodeKind) -> bool {
        match kind {
            NodeKind::VariationStart => {
                self.skipped_depth += 1;
                false
            }
            NodeKind::VariationEnd => {
                self.skipped_depth = self.skipped_depth.saturating_sub(1);
                false
            }
            NodeKind::Move | NodeKind::NullMove | NodeKind::Result | NodeKind::Unexpected => {
                self.skipped_depth == 0
            }
            _ => false,
        }
    }

    fn word(&mut self, text: &str) {
        self.doc.push(std::mem::replace(&mut self.sep, Sep::Space), text);
        self.after_move = false;
    }

    /// A suffix annotation (as its NAG), a NAG, a glyph or an `e.p.` mark (part of its move).
    #[inline(never)]
    fn annotation(&mut self, kind: NodeKind, text: &str) {
        match kind {
            NodeKind::Suffix | NodeKind::Glyph => {
                let nag = if kind == NodeKind::Suffix { suffix_nag(text) } else { glyph_nag(text) };
                match nag {
                    Some(nag) => self.nag(|out| write_number(out, nag.into())),
                    None => self.word(text),
                }
            }
            NodeKind::Nag => self.nag(|out| out.push_str(nag_digits(text))),
            NodeKind::EnPassantMark => {
                let after_move = self.after_move;
                self.word(text);
                self.after_move = after_move;
            }
            _ => self.word(text),
        }
    }

    /// A NAG whose digits `write_digits` writes.
    fn nag(&mut self, write_digits: impl FnOnce(&mut String)) {
        let sep = std::mem::replace(&mut self.sep, Sep::Space);
        self.doc.push_written(sep, |out| {
            out.push('$');
            write_digits(out);
        });
        self.after_move = false;
    }

    /// A move with its number when it needs one (§8.2.2.2).
    fn chess_move(&mut self, text: &str, fact: Option<&MoveFact>) {
        self.en_passant = fact.is_some_and(|f| f.en_passant);
        let Some(fact) = fact else {
            self.word(text);
            self.after_move = true;
            return;
        };
        let sep = std::mem::replace(&mut self.sep, Sep::Space);
        let black = !fact.turn.is_white();
        let san_sep = if !black || !self.after_move {
            self.doc.push_move_number(sep, fact.fullmove, black);
            Sep::Space
        } else {
            sep
        };
        match &fact.san {
            Some(san) if !fact.written_canonical => {
                self.doc.push_written(san_sep, |out| chess::push_san_plus(out, *san))
            }
            _ => self.doc.push(san_sep, text),
        }
        self.after_move = true;
    }

    /// A `{ }` comment, a `;` comment (the line ends after it) or a `%` escape line (a line of
    /// its own, verbatim, §6).
    fn commentary(&mut self, kind: NodeKind, text: &str) {
        let sep = std::mem::replace(&mut self.sep, Sep::Space);
        match kind {
            NodeKind::Comment => {
                comment::push(&mut self.doc, sep, comment::body(text), self.options.reflow_comments)
            }
            NodeKind::LineComment => {
                self.doc.push(sep, text.trim_end_matches(comment::is_blank));
                self.doc.end_line();
            }
            _ => {
                self.doc.end_line();
                self.doc.push(sep, text);
                self.doc.end_line();
            }
        }
        self.after_move = false;
    }
}
