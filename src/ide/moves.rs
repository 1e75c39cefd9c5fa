//! The moves of one game as a replay sees them, for features that show positions (hover, the
//! live board): the move number and side of each move, its depth, the position before it and,
//! when it is legal, the move with its canonical SAN.

use shakmaty::san::SanPlus;
use shakmaty::{Color, Move, Position as _};

use crate::chess::{self, Position};
use crate::syntax::{Game, NodeKind};

/// What a replay says about one move.
pub struct PlayedMove {
    /// Index of the move node in `Game::nodes`.
    pub node: usize,
    pub fullmove: u64,
    pub turn: Color,
    /// 0 in the main line, 1 in a variation of it, ...
    pub depth: u32,
    /// `None` once the line has gone wrong before this move.
    pub before: Option<Position>,
    /// The move and its canonical SAN when it is legal.
    pub played: Option<(Move, SanPlus)>,
    /// Whether it is a null move (`--`, `Z0`), which passes the turn.
    pub null_move: bool,
}

impl PlayedMove {
    /// "12... Nxe4", with the SAN of the move when it is legal, else the move as written.
    pub fn label(&self, written: &str) -> String {
        let dots = if self.turn == Color::White { "." } else { "..." };
        match &self.played {
            Some((_, san)) => format!("{}{dots} {}", self.fullmove, chess::san_plus_text(*san)),
            None => format!("{}{dots} {written}", self.fullmove),
        }
    }

    /// The position after the move, when it is legal, or after a null move passing the turn
    /// (not when in check).
    pub fn after(&self) -> Option<Position> {
        if self.null_move {
            return chess::pass(self.before.clone()?);
        }
        let (m, _) = self.played.as_ref()?;
        let mut pos = self.before.clone()?;
        pos.play_unchecked(*m);
        Some(pos)
    }
}

/// Replay the game (`src` is its own text) and keep what it says about every move node
/// `wanted(node, depth)` accepts, in text order.
pub fn replay_moves(
    game: &Game,
    src: &str,
    wanted: impl Fn(usize, u32) -> bool,
) -> Vec<PlayedMove> {
    let mut moves = Vec::new();
    chess::replay(game, src, &mut |v| {
        if wanted(v.node, v.depth) {
            moves.push(PlayedMove {
                node: v.node,
                fullmove: v.fullmove,
                turn: v.turn,
                depth: v.depth,
                before: v.before(),
                played: v.played,
                null_move: game.nodes[v.node].kind == NodeKind::NullMove,
            });
        }
    });
    moves
}
