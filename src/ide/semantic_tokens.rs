//! Semantic tokens: what each piece of a game is, for highlighting that knows PGN — tag names
//! and values (§8.1), move numbers (§8.2.2), moves (§8.2.3) with modifiers for moves in
//! variations (§8.2.5), captures, checks and mates (as written), annotations (NAGs §8.2.4,
//! suffixes §8.2.3.8 and symbols), comments (§5) with the commands inside them (`[%clk ...]`),
//! and termination markers (§8.2.6).
//!
//! Tokens come with their line and column in the client's position encoding, computed by one
//! pass over the text, and never span a line: a comment over several lines gives one token per
//! line.

use super::analysis::DocumentAnalysis;
use super::commands::commands;
use super::walk::for_each_game;
use crate::syntax::{Game, NodeKind, TextSource};
use crate::text::{LineCol, PositionEncoding, TextRange};

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenType {
    TagName,
    TagValue,
    MoveNumber,
    Move,
    /// A NAG, a suffix annotation, an annotation symbol, `e.p.`.
    Annotation,
    /// A comment, a `;` comment or a `%` escape line.
    Comment,
    /// A `[%name args]` command inside a comment.
    Command,
    Result,
}

impl TokenType {
    /// Every type, in the order of the legend.
    pub const ALL: [TokenType; 8] = [
        TokenType::TagName,
        TokenType::TagValue,
        TokenType::MoveNumber,
        TokenType::Move,
        TokenType::Annotation,
        TokenType::Comment,
        TokenType::Command,
        TokenType::Result,
    ];
}

/// A set of token modifiers, one bit each, in the order of [`TokenModifiers::NAMES`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenModifiers(pub u32);

impl TokenModifiers {
    /// Inside a variation.
    pub const VARIATION: TokenModifiers = TokenModifiers(1);
    /// A move written as a capture (`x`, or `:`).
    pub const CAPTURE: TokenModifiers = TokenModifiers(2);
    /// A move written with `+`.
    pub const CHECK: TokenModifiers = TokenModifiers(4);
    /// A move written with `#` (or `++`).
    pub const MATE: TokenModifiers = TokenModifiers(8);
    /// The modifiers' names, bit 0 first.
    pub const NAMES: [&'static str; 4] = ["variation", "capture", "check", "mate"];

    pub fn contains(self, other: TokenModifiers) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for TokenModifiers {
    type Output = TokenModifiers;
    fn bitor(self, other: TokenModifiers) -> TokenModifiers {
        TokenModifiers(self.0 | other.0)
    }
}

/// One token: where it starts (line, and column in the requested encoding), its length in the
/// same units (it never spans a line), what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub start: LineCol,
    pub len: u32,
    /// Its bytes in the document.
    pub range: TextRange,
    pub kind: TokenType,
    pub modifiers: TokenModifiers,
}

/// Hand `emit` the tokens of the games overlapping `range` (of all games for `None`) that
/// overlap it, in text order. `position` gives the line and column of a byte offset (it is
/// asked once, for the first game's start).
pub fn semantic_tokens(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    range: Option<TextRange>,
    encoding: PositionEncoding,
    position: &dyn Fn(u32) -> LineCol,
    mut emit: impl FnMut(SemanticToken),
) {
    let mut cursor: Option<Cursor> = None;
    let mut pieces = Vec::new();
    for_each_game(analysis, text, range, |g| {
        let cursor = cursor.get_or_insert_with(|| Cursor::at(position(g.start), encoding));
        pieces.clear();
        game_pieces(g.game, g.src, &mut pieces);
        let mut at = 0u32;
        for piece in &pieces {
            for line in split_lines(g.src, piece.range) {
                cursor.advance(&g.src[at as usize..line.start as usize]);
                let start = cursor.position;
                let len = encoding.units(&g.src[line]);
                cursor.advance(&g.src[line]);
                at = line.end;
                let line = line.shift(g.start);
                if range.is_none_or(|r| r.intersects(line)) {
                    emit(SemanticToken {
                        start,
                        len,
                        range: line,
                        kind: piece.kind,
                        modifiers: piece.modifiers,
                    });
                }
            }
        }
        cursor.advance(&g.src[at as usize..]);
    });
}

/// A token before it is split into lines; its range is relative to the game.
struct Piece {
    range: TextRange,
    kind: TokenType,
    modifiers: TokenModifiers,
}

/// The pieces of one game, in text order.
fn game_pieces(game: &Game, src: &str, out: &mut Vec<Piece>) {
    let plain = TokenModifiers::default();
    for tag in &game.tags {
        if !tag.name.is_empty() {
            out.push(Piece { range: tag.name, kind: TokenType::TagName, modifiers: plain });
        }
        if let Some(value) = tag.value {
            out.push(Piece { range: value, kind: TokenType::TagValue, modifiers: plain });
        }
    }
    for note in game.tag_notes.iter().filter(|n| n.kind != NodeKind::Unexpected) {
        comment_pieces(src, note.kind, note.range, plain, out);
    }
    for (_, node, depth) in game.nodes_with_depth() {
        let modifiers = if depth > 0 { TokenModifiers::VARIATION } else { plain };
        let text = &src[node.range];
        let kind = match node.kind {
            NodeKind::MoveNumber => TokenType::MoveNumber,
            NodeKind::Move | NodeKind::NullMove => {
                let modifiers = modifiers | written_modifiers(text);
                out.push(Piece { range: node.range, kind: TokenType::Move, modifiers });
                continue;
            }
            NodeKind::Suffix | NodeKind::Nag | NodeKind::Glyph | NodeKind::EnPassantMark => {
                TokenType::Annotation
            }
            NodeKind::Comment | NodeKind::LineComment | NodeKind::Escape => {
                comment_pieces(src, node.kind, node.range, modifiers, out);
                continue;
            }
            NodeKind::Result => TokenType::Result,
            NodeKind::VariationStart | NodeKind::VariationEnd | NodeKind::Unexpected => continue,
        };
        out.push(Piece { range: node.range, kind, modifiers });
    }
    // Notes between tags come before the tags that follow them.
    out.sort_by_key(|p| p.range.start);
}

/// What a move's notation says: a capture, a check, a mate.
fn written_modifiers(san: &str) -> TokenModifiers {
    let mut modifiers = TokenModifiers::default();
    if san.contains(['x', ':']) {
        modifiers = modifiers | TokenModifiers::CAPTURE;
    }
    if san.ends_with('#') || san.ends_with("++") {
        modifiers = modifiers | TokenModifiers::MATE;
    } else if san.ends_with('+') {
        modifiers = modifiers | TokenModifiers::CHECK;
    }
    modifiers
}

/// A comment as comment pieces around its command pieces (escape lines have no commands).
fn comment_pieces(
    src: &str,
    kind: NodeKind,
    range: TextRange,
    modifiers: TokenModifiers,
    out: &mut Vec<Piece>,
) {
    let mut at = range.start;
    if kind != NodeKind::Escape {
        for command in commands(&src[range]) {
            let command = command.range.shift(range.start);
            if command.start > at {
                let before = TextRange::new(at, command.start);
                out.push(Piece { range: before, kind: TokenType::Comment, modifiers });
            }
            out.push(Piece { range: command, kind: TokenType::Command, modifiers });
            at = command.end;
        }
    }
    if at < range.end {
        let rest = TextRange::new(at, range.end);
        out.push(Piece { range: rest, kind: TokenType::Comment, modifiers });
    }
}

/// The parts of `range` between line breaks, leaving out empty ones.
fn split_lines(src: &str, range: TextRange) -> impl Iterator<Item = TextRange> + '_ {
    let bytes = &src.as_bytes()[range.to_usize()];
    let breaks = memchr::memchr2_iter(b'\n', b'\r', bytes).map(|i| i as u32);
    let starts = std::iter::once(0).chain(breaks.clone().map(|i| i + 1));
    let ends = breaks.chain(std::iter::once(range.len()));
    starts
        .zip(ends)
        .filter(|(s, e)| s < e)
        .map(move |(s, e)| TextRange::new(range.start + s, range.start + e))
}

