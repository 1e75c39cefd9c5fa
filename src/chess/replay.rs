//! The replay walker: plays every move of the main line and of every variation (from the
//! position before the move it replaces, §8.2.5), judging each move once. After an illegal move
//! the rest of its line is not judged (one diagnostic, not a cascade), but still numbered.

use shakmaty::san::{San, SanError, SanPlus, Suffix};
use shakmaty::variant::Variant;
use shakmaty::{Color, KnownOutcome, Move, Position as _, Role};

use super::language;
use super::move_number::{PendingNumber, WrittenNumber};
use super::notation::{self, Leniency, Written};
use super::resolve::is_minimal;
use super::{MoveVisit, Outcome, ToVariant, explain};
use crate::syntax::diagnostic::PerCodeLimit;
use crate::syntax::{Code, Diagnostic, Game, NodeKind, excerpt};
use crate::text::{TextEdit, TextRange};

/// What the replay needs of a position type.
pub trait Rules: shakmaty::Position + Clone + ToVariant {
    /// The same position with the other side to move (a null move); `None` when the side to
    /// move is in check.
    fn pass(self) -> Option<Self>;

    /// The legal move `san` names; `in_check` says whether the side to move is in check.
    fn resolve_san(&self, san: San, in_check: bool) -> Result<Move, SanError> {
        let _ = in_check;
        san.to_move(self)
    }

    /// The canonical SAN of the legal move `m` from here; `in_check` as for `resolve_san`.
    fn canonical_san(&self, m: Move, in_check: bool) -> San {
        let _ = in_check;
        San::from_move(self, m)
    }

    /// The legal move `san` names, and its canonical SAN where `san` is not (`None`: `san` is
    /// minimal, so canonical); `in_check` as for `resolve_san`.
    fn resolve_san_and_canonical(
        &self,
        san: San,
        in_check: bool,
    ) -> Result<(Move, Option<San>), SanError> {
        let m = self.resolve_san(san, in_check)?;
        Ok((m, (!is_minimal(san)).then(|| self.canonical_san(m, in_check))))
    }

    /// Whether the side to move, which is in check, is checkmated.
    fn is_checkmate_in_check(&self) -> bool {
        self.is_checkmate()
    }

    /// Whether the side to move, which is not in check, is stalemated.
    fn is_stalemate_out_of_check(&self) -> bool {
        self.is_stalemate()
    }

    /// How the game has ended here by a variant's own rules, if it has, and the variant: `None`
    /// in standard chess, whose ends are checkmate and stalemate.
    fn variant_end(&self) -> Option<(KnownOutcome, Variant)> {
        None
    }

    /// The check or mate sign of a move that leads here, and the variant by whose own rules
    /// the move decides the game (a win for one side or the other), if it does; `in_check` says
    /// whether the side to move is in check. A move that decides the game by a variant's rules
    /// is marked as mate (antichess's last piece given away, atomic's exploded king, the king
    /// on the hill, the third check), as shakmaty, python-chess and lichess write it.
    fn sign(&self, in_check: bool) -> (Option<Suffix>, Option<Variant>) {
        if let Some((KnownOutcome::Decisive { .. }, variant)) = self.variant_end() {
            return (Some(Suffix::Checkmate), Some(variant));
        }
        let suffix = in_check
            .then(|| if self.is_checkmate_in_check() { Suffix::Checkmate } else { Suffix::Check });
        (suffix, None)
    }
}

/// A null move on a setup: the other side to move, no en passant, the clocks moved on as after
/// a move (§16.1.3.5, §16.1.3.6).
fn pass_setup(setup: &mut shakmaty::Setup) {
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    if setup.turn == Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.swap_turn();
}

impl Rules for shakmaty::Chess {
    fn pass(self) -> Option<Self> {
        let mode = self.castles().mode();
        let mut setup = self.to_setup(shakmaty::EnPassantMode::Always);
        pass_setup(&mut setup);
        <Self as shakmaty::FromSetup>::from_setup(setup, mode).ok()
    }

    fn resolve_san(&self, san: San, in_check: bool) -> Result<Move, SanError> {
        super::resolve::to_move(san, self, in_check)
    }

    fn canonical_san(&self, m: Move, in_check: bool) -> San {
        super::resolve::canonical_san(self, m, in_check)
    }

    #[inline]
    fn resolve_san_and_canonical(
        &self,
        san: San,
        in_check: bool,
    ) -> Result<(Move, Option<San>), SanError> {
        super::resolve::to_move_and_canonical(san, self, in_check)
    }

    fn is_checkmate_in_check(&self) -> bool {
        !super::resolve::king_can_step(self) && self.is_checkmate()
    }

    fn is_stalemate_out_of_check(&self) -> bool {
        !super::resolve::king_can_step(self) && self.is_stalemate()
    }
}

impl Rules for shakmaty::variant::VariantPosition {
    fn pass(self) -> Option<Self> {
        if self.is_check() {
            return None;
        }
        let variant = self.variant();
        let mode = self.castles().mode();
        let mut setup = self.to_setup(shakmaty::EnPassantMode::Legal);
        pass_setup(&mut setup);
        Self::from_setup(variant, setup, mode).ok()
    }

    fn variant_end(&self) -> Option<(KnownOutcome, Variant)> {
        match self.variant_outcome() {
            shakmaty::Outcome::Known(end) => Some((end, self.variant())),
            shakmaty::Outcome::Unknown => None,
        }
    }
}

