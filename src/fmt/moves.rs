//! What the printer needs to know about each move, taken from the chess layer's replay: its
//! move number, the side making it, and its canonical SAN when it is legal (§8.2.3.7). The
//! formatter does no chess of its own.

use shakmaty::Color;
use shakmaty::san::SanPlus;

use crate::chess::{self, MoveVisit, PendingNumber, WrittenNumber};
use crate::syntax::{Game, NodeKind};

/// One move node as replayed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveFact {
    pub fullmove: u64,
    pub turn: Color,
    /// Canonical SAN with `+`/`#`; `None` for a move that is not legal, which is written as it is.
    pub san: Option<SanPlus>,
    /// The move's text is its canonical SAN already (nearly every move): copied, not written.
    pub written_canonical: bool,
    /// The move is an en passant capture: an `e.p.` mark right after it is left out, as en
    /// passant captures have no special notation (§8.2.3.3). A mark anywhere else is kept,
    /// and `check` reports it.
    pub en_passant: bool,
}

impl MoveFact {
    fn of(visit: &MoveVisit<'_>) -> Self {
        MoveFact {
            fullmove: visit.fullmove,
            turn: visit.turn,
            san: visit.played.as_ref().map(|(_, san)| *san),
            written_canonical: visit.written_canonical,
            en_passant: visit.played.as_ref().is_some_and(|(m, _)| m.is_en_passant()),
        }
    }
}

/// Replay `game` and pass every node but the move numbers (which are layout: the replay
/// recomputes them) to `each` in order, by its index in `game.nodes`, with the facts of a move
/// node as the replay found them (`None` for other nodes, and for a move the replay did not
/// reach). Returns whether the game's moves can be numbered: whether the replay knew where the
/// numbers start (a FEN tag it could not read leaves them unknown), reached every move node,
/// every move node the replay could not play reads as a move in some notation, every move
/// number written before such a move fits the number it counted, and every move number stands
/// before a move. Else the game is to be left as it is rather than misnumbered or stripped of
/// text: the words before a game's first move number that the replay reads as text, not moves
/// (`Hello 1. c4 c5`), are not reached; a word among the moves that reads as no move (`White
/// resigns`, the `a` of `$1a`) may be anything but a move, and numbering it as one would
/// number the moves after it wrongly; at a move that cannot be played, and after it, the count
/// is a guess that a written number may contradict (`1. e4 e5 2. Ke3 3. Nf3`, or `2. Nf3 3. Bc4`
/// where Black's second move is missing); and a number before no move (`12.03.2024`, `2.`
/// before the result) would be deleted. Nodes are passed as the replay goes, so that nothing
/// is kept per move.
pub(crate) fn walk(game: &Game, src: &str, mut each: impl FnMut(usize, Option<&MoveFact>)) -> bool {
    let mut numbered = true;
    // The move number waiting for its move in the line being walked and in each line it is a
    // variation of.
    let mut lines = vec![PendingNumber::default()];
    let text = |n: usize| src[game.nodes[n].range].as_bytes();
    let mut pass = |i: usize, fact: Option<&MoveFact>| {
        let node = game.nodes[i];
        let variation = lines.len() > 1;
        let line = lines.last_mut().expect("the main line is never popped");
        match node.kind {
            NodeKind::MoveNumber => numbered &= line.number(i, text).is_none(),
            NodeKind::VariationStart => lines.push(PendingNumber::default()),
            NodeKind::VariationEnd if variation => {
                numbered &= line.end(text).is_none();
                lines.pop();
            }
            NodeKind::Result => numbered &= line.end(text).is_none(),
            NodeKind::Move | NodeKind::NullMove => {
                let number = line.take();
                match fact {
                    None => numbered = false,
                    Some(f) if f.san.is_none() => {
                        let written = number.and_then(|n| WrittenNumber::read(text(n)));
                        numbered &= written.is_none_or(|w| w.fits(f.fullmove, f.turn));
                        numbered &= node.kind == NodeKind::NullMove
                            || chess::reads_as_move(&src[node.range]);
                    }
                    Some(_) => {}
                }
            }
            _ => {}
        }
        if node.kind != NodeKind::MoveNumber {
            each(i, fact);
        }
    };
    // The nodes before `next` have been passed.
    let mut next = 0;
    let numbers_known = chess::replay_without_positions(game, src, |visit: &MoveVisit<'_>| {
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
    numbers_known && numbered && lines.iter_mut().all(|line| line.end(text).is_none())
}
