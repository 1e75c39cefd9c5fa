//! Which reading is taken of a move written with another language's piece letters (§17), whose
//! letters can mean different pieces in different languages (`Sd2`: a knight in German, a
//! bishop in Czech): its one legal reading; of several, the one in the languages of the game's
//! earlier such moves. The replay asks only for moves no accepted notation reads.

use shakmaty::Move;
use shakmaty::san::{SanError, SanPlus};

use super::explain;
use super::notation::{self, Languages, Written};
use super::replay::Rules;
use crate::syntax::Code;

/// A move that no accepted notation reads: its one reading with another language's piece
/// letters (§17) that is a legal move here, or else the code and message of its diagnostic:
/// `ambiguous-move` when no reading is legal but one matches more than one legal move (`Sd2`
/// where both knights reach d2), else `invalid-san`. Of several legal readings, the one in a
/// language of the game's earlier such moves is taken (`languages`, narrowed to the
/// reading's): after `Sf3`, a knight move in German, Danish, Norwegian, Swedish or Polish,
/// `Le7` is a bishop move (German...), not a queen move (Estonian).
#[cold]
pub(super) fn other_language_reading<P: Rules>(
    text: &str,
    pos: &P,
    in_check: bool,
    languages: &mut Languages,
) -> Result<Written, (Code, String)> {
    let readings = notation::other_language_readings(text);
    let resolved: Vec<Result<Move, SanError>> =
        readings.iter().map(|(w, _)| pos.resolve_san(w.san, in_check)).collect();
    let legal: Vec<&(Written, Languages)> =
        readings.iter().zip(&resolved).filter(|(_, r)| r.is_ok()).map(|(r, _)| r).collect();
    if legal.is_empty()
        && let Some(((w, _), _)) =
            readings.iter().zip(&resolved).find(|(_, r)| matches!(r, Err(SanError::AmbiguousSan)))
    {
        return Err((Code::AmbiguousMove, explain::ambiguous(text, w.san, pos)));
    }
    let in_game: Vec<&(Written, Languages)> =
        legal.iter().copied().filter(|(_, l)| l & *languages != 0).collect();
    let candidates = if in_game.is_empty() { &legal } else { &in_game };
    if let [(written, reading_languages)] = candidates[..] {
        let narrowed = reading_languages & *languages;
        *languages = if narrowed != 0 { narrowed } else { *reading_languages };
        return Ok(written.clone());
    }
    let san =
        |(w, _): &(Written, _)| super::san_plus_text(SanPlus { san: w.san, suffix: w.suffix });
    let message = explain::unread(
        text,
        &readings.iter().map(san).collect::<Vec<_>>(),
        &candidates.iter().copied().map(san).collect::<Vec<_>>(),
    );
    Err((Code::InvalidSan, message))
}
