//! Code action fixtures: each `<|>` in a PGN file under `fixtures/ide/code_actions` is a
//! cursor; the snapshot holds every action offered there, with the lines it changes. Every
//! action of every fixture (and of the diagnostics fixtures) is also checked for edits that
//! overlap, which one LSP document edit must not have, and the fix-all actions for fixing what
//! they say.

mod common;

use common::{at_each_cursor, cursors};
use pgn_lsp::fmt::FormatOptions;
use pgn_lsp::ide::{ActionKind, CodeAction, DocumentAnalysis, code_actions};
use pgn_lsp::syntax::{Code, DiagnosticFilter, Severity};
use pgn_lsp::text::{TextEdit, TextRange};

fn actions_at(text: &str, range: TextRange) -> Vec<CodeAction> {
    actions_of_kinds(text, range, &|_| true)
}

fn actions_of_kinds(
    text: &str,
    range: TextRange,
    wanted: &dyn Fn(ActionKind) -> bool,
) -> Vec<CodeAction> {
    actions_shown(text, range, &DiagnosticFilter::default(), wanted)
}

fn actions_shown(
    text: &str,
    range: TextRange,
    shown: &DiagnosticFilter,
    wanted: &dyn Fn(ActionKind) -> bool,
) -> Vec<CodeAction> {
    let analysis = DocumentAnalysis::new(text);
    code_actions(&analysis, &text, range, &FormatOptions::default(), shown, wanted)
}

/// Whether an action works on the whole document rather than where the cursor is.
fn whole_document(kind: ActionKind) -> bool {
    matches!(kind, ActionKind::FixAll | ActionKind::SortGames)
}

/// The lines an edit set changes, as a diff without context.
fn changed_lines(text: &str, edits: &[TextEdit]) -> String {
    let after = TextEdit::apply_all(text, edits);
    let diff = similar::TextDiff::from_lines(text, &after);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Equal => continue,
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
        };
        out += &format!("    {sign} {}", change.value());
        if change.missing_newline() {
            out.push('\n');
        }
    }
    out
}

fn render(text: &str, actions: &[CodeAction]) -> String {
    let mut out = String::new();
    if actions.is_empty() {
        out += "no actions\n";
    }
    for action in actions {
        let mut codes: Vec<&str> = action.diagnostics.iter().map(|d| d.code.as_str()).collect();
        codes.dedup();
        out += &format!(
            "[{:?}{}] {}{}\n",
            action.kind,
            if action.preferred { ", preferred" } else { "" },
            action.title,
            if codes.is_empty() { String::new() } else { format!(" ({})", codes.join(", ")) },
        );
        out += &changed_lines(text, &action.edits);
    }
    out
}

/// The actions at each cursor, then those over the whole document once.
fn check(marked: &str) -> String {
    let mut out = at_each_cursor(marked, |_, text, offset| {
        let here = actions_of_kinds(text, TextRange::empty(offset), &|k| !whole_document(k));
        render(text, &here) + "\n"
    });
    let (text, _) = cursors(marked);
    out += "── the whole document\n";
    out += &render(&text, &actions_of_kinds(&text, TextRange::empty(0), &whole_document));
    out
}

#[test]
fn code_action_fixtures() {
    insta::glob!("fixtures/ide/code_actions/*.pgn", |path| {
        let marked = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(check(&marked));
    });
}

/// Whether two edits may not stand in one LSP document edit: their ranges overlap, or two
/// insertions (or an insertion and a replacement) start at the same place.
fn collide(a: TextRange, b: TextRange) -> bool {
    (a.start < b.end && b.start < a.end) || (a.start == b.start && (a.is_empty() || b.is_empty()))
}

fn fixture_texts() -> Vec<(String, String)> {
    let mut texts = Vec::new();
    for dir in ["tests/fixtures/diagnostics", "tests/fixtures/ide/code_actions"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let (text, _) = cursors(&std::fs::read_to_string(&path).unwrap());
            texts.push((path.display().to_string(), text));
        }
    }
    texts
}

