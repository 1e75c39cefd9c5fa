//! The legal move a SAN names in standard chess, found from attack tables and one king-safety
//! test per candidate instead of a generated move list, and the canonical SAN of a legal move.
//! They answer exactly as shakmaty's `San::to_move` and `San::from_move` (property tests compare
//! them) at a fraction of the cost: the replay does this for every move of every game.

use shakmaty::san::{San, SanError};
use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Rank, Role, Square, attacks};

/// The legal move `san` names in `pos`; `in_check` says whether the side to move is in check
/// (the replay knows it from the move before, and it saves most king-safety tests).
pub fn to_move(san: San, pos: &Chess, in_check: bool) -> Result<Move, SanError> {
    search(san, pos, in_check).map(|(m, _)| m)
}

/// [`to_move`], and the canonical SAN of the move found (what [`canonical_san`] gives) where
/// `san` is not minimal (`None`: `san` is canonical), read from the same search: the other
/// squares from which a piece of the kind could legally go to the same square decide its
/// disambiguation (§8.2.3.4).
#[inline]
pub fn to_move_and_canonical(
    san: San,
    pos: &Chess,
    in_check: bool,
) -> Result<(Move, Option<San>), SanError> {
    let (m, others) = search(san, pos, in_check)?;
    if is_minimal(san) {
        return Ok((m, None));
    }
    Ok((m, Some(canonical_of(pos, m, others, in_check))))
}

/// The canonical SAN of the legal move `m`, given the squares other than its origin from
/// which a piece of its kind could legally go to the same square (`None`: not known).
#[inline(never)]
fn canonical_of(pos: &Chess, m: Move, others: Option<Bitboard>, in_check: bool) -> San {
    match (m, others) {
        (Move::Normal { role, from, capture, to, promotion }, Some(others))
            if role != Role::Pawn =>
        {
            let (file, rank) = if others.is_empty() {
                (None, None)
            } else if (others & Bitboard::from_file(from.file())).is_empty() {
                (Some(from.file()), None)
            } else if (others & Bitboard::from_rank(from.rank())).is_empty() {
                (None, Some(from.rank()))
            } else {
                (Some(from.file()), Some(from.rank()))
            };
            San::Normal { role, file, rank, capture: capture.is_some(), to, promotion }
        }
        (m, Some(_)) => San::disambiguate(m, &MoveList::new()),
        (m, None) => canonical_san(pos, m, in_check),
    }
}

/// Whether SAN that matched exactly one legal move is already minimal, so canonical: a piece
/// move without disambiguation, a pawn push, a pawn capture with its file only, castling or a
/// drop.
pub fn is_minimal(san: San) -> bool {
    match san {
        San::Normal { role: Role::Pawn, file, rank: None, capture, .. } => {
            capture == file.is_some()
        }
        San::Normal { file: None, rank: None, .. } => true,
        San::Normal { .. } => false,
        San::Castle(_) | San::Put { .. } | San::Null => true,
    }
}

