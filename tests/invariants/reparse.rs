//! Incremental reparse equals a fresh parse (DESIGN §3): after every edit of a sequence, the
//! games kept and reparsed by `syntax::reparse` are exactly the games of the new text parsed
//! from scratch (lengths, tags, notes, nodes and diagnostics), and the text it hands back is
//! theirs, also when the new text is read a few bytes at a time (the reparse window grows).

use arbitrary::Unstructured;
use pgn_lsp::syntax::{self, Game, GameOffsets, TextSource, parse_games, reparse};

/// One edit: replace `delete` bytes at `at` by `insert`. Offsets are taken modulo the text's
/// length and moved back to character boundaries when the edit is applied.
#[derive(Clone, Debug)]
pub struct Edit {
    pub at: usize,
    pub delete: usize,
    pub insert: String,
}

impl Edit {
    /// The byte range this edit replaces in `text`.
    pub fn range(&self, text: &str) -> std::ops::Range<usize> {
        let start = text.floor_char_boundary(self.at % (text.len() + 1));
        let end = text.floor_char_boundary(start.saturating_add(self.delete));
        start..end
    }
}

#[derive(Clone, Debug)]
pub struct Case {
    pub text: String,
    pub edits: Vec<Edit>,
    /// The most bytes the new text gives out per read (`None`: as many as asked).
    pub read_step: Option<usize>,
}

/// A text read at most `step` bytes at a time, as a rope might hand it out.
struct Chunked<'a> {
    text: &'a str,
    step: Option<usize>,
}

impl TextSource for Chunked<'_> {
    fn len(&self) -> usize {
        self.text.len()
    }

    fn read_into(&self, start: usize, end: usize, out: &mut String) {
        let end = self.step.map_or(end, |step| end.min(start.saturating_add(step)));
        self.text.read_into(start, end, out);
    }
}

/// The edits come first in the bytes, the text is what is left, so that a PGN file is a fine
/// seed as it is.
pub fn decode(data: &[u8]) -> Case {
    let mut u = Unstructured::new(data);
    let edits = edits(&mut u).unwrap_or_default();
    let read_step = read_step(&mut u).unwrap_or_default();
    Case { text: super::rest_as_text(u), edits, read_step }
}

fn read_step(u: &mut Unstructured<'_>) -> arbitrary::Result<Option<usize>> {
    Ok(if u.arbitrary()? { Some(u.int_in_range(1..=64)?) } else { None })
}

pub fn edits(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<Edit>> {
    let count = u.int_in_range(0..=8)?;
    (0..count)
        .map(|_| {
            let at = usize::from(u.arbitrary::<u16>()?);
            let delete = usize::from(u.int_in_range(0u8..=40)?);
            let fragments = u.int_in_range(0..=6)?;
            Ok(Edit { at, delete, insert: super::fragments(u, fragments) })
        })
        .collect()
}

pub fn run(data: &[u8]) {
    check(&decode(data));
}

pub fn check(case: &Case) {
    let mut text = case.text.clone();
    let mut games: Vec<Game> = parse_games(&text).map(|(_, game)| game).collect();
    for edit in &case.edits {
        let range = edit.range(&text);
        let old = GameOffsets::new(games.iter().map(|g| (g.len, g.lookahead)));
        text.replace_range(range.clone(), &edit.insert);
        let change = syntax::Edit {
            old_start: range.start as u32,
            old_end: range.end as u32,
            inserted_len: edit.insert.len() as u32,
        };
        let splice = reparse(&old, &Chunked { text: &text, step: case.read_step }, change);
        let end = splice.first + splice.removed;
        assert!(end <= games.len(), "splice {}..{end} past {} games", splice.first, games.len());
        let from: u32 = games[..splice.first].iter().map(|g| g.len).sum();
        let inserted_len: u32 = splice.inserted.iter().map(|g| g.len).sum();
        let inserted_text = &text[from as usize..(from + inserted_len) as usize];
        assert_eq!(splice.text, inserted_text, "the splice's text after {edit:?}");
        games.splice(splice.first..end, splice.inserted);
        let fresh: Vec<Game> = parse_games(&text).map(|(_, game)| game).collect();
        assert_same_games(&games, &fresh, &text, edit);
    }
}

fn assert_same_games(incremental: &[Game], fresh: &[Game], text: &str, edit: &Edit) {
    let lens = |games: &[Game]| games.iter().map(|g| g.len).collect::<Vec<_>>();
    assert_eq!(lens(incremental), lens(fresh), "game lengths after {edit:?}; text {text:?}");
    for (i, (a, b)) in incremental.iter().zip(fresh).enumerate() {
        let same = a.tags == b.tags
            && a.tag_notes == b.tag_notes
            && a.nodes == b.nodes
            && a.diagnostics == b.diagnostics;
        assert!(same, "game {i} differs after {edit:?}:\n{a:?}\n!=\n{b:?}\ntext {text:?}");
    }
}
