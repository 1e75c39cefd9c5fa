//! The editor features answer sensibly wherever the cursor is, on any text (DESIGN §8): hover,
//! completion, the board, selection ranges and code actions at any character boundary, and the
//! outline features of the whole document, never panic, and every range they give lies in the
//! text on character boundaries. Besides:
//! - a hover's range and a completion's replaced range contain the cursor;
//! - selection ranges contain the cursor, each strictly inside the next;
//! - folds run over at least two lines, in order of their starts;
//! - a symbol's selection lies in its range and its children in it;
//! - a code action's edits do not overlap (LSP requires it of one edit) and change the text;
//! - sorting the games keeps each game's text and settles (a second sort has nothing to do).

use arbitrary::Unstructured;
use pgn_lsp::fmt::FormatOptions;
use pgn_lsp::ide::{
    ActionKind, Date, DocumentAnalysis, Symbol, board_position, code_actions, completions,
    document_symbols, folding_ranges, hover, inlay_hints, selection_ranges,
};
use pgn_lsp::syntax::{DiagnosticFilter, parse_games};
use pgn_lsp::text::{TextEdit, TextRange};
use shakmaty::Color;

#[derive(Clone, Debug)]
pub struct Case {
    pub text: String,
    /// Where the cursor is asked about: `c` is at `c / u16::MAX` of the text's length.
    pub cursors: Vec<u16>,
}

/// The cursors come from the first bytes, the text is what is left.
pub fn decode(data: &[u8]) -> Case {
    let mut u = Unstructured::new(data);
    let cursors = cursors(&mut u).unwrap_or_default();
    Case { text: super::rest_as_text(u), cursors }
}

