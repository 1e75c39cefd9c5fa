//! The position a game starts from: the standard one, or a `FEN` tag's (§9.7.2, with `SetUp`
//! §9.7.1), under the rules a `Variant` tag names (Chess960 castling detected from the FEN).

use shakmaty::CastlingMode;
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::variant::{Variant, VariantPosition};

use super::Position;
use super::tags::KnownTags;
use crate::syntax::{Code, Diagnostic, Game, excerpt};
use crate::text::{TextEdit, TextRange};

/// Rules named by a `Variant` tag value; `None` for variants whose rules are not known.
fn variant_rules(name: &str) -> Option<(Variant, bool)> {
    let key: String =
        name.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    Some(match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" | "classical" => {
            (Variant::Chess, false)
        }
        "chess960" | "fischerandom" | "fischerrandom" | "960" | "freestyle" | "doublechess960" => {
            (Variant::Chess, true)
        }
        "atomic" => (Variant::Atomic, false),
        // Giveaway (ICC) is antichess. Suicide (FICS) has antichess's moves but gives a
        // stalemate to the side with fewer pieces (a draw when they have as many), where
        // antichess gives it to the side without a move: judged as antichess, a game ending so
        // would get a wrong result fixed in. Losers (ICC) keeps check and checkmate. The rules
        // of neither are known here.
        "antichess" | "anti" | "giveaway" => (Variant::Antichess, false),
        "kingofthehill" | "koth" => (Variant::KingOfTheHill, false),
        "threecheck" | "3check" => (Variant::ThreeCheck, false),
        "crazyhouse" | "zh" => (Variant::Crazyhouse, false),
        "racingkings" => (Variant::RacingKings, false),
        "horde" => (Variant::Horde, false),
        _ => return None,
    })
}

/// The initial array of the game's variant (the Variant tag's, or standard chess): where the
/// game starts without a FEN tag. `None` for a variant whose rules are not known.
pub fn initial_position(game: &Game, src: &str) -> Option<Position> {
    let variant = match KnownTags::of(game, src).variant {
        None => Variant::Chess,
        Some(tag) => variant_rules(&tag.value(src))?.0,
    };
    Some(VariantPosition::new(variant))
}

/// Work out the start position from the tags, adding diagnostics for FEN, SetUp and Variant.
/// `None` when the game cannot be replayed (unreadable or impossible FEN, a variant whose rules
/// are not known); a diagnostic says why.
pub fn start_position(
    known: &KnownTags<'_>,
    src: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<Position> {
    let (variant, chess960) = match known.variant {
        None => (Variant::Chess, false),
        Some(tag) => match variant_rules(&tag.value(src)) {
            Some(rules) => rules,
            None => {
                let name = tag.value(src);
                out.push(Diagnostic::new(
                    Code::UnsupportedVariant,
                    tag.range,
                    format!(
                        "the rules of {} are not checked; its moves are not judged",
                        excerpt(&name)
                    ),
                ));
                return None;
            }
        },
    };
    let fen_tag = known.fen;
    check_setup_tag(fen_tag.map(|t| t.range), known.setup, src, out);

    let Some(fen_tag) = fen_tag else {
        return Some(VariantPosition::new(variant));
    };
    let fen_text = fen_tag.value(src);
    let value_range = fen_tag.value_inner(src).unwrap_or(fen_tag.range);
    let fen = match Fen::from_ascii(fen_text.trim().as_bytes()) {
        Ok(fen) => fen,
        Err(e) => {
            let message = format!("the FEN cannot be read: {}", unreadable_field(e, &fen_text));
            out.push(Diagnostic::new(Code::InvalidFen, value_range, message));
            return None;
        }
    };
    // A move number past `u32::MAX` is read as `u32::MAX`: the moves would be counted wrong.
    if let Some(number) = fen_text.split_ascii_whitespace().nth(5)
        && number.bytes().all(|b| b.is_ascii_digit())
        && number.parse::<u32>().is_err()
    {
        out.push(Diagnostic::new(
            Code::InvalidFen,
            value_range,
            format!("the FEN's move number {} is past the largest, {}", excerpt(number), u32::MAX),
        ));
        return None;
    }
    let setup = fen.into_setup();
    if let Some(field) = foreign_field(&setup, variant) {
        let message = format!(
            "the FEN holds {field}, but the game is one of {} (§16.1.3): its Variant tag is \
             missing or wrong",
            super::explain::variant_name(variant)
        );
        out.push(Diagnostic::new(Code::InvalidFen, value_range, message));
    }
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::detect(&setup) };
    match VariantPosition::from_setup(variant, setup, mode) {
        Ok(pos) => Some(pos),
        Err(e) => {
            out.push(Diagnostic::new(
                Code::InvalidFen,
                value_range,
                format!("the FEN describes an impossible position: {e}"),
            ));
            None
        }
    }
}

