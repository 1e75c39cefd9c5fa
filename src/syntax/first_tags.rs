//! The first tag pair of each name in a game, for the duplicate-tag check and the game
//! boundary between tag-only games. A game has a dozen tags, so they are looked up by a scan;
//! past [`SCAN_LIMIT`] names (a game may have ten thousand) a hash map takes over, so a game's
//! tags are checked in linear time either way. Most lookups are of a name not seen yet (every
//! tag of a game but its duplicates), so a 64-bit filter of the names seen answers those without
//! a scan.

use std::collections::HashMap;

use crate::text::TextRange;

/// The most names looked up by a scan. Scanning a few short names is faster than hashing one.
const SCAN_LIMIT: usize = 24;

/// Tag names with the range of the first tag pair of each.
#[derive(Debug, Default)]
pub(crate) struct FirstTags<'a> {
    /// Every name, in the order first seen.
    names: Vec<(&'a str, TextRange)>,
    /// Index into `names` by name, once there are more than `SCAN_LIMIT`.
    index: HashMap<&'a str, usize>,
    /// The bits [`filter_bit`] gives the names seen: a name whose bit is clear is not among
    /// them.
    filter: u64,
}

/// A name's bit in [`FirstTags::filter`], from its length and its first and last bytes: they
/// tell apart the names of a typical game (`White`, `WhiteElo`, `WhiteTitle`, ...) in a few
/// instructions, where hashing the whole name would cost more than the scan it saves.
fn filter_bit(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return 1;
    };
    let key = u32::from(first) | u32::from(last) << 8 | (bytes.len() as u32) << 16;
    // Fibonacci hashing: the top six bits of the product pick one of 64 bits.
    1 << (key.wrapping_mul(0x9E37_79B1) >> 26)
}

impl<'a> FirstTags<'a> {
    pub fn with_capacity(names: usize) -> Self {
        FirstTags { names: Vec::with_capacity(names), index: HashMap::new(), filter: 0 }
    }

    /// The range of the first tag pair named `name`.
    pub fn get(&self, name: &str) -> Option<TextRange> {
        self.find(name, filter_bit(name))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The range of the first tag pair named `name`; when there is none yet, `range` becomes
    /// it. One call per tag pair: the name's filter bit is worked out once.
    #[inline(always)]
    pub fn first_or_insert(&mut self, name: &'a str, range: TextRange) -> Option<TextRange> {
        let bit = filter_bit(name);
        if let Some(first) = self.find(name, bit) {
            return Some(first);
        }
        self.filter |= bit;
        self.names.push((name, range));
        if self.names.len() > SCAN_LIMIT {
            self.index_last();
        }
        None
    }

    /// Put the name pushed last into the index, building the index when it is the first name
    /// past the scan limit. Rare: out of line, so that [`FirstTags::first_or_insert`] stays
    /// short.
    #[cold]
    #[inline(never)]
    fn index_last(&mut self) {
        if self.index.is_empty() {
            self.index = self.names.iter().enumerate().map(|(i, &(n, _))| (n, i)).collect();
        } else {
            let (name, _) = self.names[self.names.len() - 1];
            self.index.insert(name, self.names.len() - 1);
        }
    }

    /// The range of the first tag pair named `name`, whose filter bit is `bit`.
    #[inline(always)]
    fn find(&self, name: &str, bit: u64) -> Option<TextRange> {
        if self.filter & bit == 0 {
            None
        } else if self.names.len() <= SCAN_LIMIT {
            self.names.iter().find(|(seen, _)| *seen == name).map(|&(_, range)| range)
        } else {
            self.index.get(name).map(|&i| self.names[i].1)
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Whatever bits the names share in the filter, every lookup finds what a scan of all
        /// the names so far finds.
        #[test]
        fn lookups_agree_with_a_scan(names in prop::collection::vec("[A-Za-z0-9_]{0,6}", 0..80)) {
            let mut tags = FirstTags::default();
            let mut seen: Vec<(&str, TextRange)> = Vec::new();
            for (i, name) in names.iter().enumerate() {
                let first = seen.iter().find(|(n, _)| n == name).map(|&(_, r)| r);
                prop_assert_eq!(tags.get(name), first);
                prop_assert_eq!(tags.first_or_insert(name, TextRange::empty(i as u32)), first);
                if first.is_none() {
                    seen.push((name, TextRange::empty(i as u32)));
                }
            }
        }
    }

    #[test]
    fn first_range_of_each_name_before_and_after_the_scan_limit() {
        let names: Vec<String> = (0..3 * SCAN_LIMIT).map(|i| format!("Tag{i}")).collect();
        let mut tags = FirstTags::default();
        for (i, name) in names.iter().enumerate() {
            assert!(!tags.contains(name));
            assert_eq!(tags.first_or_insert(name, TextRange::empty(i as u32)), None);
            // Every name so far is found with its own range, whichever way it is looked up.
            for (j, seen) in names[..=i].iter().enumerate() {
                assert_eq!(tags.get(seen), Some(TextRange::empty(j as u32)));
            }
            assert_eq!(tags.get("Other"), None);
        }
    }
}
