//! What the printer needs to know about each move, taken from the chess layer's replay: its
//! move number, the side making it, and its canonical SAN when it is legal (§8.2.3.7). The
//! formatter does no chess of its own.

use shakmaty::Color;
use shakmaty::san::SanPlus;

use crate::chess;
use crate::syntax::{Game, NodeKind};

/// One move node as replayed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveFact {
    pub fullmove: u32,
    pub turn: Color,
    /// Canonical SAN with `+`/`#`; `None` for a move that is not legal, which is written as it is.
    pub san: Option<SanPlus>,
    /// The move's text is its canonical SAN already (nearly every move): copied, not written.
    pub written_canonical: bool,
}

/// The facts of every move node, indexed like `game.nodes` (`None` for other nodes).
pub(crate) fn move_facts(game: &Game, src: &str) -> Vec<Option<MoveFact>> {
    let mut facts: Vec<Option<MoveFact>> = vec![None; game.nodes.len()];
    chess::replay_without_positions(game, src, &mut |visit| {
        if let Some(slot) = facts.get_mut(visit.node) {
            *slot = Some(MoveFact {
                fullmove: visit.fullmove,
                turn: visit.turn,
                san: visit.played.as_ref().map(|(_, san)| *san),
                written_canonical: visit.written_canonical,
            });
        }
    });
    facts
}

/// Whether the replay reached every move node (else the game is left as it is rather than
/// misnumbered).
pub(crate) fn all_replayed(game: &Game, facts: &[Option<MoveFact>]) -> bool {
    game.nodes
        .iter()
        .zip(facts)
        .all(|(n, f)| f.is_some() || !matches!(n.kind, NodeKind::Move | NodeKind::NullMove))
}
