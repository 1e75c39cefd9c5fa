//! The formatter's round trip over a corpus of real PGN: `PGN_CORPUS=dir cargo test --release
//! --test fmt_corpus -- --ignored`. Every `.pgn` file under the directory (and every `.pgn.zst`,
//! decompressed) is formatted with the default options and with comment text kept; for each:
//! formatting the output again changes nothing, the content is unchanged (games with structural
//! errors byte for byte), and the output has no diagnostic the input did not have (the property
//! of `tests/invariants/format.rs`, which the fuzz target `format` checks too).

#[allow(dead_code)]
#[path = "invariants/mod.rs"]
mod invariants;

use std::path::{Path, PathBuf};

use invariants::format::round_trip;
use pgn_lsp::fmt::FormatOptions;

#[test]
#[ignore = "needs PGN_CORPUS, a directory of PGN files"]
fn corpus_round_trip() {
    let dir = std::env::var_os("PGN_CORPUS").expect("PGN_CORPUS names a directory of PGN files");
    let mut files = Vec::new();
    collect_pgn_files(Path::new(&dir), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .pgn or .pgn.zst files under {dir:?}");
    let option_sets = [
        ("default", FormatOptions::default()),
        ("comments kept", FormatOptions { reflow_comments: false, ..FormatOptions::default() }),
    ];
    let mut failures = Vec::new();
    let mut games = 0usize;
    for path in &files {
        let text = read_text(path);
        for (label, options) in &option_sets {
            match round_trip(&text, options) {
                Ok(n) => games += n,
                Err(e) => failures.push(format!("{} ({label}): {e}", path.display())),
            }
        }
    }
    println!("{} files, {games} games checked ({} option sets)", files.len(), option_sets.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn collect_pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
        if path.is_dir() {
            collect_pgn_files(&path, out);
        } else if name.ends_with(".pgn") || name.ends_with(".pgn.zst") {
            out.push(path);
        }
    }
}

/// The file's text: decompressed when it is `.zst`, read as Latin-1 when it is not UTF-8.
fn read_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bytes = if path.extension().is_some_and(|e| e == "zst") {
        zstd::decode_all(bytes.as_slice()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    } else {
        bytes
    };
    String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().iter().map(|&b| char::from(b)).collect())
}
