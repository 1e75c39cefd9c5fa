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
use super::notation::{self, Languages, Leniency, Written};
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

/// A move `written` in English piece letters (`text`), in a line whose moves showed its
/// languages (`line`, not every language): its reading with the letters of those that give one
/// of its English letters another piece, where that reading is taken, else `None`. Where all of
/// them read it alike, as French reads `Rf1` as the king's move, the reading is taken when it is
/// a legal move, whatever the English reading; where only some do, only when it is the one
/// legal reading and the English reading is none. The reading's languages narrow `line` and
/// `game`, as for [`other_language_reading`]. The replay asks only in lines whose languages
/// are known: a game in English letters is read in English.
#[cold]
pub(super) fn learned_reading<P: Rules>(
    text: &str,
    written: &Written,
    (pos, in_check): (&P, bool),
    (line, game): (&mut Languages, &mut Languages),
) -> Option<Written> {
    let (relettered, languages, _) = relettered_reading(text, written, (pos, in_check), *line)?;
    *line = languages;
    *game = narrowed(*game, languages);
    Some(relettered)
}

/// The reading [`learned_reading`] takes of a move `written` in English piece letters (`text`),
/// in a line in `languages`, its languages and its move.
fn relettered_reading<P: Rules>(
    text: &str,
    written: &Written,
    (pos, in_check): (&P, bool),
    languages: Languages,
) -> Option<(Written, Languages, Move)> {
    let readings = relettered_readings(text, languages);
    let unanimous = matches!(readings[..], [(_, l)] if l == languages);
    if readings.is_empty() || !unanimous && english_move(text, written, pos, in_check).is_some() {
        return None;
    }
    let mut legal = readings
        .into_iter()
        .filter_map(|(w, l)| pos.resolve_san(w.san, in_check).ok().map(|m| (w, l, m)));
    let reading = legal.next()?;
    legal.next().is_none().then_some(reading)
}

/// The English piece letters, in the order of the sets of [`notation::OTHER_LANGUAGES`].
const ENGLISH_LETTERS: &[u8; 6] = b"PNBRQK";

/// A move in English piece letters (`text`) read with those of each of `languages` where they
/// give an English letter of it the meaning of another piece: `R`, the king in French, Italian,
/// Spanish, Portuguese and Romanian, a knight in Estonian, Finnish and Icelandic; `P`, the Dutch
/// knight; `N`, the Romanian bishop; `B`, the Hungarian rook. The distinct readings, marked
/// [`Leniency::OtherLanguage`], each with its languages. A language's pawn letter is left
/// English (`B`, the German pawn, stays a bishop): pawn moves are written without a letter.
fn relettered_readings(text: &str, languages: Languages) -> Vec<(Written, Languages)> {
    let mut readings: Vec<(Written, Languages)> = Vec::new();
    for (i, letters) in notation::OTHER_LANGUAGES.iter().enumerate() {
        if languages & 1 << i == 0 {
            continue;
        }
        let reletter = |c: char| {
            let b = u8::try_from(c).ok().filter(|b| ENGLISH_LETTERS.contains(b))?;
            let at = letters.iter().position(|&l| l == b).filter(|&at| at > 0)?;
            Some(char::from(ENGLISH_LETTERS[at]))
        };
        let relettered: String = text.chars().map(|c| reletter(c).unwrap_or(c)).collect();
        if relettered == text {
            continue;
        }
        let Some((written, _)) = notation::read_spelled(&relettered) else { continue };
        let written = Written { leniency: Some(Leniency::OtherLanguage), ..written };
        match readings.iter_mut().find(|(w, _)| *w == written) {
            Some((_, languages)) => *languages |= 1 << i,
            None => readings.push((written, 1 << i)),
        }
    }
    readings
}

/// The legal move a move `written` in English piece letters (`text`) names, as the replay reads
/// it: as written, else as [`resolve_leniently`] finds it.
fn english_move<P: Rules>(text: &str, written: &Written, pos: &P, in_check: bool) -> Option<Move> {
    match pos.resolve_san(written.san, in_check) {
        Ok(m) => Some(m),
        Err(error) => resolve_leniently(text, written, pos, in_check, error).ok().map(|(m, _)| m),
    }
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
/// read with that language's piece letters where English ones do not read them, and where it
/// gives an English letter another piece ([`relettered_reading`]).
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
                Some((w, _)) => {
                    let relettered = relettered_reading(text, &w, (pos, in_check), self.language);
                    relettered
                        .map(|(_, _, m)| m)
                        .or_else(|| english_move(text, &w, pos, in_check))?
                }
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

#[cfg(test)]
mod tests {
    use super::super::notation::language_names::*;
    use super::*;

    #[test]
    fn english_letters_are_read_as_other_pieces_in_the_languages_that_make_them_so() {
        let readings = |text, languages| in_san(text, relettered_readings(text, languages));
        // R: the king in French, Italian, Spanish, Portuguese and Romanian, a knight in
        // Estonian, Finnish and Icelandic; no letter in Czech, German and Dutch.
        let king = FRENCH | SPANISH | PORTUGUESE | ROMANIAN;
        let knight = ESTONIAN | FINNISH | ICELANDIC;
        assert_eq!(
            readings("Rxf1+", notation::ALL_LANGUAGES),
            [("Nxf1+".into(), knight), ("Kxf1+".into(), king)]
        );
        assert_eq!(readings("Rf1", FRENCH | GERMAN), [("Kf1".into(), FRENCH)]);
        assert_eq!(readings("Rf1", CZECH | GERMAN | DUTCH), []);
        // P: the Dutch knight; N: the Romanian bishop; B: the Hungarian rook.
        assert_eq!(readings("Pd2", notation::ALL_LANGUAGES), [("Nd2".into(), DUTCH)]);
        assert_eq!(readings("Nc4", notation::ALL_LANGUAGES), [("Bc4".into(), ROMANIAN)]);
        assert_eq!(readings("Bd1", notation::ALL_LANGUAGES), [("Rd1".into(), HUNGARIAN)]);
        // A pawn letter stays English (B no German pawn), and so do K, Q and castling.
        for text in ["Bb5", "Kf1", "Qd1", "O-O", "e4"] {
            assert_eq!(readings(text, GERMAN | CZECH), [], "{text}");
        }
    }
}