/// The search behind [`to_move`]: the move `san` names, and the squares other than its origin
/// from which a piece of its kind could legally make the same move but which the written
/// disambiguation rules out (`None` where the move is left to shakmaty: castling, drops, a
/// position without a king).
fn search(san: San, pos: &Chess, in_check: bool) -> Result<(Move, Option<Bitboard>), SanError> {
    let San::Normal { role, file, rank, capture, to, promotion } = san else {
        return san.to_move(pos).map(|m| (m, None));
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return san.to_move(pos).map(|m| (m, None));
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
    // Each role's own attack table, so that the lookup is inlined here.
    let origins = match role {
        Role::Pawn if capture => attacks::pawn_attacks(!us, to) & pos.our(Role::Pawn),
        Role::Pawn => pawn_push_origins(pos, us, to, occupied),
        Role::Knight => attacks::knight_attacks(to) & pos.our(role),
        Role::Bishop => attacks::bishop_attacks(to, occupied) & pos.our(role),
        Role::Rook => attacks::rook_attacks(to, occupied) & pos.our(role),
        Role::Queen => attacks::queen_attacks(to, occupied) & pos.our(role),
        Role::King => attacks::king_attacks(to) & pos.our(role),
    };
    let their_sliders = pos.them() & (board.rooks_and_queens() | board.bishops_and_queens());
    let mut found = None;
    let mut others = Bitboard::EMPTY;
    for from in origins {
        let written =
            file.is_none_or(|f| f == from.file()) && rank.is_none_or(|r| r == from.rank());
        // Out of check, a piece other than the king can only uncover its king along the line
        // from the king through the square it leaves: with no enemy slider on that line, the
        // move is safe without testing. Else test the king's square after the move.
        let surely_safe = !in_check
            && role != Role::King
            && !en_passant
            && (attacks::ray(king, from) & their_sliders).is_empty();
        if !surely_safe && exposes_king(pos, king, role, from, to, en_passant) {
            continue;
        }
        if !written {
            others.add(from);
        } else if found.is_some() {
            return Err(SanError::AmbiguousSan);
        } else {
            found = Some(from);
        }
    }
    let from = found.ok_or(SanError::IllegalSan)?;
    let m = if en_passant {
        Move::EnPassant { from, to }
    } else {
        let captured = if capture { board.role_at(to) } else { None };
        Move::Normal { role, from, capture: captured, to, promotion }
    };
    Ok((m, Some(others)))
}

/// Whether moving our `role` from `from` to `to` (`en_passant`: capturing so) leaves our king,
/// on `king` before the move, attacked. Out of line, so that what it needs is only set up when
/// it is asked.
#[inline(never)]
fn exposes_king(
    pos: &Chess,
    king: Square,
    role: Role,
    from: Square,
    to: Square,
    en_passant: bool,
) -> bool {
    let captured = if en_passant { Square::from_coords(to.file(), from.rank()) } else { to };
    let king = if role == Role::King { to } else { king };
    let after = (pos.board().occupied() ^ Bitboard::from(from) ^ Bitboard::from(captured))
        | Bitboard::from(to);
    (pos.board().attacks_to(king, !pos.turn(), after) & !Bitboard::from(captured)).any()
}

/// The canonical SAN of the legal move `m` (§8.2.3.4: disambiguated by file, else by rank, else
/// by both, only when another piece of its kind could legally go to the same square): what
/// shakmaty's `San::from_move` gives (a property test compares them), found by resolving the
/// shorter forms instead of generating the legal moves.
pub fn canonical_san(pos: &Chess, m: Move, in_check: bool) -> San {
    match m {
        Move::Normal { role, from, capture, to, promotion } if role != Role::Pawn => {
            let capture = capture.is_some();
            let form = |file, rank| San::Normal { role, file, rank, capture, to, promotion };
            let (file, rank) = (Some(from.file()), Some(from.rank()));
            [form(None, None), form(file, None), form(None, rank)]
                .into_iter()
                .find(|&san| to_move(san, pos, in_check).is_ok())
                .unwrap_or(form(file, rank))
        }
        // Pawn moves, en passant, castling and drops are written the same whatever else can
        // move.
        _ => San::disambiguate(m, &MoveList::new()),
    }
}

/// Whether the king of the side to move can step to a square no enemy piece attacks: a legal
/// move. Most positions have one, which settles checkmate and stalemate without generating the
/// legal moves.
pub fn king_can_step(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else { return false };
    // Without the king, so that a slider's ray goes on through its square.
    let occupied = board.occupied() ^ Bitboard::from(king);
    let steps = attacks::king_attacks(king) & !pos.us();
    steps.into_iter().any(|to| board.attacks_to(to, !us, occupied).is_empty())
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
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, File, Rank};

    use crate::chess::replay::Rules;

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
                let check = pos.is_check();
                prop_assert_eq!(to_move(san, &pos, check), san.to_move(&pos), "{}", san);
                let canonical = if is_minimal(san) { None } else { Some(san) };
                prop_assert_eq!(to_move_and_canonical(san, &pos, check), Ok((m, canonical)), "{}", san);
                if let San::Normal { role, capture, to, promotion, .. } = san {
                    // Without its disambiguation the same move may become ambiguous.
                    let bare = San::Normal { role, file: None, rank: None, capture, to, promotion };
                    prop_assert_eq!(to_move(bare, &pos, check), bare.to_move(&pos), "{}", bare);
                    // Written with its whole origin square, it reads as the same move, whose
                    // canonical SAN is the same.
                    if let Some(from) = m.from() {
                        let (file, rank) = (Some(from.file()), Some(from.rank()));
                        let full = San::Normal { role, file, rank, capture, to, promotion };
                        prop_assert_eq!(
                            to_move_and_canonical(full, &pos, check), Ok((m, Some(san))), "{}", full
                        );
                    }
                }
            }
            for san in sans {
                prop_assert_eq!(to_move(san, &pos, pos.is_check()), san.to_move(&pos), "{}", san);
            }
        }

        #[test]
        fn canonical_san_agrees_with_shakmaty(
            choices in prop::collection::vec(any::<u16>(), 0..250)
        ) {
            let mut pos = Chess::default();
            for &c in &choices {
                prop_assert_eq!(agreeing_moves(&pos), Ok(()));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[c as usize % moves.len()]);
            }
        }

        #[test]
        fn a_king_step_is_a_legal_move(choices in prop::collection::vec(any::<u16>(), 0..200)) {
            // Every position of a random game that is in check.
            let mut pos = Chess::default();
            for &c in &choices {
                // A king step is a legal move.
                prop_assert!(!king_can_step(&pos) || !pos.legal_moves().is_empty());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[c as usize % moves.len()]);
            }
        }
    }

    /// Whether [`canonical_san`] says of every legal move of `pos` what shakmaty says;
    /// the first move it disagrees on otherwise.
    fn agreeing_moves(pos: &Chess) -> Result<(), String> {
        let check = pos.is_check();
        for m in pos.legal_moves() {
            let san = San::from_move(pos, m);
            if canonical_san(pos, m, check) != san {
                return Err(format!("{san} in {}", Fen::from_position(pos, EnPassantMode::Legal)));
            }
        }
        Ok(())
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap()
    }

    #[test]
    fn canonical_san_in_rare_positions() {
        let fens = [
            // Three knights reach d3 (Nb4d3, Nfd3, N2d3), three queens d5, three rooks a4 and d8.
            "4k3/8/8/8/1N3N2/8/1N6/4K3 w - - 0 1",
            "8/8/8/1Q3Q2/8/1Q6/8/4K2k w - - 0 1",
            "R6R/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            // Promotions, capturing or not; en passant; castling.
            "1r2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
            "8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1",
            "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ];
        for fen in fens {
            assert_eq!(agreeing_moves(&position(fen)), Ok(()), "{fen}");
        }
    }

    #[test]
    fn checkmates_with_and_without_king_steps() {
        // (position in check, checkmate, the king can step)
        let cases = [
            // Fool's mate: the king has no square.
            ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true, false),
            // A back-rank mate, and the same check with an escape square.
            ("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", true, false),
            ("3R2k1/5pp1/8/8/8/8/8/6K1 b - - 0 1", false, true),
            // Smothered mate.
            ("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", true, false),
            // No square for the king, but a capture answers the check.
            ("3R2k1/5ppp/8/8/8/8/3r4/6K1 b - - 0 1", false, false),
        ];
        for (fen, mate, step) in cases {
            let pos = position(fen);
            assert!(pos.is_check(), "{fen}");
            assert_eq!(pos.is_checkmate(), mate, "{fen}");
            assert_eq!(king_can_step(&pos), step, "{fen}");
            assert_eq!(Rules::is_checkmate_in_check(&pos), mate, "{fen}");
        }
    }
}
