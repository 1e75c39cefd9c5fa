//! Chess analysis: replays every game and every variation with shakmaty, and reports rule,
//! move-number, result and tag-value diagnostics (DESIGN §4). Positions are recomputed by
//! replay on demand, never stored per move.

use shakmaty::Role;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::variant::{Variant, VariantPosition};
use shakmaty::{Color, Move, Position as _};

use crate::syntax::{Code, Diagnostic, Game, Node, NodeKind, excerpt};
use crate::text::TextRange;

mod explain;
mod language;
mod move_number;
mod notation;
mod replay;
mod resolve;
mod result;
mod start;
mod tags;

pub use explain::{color_name, role_name, variant_name};
pub use move_number::{PendingNumber, WrittenNumber};
pub use start::initial_position;
pub use tags::{SEVEN_TAG_ROSTER, missing_tag_value};

/// The position type used everywhere: standard chess or a variant shakmaty knows.
pub type Position = VariantPosition;

/// How the main line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate {
        winner: Color,
    },
    Stalemate,
    /// A win by the rules of the game's variant (antichess's last piece given away, atomic's
    /// exploded king, ...), checkmate aside.
    VariantWin {
        winner: Color,
        variant: Variant,
    },
    /// A draw by the rules of the game's variant (both kings home in Racing Kings).
    VariantDraw {
        variant: Variant,
    },
    /// The game goes on (or ended by agreement, resignation, time...).
    Open,
    /// The main line could not be replayed to its end (an error, an unsupported variant).
    Unknown,
}

impl Outcome {
    /// How a game standing at `pos` has ended: by checkmate, stalemate or its variant's own
    /// rules; `Open` when it goes on.
    pub fn at(pos: &Position) -> Outcome {
        replay::ending(pos, pos.is_check())
    }

    /// The termination marker an ended game calls for, and its end in words ("checkmate: White
    /// wins"); `None` when the game goes on or its end is unknown.
    pub fn result(self) -> Option<(&'static str, String)> {
        let win = |winner| if winner == Color::White { "1-0" } else { "0-1" };
        Some(match self {
            Outcome::Checkmate { winner } => {
                (win(winner), format!("checkmate: {} wins", color_name(winner)))
            }
            Outcome::Stalemate => ("1/2-1/2", "stalemate: a draw".to_owned()),
            Outcome::VariantWin { winner, variant } => (
                win(winner),
                format!(
                    "a win for {} by the rules of {}",
                    color_name(winner),
                    variant_name(variant)
                ),
            ),
            Outcome::VariantDraw { variant } => {
                ("1/2-1/2", format!("a draw by the rules of {}", variant_name(variant)))
            }
            Outcome::Open | Outcome::Unknown => return None,
        })
    }
}

/// The check or mate sign of a move that led to `pos`, and the variant by whose rules it
/// decided the game, if it did: the sign the replay asks of a move.
pub fn sign_of(pos: &Position) -> (Option<Suffix>, Option<Variant>) {
    replay::Rules::sign(pos, pos.is_check())
}

/// What the analysis of one game found. Ranges are relative to the game's start.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub diagnostics: Vec<Diagnostic>,
    /// Half-moves of the main line replayed before the first error, or to its end.
    pub main_line_plies: u32,
    pub outcome: Outcome,
    /// The text is no game ([`is_text_between_games`]).
    between_games: bool,
}

impl Analysis {
    /// All the game's diagnostics: the syntax layer's (`syntax`, the game's own) and then the
    /// analysis's. Text between games has the analysis's one diagnostic alone, which says what
    /// it is: the syntax layer's would make it a game.
    pub fn with_syntax_diagnostics(self, mut syntax: Vec<Diagnostic>) -> Vec<Diagnostic> {
        if self.between_games {
            return self.diagnostics;
        }
        if let Some((decided, _)) = self.outcome.result() {
            for d in syntax.iter_mut().filter(|d| d.code == Code::MissingResult) {
                result::add_decided_marker(d, decided);
            }
        }
        syntax.extend(self.diagnostics);
        syntax
    }
}

/// One move node met during a replay.
pub struct MoveVisit<'a> {
    /// Index of the `Move`/`NullMove` node in `Game::nodes`.
    pub node: usize,
    /// 0 in the main line, 1 in a variation of it, ...
    pub depth: u32,
    /// The move number this move has (from the start position's fullmove counter).
    pub fullmove: u64,
    /// The side making the move.
    pub turn: Color,
    /// The position before the move (see [`MoveVisit::before`]).
    pub(crate) before: Option<&'a dyn ToVariant>,
    /// The move and its canonical SAN (with `+`/`#`) when it is legal.
    pub played: Option<(Move, SanPlus)>,
    /// The move is legal and its text is its canonical SAN with its sign, byte for byte.
    pub written_canonical: bool,
}

