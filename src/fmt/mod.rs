//! The export-format printer (spec §8, §3.2): a small document IR and a greedy line filler.
