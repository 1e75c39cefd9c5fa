//! Which reading is taken of a move written with another language's piece letters (§17), whose
//! letters can mean different pieces in different languages (`Sd2`: a knight in German, a
//! bishop in Czech): its one legal reading; of several, the one in the languages of its line's
//! earlier such moves; of several still, the one whose languages read the moves after it in its
//! line as legal moves longest; of several still, the one in the languages of the game's other
//! lines. The replay asks only for moves no accepted notation reads.
//!
//! A variation is a line of its own, and what its moves teach is the weakest evidence for the
//! moves outside it. A file is written in one language, so a variation's language is most
//! likely the game's, but a variation is where annotators' slips are (`(1. Sf3)` for `(1. Jf3)`
//! in a Czech game reads only as a German knight move): were its language the game's, the main
//! line's `Se2` after it would be the German knight, not the Czech bishop, and a legal move
//! later an error. So a line's own moves, and those of the lines it branches from, narrow its
//! languages; a variation starts with its parent's, and the parent goes on with its own after
//! it; the moves after a move in its line come next; and only a move that all these leave
//! with several readings, which would otherwise be an error, is read in the languages of the
//! game's other lines (`(3. Se2)` after a variation in German is the knight).

use shakmaty::Move;
use shakmaty::san::{SanError, SanPlus};

use super::explain;
use super::notation::{self, Languages, Written};
use super::replay::{Rules, resolve_leniently};
use crate::syntax::{Code, Node, NodeKind};

/// How many moves (half-moves) after a move with several legal readings are read, at most, to
/// settle its language.
const LOOKAHEAD_PLIES: usize = 20;

/// A move (`text`) that no accepted notation reads: its one reading with another language's
/// piece letters (§17) that is a legal move in `pos` (`in_check`: the side to move is in
/// check), or else the code and message of its diagnostic: `ambiguous-move` when no reading is
/// legal but one matches more than one legal move (`Sd2` where both knights reach d2), else
/// `invalid-san`. Of several legal readings, the one in a language of its line's earlier such
/// moves is taken (`line`, those of the line and of the lines it branches from): after `Sf3`, a
/// knight move in German, Danish, Norwegian, Swedish or Polish, `Le7` is a bishop move
/// (German...), not a queen move (Estonian). Of several still, the moves after it in its line
/// (`after`, read from `src`) settle it ([`settle`]); of several still, the languages of the
/// game's moves in any line (`game`) do, the evidence of other lines coming last (see the
/// module's notes). Where none does, it is `invalid-san`, which gives the readings. The
/// reading's languages narrow `line` and `game`.
#[cold]
pub(super) fn other_language_reading<'n, P: Rules>(
    text: &str,
    (pos, in_check): (&P, bool),
    (line, game): (&mut Languages, &mut Languages),
    after: impl Iterator<Item = &'n Node>,
    src: &str,
) -> Result<Written, (Code, String)> {
    let readings = notation::other_language_readings(text);
    let resolved: Vec<Result<Move, SanError>> =
        readings.iter().map(|(w, _)| pos.resolve_san(w.san, in_check)).collect();
    let legal: Vec<(&Written, Languages, Move)> = readings
        .iter()
        .zip(&resolved)
        .filter_map(|((w, l), r)| r.as_ref().ok().map(|&m| (w, *l, m)))
        .collect();
    if legal.is_empty()
        && let Some(((w, _), _)) =
            readings.iter().zip(&resolved).find(|(_, r)| matches!(r, Err(SanError::AmbiguousSan)))
    {
        return Err((Code::AmbiguousMove, explain::ambiguous(text, w.san, pos)));
    }
    // The languages a reading may be in: the line's so far, unless no legal reading is in one.
    let in_line = legal.iter().any(|&(_, l, _)| l & *line != 0);
    let allowed = if in_line { *line } else { notation::ALL_LANGUAGES };
    let candidates: Vec<(&Written, Languages, Move)> = legal
        .into_iter()
        .filter_map(|(w, l, m)| (l & allowed != 0).then_some((w, l & allowed, m)))
        .collect();
    let mut left = match candidates[..] {
        [] => 0,
        [(_, l, _)] => l,
        _ => settle(pos, &candidates, after, src),
    };
    let taken_in = |left: Languages| -> Vec<&(&Written, Languages, Move)> {
        candidates.iter().filter(|&&(_, l, _)| l & left != 0).collect()
    };
    if taken_in(left).len() > 1 && taken_in(left & *game).len() == 1 {
        left &= *game;
    }
    let taken = taken_in(left);
    if let [&(written, _, _)] = taken[..] {
        *line = left;
        *game = narrowed(*game, left);
        return Ok(written.clone());
    }
    let san = |w: &Written| super::san_plus_text(SanPlus { san: w.san, suffix: w.suffix });
    let message = explain::unread(
        text,
        &readings.iter().map(|(w, _)| san(w)).collect::<Vec<_>>(),
        &taken.iter().map(|(w, _, _)| san(w)).collect::<Vec<_>>(),
    );
    Err((Code::InvalidSan, message))
}

