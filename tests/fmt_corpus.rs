//! The formatter's round trip over a corpus of real PGN: `PGN_CORPUS=dir cargo test --release
//! --test fmt_corpus -- --ignored`. Every `.pgn` file under the directory (and every `.pgn.zst`,
//! decompressed) is formatted with the default options and with comment text kept; for each:
//! formatting the output again changes nothing, the content is unchanged (games with structural
//! errors byte for byte), and the output has no diagnostic the input did not have.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pgn_lsp::chess::analyze;
use pgn_lsp::fmt::{FormatOptions, content::compare_texts, format_text};
use pgn_lsp::syntax::{Code, parse_games};

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
            match check_round_trip(&text, options) {
                Ok(n) => games += n,
                Err(e) => failures.push(format!("{} ({label}): {e}", path.display())),
            }
        }
    }
    println!("{} files, {games} games checked", files.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Idempotence, unchanged content and no new diagnostics; returns the number of games compared.
fn check_round_trip(text: &str, options: &FormatOptions) -> Result<usize, String> {
    let once = format_text(text, options);
    let twice = format_text(&once, options);
    if twice != once {
        let line = once.lines().zip(twice.lines()).position(|(a, b)| a != b).unwrap_or(0);
        let show =
            |t: &str| t.lines().skip(line.saturating_sub(1)).take(3).collect::<Vec<_>>().join("⏎");
        return Err(format!(
            "not idempotent at output line {}: {:?} became {:?}",
            line + 1,
            show(&once),
            show(&twice)
        ));
    }
    let games = compare_texts(text, &once, options).map_err(|e| e.to_string())?;
    let (before, after) = (diagnostic_codes(text), diagnostic_codes(&once));
    let new: Vec<String> = after
        .iter()
        .filter(|(code, n)| **n > before.get(*code).copied().unwrap_or(0))
        .map(|(code, n)| format!("{} ({} > {})", code.as_str(), n, before.get(code).unwrap_or(&0)))
        .collect();
    if !new.is_empty() {
        return Err(format!("new diagnostics: {}", new.join(", ")));
    }
    Ok(games)
}

/// How many diagnostics of each code the parser and the chess analysis give on `text`, leaving
/// out those formatting is meant to remove.
fn diagnostic_codes(text: &str) -> BTreeMap<Code, usize> {
    let mut codes = BTreeMap::new();
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        let analysis = analyze(&game, src);
        for d in game.diagnostics.iter().chain(&analysis.diagnostics) {
            if d.code != Code::LineTooLong {
                *codes.entry(d.code).or_insert(0) += 1;
            }
        }
    }
    codes
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