/// One line of play: the main line or a variation. Positions are boxed so that a line waiting
/// for its variations to end costs a few words, whatever the nesting depth.
struct Line<P> {
    /// The position after the last move; `None` once the line has gone wrong.
    pos: Option<Box<P>>,
    /// Whether the side to move in `pos` is in check.
    in_check: bool,
    /// The position before the last move: where a variation replacing it starts.
    before_last: Option<Box<P>>,
    /// Number and side of the next move.
    fullmove: u64,
    turn: Color,
    /// Number and side of the last move.
    last: Option<(u64, Color)>,
    /// The move number indication waiting for its move.
    number: PendingNumber,
    /// The languages whose piece letters (§17) this line's moves written with another
    /// language's letters were read in so far, with those of the lines it branches from, up to
    /// where it starts ([`language::other_language_reading`]).
    languages: notation::Languages,
    /// The `move-number` diagnostic (its index) of the last number of this line that a fix
    /// renumbers, until the line's next White move number: a move of the line that fails
    /// before it withdraws the fix ([`Replayer::withdraw_renumbering`]).
    renumbered: Option<usize>,
}

impl<P: shakmaty::Position> Line<P> {
    fn start(
        pos: Option<Box<P>>,
        fullmove: u64,
        turn: Color,
        languages: notation::Languages,
    ) -> Self {
        let in_check = pos.as_ref().is_some_and(|p| p.is_check());
        let number = PendingNumber::default();
        let (last, renumbered) = (None, None);
        Line {
            pos,
            in_check,
            before_last: None,
            fullmove,
            turn,
            last,
            number,
            languages,
            renumbered,
        }
    }
}

impl<P> Line<P> {
    fn advance(&mut self) {
        self.last = Some((self.fullmove, self.turn));
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
    }
}

/// What a replay found.
pub struct Replayed {
    pub main_line_plies: u32,
    pub outcome: Outcome,
    /// The main line's termination marker (§8.2.6): what `Game::result_node` finds, met on the
    /// way, so that the result check need not look for it again.
    pub marker: Option<TextRange>,
}

/// Replays a game, telling `visit` about every move. Generic over the visitor so that the
/// analysis, which only wants diagnostics, pays nothing for visits.
pub struct Replayer<'a, V> {
    game: &'a Game,
    src: &'a str,
    /// What the replay found (at most `syntax::diagnostic::MAX_PER_CODE` of each code, and a
    /// count of the rest).
    pub diagnostics: Vec<Diagnostic>,
    limit: PerCodeLimit,
    visit: V,
    /// Whether `visit` is shown the position before each move.
    visit_positions: bool,
    /// Whether to keep the position before each move: a variation starts from it, and a
    /// visitor may ask for it. Without either, the replay does not copy positions.
    keep_before: bool,
    canonical: Vec<u8>,
    /// The languages whose piece letters (§17) this game's moves written with another
    /// language's letters were read in so far, in any line.
    game_languages: notation::Languages,
    /// The node after the text before the game's moves, if it has any (else 0).
    leading_text_end: usize,
    /// The last move node visited, and whether it was played as an en passant capture (`None`:
    /// not played).
    last_visited: Option<(usize, Option<bool>)>,
}

