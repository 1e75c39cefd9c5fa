//! A set of text edits that can all be made at once: edits are taken whole groups at a time,
//! and a group any of whose edits would overlap or meet an edit already taken (two insertions
//! at one place, an insertion at the start of a replaced range) is left out, so that the
//! result of applying them never depends on their order.

use std::collections::BTreeSet;

use super::{TextEdit, TextRange};

/// Edits taken so far, none colliding with another.
#[derive(Debug, Default)]
pub struct EditSet {
    edits: Vec<TextEdit>,
    /// The ranges of `edits`, as (start, end), sorted.
    ranges: BTreeSet<(u32, u32)>,
}

impl EditSet {
    /// Take all of `edits` if none collides with an edit taken before (or with another of
    /// them); else take none. Returns whether they were taken.
    pub fn take(&mut self, edits: &[TextEdit]) -> bool {
        let collides_within = edits
            .iter()
            .enumerate()
            .any(|(i, a)| edits[i + 1..].iter().any(|b| collide(a.range, b.range)));
        if collides_within || edits.iter().any(|e| self.collides(e.range)) {
            return false;
        }
        for e in edits {
            self.ranges.insert((e.range.start, e.range.end));
            self.edits.push(e.clone());
        }
        true
    }

    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }

    fn collides(&self, r: TextRange) -> bool {
        // Taken ranges do not overlap, so those starting at or before `r.end` end in order;
        // once one ends before `r.start`, the earlier ones do too.
        for &(start, end) in self.ranges.range(..=(r.end, u32::MAX)).rev() {
            if collide(r, TextRange::new(start, end)) {
                return true;
            }
            if end < r.start {
                break;
            }
        }
        false
    }

    /// The edits taken, in text order.
    pub fn into_edits(mut self) -> Vec<TextEdit> {
        self.edits.sort_by_key(|e| (e.range.start, e.range.end));
        self.edits
    }
}

/// Whether two edits cannot both be made in one document edit: their ranges overlap, or an
/// insertion falls at the start of the other (where their order would be a guess).
fn collide(a: TextRange, b: TextRange) -> bool {
    let overlap = a.start < b.end && b.start < a.end;
    overlap || (a.start == b.start && (a.is_empty() || b.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: u32, end: u32, text: &str) -> TextEdit {
        TextEdit::new(TextRange::new(start, end), text)
    }

    #[test]
    fn colliding_groups_are_left_out_whole() {
        let mut set = EditSet::default();
        assert!(set.is_empty());
        assert!(set.take(&[edit(4, 6, "x"), edit(0, 1, "y")]));
        // Overlaps 4..6.
        assert!(!set.take(&[edit(8, 9, "a"), edit(5, 7, "b")]));
        // An insertion at the start of a replaced range, and two insertions at one place.
        assert!(!set.take(&[edit(4, 4, "c")]));
        assert!(set.take(&[edit(10, 10, "d")]));
        assert!(!set.take(&[edit(10, 10, "e")]));
        // Edits that only meet at an end do not collide.
        assert!(set.take(&[edit(6, 8, "f"), edit(1, 2, "g")]));
        // Two edits of one group that collide with each other.
        assert!(!set.take(&[edit(20, 22, "h"), edit(21, 23, "i")]));
        let taken: Vec<(u32, u32)> =
            set.into_edits().iter().map(|e| (e.range.start, e.range.end)).collect();
        assert_eq!(taken, [(0, 1), (1, 2), (4, 6), (6, 8), (10, 10)]);
    }
}
