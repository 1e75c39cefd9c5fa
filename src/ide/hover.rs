//! Hover: what the thing under the cursor means. On a move, the position after it (board and
//! FEN) and the move in standard notation; on a move number, the position before its move; on
//! a NAG, suffix or annotation symbol, its meaning (§10); on a tag name, what the tag is for
//! (§8.1.1, §9); on a FEN tag value, that position; on the termination marker, the final
//! position and whether the game ends there (checkmate, stalemate, a variant's own end).

use std::fmt::Write;

use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position as _};

use super::analysis::DocumentAnalysis;
use super::board::position_markdown;
use super::moves::{PlayedMove, replay_moves};
use super::nags::{NagMeaning, nag_meaning, symbol_meaning};
use super::tags::{in_seven_tag_roster, tag_doc};
use super::walk::node_at;
use crate::chess::{self, Outcome, Position, color_name};
use crate::syntax::{
    Game, NodeKind, TextSource, glyph_nag, parse_game_at, standard_marker, suffix_nag,
};
use crate::text::TextRange;

/// A hover: the range it is about (in the document) and its Markdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub range: TextRange,
    pub markdown: String,
}

impl Hover {
    /// The hover as plain text, for a client that shows no Markdown: the Markdown this module
    /// writes (`**bold**`, `` `code` ``, fenced blocks) without its marks. Text inside code is
    /// kept as it is.
    pub fn plain_text(&self) -> String {
        let mut out = String::with_capacity(self.markdown.len());
        for line in self.markdown.split_inclusive('\n') {
            if line.trim_end().starts_with("```") {
                continue;
            }
            // Outside a code span `**` is bold; inside one everything is text.
            for (i, part) in line.split('`').enumerate() {
                if i % 2 == 1 {
                    out.push_str(part);
                } else {
                    out.push_str(&part.replace("**", ""));
                }
            }
        }
        out.trim_end().to_owned()
    }
}

/// The hover at `offset` of the document `text`, whose analysis is `analysis`.
pub fn hover(analysis: &DocumentAnalysis, text: &dyn TextSource, offset: u32) -> Option<Hover> {
    let (start, _) = analysis.game_at(offset)?;
    let (game, src) = parse_game_at(text, start as usize);
    let hover = hover_in_game(&game, &src, offset - start)?;
    Some(Hover { range: hover.range.shift(start), markdown: hover.markdown })
}

/// The hover at `offset` of one game (`src` is the game's own text, `offset` relative to it).
fn hover_in_game(game: &Game, src: &str, offset: u32) -> Option<Hover> {
    if let Some(tag) = game.tags.iter().find(|t| t.range.touches(offset)) {
        if tag.name.touches(offset) {
            return Some(Hover { range: tag.name, markdown: tag_markdown(tag.name(src)) });
        }
        let value = tag.value.filter(|v| v.touches(offset))?;
        return (tag.name(src) == "FEN")
            .then(|| Hover { range: value, markdown: fen_tag_markdown(&tag.value(src)) });
    }
    let index = node_at(game, offset)?;
    let node = game.nodes[index];
    let text = &src[node.range];
    let markdown = match node.kind {
        NodeKind::Move | NodeKind::NullMove => move_markdown(game, src, index),
        NodeKind::MoveNumber => move_number_markdown(game, src, index),
        NodeKind::Nag => nag_markdown(text, text[1..].parse().ok()),
        NodeKind::Suffix => nag_markdown(text, suffix_nag(text).map(u32::from)),
        NodeKind::Glyph => match glyph_nag(text) {
            Some(nag) => nag_markdown(text, Some(nag.into())),
            None => format!("`{text}`: {}", symbol_meaning(text)?),
        },
        NodeKind::Result if game.result_node() == Some(&node) => result_markdown(game, src),
        _ => return None,
    };
    Some(Hover { range: node.range, markdown })
}

fn move_markdown(game: &Game, src: &str, index: usize) -> String {
    let written = &src[game.nodes[index].range];
    let Some(mv) = replay_moves(game, src, |node, _| node == index).pop() else {
        return format!("`{written}`: not replayed.");
    };
    let mut out = format!("**{}**", mv.label(written));
    if mv.played.is_some_and(|(_, san)| chess::san_plus_text(san) != written) {
        let _ = write!(out, " (written `{written}`)");
    }
    if mv.depth > 0 {
        let _ = write!(out, " — variation, depth {}", mv.depth);
    }
    out.push_str("\n\n");
    match (mv.after(), &mv.before) {
        (Some(after), _) => out.push_str(&position_section(&after)),
        (None, Some(before)) => {
            out.push_str("Not a legal move here. The position before it:\n\n");
            out.push_str(&position_section(before));
        }
        (None, None) => out.push_str("The line went wrong before this move: no position."),
    }
    out
}

