//! Completion fixtures: each `<|>` in a PGN file under `fixtures/ide/completion` is a cursor;
//! the snapshot holds the completions at every cursor, in the order they are offered, with
//! the text each replaces and what it writes.

mod common;

use common::{at_each_cursor, cursors};
use pgn_lsp::ide::{Completion, CompletionKind, Date, DocumentAnalysis, completions};

/// The date completion takes for today.
const TODAY: Date = Date { year: 2026, month: 3, day: 1 };

fn render(text: &str, item: &Completion) -> String {
    let kind = match item.kind {
        CompletionKind::Move => "move",
        CompletionKind::Result => "result",
        CompletionKind::Nag => "nag",
        CompletionKind::TagName => "tag",
        CompletionKind::TagValue => "value",
    };
    let replaced = &text[item.edit.range.to_usize()];
    let mut line = format!("{kind} {} ({})", item.label, item.detail);
    if item.edit.new_text != item.label || !replaced.is_empty() {
        line += &format!(": `{replaced}` → `{}`", item.edit.new_text);
    }
    if item.snippet {
        line += " [snippet]";
    }
    line
}

fn check(marked: &str) -> String {
    at_each_cursor(marked, |analysis, text, offset| {
        let items = completions(analysis, &text, offset, TODAY);
        let mut out = String::new();
        if items.is_empty() {
            out += "no completions\n";
        }
        for item in &items {
            out += &render(text, item);
            out.push('\n');
        }
        out.push('\n');
        out
    })
}

#[test]
fn completion_fixtures() {
    insta::glob!("fixtures/ide/completion/*.pgn", |path| {
        let marked = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&marked));
    });
}

/// A text that records how much of it is read.
struct CountingText<'a> {
    text: &'a str,
    read: std::cell::Cell<usize>,
}

impl pgn_lsp::syntax::TextSource for CountingText<'_> {
    fn len(&self) -> usize {
        self.text.len()
    }

    fn read_into(&self, start: usize, end: usize, out: &mut String) {
        let before = out.len();
        self.text.read_into(start, end, out);
        self.read.set(self.read.get() + out.len() - before);
    }
}

#[test]
fn completion_reads_only_the_game_at_the_cursor() {
    let game = "[Event \"e\"]\n[Site \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n";
    let text = game.repeat(20_000);
    let analysis = DocumentAnalysis::new(&text);
    let cursor = text.len() / 2 / game.len() * game.len() + game.find("*").unwrap();
    let counting = CountingText { text: &text, read: std::cell::Cell::new(0) };
    let items = completions(&analysis, &counting, cursor as u32, TODAY);
    assert!(items.iter().any(|i| i.label == "O-O"), "White castles after 3... a6");
    // The game and the window read past it to find its end: far less than the document.
    assert!(
        counting.read.get() < 64 * 1024,
        "{} bytes read of {}",
        counting.read.get(),
        text.len()
    );
}

/// At every place of every fixture, completion answers without panicking, its edits lie in the
/// text on character boundaries, and any move it offers, once written, is a legal move there.
#[test]
fn every_offered_move_is_legal_where_it_is_written() {
    use pgn_lsp::syntax::Code;
    let mut moves_checked = 0;
    for entry in std::fs::read_dir("tests/fixtures/ide/completion").unwrap() {
        let (text, _) = cursors(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        let analysis = DocumentAnalysis::new(&text);
        for offset in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let items = completions(&analysis, &text.as_str(), offset as u32, TODAY);
            for item in &items {
                let r = item.edit.range.to_usize();
                assert!(r.start <= offset && offset <= r.end && r.end <= text.len(), "{item:?}");
                assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            }
            let moves: Vec<&Completion> =
                items.iter().filter(|i| i.kind == CompletionKind::Move).collect();
            // The first and the last move offered (captures and checks come first).
            for item in [moves.first(), moves.last()].into_iter().flatten() {
                let written =
                    pgn_lsp::text::TextEdit::apply_all(&text, std::slice::from_ref(&item.edit));
                let at = item.edit.range.start;
                let wrong = common::diagnostics(&written).into_iter().find(|d| {
                    d.range.start == at
                        && matches!(
                            d.code,
                            Code::IllegalMove | Code::AmbiguousMove | Code::InvalidSan
                        )
                });
                assert!(wrong.is_none(), "{} at {at}: {wrong:?} in\n{written}", item.label);
                moves_checked += 1;
            }
        }
    }
    assert!(moves_checked > 100, "{moves_checked} moves checked");
}
