//! `check --fix` loses nothing it must keep and settles: the text of every `{ }` comment of the
//! input, in the movetext or the tag section, is still in the fixed text; a text with nothing to
//! fix is given back byte for byte; a text read as Latin-1 stays within Latin-1 (a fix that
//! would write a character beyond it is not made), so that the file can be written back in its
//! encoding; and a second run finds nothing more to fix.
//!
//! Not checked: that the moves stay moves. On random text a fix can change how later text is
//! read (a tag pair repaired, a comment closed), and then the fixes of the new reading follow.

use arbitrary::Unstructured;
use pgn_lsp::cli::fix::fix_text;
use pgn_lsp::syntax::{DiagnosticFilter, NodeKind, Severity, parse_games};

#[derive(Clone, Debug)]
pub struct Case {
    /// The least severe diagnostic whose fix is made.
    pub min_severity: Severity,
    /// Whether the text was read as Latin-1 (then every character is at most U+00FF).
    pub latin1: bool,
    pub text: String,
}

/// The filters' least severities.
pub const SEVERITIES: &[Severity] =
    &[Severity::Hint, Severity::Information, Severity::Warning, Severity::Error];

/// The severity and the encoding come from the first bytes; the rest is the text, read as
/// Latin-1 (one character per byte) or as UTF-8 (U+FFFD where it is not).
pub fn decode(data: &[u8]) -> Case {
    let mut u = Unstructured::new(data);
    let min_severity = *u.choose(SEVERITIES).unwrap_or(&Severity::Hint);
    let latin1 = u.ratio(1, 4).unwrap_or(false);
    let text = if latin1 {
        u.take_rest().iter().map(|&b| char::from(b)).collect()
    } else {
        super::rest_as_text(u)
    };
    Case { min_severity, latin1, text }
}

pub fn run(data: &[u8]) {
    check(&decode(data));
}

pub fn check(case: &Case) {
    let filter = DiagnosticFilter { min_severity: case.min_severity, ignored: Vec::new() };
    let (fixed, count) = fix_text(&case.text, &filter, case.latin1);
    let context = || format!("{case:?}\nfixed: {fixed:?}");
    if count == 0 {
        assert_eq!(fixed, case.text, "no fix made, yet the text changed\n{}", context());
    }
    if case.latin1 {
        assert!(fixed.chars().all(|c| u32::from(c) <= 0xFF), "beyond Latin-1\n{}", context());
    }
    let (again, more) = fix_text(&fixed, &filter, case.latin1);
    assert!(more == 0 && again == fixed, "a second run fixed {more}: {again:?}\n{}", context());
    let text = &case.text;
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        let notes = game.tag_notes.iter().map(|n| (n.kind, n.range));
        for (kind, range) in game.nodes.iter().map(|n| (n.kind, n.range)).chain(notes) {
            if kind == NodeKind::Comment {
                let comment = &src[range];
                assert!(fixed.contains(comment), "comment {comment:?} lost\n{}", context());
            }
        }
    }
}
