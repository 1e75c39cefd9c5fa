//! The open documents: a rope, a version and an up-to-date analysis for each. Changes are
//! applied synchronously under a `std::sync::Mutex` that is never held across an `.await`
//! (DESIGN §6.1); readers take a [`Snapshot`], which is cheap to clone and to keep. Besides the
//! documents the client opens, the store holds the files it asked the server to read from disk
//! (`disk_files`), which have no version.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use ropey::Rope;
use tower_lsp::lsp_types::{TextDocumentContentChangeEvent, Url};

use super::convert::Positions;
use crate::ide::{DocumentAnalysis, guard};
use crate::syntax::{Edit, TextSource};
use crate::text::PositionEncoding;

impl TextSource for Rope {
    fn len(&self) -> usize {
        self.len_bytes()
    }

    fn read_into(&self, start: usize, end: usize, out: &mut String) {
        let len = self.len_bytes();
        let (from, to) = (self.byte_to_char(start.min(len)), self.byte_to_char(end.min(len)));
        // `to` rounds down to a char start; take the char it falls in so the read progresses.
        let to = if self.char_to_byte(to) < end.min(len) { to + 1 } else { to };
        for chunk in self.slice(from..to).chunks() {
            out.push_str(chunk);
        }
    }

    fn line_start(&self, offset: usize) -> usize {
        // The rope also breaks lines at a lone `\r` (`cr_lines`); here only `\n` does.
        let mut line = self.byte_to_line(offset.min(self.len_bytes()));
        loop {
            let start = self.line_to_byte(line);
            if start == 0 || self.byte(start - 1) == b'\n' {
                return start;
            }
            line -= 1;
        }
    }
}

/// The state of one document a read request works on.
#[derive(Clone)]
pub struct Snapshot {
    pub rope: Rope,
    /// The client's version of the document; `None` for a file read from disk.
    pub version: Option<i32>,
    pub analysis: DocumentAnalysis,
    /// Which state of the document this is: each open and each change makes a new one (a
    /// document closed and opened again can come back with the same version).
    pub generation: u64,
}

impl Snapshot {
    pub fn positions(&self, encoding: PositionEncoding) -> Positions<'_> {
        Positions::new(&self.rope, encoding)
    }
}

/// The open documents.
#[derive(Default)]
pub struct Documents {
    open: Mutex<HashMap<Url, Snapshot>>,
    generations: AtomicU64,
}

impl Documents {
    fn lock(&self) -> MutexGuard<'_, HashMap<Url, Snapshot>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn next_generation(&self) -> u64 {
        self.generations.fetch_add(1, Ordering::Relaxed)
    }

    /// Open a document the client sent, in place of any document of the same URI.
    pub fn open(&self, uri: Url, text: String, version: i32) {
        let doc = new_snapshot(&uri, text, Some(version), self.next_generation());
        self.lock().insert(uri, doc);
    }

    /// Open (or read again) a file read from disk, unless the client has opened the same URI:
    /// its text is the client's, maybe edited and not saved. Returns whether it was opened.
    pub fn open_from_disk(&self, uri: Url, text: String) -> bool {
        if self.lock().get(&uri).is_some_and(|doc| doc.version.is_some()) {
            return false;
        }
        let doc = new_snapshot(&uri, text, None, self.next_generation());
        self.lock().insert(uri, doc);
        true
    }

    /// Apply the changes of one `didChange`, in order. Returns `false` for a document that is
    /// not open (the changes are ignored).
    pub fn change(
        &self,
        uri: &Url,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: PositionEncoding,
    ) -> bool {
        let started = Instant::now();
        let mut open = self.lock();
        let Some(doc) = open.get_mut(uri) else {
            return false;
        };
        for change in changes {
            apply_change(doc, change, encoding);
        }
        doc.version = Some(version);
        doc.generation = self.next_generation();
        tracing::debug!("{uri} version {version}: changes applied in {:?}", started.elapsed());
        true
    }

    pub fn close(&self, uri: &Url) {
        self.lock().remove(uri);
    }

    /// Close a file read from disk; a document the client opened stays. Returns whether one was
    /// closed.
    pub fn close_from_disk(&self, uri: &Url) -> bool {
        let mut open = self.lock();
        if open.get(uri).is_some_and(|doc| doc.version.is_none()) {
            open.remove(uri);
            return true;
        }
        false
    }

    pub fn uris(&self) -> Vec<Url> {
        self.lock().keys().cloned().collect()
    }

    pub fn snapshot(&self, uri: &Url) -> Option<Snapshot> {
        self.lock().get(uri).cloned()
    }

    /// Whether the document is still in state `generation` (`None`: still closed).
    pub fn is_current(&self, uri: &Url, generation: Option<u64>) -> bool {
        self.lock().get(uri).map(|doc| doc.generation) == generation
    }
}

fn apply_change(
    doc: &mut Snapshot,
    change: TextDocumentContentChangeEvent,
    encoding: PositionEncoding,
) {
    let Some(range) = change.range else {
        doc.analysis = analyse_whole(&change.text);
        doc.rope = Rope::from_str(&change.text);
        return;
    };
    let range = Positions::new(&doc.rope, encoding).text_range(range);
    let (from, to) =
        (doc.rope.byte_to_char(range.start as usize), doc.rope.byte_to_char(range.end as usize));
    doc.rope.remove(from..to);
    doc.rope.insert(from, &change.text);
    let edit =
        Edit { old_start: range.start, old_end: range.end, inserted_len: change.text.len() as u32 };
    let rope = &doc.rope;
    if guard::catch("updating the analysis", || doc.analysis.apply_edit(rope, edit)).is_err() {
        // The analysis may no longer match the text: start again from the whole text.
        doc.analysis = analyse_whole(&rope.to_string());
    }
}

