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
//! Results come back in file order, a segment at a time. The workers parse a few segments ahead
//! of the one whose results are handed on next, no more, so memory holds the results of a few
//! segments whatever the size of the file; the thread that hands them on parses segments ahead
//! too while it waits. Before, the segments were parsed a window at a time, and at the end of
//! each window a worker waited for the other's last segment: `check --jobs 2` of the TCEC
//! archive took 6% longer (medians of eight rounds, 114.7 against 107.7 ms, 2026-11-23).
//!
//! Lines are counted only where a game's first line is asked for (to print its diagnostics):
//! on one worker from the last line known, carried from segment to segment; a segment parsed
//! ahead on several workers starts from the nearest block start of the file's line breaks,
//! counted in the UTF-8 check (`input`), or here when a game first asks. Where no game asks
//! (`fmt`, or `check` on a file without diagnostics), no line is counted here.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, OnceLock};
use std::thread;

use rayon::Yield;

use super::line_breaks::{Cursor, LineBreaks};
use crate::syntax::{Game, is_tag_line, parse_game};
use crate::text::TextRange;

/// Segments are about this long, or shorter in short texts, so that every worker has several
/// (in unit tests, short enough that a test's text makes many segments).
const SEGMENT_BYTES: usize = if cfg!(test) { 4 << 10 } else { 1 << 20 };
/// The shortest segment worth a task of its own.
const MIN_SEGMENT_BYTES: usize = if cfg!(test) { 1 << 10 } else { 16 << 10 };
/// The most games a segment holds the results of: a text of tiny games with no tag line to cut
/// at (a million `1. e4 *`) would otherwise be one segment whose results, its diagnostics as
/// printed, can be many times the size of the text.
const MAX_GAMES_PER_SEGMENT: usize = 4096;
/// Segments per worker parsed ahead of the one whose results are handed on next.
const SEGMENTS_AHEAD_PER_WORKER: usize = 4;

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
    /// The last line known in the segment: none yet in a segment parsed ahead.
    known: Cell<Option<Cursor>>,
    /// The file's line breaks, counted when a segment parsed ahead first asks for a line, if
    /// they were not counted before.
    line_breaks: &'s OnceLock<LineBreaks>,
}

impl LineCounter<'_> {
    fn line_at(&self, offset: usize) -> u32 {
        let known = self.known.get().filter(|known| known.offset <= offset);
        // The nearer of the last line known and the start of the offset's block: on one worker
        // the file's line breaks are never needed, nor counted.
        let block = match known {
            Some(_) => self.line_breaks.get(),
            None => Some(self.line_breaks.get_or_init(|| LineBreaks::count(self.text.as_bytes()))),
        }
        .map(|line_breaks| line_breaks.block_before(offset));
        let from = known.into_iter().chain(block).max_by_key(|cursor| cursor.offset);
        let at = from.unwrap_or(Cursor::START).moved_to(offset, self.text.as_bytes());
        self.known.set(Some(at));
        at.line
    }
}

