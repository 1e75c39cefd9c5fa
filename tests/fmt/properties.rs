//! Property: random games from a small grammar (legal moves in several notations, illegal
//! moves, numbers right and wrong, suffixes, NAGs, glyphs, comments with commands and tag-like
//! text, `;` comments, escape lines, nested variations, tag sections with comments, random
//! whitespace and line ends) format idempotently, keep their content and keep the layout rules,
//! under every option set.

use proptest::prelude::*;
use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Position};

use pgn_lsp::fmt::FormatOptions;

use super::formatted_and_checked;

/// One step of a line of play.
#[derive(Clone, Debug)]
enum Step {
    /// The legal move with this index (modulo their number), in notation `style`.
    Move {
        choice: usize,
        style: u8,
    },
    /// A move that is not legal here.
    Illegal,
    /// A move number, right or not.
    Number(u16),
    Suffix(&'static str),
    Nag(u16),
    Glyph(&'static str),
    Comment(Vec<&'static str>),
    LineComment(&'static str),
    Escape(&'static str),
    /// A variation replacing the last move played.
    Variation(Vec<Step>),
}

const COMMENT_WORDS: &[&str] = &[
    "a",
    "good",
    "move",
    "é",
    "♘",
    "50%",
    ";",
    "{",
    "[%clk",
    "0:01:02]",
    "[%eval 0.25]",
    "[%cal Ge2e4,Gd2d4]",
    "[Event",
    "\"x\"]",
    "[",
    "Site",
    "\"y\"",
    "a-rather-long-word-of-forty-characters!!",
];
const SEPARATORS: &[&str] = &[" ", " ", " ", "\n", "  ", "\r\n", "\t"];

fn step() -> impl Strategy<Value = Step> {
    let leaf = prop_oneof![
        8 => (any::<usize>(), 0u8..5).prop_map(|(choice, style)| Step::Move { choice, style }),
        1 => Just(Step::Illegal),
        1 => (0u16..12).prop_map(Step::Number),
        1 => prop::sample::select(vec!["!", "?", "!!", "??", "!?", "?!"]).prop_map(Step::Suffix),
        1 => (0u16..300).prop_map(Step::Nag),
        1 => prop::sample::select(vec!["±", "N", "+-", "="]).prop_map(Step::Glyph),
        2 => prop::collection::vec(prop::sample::select(COMMENT_WORDS), 0..12).prop_map(Step::Comment),
        1 => prop::sample::select(vec!["note", "a longer note  ", ""]).prop_map(Step::LineComment),
        1 => prop::sample::select(vec!["% private", "%"]).prop_map(Step::Escape),
    ];
    leaf.prop_recursive(2, 40, 8, |inner| {
        prop::collection::vec(inner, 1..8).prop_map(Step::Variation)
    })
}

/// A random game: tag lines (some with notes), the movetext steps, whether it has a result,
/// and the separators to use between tokens.
fn game() -> impl Strategy<Value = String> {
    let tags = prop::collection::vec(
        (
            prop::sample::select(vec![
                "Event", "Site", "Date", "White", "Result", "WhiteElo", "ECO", "Zeta",
            ]),
            prop::sample::select(vec!["x", "A \\\"quoted\\\" name", "back\\\\slash", "", "1-0"]),
            prop::sample::select(vec!["", "", "", " ; note", "\n{ tag comment }", "\n% escape"]),
        ),
        0..6,
    );
    let moves = prop::collection::vec(step(), 0..30);
    let result = prop::sample::select(vec!["", "*", "1-0", "1/2-1/2", "1/2"]);
    let separators = prop::collection::vec(prop::sample::select(SEPARATORS), 64);
    (tags, moves, result, separators).prop_map(|(tags, moves, result, separators)| {
        let mut out = Writer { text: String::new(), separators, next: 0 };
        for (name, value, note) in tags {
            out.text.push_str(&format!("[{name} \"{value}\"]{note}\n"));
        }
        out.text.push('\n');
        play(&mut out, &moves, Chess::default());
        out.token(result);
        out.text.push_str("\n\n");
        out.text
    })
}

struct Writer {
    text: String,
    separators: Vec<&'static str>,
    next: usize,
}

impl Writer {
    fn token(&mut self, token: &str) {
        self.next += 1;
        self.text.push_str(self.separators[self.next % self.separators.len()]);
        self.text.push_str(token);
    }
}

/// Write a line of play from `pos`. Variations replay from the position before the last move.
fn play(out: &mut Writer, steps: &[Step], mut pos: Chess) {
    let mut before_last: Option<Chess> = None;
    let mut legal_so_far = true;
    for step in steps {
        match step {
            Step::Move { choice, style } if legal_so_far => {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    continue;
                }
                let m = moves[choice % moves.len()];
                let san = SanPlus::from_move(pos.clone(), m);
                let text = match style {
                    0 => san.to_string(),
                    1 => san.san.to_string(),
                    2 => m.to_uci(CastlingMode::Standard).to_string(),
                    3 if matches!(san.san, San::Castle(_)) => san.to_string().replace('O', "0"),
                    _ => {
                        let uci = m.to_uci(CastlingMode::Standard).to_string();
                        format!("{}-{}", &uci[..2], &uci[2..])
                    }
                };
                out.token(&text);
                before_last = Some(pos.clone());
                pos.play_unchecked(m);
            }
            Step::Move { .. } => out.token("Nf3"),
            Step::Illegal => {
                out.token("Ke5");
                legal_so_far = false;
            }
            Step::Number(n) => out.token(&format!("{n}.")),
            Step::Suffix(s) => out.text.push_str(s),
            Step::Nag(n) => out.token(&format!("${n}")),
            Step::Glyph(g) => out.token(g),
            Step::Comment(words) => {
                let mut comment = String::from("{");
                for (i, word) in words.iter().enumerate() {
                    comment.push_str(out.separators[(out.next + i) % out.separators.len()]);
                    comment.push_str(word);
                }
                comment.push('}');
                out.token(&comment);
            }
            Step::LineComment(text) => {
                out.token(&format!(";{text}"));
                out.text.push('\n');
            }
            Step::Escape(text) => {
                out.text.push('\n');
                out.text.push_str(text);
                out.text.push('\n');
            }
            Step::Variation(steps) => {
                if let Some(before) = &before_last {
                    out.token("(");
                    play(out, steps, before.clone());
                    out.token(")");
                }
            }
        }
    }
}

fn option_sets() -> Vec<FormatOptions> {
    let default = FormatOptions::default();
    vec![
        default.clone(),
        FormatOptions { reflow_comments: false, ..default.clone() },
        FormatOptions { reduced: true, ..default.clone() },
        FormatOptions { add_missing_tags: false, ..default.clone() },
        FormatOptions { line_width: 30, ..default },
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_games_format_idempotently_and_keep_their_content(
        games in prop::collection::vec(game(), 1..4)
    ) {
        let text = games.concat();
        for options in option_sets() {
            formatted_and_checked(&text, &options);
        }
    }
}
