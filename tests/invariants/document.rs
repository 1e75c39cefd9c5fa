//! The server's documents follow their edits (DESIGN §8): random incremental changes, sent as
//! the protocol sends them (ranges in UTF-8, UTF-16 or UTF-32 positions, several changes in one
//! `didChange`, now and then the whole text), leave the document's rope equal to the same edits
//! applied to a `String`, and its analysis equal to one of the edited text from scratch, after
//! every `didChange`. Positions are computed with `text::LineIndex`, independently of the rope.

use arbitrary::Unstructured;
use pgn_lsp::ide::DocumentAnalysis;
use pgn_lsp::lsp::Documents;
use pgn_lsp::text::{LineCol, LineIndex, PositionEncoding};
use tower_lsp::lsp_types::{Position, Range, TextDocumentContentChangeEvent, Url};

use super::reparse::Edit;

/// One change of a `didChange`.
#[derive(Clone, Debug)]
pub enum Change {
    Edit(Edit),
    /// The whole text replaced.
    Full(String),
}

#[derive(Clone, Debug)]
pub struct Case {
    pub text: String,
    pub encoding: PositionEncoding,
    /// The `didChange` notifications, each with its changes in order.
    pub notifications: Vec<Vec<Change>>,
}

/// The notifications come first in the bytes, the text is what is left.
pub fn decode(data: &[u8]) -> Case {
    let mut u = Unstructured::new(data);
    let encoding = encoding(&mut u).unwrap_or_default();
    let notifications = notifications(&mut u).unwrap_or_default();
    Case { text: super::rest_as_text(u), encoding, notifications }
}

fn encoding(u: &mut Unstructured<'_>) -> arbitrary::Result<PositionEncoding> {
    Ok(*u.choose(&[PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32])?)
}

fn notifications(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<Vec<Change>>> {
    let count = u.int_in_range(0..=6)?;
    (0..count)
        .map(|_| {
            let edits = super::reparse::edits(u)?;
            let mut changes: Vec<Change> = edits.into_iter().map(Change::Edit).collect();
            if u.ratio(1, 16)? {
                let fragments = u.int_in_range(0..=12)?;
                changes.push(Change::Full(super::fragments(u, fragments)));
            }
            Ok(changes)
        })
        .collect()
}

pub fn run(data: &[u8]) {
    check(&decode(data));
}

pub fn check(case: &Case) {
    let uri = Url::parse("file:///fuzz.pgn").expect("a valid URI");
    let documents = Documents::default();
    documents.open(uri.clone(), case.text.clone(), 1);
    let mut text = case.text.clone();
    for (i, changes) in case.notifications.iter().enumerate() {
        let events: Vec<TextDocumentContentChangeEvent> =
            changes.iter().map(|change| apply(&mut text, change, case.encoding)).collect();
        assert!(documents.change(&uri, i as i32 + 2, events, case.encoding), "document not open");
        let doc = documents.snapshot(&uri).expect("the document is open");
        assert_eq!(doc.rope.to_string(), text, "the rope after {changes:?}");
        let fresh = DocumentAnalysis::new(&text);
        let games = |a: &DocumentAnalysis| {
            a.games().map(|(s, g)| (s, g.len, g.diagnostics.clone())).collect::<Vec<_>>()
        };
        assert_eq!(games(&doc.analysis), games(&fresh), "the analysis after {changes:?}");
    }
}

/// Apply `change` to `text` and return it as the protocol sends it (positions in the text
/// before the change).
fn apply(
    text: &mut String,
    change: &Change,
    encoding: PositionEncoding,
) -> TextDocumentContentChangeEvent {
    match change {
        Change::Full(new) => {
            text.clone_from(new);
            TextDocumentContentChangeEvent { range: None, range_length: None, text: new.clone() }
        }
        Change::Edit(edit) => {
            let range = edit.range(text);
            let (start, end) =
                (position_boundary(text, range.start), position_boundary(text, range.end));
            let index = LineIndex::new(text);
            let pos = |offset: usize| {
                let LineCol { line, col } = index.line_col(text, offset as u32, encoding);
                Position::new(line, col)
            };
            let event = TextDocumentContentChangeEvent {
                range: Some(Range::new(pos(start), pos(start.max(end)))),
                range_length: None,
                text: edit.insert.clone(),
            };
            text.replace_range(start..start.max(end), &edit.insert);
            event
        }
    }
}

/// `at` moved back off the middle of a CRLF, where no protocol position lies.
fn position_boundary(text: &str, at: usize) -> usize {
    if text[..at].ends_with('\r') && text[at..].starts_with('\n') { at - 1 } else { at }
}