impl<'a, V: FnMut(&MoveVisit<'_>)> Replayer<'a, V> {
    /// A replayer of `game` (whose text is `src`); `visit_positions` says whether `visit` looks
    /// at [`MoveVisit::before`].
    pub fn new(game: &'a Game, src: &'a str, visit: V, visit_positions: bool) -> Self {
        let has_variations = game.nodes.iter().any(|n| n.kind == NodeKind::VariationStart);
        Replayer {
            game,
            src,
            diagnostics: Vec::new(),
            limit: PerCodeLimit::default(),
            visit,
            visit_positions,
            keep_before: visit_positions || has_variations,
            canonical: Vec::with_capacity(16),
            game_languages: notation::ALL_LANGUAGES,
            leading_text_end: 0,
            last_visited: None,
        }
    }

    /// Replay from `start` (`None`: the game cannot be replayed; moves are still visited and
    /// numbered from 1). Generic so that standard games run on `shakmaty::Chess` directly,
    /// without the cost of the variant dispatch.
    pub fn run<P: Rules>(&mut self, start: Option<P>) -> Replayed {
        let (fullmove, turn) = start
            .as_ref()
            .map_or((1, Color::White), |p| (u64::from(p.fullmoves().get()), p.turn()));
        let judged = start.is_some();
        let mut line = Line::start(start.map(Box::new), fullmove, turn, notation::ALL_LANGUAGES);
        let mut parents: Vec<Line<P>> = Vec::new();
        let mut main_line_plies = 0u32;
        let mut main_ended: Option<Outcome> = None;
        let mut marker = None;

        for (i, node) in self.game.nodes.iter().enumerate() {
            match node.kind {
                NodeKind::MoveNumber => {
                    if let Some(left) = line.number.number(i, |n| self.node_bytes(n)) {
                        self.report_unnumbered(left);
                    }
                    if line.renumbered.is_some() && self.numbers_white_move(i) {
                        line.renumbered = None;
                    }
                }
                NodeKind::Move | NodeKind::NullMove => {
                    let depth = parents.len() as u32;
                    let played = self.on_move(i, depth, &mut line);
                    if depth == 0 && played && main_ended.is_none() {
                        main_line_plies += 1;
                    }
                }
                NodeKind::VariationStart => {
                    let (fullmove, turn) = line.last.unwrap_or((line.fullmove, line.turn));
                    let from = if line.last.is_some() { line.before_last.clone() } else { None };
                    let child = Line::start(from, fullmove, turn, line.languages);
                    parents.push(std::mem::replace(&mut line, child));
                }
                NodeKind::VariationEnd => {
                    if let Some(parent) = parents.pop() {
                        self.end_line(&mut line);
                        line = parent;
                    }
                }
                NodeKind::EnPassantMark => self.on_en_passant_mark(i, &line),
                NodeKind::Result => {
                    self.end_line(&mut line);
                    if parents.is_empty() && main_ended.is_none() {
                        main_ended = Some(outcome_of(&line, judged));
                        marker = Some(node.range);
                    }
                    line.pos = None;
                }
                _ => {}
            }
        }
        let outcome = main_ended.unwrap_or_else(|| outcome_of(&line, judged));
        self.end_line(&mut line);
        for parent in &mut parents {
            self.end_line(parent);
        }
        self.diagnostics.extend(std::mem::take(&mut self.limit).summaries());
        debug_assert_eq!(marker, self.game.result_node().map(|n| n.range));
        Replayed { main_line_plies, outcome, marker }
    }

    /// Judge and play one move; returns whether it was played.
    fn on_move<P: Rules>(&mut self, i: usize, depth: u32, line: &mut Line<P>) -> bool {
        let number = line.number.take();
        if i < self.leading_text_end {
            // A word of the text before the game's moves, reported with its first.
            return false;
        }
        if line.pos.is_none() {
            self.visit_unjudged(i, depth, line);
            return false;
        }
        if let Some(n) = number
            && !self.number_fits(n, line)
        {
            let (fullmove, turn) = (line.fullmove, line.turn);
            let played = self.judge_move(i, depth, line, true);
            self.report_move_number(n, (fullmove, turn), played, line);
            return played;
        }
        self.judge_move(i, depth, line, number.is_some())
    }

    /// Judge and play move node `i` of a judged line (`numbered`: with a move number before
    /// it); returns whether it was played.
    #[inline(always)]
    fn judge_move<P: Rules>(
        &mut self,
        i: usize,
        depth: u32,
        line: &mut Line<P>,
        numbered: bool,
    ) -> bool {
        let node = self.game.nodes[i];
        let text = &self.src[node.range];
        if node.kind == NodeKind::NullMove {
            return self.on_null_move(i, depth, line);
        }
        let Some((written, spelled)) = notation::read_spelled(text) else {
            return self.on_unread_move(i, depth, line, (node.range, text), numbered);
        };
        if line.languages != notation::ALL_LANGUAGES {
            let read = (written, spelled);
            return self.on_move_in_known_languages(i, depth, line, (node.range, text), read);
        }
        self.play_written(i, depth, line, (node.range, text), written, spelled)
    }

    /// Move node `i` of a judged line whose moves showed its languages (§17), at `range` of
    /// the game's text (`text`), read in English piece letters as `written` (`spelled` as for
    /// [`Self::play_written`]): played in the reading with those languages' letters that
    /// [`language::learned_reading`] takes, if it takes one (`Rf1`, the king's move in French),
    /// else as written. Not in line, so that English games do not pay for it.
    #[cold]
    #[inline(never)]
    fn on_move_in_known_languages<P: Rules>(
        &mut self,
        i: usize,
        depth: u32,
        line: &mut Line<P>,
        (range, text): (TextRange, &str),
        (written, spelled): (Written, bool),
    ) -> bool {
        let pos: &P = line.pos.as_deref().expect("judged lines have a position");
        let languages = (&mut line.languages, &mut self.game_languages);
        let (written, spelled) =
            match language::learned_reading(text, &written, (pos, line.in_check), languages) {
                Some(relettered) => (relettered, false),
                None => (written, spelled),
            };
        self.play_written(i, depth, line, (range, text), written, spelled)
    }

    /// Judge and play the move at node `i` of a judged line, at `range` of the game's text
    /// (`text`), read as `written` (`spelled`: in SAN's one spelling); returns whether it was
    /// played. In line in [`Self::on_move`], which plays nearly every move through it.
    #[inline(always)]
    fn play_written<P: Rules>(
        &mut self,
        i: usize,
        depth: u32,
        line: &mut Line<P>,
        (range, text): (TextRange, &str),
        written: Written,
        spelled: bool,
    ) -> bool {
        let pos: &P = line.pos.as_deref().expect("judged lines have a position");
        let found = match pos.resolve_san_and_canonical(written.san, line.in_check) {
            Ok((m, canonical)) => Ok((m, written.leniency, canonical)),
            Err(error) => resolve_leniently(text, &written, pos, line.in_check, error)
                .map(|(m, how)| (m, how, Some(pos.canonical_san(m, line.in_check)))),
        };
        let (m, how, canonical_san) = match found {
            Ok(found) => found,
            Err((error, tried)) => {
                return self.on_unplayable_move(i, depth, line, text, tried, error);
            }
        };
        // SAN read that names one legal move and is minimal is the canonical SAN.
        let minimal = canonical_san.is_none();
        let canonical_san = canonical_san.unwrap_or(written.san);
        // The position before the move is kept for a variation that may replace it; the line's
        // own position is played in place (positions are copied once per move, not moved about).
        if self.keep_before {
            match &mut line.before_last {
                Some(before) => (**before).clone_from(pos),
                slot => *slot = Some(Box::new(pos.clone())),
            }
        }
        let after = line.pos.as_mut().expect("checked above");
        after.play_unchecked(m);
        line.in_check = after.is_check();
        let (suffix, decided_by) = after.sign(line.in_check);
        let canonical = SanPlus { san: canonical_san, suffix };
        // Text that read as SAN as it stands, needing no disambiguation and no pawn letter, is
        // the canonical SAN already: only its check sign can differ. Nearly every move is so.
        let as_written = how.is_none()
            && (minimal || written.san == canonical.san)
            && !matches!(text.as_bytes()[0], b'P' | b'@');
        if as_written {
            if written.suffix != canonical.suffix {
                self.report_check_suffix(range, text, written.suffix, canonical, decided_by, None);
            }
        } else {
            let written = Written { leniency: how, ..written };
            let en_passant = m.is_en_passant();
            self.judge_notation(range, text, &written, canonical, decided_by, en_passant);
        }
        let written_canonical = as_written && spelled && written.suffix == canonical.suffix;
        self.visited(i, depth, line, Some((m, canonical)), written_canonical);
        true
    }

    /// A move of a judged line, written `text` and tried as `san`, that names no legal move, or
    /// more than one (`error`): its diagnostic, and the line is judged no further. The move's
    /// range is looked up here rather than passed: passing it made the whole `check` of TWIC
    /// 920 run 0.6% more instructions (callgrind), the common path compiled worse.
    #[cold]
    fn on_unplayable_move<P: Rules>(
        &mut self,
        i: usize,
        depth: u32,
        line: &mut Line<P>,
        text: &str,
        san: San,
        error: SanError,
    ) -> bool {
        let pos: &P = line.pos.as_deref().expect("judged lines have a position");
        let (code, message) = match error {
            SanError::AmbiguousSan => (Code::AmbiguousMove, explain::ambiguous(text, san, pos)),
            SanError::IllegalSan => {
                let variant = pos.to_variant().variant();
                (Code::IllegalMove, explain::illegal(text, san, pos, variant))
            }
        };
        self.push(Diagnostic::new(code, self.game.nodes[i].range, message));
        self.break_line(i, depth, line)
    }

    /// A move of a judged line, at `range` of the game's text (`text`), that no accepted
    /// notation reads: played in the reading with another language's piece letters (§17) that
    /// [`language::other_language_reading`] takes, else its diagnostic.
    #[cold]
    fn on_unread_move<P: Rules>(
        &mut self,
        i: usize,
        depth: u32,
        line: &mut Line<P>,
        (range, text): (TextRange, &str),
        numbered: bool,
    ) -> bool {
        // Words before the main line's first move and its number.
        if depth == 0
            && line.last.is_none()
            && !numbered
            && let Some(end) = self.leading_text(i)
        {
            self.report_leading_text(i, end);
            self.leading_text_end = end;
            return false;
        }
        let pos: &P = line.pos.as_deref().expect("judged lines have a position");
        let (after, src) = (self.game.line_moves_after(i), self.src);
        let languages = (&mut line.languages, &mut self.game_languages);
        match language::other_language_reading(text, (pos, line.in_check), languages, after, src) {
            Ok(written) => self.play_written(i, depth, line, (range, text), written, false),
            Err((code, message)) => {
                self.push(Diagnostic::new(code, range, message));
                self.break_line(i, depth, line)
            }
        }
    }

    /// Where the words from node `i` on end (a node index) when none of them reads as a move
    /// and the game's first move number follows them: text before a game's moves, such as a
    /// title pasted with the game (`Round 2 games` before `1. e4`; numbers among the words,
    /// `2`, are read as move numbers, and punctuation is stray text to the parser). The moves
    /// are then judged from the start, and the words are no moves: not numbered, not visited.
    fn leading_text(&self, i: usize) -> Option<usize> {
        let nodes = &self.game.nodes[i..];
        let scanned = nodes
            .iter()
            .take_while(|n| match n.kind {
                NodeKind::MoveNumber | NodeKind::Unexpected => true,
                NodeKind::Move => !super::reads_as_move(&self.src[n.range]),
                _ => false,
            })
            .count();
        // The number of the first move closes the text.
        let number = scanned.checked_sub(1)?;
        (number > 0 && nodes[number].kind == NodeKind::MoveNumber).then_some(i + number)
    }

    /// The text before the game's moves, nodes `i..end`: one `invalid-san`, whose fix makes
    /// it a comment (other readers lose the game's moves after it: python-chess reads such a
    /// game as one without moves).
    #[cold]
    fn report_leading_text(&mut self, i: usize, end: usize) {
        let nodes = &self.game.nodes;
        let range = TextRange::new(nodes[i].range.start, nodes[end - 1].range.end);
        let text = &self.src[range];
        let words: Vec<&str> = text.split_whitespace().collect();
        let message = format!(
            "\"{}\" before the first move is not a move in any notation this reader knows: \
             text such as a title belongs in a comment or a tag pair",
            excerpt(&words.join(" "))
        );
        let mut diagnostic = Diagnostic::new(Code::InvalidSan, range, message);
        // Stray text between the words (`Carlsen - Nakamura`) is part of the comment too, unless
        // it would close it. In a game without tags the comment would instead end the game
        // before it, after its termination marker: its `missing-tag` fix comes first.
        if !self.game.tags.is_empty() && !text.contains('}') {
            let comment = vec![TextEdit::new(range, format!("{{ {text} }}"))];
            diagnostic = diagnostic.with_fix("Make it a comment", comment);
        }
        self.push(diagnostic);
    }

    #[cold]
    fn on_null_move<P: Rules>(&mut self, i: usize, depth: u32, line: &mut Line<P>) -> bool {
        let range = self.game.nodes[i].range;
        if depth == 0 {
            let text = &self.src[range];
            self.push(Diagnostic::new(
                Code::NullMove,
                range,
                format!("{text} is a null move: the side to move passes, which no rule allows"),
            ));
        }
        let pos = line.pos.take().expect("judged lines have a position");
        // A side in check cannot pass: the line cannot go on.
        line.pos = (*pos).clone().pass().map(Box::new);
        if line.pos.is_none() {
            self.withdraw_renumbering(line);
            let text = &self.src[range];
            let side = explain::color_name(pos.turn());
            self.push(Diagnostic::new(
                Code::IllegalMove,
                range,
                format!(
                    "{text}: {side} is in check and cannot pass (a null move); the moves after it \
                     are not judged"
                ),
            ));
        }
        line.in_check = line.pos.as_ref().is_some_and(|p| p.is_check());
        line.before_last = Some(pos);
        self.visited(i, depth, line, None, false);
        line.pos.is_some()
    }

    /// The move at node `i` went wrong: its line is judged no further, but a variation that
    /// replaces it starts from the position before it.
    #[cold]
    fn break_line<P: ToVariant>(&mut self, i: usize, depth: u32, line: &mut Line<P>) -> bool {
        line.before_last = line.pos.take();
        self.withdraw_renumbering(line);
        self.visited(i, depth, line, None, false);
        false
    }

    /// A move in a line that is not judged (after an error, or with no start position).
    #[cold]
    fn visit_unjudged<P: ToVariant>(&mut self, i: usize, depth: u32, line: &mut Line<P>) {
        line.before_last = None;
        self.visited(i, depth, line, None, false);
    }

    /// Tell the visitor about the move at node `i`, made from `line.before_last`, and move the
    /// line's numbering on.
    fn visited<P: ToVariant>(
        &mut self,
        i: usize,
        depth: u32,
        line: &mut Line<P>,
        played: Option<(Move, SanPlus)>,
        written_canonical: bool,
    ) {
        self.last_visited = Some((i, played.as_ref().map(|(m, _)| m.is_en_passant())));
        (self.visit)(&MoveVisit {
            node: i,
            depth,
            fullmove: line.fullmove,
            turn: line.turn,
            before: if self.visit_positions {
                line.before_last.as_deref().map(|p| p as &dyn ToVariant)
            } else {
                None
            },
            played,
            written_canonical,
        });
        line.advance();
    }

    /// An `e.p.` mark (node `i`) in `line`, perhaps with the check or mate sign of the move
    /// before it (`exd6 e.p.+`). After a move that is no en passant capture, or after no move,
    /// it is a `non-canonical-san` whose fix removes it (but for that sign). After an en passant
    /// capture it is right, if not standard (§8.2.3.3: en passant captures have no special
    /// notation; `fmt` leaves the mark out there). Its sign, when the move has none of its own,
    /// is judged as the move's. After a move that was not played nothing is known.
    #[cold]
    fn on_en_passant_mark<P: Rules>(&mut self, i: usize, line: &Line<P>) {
        let mark = self.game.nodes[i].range;
        let mark_text = &self.src[mark];
        let before = i.checked_sub(1).map(|b| self.game.nodes[b]);
        let Some(before) = before.filter(|node| node.kind == NodeKind::Move) else {
            let message =
                format!("{mark_text} marks an en passant capture, and stands after no move");
            let start = before.map_or(mark.start, |node| node.range.end);
            let fix = TextEdit::new(TextRange::new(start, mark.end), String::new());
            return self.report_misplaced_mark(mark, message, fix);
        };
        let Some((_, Some(en_passant))) = self.last_visited.filter(|(visited, _)| visited + 1 == i)
        else {
            return;
        };
        let move_text = &self.src[before.range];
        let sign = trailing_sign(mark_text).filter(|_| trailing_sign(move_text).is_none());
        // The sign the move should have, where its sign stands on the mark.
        let canonical =
            sign.and_then(|sign| self.judge_sign_on_mark(line, before.range, mark, sign));
        if !en_passant {
            let message = format!(
                "{mark_text} marks an en passant capture, and {} is none: remove it",
                excerpt(move_text)
            );
            let range = TextRange::new(before.range.end, mark.end);
            let fix = TextEdit::new(range, with_sign("", canonical));
            self.report_misplaced_mark(mark, message, fix);
        }
    }

    /// The sign `written` on the `e.p.` mark at `mark` of the move at `move_range`, the last
    /// move played in `line`: a `check-suffix` when it is not the sign the move should have,
    /// which is returned.
    fn judge_sign_on_mark<P: Rules>(
        &mut self,
        line: &Line<P>,
        move_range: TextRange,
        mark: TextRange,
        written: Suffix,
    ) -> Option<Suffix> {
        let (canonical, decided_by) = line.pos.as_deref()?.sign(line.in_check);
        if canonical != Some(written) {
            let range = TextRange::new(move_range.start, mark.end);
            let gap = if move_range.end == mark.start { "" } else { " " };
            let text = format!("{}{gap}{}", &self.src[move_range], &self.src[mark]);
            let fixed = with_sign(&text[..text.len() - 1], canonical);
            self.push_check_suffix(range, &text, Some(written), canonical, decided_by, fixed);
        }
        canonical
    }

    /// An `e.p.` mark where no en passant capture was played, with the fix removing it.
    fn report_misplaced_mark(&mut self, mark: TextRange, message: String, fix: TextEdit) {
        let diagnostic = Diagnostic::new(Code::NonCanonicalSan, mark, message);
        self.push(diagnostic.with_fix("Remove the e.p. mark", vec![fix]));
    }

    fn push(&mut self, d: Diagnostic) {
        if self.limit.admit(&d) {
            self.diagnostics.push(d);
        }
    }

    /// A legal move (an en passant capture if `en_passant`), at `range` of the game's text
    /// (`text`), read as `written` with the liberty it took, if any, but not written as its
    /// canonical SAN, or written so in a way that is not plain (a pawn letter, say): one
    /// diagnostic, with the fix. `decided_by` as for the check sign.
    #[cold]
    fn judge_notation(
        &mut self,
        range: TextRange,
        text: &str,
        written: &Written,
        canonical: SanPlus,
        decided_by: Option<Variant>,
        en_passant: bool,
    ) {
        let how = written.leniency;
        if how == Some(Leniency::EnPassantMark) && en_passant {
            // `exd6ep`: the mark is right, if not standard, as `exd6 ep`'s (`fmt` leaves it out).
            if written.suffix != canonical.suffix {
                let keep = Some(text.trim_end_matches(['+', '#']));
                self.report_check_suffix(range, text, written.suffix, canonical, decided_by, keep);
            }
            return;
        }
        self.canonical.clear();
        if let San::Put { role: Role::Pawn, .. } = canonical.san {
            self.canonical.push(b'P');
        }
        canonical.san.append_ascii_to(&mut self.canonical);
        let body = text.trim_end_matches(['+', '#']);
        // A move that needs its whole origin square reads as long algebraic notation, and is
        // canonical SAN all the same (`Qa1b2` with three queens, §8.2.3.4).
        let plain = matches!(how, None | Some(Leniency::LongAlgebraic));
        let same_san = plain && body.as_bytes() == self.canonical.as_slice();
        if same_san && written.suffix == canonical.suffix {
            return;
        }
        if same_san {
            self.report_check_suffix(range, text, written.suffix, canonical, decided_by, None);
            return;
        }
        let fixed = super::san_plus_text(canonical);
        let fix = vec![TextEdit::new(range, fixed.clone())];
        let why = match how {
            Some(l) => l.describe(),
            None if body.starts_with('@') => "a pawn drop is written P@",
            None if body.starts_with('P') => "pawn moves are written without P",
            None if self.canonical.len() < body.len() => "the move needs no disambiguation here",
            None => "not the standard form",
        };
        let message = format!("{text} is not standard SAN ({why}): write {fixed}");
        self.push(
            Diagnostic::new(Code::NonCanonicalSan, range, message)
                .with_fix(format!("Write {fixed}"), fix),
        );
        // A wrong check or mate sign is told apart too, so that it is seen where the notation
        // is accepted (`--ignore non-canonical-san`); its own fix mends only the sign. A sign
        // left out of long algebraic notation is not: UCI's moves (`e7e8q`) carry none.
        let sign_expected = written.suffix.is_some() || how != Some(Leniency::LongAlgebraic);
        if written.suffix != canonical.suffix && sign_expected {
            let move_as_written = text.trim_end_matches(['+', '#', '\u{2795}']);
            let (suffix, keep) = (written.suffix, Some(move_as_written));
            self.report_check_suffix(range, text, suffix, canonical, decided_by, keep);
        }
    }

    /// A legal move whose check or mate sign is missing, superfluous or wrong; `decided_by` is
    /// the variant by whose rules the move decides the game, if it does. The fix writes the
    /// canonical SAN, or `keep`, the move as written without its sign, with the right sign. A
    /// move without a sign whose `e.p.` mark has one (`exd6 e.p.+`) is judged with the mark.
    #[cold]
    fn report_check_suffix(
        &mut self,
        range: TextRange,
        text: &str,
        written: Option<Suffix>,
        canonical: SanPlus,
        decided_by: Option<Variant>,
        keep: Option<&str>,
    ) {
        if written.is_none() && self.sign_on_mark_after(range) {
            return;
        }
        let fixed = match keep {
            Some(move_text) => with_sign(move_text, canonical.suffix),
            None => super::san_plus_text(canonical),
        };
        self.push_check_suffix(range, text, written, canonical.suffix, decided_by, fixed);
    }

    /// Whether the node after the move at `range` is an `e.p.` mark with a check or mate sign.
    fn sign_on_mark_after(&self, range: TextRange) -> bool {
        let nodes = &self.game.nodes;
        let next = nodes.partition_point(|n| n.range.start < range.end);
        nodes.get(next).is_some_and(|n| {
            n.kind == NodeKind::EnPassantMark && trailing_sign(&self.src[n.range]).is_some()
        })
    }

    /// The `check-suffix` of `text` (at `range`), whose sign is `written` where it should be
    /// `canonical`; the fix writes `fixed`.
    fn push_check_suffix(
        &mut self,
        range: TextRange,
        text: &str,
        written: Option<Suffix>,
        canonical: Option<Suffix>,
        decided_by: Option<Variant>,
        fixed: String,
    ) {
        let message = match (written, canonical) {
            (_, None) => format!("{text}: the move gives no check; write {fixed}"),
            (_, Some(Suffix::Checkmate)) => match decided_by {
                Some(variant) => format!(
                    "{text} ends the game by the rules of {}: write {fixed}",
                    explain::variant_name(variant)
                ),
                None => format!("{text} is checkmate: write {fixed}"),
            },
            (None, Some(Suffix::Check)) => format!("{text} gives check: write {fixed}"),
            (Some(_), Some(Suffix::Check)) => format!("{text} is check, not mate: write {fixed}"),
        };
        let fix = vec![TextEdit::new(range, fixed.clone())];
        self.push(
            Diagnostic::new(Code::CheckSuffix, range, message)
                .with_fix(format!("Write {fixed}"), fix),
        );
    }

    /// The text of node `n`, as bytes (a `str` slice would check its ends).
    fn node_bytes(&self, n: usize) -> &'a [u8] {
        &self.src.as_bytes()[self.game.nodes[n].range.to_usize()]
    }

    /// The end of `line`: a move number indication waiting there numbers no move.
    fn end_line<P>(&mut self, line: &mut Line<P>) {
        if let Some(left) = line.number.end(|n| self.node_bytes(n)) {
            self.report_unnumbered(left);
        }
    }

    /// The move number indication of node `n` numbers no move (§8.2.2: an indication stands
    /// before its move). Renumbering would delete it, and it may be text that is no number
    /// (`12.03.2024`): no fix is offered, and `fmt` keeps the game as it is.
    #[cold]
    fn report_unnumbered(&mut self, n: usize) {
        if n < self.leading_text_end {
            // Part of the text before the game's moves, reported with it.
            return;
        }
        let range = self.game.nodes[n].range;
        let message = format!(
            "move number {} with no move after it: a move number stands before its move",
            excerpt(&self.src[range])
        );
        self.push(Diagnostic::new(Code::MoveNumber, range, message));
    }

    /// Whether the move number indication (§8.2.2) at node `n` fits the move `line` is about
    /// to make (one with no digits fits any).
    #[inline(always)]
    fn number_fits<P>(&self, n: usize, line: &Line<P>) -> bool {
        WrittenNumber::read(self.node_bytes(n))
            .is_none_or(|written| written.fits(line.fullmove, line.turn))
    }

    /// The move number at node `n` does not fit move `fullmove` of `turn`, which was `played`
    /// or could not be. Its fix writes the count's number, unless the move could not be
    /// played: then the number may be right and a move missing before it (`2. Nf3 3. Bc4`,
    /// Black's second move left out), and no fix is certain; nor is it for a `1` after a blank
    /// line, where a game without tags may start. A fix is remembered as `line`'s last
    /// renumbering, which a move of the line failing later may still withdraw
    /// ([`Self::withdraw_renumbering`]).
    #[cold]
    fn report_move_number<P>(
        &mut self,
        n: usize,
        (fullmove, turn): (u64, Color),
        played: bool,
        line: &mut Line<P>,
    ) {
        let range = self.game.nodes[n].range;
        let text = &self.src[range];
        let Some(written) = WrittenNumber::read(text.as_bytes()) else {
            return;
        };
        let expected = match turn {
            Color::White => format!("{fullmove}."),
            Color::Black => format!("{fullmove}..."),
        };
        let message = if written.number != Some(fullmove) {
            let side = explain::color_name(turn);
            format!(
                "move number {}: this is move {fullmove} ({side} to move); write {expected}",
                excerpt(&text[..written.digits]),
            )
        } else if written.white_dots_before(turn) {
            format!("{text} stands before a Black move: write {expected}")
        } else {
            format!("{text} stands before a White move: write {expected}")
        };
        if !played {
            let message = format!("{message}{UNLESS_A_MOVE_IS_MISSING}");
            self.push(Diagnostic::new(Code::MoveNumber, range, message));
            return;
        }
        // White's first move after a blank line may well begin a game of its own, which the
        // number's fix would make moves of this one.
        let before = &self.src.as_bytes()[..range.start as usize];
        let blanks = &before[before.trim_ascii_end().len()..];
        if written.number == Some(1) && blanks.iter().filter(|&&b| b == b'\n').count() > 1 {
            let message = format!(
                "{message}, unless another game starts here: then end this one with its result, \
                 and give the next its tags"
            );
            self.push(Diagnostic::new(Code::MoveNumber, range, message));
            return;
        }
        let fix = vec![TextEdit::new(range, expected.clone())];
        let index = self.diagnostics.len();
        self.push(
            Diagnostic::new(Code::MoveNumber, range, message)
                .with_fix(format!("Write {expected}"), fix),
        );
        if self.diagnostics.len() > index {
            line.renumbered = Some(index);
        }
    }

    /// Whether the move number at node `n` is written as a White move's (`12.`, `12`), not as a
    /// Black move's (`12...`).
    #[cold]
    fn numbers_white_move(&self, n: usize) -> bool {
        WrittenNumber::read(self.node_bytes(n)).is_some_and(|written| !written.is_black())
    }

    /// A move of `line` failed. A number the line renumbered since its last White move number
    /// may be right after all, and a move missing before it (`1. e4 2. e5 d5`: Black's first
    /// move is left out, and renumbering `2.` as `1...` leaves d5 as illegal as before): the
    /// fix is withdrawn, and the message says why.
    #[cold]
    fn withdraw_renumbering<P>(&mut self, line: &mut Line<P>) {
        if let Some(index) = line.renumbered.take() {
            let diagnostic = &mut self.diagnostics[index];
            diagnostic.fixes.clear();
            diagnostic.message.push_str(UNLESS_A_MOVE_IS_MISSING);
        }
    }
}

