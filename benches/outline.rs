//! Benchmark of the whole-document outline features on one large document, at the `ide` level
//! over a rope as the server holds it: document symbols, folding ranges and full semantic
//! tokens (UTF-16), each run once, after the document's analysis.
//!
//! `cargo bench --bench outline -- FILE` (a PGN file, plain or `.zst`; build a 100 MB one with
//! `scripts/build_big_document.sh`).

mod common;

use common::{read_pgn, time};
use pgn_lsp::ide::{DocumentAnalysis, document_symbols, folding_ranges, semantic_tokens};
use pgn_lsp::text::{LineCol, PositionEncoding};
use ropey::Rope;

/// The outline benchmark's command line.
#[derive(clap::Parser)]
#[command(name = "outline", about = "Document symbols, folding ranges and semantic tokens")]
struct Args {
    /// What `cargo bench` passes to every benchmark program.
    #[arg(long, hide = true)]
    bench: bool,
    /// A PGN file, plain or `.zst`.
    file: String,
}

fn main() {
    let path = <Args as clap::Parser>::parse().file;
    let text = read_pgn(&path);
    let (analysed, analysis) = time(|| DocumentAnalysis::new(&text));
    let rope = Rope::from_str(&text);
    println!(
        "{path}: {} MB, {} games, analysed in {:.2} s",
        text.len() / 1_000_000,
        analysis.game_count(),
        analysed.as_secs_f64()
    );
    drop(text);
    let (took, symbols) = time(|| document_symbols(&analysis, &rope));
    println!("document symbols: {:.2} s ({} symbols)", took.as_secs_f64(), symbols.len());
    drop(symbols);
    let (took, folds) = time(|| folding_ranges(&analysis, &rope));
    println!("folding ranges: {:.2} s ({} folds)", took.as_secs_f64(), folds.len());
    drop(folds);
    let start = |_| LineCol::default();
    let (took, count) = time(|| {
        let mut count = 0usize;
        semantic_tokens(&analysis, &rope, None, PositionEncoding::Utf16, &start, |_| count += 1);
        count
    });
    println!("semantic tokens, full: {:.2} s ({count} tokens)", took.as_secs_f64());
}