/// What of a variant's own in a FEN (crazyhouse's pieces in hand and promoted pieces,
/// three-check's checks left) a game of `variant` has not; its start position is read without.
fn foreign_field(setup: &shakmaty::Setup, variant: Variant) -> Option<&'static str> {
    if variant != Variant::Crazyhouse && setup.pockets.is_some() {
        return Some("a pocket of pieces in hand, as in crazyhouse");
    }
    if variant != Variant::Crazyhouse && !setup.promoted.is_empty() {
        return Some("pieces marked as promoted (~), as in crazyhouse");
    }
    if variant != Variant::ThreeCheck && setup.remaining_checks.is_some() {
        return Some("the checks left to give, as in three-check");
    }
    None
}

/// `SetUp "1"` must go with a FEN tag and a FEN tag with `SetUp "1"` (§9.7.1).
fn check_setup_tag(
    fen: Option<TextRange>,
    setup: Option<&crate::syntax::Tag>,
    src: &str,
    out: &mut Vec<Diagnostic>,
) {
    let setup_value = setup.map(|t| t.value(src));
    match (fen, setup_value.as_deref()) {
        (Some(fen), None | Some("0")) => {
            let mut d = Diagnostic::new(
                Code::SetupMismatch,
                fen,
                "a FEN tag needs SetUp \"1\" beside it (§9.7.1)",
            );
            d = match setup {
                Some(t) => {
                    d.with_fix("Set SetUp to 1", vec![TextEdit::new(t.range, "[SetUp \"1\"]")])
                }
                None => d.with_fix(
                    "Add [SetUp \"1\"]",
                    vec![insert_line_before(fen, src, "[SetUp \"1\"]")],
                ),
            };
            out.push(d);
        }
        (None, Some("1")) => out.push(Diagnostic::new(
            Code::SetupMismatch,
            setup.map_or(TextRange::default(), |t| t.range),
            "SetUp \"1\" without a FEN tag: the game needs its start position",
        )),
        _ => {}
    }
}

/// An edit inserting `line` (one line or several) as lines of their own before the line
/// holding `before`; right before it, after a line break, where something else starts that
/// line (the end of a comment begun on the line above, say; only ASCII blanks count as nothing,
/// as for the lexer: not U+0085, which Unicode counts as a space).
pub fn insert_line_before(before: TextRange, src: &str, line: &str) -> TextEdit {
    let line_start = src[..before.start as usize].rfind('\n').map_or(0, |i| i + 1);
    // A byte order mark opening the line is no text (`syntax::at_line_start`): the lines go
    // after it, and it stays first.
    let bom = if src[line_start..].starts_with('\u{FEFF}') { '\u{FEFF}'.len_utf8() } else { 0 };
    let line_start = (line_start + bom).min(before.start as usize);
    if src[line_start..before.start as usize].trim_ascii().is_empty() {
        TextEdit::new(TextRange::empty(line_start as u32), format!("{line}\n"))
    } else {
        TextEdit::new(TextRange::empty(before.start), format!("\n{line}\n"))
    }
}

/// Which field of `fen` (§16.1) the reader stopped at, in words. The board's ranks go on into
/// crazyhouse's pocket after an eighth `/`: a ninth rank is named as such, not as a pocket.
fn unreadable_field(e: ParseFenError, fen: &str) -> &'static str {
    let board = fen.split_ascii_whitespace().next().unwrap_or_default();
    match e {
        ParseFenError::InvalidPocket if board.split('/').count() > 8 => {
            "the board has more than 8 ranks"
        }
        ParseFenError::InvalidPocket => "the pocket (crazyhouse's pieces in hand) is not read",
        ParseFenError::InvalidBoard => {
            "the board is not 8 ranks of 8 squares (pieces PNBRQK, pnbrqk, digits for empty squares)"
        }
        ParseFenError::InvalidTurn => "the side to move is not w or b",
        ParseFenError::InvalidCastling => {
            "the castling rights are not -, or letters KQkq (or files)"
        }
        ParseFenError::InvalidEpSquare => "the en passant square is not - or a square",
        ParseFenError::InvalidRemainingChecks => "the checks left (three-check) are not read",
        ParseFenError::InvalidHalfmoveClock => "the halfmove clock is not a number",
        ParseFenError::InvalidFullmoves => "the fullmove number is not a number from 1",
        _ => {
            "a FEN is six fields: the board, the side to move, the castling rights, the en \
             passant square, the halfmove clock and the fullmove number"
        }
    }
}
