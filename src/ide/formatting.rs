//! Formatting edits: the games asked for are printed in export format by `fmt::format_games`
//! (which also decides when a game must be kept as it is because, formatted, it would join
//! the game before), and each game that changes gives one minimal edit: unchanged games give
//! none, and a large document is never replaced whole.
//!
//! For a range, the formatter reads from a game before the range that has moves or a marker
//! (the games before it cannot change how the later ones are printed) to the line after the
//! last game in the range (where that game's end is decided).

use crate::fmt::{FormatOptions, GameOutput, format_games};
use crate::syntax::{NodeKind, TextSource, parse_game_at};
use crate::text::{TextEdit, TextRange, minimal_edit};

use super::analysis::DocumentAnalysis;

/// The work was cancelled before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// The edits that format the games overlapping `range` (all games for `None`), in text order.
/// `cancelled` is asked before each game; once it says yes the work stops.
pub fn format_edits(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    options: &FormatOptions,
    range: Option<TextRange>,
    cancelled: &dyn Fn() -> bool,
) -> Result<Vec<TextEdit>, Cancelled> {
    let games: Vec<TextRange> =
        analysis.games().map(|(start, g)| TextRange::new(start, start + g.len)).collect();
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
        return Ok(Vec::new());
    }
    let from = context_start(text, &games, wanted.start);
    let base = games[from].start;
    let (first, last) = (games[wanted.start], games[wanted.end - 1]);
    let slice = text.read(base as usize, line_end_after(text, last.end as usize));
    let mut edits = Vec::new();
    for game in format_games(&slice, options) {
        if cancelled() {
            return Err(Cancelled);
        }
        let at = TextRange::new(base + game.start, base + game.start + game.source.len() as u32);
        if at.start < first.start {
            continue;
        }
        if at.start >= last.end {
            break;
        }
        if games.binary_search_by_key(&at.start, |g| g.start).ok().map(|i| games[i]) != Some(at) {
            // The formatter split the text differently: edit nothing rather than risk the text.
            tracing::warn!("formatting: game boundaries differ at byte {}; no edits", at.start);
            return Ok(Vec::new());
        }
        if let GameOutput::Formatted(formatted) = &game.output
            && let Some(edit) = minimal_edit(game.source, formatted)
        {
            edits.push(TextEdit { range: edit.range.shift(at.start), new_text: edit.new_text });
        }
    }
    Ok(edits)
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
