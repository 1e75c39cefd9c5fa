//! What the printer needs to know about each move, taken from the chess layer's replay: its
//! move number, the side making it, and its canonical SAN when it is legal (§8.2.3.7). The
//! formatter does no chess of its own.

use shakmaty::Color;
use shakmaty::san::SanPlus;

use crate::chess::{self, MoveVisit};
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

impl MoveFact {
    fn of(visit: &MoveVisit<'_>) -> Self {
        MoveFact {
            fullmove: visit.fullmove,
            turn: visit.turn,
            san: visit.played.as_ref().map(|(_, san)| *san),
            written_canonical: visit.written_canonical,
        }
    }
}

/// Replay `game` and pass every node but the move numbers (which are layout: the replay
/// recomputes them) to `each` in order, by its index in `game.nodes`, with the facts of a move
/// node as the replay found them (`None` for other nodes, and for a move the replay did not
/// reach). Returns whether the replay reached every move node (else the game is to be left as
/// it is rather than misnumbered). Nodes are passed as the replay goes, so that nothing is kept
/// per move.
pub(crate) fn walk(game: &Game, src: &str, mut each: impl FnMut(usize, Option<&MoveFact>)) -> bool {
    let mut reached_all = true;
    let mut pass = |i: usize, fact: Option<&MoveFact>| match game.nodes[i].kind {
        NodeKind::MoveNumber => {}
        NodeKind::Move | NodeKind::NullMove if fact.is_none() => {
            reached_all = false;
            each(i, None);
        }
        _ => each(i, fact),
    };
    // The nodes before `next` have been passed.
    let mut next = 0;
    chess::replay_without_positions(game, src, |visit: &MoveVisit<'_>| {
        // The replay visits moves in text order, each once.
        debug_assert!(visit.node >= next && visit.node < game.nodes.len());
        if visit.node < next || visit.node >= game.nodes.len() {
            return;
        }
        for i in next..visit.node {
            pass(i, None);
        }
        pass(visit.node, Some(&MoveFact::of(visit)));
        next = visit.node + 1;
    });
    for i in next..game.nodes.len() {
        pass(i, None);
    }
    reached_all
}
