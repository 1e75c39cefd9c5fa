//! Selection range fixtures: each `<|>` in a PGN file under `fixtures/ide/selection` is a
//! cursor; the snapshot lists, for each, the texts of its ranges from the innermost out
//! (none in the blanks between games).

mod common;

use common::cursors;
use pgn_lsp::ide::{DocumentAnalysis, selection_ranges};

fn check(marked: &str) -> String {
    let (text, offsets) = cursors(marked);
    let analysis = DocumentAnalysis::new(&text);
    let chains = selection_ranges(&analysis, &text.as_str(), &offsets);
    let mut out = String::new();
    for (offset, chain) in offsets.iter().zip(chains) {
        out.push_str(&format!("── cursor at byte {offset}\n"));
        for pair in chain.windows(2) {
            let (inner, outer) = (pair[0], pair[1]);
            assert!(
                outer.start <= inner.start && inner.end <= outer.end && inner != outer,
                "each range strictly inside the next"
            );
        }
        // LSP wants every range to contain the cursor.
        assert!(chain.iter().all(|r| r.touches(*offset)), "a range without the cursor");
        if chain.is_empty() {
            out.push_str("  (nothing: no game there)\n");
        }
        for range in chain {
            let shown = text[range.to_usize()].replace('\n', "⏎");
            out.push_str(&format!("  {shown}\n"));
        }
    }
    out
}

#[test]
fn selection_fixtures() {
    insta::glob!("fixtures/ide/selection/*.pgn", |path| {
        let marked = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&marked));
    });
}
