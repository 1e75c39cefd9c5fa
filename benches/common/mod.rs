//! What the benchmarks share: reading PGN files (plain or zstd) and timing.

#![allow(dead_code)] // Each benchmark uses a different part of it.

use std::io::Read;
use std::time::{Duration, Instant};

/// The bytes of a PGN file; `.zst` files are decompressed as they are read.
pub fn read_bytes(path: &str) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut bytes = Vec::new();
    if path.ends_with(".zst") {
        zstd::stream::read::Decoder::new(file).and_then(|mut d| d.read_to_end(&mut bytes))
    } else {
        std::io::BufReader::new(file).read_to_end(&mut bytes)
    }
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    bytes
}

/// The text of a PGN file, read as UTF-8, or as Latin-1 when it is not UTF-8 (as `pgn-lsp`
/// reads files).
pub fn read_pgn(path: &str) -> String {
    String::from_utf8(read_bytes(path))
        .unwrap_or_else(|e| e.into_bytes().iter().map(|&b| char::from(b)).collect())
}

/// How long `f` takes.
pub fn time<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let started = Instant::now();
    let value = f();
    (started.elapsed(), value)
}

/// Megabytes (10^6 bytes) per second.
pub fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / time.as_secs_f64() / 1e6
}
