//! The parallel driver of `check` and `fmt`. The text is cut into segments at likely game
//! boundaries (a tag line after a blank line), and each segment is parsed and its games handled
//! on one worker, segments in parallel: parsing is most of the work on a single core, so it is
//! shared out too.
//!
//! A segment is parsed from its start until the first game boundary at or past its end. The
//! games are those of a parse of the whole text as long as each segment starts where the one
//! before it stopped; where a cut was no game boundary (a blank line inside a tag section), the
//! segment is parsed again from where the one before really stopped, and is then exact too.
//!
//! Results come back in file order, a window of segments at a time, so memory holds the results
//! of a few segments whatever the size of the file.
//!
//! Lines are counted only where a game's first line is asked for (to print its diagnostics),
//! from the last line known; on several workers, a segment's first game that asks has the line
//! breaks of the segments before it in its window counted (each segment's once, by whichever
//! segment needs them first), so that no segment counts from far before its start and no worker
//! waits while another counts a whole window. Where no game asks (`fmt`, or `check` on a file
//! without diagnostics), no line is counted.

use std::cell::Cell;
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::syntax::{Game, is_tag_line, parse_game};
use crate::text::TextRange;

/// Segments are about this long, or shorter in short texts, so that every worker has several
/// (in unit tests, short enough that a test's text makes many windows).
const SEGMENT_BYTES: usize = if cfg!(test) { 4 << 10 } else { 1 << 20 };
/// The shortest segment worth a task of its own.
const MIN_SEGMENT_BYTES: usize = if cfg!(test) { 1 << 10 } else { 16 << 10 };
/// The most games a segment holds the results of: a text of tiny games with no tag line to cut
/// at (a million `1. e4 *`) would otherwise be one segment whose results, its diagnostics as
/// printed, can be many times the size of the text.
const MAX_GAMES_PER_SEGMENT: usize = 4096;
/// Segments per worker handled between two deliveries of results.
const SEGMENTS_PER_WINDOW: usize = 4;

/// A parsed game and where it lies in its file.
pub struct ParsedGame<'s> {
    pub game: Game,
    /// The game's range in the file.
    pub range: TextRange,
    /// The 0-based file line on which the game starts.
    pub first_line: FirstLine<'s>,
}

/// The line a game starts on, counted when asked for.
#[derive(Clone, Copy)]
pub struct FirstLine<'s> {
    lines: &'s LineCounter<'s>,
    offset: usize,
}

impl FirstLine<'_> {
    pub fn get(self) -> u32 {
        self.lines.line_at(self.offset)
    }
}

/// The lines of a segment's games, counted from the last line known when one is asked for.
struct LineCounter<'s> {
    text: &'s str,
    known: Cell<Cursor>,
    /// The window the segment was parsed in (with the segment's place in it), whose segment
    /// starts give a line known closer than `known` the first time a line is asked for.
    window: Cell<Option<(&'s WindowLines<'s>, usize)>>,
}

impl LineCounter<'_> {
    fn line_at(&self, offset: usize) -> u32 {
        if let Some((window, segment)) = self.window.take() {
            self.known.set(window.segment_start(segment));
        }
        let at = self.known.get().moved_to(offset, self.text);
        self.known.set(at);
        at.line
    }

    /// The last line known: the segment's start once its window's lines are counted, if none
    /// was asked for here.
    fn last_known(&self) -> Cursor {
        let counted = self.window.get().and_then(|(window, segment)| window.counted(segment));
        counted.unwrap_or(self.known.get())
    }
}

/// The lines the segments of a window start on, each segment's line breaks counted once, when a
/// game of a later segment first asks for its line.
struct WindowLines<'s> {
    text: &'s str,
    /// The segments, as `(start, end)`, one after the other.
    segments: &'s [(usize, usize)],
    /// A line known at or before the window's start.
    known: Cursor,
    /// Where the first segment starts, and the line breaks of each segment.
    first: OnceLock<Cursor>,
    within: Vec<OnceLock<u32>>,
}

impl<'s> WindowLines<'s> {
    fn new(text: &'s str, segments: &'s [(usize, usize)], known: Cursor) -> Self {
        let within = segments.iter().map(|_| OnceLock::new()).collect();
        WindowLines { text, segments, known, first: OnceLock::new(), within }
    }