#[test]
fn no_action_has_colliding_edits() {
    for (name, text) in fixture_texts() {
        let analysis = DocumentAnalysis::new(&text);
        // A cursor on every diagnostic, and one at every game start.
        let mut ranges: Vec<TextRange> =
            common::diagnostics(&text).iter().map(|d| d.range).collect();
        ranges.extend(analysis.games().map(|(start, _)| TextRange::empty(start)));
        for range in ranges {
            for action in actions_at(&text, range) {
                let edits = &action.edits;
                assert!(!edits.is_empty(), "{name}: {} has no edits", action.title);
                for (i, a) in edits.iter().enumerate() {
                    for b in &edits[i + 1..] {
                        assert!(
                            !collide(a.range, b.range),
                            "{name}: {}: {a:?} and {b:?} collide",
                            action.title
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_fix_all_leaves_fewer_problems_of_each_kind_it_fixes() {
    let mut fixed_some = 0;
    for (name, text) in fixture_texts() {
        let whole = TextRange::new(0, text.len() as u32);
        for action in actions_at(&text, whole) {
            let fixes_all =
                action.kind == ActionKind::FixAll || action.title.starts_with("Fix all");
            if !fixes_all {
                continue;
            }
            let after = TextEdit::apply_all(&text, &action.edits);
            let count = |t: &str, code: Code| {
                common::diagnostics(t).iter().filter(|d| d.code == code).count()
            };
            // The codes of the diagnostics whose (first) fix the action makes.
            let codes: Vec<Code> = match action.kind {
                ActionKind::FixAll => common::diagnostics(&text)
                    .iter()
                    .filter(|d| {
                        d.fixes
                            .first()
                            .is_some_and(|f| f.edits.iter().all(|e| action.edits.contains(e)))
                    })
                    .map(|d| d.code)
                    .collect(),
                _ => action.diagnostics.iter().map(|d| d.code).collect(),
            };
            for code in codes {
                assert!(
                    count(&after, code) < count(&text, code),
                    "{name}: {} left every {} problem:\n{after}",
                    action.title,
                    code.as_str()
                );
            }
            fixed_some += 1;
        }
    }
    assert!(fixed_some >= 3, "the fixtures hold fix-all actions");
}

/// The settings `diagnostics.minSeverity` and `diagnostics.ignore` hide diagnostics in the
/// editor; their repairs are not offered either, one by one or in a fix-all.
#[test]
fn only_the_diagnostics_shown_are_repaired() {
    // Missing tags (information), castling with zeros (warning), a draw written 1/2 (warning).
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 1/2\n";
    let castle = TextRange::empty(text.find("0-0").unwrap() as u32);
    let whole = TextRange::new(0, text.len() as u32);
    let titles = |shown: &DiagnosticFilter, range, kind: ActionKind| {
        let actions = actions_shown(text, range, shown, &|k| k == kind);
        actions.into_iter().map(|a| a.title).collect::<Vec<_>>()
    };
    let fix_all = |shown: &DiagnosticFilter| {
        let actions = actions_shown(text, whole, shown, &|k| k == ActionKind::FixAll);
        actions.into_iter().map(|a| TextEdit::apply_all(text, &a.edits)).collect::<Vec<_>>()
    };
    let everything = DiagnosticFilter::default();
    assert_eq!(titles(&everything, castle, ActionKind::QuickFix), ["Write O-O"]);
    let [fixed] = &fix_all(&everything)[..] else { panic!("one fix-all") };
    assert!(fixed.contains("[Event \"?\"]") && fixed.contains("4. O-O 1/2-1/2"), "{fixed}");

    let no_san =
        DiagnosticFilter { min_severity: Severity::Hint, ignored: vec![Code::NonCanonicalSan] };
    assert!(titles(&no_san, castle, ActionKind::QuickFix).is_empty());
    let [fixed] = &fix_all(&no_san)[..] else { panic!("one fix-all") };
    assert!(fixed.contains("[Event \"?\"]") && fixed.contains("4. 0-0 1/2-1/2"), "{fixed}");

    let warnings = DiagnosticFilter { min_severity: Severity::Warning, ignored: vec![] };
    let [fixed] = &fix_all(&warnings)[..] else { panic!("one fix-all") };
    assert_eq!(fixed, &text.replace("0-0 1/2", "O-O 1/2-1/2"));

    let errors = DiagnosticFilter { min_severity: Severity::Error, ignored: vec![] };
    assert!(fix_all(&errors).is_empty());
    assert!(titles(&errors, castle, ActionKind::QuickFix).is_empty());
}
