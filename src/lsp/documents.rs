//! The open documents: a rope, a version and an up-to-date analysis for each. Changes are
//! applied synchronously under a `std::sync::Mutex` that is never held across an `.await`
//! (DESIGN §6.1); readers take a [`Snapshot`], which is cheap to clone and to keep.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

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
}

/// The state of one document a read request works on.
#[derive(Clone)]
pub struct Snapshot {
    pub rope: Rope,
    pub version: i32,
    pub analysis: DocumentAnalysis,
}

impl Snapshot {
    pub fn positions(&self, encoding: PositionEncoding) -> Positions<'_> {
        Positions { rope: &self.rope, encoding }
    }
}

/// The open documents.
#[derive(Default)]
pub struct Documents {
    open: Mutex<HashMap<Url, Snapshot>>,
}

impl Documents {
    fn lock(&self) -> MutexGuard<'_, HashMap<Url, Snapshot>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn open(&self, uri: Url, text: String, version: i32) {
        let analysis = analyse_whole(&text);
        let rope = Rope::from_str(&text);
        drop(text);
        self.lock().insert(uri, Snapshot { rope, version, analysis });
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
        let mut open = self.lock();
        let Some(doc) = open.get_mut(uri) else {
            return false;
        };
        for change in changes {
            apply_change(doc, change, encoding);
        }
        doc.version = version;
        true
    }

    pub fn close(&self, uri: &Url) {
        self.lock().remove(uri);
    }

    pub fn snapshot(&self, uri: &Url) -> Option<Snapshot> {
        self.lock().get(uri).cloned()
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
    let range = Positions { rope: &doc.rope, encoding }.text_range(range);
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

/// The analysis of a whole text; an empty one if the analysis panics (the next edits then
/// parse the whole text again, and a request answers with what there is).
fn analyse_whole(text: &str) -> DocumentAnalysis {
    guard::catch("analysing a document", || DocumentAnalysis::new(text)).unwrap_or_default()
}
