//! The chess replay agrees with shakmaty's own move generation on structured random games: a
//! game is built step by step from legal moves (in SAN, SAN without its check sign, UCI, long
//! algebraic, castling with zeros), moves no piece can make, moves two pieces can make, null
//! moves and nested variations, from one of a few start positions (FEN, Black to move,
//! Chess960), and the model below says what every move is. The replay must then:
//! - report `illegal-move` and `ambiguous-move` exactly at the moves made so, and no
//!   `invalid-san`;
//! - play every legal move as the move it was written from, with its canonical SAN, at its
//!   depth, and judge nothing in a line after its first bad move (§8.2.5: a variation starts
//!   from the position before the move it replaces, even a bad one);
//! - count the main line's plies and name its outcome as shakmaty does.

use std::collections::HashMap;

use arbitrary::Unstructured;
use pgn_lsp::chess::{self, Outcome};
use pgn_lsp::syntax::{Code, NodeKind, parse_games};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square};

/// Start positions: tag lines and the position they give.
const STARTS: &[(&str, Option<&str>, CastlingMode)] = &[
    ("", None, CastlingMode::Standard),
    (
        "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\"]\n",
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        CastlingMode::Standard,
    ),
    (
        "[SetUp \"1\"]\n[FEN \"r3k2r/1P4P1/8/2N1N3/8/8/1p4p1/R3K2R w KQkq - 0 1\"]\n",
        Some("r3k2r/1P4P1/8/2N1N3/8/8/1p4p1/R3K2R w KQkq - 0 1"),
        CastlingMode::Standard,
    ),
    (
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
         [FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n",
        Some("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
        CastlingMode::Chess960,
    ),
];

/// How a legal move is written.
#[derive(Clone, Copy, Debug)]
pub enum Style {
    San,
    SanWithoutCheckSign,
    Uci,
    LongAlgebraic,
    ZerosForCastling,
}

#[derive(Clone, Debug)]
pub enum Step {
    /// The legal move with this index (modulo their number).
    Legal {
        choice: u16,
        style: Style,
    },
    /// A piece going to a square no piece of its kind can reach.
    Illegal {
        choice: u16,
    },
    /// A move two pieces of one kind can make, written without saying which.
    Ambiguous {
        choice: u16,
    },
    Null,
    /// A variation replacing the last move.
    Variation(Vec<Step>),
}

#[derive(Clone, Debug)]
pub struct Case {
    pub start: usize,
    pub steps: Vec<Step>,
}

/// Deepest nesting and most steps a decoded case has.
const MAX_DEPTH: u32 = 4;
const MAX_STEPS: usize = 300;

pub fn decode(data: &[u8]) -> Case {
    let mut u = Unstructured::new(data);
    let start = u.choose_index(STARTS.len()).unwrap_or(0);
    let mut budget = MAX_STEPS;
    Case { start, steps: steps(&mut u, 0, &mut budget).unwrap_or_default() }
}

fn steps(u: &mut Unstructured<'_>, depth: u32, budget: &mut usize) -> arbitrary::Result<Vec<Step>> {
    let count = u.int_in_range(0..=40)?;
    let mut out = Vec::new();
    for _ in 0..count {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let choice = u.arbitrary()?;
        out.push(match u.int_in_range(0u8..=15)? {
            10 => Step::Illegal { choice },
            11 => Step::Ambiguous { choice },
            12 => Step::Null,
            13.. if depth < MAX_DEPTH => Step::Variation(steps(u, depth + 1, budget)?),
            n => Step::Legal { choice, style: style(n) },
        });
    }
    Ok(out)
}

pub fn style(n: u8) -> Style {
    match n % 5 {
        0 => Style::San,
        1 => Style::SanWithoutCheckSign,
        2 => Style::Uci,
        3 => Style::LongAlgebraic,
        _ => Style::ZerosForCastling,
    }
}

pub fn run(data: &[u8]) {
    check(&decode(data));
}

/// What the replay must make of one move.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    Played(Move, SanPlus),
    Illegal,
    Ambiguous,
    /// A null move (but by a side in check) or a move after a bad one: visited, not played.
    NotPlayed,
}

/// A game written from a case, and what the replay must find in it.
struct Written {
    text: String,
    /// Move offset → depth and expectation.
    moves: HashMap<u32, (u32, Expect)>,
    main_line_plies: u32,
    outcome: Outcome,
}

/// One line of play in the model: the position after its last move (`None` once the line has
/// gone wrong) and the position before it (where a variation replacing it starts).
struct Line {
    pos: Option<Chess>,
    before_last: Option<Chess>,
    has_move: bool,
}

struct Writer {
    text: String,
    moves: HashMap<u32, (u32, Expect)>,
    mode: CastlingMode,
    main_line_plies: u32,
}

impl Writer {
    fn token(&mut self, token: &str, depth: u32, expect: Expect) {
        self.text.push(' ');
        self.moves.insert(self.text.len() as u32, (depth, expect));
        self.text.push_str(token);
    }

    fn play(&mut self, steps: &[Step], line: &mut Line, depth: u32) {
        for step in steps {
            match step {
                Step::Variation(inner) => {
                    if !line.has_move {
                        continue;
                    }
                    let mut child =
                        Line { pos: line.before_last.clone(), before_last: None, has_move: false };
                    self.text.push_str(" (");
                    self.play(inner, &mut child, depth + 1);
                    self.text.push_str(" )");
                }
                _ => match line.pos.take() {
                    Some(pos) => self.judged(step, pos, line, depth),
                    None => {
                        let token = if matches!(step, Step::Null) { "--" } else { "Nf3" };
                        self.token(token, depth, Expect::NotPlayed);
                        line.before_last = None;
                        line.has_move = true;
                    }
                },
            }
        }
    }

    /// A move step in a line that is still judged (at `pos`).
    fn judged(&mut self, step: &Step, pos: Chess, line: &mut Line, depth: u32) {
        let legal = pos.legal_moves();
        let (token, expect, after) = match *step {
            Step::Legal { choice, style } => {
                let Some(&m) = legal.get(usize::from(choice) % legal.len().max(1)) else {
                    line.pos = Some(pos);
                    return;
                };
                let san = SanPlus::from_move(pos.clone(), m);
                let mut after = pos.clone();
                after.play_unchecked(m);
                (self.write(m, san, style), Expect::Played(m, san), Some(after))
            }
            Step::Illegal { choice } => {
                (unreachable_target(&pos, &legal, choice), Expect::Illegal, None)
            }
            Step::Ambiguous { choice } => match ambiguous_move(&legal, choice) {
                Some(token) => (token, Expect::Ambiguous, None),
                None => {
                    line.pos = Some(pos);
                    return;
                }
            },
            Step::Null => match pos.clone().swap_turn() {
                Ok(after) => ("--".to_owned(), Expect::NotPlayed, Some(after)),
                // A side in check cannot pass.
                Err(_) => ("--".to_owned(), Expect::Illegal, None),
            },
            Step::Variation(_) => unreachable!("variations are played by the caller"),
        };
        if depth == 0 && after.is_some() {
            self.main_line_plies += 1;
        }
        self.token(&token, depth, expect);
        line.before_last = Some(pos);
        line.pos = after;
        line.has_move = true;
    }

    fn write(&self, m: Move, san: SanPlus, style: Style) -> String {
        let uci = m.to_uci(self.mode).to_string();
        match style {
            Style::San => san.to_string(),
            Style::SanWithoutCheckSign => san.san.to_string(),
            Style::Uci => uci,
            Style::LongAlgebraic => format!("{}-{}", &uci[..2], &uci[2..]),
            Style::ZerosForCastling => san.to_string().replace('O', "0"),
        }
    }
}

/// `N`, `B`, `R`, `Q` or `K` and a square that no legal move of that piece reaches (a king's
/// castling squares count as reached).
fn unreachable_target(pos: &Chess, legal: &[Move], choice: u16) -> String {
    const ROLES: [Role; 5] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    let reaches = |role: Role, to: Square| {
        legal.iter().any(|m| {
            m.role() == role
                && (m.to() == to || m.castling_side().is_some_and(|s| s.king_to(pos.turn()) == to))
        })
    };
    (0..ROLES.len() * 64)
        .map(|i| (usize::from(choice) + i) % (ROLES.len() * 64))
        .map(|i| (ROLES[i / 64], Square::new((i % 64) as u32)))
        .find(|&(role, to)| !reaches(role, to))
        .map(|(role, to)| format!("{}{to}", role.upper_char()))
        .expect("no piece reaches every square")
}

/// A piece move (not a pawn's) that two legal moves match, written without disambiguation.
fn ambiguous_move(legal: &[Move], choice: u16) -> Option<String> {
    let pieces: Vec<&Move> = legal.iter().filter(|m| m.role() != Role::Pawn).collect();
    let pairs: Vec<&Move> = pieces
        .iter()
        .filter(|a| {
            pieces.iter().any(|b| {
                a.role() == b.role() && a.to() == b.to() && a.from() != b.from() && !a.is_castle()
            })
        })
        .copied()
        .collect();
    let m = pairs.get(usize::from(choice) % pairs.len().max(1))?;
    let capture = if m.is_capture() { "x" } else { "" };
    Some(format!("{}{capture}{}", m.role().upper_char(), m.to()))
}

fn write(case: &Case) -> Written {
    let (tags, fen, mode) = STARTS[case.start % STARTS.len()];
    let start: Chess = match fen {
        Some(fen) => Fen::from_ascii(fen.as_bytes())
            .expect("the start FENs are valid")
            .into_position(mode)
            .expect("the start positions are legal"),
        None => Chess::default(),
    };
    let mut writer =
        Writer { text: format!("{tags}\n"), moves: HashMap::new(), mode, main_line_plies: 0 };
    let mut main = Line { pos: Some(start), before_last: None, has_move: false };
    writer.play(&case.steps, &mut main, 0);
    writer.text.push_str(" *\n");
    let outcome = match &main.pos {
        Some(p) if p.is_checkmate() => Outcome::Checkmate { winner: !p.turn() },
        Some(p) if p.is_stalemate() => Outcome::Stalemate,
        Some(_) => Outcome::Open,
        None => Outcome::Unknown,
    };
    Written {
        text: writer.text,
        moves: writer.moves,
        main_line_plies: writer.main_line_plies,
        outcome,
    }
}

pub fn check(case: &Case) {
    let written = write(case);
    let text = written.text.as_str();
    let games: Vec<_> = parse_games(text).collect();
    assert_eq!(games.len(), 1, "one game expected in {text:?}");
    let game = &games[0].1;

    let analysis = chess::analyze(game, text);
    let at = |code: Code| {
        let mut starts: Vec<u32> =
            analysis.diagnostics.iter().filter(|d| d.code == code).map(|d| d.range.start).collect();
        starts.sort();
        starts
    };
    let expected = |want: Expect| {
        let mut starts: Vec<u32> =
            written.moves.iter().filter(|(_, (_, e))| *e == want).map(|(&at, _)| at).collect();
        starts.sort();
        starts
    };
    assert_eq!(at(Code::IllegalMove), expected(Expect::Illegal), "illegal moves in {text}");
    assert_eq!(at(Code::AmbiguousMove), expected(Expect::Ambiguous), "ambiguous moves in {text}");
    assert_eq!(at(Code::InvalidSan), Vec::<u32>::new(), "invalid SAN in {text}");
    assert_eq!(analysis.main_line_plies, written.main_line_plies, "main line plies of {text}");
    assert_eq!(analysis.outcome, written.outcome, "outcome of {text}");

    let mut visited = 0;
    chess::replay(game, text, &mut |visit| {
        visited += 1;
        let node = game.nodes[visit.node];
        assert!(matches!(node.kind, NodeKind::Move | NodeKind::NullMove));
        let (depth, expect) = &written.moves[&node.range.start];
        assert_eq!(visit.depth, *depth, "depth of {} in {text}", &text[node.range]);
        match expect {
            Expect::Played(m, san) => {
                assert_eq!(visit.played, Some((*m, *san)), "{} in {text}", &text[node.range])
            }
            _ => assert_eq!(visit.played, None, "{} in {text}", &text[node.range]),
        }
    });
    assert_eq!(visited, written.moves.len(), "every move is visited once in {text}");
}
