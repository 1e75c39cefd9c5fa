//! Document and workspace symbol fixtures: every PGN file under `fixtures/ide/symbols` gives a
//! snapshot of its outline (each symbol with its name, detail, and the text of its range and
//! selection range) and of the games that a few queries find.

use pgn_lsp::ide::{DocumentAnalysis, Symbol, document_symbols, workspace_symbols};
use pgn_lsp::syntax::TextSource;

/// A range's text on one line: line breaks shown as `⏎`, long texts cut in the middle.
fn excerpt(text: &str) -> String {
    let one_line = text.replace("\r\n", "⏎").replace('\n', "⏎");
    let chars: Vec<char> = one_line.chars().collect();
    if chars.len() <= 60 {
        return one_line;
    }
    let head: String = chars[..28].iter().collect();
    let tail: String = chars[chars.len() - 28..].iter().collect();
    format!("{head} … {tail}")
}

fn outline(text: &str, symbol: &Symbol, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    let detail = symbol.detail.as_deref().map(|d| format!(" · {d}")).unwrap_or_default();
    out.push_str(&format!("{indent}{:?} {}{detail}\n", symbol.role, symbol.name));
    out.push_str(&format!("{indent}  range:     {}\n", excerpt(&text[symbol.range.to_usize()])));
    out.push_str(&format!(
        "{indent}  selection: {}\n",
        excerpt(&text[symbol.selection.to_usize()])
    ));
    for child in &symbol.children {
        assert!(
            symbol.range.start <= child.range.start && child.range.end <= symbol.range.end,
            "a child lies inside its parent"
        );
        outline(text, child, depth + 1, out);
    }
}

fn check(text: &str) -> String {
    let analysis = DocumentAnalysis::new(text);
    let symbols = document_symbols(&analysis, &text);
    assert_eq!(symbols.len(), analysis.game_count(), "one symbol per game");
    let mut out = String::new();
    for symbol in &symbols {
        assert!(
            symbol.range.start <= symbol.selection.start
                && symbol.selection.end <= symbol.range.end,
            "the selection lies inside the range"
        );
        outline(text, symbol, 0, &mut out);
    }
    for query in ["", "carlsen", "GIRI", "ljubo", "tata", "anon", "nobody"] {
        let sources = [((), &analysis, &text as &dyn TextSource)];
        let found = workspace_symbols(sources, query, 3);
        out.push_str(&format!("\nquery {query:?}:\n"));
        for game in found {
            out.push_str(&format!("  {} · {:?}\n", game.name, game.detail));
        }
    }
    out
}

#[test]
fn symbol_fixtures() {
    insta::glob!("fixtures/ide/symbols/*.pgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&text));
    });
}

#[test]
fn workspace_symbols_span_documents_and_stop_at_the_limit() {
    let one = "[White \"Tal\"]\n[Black \"Botvinnik\"]\n\n1. e4 *\n";
    let two = one.repeat(3);
    let two = two.as_str();
    let (a, b) = (DocumentAnalysis::new(one), DocumentAnalysis::new(two));
    let documents = || [("one", &a, &one as &dyn TextSource), ("two", &b, &two as _)];
    let names = |query, limit| {
        workspace_symbols(documents(), query, limit)
            .into_iter()
            .map(|g| (g.document, g.range.start))
            .collect::<Vec<_>>()
    };
    let second = one.len() as u32;
    assert_eq!(names("botv", 10), [("one", 0), ("two", 0), ("two", second), ("two", 2 * second)]);
    assert_eq!(names("TAL", 2), [("one", 0), ("two", 0)]);
    assert_eq!(names("karpov", 10), []);
}

/// Whitespace alone is no game: no symbol in the outline, none found.
#[test]
fn a_blank_document_has_no_symbols() {
    for text in ["", " ", "\n\n", "\r\n\t\n"] {
        let analysis = DocumentAnalysis::new(text);
        assert_eq!(document_symbols(&analysis, &text), Vec::new(), "{text:?}");
        let sources = [((), &analysis, &text as &dyn TextSource)];
        assert_eq!(workspace_symbols(sources, "", 3), Vec::new(), "{text:?}");
    }
}