/// A document of `text`, analysed.
fn new_snapshot(uri: &Url, text: String, version: Option<i32>, generation: u64) -> Snapshot {
    let started = Instant::now();
    let analysis = analyse_whole(&text);
    tracing::debug!("{uri}: {} bytes analysed in {:?}", text.len(), started.elapsed());
    // Built after the analysis, not beside it: the two at once cost more memory than time.
    let rope = Rope::from_str(&text);
    drop(text);
    Snapshot { rope, version, analysis, generation }
}

/// The analysis of a whole text; an empty one if the analysis panics (the next edits then
/// parse the whole text again, and a request answers with what there is).
fn analyse_whole(text: &str) -> DocumentAnalysis {
    guard::catch("analysing a document", || DocumentAnalysis::new(text)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tower_lsp::lsp_types::{Position, Range};

    use super::*;
    use crate::text::{LineCol, LineIndex};

    const START: &str = "[Event \"é\"]\r\n[Result \"*\"]\r\n\r\n1. e4 {♘ 𝄞} e5 *\r\n\n1. d4 d5 *\n";

    /// A change replacing `start..end` of `text`, with positions computed by `text::LineIndex`
    /// (an implementation independent of the rope's).
    fn change(
        text: &str,
        start: usize,
        end: usize,
        insert: &str,
        encoding: PositionEncoding,
    ) -> TextDocumentContentChangeEvent {
        let index = LineIndex::new(text);
        let pos = |offset: usize| {
            let LineCol { line, col } = index.line_col(text, offset as u32, encoding);
            Position::new(line, col)
        };
        TextDocumentContentChangeEvent {
            range: Some(Range::new(pos(start), pos(end))),
            range_length: None,
            text: insert.to_owned(),
        }
    }

    /// A char boundary at or before `at`, not inside a CRLF (no LSP position lies there).
    fn boundary(text: &str, at: usize) -> usize {
        let at = text.floor_char_boundary(at.min(text.len()));
        if text[..at].ends_with('\r') && text[at..].starts_with('\n') { at - 1 } else { at }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random edits sent as LSP changes give the same text as the same edits applied to a
        /// `String`, and an analysis equal to a fresh one.
        #[test]
        fn lsp_changes_match_string_edits(
            edits in proptest::collection::vec(
                (0..80usize, 0..6usize, "[a-e1-8 {}()\\[\\]\"\n*é♘𝄞]{0,6}"),
                1..12,
            ),
            encoding in prop_oneof![
                Just(PositionEncoding::Utf8),
                Just(PositionEncoding::Utf16),
                Just(PositionEncoding::Utf32),
            ],
        ) {
            let uri = Url::parse("file:///test.pgn").unwrap();
            let documents = Documents::default();
            documents.open(uri.clone(), START.to_owned(), 1);
            let mut text = START.to_owned();
            for (i, (at, len, insert)) in edits.into_iter().enumerate() {
                let start = boundary(&text, at);
                let end = boundary(&text, start + len);
                let change = change(&text, start, end, &insert, encoding);
                text.replace_range(start..end, &insert);
                prop_assert!(documents.change(&uri, i as i32 + 2, vec![change], encoding));
            }
            let doc = documents.snapshot(&uri).unwrap();
            prop_assert_eq!(doc.rope.to_string(), text.clone());
            let fresh = DocumentAnalysis::new(&text);
            let games = |a: &DocumentAnalysis| a.games().map(|(s, g)| (s, g.len, g.diagnostics.clone())).collect::<Vec<_>>();
            prop_assert_eq!(games(&doc.analysis), games(&fresh));
        }
    }

    #[test]
    fn changes_to_unknown_documents_are_refused() {
        let documents = Documents::default();
        let uri = Url::parse("file:///nowhere.pgn").unwrap();
        let change = change("", 0, 0, "1. e4 *", PositionEncoding::Utf16);
        assert!(!documents.change(&uri, 2, vec![change], PositionEncoding::Utf16));
        assert!(documents.snapshot(&uri).is_none());
    }

    #[test]
    fn a_full_change_replaces_the_text() {
        let documents = Documents::default();
        let uri = Url::parse("file:///a.pgn").unwrap();
        documents.open(uri.clone(), START.to_owned(), 1);
        let full = TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "1. e4 *\n".to_owned(),
        };
        assert!(documents.change(&uri, 2, vec![full], PositionEncoding::Utf16));
        let doc = documents.snapshot(&uri).unwrap();
        assert_eq!(
            (doc.rope.to_string().as_str(), doc.version, doc.analysis.game_count()),
            ("1. e4 *\n", Some(2), 1)
        );
    }

    #[test]
    fn the_rope_reads_on_char_boundaries() {
        let rope = Rope::from_str("a𝄞b");
        let mut out = String::new();
        rope.read_into(0, 2, &mut out);
        assert_eq!(out, "a𝄞");
        assert_eq!(rope.read(1, 6), "𝄞b");
    }
}