/// A position moving forward through the text, line by line.
struct Cursor {
    position: LineCol,
    encoding: PositionEncoding,
    /// The text passed so far ends with `\r` (a `\n` right after it ends no other line).
    after_cr: bool,
}

impl Cursor {
    fn at(position: LineCol, encoding: PositionEncoding) -> Cursor {
        Cursor { position, encoding, after_cr: false }
    }

    /// Move past `text`.
    fn advance(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let bytes = text.as_bytes();
        let mut last_break = None;
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            let crlf_end =
                bytes[i] == b'\n' && if i == 0 { self.after_cr } else { bytes[i - 1] == b'\r' };
            if !crlf_end {
                self.position.line += 1;
            }
            last_break = Some(i);
        }
        match last_break {
            Some(i) => self.position.col = self.encoding.units(&text[i + 1..]),
            None => self.position.col += self.encoding.units(text),
        }
        self.after_cr = bytes[bytes.len() - 1] == b'\r';
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::LineIndex;

    #[test]
    fn positions_agree_with_the_line_index_in_every_encoding() {
        let text =
            "[Event \"é♘𝄞\"]\r\n[Site \"x\"]\r\r\n1. e4 {é\r\n♘ [%clk 0:01:02] 𝄞\rend} e5 *\n";
        let analysis = DocumentAnalysis::new(text);
        let index = LineIndex::new(text);
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32] {
            let position = |offset| index.line_col(text, offset, encoding);
            let mut tokens = Vec::new();
            semantic_tokens(&analysis, &text, None, encoding, &position, |t| tokens.push(t));
            assert_eq!(tokens.len(), 13, "{tokens:?}");
            for t in tokens {
                assert_eq!(t.start, position(t.range.start), "{encoding:?} {t:?}");
                let end = position(t.range.end);
                assert_eq!((end.line, end.col), (t.start.line, t.start.col + t.len), "{t:?}");
            }
        }
    }
}
