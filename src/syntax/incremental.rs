//! Incremental reparse (DESIGN §3): after an edit, only the games from the one before the edit
//! up to the first old game boundary that lines up again are parsed; the rest are kept.
//!
//! The game before the edited one is reparsed too because where a game ends depends on the
//! first line of the next game.

use super::parser::parse_game;
use super::tree::Game;

/// What an edit did to the list of games: old games `first..first + removed` are replaced by
/// `inserted`; games after them are unchanged (only shifted).
#[derive(Debug)]
pub struct Splice {
    pub first: usize,
    pub removed: usize,
    pub inserted: Vec<Game>,
}

/// Reparse after replacing `old_start..old_end` (offsets in the old text) of a text whose games
/// had lengths `old_lens`; `new_text` is the whole text after the edit, and `inserted_len` the
/// length of the inserted text.
pub fn reparse(
    old_lens: &[u32],
    new_text: &str,
    old_start: u32,
    old_end: u32,
    inserted_len: u32,
) -> Splice {
    // Start of each old game, and the index of the game holding the edit.
    let mut starts = Vec::with_capacity(old_lens.len());
    let mut at = 0u32;
    for &len in old_lens {
        starts.push(at);
        at += len;
    }
    let edited = starts.partition_point(|&s| s <= old_start).saturating_sub(1);
    let first = edited.saturating_sub(1);
    let new_edit_end = old_start as i64 + inserted_len as i64;
    let delta = inserted_len as i64 - (old_end as i64 - old_start as i64);

    let mut pos = starts.get(first).copied().unwrap_or(0) as usize;
    let mut inserted = Vec::new();
    while pos < new_text.len() {
        let game = parse_game(&new_text[pos..]);
        pos += game.len as usize;
        inserted.push(game);
        if pos as i64 >= new_edit_end && pos as i64 > old_start as i64 {
            let old_pos = pos as i64 - delta;
            if old_pos >= old_end as i64
                && let Ok(j) = starts.binary_search(&(old_pos as u32))
                && j > first
            {
                return Splice { first, removed: j - first, inserted };
            }
        }
    }
    Splice { first, removed: old_lens.len() - first, inserted }
}
