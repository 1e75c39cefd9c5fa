//! `check --fix` loses no comment: the text of every `{ }` comment of the input, in the
//! movetext or the tag section, is still in the fixed text.
//!
//! Not checked here: that the moves stay moves and that a second run makes no fix. Both hold on
//! the fixtures and on every file of the corpus, but not on random text, where one fix can move
//! text into another reading (tags added to a game that starts in the middle of a line, after
//! a broken one).

use pgn_lsp::cli::fix::{Filter, fix_text};
use pgn_lsp::syntax::{NodeKind, Severity, parse_games};

pub fn check(text: &str) {
    let all = Filter { min_severity: Severity::Hint, ignored: Vec::new() };
    let (fixed, _) = fix_text(text, &all, false);
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        let notes = game.tag_notes.iter().map(|n| (n.kind, n.range));
        for (kind, range) in game.nodes.iter().map(|n| (n.kind, n.range)).chain(notes) {
            if kind == NodeKind::Comment {
                let comment = &src[range];
                assert!(
                    fixed.contains(comment),
                    "comment {comment:?} lost\ninput: {text:?}\nfixed: {fixed:?}"
                );
            }
        }
    }
}
