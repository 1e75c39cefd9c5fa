//! Formatting loses nothing (DESIGN §5): formatting the output again changes nothing, the
//! output has the input's content (`fmt::content`: tags, moves, NAGs, comment text,
//! variations, escape lines; games with structural errors byte for byte), and parsing and
//! analysing the output gives no diagnostic the input did not have (formatting is meant to
//! remove some, such as over-long lines, never to add one).

use std::collections::BTreeMap;

use arbitrary::Unstructured;
use pgn_lsp::chess::analyze;
use pgn_lsp::fmt::{FormatOptions, content::compare_texts, format_text};
use pgn_lsp::syntax::{Code, parse_games};

/// Line widths the cases use: the standard's, a narrow one, and the narrowest allowed.
const WIDTHS: &[usize] = &[80, 40, 12, 2];

#[derive(Clone, Debug)]
pub struct Case {
    pub options: FormatOptions,
    pub text: String,
}

/// The options come from the first bytes, the text is what is left.
pub fn decode(data: &[u8]) -> Case {
    let mut u = Unstructured::new(data);
    let options = options(&mut u).unwrap_or_default();
    Case { options, text: super::rest_as_text(u) }
}

pub fn options(u: &mut Unstructured<'_>) -> arbitrary::Result<FormatOptions> {
    Ok(FormatOptions {
        line_width: *u.choose(WIDTHS)?,
        reflow_comments: u.arbitrary()?,
        add_missing_tags: u.arbitrary()?,
        reduced: u.ratio(1, 8)?,
    })
}

pub fn run(data: &[u8]) {
    check(&decode(data));
}

pub fn check(case: &Case) {
    if let Err(e) = round_trip(&case.text, &case.options) {
        let output = format_text(&case.text, &case.options);
        panic!("{e}\noptions: {:?}\ninput: {:?}\noutput: {output:?}", case.options, case.text);
    }
}

/// Idempotence, unchanged content and no new diagnostics; returns the number of games compared.
pub fn round_trip(text: &str, options: &FormatOptions) -> Result<usize, String> {
    let once = format_text(text, options);
    let twice = format_text(&once, options);
    if twice != once {
        let line = once.lines().zip(twice.lines()).position(|(a, b)| a != b).unwrap_or(0);
        let show =
            |t: &str| t.lines().skip(line.saturating_sub(1)).take(3).collect::<Vec<_>>().join("⏎");
        return Err(format!(
            "not idempotent at output line {}: {:?} became {:?}",
            line + 1,
            show(&once),
            show(&twice)
        ));
    }
    let games = compare_texts(text, &once, options).map_err(|e| e.to_string())?;
    let (before, after) = (diagnostic_codes(text), diagnostic_codes(&once));
    let new: Vec<String> = after
        .iter()
        .filter(|(code, n)| **n > before.get(*code).copied().unwrap_or(0))
        .map(|(code, n)| format!("{} ({} > {})", code.as_str(), n, before.get(code).unwrap_or(&0)))
        .collect();
    if !new.is_empty() {
        return Err(format!("new diagnostics: {}", new.join(", ")));
    }
    Ok(games)
}

/// How many diagnostics of each code the parser and the chess analysis give on `text`, leaving
/// out those formatting is meant to remove.
fn diagnostic_codes(text: &str) -> BTreeMap<Code, usize> {
    let mut codes = BTreeMap::new();
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        for d in analyze(&game, src).with_syntax_diagnostics(game.diagnostics) {
            if d.code != Code::LineTooLong {
                *codes.entry(d.code).or_insert(0) += 1;
            }
        }
    }
    codes
}
