//! What the printer needs to know about each move, taken from the chess layer's replay: its
//! move number, the side making it, and its canonical SAN when it is legal (§8.2.3.7). The
//! formatter does no chess of its own.

use shakmaty::Color;
use shakmaty::san::SanPlus;

use crate::chess::{self, MoveVisit, WrittenNumber};
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
/// reach). Returns whether the game's moves can be numbered: whether the replay reached every
/// move node, and every move number written after a move the replay could not play, in the
/// same line, fits the number it counted. Else the game is to be left as it is rather than
/// misnumbered: the words before a game's first move number that the replay reads as text,
/// not moves (`Hello 1. c4 c5`), are not reached; after a word that is no move
/// (`1. e4 Hello 3. Nf3`), the count is a guess that the written numbers contradict. Nodes are
/// passed as the replay goes, so that nothing is kept per move.
pub(crate) fn walk(game: &Game, src: &str, mut each: impl FnMut(usize, Option<&MoveFact>)) -> bool {
    let mut numbered = true;
    let mut written_number = None;
    // For the line being walked and each line it is a variation of: whether a move of it could
    // not be played (the numbers after it are counted, not known).
    let mut broken = vec![false];
    let mut pass = |i: usize, fact: Option<&MoveFact>| {
        let kind = game.nodes[i].kind;
        match kind {
            NodeKind::MoveNumber => written_number = Some(i),
            NodeKind::VariationStart => broken.push(false),
            NodeKind::VariationEnd if broken.len() > 1 => {
                broken.pop();
            }
            NodeKind::Move | NodeKind::NullMove => {
                let number = written_number.take();
                let line_broken = broken.last_mut().expect("the main line is never popped");
                match fact {
                    None => numbered = false,
                    Some(f) if f.san.is_none() && *line_broken => {
                        let text = |n: usize| src[game.nodes[n].range].as_bytes();
                        let written = number.and_then(|n| WrittenNumber::read(text(n)));
                        numbered &= written.is_none_or(|w| w.fits(f.fullmove, f.turn));
                    }
                    Some(f) if f.san.is_none() => *line_broken = true,
                    Some(_) => {}
                }
            }
            _ => {}
        }
        if kind != NodeKind::MoveNumber {
            each(i, fact);
        }
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
    numbered
}
