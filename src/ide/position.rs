//! The live board: the position at a cursor, with the move that led to it, as FEN, a text
//! diagram and an SVG image. The position is the one after the last move before the cursor in
//! the line the cursor is in (a variation branches off before the move it replaces, §8.2.5);
//! before the first move it is the game's start position (FEN tag aware, §9.7.2).

use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode, Move, Position as _, Square};

use super::analysis::DocumentAnalysis;
use super::board::board_diagram;
use super::board_svg::{Marks, board_svg};
use super::moves::{PlayedMove, replay_moves};
use crate::chess::{self, Outcome, Position, color_name};
use crate::syntax::{Game, NodeKind, TextSource, parse_game_at};
use crate::text::TextRange;

/// The position shown for a cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPosition {
    pub fen: String,
    pub turn: Color,
    pub status: Status,
    /// The move that led to the position; `None` at the start position.
    pub last_move: Option<ShownMove>,
    /// The move of the cursor's line that could not be played: the position is the one before
    /// it, and the moves after it are not shown.
    pub illegal_move: Option<ShownMove>,
    /// 0 in the main line, 1 in a variation of it, ...
    pub depth: u32,
    /// The board as text, White at the bottom (as in hovers).
    pub diagram: String,
    /// The board as an SVG image, seen from the side asked for.
    pub svg: String,
}

/// Whether the side to move is in check, checkmated or stalemated, or the game has ended by
/// its variant's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Playing,
    Check,
    Checkmate,
    Stalemate,
    /// A win or draw by the variant's rules (an [`Outcome::VariantWin`] or
    /// [`Outcome::VariantDraw`]).
    VariantEnd(Outcome),
}

/// A move of the document, as the board names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownMove {
    /// "12... Nxe4": the move number, dots for the side, the SAN (as written when illegal).
    pub label: String,
    /// The move in SAN with its check sign, or as written when illegal.
    pub san: String,
    /// The move in the document.
    pub range: TextRange,
    /// The squares it left and reached (the king's for castling); none for a null move or an
    /// illegal move.
    pub from: Option<Square>,
    pub to: Option<Square>,
}

/// The board at `offset` of the document `text`, whose analysis is `analysis`, with the SVG
/// drawn from `orientation`'s side. `None` when the cursor is not in a game (no tags, no moves)
/// or the game cannot be replayed (an unreadable FEN, a variant whose rules are not known).
pub fn board_position(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    offset: u32,
    orientation: Color,
) -> Option<BoardPosition> {
    let (start, _) = analysis.game_at(offset)?;
    let (game, src) = parse_game_at(text, start as usize);
    let mut board = board_in_game(&game, &src, offset.saturating_sub(start), orientation)?;
    for shown in board.last_move.iter_mut().chain(&mut board.illegal_move) {
        shown.range = shown.range.shift(start);
    }
    Some(board)
}

fn board_in_game(game: &Game, src: &str, offset: u32, orientation: Color) -> Option<BoardPosition> {
    let has_moves =
        game.nodes.iter().any(|n| matches!(n.kind, NodeKind::Move | NodeKind::NullMove));
    if game.tags.is_empty() && !has_moves {
        return None;
    }
    let (path, depth) = line_to(game, offset);
    let moves = replay_moves(game, src, |node, _| path.binary_search(&node).is_ok());
    let mut pos = chess::start_position(game, src)?;
    let mut last_move = None;
    let mut illegal_move = None;
    for mv in &moves {
        let written = &src[game.nodes[mv.node].range];
        match mv.after() {
            Some(after) => {
                last_move = Some(shown_move(game, mv, written));
                pos = after;
            }
            None => {
                illegal_move = Some(shown_move(game, mv, written));
                break;
            }
        }
    }
    Some(draw(&pos, last_move, illegal_move, depth, orientation))
}

/// The move nodes from the game's start to the cursor along the line the cursor is in, and the
/// depth of that line. A node counts when it starts before the cursor; a move also when the
/// cursor is at its first character.
fn line_to(game: &Game, offset: u32) -> (Vec<usize>, u32) {
    let mut path = Vec::new();
    // For each variation the cursor is in: the length of the path before it and the move it
    // replaces, put back when the variation ends.
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    for (i, node) in game.nodes.iter().enumerate() {
        let is_move = matches!(node.kind, NodeKind::Move | NodeKind::NullMove);
        if node.range.start > offset || (node.range.start == offset && !is_move) {
            break;
        }
        match node.kind {
            NodeKind::Move | NodeKind::NullMove => path.push(i),
            NodeKind::VariationStart => {
                let replaced = path.pop();
                open.push((path.len(), replaced));
            }
            NodeKind::VariationEnd => {
                if let Some((len, replaced)) = open.pop() {
                    path.truncate(len);
                    path.extend(replaced);
                }
            }
            _ => {}
        }
    }
    (path, open.len() as u32)
}

fn shown_move(game: &Game, mv: &PlayedMove, written: &str) -> ShownMove {
    let (from, to) = match &mv.played {
        Some((m, _)) => squares_of(m, mv.turn),
        None => (None, None),
    };
    let san = match &mv.played {
        Some((_, san)) => chess::san_plus_text(*san),
        None => written.to_owned(),
    };
    ShownMove { label: mv.label(written), san, range: game.nodes[mv.node].range, from, to }
}

/// The squares a move left and reached; for castling, the king's (shakmaty writes castling as
/// the king taking its rook).
fn squares_of(m: &Move, turn: Color) -> (Option<Square>, Option<Square>) {
    match m.castling_side() {
        Some(side) => (m.from(), Some(side.king_to(turn))),
        None => (m.from(), Some(m.to())),
    }
}

fn draw(
    pos: &Position,
    last_move: Option<ShownMove>,
    illegal_move: Option<ShownMove>,
    depth: u32,
    orientation: Color,
) -> BoardPosition {
    let turn = pos.turn();
    let status = match Outcome::at(pos) {
        Outcome::Checkmate { .. } => Status::Checkmate,
        Outcome::Stalemate => Status::Stalemate,
        end @ (Outcome::VariantWin { .. } | Outcome::VariantDraw { .. }) => Status::VariantEnd(end),
        Outcome::Open | Outcome::Unknown if pos.is_check() => Status::Check,
        Outcome::Open | Outcome::Unknown => Status::Playing,
    };
    let board = pos.board();
    let marks = Marks {
        last_move: last_move.iter().flat_map(|m| m.from.into_iter().chain(m.to)).collect(),
        check: pos.is_check().then(|| board.king_of(turn)).flatten(),
    };
    let title = match &last_move {
        Some(m) => format!("Position after {}, {} to move", m.label, color_name(turn)),
        None => format!("Start position, {} to move", color_name(turn)),
    };
    BoardPosition {
        fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
        turn,
        status,
        diagram: board_diagram(board),
        svg: board_svg(board, orientation, &marks, &title),
        last_move,
        illegal_move,
        depth,
    }
}
