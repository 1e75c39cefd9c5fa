//! Folding fixtures: every PGN file under `fixtures/ide/folding` gives a snapshot of its folds,
//! each with its kind, its lines and its text.

use pgn_lsp::ide::{DocumentAnalysis, folding_ranges};

fn check(text: &str) -> String {
    let analysis = DocumentAnalysis::new(text);
    let folds = folding_ranges(&analysis, &text);
    let line = |offset: u32| text[..offset as usize].matches('\n').count() + 1;
    let mut out = String::new();
    for pair in folds.windows(2) {
        assert!(pair[0].range.start <= pair[1].range.start, "folds in order");
    }
    for fold in folds {
        let (start, end) = (line(fold.range.start), line(fold.range.end));
        assert!(start < end, "a fold spans lines");
        let collapsed = fold.collapsed_text.map(|t| format!(" shown as {t:?}")).unwrap_or_default();
        out.push_str(&format!("{:?} lines {start}-{end}{collapsed}\n", fold.kind));
        for l in text[fold.range.to_usize()].lines() {
            out.push_str(&format!("  | {}\n", l.trim_end_matches('\r')));
        }
    }
    out
}

#[test]
fn folding_fixtures() {
    insta::glob!("fixtures/ide/folding/*.pgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&text));
    });
}
