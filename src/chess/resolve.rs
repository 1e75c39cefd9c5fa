//! The legal move a SAN names in standard chess, found from attack tables and one king-safety
//! test per candidate instead of a generated move list. It answers exactly as shakmaty's
//! `San::to_move` (a property test compares them) at a fraction of the cost: the replay does
//! this for every move of every game.

use shakmaty::san::{San, SanError};
use shakmaty::{Bitboard, Chess, Color, Move, Piece, Position, Rank, Role, Square, attacks};

/// The legal move `san` names in `pos`.
pub fn to_move(san: San, pos: &Chess) -> Result<Move, SanError> {
    let San::Normal { role, file, rank, capture, to, promotion } = san else {
        return san.to_move(pos);
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return san.to_move(pos);
    };
    if pos.us().contains(to) {
        return Err(SanError::IllegalSan);
    }
    let en_passant = role == Role::Pawn && capture && pos.maybe_ep_square() == Some(to);
    if capture != (pos.them().contains(to) || en_passant) {
        return Err(SanError::IllegalSan);
    }
    let last_rank = to.rank() == if us == Color::White { Rank::Eighth } else { Rank::First };
    let promotion_ok = match (role, promotion) {
        (Role::Pawn, Some(p)) => last_rank && !matches!(p, Role::Pawn | Role::King),
        (Role::Pawn, None) => !last_rank,
        (_, p) => p.is_none(),
    };
    if !promotion_ok {
        return Err(SanError::IllegalSan);
    }
    let occupied = board.occupied();
    let origins = match role {
        Role::Pawn if capture => attacks::pawn_attacks(!us, to) & pos.our(Role::Pawn),
        Role::Pawn => pawn_push_origins(pos, us, to, occupied),
        _ => attacks::attacks(to, Piece { color: us, role }, occupied) & pos.our(role),
    };
    let mut found = None;
    for from in origins {
        if file.is_some_and(|f| f != from.file()) || rank.is_some_and(|r| r != from.rank()) {
            continue;
        }
        let captured = if en_passant { Square::from_coords(to.file(), from.rank()) } else { to };
        let king_square = if role == Role::King { to } else { king };
        let after =
            (occupied ^ Bitboard::from(from) ^ Bitboard::from(captured)) | Bitboard::from(to);
        let attackers = board.attacks_to(king_square, !us, after) & !Bitboard::from(captured);
        if attackers.any() {
            continue;
        }
        if found.is_some() {
            return Err(SanError::AmbiguousSan);
        }
        found = Some(if en_passant {
            Move::EnPassant { from, to }
        } else {
            Move::Normal { role, from, capture: board.role_at(to), to, promotion }
        });
    }
    found.ok_or(SanError::IllegalSan)
}

/// Squares a pawn of `us` can push from to reach the empty square `to` (one or two steps).
fn pawn_push_origins(pos: &Chess, us: Color, to: Square, occupied: Bitboard) -> Bitboard {
    let back = if us == Color::White { -8 } else { 8 };
    let pawns = pos.our(Role::Pawn);
    let Some(one) = to.offset(back) else { return Bitboard::EMPTY };
    if pawns.contains(one) {
        return Bitboard::from(one);
    }
    let double_rank = if us == Color::White { Rank::Fourth } else { Rank::Fifth };
    match one.offset(back) {
        Some(two) if to.rank() == double_rank && !occupied.contains(one) && pawns.contains(two) => {
            Bitboard::from(two)
        }
        _ => Bitboard::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shakmaty::{File, Rank};

    /// A position reached by `plies` random legal moves chosen by `choices`.
    fn random_position(choices: &[u16]) -> Chess {
        let mut pos = Chess::default();
        for &c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[c as usize % moves.len()]);
        }
        pos
    }

    fn any_san() -> impl Strategy<Value = San> {
        let role = prop::sample::select(vec![
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]);
        let promotion =
            prop::option::of(prop::sample::select(vec![Role::Queen, Role::Knight, Role::King]));
        (
            role,
            prop::option::of(0u32..8),
            prop::option::of(0u32..8),
            any::<bool>(),
            0u32..64,
            promotion,
        )
            .prop_map(|(role, file, rank, capture, to, promotion)| San::Normal {
                role,
                file: file.map(File::new),
                rank: rank.map(Rank::new),
                capture,
                to: Square::new(to),
                promotion,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn agrees_with_shakmaty(choices in prop::collection::vec(any::<u16>(), 0..120),
                                sans in prop::collection::vec(any_san(), 30)) {
            let pos = random_position(&choices);
            for m in pos.legal_moves() {
                let san = San::from_move(&pos, m);
                prop_assert_eq!(to_move(san, &pos), san.to_move(&pos), "{}", san);
                // Without its disambiguation the same move may become ambiguous.
                if let San::Normal { role, capture, to, promotion, .. } = san {
                    let bare = San::Normal { role, file: None, rank: None, capture, to, promotion };
                    prop_assert_eq!(to_move(bare, &pos), bare.to_move(&pos), "{}", bare);
                }
            }
            for san in sans {
                prop_assert_eq!(to_move(san, &pos), san.to_move(&pos), "{}", san);
            }
        }
    }
}