/// Parse `text` game by game, call `handle` on every game (in parallel, in no set order), and
/// pass the results, in file order and a segment at a time, to `sink` together with the number
/// of bytes handled so far. Stops at the first error of `sink`. `line_breaks` are the text's,
/// if they were counted already.
pub fn for_each_batch<R, E>(
    text: &str,
    line_breaks: Option<LineBreaks>,
    handle: impl Fn(ParsedGame) -> R + Sync,
    mut sink: impl FnMut(Vec<R>, usize) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    let workers = rayon::current_num_threads();
    let cuts = cut_points(text, workers);
    let line_breaks = line_breaks.map_or_else(OnceLock::new, OnceLock::from);
    let segments: Vec<(usize, usize)> = cuts.windows(2).map(|cut| (cut[0], cut[1])).collect();
    // One worker parses the segments in order, each from where the one before ended.
    let ahead = if workers > 1 { workers * SEGMENTS_AHEAD_PER_WORKER } else { 0 };
    let parsed_ahead = ParsedAhead::new(segments.len());
    let parse = |start, lines, end| Segment::parse(text, start, lines, &line_breaks, end, &handle);
    rayon::in_place_scope_fifo(|scope| {
        let parse_ahead = |i: usize| {
            if let Some(&(start, end)) = segments.get(i) {
                let (parse, parsed_ahead) = (&parse, &parsed_ahead);
                // A panic is carried to the thread that takes the segment and raised again
                // there, so nothing sees what the parse left half done.
                let parse = AssertUnwindSafe(move || parse(start, None, end));
                scope.spawn_fifo(move |_| parsed_ahead.put(i, panic::catch_unwind(parse)));
            }
        };
        (0..ahead).for_each(parse_ahead);
        // Where the next segment must start (the end of the last game handed on), and the last
        // line known.
        let mut next = 0;
        let mut lines = Some(Cursor::START);
        for (i, &(_, end)) in segments.iter().enumerate() {
            let parsed = if ahead > 0 {
                let parsed = parsed_ahead.take(i);
                parse_ahead(i + ahead);
                Some(parsed.unwrap_or_else(|panic| panic::resume_unwind(panic)))
            } else {
                None
            };
            let mut segment = match parsed {
                Some(segment) if segment.start == next => segment,
                // The cut was no game boundary (or nothing was parsed ahead): parse from where
                // the games really are.
                _ => parse(next, lines, end),
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
                segment = parse(next, lines, end);
            }
        }
        Ok(())
    })
}

/// The segments parsed ahead (or the panic of their parse), each in its place until it is
/// taken.
struct ParsedAhead<R> {
    segments: Mutex<Vec<Option<thread::Result<Segment<R>>>>>,
    put: Condvar,
}

impl<R> ParsedAhead<R> {
    fn new(segments: usize) -> Self {
        ParsedAhead {
            segments: Mutex::new((0..segments).map(|_| None).collect()),
            put: Condvar::new(),
        }
    }

    fn put(&self, i: usize, segment: thread::Result<Segment<R>>) {
        self.segments.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(segment);
        self.put.notify_all();
    }

    /// Segment `i`, once parsed. Meanwhile this thread parses segments further ahead, and
    /// sleeps only when none is left to start.
    fn take(&self, i: usize) -> thread::Result<Segment<R>> {
        loop {
            let mut segments = self.segments.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(segment) = segments[i].take() {
                return segment;
            }
            drop(segments);
            if rayon::yield_now() != Some(Yield::Executed) {
                // Segment `i` is being parsed on another worker (only this thread starts
                // segments, and none is waiting to start).
                let segments = self.segments.lock().unwrap_or_else(|e| e.into_inner());
                drop(self.put.wait_while(segments, |segments| segments[i].is_none()));
            }
        }
    }
}

/// The handled games of one segment.
struct Segment<R> {
    /// Where its first game starts.
    start: usize,
    /// Where its last game ends.
    end: usize,
    /// The last line known, if any.
    lines: Option<Cursor>,
    results: Vec<R>,
}

impl<R> Segment<R> {
    /// Parse and handle the games from `start` (a game boundary, or a cut believed to be one)
    /// until the first game boundary at or past `end`, or until [`MAX_GAMES_PER_SEGMENT`]
    /// games; `lines` is a line known at or before `start`, if any, and `line_breaks` the
    /// file's, once counted.
    fn parse(
        text: &str,
        start: usize,
        lines: Option<Cursor>,
        line_breaks: &OnceLock<LineBreaks>,
        end: usize,
        handle: &(impl Fn(ParsedGame) -> R + Sync),
    ) -> Segment<R> {
        let lines = LineCounter { text, known: Cell::new(lines), line_breaks };
        let mut at = start;
        let mut results = Vec::new();
        while at < end && results.len() < MAX_GAMES_PER_SEGMENT {
            let game = parse_game(&text[at..]);
            let range = TextRange::new(at as u32, (at + game.len as usize) as u32);
            let first_line = FirstLine { lines: &lines, offset: at };
            at = range.end as usize;
            results.push(handle(ParsedGame { game, range, first_line }));
        }
        Segment { start, end: at, lines: lines.known.get(), results }
    }
}