/// What a `move-number` message adds where the number may be right and a move missing before
/// it: its move, or a move after it, cannot be played as counted.
const UNLESS_A_MOVE_IS_MISSING: &str = ", unless a move is missing before it";

/// Find the legal move a written move means when its reading as written, `w.san`, is not one
/// (`error` says why). Tries a move given by its from-square (UCI `g1f3`, `e1g1`, and `Ke1-g1`
/// for castling), then a lowercase `b` as a bishop, then the capture mark flipped (`Bc4` for
/// `Bxc4`, `ed5` for `exd5`; never for a pawn move without its file, the python-chess #870
/// trap). Else the error to report and the reading it is about: a reading that more than one
/// legal move matches (`Nd4` for `Nxd4` where two knights can take) makes the move ambiguous;
/// else `error` stands, a move given by its from-square tried as a move of the piece there.
#[cold]
pub(super) fn resolve_leniently<P: Rules>(
    text: &str,
    w: &Written,
    pos: &P,
    in_check: bool,
    error: SanError,
) -> Result<(Move, Option<Leniency>), (SanError, San)> {
    let from_square = from_square_reading(w.san, pos);
    let flipped_capture = match w.san {
        San::Normal { role, file, rank, capture, to, promotion }
            if role != Role::Pawn || file.is_some() =>
        {
            Some(San::Normal { role, file, rank, capture: !capture, to, promotion })
        }
        _ => None,
    };
    let readings = [
        from_square.map(|san| (san, Leniency::LongAlgebraic)),
        notation::bishop_reading(text).map(|san| (san, Leniency::LowercasePiece)),
        flipped_capture.map(|san| (san, w.leniency.unwrap_or(Leniency::CaptureMark))),
    ];
    let mut ambiguous = None;
    for (san, how) in readings.into_iter().flatten() {
        match pos.resolve_san(san, in_check) {
            Ok(m) => return Ok((m, Some(how))),
            Err(SanError::AmbiguousSan) => ambiguous = ambiguous.or(Some(san)),
            Err(SanError::IllegalSan) => {}
        }
    }
    Err(match (error, ambiguous) {
        (SanError::IllegalSan, Some(san)) => (SanError::AmbiguousSan, san),
        (SanError::IllegalSan, None) => (SanError::IllegalSan, from_square.unwrap_or(w.san)),
        (SanError::AmbiguousSan, _) => (SanError::AmbiguousSan, w.san),
    })
}

