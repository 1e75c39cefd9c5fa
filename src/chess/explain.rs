//! Why a move is illegal or ambiguous, in the words a chess player uses ("Nf3: no knight can
//! reach f3", "Rd1 is ambiguous: the rooks on a1 and f1 can both move there").

use shakmaty::san::San;
use shakmaty::variant::Variant;
use shakmaty::{Bitboard, CastlingSide, Color, Move, Position, Role, Square, attacks};

use crate::syntax::excerpt;

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A variant's name as players write it.
pub fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Chess => "chess",
        Variant::Atomic => "atomic",
        Variant::Antichess => "antichess",
        Variant::KingOfTheHill => "King of the Hill",
        Variant::ThreeCheck => "three-check",
        Variant::Crazyhouse => "crazyhouse",
        Variant::RacingKings => "Racing Kings",
        Variant::Horde => "horde",
    }
}

pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn plural(r: Role) -> String {
    format!("{}s", role_name(r))
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

/// Names of squares: "a1 and f1", "a1, c1 and f1".
fn list_squares(squares: impl Iterator<Item = Square>) -> String {
    list(&squares.map(|s| s.to_string()).collect::<Vec<_>>(), "and")
}

/// Why a move that no accepted notation reads is not taken as a move: `readings` are its
/// readings with the piece letters of other languages (§17), `candidates` the legal ones among
/// them left to choose between (none, or more than one, which the moves after it do not tell
/// apart).
pub fn unread(text: &str, readings: &[String], candidates: &[String]) -> String {
    let text = excerpt(text);
    let letters = "PGN's piece letters are K, Q, R, B and N";
    match (readings, candidates) {
        ([], _) => format!("\"{text}\" is not a move in any notation this reader knows"),
        (_, []) => format!(
            "\"{text}\" is not a move: {letters}, and read with those of another language \
             ({}) it is no legal move here",
            list(readings, "or")
        ),
        _ => format!(
            "\"{text}\" is not a move: {letters}, and read with those of another language it \
             could be {}, which the moves after it do not tell apart",
            list(candidates, "or")
        ),
    }
}

/// "a", "a and b", "a, b and c" (or with another last word).
fn list(items: &[String], last_word: &str) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} {last_word} {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// "Rd1 is ambiguous: the rooks on a1 and f1 can both move there".
pub fn ambiguous(text: &str, san: San, pos: &impl Position) -> String {
    let San::Normal { role, file, rank, capture, to, promotion } = san else {
        return format!("{text} is ambiguous");
    };
    let froms = pos.san_candidates(role, to).into_iter().filter_map(|m| match m {
        Move::Normal { from, capture: c, promotion: p, .. }
            if file.is_none_or(|f| f == from.file())
                && rank.is_none_or(|r| r == from.rank())
                && capture == c.is_some()
                && promotion == p =>
        {
            Some(from)
        }
        _ => None,
    });
    let froms: Vec<Square> = froms.collect();
    let both = if froms.len() == 2 { "both " } else { "all " };
    format!(
        "{text} is ambiguous: the {} on {} can {both}move there",
        plural(role),
        list_squares(froms.into_iter())
    )
}

/// Why `san` (written `text`) matches no legal move in `pos`.
pub fn illegal(text: &str, san: San, pos: &impl Position, variant: Variant) -> String {
    let us = pos.turn();
    let reason = match san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            let royal_king = variant != Variant::Antichess;
            normal_reason(pos, royal_king, role, (file, rank), capture, to, promotion)
        }
        San::Castle(side) => castle_reason(pos, side),
        San::Put { role, to } => {
            if pos.board().occupied().contains(to) {
                format!("{to} is occupied")
            } else if pos.pockets().is_none() {
                "pieces can be dropped only in crazyhouse".to_owned()
            } else if pos.pockets().is_some_and(|p| p[us][role] == 0) {
                format!("{} has no {} in hand to drop", color_name(us), role_name(role))
            } else {
                format!("{} cannot drop a {} on {to}", color_name(us), role_name(role))
            }
        }
        San::Null => "a null move is not a move".to_owned(),
    };
    format!("{text}: {reason}")
}