/// Whether `text` reads as a move in a notation the replay accepts (SAN or one of the import
/// forms, or with another language's piece letters), legal or not.
pub fn reads_as_move(text: &str) -> bool {
    notation::read_spelled(text).is_some() || !notation::other_language_readings(text).is_empty()
}

/// A move written in SAN as this project exports it: shakmaty's SAN, except that pawn drops
/// keep their `P` (`P@f6`, as lichess writes them; PGN itself has no drops).
pub fn san_text(san: San) -> String {
    let mut text = String::with_capacity(8);
    push_san(&mut text, san);
    text
}

/// [`san_text`] with the check or mate sign.
pub fn san_plus_text(san: SanPlus) -> String {
    let mut text = String::with_capacity(8);
    push_san_plus(&mut text, san);
    text
}

/// Append [`san_text`] to `out`.
pub fn push_san(out: &mut String, san: San) {
    if let San::Put { role: Role::Pawn, .. } = san {
        out.push('P');
    }
    san.append_to_string(out);
}

/// Append [`san_plus_text`] to `out` (the formatter writes every move so, without allocating).
pub fn push_san_plus(out: &mut String, san: SanPlus) {
    push_san(out, san.san);
    if let Some(suffix) = san.suffix {
        out.push(suffix.char());
    }
}

impl MoveVisit<'_> {
    /// The position before the move, built on request; `None` once the line has gone wrong
    /// (the rest of a line after an illegal move is not judged, but still numbered).
    pub fn before(&self) -> Option<Position> {
        self.before.map(ToVariant::to_variant)
    }
}

/// A position the replay runs on (`Chess` for standard games, `VariantPosition` for variants),
/// turned into the public [`Position`] type when a visitor asks for it.
pub(crate) trait ToVariant {
    fn to_variant(&self) -> Position;
}

impl ToVariant for shakmaty::Chess {
    fn to_variant(&self) -> Position {
        VariantPosition::Chess(self.clone())
    }
}

impl ToVariant for VariantPosition {
    fn to_variant(&self) -> Position {
        self.clone()
    }
}

/// Replay from the start position with the fastest position type that knows its rules.
fn run<V: FnMut(&MoveVisit<'_>)>(
    replayer: &mut replay::Replayer<'_, V>,
    start: Option<Position>,
) -> replay::Replayed {
    match start {
        Some(VariantPosition::Chess(chess)) => replayer.run(Some(chess)),
        Some(variant) => replayer.run(Some(variant)),
        None => replayer.run::<shakmaty::Chess>(None),
    }
}

