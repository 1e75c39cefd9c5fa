//! The games of a document in order, kept in chunks with the length and the diagnostic counts
//! of each chunk, so that finding the game at an offset, splicing the games an edit touched and
//! choosing the diagnostics to publish do not go over every game of a large document: a binary
//! search over the chunks and a scan inside one, and a splice that rebuilds only the chunks it
//! touches. Chunks are shared between snapshots: an edit copies the list of chunks, not the
//! games.

use std::ops::Range;
use std::sync::Arc;

use super::analysis::GameAnalysis;
use crate::syntax::{Code, CodeSet, GameStarts};

/// The most games in a chunk; a splice makes chunks of at least half as many when it has as
/// many games to place.
const CHUNK: usize = 64;

/// A game in the list: its analysis, with its length, its line breaks and the codes of its
/// diagnostics copied inline.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub len: u32,
    pub line_breaks: u32,
    pub ends_line: bool,
    pub codes: CodeSet,
    pub analysis: Arc<GameAnalysis>,
}

impl Entry {
    pub fn new(analysis: GameAnalysis) -> Entry {
        Entry {
            len: analysis.len,
            line_breaks: analysis.line_breaks,
            ends_line: analysis.ends_line,
            codes: analysis.diagnostics.iter().map(|d| d.code).collect(),
            analysis: Arc::new(analysis),
        }
    }
}

/// Consecutive games with their totals.
#[derive(Debug)]
pub(crate) struct Chunk {
    pub entries: Vec<Entry>,
    pub len: u32,
    pub line_breaks: u32,
    /// Whether the last game ends with a line break.
    pub ends_line: bool,
    /// The number of diagnostics of each code, indexed by `Code as usize`.
    pub code_counts: [u32; Code::COUNT],
    pub codes: CodeSet,
    /// How far from the chunk's start its games' parses looked: the furthest of their starts
    /// plus lookaheads.
    pub reach: u32,
}

impl Chunk {
    fn new(entries: Vec<Entry>) -> Chunk {
        let mut code_counts = [0; Code::COUNT];
        for d in entries.iter().flat_map(|entry| &entry.analysis.diagnostics) {
            code_counts[d.code as usize] += 1;
        }
        let mut at = 0;
        let mut reach = 0;
        for entry in &entries {
            reach = reach.max(at + entry.analysis.lookahead);
            at += entry.len;
        }
        Chunk {
            reach,
            len: entries.iter().map(|e| e.len).sum(),
            line_breaks: entries.iter().map(|e| e.line_breaks).sum(),
            ends_line: entries.last().is_some_and(|e| e.ends_line),
            code_counts,
            codes: entries.iter().fold(CodeSet::default(), |codes, e| codes.union(e.codes)),
            entries,
        }
    }
}

/// The games of a document.
#[derive(Clone, Debug, Default)]
pub(crate) struct GameList {
    chunks: Vec<Arc<Chunk>>,
    /// The offset where each chunk starts, and one past the last: the text's length.
    chunk_starts: Vec<u32>,
    /// The index of each chunk's first game, and one past the last: the number of games.
    chunk_firsts: Vec<usize>,
}

impl GameList {
    pub fn new(entries: Vec<Entry>) -> Self {
        let mut list = GameList::default();
        list.splice(0..0, entries);
        list
    }

    pub fn count(&self) -> usize {
        self.chunk_firsts.last().copied().unwrap_or(0)
    }

    /// The length of the text.
    pub fn len(&self) -> u32 {
        self.chunk_starts.last().copied().unwrap_or(0)
    }

    pub fn chunks(&self) -> impl Iterator<Item = (u32, &Chunk)> {
        self.chunk_starts.iter().zip(&self.chunks).map(|(&start, chunk)| (start, &**chunk))
    }

    /// The games with their starts, in order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Entry)> {
        self.chunks().flat_map(|(start, chunk)| {
            chunk.entries.iter().scan(start, |at, entry| {
                let game_start = *at;
                *at += entry.len;
                Some((game_start, entry))
            })
        })
    }

    /// The games from the one holding `offset` on (from the last game for an offset at or
    /// past the end), with their starts.
    pub fn iter_from(&self, offset: u32) -> impl Iterator<Item = (u32, &Entry)> {
        let chunk = self.chunk_starts[..self.chunks.len()]
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let first = self.chunk_firsts.get(chunk).copied().unwrap_or(0);
        let last = self.count().saturating_sub(1);
        let games = self.chunks[chunk.min(self.chunks.len())..]
            .iter()
            .flat_map(|chunk| &chunk.entries)
            .scan(self.chunk_starts.get(chunk).copied().unwrap_or(0), |at, entry| {
                let start = *at;
                *at += entry.len;
                Some((start, entry))
            });
        games
            .enumerate()
            .skip_while(move |&(i, (start, entry))| offset >= start + entry.len && first + i < last)
            .map(|(_, game)| game)
    }

    /// Replace games `range` by `entries`; only the chunks that held them are rebuilt.
    pub fn splice(&mut self, range: Range<usize>, entries: Vec<Entry>) {
        // The chunks holding `range`: `first_chunk..end_chunk` (a neighbour for an empty range,
        // so that small chunks merge).
        let first_chunk = self.chunk_firsts[..self.chunks.len()]
            .partition_point(|&f| f <= range.start)
            .saturating_sub(1);
        let end_chunk = if self.chunks.is_empty() {
            0
        } else {
            self.chunk_firsts[..self.chunks.len()]
                .partition_point(|&f| f < range.end.max(range.start + 1))
        }
        .max(first_chunk + usize::from(!self.chunks.is_empty()));
        let base = self.chunk_firsts.get(first_chunk).copied().unwrap_or(0);
        let mut games: Vec<Entry> = Vec::new();
        for chunk in &self.chunks[first_chunk..end_chunk] {
            games.extend(chunk.entries.iter().cloned());
        }
        games.splice(range.start - base..range.end - base, entries);
        let pieces = games.len().div_ceil(CHUNK);
        let mut rebuilt = Vec::with_capacity(pieces);
        let mut rest = games.into_iter();
        for piece in 0..pieces {
            // Even pieces: sizes differ by one at most.
            let size = rest.len() / (pieces - piece);
            rebuilt.push(Arc::new(Chunk::new(rest.by_ref().take(size).collect())));
        }
        self.chunks.splice(first_chunk..end_chunk, rebuilt);
        self.chunk_starts.clear();
        self.chunk_firsts.clear();
        let (mut start, mut first) = (0u32, 0usize);
        for chunk in &self.chunks {
            self.chunk_starts.push(start);
            self.chunk_firsts.push(first);
            start += chunk.len;
            first += chunk.entries.len();
        }
        self.chunk_starts.push(start);
        self.chunk_firsts.push(first);
    }

    /// The chunk holding game `index`, and the game's place in it.
    fn locate(&self, index: usize) -> (usize, usize) {
        let chunk = self.chunk_firsts[..self.chunks.len()].partition_point(|&f| f <= index) - 1;
        (chunk, index - self.chunk_firsts[chunk])
    }
}