/// Why a normal move is illegal; `royal_king` says whether the variant forbids exposing the
/// king (antichess's king is a piece like the others).
fn normal_reason(
    pos: &impl Position,
    royal_king: bool,
    role: Role,
    (file, rank): (Option<shakmaty::File>, Option<shakmaty::Rank>),
    capture: bool,
    to: Square,
    promotion: Option<Role>,
) -> String {
    let us = pos.turn();
    let board = pos.board();
    let ours = pos.our(role);
    let piece = role_name(role);
    if ours.is_empty() {
        return format!("{} has no {piece}", color_name(us));
    }
    // A pawn never stands on its own back rank: that it is occupied is beside the point.
    if role == Role::Pawn && to.rank() == us.backrank() {
        let color = color_name(us).to_lowercase();
        let ahead = (!us).backrank().char();
        return format!("no {color} pawn can move to {to}: pawns move toward rank {ahead}");
    }
    if pos.us().contains(to) {
        let own = board.role_at(to).map_or("piece", role_name);
        return format!("{to} is occupied by {}'s own {own}", color_name(us));
    }
    let restricted: Bitboard = ours
        .into_iter()
        .filter(|s| file.is_none_or(|f| f == s.file()) && rank.is_none_or(|r| r == s.rank()))
        .collect();
    let where_ = match (file, rank) {
        (Some(f), Some(r)) => format!(" from {}", Square::from_coords(f, r)),
        (Some(f), None) => format!(" on the {}-file", f.char()),
        (None, Some(r)) => format!(" on rank {}", r.char()),
        (None, None) => String::new(),
    };
    if restricted.is_empty() {
        return format!("{} has no {piece}{where_}", color_name(us));
    }
    let occupied = board.occupied();
    let reachers: Bitboard =
        restricted.into_iter().filter(|&from| reaches(pos, role, from, to, occupied)).collect();
    if reachers.is_empty() {
        return if role == Role::Pawn {
            format!("no {} pawn{where_} can move to {to}", color_name(us).to_lowercase())
        } else {
            format!("no {piece}{where_} can reach {to}")
        };
    }
    let last_rank = to.rank() == shakmaty::Rank::Eighth || to.rank() == shakmaty::Rank::First;
    // The first square a piece can come from: the move's square of departure, as near as the
    // text and the board tell.
    let from = reachers.first().expect("checked above");
    let legal = pos.legal_moves();
    // The legal pawn moves to `to` from the squares the text allows, as SAN (a capture names
    // its file, §8.2.3.3): what to write instead, where the pawn is not pinned, say.
    let pawn_moves = |keep: &dyn Fn(&Move) -> bool| -> Vec<String> {
        legal
            .iter()
            .filter(|m| m.role() == Role::Pawn && m.to() == to)
            .filter(|m| m.from().is_some_and(|f| reachers.contains(f)) && keep(m))
            .map(|m| super::san_text(San::from_move(pos, *m)))
            .collect()
    };
    let queen_promotions = || pawn_moves(&|m| m.promotion() == Some(Role::Queen));
    if role == Role::Pawn && last_rank && promotion.is_none() {
        let queens = queen_promotions();
        if !queens.is_empty() {
            return format!(
                "a pawn reaching {to} must promote: write {} (or =R, =B, =N)",
                list(&queens, "or")
            );
        }
    }
    if promotion.is_some() && (role != Role::Pawn || !last_rank) {
        return "only a pawn reaching the last rank promotes".to_owned();
    }
    // A king is a promotion piece in antichess alone; where promoting to a queen would be
    // legal instead, the promotion piece is what is wrong.
    if promotion == Some(Role::Pawn)
        || (promotion == Some(Role::King) && !queen_promotions().is_empty())
    {
        return "a pawn promotes to a queen, a rook, a bishop or a knight".to_owned();
    }
    let target_enemy = pos.them().contains(to) || pos.maybe_ep_square() == Some(to);
    // A pawn reaches another file only by capturing, and a capture names the pawn's file
    // (§8.2.3.3): `d5` for `exd5`.
    if role == Role::Pawn && !capture && reachers.into_iter().all(|s| s.file() != to.file()) {
        let captures = pawn_moves(&|m| m.is_capture() && m.promotion() == promotion);
        if !captures.is_empty() {
            let captures = list(&captures, "or");
            return format!("a pawn goes to {to} only by capturing: write {captures}");
        }
    }
    if capture && !target_enemy {
        return format!("there is nothing to capture on {to}");
    }
    if !capture && pos.them().contains(to) && role != Role::Pawn {
        return format!(
            "{to} holds a {} to capture: write x",
            board.role_at(to).map_or("piece", role_name)
        );
    }
    if pos.is_check() {
        return format!("it does not get the {} king out of check", color_name(us).to_lowercase());
    }
    if royal_king && exposes_king(pos, from, to) {
        return format!("illegal, the {} king would be in check", color_name(us).to_lowercase());
    }
    // No king to expose: the variant's rules forbid the move. Only antichess makes a capture
    // compulsory.
    let captures: Vec<String> = legal
        .iter()
        .filter(|m| m.is_capture())
        .take(3)
        .map(|m| super::san_text(San::from_move(pos, *m)))
        .collect();
    if !capture && !captures.is_empty() && legal.iter().all(|m| m.is_capture()) {
        return format!(
            "capturing is compulsory in antichess, and {} can capture ({})",
            color_name(us),
            list(&captures, "or")
        );
    }
    "the rules of the game's variant forbid it here".to_owned()
}

