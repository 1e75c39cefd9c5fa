//! Byte ranges and text edits.

use std::ops::Range;

/// A half-open range of byte offsets `[start, end)` into some text.
///
/// Offsets are `u32`: documents are limited to 4 GiB, which halves the size of every stored
/// range compared with `usize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    pub const fn new(start: u32, end: u32) -> Self {
        debug_assert!(start <= end);
        TextRange { start, end }
    }

    pub const fn empty(at: u32) -> Self {
        TextRange { start: at, end: at }
    }

    pub const fn len(self) -> u32 {
        self.end - self.start
    }

    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The range moved by `delta` bytes (used to turn game-relative ranges into file ranges).
    pub const fn shift(self, delta: u32) -> Self {
        TextRange { start: self.start + delta, end: self.end + delta }
    }

    /// Whether `offset` lies inside the range, its end included (a cursor right after a token
    /// still touches it).
    pub const fn touches(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }

    pub const fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset < self.end
    }

    pub const fn intersects(self, other: TextRange) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// The smallest range covering both.
    pub fn cover(self, other: TextRange) -> Self {
        TextRange { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn to_usize(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl From<Range<usize>> for TextRange {
    fn from(r: Range<usize>) -> Self {
        TextRange::new(r.start as u32, r.end as u32)
    }
}

impl std::ops::Index<TextRange> for str {
    type Output = str;
    fn index(&self, r: TextRange) -> &str {
        &self[r.to_usize()]
    }
}

/// Replace the text in `range` by `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

impl TextEdit {
    pub fn new(range: TextRange, new_text: impl Into<String>) -> Self {
        TextEdit { range, new_text: new_text.into() }
    }

    /// Apply edits that do not overlap (in any order) to `text`.
    pub fn apply_all(text: &str, edits: &[TextEdit]) -> String {
        let mut sorted: Vec<&TextEdit> = edits.iter().collect();
        sorted.sort_by_key(|e| (e.range.start, e.range.end));
        let mut out = String::with_capacity(text.len());
        let mut at = 0usize;
        for e in sorted {
            out.push_str(&text[at..e.range.start as usize]);
            out.push_str(&e.new_text);
            at = e.range.end as usize;
        }
        out.push_str(&text[at..]);
        out
    }
}