/// The cuts of `text` into segments: `0`, the starts of tag lines after a blank line about
/// every segment length, and the length of the text.
fn cut_points(text: &str, workers: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let target = (text.len() / (workers * SEGMENTS_AHEAD_PER_WORKER).max(1))
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
    use crate::cli::line_breaks::count_line_breaks;

    #[test]
    fn results_come_in_file_order_with_line_numbers() {
        let text: String = (1..=5000).map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n")).collect();
        let mut seen = Vec::new();
        let mut batches = 0;
        let handled = for_each_batch(
            &text,
            None,
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
            None,
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
            line += count_line_breaks(text.as_str()[range].as_bytes());
        }
        // Every game asks for its line, or one in 97 (many segments then ask for none, and a
        // segment that does counts from a line known segments before, or from its block). The
        // file's line breaks are given, counted before, or counted when first needed.
        let counted = LineBreaks::count(text.as_bytes());
        for asks in [1, 97] {
            let expected: Vec<_> = expected
                .iter()
                .enumerate()
                .map(|(i, &(range, line))| (range, (i % asks == 0).then_some(line)))
                .collect();
            let index =
                |range: TextRange| expected.partition_point(|&(r, _)| r.start < range.start);
            for (workers, line_breaks) in [1, 2, 3]
                .into_iter()
                .flat_map(|workers| [(workers, None), (workers, Some(counted.clone()))])
            {
                let given = line_breaks.is_some();
                let pool = rayon::ThreadPoolBuilder::new().num_threads(workers).build().unwrap();
                let mut seen = Vec::new();
                let done = pool.install(|| {
                    for_each_batch(
                        &text,
                        line_breaks,
                        |g| (g.range, (index(g.range) % asks == 0).then(|| g.first_line.get())),
                        |results, _| {
                            seen.extend(results);
                            Ok::<(), ()>(())
                        },
                    )
                });
                assert_eq!(done, Ok(()));
                let case = format!("{workers} workers, one game in {asks} asking, given {given}");
                assert!(seen == expected, "{case}");
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
            None,
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

    /// On several workers, parsing runs a few segments ahead of the results handed on, no
    /// more, whatever the length of the text.
    #[test]
    fn parsing_stays_a_few_segments_ahead_of_the_results() {
        let text: String = (0..20_000).map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n")).collect();
        let furthest = std::sync::atomic::AtomicUsize::new(0);
        let mut ahead_most = 0;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let done = pool.install(|| {
            for_each_batch(
                &text,
                None,
                |g| furthest.fetch_max(g.range.end as usize, std::sync::atomic::Ordering::Relaxed),
                |_, done| {
                    let furthest = furthest.load(std::sync::atomic::Ordering::Relaxed);
                    ahead_most = ahead_most.max(furthest.saturating_sub(done));
                    Ok::<(), ()>(())
                },
            )
        });
        assert_eq!(done, Ok(()));
        // The segments parsed ahead, and the one after them that a worker may have started.
        let bound = (2 * SEGMENTS_AHEAD_PER_WORKER + 1) * (SEGMENT_BYTES + 32);
        assert!(ahead_most > 0, "parsed ahead");
        assert!(ahead_most <= bound, "{ahead_most} bytes ahead, at most {bound}");
        assert!(text.len() > 10 * bound, "a text much longer than what is parsed ahead");
    }

    /// A panic in a worker is raised again where the results are handed on, rather than
    /// leaving the run waiting for a segment that never comes.
    #[test]
    fn a_panic_on_a_worker_reaches_the_caller() {
        let text = "[Event \"e\"]\n\n1. e4 *\n\n".repeat(5000);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| {
                for_each_batch(
                    &text,
                    None,
                    |g| assert!(g.range.start < 50_000, "a game past 50,000"),
                    |_, _| Ok::<(), ()>(()),
                )
            })
        }));
        let panic = run.expect_err("the panic reaches the caller");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"a game past 50,000"));
    }
}
