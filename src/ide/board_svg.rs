//! The board of a position as a self-contained SVG image for the live board: squares, the
//! squares of the last move and a king in check highlighted, coordinates on the edge squares,
//! pieces as Unicode chess glyphs in `<text>` elements. No external resources, no `<style>`
//! element and no script (a webview's content security policy may forbid them): only
//! presentation attributes. The output depends on nothing but its inputs.

use std::fmt::Write;

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

/// The side of a square, in SVG user units.
const SQUARE: u32 = 45;
const BOARD: u32 = 8 * SQUARE;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const LAST_MOVE_LIGHT: &str = "#cdd26a";
const LAST_MOVE_DARK: &str = "#aaa23a";

/// Fonts that have the chess glyphs (U+2654–U+265F) on common systems.
const PIECE_FONTS: &str =
    "'DejaVu Sans', 'Noto Sans Symbols 2', 'Segoe UI Symbol', 'Apple Symbols', serif";

/// Asks for the text (not emoji) presentation of the glyph before it.
const TEXT_PRESENTATION: char = '\u{FE0E}';

/// What the board shows besides the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The squares the last move left and reached.
    pub last_move: Vec<Square>,
    /// The square of a king in check.
    pub check: Option<Square>,
}

/// The SVG of `board` seen from `orientation`'s side, with `marks`; `title` is its accessible
/// name (plain text).
pub fn board_svg(board: &Board, orientation: Color, marks: &Marks, title: &str) -> String {
    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {BOARD} {BOARD}\" \
         width=\"{BOARD}\" height=\"{BOARD}\" role=\"img\">"
    );
    let _ = write!(out, "<title>{}</title>", escape_xml(title));
    out.push_str(
        "<defs><radialGradient id=\"check\">\
         <stop offset=\"0%\" stop-color=\"#ff0000\"/>\
         <stop offset=\"25%\" stop-color=\"#e70000\"/>\
         <stop offset=\"89%\" stop-color=\"#a90000\" stop-opacity=\"0\"/>\
         <stop offset=\"100%\" stop-color=\"#9e0000\" stop-opacity=\"0\"/>\
         </radialGradient></defs>",
    );
    squares(&mut out, orientation, marks);
    coordinates(&mut out, orientation);
    pieces(&mut out, board, orientation);
    out.push_str("</svg>");
    out
}

/// The top-left corner of a square's cell.
fn corner(square: Square, orientation: Color) -> (u32, u32) {
    let (column, row) = match orientation {
        Color::White => (u32::from(square.file()), 7 - u32::from(square.rank())),
        Color::Black => (7 - u32::from(square.file()), u32::from(square.rank())),
    };
    (column * SQUARE, row * SQUARE)
}

fn is_light(square: Square) -> bool {
    (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1
}

fn squares(out: &mut String, orientation: Color, marks: &Marks) {
    let _ = write!(out, "<rect width=\"{BOARD}\" height=\"{BOARD}\" fill=\"{LIGHT}\"/>");
    for square in Square::ALL {
        let fill = match (marks.last_move.contains(&square), is_light(square)) {
            (false, true) => continue,
            (false, false) => DARK,
            (true, true) => LAST_MOVE_LIGHT,
            (true, false) => LAST_MOVE_DARK,
        };
        let (x, y) = corner(square, orientation);
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
        );
    }
    if let Some(king) = marks.check {
        let (x, y) = corner(king, orientation);
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"url(#check)\"/>"
        );
    }
}

/// File letters in the bottom row, rank numbers in the left column, each in the colour of the
/// other kind of square.
fn coordinates(out: &mut String, orientation: Color) {
    out.push_str("<g font-family=\"sans-serif\" font-size=\"10\" font-weight=\"bold\">");
    let bottom = match orientation {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    };
    let left = match orientation {
        Color::White => File::A,
        Color::Black => File::H,
    };
    for file in File::ALL {
        let square = Square::from_coords(file, bottom);
        let (x, y) = corner(square, orientation);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{}\">{}</text>",
            x + SQUARE - 3,
            y + SQUARE - 3,
            contrast(square),
            file.char()
        );
    }
    for rank in Rank::ALL {
        let square = Square::from_coords(left, rank);
        let (x, y) = corner(square, orientation);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>",
            x + 3,
            y + 12,
            contrast(square),
            rank.char()
        );
    }
    out.push_str("</g>");
}

fn contrast(square: Square) -> &'static str {
    if is_light(square) { DARK } else { LIGHT }
}

/// Black pieces are the solid glyphs in black. White pieces are the solid glyph in white under
/// the outline glyph in black, so that they are white whatever the square's colour.
fn pieces(out: &mut String, board: &Board, orientation: Color) {
    let _ = write!(
        out,
        "<g font-family=\"{PIECE_FONTS}\" font-size=\"{}\" text-anchor=\"middle\" \
         dominant-baseline=\"central\">",
        SQUARE * 5 / 6
    );
    for (square, piece) in board {
        let (x, y) = corner(square, orientation);
        let (cx, cy) = (x + SQUARE / 2, y + SQUARE / 2);
        let solid = glyph(Piece { color: Color::Black, role: piece.role });
        match piece.color {
            Color::White => {
                let outline = glyph(piece);
                let _ = write!(
                    out,
                    "<text x=\"{cx}\" y=\"{cy}\" fill=\"#ffffff\">{solid}{TEXT_PRESENTATION}</text>\
                     <text x=\"{cx}\" y=\"{cy}\" fill=\"#000000\">{outline}{TEXT_PRESENTATION}</text>"
                );
            }
            Color::Black => {
                let _ = write!(
                    out,
                    "<text x=\"{cx}\" y=\"{cy}\" fill=\"#000000\">{solid}{TEXT_PRESENTATION}</text>"
                );
            }
        }
    }
    out.push_str("</g>");
}

/// The Unicode chess symbol of a piece (U+2654–U+265F).
fn glyph(piece: Piece) -> char {
    let white = match piece.role {
        Role::King => '♔',
        Role::Queen => '♕',
        Role::Rook => '♖',
        Role::Bishop => '♗',
        Role::Knight => '♘',
        Role::Pawn => '♙',
    };
    match piece.color {
        Color::White => white,
        Color::Black => char::from_u32(white as u32 + 6).expect("the black symbols follow"),
    }
}

fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_of_both_colours() {
        let black_knight = Piece { color: Color::Black, role: Role::Knight };
        assert_eq!(glyph(black_knight), '♞');
        assert_eq!(glyph(Piece { color: Color::White, role: Role::Pawn }), '♙');
    }

    #[test]
    fn a1_is_bottom_left_for_white_and_top_right_for_black() {
        assert_eq!(corner(Square::A1, Color::White), (0, 7 * SQUARE));
        assert_eq!(corner(Square::A1, Color::Black), (7 * SQUARE, 0));
        assert!(!is_light(Square::A1));
        assert!(is_light(Square::H1));
    }

    #[test]
    fn the_title_is_escaped() {
        let svg = board_svg(&Board::empty(), Color::White, &Marks::default(), "a<b & \"c\"");
        assert!(svg.contains("<title>a&lt;b &amp; &quot;c&quot;</title>"), "{svg}");
    }
}