/// Analyse one game (`src` is the game's own text): tag values, start position, every move of
/// every line, the result.
pub fn analyze(game: &Game, src: &str) -> Analysis {
    let mut diagnostics = Vec::new();
    if game.tags.is_empty() && game.nodes.is_empty() {
        return Analysis {
            diagnostics,
            main_line_plies: 0,
            outcome: Outcome::Unknown,
            between_games: false,
        };
    }
    if is_text_between_games(game, src) {
        diagnostics.push(text_between_games(src));
        return Analysis {
            diagnostics,
            main_line_plies: 0,
            outcome: Outcome::Unknown,
            between_games: true,
        };
    }
    let known = tags::KnownTags::of(game, src);
    tags::check(game, src, &known, &mut diagnostics);
    let start = start::start_position(&known, src, &mut diagnostics);
    let mut replayer = replay::Replayer::new(game, src, |_: &MoveVisit<'_>| {}, false);
    let replayed = run(&mut replayer, start);
    diagnostics.append(&mut replayer.diagnostics);
    result::check(&known, src, &replayed, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    Analysis {
        diagnostics,
        main_line_plies: replayed.main_line_plies,
        outcome: replayed.outcome,
        between_games: false,
    }
}

/// Whether `game` is text between games rather than a game: no tag pairs, and a movetext that
/// reads as text ([`movetext_reads_as_text`]). The section titles of old TWIC issues (a title,
/// then a line of dashes) and notes at the end of a file parse so. Its only diagnostic is
/// `text-between-games`, in place of the syntax layer's and the analysis's (a missing tag
/// section and result, a move that is no move), whose fixes would make it a game. Text with a
/// marker or a move in it is a game, whose errors are reported: a game must not be hidden by a
/// title written before it.
pub fn is_text_between_games(game: &Game, src: &str) -> bool {
    game.tags.is_empty() && movetext_reads_as_text(game, src)
}

/// Whether the movetext of `game` reads as text rather than moves: no termination marker, no
/// structural error but stray punctuation, and words or null moves (`--`) where moves would be,
/// none of which reads as a move.
pub fn movetext_reads_as_text(game: &Game, src: &str) -> bool {
    reads_as_text(game, src, game.nodes.iter())
}

/// [`movetext_reads_as_text`] for the main line alone, as reduced export format leaves it
/// (§3.2.4: no comments, no variations).
pub fn main_line_reads_as_text(game: &Game, src: &str) -> bool {
    let main_line = game.nodes_with_depth().filter(|&(_, _, depth)| depth == 0);
    reads_as_text(game, src, main_line.map(|(_, node, _)| node))
}

/// Whether `game`, whose move nodes that count are among `nodes`, reads as text.
fn reads_as_text<'g>(game: &'g Game, src: &str, nodes: impl Iterator<Item = &'g Node>) -> bool {
    // Punctuation in a title or a note is stray text to the parser; an unclosed comment, string
    // or variation may hold games.
    let only_stray_text = || {
        game.diagnostics.iter().all(|d| d.code == Code::UnexpectedToken || !d.code.is_structural())
    };
    let mut moves = nodes.filter(|n| matches!(n.kind, NodeKind::Move | NodeKind::NullMove));
    let no_move = |n: &Node| n.kind == NodeKind::NullMove || !reads_as_move(&src[n.range]);
    game.result_node().is_none()
        && only_stray_text()
        && moves.next().is_some_and(no_move)
        && moves.all(no_move)
}

/// The diagnostic of text between games, on its first line.
fn text_between_games(src: &str) -> Diagnostic {
    // A byte order mark is a blank to the lexer, not to `char::is_whitespace`.
    let start =
        src.len() - src.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}').len();
    let end = src[start..].find(['\r', '\n']).map_or(src.len(), |at| start + at);
    let line = src[start..end].trim_end();
    let range = TextRange::from(start..start + line.len());
    let message = format!(
        "\"{}\" is text between games, neither a tag pair nor a move: not read as a game",
        excerpt(line)
    );
    Diagnostic::new(Code::TextBetweenGames, range, message)
}

/// Replay the game, calling `visit` for every `Move`/`NullMove` node in text order, in every
/// variation.
pub fn replay(game: &Game, src: &str, visit: &mut dyn FnMut(&MoveVisit<'_>)) {
    run(&mut replay::Replayer::new(game, src, visit, true), start_position(game, src));
}

/// The position after the side to move passes (a null move, `--`); `None` when it is in check.
pub fn pass(pos: Position) -> Option<Position> {
    replay::Rules::pass(pos)
}

/// The position the game starts from: the standard one, or its FEN tag's (§9.7.2) under the
/// rules its Variant tag names; `None` when the game cannot be replayed (`analyze` says why).
pub fn start_position(game: &Game, src: &str) -> Option<Position> {
    start::start_position(&tags::KnownTags::of(game, src), src, &mut Vec::new())
}

/// [`replay`] for a visitor that needs no positions: [`MoveVisit::before`] gives `None`, and the
/// replay copies the position before a move only where a variation starts from it. Generic over
/// the visitor, which is called in line: the formatter replays every game it formats so.
///
/// Returns whether the moves' numbers are known: not when the game has a FEN tag but no start
/// position (the FEN cannot be read, or the variant's rules are not known), where the moves
/// are numbered from White's first as a guess.
pub fn replay_without_positions(game: &Game, src: &str, visit: impl FnMut(&MoveVisit<'_>)) -> bool {
    let known = tags::KnownTags::of(game, src);
    let start = start::start_position(&known, src, &mut Vec::new());
    let numbers_known = start.is_some() || known.fen.is_none();
    run(&mut replay::Replayer::new(game, src, visit, false), start);
    numbers_known
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_as_exported() {
        let cases =
            [("Nbd7", "Nbd7"), ("exd8=Q#", "exd8=Q#"), ("O-O-O+", "O-O-O+"), ("@f6", "P@f6")];
        for (read, written) in cases {
            let san: SanPlus = read.parse().unwrap();
            assert_eq!(san_plus_text(san), written);
            let mut out = String::from("1. ");
            push_san_plus(&mut out, san);
            assert_eq!(out, format!("1. {written}"));
        }
        let drop: San = "N@f3".parse().unwrap();
        assert_eq!(san_text(drop), "N@f3");
    }
}
