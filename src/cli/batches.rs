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
//! A text longer than [`PIECE_BYTES`] is read a piece at a time (a game's range in its piece
//! is a `u32` offset, and a decompressed lichess archive is tens of GB): a piece starts at the
//! start of the line of its first game and ends anywhere; its games are those a parse of the
//! whole text gives, as only those it holds with the whole line of the token after them are
//! handled (the rule of `syntax::incremental`'s window), and the next piece starts with the first game left.
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

use super::line_breaks::{Cursor, LineBreaks, count_line_breaks};
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
/// Texts are read in pieces of about this length.
const PIECE_BYTES: usize = 1 << 30;
/// The longest piece: its offsets must fit in a `u32`.
const MAX_PIECE_BYTES: usize = u32::MAX as usize;

/// A parsed game and where it lies in its file.
pub struct ParsedGame<'s> {
    pub game: Game,
    /// The text of the piece of the file the game was read from: whole lines of the file.
    pub piece: &'s str,
    /// Where the piece starts in the file.
    pub piece_start: usize,
    /// The game's range in the piece.
    pub range: TextRange,
    /// The 0-based file line on which the game starts.
    pub first_line: FirstLine<'s>,
}

impl<'s> ParsedGame<'s> {
    /// The game's text.
    pub fn source(&self) -> &'s str {
        &self.piece[self.range]
    }

    /// Where the game starts in the file.
    pub fn start(&self) -> usize {
        self.piece_start + self.range.start as usize
    }

    /// Where the game ends in the file.
    pub fn end(&self) -> usize {
        self.piece_start + self.range.end as usize
    }
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
    /// The piece's text.
    text: &'s str,
    /// The file line on which the piece starts.
    first_line: u32,
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
        .map(|line_breaks| {
            let block = line_breaks.block_before(offset);
            Cursor { line: self.first_line + block.line, ..block }
        });
        let from = known.into_iter().chain(block).max_by_key(|cursor| cursor.offset);
        let start = Cursor { offset: 0, line: self.first_line };
        let at = from.unwrap_or(start).moved_to(offset, self.text.as_bytes());
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
    if text.len() <= PIECE_BYTES {
        let piece = Piece { text, start: 0, first_game: 0, first_line: 0, text_ends: true };
        return for_each_batch_in_piece(piece, line_breaks, &handle, &mut sink).map(drop);
    }
    for_each_batch_read(&mut Remainder(text), PIECE_BYTES, handle, sink)
}

/// A text read a piece at a time: what has been read of it and not yet taken.
pub trait TextReader {
    /// The text read and not yet taken.
    fn text(&self) -> &str;
    /// Read on until [`TextReader::text`] is at least `len` bytes long, or to the end of the
    /// input (where an error that ends the reading counts as the end; the reader keeps it).
    fn read_to(&mut self, len: usize);
    /// Whether [`TextReader::text`] runs to the end of the input.
    fn at_end(&self) -> bool;
    /// Drop the first `len` bytes of [`TextReader::text`] (up to a character boundary).
    fn take(&mut self, len: usize);
}

/// The rest of a text in memory, as a [`TextReader`].
struct Remainder<'t>(&'t str);

impl TextReader for Remainder<'_> {
    fn text(&self) -> &str {
        self.0
    }

    fn read_to(&mut self, _: usize) {}

    fn at_end(&self) -> bool {
        true
    }

    fn take(&mut self, len: usize) {
        self.0 = &self.0[len..];
    }
}

/// [`for_each_batch`] on the text `reader` reads, a piece of about `piece_bytes` at a time
/// (each piece's text is taken once its games are handled, so memory holds about a piece).
pub fn for_each_batch_read<R, E>(
    reader: &mut impl TextReader,
    piece_bytes: usize,
    handle: impl Fn(ParsedGame) -> R + Sync,
    mut sink: impl FnMut(Vec<R>, usize) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    // Where the reader's text starts in the whole text, its first game in it, and its line.
    let (mut start, mut first_game, mut first_line) = (0, 0, 0);
    let mut len = piece_bytes;
    loop {
        // The piece runs `len` bytes from its first game.
        let wanted = first_game + len;
        reader.read_to(wanted);
        let text = reader.text();
        let longest = MAX_PIECE_BYTES.min(text.len());
        let end = text.floor_char_boundary(wanted.min(longest));
        let whole = end == text.len() && reader.at_end();
        // A piece as long as a piece can be that holds no whole game (a game of 4 GiB) is read
        // as if the text ended there.
        let text_ends = whole || wanted >= MAX_PIECE_BYTES;
        let piece = Piece { text: &text[..end], start, first_game, first_line, text_ends };
        let stopped = for_each_batch_in_piece(piece, None, &handle, &mut sink)?;
        if whole {
            // The text ended with the piece: every game was handled.
            return Ok(());
        }
        if stopped == first_game {
            // Not one game with the line of the token after it: a longer piece.
            len *= 2;
            continue;
        }
        // The next piece starts at the start of the line of its first game, or half the
        // longest piece before the game if the line starts further back (the columns of the
        // game's first line then count from there).
        let bytes = text.as_bytes();
        let line_start = memchr::memrchr(b'\n', &bytes[..stopped])
            .map_or(0, |i| i + 1)
            .max(stopped.saturating_sub(MAX_PIECE_BYTES / 2));
        first_line += count_line_breaks(&bytes[..line_start]);
        reader.take(line_start);
        (start, first_game, len) = (start + line_start, stopped - line_start, piece_bytes);
    }
}

