//! Positions as Markdown for hovers: a board diagram (8x8 with rank and file labels, pieces as
//! FEN letters, in a monospace block) and the FEN in a block of its own, ready to copy.

use std::fmt::Write;

use shakmaty::fen::Fen;
use shakmaty::{Board, File, Rank, Square};

/// The diagram of a board, White at the bottom: uppercase letters for White, lowercase for
/// Black, `.` for an empty square.
pub fn board_diagram(board: &Board) -> String {
    let mut out = String::with_capacity(8 * 19 + 18);
    for rank in Rank::ALL.into_iter().rev() {
        out.push(rank.char());
        for file in File::ALL {
            out.push(' ');
            out.push(board.piece_at(Square::from_coords(file, rank)).map_or('.', |p| p.char()));
        }
        out.push('\n');
    }
    out.push(' ');
    for file in File::ALL {
        out.push(' ');
        out.push(file.char());
    }
    out
}

/// The board diagram and the FEN of a position, as two Markdown code blocks.
pub fn position_markdown(fen: &Fen) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "```text\n{}\n```\n\n```text\n{fen}\n```",
        board_diagram(&fen.as_setup().board)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_of_the_initial_position() {
        let expected = "\
8 r n b q k b n r
7 p p p p p p p p
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 P P P P P P P P
1 R N B Q K B N R
  a b c d e f g h";
        assert_eq!(board_diagram(&Board::default()), expected);
    }
}
