//! Semantic token fixtures: every PGN file under `fixtures/ide/semantic_tokens` gives a
//! snapshot of its tokens, one per line: position (line from 1, column from 0 in UTF-16 units),
//! length, type, modifiers and text. Every token's position is checked in UTF-8, UTF-16 and UTF-32 against
//! `text::LineIndex`, and a property test checks the same on random text.

use pgn_lsp::ide::{DocumentAnalysis, SemanticToken, TokenModifiers, semantic_tokens};
use pgn_lsp::text::{LineIndex, PositionEncoding, TextRange};
use proptest::prelude::*;

const ENCODINGS: [PositionEncoding; 3] =
    [PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32];

fn tokens(text: &str, range: Option<TextRange>, encoding: PositionEncoding) -> Vec<SemanticToken> {
    let analysis = DocumentAnalysis::new(text);
    let index = LineIndex::new(text);
    let position = |offset| index.line_col(text, offset, encoding);
    let mut out = Vec::new();
    semantic_tokens(&analysis, &text, range, encoding, &position, |t| out.push(t));
    out
}

/// Tokens are in order, apart, on one line each, and where `LineIndex` puts them.
fn check_positions(text: &str, tokens: &[SemanticToken], encoding: PositionEncoding) {
    let index = LineIndex::new(text);
    for pair in tokens.windows(2) {
        assert!(pair[0].range.end <= pair[1].range.start, "in order, apart: {pair:?}");
    }
    for t in tokens {
        let token_text = &text[t.range.to_usize()];
        assert!(!token_text.is_empty() && !token_text.contains(['\n', '\r']), "{t:?}");
        assert_eq!(t.start, index.line_col(text, t.range.start, encoding), "{encoding:?} {t:?}");
        let end = index.line_col(text, t.range.end, encoding);
        assert_eq!((end.line, end.col), (t.start.line, t.start.col + t.len), "{encoding:?}");
    }
}

fn check(text: &str) -> String {
    for encoding in ENCODINGS {
        check_positions(text, &tokens(text, None, encoding), encoding);
    }
    let all = tokens(text, None, PositionEncoding::Utf16);
    // A range request gives the tokens of the full request that overlap the range.
    let middle = TextRange::new(text.len() as u32 / 3, text.len() as u32 * 2 / 3);
    let in_middle: Vec<SemanticToken> =
        all.iter().copied().filter(|t| t.range.intersects(middle)).collect();
    assert_eq!(tokens(text, Some(middle), PositionEncoding::Utf16), in_middle);
    let mut out = String::new();
    for t in all {
        let modifiers: Vec<&str> = TokenModifiers::NAMES
            .iter()
            .enumerate()
            .filter(|&(bit, _)| t.modifiers.contains(TokenModifiers(1 << bit)))
            .map(|(_, name)| *name)
            .collect();
        out.push_str(&format!(
            "{}:{} +{} {:?} [{}] {:?}\n",
            t.start.line + 1,
            t.start.col,
            t.len,
            t.kind,
            modifiers.join(" "),
            &text[t.range.to_usize()],
        ));
    }
    out
}

#[test]
fn semantic_token_fixtures() {
    insta::glob!("fixtures/ide/semantic_tokens/*.pgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&text));
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn tokens_sit_where_the_line_index_puts_them(
        text in "([\\[\\]{}()\"$%;!?]|[a-h1-8xNBQK+#. ]{1,4}|\n|\r\n|\r|é|♘|𝄞|\\[%clk 0:01:02\\]|1-0|\\*){0,40}",
    ) {
        for encoding in ENCODINGS {
            check_positions(&text, &tokens(&text, None, encoding), encoding);
        }
    }
}