/// A piece of a text, as [`for_each_batch_in_piece`] reads it.
#[derive(Clone, Copy)]
struct Piece<'t> {
    text: &'t str,
    /// Where it starts in the whole text.
    start: usize,
    /// Where its first game starts in `text`.
    first_game: usize,
    /// The line of the whole text on which it starts.
    first_line: u32,
    /// Whether the text ends with the piece: else a game is handled only if the piece holds
    /// the whole line of the token after it, and the rest is left for the next piece.
    text_ends: bool,
}

/// [`for_each_batch`] on one piece; `sink` is given the bytes handled in the whole text.
/// Returns where the games handled end in the piece.
fn for_each_batch_in_piece<R, E>(
    piece: Piece<'_>,
    line_breaks: Option<LineBreaks>,
    handle: &(impl Fn(ParsedGame) -> R + Sync),
    sink: &mut impl FnMut(Vec<R>, usize) -> Result<(), E>,
) -> Result<usize, E>
where
    R: Send,
{
    let workers = rayon::current_num_threads();
    let cuts = cut_points(piece.text, piece.first_game, workers);
    let line_breaks = line_breaks.map_or_else(OnceLock::new, OnceLock::from);
    let segments: Vec<(usize, usize)> = cuts.windows(2).map(|cut| (cut[0], cut[1])).collect();
    // One worker parses the segments in order, each from where the one before ended.
    let ahead = if workers > 1 { workers * SEGMENTS_AHEAD_PER_WORKER } else { 0 };
    let parsed_ahead = ParsedAhead::new(segments.len());
    let parse = |start, lines, end| Segment::parse(piece, start, lines, &line_breaks, end, handle);
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
        let mut next = piece.first_game;
        let mut lines = Some(Cursor { offset: 0, line: piece.first_line });
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
                    sink(segment.results, piece.start + next)?;
                }
                if segment.stopped_before_end || next >= end {
                    break;
                }
                // The segment stopped at its most games: go on from there.
                segment = parse(next, lines, end);
            }
            if segment.stopped_before_end {
                break;
            }
        }
        Ok(next)
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
    /// Whether it stopped before a game that the piece does not hold with the line of the
    /// token after it.
    stopped_before_end: bool,
    /// The last line known, if any.
    lines: Option<Cursor>,
    results: Vec<R>,
}

impl<R> Segment<R> {
    /// Parse and handle the games of `piece` from `start` (a game boundary, or a cut believed
    /// to be one) until the first game boundary at or past `end`, or until
    /// [`MAX_GAMES_PER_SEGMENT`] games, or until a game the piece does not hold with the line
    /// of the token after it (unless the text ends with the piece); `lines` is a line known at or before
    /// `start`, if any, and `line_breaks` the piece's, once counted.
    fn parse(
        piece: Piece<'_>,
        start: usize,
        lines: Option<Cursor>,
        line_breaks: &OnceLock<LineBreaks>,
        end: usize,
        handle: &(impl Fn(ParsedGame) -> R + Sync),
    ) -> Segment<R> {
        let text = piece.text;
        let lines = LineCounter {
            text,
            first_line: piece.first_line,
            known: Cell::new(lines),
            line_breaks,
        };
        let mut at = start;
        let mut results = Vec::new();
        let mut stopped_before_end = false;
        while at < end && results.len() < MAX_GAMES_PER_SEGMENT {
            let game = parse_game(&text[at..]);
            let game_end = at + game.len as usize;
            // The token after the game, up to its line break, decides where the game ends.
            let lookahead = at + game.lookahead as usize;
            if !piece.text_ends && memchr::memchr(b'\n', &text.as_bytes()[lookahead..]).is_none() {
                stopped_before_end = true;
                break;
            }
            let range = TextRange::new(at as u32, game_end as u32);
            let first_line = FirstLine { lines: &lines, offset: at };
            at = game_end;
            let parsed =
                ParsedGame { game, piece: text, piece_start: piece.start, range, first_line };
            results.push(handle(parsed));
        }
        Segment { start, end: at, stopped_before_end, lines: lines.known.get(), results }
    }
}

