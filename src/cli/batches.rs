//! The parallel driver of `check`: games are parsed one after another (finding where a game
//! ends needs the one before), gathered in batches of bounded size, and each batch is handled
//! in parallel on the current rayon pool while the next batch is parsed. Results come back in
//! file order, one batch at a time, so memory holds at most two batches of trees whatever the
//! size of the file.

use rayon::prelude::*;

use crate::syntax::{Game, parse_games};
use crate::text::TextRange;

/// A batch closes once its games hold this many bytes of text...
const BATCH_BYTES: usize = 4 << 20;
/// ...or this many games.
const BATCH_GAMES: usize = 2_000;

/// A parsed game and where it lies in its file.
pub struct ParsedGame {
    pub game: Game,
    /// The game's range in the file.
    pub range: TextRange,
    /// The 0-based file line on which the game starts.
    pub first_line: u32,
}

/// Parse `text` game by game, call `handle` on every game (in parallel, in no set order), and
/// pass the results of each batch, in file order, to `sink` together with the number of bytes
/// handled so far. Stops at the first error of `sink`.
pub fn for_each_batch<R, E>(
    text: &str,
    handle: impl Fn(ParsedGame) -> R + Sync,
    mut sink: impl FnMut(Vec<R>, usize) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    let mut reader = GameReader { games: parse_games(text), line: 0, text };
    let mut batch = reader.next_batch();
    while !batch.is_empty() {
        let done = batch.last().map_or(0, |g| g.range.end as usize);
        let (results, next) = rayon::join(
            || batch.into_par_iter().map(&handle).collect::<Vec<R>>(),
            || reader.next_batch(),
        );
        sink(results, done)?;
        batch = next;
    }
    Ok(())
}

/// Parses games and keeps count of lines.
struct GameReader<'a, I> {
    games: I,
    /// The 0-based line on which the next game starts.
    line: u32,
    text: &'a str,
}

impl<I: Iterator<Item = (u32, Game)>> GameReader<'_, I> {
    fn next_batch(&mut self) -> Vec<ParsedGame> {
        let mut batch = Vec::new();
        let mut bytes = 0usize;
        while bytes < BATCH_BYTES && batch.len() < BATCH_GAMES {
            let Some((start, game)) = self.games.next() else { break };
            let range = TextRange::new(start, start + game.len);
            let first_line = self.line;
            self.line += memchr::memchr_iter(b'\n', self.text[range].as_bytes()).count() as u32;
            bytes += game.len as usize;
            batch.push(ParsedGame { game, range, first_line });
        }
        batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_file_order_with_line_numbers() {
        let text: String = (1..=5000).map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n")).collect();
        let mut seen = Vec::new();
        let mut batches = 0;
        let handled = for_each_batch(
            &text,
            |g| (g.first_line, text.as_str()[g.range].lines().next().unwrap_or("").to_owned()),
            |results, done| -> Result<(), ()> {
                batches += 1;
                assert!(done <= text.len());
                seen.extend(results);
                Ok(())
            },
        );
        assert_eq!(handled, Ok(()));
        assert!(batches >= 3, "5000 games make several batches, got {batches}");
        let expected: Vec<(u32, String)> =
            (1..=5000u32).map(|i| ((i - 1) * 4, format!("[Event \"{i}\"]"))).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let text = "1. e4 *\n".repeat(5000);
        let mut calls = 0;
        let result = for_each_batch(
            &text,
            |_| (),
            |_, _| {
                calls += 1;
                Err("closed")
            },
        );
        assert_eq!((result, calls), (Err("closed"), 1));
    }
}
