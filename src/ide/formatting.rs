//! Formatting edits: every game asked for is printed in export format (`fmt::format_game`),
//! and each game that changes gives one minimal edit, so unchanged games give none and a large
//! document is never replaced whole.

use rayon::prelude::*;

use super::analysis::DocumentAnalysis;
use super::guard;
use crate::fmt::{FormatOptions, format_game};
use crate::syntax::{TextSource, parse_game_at};
use crate::text::{TextEdit, TextRange, minimal_edit};

/// The work was cancelled before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// The edits that format the games overlapping `range` (all games for `None`), in text order.
/// `cancelled` is asked before each game; once it says yes the work stops.
pub fn format_edits(
    analysis: &DocumentAnalysis,
    text: &(dyn TextSource + Sync),
    options: &FormatOptions,
    range: Option<TextRange>,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<Vec<TextEdit>, Cancelled> {
    let starts: Vec<u32> = match range {
        Some(range) => analysis.games_in(range).map(|(start, _)| start).collect(),
        None => analysis.games().map(|(start, _)| start).collect(),
    };
    let edits: Vec<Option<TextEdit>> = starts
        .into_par_iter()
        .map(|start| {
            if cancelled() {
                return Err(Cancelled);
            }
            Ok(guard::catch("formatting a game", || format_game_at(text, start, options))
                .ok()
                .flatten())
        })
        .collect::<Result<_, _>>()?;
    Ok(edits.into_iter().flatten().collect())
}

/// The edit that formats the game starting at `start`, if it changes.
fn format_game_at(text: &dyn TextSource, start: u32, options: &FormatOptions) -> Option<TextEdit> {
    let (game, src) = parse_game_at(text, start as usize);
    let formatted = format_game(&game, &src, options)?;
    let edit = minimal_edit(&src, &formatted)?;
    Some(TextEdit { range: edit.range.shift(start), new_text: edit.new_text })
}
