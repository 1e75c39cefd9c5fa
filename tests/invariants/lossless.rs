//! Parsing is lossless and total (DESIGN §3): the games tile the text, the lexer's tokens and a
//! game's elements leave only whitespace between them, and the chess analysis never panics.
//! Every diagnostic of the parser and of the analysis lies inside its game, on character
//! boundaries (its related places and fix edits too), with a message of a few words.

use pgn_lsp::chess;
use pgn_lsp::syntax::{Diagnostic, TokenKind, lex, parse_games};
use pgn_lsp::text::TextRange;

/// The longest message a diagnostic may have: messages quote at most an excerpt of the text.
const MAX_MESSAGE: usize = 300;

/// Check the text of the bytes (U+FFFD for what is not UTF-8).
pub fn run(data: &[u8]) {
    check(&String::from_utf8_lossy(data));
}

pub fn check(text: &str) {
    let mut covered = 0u32;
    for (start, game) in parse_games(text) {
        assert_eq!(start, covered, "games must follow each other");
        assert!(game.len > 0, "every game advances");
        covered += game.len;
        let src = &text[start as usize..(start + game.len) as usize];
        let mut at = 0;
        for r in game.element_ranges() {
            assert!(r.start >= at, "elements overlap at {r:?} in {src:?}");
            assert!(is_blank(&src[at as usize..r.start as usize]), "text outside the tree");
            at = r.end;
        }
        assert!(is_blank(&src[at as usize..]), "text after the last element in {src:?}");
        check_lexer_lossless(src);
        let analysis = chess::analyze(&game, src);
        for d in game.diagnostics.iter().chain(&analysis.diagnostics) {
            check_diagnostic(d, src);
        }
    }
    assert_eq!(covered as usize, text.len(), "games cover the text");
}

/// Whitespace as the lexer knows it.
fn is_blank(s: &str) -> bool {
    lex(s).all(|t| t.kind == TokenKind::Whitespace)
}

fn is_ascii_blank(s: &str) -> bool {
    s.bytes().all(|b| b" \t\r\n\x0B\x0C".contains(&b))
}

/// The tokens come in order, and only ASCII whitespace lies between them.
fn check_lexer_lossless(src: &str) {
    let mut at = 0usize;
    for t in lex(src) {
        assert!(t.range.start as usize >= at && !t.range.is_empty(), "token {t:?} out of order");
        let gap = &src[at..t.range.start as usize];
        assert!(is_ascii_blank(gap), "the lexer lost {gap:?}");
        at = t.range.end as usize;
    }
    assert!(is_ascii_blank(&src[at..]), "the lexer lost {:?}", &src[at..]);
}

fn check_diagnostic(d: &Diagnostic, src: &str) {
    let inside = |r: TextRange| {
        r.start <= r.end
            && src.is_char_boundary(r.start as usize)
            && src.is_char_boundary(r.end as usize)
    };
    assert!(
        inside(d.range),
        "{:?} at {:?} outside its game of {} bytes",
        d.code,
        d.range,
        src.len()
    );
    assert!(d.related.iter().all(|r| inside(r.range)), "related place outside: {d:?}");
    assert!(d.message.len() < MAX_MESSAGE, "message of {} bytes: {:?}", d.message.len(), d.code);
    for fix in &d.fixes {
        let mut edits: Vec<TextRange> = fix.edits.iter().map(|e| e.range).collect();
        assert!(edits.iter().all(|&r| inside(r)), "fix edit outside: {d:?}");
        edits.sort();
        assert!(edits.windows(2).all(|w| w[0].end <= w[1].start), "fix edits overlap: {d:?}");
    }
}
