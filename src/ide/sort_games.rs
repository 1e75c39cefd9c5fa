//! The "sort games" source action: the games of a document put in the PGN collating sequence
//! (§12): by Date, Event, Site, Round, White, Black, Result and then the movetext itself. Each
//! game moves whole and as written; games are separated by one empty line afterwards. Text
//! before the first game that is no game (a byte order mark, a file comment) stays first.

use std::cmp::Ordering;

use crate::syntax::{Game, TextSource, parse_game_at, parse_games};
use crate::text::{TextEdit, line_break_of, minimal_edit};

use super::analysis::DocumentAnalysis;
use super::walk::{content_range, movetext_range};

/// The edit that sorts the games of the document, or `None` when they are sorted already, or
/// when sorting could not keep every game as it is (a game that would run into the one before
/// it once moved, commentary between games).
pub fn sort_games(analysis: &DocumentAnalysis, text: &dyn TextSource) -> Option<TextEdit> {
    if analysis.game_count() < 2 {
        return None;
    }
    let whole = text.read(0, text.len());
    let mut prelude = if whole.starts_with('\u{feff}') { "\u{feff}".len() } else { 0 };
    let mut games: Vec<(CollationKey, &str)> = Vec::with_capacity(analysis.game_count());
    for (i, (start, _)) in analysis.games().enumerate() {
        let (game, src) = parse_game_at(&whole.as_str(), start as usize);
        if game.tags.is_empty() && game.nodes.is_empty() {
            if i > 0 {
                return None;
            }
            prelude = start as usize + src.len();
            continue;
        }
        games.push((CollationKey::of(&game, &src), content(&whole, start, &game)));
    }
    let mut sorted = games.clone();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    if sorted.iter().map(|g| g.1).eq(games.iter().map(|g| g.1)) {
        return None;
    }
    let newline = line_break_of(&whole);
    let mut new_text = whole[..prelude].to_owned();
    for (i, (_, game)) in sorted.iter().enumerate() {
        if i > 0 {
            new_text.push_str(newline);
            new_text.push_str(newline);
        }
        new_text.push_str(game);
    }
    new_text.push_str(newline);
    // Every game must come back as the same game, in its new place, to the byte.
    let expected = game_contents(&whole[..prelude]).chain(sorted.iter().map(|g| g.1));
    if !game_contents(&new_text).eq(expected) {
        tracing::warn!("sort games: the games would not come back as they were; no edit");
        return None;
    }
    minimal_edit(&whole, &new_text)
}

/// The text of each game of `text` from its first element to the end of its last (games of
/// blanks alone left out).
fn game_contents(text: &str) -> impl Iterator<Item = &str> {
    parse_games(text)
        .map(|(start, game)| content(text, start, &game))
        .filter(|content| !content.is_empty())
}

/// The text of `game`, which starts at `start` of `text`, from its first element to the end of
/// its last: the blanks around it are the separators, but a blank inside an element (an
/// unclosed tag value) is its own.
fn content<'a>(text: &'a str, start: u32, game: &Game) -> &'a str {
    &text[content_range(game).shift(start).to_usize()]
}

/// The eight keys of §12, in order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct CollationKey {
    /// Year, month and day; `?` digits count as `0`.
    date: [u32; 3],
    event: String,
    site: String,
    round: RoundKey,
    white: String,
    black: String,
    result: String,
    movetext: String,
}

impl CollationKey {
    fn of(game: &Game, src: &str) -> CollationKey {
        let tag = |name| game.tag_value(name, src).unwrap_or_default().into_owned();
        CollationKey {
            date: date_key(&tag("Date")),
            event: tag("Event"),
            site: tag("Site"),
            round: RoundKey::of(&tag("Round")),
            white: tag("White"),
            black: tag("Black"),
            result: tag("Result"),
            // From the opening commentary or first node to the end of the last node, so that
            // the blanks after the game, which sorting writes anew, do not count.
            movetext: movetext_range(game).map_or("", |m| &src[m.to_usize()]).to_owned(),
        }
    }
}

/// The numeric fields of a date, `?` read as `0` (§12).
fn date_key(date: &str) -> [u32; 3] {
    let mut key = [0; 3];
    for (field, part) in key.iter_mut().zip(date.split('.')) {
        let digits: String = part.chars().map(|c| if c == '?' { '0' } else { c }).collect();
        *field = digits.parse().unwrap_or(0);
    }
    key
}

/// A round: `?` before `-` before the integers (§12), in numeric order part by part
/// (`4.1.2`); other text last.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RoundKey {
    Unknown,
    NotApplicable,
    Number(Vec<u64>),
    Other(String),
}

impl RoundKey {
    fn of(round: &str) -> RoundKey {
        match round {
            "?" | "" => RoundKey::Unknown,
            "-" => RoundKey::NotApplicable,
            _ => match round.split('.').map(str::parse).collect::<Result<Vec<u64>, _>>() {
                Ok(parts) => RoundKey::Number(parts),
                Err(_) => RoundKey::Other(round.to_owned()),
            },
        }
    }

    fn rank(&self) -> u8 {
        match self {
            RoundKey::Unknown => 0,
            RoundKey::NotApplicable => 1,
            RoundKey::Number(_) => 2,
            RoundKey::Other(_) => 3,
        }
    }
}

impl Ord for RoundKey {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (RoundKey::Number(a), RoundKey::Number(b)) => a.cmp(b),
            (RoundKey::Other(a), RoundKey::Other(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for RoundKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collating_keys_follow_section_12() {
        assert!(date_key("1992.??.??") < date_key("1992.01.01"));
        assert_eq!(date_key("????.??.??"), [0, 0, 0]);
        let rounds = ["?", "-", "2", "10", "10.2", "x"].map(RoundKey::of);
        assert!(rounds.windows(2).all(|w| w[0] < w[1]), "{rounds:?}");
    }
}
