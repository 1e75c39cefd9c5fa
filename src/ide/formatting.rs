//! Formatting edits: the games asked for are printed in export format one by one and joined
//! in text order by a `fmt::Joiner` (`Joiner::format`, which decides when a game
//! must be kept as it is because, formatted, it would join the game before), exactly as
//! `fmt::format_games` prints a whole text, with the document's line break as `pgn-lsp fmt`
//! writes a file; each game that changes gives one minimal edit:
//! unchanged games give none, and a large document is never replaced whole.
//!
//! For a range, the formatter reads from a game before the range that has moves or a marker
//! (the games before it cannot change how the later ones are printed) to the line of the token
//! after the last game in the range (where that game's end is decided).
//!
//! The text is read a window of whole games at a time (about [`WINDOW_BYTES`]), with the line
//! of the token after the window's last game, so that the games are parsed as in the whole text while a
//! document held as a rope is never copied whole; the edits are handed out as they are found.

use crate::fmt::{FormatOptions, GameOutput, Joiner};
use crate::syntax::{NodeKind, TextSource, parse_game_at, parse_games};
use crate::text::{TextEdit, TextRange, line_break_of, minimal_edit};

use super::analysis::DocumentAnalysis;

/// About how many bytes of games are read from the document at a time.
pub const WINDOW_BYTES: usize = 1 << 20;

/// The work was cancelled before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// How formatting ended when it handed out its edits one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formatting {
    /// Every edit was handed out.
    Complete,
    /// The formatter split the text into games differently from the analysis: the edits handed
    /// out so far must be dropped, and the text is left as it is rather than risked.
    GamesDiffer,
}

/// The edits that format the games overlapping `range` (all games for `None`), in text order.
/// `cancelled` is asked before each game; once it says yes the work stops.
pub fn format_edits(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    options: &FormatOptions,
    range: Option<TextRange>,
    cancelled: &dyn Fn() -> bool,
) -> Result<Vec<TextEdit>, Cancelled> {
    let mut edits = Vec::new();
    let push = &mut |edit| edits.push(edit);
    let ending =
        for_each_format_edit(analysis, text, options, range, WINDOW_BYTES, cancelled, push)?;
    Ok(match ending {
        Formatting::Complete => edits,
        Formatting::GamesDiffer => Vec::new(),
    })
}

/// The edits of [`format_edits`], handed to `sink` one by one as they are found, the text read
/// about `window_bytes` at a time.
pub fn for_each_format_edit(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    options: &FormatOptions,
    range: Option<TextRange>,
    window_bytes: usize,
    cancelled: &dyn Fn() -> bool,
    sink: &mut dyn FnMut(TextEdit),
) -> Result<Formatting, Cancelled> {
    let games: Vec<TextRange> =
        analysis.games().map(|(start, g)| TextRange::new(start, start + g.len)).collect();
    // Where the token after each game starts: the parser reads its line to end the game.
    let lookaheads: Vec<u32> = analysis.games().map(|(start, g)| start + g.lookahead).collect();
    let wanted = match range {
        None => 0..games.len(),
        Some(range) => {
            let first = games
                .iter()
                .position(|g| g.contains(range.start))
                .unwrap_or(games.len().saturating_sub(1));
            let count = games[first..]
                .iter()
                .take_while(|g| g.start == games[first].start || g.intersects(range))
                .count();
            first..first + count
        }
    };
    if wanted.is_empty() {
        return Ok(Formatting::Complete);
    }
    let from = context_start(text, &games, wanted.start);
    let first = games[wanted.start].start;
    // Formatted games are written with the document's line break, as `pgn-lsp fmt` writes a
    // file: a formatted CRLF document takes no edit.
    let line_break = line_break_of(&text.read(0, line_end_after(text, 0)));
    let mut joiner = Joiner::default();
    let mut next = from;
    for window in windows(&games[from..wanted.end], window_bytes) {
        let (start, end) = (window[0].start, window[window.len() - 1].end);
        next += window.len();
        let slice = text.read(start as usize, line_end_after(text, lookaheads[next - 1] as usize));
        for (offset, game) in parse_games(&slice) {
            if cancelled() {
                return Err(Cancelled);
            }
            let local = TextRange::new(offset, offset + game.len);
            let at = local.shift(start);
            if at.start >= end {
                break;
            }
            if games.binary_search_by_key(&at.start, |g| g.start).ok().map(|i| games[i]) != Some(at)
            {
                tracing::warn!("formatting: game boundaries differ at byte {}; no edits", at.start);
                return Ok(Formatting::GamesDiffer);
            }
            let source = &slice.as_str()[local];
            let joined = joiner.format(&game, source, at.start, options);
            if at.start < first {
                continue;
            }
            // Whether a `\r` stands before the game (a lone one ending the line before), read
            // within the window: the byte before a window is not read, and taken to be no `\r`.
            let after_cr = slice[..local.start as usize].ends_with('\r');
            if let GameOutput::Formatted(_) = &joined.output
                && let Some(edit) =
                    minimal_edit(source, &joined.text_with_line_break(line_break, after_cr))
            {
                sink(TextEdit { range: edit.range.shift(at.start), new_text: edit.new_text });
            }
        }
    }
    Ok(Formatting::Complete)
}

/// `games` cut into runs of whole games, each starting less than `window_bytes` before the
/// start of its run's first game (so a run holds at least one game).
fn windows(games: &[TextRange], window_bytes: usize) -> impl Iterator<Item = &[TextRange]> {
    let mut rest = games;
    std::iter::from_fn(move || {
        let first = rest.first()?.start;
        let count = rest.iter().take_while(|g| ((g.start - first) as usize) < window_bytes).count();
        let (window, after) = rest.split_at(count.max(1));
        rest = after;
        Some(window)
    })
}

/// The index of the game to start formatting from so that game `index` is printed as it would
/// be in the whole text: the nearest game before it with a main-line move or a termination marker
/// (the formatter's state does not reach past such a game), or the first game.
fn context_start(text: &dyn TextSource, games: &[TextRange], index: usize) -> usize {
    let mut from = index;
    while from > 0 {
        from -= 1;
        let (game, _) = parse_game_at(text, games[from].start as usize);
        let ends_context = game.nodes_with_depth().any(|(_, n, depth)| {
            depth == 0 && matches!(n.kind, NodeKind::Move | NodeKind::NullMove | NodeKind::Result)
        });
        if ends_context {
            break;
        }
    }
    from
}

/// The offset after the line break of the line holding `offset` (or the end of the text).
fn line_end_after(text: &dyn TextSource, offset: usize) -> usize {
    let mut at = offset;
    let mut chunk = String::new();
    while at < text.len() {
        chunk.clear();
        text.read_into(at, at + 4096, &mut chunk);
        if let Some(i) = memchr::memchr(b'\n', chunk.as_bytes()) {
            return at + i + 1;
        }
        at += chunk.len();
    }
    text.len()
}