/// A move with a full from-square read as a move of the piece standing there: a pawn-looking
/// move (`g1f3`, as UCI writes every move) as that piece's, capturing what stands on the target
/// square (UCI marks no captures); our king moving two files or more to where castling puts it,
/// or onto the rook it castles with, castles, whether the king is named or not (`e1g1`,
/// `Ke1-g1`, `Kb1-a1` or `Kb1-g1` in Chess960; not `Kb1-d1`, which no king can play).
fn from_square_reading<P: shakmaty::Position>(san: San, pos: &P) -> Option<San> {
    let San::Normal { role: written, file: Some(file), rank: Some(rank), to, promotion, .. } = san
    else {
        return None;
    };
    if !matches!(written, Role::Pawn | Role::King) {
        return None;
    }
    let from = shakmaty::Square::from_coords(file, rank);
    let role = pos.board().role_at(from)?;
    if role == Role::King && pos.us().contains(from) && from.rank() == to.rank() {
        let side = if to.file() > from.file() {
            shakmaty::CastlingSide::KingSide
        } else {
            shakmaty::CastlingSide::QueenSide
        };
        let to_castled_square =
            from.file().distance(to.file()) >= 2 && side.king_to(pos.turn()) == to;
        let onto_rook = pos.castles().rook(pos.turn(), side) == Some(to)
            || (pos.our(Role::Rook).contains(to) && !pos.castles().has(pos.turn(), side));
        if to_castled_square || onto_rook {
            return Some(San::Castle(side));
        }
    }
    if written == Role::King {
        return None;
    }
    let capture =
        pos.them().contains(to) || role == Role::Pawn && pos.maybe_ep_square() == Some(to);
    Some(San::Normal { role, file: Some(file), rank: Some(rank), capture, to, promotion })
}