fn cursors(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u16>> {
    let count = u.int_in_range(1..=4)?;
    (0..count).map(|_| u.arbitrary()).collect()
}

pub fn run(data: &[u8]) {
    check(&decode(data));
}

pub fn check(case: &Case) {
    let text = case.text.as_str();
    let analysis = DocumentAnalysis::new(text);
    let whole = TextRange::new(0, text.len() as u32);
    let offsets: Vec<u32> = case.cursors.iter().map(|&c| offset_at(text, c)).collect();
    for &offset in &offsets {
        at_cursor(text, &analysis, offset);
    }
    for (ranges, &offset) in selection_ranges(&analysis, &text, &offsets).iter().zip(&offsets) {
        let mut inner: Option<TextRange> = None;
        for &range in ranges {
            in_text(text, range, "a selection range");
            assert!(range.touches(offset), "selection {range:?} misses {offset}\n{text:?}");
            if let Some(inner) = inner {
                let strictly_inside =
                    range.start <= inner.start && inner.end <= range.end && range != inner;
                assert!(strictly_inside, "selection {inner:?} not inside {range:?}\n{text:?}");
            }
            inner = Some(range);
        }
    }
    let mut last_start = 0;
    for fold in folding_ranges(&analysis, &text) {
        in_text(text, fold.range, "a fold");
        let lines = &text[fold.range.to_usize()];
        // A lone CR ends a line too (LSP).
        let breaks = lines.contains(['\n', '\r']);
        assert!(breaks, "fold {:?} within one line\n{text:?}", fold.range);
        assert!(fold.range.start >= last_start, "folds out of order\n{text:?}");
        last_start = fold.range.start;
    }
    for symbol in document_symbols(&analysis, &text) {
        symbol_in(text, &symbol, whole);
    }
    for hint in inlay_hints(&analysis, &text, whole) {
        in_text(text, TextRange::empty(hint.offset), "an inlay hint");
    }
    for action in code_actions(
        &analysis,
        &text,
        whole,
        &FormatOptions::default(),
        &DiagnosticFilter::default(),
        &|_| true,
    ) {
        edits_apply(text, &action.edits, &action.title);
        if action.kind == ActionKind::SortGames {
            sorting_keeps_the_games(text, &action.edits);
        }
    }
}

/// Hover, completion, the board and the code actions at `offset`.
fn at_cursor(text: &str, analysis: &DocumentAnalysis, offset: u32) {
    if let Some(h) = hover(analysis, &text, offset) {
        in_text(text, h.range, "a hover");
        assert!(h.range.touches(offset), "hover {:?} misses {offset}\n{text:?}", h.range);
    }
    let today = Date { year: 2026, month: 11, day: 25 };
    for item in completions(analysis, &text, offset, today) {
        let range = item.edit.range;
        in_text(text, range, "a completion");
        let label = &item.label;
        assert!(range.touches(offset), "completion {label} replaces {range:?}, not at {offset}");
    }
    for colour in [Color::White, Color::Black] {
        if let Some(board) = board_position(analysis, &text, offset, colour) {
            for shown in board.last_move.iter().chain(&board.illegal_move) {
                in_text(text, shown.range, "a move the board shows");
            }
        }
    }
    let cursor = TextRange::empty(offset);
    for action in code_actions(
        analysis,
        &text,
        cursor,
        &FormatOptions::default(),
        &DiagnosticFilter::default(),
        &|_| true,
    ) {
        edits_apply(text, &action.edits, &action.title);
    }
}

/// The character boundary at or before `fraction / u16::MAX` of the text.
fn offset_at(text: &str, fraction: u16) -> u32 {
    let mut at = (text.len() as u64 * u64::from(fraction) / u64::from(u16::MAX)) as usize;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at as u32
}

/// `range` lies in `text`, from one character boundary to another.
fn in_text(text: &str, range: TextRange, what: &str) {
    let (start, end) = (range.start as usize, range.end as usize);
    let fits = start <= end && end <= text.len();
    assert!(fits, "{what} at {range:?} beyond the text ({} bytes)\n{text:?}", text.len());
    let boundaries = text.is_char_boundary(start) && text.is_char_boundary(end);
    assert!(boundaries, "{what} at {range:?} cuts a character\n{text:?}");
}

fn symbol_in(text: &str, symbol: &Symbol, parent: TextRange) {
    in_text(text, symbol.range, "a symbol");
    let inside =
        |inner: TextRange, outer: TextRange| outer.start <= inner.start && inner.end <= outer.end;
    assert!(inside(symbol.range, parent), "symbol {} outside its parent\n{text:?}", symbol.name);
    let selection = symbol.selection;
    assert!(inside(selection, symbol.range), "symbol {}'s selection outside it", symbol.name);
    for child in &symbol.children {
        symbol_in(text, child, symbol.range);
    }
}

/// The edits of one action lie in the text, do not overlap and change it.
fn edits_apply(text: &str, edits: &[TextEdit], title: &str) {
    let mut ranges: Vec<TextRange> = edits.iter().map(|e| e.range).collect();
    for &range in &ranges {
        in_text(text, range, title);
    }
    ranges.sort_by_key(|r| (r.start, r.end));
    for pair in ranges.windows(2) {
        assert!(pair[0].end <= pair[1].start, "{title}: edits {pair:?} overlap\n{text:?}");
    }
    let changed = TextEdit::apply_all(text, edits);
    assert_ne!(changed, text, "{title}: edits {edits:?} change nothing\n{text:?}");
}

/// The "sort games" action (`edits`) moves whole games: the sorted text has the same games,
/// and sorting it again has nothing to do.
fn sorting_keeps_the_games(text: &str, edits: &[TextEdit]) {
    let sorted = TextEdit::apply_all(text, edits);
    assert_eq!(
        game_elements(&sorted),
        game_elements(text),
        "sorting changed the games\n{text:?}\n{sorted:?}"
    );
    let again = DocumentAnalysis::new(&sorted);
    let whole = TextRange::new(0, sorted.len() as u32);
    let sort = |kind: ActionKind| kind == ActionKind::SortGames;
    let second = code_actions(
        &again,
        &sorted.as_str(),
        whole,
        &FormatOptions::default(),
        &DiagnosticFilter::default(),
        &sort,
    );
    assert!(second.is_empty(), "a second sort of {sorted:?}: {second:?}");
}

/// Each game of `text` from its first element (tag pair, note, movetext node) to the end of its
/// last, in alphabetical order: the blanks between games are separators, which sorting writes
/// anew. Found from the parse's public fields here, apart from the `content_range` that sorting
/// itself uses, so that the property does not take the code's word for it.
fn game_elements(text: &str) -> Vec<&str> {
    let mut games: Vec<&str> = parse_games(text)
        .filter_map(|(start, g)| {
            let tags = g.tags.iter().map(|t| t.range);
            let notes = g.tag_notes.iter().map(|n| n.range);
            let elements = tags.chain(notes).chain(g.nodes.iter().map(|n| n.range));
            let range = elements.reduce(TextRange::cover)?.shift(start);
            Some(&text[range.to_usize()])
        })
        .collect();
    games.sort();
    games
}
