//! Diagnostics fixtures: every `tests/fixtures/diagnostics/*.pgn` is checked (syntax and chess
//! layers) and its diagnostics, one per line with positions, fixes and related locations, are
//! compared with an insta snapshot. Each fixture's first line names what it shows.

mod common;

use pgn_lsp::text::{LineIndex, PositionEncoding, TextEdit};

/// One line per diagnostic: `line:col-line:col severity[code] message`, then its fixes (with
/// the text they produce for the lines their first edit reaches) and related locations.
fn render(text: &str) -> String {
    let index = LineIndex::new(text);
    let pos = |offset| {
        let lc = index.line_col(text, offset, PositionEncoding::Utf32);
        format!("{}:{}", lc.line + 1, lc.col + 1)
    };
    let mut out = String::new();
    for d in common::diagnostics(text) {
        out += &format!(
            "{}-{} {}[{}] {}\n",
            pos(d.range.start),
            pos(d.range.end),
            d.severity.as_str(),
            d.code.as_str(),
            d.message
        );
        for r in &d.related {
            out += &format!("    related {}: {}\n", pos(r.range.start), r.message);
        }
        for f in &d.fixes {
            let fixed = TextEdit::apply_all(text, &f.edits);
            let first = &f.edits[0];
            let line = index.line_col(text, first.range.start, PositionEncoding::Utf8).line;
            // The lines of the fixed text the first edit reaches, a line break shown as ⏎.
            let lines = 1 + first.new_text.matches('\n').count();
            let fixed_lines: Vec<&str> = fixed.lines().skip(line as usize).take(lines).collect();
            out += &format!("    fix \"{}\": {}\n", f.title, fixed_lines.join(" ⏎ "));
        }
    }
    out
}

#[test]
fn diagnostics_fixtures() {
    insta::glob!("fixtures/diagnostics/*.pgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(render(&text));
    });
}

/// Every diagnostic code is shown by at least one fixture (`not-utf8` is a property of a file's
/// bytes, shown by the CLI tests).
#[test]
fn every_code_has_a_fixture() {
    use pgn_lsp::syntax::Code;
    let mut seen = std::collections::HashSet::new();
    for entry in std::fs::read_dir("tests/fixtures/diagnostics").unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        seen.extend(common::diagnostics(&text).iter().map(|d| d.code));
    }
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| **c != Code::NotUtf8 && !seen.contains(c))
        .map(|c| c.as_str())
        .collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}
