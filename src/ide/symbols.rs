//! The outline: one symbol per game, named after its players and result ("White – Black, 1-0")
//! with its event and date as detail, and two children, the tag section (§8.1) and the movetext
//! (§8.2); and the games of several documents that match a query on their players or event.

use std::borrow::Cow;

use super::analysis::DocumentAnalysis;
use super::walk::{ParsedGame, content_range, for_each_game, movetext_range, tag_section_range};
use crate::syntax::{Game, NodeKind, TextSource};
use crate::text::TextRange;

/// What a symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolRole {
    Game,
    TagSection,
    Movetext,
}

/// One symbol, with ranges in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub role: SymbolRole,
    pub name: String,
    pub detail: Option<String>,
    /// All of it.
    pub range: TextRange,
    /// The part to show when it is picked.
    pub selection: TextRange,
    pub children: Vec<Symbol>,
}

/// How many main-line moves a movetext symbol's detail shows.
const OPENING_PLIES: usize = 6;

/// The symbols of every game of the document, in order (a blank document has none).
pub fn document_symbols(analysis: &DocumentAnalysis, text: &dyn TextSource) -> Vec<Symbol> {
    let mut symbols = Vec::with_capacity(analysis.game_count());
    for_each_game(analysis, text, None, |g| {
        if !g.game.is_blank() {
            symbols.push(game_symbol(&g));
        }
    });
    symbols
}

/// A game that matches a workspace-symbol query, with ranges in its document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundGame<K> {
    pub document: K,
    pub name: String,
    pub detail: Option<String>,
    pub range: TextRange,
}

/// The games of `documents` whose White, Black or Event tag contains `query` (ignoring case;
/// an empty query matches every game), at most `limit` of them, in document and text order.
pub fn workspace_symbols<'a, K: Clone>(
    documents: impl IntoIterator<Item = (K, &'a DocumentAnalysis, &'a dyn TextSource)>,
    query: &str,
    limit: usize,
) -> Vec<FoundGame<K>> {
    let query = query.to_lowercase();
    let mut found = Vec::new();
    for (document, analysis, text) in documents {
        if found.len() >= limit {
            break;
        }
        for_each_game(analysis, text, None, |g| {
            if found.len() >= limit || g.game.is_blank() || !matches(g.game, g.src, &query) {
                return;
            }
            found.push(FoundGame {
                document: document.clone(),
                name: game_name(&g),
                detail: game_detail(g.game, g.src),
                range: content_range(g.game).shift(g.start),
            });
        });
    }
    found
}

fn matches(game: &Game, src: &str, query: &str) -> bool {
    query.is_empty()
        || ["White", "Black", "Event"]
            .iter()
            .any(|name| game.tag_value(name, src).is_some_and(|v| v.to_lowercase().contains(query)))
}

fn game_symbol(g: &ParsedGame<'_>) -> Symbol {
    let (game, src, start) = (g.game, g.src, g.start);
    let tags = tag_section_range(game);
    let movetext = movetext_range(game);
    let first_move = game
        .nodes
        .iter()
        .find(|n| matches!(n.kind, NodeKind::Move | NodeKind::NullMove))
        .map(|n| n.range);
    let range = content_range(game);
    let mut children = Vec::new();
    if let Some(tags) = tags {
        let count = game.tags.len();
        children.push(Symbol {
            role: SymbolRole::TagSection,
            name: "Tags".to_owned(),
            detail: Some(format!("{count} tag{}", if count == 1 { "" } else { "s" })),
            range: tags.shift(start),
            selection: tags.shift(start),
            children: Vec::new(),
        });
    }
    if let Some(movetext) = movetext {
        children.push(Symbol {
            role: SymbolRole::Movetext,
            name: "Moves".to_owned(),
            detail: Some(main_line_summary(game, src)),
            range: movetext.shift(start),
            selection: first_move.unwrap_or(movetext).shift(start),
            children: Vec::new(),
        });
    }
    let selection = tags.or(first_move).unwrap_or(range);
    Symbol {
        role: SymbolRole::Game,
        name: game_name(g),
        detail: game_detail(game, src),
        range: range.shift(start),
        selection: selection.shift(start),
        children,
    }
}

/// "White – Black, Result": unknown players as `?`, the result from the Result tag, else from
/// the termination marker. A game with neither player tag is named by its place in the
/// document ("Game 3, 1-0").
pub fn game_name(g: &ParsedGame<'_>) -> String {
    let (game, src) = (g.game, g.src);
    let player = |name| known(game.tag_value(name, src));
    let result = known(game.tag_value("Result", src))
        .or_else(|| game.result_node().map(|n| Cow::Borrowed(&src[n.range])))
        .unwrap_or(Cow::Borrowed("*"));
    match (player("White"), player("Black")) {
        (None, None) => format!("Game {}, {result}", g.index + 1),
        (white, black) => {
            let (white, black) = (white.as_deref().unwrap_or("?"), black.as_deref().unwrap_or("?"));
            format!("{white} – {black}, {result}")
        }
    }
}

/// "Event, Date", leaving out what is unknown (`?`) and the unknown parts of the date
/// (`2023.05.??` → `2023.05`); `None` when both are unknown.
fn game_detail(game: &Game, src: &str) -> Option<String> {
    let event = known(game.tag_value("Event", src));
    let date = known(game.tag_value("Date", src)).and_then(|d| {
        let known_parts: Vec<&str> =
            d.split('.').take_while(|p| !p.is_empty() && !p.contains('?')).collect();
        (!known_parts.is_empty()).then(|| known_parts.join("."))
    });
    match (event, date) {
        (Some(event), Some(date)) => Some(format!("{event}, {date}")),
        (Some(event), None) => Some(event.into_owned()),
        (None, date) => date,
    }
}

/// A tag value that says something: not missing, not blank, not `?`.
fn known(value: Option<Cow<'_, str>>) -> Option<Cow<'_, str>> {
    value.filter(|v| !v.trim().is_empty() && v.trim() != "?")
}

/// The first main-line moves as written and the number of main-line half-moves:
/// "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 … (41 half-moves)".
fn main_line_summary(game: &Game, src: &str) -> String {
    let mut opening = Vec::new();
    let mut plies = 0;
    for (_, node, depth) in game.nodes_with_depth() {
        if depth > 0 {
            continue;
        }
        match node.kind {
            NodeKind::Move | NodeKind::NullMove => {
                plies += 1;
                if plies <= OPENING_PLIES {
                    opening.push(&src[node.range]);
                }
            }
            NodeKind::MoveNumber if plies < OPENING_PLIES => opening.push(&src[node.range]),
            _ => {}
        }
    }
    let mut out = opening.join(" ");
    if plies > OPENING_PLIES {
        out.push_str(" …");
    }
    let count = format!("{plies} half-move{}", if plies == 1 { "" } else { "s" });
    if out.is_empty() {
        out = count
    } else {
        out.push_str(&format!(" ({count})"))
    }
    out
}
