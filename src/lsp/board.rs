//! The `pgn/position` request of the live board: its parameters and result as they travel
//! (JSON, camelCase), and the conversion of the `ide` board into that result.
//!
//! Request: `{ textDocument, position, orientation?: "white" | "black" }`.
//! Result: `null` when the cursor is not in a game, else `{ fen, sideToMove, status, ending?,
//! lastMove, illegalMove, depth, diagram, svg }`, the moves as `{ label, san, range, from, to }`.

use serde::{Deserialize, Serialize};
use shakmaty::Color;
use tower_lsp::lsp_types::{Range, TextDocumentPositionParams};

use super::convert::Positions;
use crate::ide::{BoardPosition, ShownMove, Status};

/// The method name.
pub const METHOD: &str = "pgn/position";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionParams {
    #[serde(flatten)]
    pub at: TextDocumentPositionParams,
    /// The side seen at the bottom of the SVG board; White when absent.
    #[serde(default)]
    pub orientation: Option<Side>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        color.fold_wb(Side::White, Side::Black)
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionResult {
    pub fen: String,
    pub side_to_move: Side,
    /// `playing`, `check`, `checkmate`, `stalemate` or `variantEnd`.
    pub status: &'static str,
    /// With `variantEnd`, the end in words: "a win for White by the rules of antichess".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    pub last_move: Option<MoveResult>,
    pub illegal_move: Option<MoveResult>,
    /// 0 in the main line, 1 in a variation of it, ...
    pub depth: u32,
    /// The board as text, White at the bottom.
    pub diagram: String,
    pub svg: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveResult {
    /// "12... Nxe4".
    pub label: String,
    pub san: String,
    pub range: Range,
    pub from: Option<String>,
    pub to: Option<String>,
}

pub fn position_result(board: BoardPosition, positions: &Positions<'_>) -> PositionResult {
    let shown = |m: ShownMove| MoveResult {
        label: m.label,
        san: m.san,
        range: positions.range(m.range),
        from: m.from.map(|s| s.to_string()),
        to: m.to.map(|s| s.to_string()),
    };
    PositionResult {
        fen: board.fen,
        side_to_move: board.turn.into(),
        status: match board.status {
            Status::Playing => "playing",
            Status::Check => "check",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::VariantEnd(_) => "variantEnd",
        },
        ending: match board.status {
            Status::VariantEnd(end) => end.result().map(|(_, words)| words),
            _ => None,
        },
        last_move: board.last_move.map(shown),
        illegal_move: board.illegal_move.map(shown),
        depth: board.depth,
        diagram: board.diagram,
        svg: board.svg,
    }
}