/// The languages `known` narrowed to `read`, those a move was just read in: `read` itself where
/// they have none in common (the later move says more of what follows it).
fn narrowed(known: Languages, read: Languages) -> Languages {
    match known & read {
        0 => read,
        both => both,
    }
}

/// The replay of a line in one language: the moves after a move with several legal readings,
/// read with that language's piece letters where English ones do not read them.
struct Hypothesis<P> {
    /// The language (one bit of [`Languages`]).
    language: Languages,
    pos: P,
    in_check: bool,
}

/// The languages, of those of `candidates` (a move's legal readings in `pos`, each with its
/// move and its languages), under which the moves `after` it, read in `src`, stay legal moves
/// longest: each language's reading is played, then the moves after it as that language reads
/// them (English letters first, as the replay reads them), at most [`LOOKAHEAD_PLIES`] of them,
/// until the languages left all give the move the same reading. A move that no language left
/// reads as a legal move ends the search, with the languages that read the moves before it.
fn settle<'n, P: Rules>(
    pos: &P,
    candidates: &[(&Written, Languages, Move)],
    after: impl Iterator<Item = &'n Node>,
    src: &str,
) -> Languages {
    let mut alive: Vec<Hypothesis<P>> = Vec::new();
    for &(_, languages, m) in candidates {
        let mut pos = pos.clone();
        pos.play_unchecked(m);
        let in_check = pos.is_check();
        let bits = (0..Languages::BITS).map(|bit| 1 << bit).filter(|bit| languages & bit != 0);
        alive.extend(bits.map(|language| Hypothesis { language, pos: pos.clone(), in_check }));
    }
    let languages_of = |alive: &[Hypothesis<P>]| alive.iter().fold(0, |l, h| l | h.language);
    for node in after.take(LOOKAHEAD_PLIES) {
        let left = languages_of(&alive);
        if candidates.iter().filter(|&&(_, l, _)| l & left != 0).count() < 2 {
            break;
        }
        let text = &src[node.range];
        let next: Vec<Hypothesis<P>> =
            alive.iter().filter_map(|h| h.play(node.kind, text)).collect();
        if next.is_empty() {
            break;
        }
        alive = next;
    }
    languages_of(&alive)
}

impl<P: Rules> Hypothesis<P> {
    /// The line after the move (or null move, `kind`) written `text`, read as the replay reads
    /// it in the hypothesis's language; `None` when that is no legal move.
    fn play(&self, kind: NodeKind, text: &str) -> Option<Self> {
        let (pos, in_check) = (&self.pos, self.in_check);
        let pos = if kind == NodeKind::NullMove {
            pos.clone().pass()?
        } else {
            let m = match notation::read_spelled(text) {
                Some((w, _)) => match pos.resolve_san(w.san, in_check) {
                    Ok(m) => m,
                    Err(error) => resolve_leniently(text, &w, pos, in_check, error).ok()?.0,
                },
                None => {
                    let readings = notation::other_language_readings(text);
                    let (w, _) = readings.iter().find(|(_, l)| l & self.language != 0)?;
                    pos.resolve_san(w.san, in_check).ok()?
                }
            };
            let mut pos = pos.clone();
            pos.play_unchecked(m);
            pos
        };
        let in_check = pos.is_check();
        Some(Hypothesis { language: self.language, pos, in_check })
    }
}