    /// The line `segment` starts on. The segments before it are counted by whichever segment
    /// first asks (on its own thread, as nothing else runs there while it counts): a segment
    /// asks for the one just before, which its worker counts while another worker parses it,
    /// rather than every worker waiting for the first to count the whole window.
    fn segment_start(&self, segment: usize) -> Cursor {
        let first = self.first.get_or_init(|| self.known.moved_to(self.segments[0].0, self.text));
        let mut line = first.line;
        for (&(start, end), breaks) in self.segments.iter().zip(&self.within).take(segment) {
            line += *breaks.get_or_init(|| count_line_breaks(&self.text[start..end]));
        }
        Cursor { offset: self.segments[segment].0, line }
    }

    /// The line `segment` starts on, if the line breaks before it have been counted.
    fn counted(&self, segment: usize) -> Option<Cursor> {
        let mut line = self.first.get()?.line;
        for breaks in &self.within[..segment] {
            line += breaks.get()?;
        }
        Some(Cursor { offset: self.segments[segment].0, line })
    }
}

/// Parse `text` game by game, call `handle` on every game (in parallel, in no set order), and
/// pass the results, in file order and a segment at a time, to `sink` together with the number
/// of bytes handled so far. Stops at the first error of `sink`.
pub fn for_each_batch<R, E>(
    text: &str,
    handle: impl Fn(ParsedGame) -> R + Sync,
    mut sink: impl FnMut(Vec<R>, usize) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    let workers = rayon::current_num_threads();
    let cuts = cut_points(text, workers);
    // Where the next segment must start (the end of the last game handed on), and the last
    // line known.
    let mut next = 0;
    let mut lines = Cursor { offset: 0, line: 0 };
    let segments: Vec<(usize, usize)> = cuts.windows(2).map(|cut| (cut[0], cut[1])).collect();
    for window in segments.chunks(workers * SEGMENTS_PER_WINDOW) {
        // One worker parses the segments in order, each from where the one before ended.
        let parsed = if workers > 1 {
            let window = WindowLines::new(text, window, lines);
            parse_window(&window, &handle)
        } else {
            vec![]
        };
        let mut parsed = parsed.into_iter();
        for &(_, end) in window {
            let mut segment = match parsed.next() {
                Some(segment) if segment.start == next => segment,
                // The cut was no game boundary (or nothing was parsed ahead): parse from where
                // the games really are.
                _ => Segment::parse(text, next, lines, None, end, &handle),
            };
            loop {
                (next, lines) = (segment.end, segment.lines);
                if !segment.results.is_empty() {
                    sink(segment.results, next)?;
                }
                if next >= end {
                    break;
                }
                // The segment stopped at its most games: go on from there.
                segment = Segment::parse(text, next, lines, None, end, &handle);
            }
        }
    }
    Ok(())
}

/// The segments of a window parsed in parallel, each at its cut.
fn parse_window<R: Send>(
    window: &WindowLines<'_>,
    handle: &(impl Fn(ParsedGame) -> R + Sync),
) -> Vec<Segment<R>> {
    let parse = |(i, &(start, end)): (usize, &(usize, usize))| {
        Segment::parse(window.text, start, window.known, Some((window, i)), end, handle)
    };
    window.segments.par_iter().enumerate().map(parse).collect()
}

/// An offset of the text and the 0-based line it is on.
#[derive(Clone, Copy)]
struct Cursor {
    offset: usize,
    line: u32,
}

impl Cursor {
    /// The cursor at `offset` of `text`, counting the lines between.
    fn moved_to(self, offset: usize, text: &str) -> Cursor {
        let line = if offset >= self.offset {
            self.line + count_line_breaks(&text[self.offset..offset])
        } else {
            self.line - count_line_breaks(&text[offset..self.offset])
        };
        Cursor { offset, line }
    }
}

/// The handled games of one segment.
struct Segment<R> {
    /// Where its first game starts.
    start: usize,
    /// Where its last game ends.
    end: usize,
    /// The last line known.
    lines: Cursor,
    results: Vec<R>,
}

impl<R> Segment<R> {
    /// Parse and handle the games from `start` (a game boundary, or a cut believed to be one)
    /// until the first game boundary at or past `end`, or until [`MAX_GAMES_PER_SEGMENT`]
    /// games; `lines` is a line known at or before `start`, `window` the window and place of a
    /// segment parsed ahead.
    fn parse<'s>(
        text: &'s str,
        start: usize,
        lines: Cursor,
        window: Option<(&'s WindowLines<'s>, usize)>,
        end: usize,
        handle: &(impl Fn(ParsedGame) -> R + Sync),
    ) -> Segment<R> {
        let lines = LineCounter { text, known: Cell::new(lines), window: Cell::new(window) };
        let mut at = start;
        let mut results = Vec::new();
        while at < end && results.len() < MAX_GAMES_PER_SEGMENT {
            let game = parse_game(&text[at..]);
            let range = TextRange::new(at as u32, (at + game.len as usize) as u32);
            let first_line = FirstLine { lines: &lines, offset: at };
            at = range.end as usize;
            results.push(handle(ParsedGame { game, range, first_line }));
        }
        Segment { start, end: at, lines: lines.last_known(), results }
    }
}