impl GameStarts for GameList {
    fn count(&self) -> usize {
        GameList::count(self)
    }

    fn start(&self, index: usize) -> u32 {
        let (chunk, at) = self.locate(index);
        self.chunk_starts[chunk]
            + self.chunks[chunk].entries[..at].iter().map(|e| e.len).sum::<u32>()
    }

    fn index_at(&self, offset: u32) -> usize {
        let Some(chunk) =
            self.chunk_starts[..self.chunks.len()].partition_point(|&s| s <= offset).checked_sub(1)
        else {
            return 0;
        };
        let mut start = self.chunk_starts[chunk];
        let entries = &self.chunks[chunk].entries;
        let mut at = 0;
        while at + 1 < entries.len() && start + entries[at].len <= offset {
            start += entries[at].len;
            at += 1;
        }
        self.chunk_firsts[chunk] + at
    }

    fn first_reaching(&self, offset: u32, before: usize) -> Option<usize> {
        // Chunk by chunk from the first: a game far back may have looked far ahead.
        for (c, chunk) in self.chunks.iter().enumerate() {
            let (mut start, first) = (self.chunk_starts[c], self.chunk_firsts[c]);
            if first >= before {
                return None;
            }
            if start + chunk.reach < offset {
                continue;
            }
            for (i, entry) in chunk.entries.iter().enumerate().take(before - first) {
                if start + entry.analysis.lookahead >= offset {
                    return Some(first + i);
                }
                start += entry.len;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::syntax::GameOffsets;

    /// A game of `len` bytes whose parse looked `beyond` bytes past its end.
    fn entry((len, beyond): (u32, u32)) -> Entry {
        let diagnostics = Vec::new();
        Entry::new(GameAnalysis {
            len,
            lookahead: len + beyond,
            line_breaks: 0,
            ends_line: false,
            diagnostics,
        })
    }

    fn lens(list: &GameList) -> Vec<u32> {
        list.iter().map(|(_, e)| e.len).collect()
    }

    /// Games of 1 to 49 bytes, mostly looking at the line after them, some much further.
    fn games(count: std::ops::Range<usize>) -> impl Strategy<Value = Vec<(u32, u32)>> {
        proptest::collection::vec((1..50u32, prop_oneof![4 => 0..20u32, 1 => 0..400u32]), count)
    }

    proptest! {
        /// After any splices, the list holds the games a plain vector holds, and finds starts,
        /// games by offset and the games that looked at an offset as a plain list of starts and
        /// lookaheads does.
        #[test]
        fn splices_and_lookups_agree_with_a_vector(
            initial in games(0..300),
            splices in proptest::collection::vec(
                (any::<prop::sample::Index>(), 0..80usize, games(0..100)),
                0..8,
            ),
        ) {
            let mut expected = initial.clone();
            let mut list = GameList::new(initial.into_iter().map(entry).collect());
            for (at, removed, inserted) in splices {
                let start = at.index(expected.len() + 1);
                let end = (start + removed).min(expected.len());
                expected.splice(start..end, inserted.iter().copied());
                list.splice(start..end, inserted.into_iter().map(entry).collect());
                let expected_lens: Vec<u32> = expected.iter().map(|&(len, _)| len).collect();
                prop_assert_eq!(lens(&list), expected_lens);
                prop_assert!(list.chunks().all(|(_, c)| c.entries.len() <= CHUNK));
            }
            let offsets = GameOffsets::new(expected.iter().map(|&(len, beyond)| (len, len + beyond)));
            prop_assert_eq!(GameStarts::count(&list), expected.len());
            prop_assert_eq!(list.len(), expected.iter().map(|&(len, _)| len).sum::<u32>());
            for offset in 0..list.len() + 2 {
                let index = offsets.index_at(offset);
                prop_assert_eq!(list.index_at(offset), index);
                prop_assert_eq!(list.index_starting_at(offset), offsets.index_starting_at(offset));
                for before in [index, index.saturating_sub(1), expected.len()] {
                    prop_assert_eq!(
                        list.first_reaching(offset, before),
                        offsets.first_reaching(offset, before)
                    );
                }
                if !expected.is_empty() {
                    prop_assert_eq!(list.start(index), offsets.start(index));
                    let from = list.iter_from(offset).next().map(|(start, _)| start);
                    prop_assert_eq!(from, Some(offsets.start(index)));
                }
            }
        }
    }
}
