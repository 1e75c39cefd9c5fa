//! Code actions: the certain repairs that the diagnostics shown (those the user's filter keeps)
//! carry, offered where the cursor is (with "renumber the whole game" for a move number, and
//! "fix all of this kind in the file"); the rewriting of a suffix annotation as its NAG
//! (§8.2.3.8); and the source actions: fix every certain problem shown in the file, sort a
//! game's tags, format a game, sort the games (§12).
//!
//! The edits of one action never overlap (LSP requires it of one document edit): a fix-all
//! takes whole fixes in text order and leaves out a fix any of whose edits would overlap or
//! meet an edit already taken (two insertions at one place, an insertion at the start of a
//! replaced range), so a second run fixes what the first left.

use super::analysis::DocumentAnalysis;
use super::formatting::format_edits;
use super::sort_games::sort_games;
use super::sort_tags::sort_tags;
use crate::fmt::FormatOptions;
use crate::syntax::{
    Code, Diagnostic, DiagnosticFilter, NodeKind, TextSource, parse_game_at, suffix_nag,
    unsettles_next_game,
};
use crate::text::{EditSet, TextEdit, TextRange};

/// What kind of action it is (the LSP layer names them: `quickfix`, `source.fixAll.pgn`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// A repair of the diagnostic it names (or of all move numbers of its game).
    QuickFix,
    /// The repair of all the diagnostics of one kind in the file.
    QuickFixAll,
    /// A rewrite that changes no meaning (a suffix annotation as its NAG).
    Rewrite,
    /// Every certain repair in the file.
    FixAll,
    SortTags,
    FormatGame,
    SortGames,
}

/// One code action, with its edits in document offsets (never overlapping).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    pub kind: ActionKind,
    /// The diagnostics it repairs (for a quick fix on one diagnostic, that one).
    pub diagnostics: Vec<Diagnostic>,
    pub edits: Vec<TextEdit>,
    /// The first (best) repair of its diagnostic.
    pub preferred: bool,
}

/// The code actions at `range` of the document `text`, of the kinds `wanted` accepts
/// (the others are not computed); repairs only of the diagnostics `shown` keeps.
pub fn code_actions(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    range: TextRange,
    options: &FormatOptions,
    shown: &DiagnosticFilter,
    wanted: &dyn Fn(ActionKind) -> bool,
) -> Vec<CodeAction> {
    let mut actions = Vec::new();
    let fixable = Fixable { analysis, shown };
    if wanted(ActionKind::QuickFix) {
        actions.extend(quick_fixes(fixable, range, wanted(ActionKind::QuickFixAll)));
    }
    if wanted(ActionKind::Rewrite) {
        actions.extend(suffixes_as_nags(analysis, text, range));
    }
    if wanted(ActionKind::FixAll)
        && let Some(action) = fix_all(fixable)
    {
        actions.push(action);
    }
    let game = analysis.game_at(range.start).map(|(start, _)| start);
    if let Some(start) = game.filter(|_| wanted(ActionKind::SortTags)) {
        let (game, src) = parse_game_at(text, start as usize);
        if let Some(edit) = sort_tags(&game, &src) {
            let edit = TextEdit { range: edit.range.shift(start), new_text: edit.new_text };
            actions.push(source_action("Sort tags in export order", ActionKind::SortTags, edit));
        }
    }
    if let Some(start) = game.filter(|_| wanted(ActionKind::FormatGame)) {
        let at = Some(TextRange::empty(start));
        let edits = format_edits(analysis, text, options, at, &|| false).unwrap_or_default();
        if !edits.is_empty() {
            actions.push(CodeAction {
                title: "Format this game".to_owned(),
                kind: ActionKind::FormatGame,
                diagnostics: Vec::new(),
                edits,
                preferred: false,
            });
        }
    }
    if wanted(ActionKind::SortGames)
        && let Some(edit) = sort_games(analysis, text)
    {
        let title = "Sort games by the PGN collating sequence (date, event, site, round, ...)";
        actions.push(source_action(title, ActionKind::SortGames, edit));
    }
    actions
}

fn source_action(title: &str, kind: ActionKind, edit: TextEdit) -> CodeAction {
    CodeAction {
        title: title.to_owned(),
        kind,
        diagnostics: Vec::new(),
        edits: vec![edit],
        preferred: false,
    }
}