/// The `\n`s in `text`: the lines of `check`'s messages, as terminals and go-to-line count
/// them in LF and CRLF files (the server counts a lone `\r` too, as the protocol does).
fn count_line_breaks(text: &str) -> u32 {
    memchr::memchr_iter(b'\n', text.as_bytes()).count() as u32
}

/// The cuts of `text` into segments: `0`, the starts of tag lines after a blank line about
/// every segment length, and the length of the text.
fn cut_points(text: &str, workers: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let target = (text.len() / (workers * SEGMENTS_PER_WINDOW).max(1))
        .clamp(MIN_SEGMENT_BYTES, SEGMENT_BYTES);
    let mut cuts = vec![0];
    let mut at = target;
    while at < bytes.len() {
        let Some(cut) = tag_line_after_blank_line(bytes, at) else { break };
        cuts.push(cut);
        at = cut + target;
    }
    cuts.push(text.len());
    cuts
}

/// The start of the first line at or after `from` that starts a tag pair and follows a blank
/// line: where a game most likely starts.
fn tag_line_after_blank_line(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let line = at + memchr::memmem::find(&bytes[at..], b"\n[")? + 1;
        let blank_before = matches!(bytes[..line - 1], [.., b'\n'] | [.., b'\n', b'\r']);
        if blank_before && is_tag_line(&bytes[line..]) {
            return Some(line);
        }
        at = line;
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
            |g| {
                (g.first_line.get(), text.as_str()[g.range].lines().next().unwrap_or("").to_owned())
            },
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

    /// Games, lines and order as a parse of the whole text gives them, also where segments are
    /// cut inside a game (a blank line in a tag section) or a game spans several segments; on
    /// one worker (segments parsed in order) and on several (parsed ahead in parallel).
    #[test]
    fn segments_give_the_games_of_the_whole_text() {
        let mut text = String::new();
        for i in 0..3000 {
            match i % 3 {
                0 => text += &format!("[Event \"{i}\"]\n\n[Site \"s\"]\n\n1. e4 e5 *\n\n"),
                1 => text += &format!("[Event \"{i}\"]\n1. d4 {{ {} }} *\n\n", "x".repeat(i)),
                _ => text += "1. c4 *\n",
            }
        }
        let mut expected = Vec::new();
        let mut line = 0u32;
        for (start, game) in crate::syntax::parse_games(&text) {
            let range = TextRange::new(start, start + game.len);
            expected.push((range, line));
            line += count_line_breaks(&text.as_str()[range]);
        }
        // Every game asks for its line, or one in 97 (many windows then count none, and a
        // window that does counts from a line known windows before).
        for asks in [1, 97] {
            let expected: Vec<_> = expected
                .iter()
                .enumerate()
                .map(|(i, &(range, line))| (range, (i % asks == 0).then_some(line)))
                .collect();
            let index =
                |range: TextRange| expected.partition_point(|&(r, _)| r.start < range.start);
            for workers in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(workers).build().unwrap();
                let mut seen = Vec::new();
                let done = pool.install(|| {
                    for_each_batch(
                        &text,
                        |g| (g.range, (index(g.range) % asks == 0).then(|| g.first_line.get())),
                        |results, _| {
                            seen.extend(results);
                            Ok::<(), ()>(())
                        },
                    )
                });
                assert_eq!(done, Ok(()));
                assert!(seen == expected, "{workers} workers, one game in {asks} asking");
            }
        }
    }

    /// Without a tag line to cut at, the games still come a bounded number at a time, all of
    /// them, in order.
    #[test]
    fn games_without_tags_come_a_bounded_number_at_a_time() {
        let games = 3 * MAX_GAMES_PER_SEGMENT + 5;
        let text = "1. e4 *\n".repeat(games);
        let mut seen = Vec::new();
        let mut largest = 0;
        let done = for_each_batch(
            &text,
            |g| g.first_line.get(),
            |results, _| {
                largest = largest.max(results.len());
                seen.extend(results);
                Ok::<(), ()>(())
            },
        );
        assert_eq!(done, Ok(()));
        assert_eq!(largest, MAX_GAMES_PER_SEGMENT);
        assert_eq!(seen, (0..games as u32).collect::<Vec<_>>());
    }
}