/// The cuts of `text` into segments: `first_game`, the starts of tag lines after a blank line
/// about every segment length, and the length of the text.
fn cut_points(text: &str, first_game: usize, workers: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let target = ((text.len() - first_game) / (workers * SEGMENTS_AHEAD_PER_WORKER).max(1))
        .clamp(MIN_SEGMENT_BYTES, SEGMENT_BYTES);
    let mut cuts = vec![first_game];
    let mut at = first_game + target;
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
            None,
            |g| (g.first_line.get(), g.source().lines().next().unwrap_or("").to_owned()),
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
    /// cut inside a game (a blank line in a tag section), a game spans several segments, a game
    /// starts in the middle of a line, or a game is longer than a piece; on one worker
    /// (segments parsed in order) and on several (parsed ahead in parallel); the text read
    /// whole, or in pieces (each holding the whole line on which a game starts).
    #[test]
    fn segments_and_pieces_give_the_games_of_the_whole_text() {
        let mut text = String::new();
        for i in 0..3000 {
            match i % 4 {
                0 => text += &format!("[Event \"{i}\"]\n\n[Site \"s\"]\n\n1. e4 e5 *\n\n"),
                1 => text += &format!("[Event \"{i}\"]\n1. d4 {{ {} }} *\n\n", "x".repeat(i)),
                // The second game starts after the comment, in the middle of its line.
                2 => text += "1. c4 *\n{ commentary after a game } 1. e4 *\n",
                _ => text += "1. Nf3 {\n1. e4 *\n} *\n",
            }
            if i == 1500 {
                text += &format!("[Event \"long\"]\n\n1. e4 {{ {} }} *\n\n", "y\n".repeat(40_000));
            }
        }
        let mut expected = Vec::new();
        let mut line = 0u32;
        for (start, game) in crate::syntax::parse_games(&text) {
            let range = TextRange::new(start, start + game.len);
            expected.push((range, line));
            line += count_line_breaks(text.as_str()[range].as_bytes());
        }
        // The text of the line on which a game starts, up to the game.
        let line_before = |text: &str, at: usize| {
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            text[start..at].to_owned()
        };
        // Every game asks for its line, or one in 97 (many segments then ask for none, and a
        // segment that does counts from a line known segments before, or from its block). The
        // file's line breaks are given, counted before, or counted when first needed.
        let counted = LineBreaks::count(text.as_bytes());
        for asks in [1, 97] {
            let expected: Vec<_> = expected
                .iter()
                .enumerate()
                .map(|(i, &(range, line))| {
                    let before = line_before(&text, range.start as usize);
                    (range, (i % asks == 0).then_some(line), before)
                })
                .collect();
            let index =
                |range: TextRange| expected.partition_point(|(r, _, _)| r.start < range.start);
            // Pieces of `None`: the text read whole, its line breaks given or not.
            let cases = [1, 2, 3].into_iter().flat_map(|workers| {
                [(None, false), (None, true), (Some(64 << 10), false), (Some(3 << 10), false)]
                    .map(|(piece, given)| (workers, piece, given))
            });
            for (workers, piece_bytes, given) in cases {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(workers).build().unwrap();
                let mut seen = Vec::new();
                let handle = |g: ParsedGame| {
                    let range = TextRange::new(g.start() as u32, g.end() as u32);
                    assert_eq!(g.source(), &text.as_str()[range]);
                    let line = (index(range) % asks == 0).then(|| g.first_line.get());
                    (range, line, line_before(g.piece, g.range.start as usize))
                };
                let sink = |results: Vec<_>, _| {
                    seen.extend(results);
                    Ok::<(), ()>(())
                };
                let done = pool.install(|| match piece_bytes {
                    None => for_each_batch(&text, given.then(|| counted.clone()), handle, sink),
                    Some(piece) => for_each_batch_read(&mut Remainder(&text), piece, handle, sink),
                });
                assert_eq!(done, Ok(()));
                let case = format!(
                    "{workers} workers, pieces of {piece_bytes:?} bytes, one game in {asks} \
                     asking, given {given}"
                );
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
                |g| furthest.fetch_max(g.end(), std::sync::atomic::Ordering::Relaxed),
                |_, done| {
                    // The first results wait until the other worker has parsed past them, so
                    // that parsing ahead is seen even when that worker starts late (a loaded
                    // machine): it has the segments queued for it, and nothing else to do.
                    let load = || furthest.load(std::sync::atomic::Ordering::Relaxed);
                    while ahead_most == 0 && load() <= done {
                        std::thread::yield_now();
                    }
                    ahead_most = ahead_most.max(load().saturating_sub(done));
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
                    |g| assert!(g.start() < 50_000, "a game past 50,000"),
                    |_, _| Ok::<(), ()>(()),
                )
            })
        }));
        let panic = run.expect_err("the panic reaches the caller");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"a game past 50,000"));
    }
}