/// How a line that ends in its current position ends.
fn outcome_of<P: Rules>(line: &Line<P>, judged: bool) -> Outcome {
    match line.pos.as_deref() {
        Some(p) if judged => ending(p, line.in_check),
        _ => Outcome::Unknown,
    }
}

/// How a game standing at `p` has ended, if it has; `in_check` says whether the side to move
/// is in check.
pub(super) fn ending<P: Rules>(p: &P, in_check: bool) -> Outcome {
    match p.variant_end() {
        Some((KnownOutcome::Decisive { winner }, variant)) => {
            Outcome::VariantWin { winner, variant }
        }
        Some((KnownOutcome::Draw, variant)) => Outcome::VariantDraw { variant },
        None if in_check && p.is_checkmate_in_check() => Outcome::Checkmate { winner: !p.turn() },
        None if !in_check && p.is_stalemate_out_of_check() => Outcome::Stalemate,
        None => Outcome::Open,
    }
}

/// The check or mate sign `text` ends with, if any.
fn trailing_sign(text: &str) -> Option<Suffix> {
    match text.as_bytes().last() {
        Some(b'+') => Some(Suffix::Check),
        Some(b'#') => Some(Suffix::Checkmate),
        _ => None,
    }
}

/// `text` followed by `sign`, if any.
fn with_sign(text: &str, sign: Option<Suffix>) -> String {
    text.chars().chain(sign.map(Suffix::char)).collect()
}