/// Whether the side to move's king stands attacked once the piece on `from` moves to `to`,
/// taking what it captures off the board (the pawn beside it, capturing en passant).
fn exposes_king(pos: &impl Position, from: Square, to: Square) -> bool {
    let us = pos.turn();
    let mut board = pos.board().clone();
    let Some(piece) = board.remove_piece_at(from) else {
        return false;
    };
    if piece.role == Role::Pawn && pos.maybe_ep_square() == Some(to) && from.file() != to.file() {
        board.discard_piece_at(Square::from_coords(to.file(), from.rank()));
    }
    board.set_piece_at(to, piece);
    board.king_of(us).is_some_and(|king| !board.attacks_to(king, !us, board.occupied()).is_empty())
}

/// Whether a `role` on `from` could move to `to` ignoring checks (pawns: pushes and captures).
fn reaches(pos: &impl Position, role: Role, from: Square, to: Square, occupied: Bitboard) -> bool {
    if role != Role::Pawn {
        return attacks::attacks(from, shakmaty::Piece { color: pos.turn(), role }, occupied)
            .contains(to);
    }
    let us = pos.turn();
    if attacks::pawn_attacks(us, from).contains(to) {
        return pos.them().contains(to) || pos.maybe_ep_square() == Some(to);
    }
    let forward: i32 = if us == Color::White { 1 } else { -1 };
    let (ff, fr) = (from.file() as i32, from.rank() as i32);
    let (tf, tr) = (to.file() as i32, to.rank() as i32);
    if ff != tf || occupied.contains(to) {
        return false;
    }
    let start_rank = if us == Color::White { 1 } else { 6 };
    let between = Square::from_coords(from.file(), shakmaty::Rank::new((fr + forward) as u32));
    tr == fr + forward
        || (fr == start_rank && tr == fr + 2 * forward && !occupied.contains(between))
}

fn castle_reason(pos: &impl Position, side: CastlingSide) -> String {
    let us = pos.turn();
    let castles = pos.castles();
    let who = color_name(us);
    if !castles.has(us, side) {
        let king_home = pos.our(Role::King).into_iter().all(|k| k.rank() == us.backrank());
        if pos.our(Role::King).is_empty() {
            return format!("{who} has no king to castle with");
        }
        let why = if !king_home { "the king has moved" } else { "the king or that rook has moved" };
        return format!("{who} can no longer castle {} ({why})", side_name(side));
    }
    if pos.is_check() {
        return format!("{who} cannot castle out of check");
    }
    if !(castles.path(us, side) & pos.board().occupied()).is_empty() {
        return format!("{who} cannot castle {}: pieces stand in the way", side_name(side));
    }
    format!(
        "{who} cannot castle {}: the king would pass through or land on an attacked square",
        side_name(side)
    )
}
