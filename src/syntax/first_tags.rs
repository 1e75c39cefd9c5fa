//! The first tag pair of each name in a game, for the duplicate-tag check and the game
//! boundary between tag-only games. A game has a dozen tags, so they are looked up by a scan;
//! past [`SCAN_LIMIT`] names (a game may have ten thousand) a hash map takes over, so a game's
//! tags are checked in linear time either way.

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
}

impl<'a> FirstTags<'a> {
    pub fn with_capacity(names: usize) -> Self {
        FirstTags { names: Vec::with_capacity(names), index: HashMap::new() }
    }

    /// The range of the first tag pair named `name`.
    pub fn get(&self, name: &str) -> Option<TextRange> {
        if self.names.len() <= SCAN_LIMIT {
            self.names.iter().find(|(seen, _)| *seen == name).map(|&(_, range)| range)
        } else {
            self.index.get(name).map(|&i| self.names[i].1)
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Remember `range` as the first tag pair named `name` (which has not been seen).
    pub fn insert(&mut self, name: &'a str, range: TextRange) {
        debug_assert!(!self.contains(name), "{name:?} seen twice");
        self.names.push((name, range));
        if self.names.len() > SCAN_LIMIT {
            if self.index.is_empty() {
                self.index = self.names.iter().enumerate().map(|(i, &(n, _))| (n, i)).collect();
            } else {
                self.index.insert(name, self.names.len() - 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_range_of_each_name_before_and_after_the_scan_limit() {
        let names: Vec<String> = (0..3 * SCAN_LIMIT).map(|i| format!("Tag{i}")).collect();
        let mut tags = FirstTags::default();
        for (i, name) in names.iter().enumerate() {
            assert!(!tags.contains(name));
            tags.insert(name, TextRange::empty(i as u32));
            // Every name so far is found with its own range, whichever way it is looked up.
            for (j, seen) in names[..=i].iter().enumerate() {
                assert_eq!(tags.get(seen), Some(TextRange::empty(j as u32)));
            }
            assert_eq!(tags.get("Other"), None);
        }
    }
}