/// The repairs of the diagnostics that overlap or touch `range`: each of their fixes, then for
/// a move number the renumbering of its whole game, then (with `of_file`) for each code with
/// more than one fixable diagnostic in the file, all of them at once.
fn quick_fixes(fixable: Fixable, range: TextRange, of_file: bool) -> Vec<CodeAction> {
    let mut actions = Vec::new();
    let mut codes = Vec::new();
    for (start, game) in fixable.analysis.games_in(range) {
        for diagnostic in game.diagnostics.iter().filter(|d| fixable.shown.keeps(d)) {
            let at = diagnostic.range.shift(start);
            let near = at.intersects(range) || at.touches(range.start) || range.touches(at.start);
            if !near || diagnostic.fixes.is_empty() {
                continue;
            }
            let diagnostic = diagnostic.shifted(start);
            for (i, fix) in diagnostic.fixes.iter().enumerate() {
                actions.push(CodeAction {
                    title: fix.title.clone(),
                    kind: ActionKind::QuickFix,
                    diagnostics: vec![diagnostic.clone()],
                    edits: fix.edits.clone(),
                    preferred: i == 0,
                });
            }
            if diagnostic.code == Code::MoveNumber {
                let numbers = game
                    .diagnostics
                    .iter()
                    .filter(|d| d.code == Code::MoveNumber && !d.fixes.is_empty());
                let all: Vec<Diagnostic> = numbers.map(|d| d.shifted(start)).collect();
                if all.len() > 1 {
                    actions.push(fix_together("Renumber the whole game".to_owned(), all));
                }
            }
            if of_file && !codes.contains(&diagnostic.code) {
                codes.push(diagnostic.code);
            }
        }
    }
    for code in codes {
        let all: Vec<Diagnostic> = fixable.all().filter(|d| d.code == code).collect();
        if all.len() > 1 {
            let title = format!("Fix all {} {} problems in this file", all.len(), code.as_str());
            let mut action = fix_together(title, all);
            action.kind = ActionKind::QuickFixAll;
            actions.push(action);
        }
    }
    actions
}

/// The diagnostics of a document whose fixes are offered: those the filter `shown` keeps.
#[derive(Clone, Copy)]
struct Fixable<'a> {
    analysis: &'a DocumentAnalysis,
    shown: &'a DiagnosticFilter,
}

impl<'a> Fixable<'a> {
    /// Every diagnostic shown that has a fix, in document offsets, but those of a game after a
    /// game with an unclosed comment (`syntax::unsettles_next_game`: it may be text of the
    /// comment; its own quick fixes are still offered).
    fn all(self) -> impl Iterator<Item = Diagnostic> + 'a {
        let mut unsettled = false;
        let settled = self.analysis.games().filter(move |(_, game)| {
            !std::mem::replace(&mut unsettled, unsettles_next_game(&game.diagnostics))
        });
        settled.flat_map(move |(start, game)| {
            let fixable = game.diagnostics.iter().filter(|d| !d.fixes.is_empty());
            fixable.filter(move |d| self.shown.keeps(d)).map(move |d| d.shifted(start))
        })
    }
}

/// One quick fix applying the first fix of each of `diagnostics` (in text order) that does
/// not collide with one taken before it.
fn fix_together(title: String, diagnostics: Vec<Diagnostic>) -> CodeAction {
    let mut taken = EditSet::default();
    let fixed: Vec<Diagnostic> =
        diagnostics.into_iter().filter(|d| taken.take(&d.fixes[0].edits)).collect();
    CodeAction {
        title,
        kind: ActionKind::QuickFix,
        diagnostics: fixed,
        edits: taken.into_edits(),
        preferred: false,
    }
}

/// The source action fixing every certain problem of the file (the first fix of each).
fn fix_all(fixable: Fixable) -> Option<CodeAction> {
    let mut taken = EditSet::default();
    let mut count = 0usize;
    for diagnostic in fixable.all() {
        if taken.take(&diagnostic.fixes[0].edits) {
            count += 1;
        }
    }
    (count > 0).then(|| CodeAction {
        title: format!("Fix all {count} certain problems in this file"),
        kind: ActionKind::FixAll,
        diagnostics: Vec::new(),
        edits: taken.into_edits(),
        preferred: false,
    })
}

/// Suffix annotations (`!`, `?!`, ...) at `range`, each rewritten as its NAG (§8.2.3.8: export
/// format writes NAGs).
fn suffixes_as_nags(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    range: TextRange,
) -> Vec<CodeAction> {
    let Some((start, _)) = analysis.game_at(range.start) else {
        return Vec::new();
    };
    let (game, src) = parse_game_at(text, start as usize);
    let src = src.as_str();
    let local = TextRange::new(range.start - start, range.end.saturating_sub(start));
    game.nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Suffix)
        .filter(|n| n.range.intersects(local) || n.range.touches(local.start))
        .filter_map(|n| {
            let suffix = &src[n.range];
            let nag = suffix_nag(suffix)?;
            let spaced = src[..n.range.start as usize].ends_with(char::is_whitespace);
            let written = if spaced { format!("${nag}") } else { format!(" ${nag}") };
            Some(CodeAction {
                title: format!("Write {suffix} as ${nag}"),
                kind: ActionKind::Rewrite,
                diagnostics: Vec::new(),
                edits: vec![TextEdit::new(n.range.shift(start), written)],
                preferred: false,
            })
        })
        .collect()
}