fn move_number_markdown(game: &Game, src: &str, index: usize) -> String {
    let next_move = game.nodes[index + 1..]
        .iter()
        .take_while(|n| !matches!(n.kind, NodeKind::VariationStart | NodeKind::VariationEnd))
        .position(|n| matches!(n.kind, NodeKind::Move | NodeKind::NullMove))
        .map(|i| index + 1 + i);
    let number = &src[game.nodes[index].range];
    let Some(next) = next_move else {
        return format!("`{number}`: a move number without a move.");
    };
    let Some(mv) = replay_moves(game, src, |node, _| node == next).pop() else {
        return format!("`{number}`: not replayed.");
    };
    let written = &src[game.nodes[next].range];
    match &mv.before {
        Some(before) => {
            format!("Before **{}**\n\n{}", mv.label(written), position_section(before))
        }
        None => {
            format!("Before **{}**: the line went wrong earlier, no position.", mv.label(written))
        }
    }
}

fn result_markdown(game: &Game, src: &str) -> String {
    let marker = &src[game.result_node().expect("caller checked").range];
    let meaning = match standard_marker(marker) {
        "1-0" => "White wins",
        "0-1" => "Black wins",
        "1/2-1/2" => "drawn game",
        _ => "game in progress, abandoned, or result unknown",
    };
    let mut out = format!("`{marker}`: {meaning} (§8.2.6).\n\n");
    let main_line = replay_moves(game, src, |_, depth| depth == 0);
    let label = |mv: &PlayedMove| mv.label(&src[game.nodes[mv.node].range]);
    if let Some(wrong) = main_line.iter().find(|mv| mv.played.is_none()) {
        let _ = write!(
            out,
            "The main line cannot be replayed to its end: **{}** is not legal.",
            label(wrong)
        );
        return out;
    }
    let Some((last, end)) = main_line.last().and_then(|mv| Some((mv, mv.after()?))) else {
        out.push_str("The game has no moves.");
        return out;
    };
    let verdict = match Outcome::at(&end).result() {
        Some((_, end)) => format!("The game ends in {end}"),
        None => "Neither checkmate nor stalemate".to_owned(),
    };
    let _ = write!(out, "Final position, after **{}**. {verdict}.\n\n", label(last));
    out.push_str(&board_and_fen(&end));
    out
}

/// Whose move it is (or how the game has ended), the board and the FEN of a position.
fn position_section(pos: &Position) -> String {
    let status = if let Some((_, end)) = Outcome::at(pos).result() {
        format!("The game ends in {end}.")
    } else if pos.is_check() {
        format!("{} to move, in check.", color_name(pos.turn()))
    } else {
        format!("{} to move.", color_name(pos.turn()))
    };
    format!("{status}\n\n{}", board_and_fen(pos))
}

fn board_and_fen(pos: &Position) -> String {
    position_markdown(&Fen::from_position(pos, EnPassantMode::Legal))
}

fn nag_markdown(text: &str, nag: Option<u32>) -> String {
    match nag.and_then(|n| Some((n, nag_meaning(n)?))) {
        Some((n, NagMeaning { text: meaning, glyph, standard })) => {
            let mut out = format!("`{text}`");
            if text != format!("${n}") {
                let _ = write!(out, " = `${n}`");
            }
            if let Some(glyph) = glyph.filter(|g| *g != text) {
                let _ = write!(out, " {glyph}");
            }
            let _ = write!(out, ": {meaning}");
            out.push_str(if standard {
                " (§10)."
            } else {
                " (not in the standard; common usage)."
            });
            out
        }
        None => format!("`{text}`: a NAG the standard leaves undefined (§10 defines $0 to $139)."),
    }
}

fn tag_markdown(name: &str) -> String {
    match tag_doc(name) {
        Some(doc) => {
            let place = match doc.section {
                Some(section) if in_seven_tag_roster(doc) => {
                    format!("Seven Tag Roster, §{section}")
                }
                Some(section) => format!("§{section}"),
                None => "not in the standard; widely used".to_owned(),
            };
            format!("**{name}** ({place})\n\n{}", doc.description)
        }
        None => {
            format!("**{name}**: a tag the standard does not define (§8.1: any name is allowed).")
        }
    }
}

fn fen_tag_markdown(value: &str) -> String {
    let fen = match Fen::from_ascii(value.trim().as_bytes()) {
        Ok(fen) => fen,
        Err(e) => return format!("Not a readable FEN: {e}."),
    };
    let side = color_name(fen.as_setup().turn);
    format!("Start position (§16.1): {side} to move.\n\n{}", position_markdown(&fen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_drops_the_markdown_marks_but_not_the_text_in_code() {
        let hover =
            |markdown: &str| Hover { range: TextRange::empty(0), markdown: markdown.into() };
        let board = "**1. e4**\n\nBlack to move.\n\n```text\n8 r n\n```\n\n```text\nfen\n```";
        assert_eq!(hover(board).plain_text(), "1. e4\n\nBlack to move.\n\n8 r n\n\nfen");
        assert_eq!(hover("`**x`: a symbol").plain_text(), "**x: a symbol");
    }
}
