//! The tree of one game: its tag pairs, the comments between them, and its movetext as a flat
//! list of nodes in which variations are bracketed by `VariationStart`/`VariationEnd` nodes that
//! always pair up. Every byte of the game that is not whitespace lies in exactly one of these
//! elements, so the elements and the whitespace between them print the game back byte for byte
//! (the tokens themselves are not kept: `syntax::lex` gives them again on demand). Every range is
//! relative to the game's start; a game never stores where it is in the file.

use std::borrow::Cow;

use super::diagnostic::Diagnostic;
use crate::text::TextRange;

/// One tag pair `[Name "value"]` (§8.1), possibly malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// From `[` to `]` (or as far as the pair got).
    pub range: TextRange,
    /// The name symbol; empty where the name is missing.
    pub name: TextRange,
    /// The string token with its quotes; `None` where the value is missing.
    pub value: Option<TextRange>,
}

impl Tag {
    pub fn name<'a>(&self, src: &'a str) -> &'a str {
        &src[self.name]
    }

    /// The value with its escapes resolved (§7); empty where missing.
    pub fn value<'a>(&self, src: &'a str) -> Cow<'a, str> {
        self.value.map_or(Cow::Borrowed(""), |r| unescape_string(&src[r]))
    }

    /// The range inside the quotes (to the end of the token where it has no closing quote).
    pub fn value_inner(&self, src: &str) -> Option<TextRange> {
        let r = self.value?;
        let closed = is_closed_string(&src[r]);
        Some(TextRange::new(r.start + 1, if closed { r.end - 1 } else { r.end }))
    }
}

/// Whether a string token (from its opening quote) ends with its closing quote: a last `"`
/// that no backslash escapes (§7: `\"` is a quote inside the string, `\\` a backslash).
pub fn is_closed_string(token: &str) -> bool {
    let Some(before_quote) = token.strip_suffix('"').filter(|_| token.len() >= 2) else {
        return false;
    };
    before_quote.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 0
}

/// The contents of a string token, between its quotes (to its end where it has no closing
/// quote).
pub fn string_contents(token: &str) -> &str {
    let inner = token.strip_prefix('"').unwrap_or(token);
    if is_closed_string(token) { &inner[..inner.len() - 1] } else { inner }
}

/// The contents of a string token (quotes included) with `\"` and `\\` resolved.
pub fn unescape_string(token: &str) -> Cow<'_, str> {
    let inner = string_contents(token);
    if !inner.contains('\\') {
        return Cow::Borrowed(inner);
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => out.push(e),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A value written as a PGN string token: quoted, with `"` and `\` escaped (§7).
pub fn escape_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The NAG a suffix annotation stands for (§8.2.3.8: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5,
/// `?!` 6; export format writes the NAG).
pub fn suffix_nag(suffix: &str) -> Option<u8> {
    Some(match suffix {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// Whether NAG `nag` judges the move just played (§10: NAGs 1 to 9), as `!` and `?` do, rather
/// than the position or the time left.
pub fn judges_move(nag: u8) -> bool {
    (1..=9).contains(&nag)
}

/// The NAG an annotation glyph written as a symbol stands for (`+-` $18, `N` $146 for a novelty),
/// when it stands for exactly one.
pub fn glyph_nag(glyph: &str) -> Option<u8> {
    Some(match glyph {
        "=" => 10,
        "∞" => 13,
        "+=" | "+/=" | "⩲" => 14,
        "=+" | "=/+" | "⩱" => 15,
        "+/-" | "±" => 16,
        "-/+" | "∓" => 17,
        "+-" => 18,
        "-+" => 19,
        "□" => 7,
        "∆" | "△" => 140,
        "⌓" => 142,
        "RR" => 145,
        "N" => 146,
        _ => return None,
    })
}

/// The four game termination markers of §8.2.6, which are also the Result tag's values.
pub const STANDARD_RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The result (§8.1.1.7) a Result tag's value `v` stands for, in the forms other software
/// writes it too: a draw as `1/2`, `½-½` or `0.5-0.5`, the score joined by `:` or a dash
/// look-alike, spaces between, and `?` for a result not known (`*`).
pub fn standard_result(v: &str) -> Option<&'static str> {
    // Nearly every value is already the standard's: it is read without building a copy.
    match v {
        "1-0" => return Some("1-0"),
        "0-1" => return Some("0-1"),
        "1/2-1/2" => return Some("1/2-1/2"),
        "*" => return Some("*"),
        _ => {}
    }
    let compact: String = v
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if matches!(c, ':' | '\u{2013}' | '\u{2014}') { '-' } else { c })
        .collect();
    match compact.replace('\u{bd}', "1/2").as_str() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "1/2" | "0.5-0.5" => Some("1/2-1/2"),
        "?" | "*" => Some("*"),
        _ => None,
    }
}

/// A termination marker as the standard writes it (§8.2.6), from the forms the lexer reads as
/// one: `1/2-1/2` for the draw written `1/2`, `½` or `½-½`, `1-0` for `1:0` or `1–0`, and so
/// on (markers hold no spaces, which are what [`standard_result`] reads besides).
pub fn standard_marker(marker: &str) -> &str {
    standard_result(marker).unwrap_or(marker)
}

/// What a movetext node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum NodeKind {
    /// `12.`, `12...`, `12. ...`, or a bare `12`.
    MoveNumber,
    /// A move in any notation, as written (the chess layer reads it).
    Move,
    /// `--` or `Z0`.
    NullMove,
    /// `!`, `?`, `!!`, `??`, `!?`, `?!` after a move.
    Suffix,
    /// `$n`.
    Nag,
    /// An annotation glyph written as a symbol (`±`, `+-`, `N` for a novelty, ...).
    Glyph,
    /// `e.p.` or `ep` after an en-passant capture, perhaps with the capture's check or mate
    /// sign after it (`e.p.+`, `ep#`).
    EnPassantMark,
    /// `{ ... }`.
    Comment,
    /// `; ...` to the end of the line.
    LineComment,
    /// `%` escape line.
    Escape,
    /// `(`; the matching `VariationEnd` always follows later.
    VariationStart,
    /// `)`; an empty range where the parser closed a variation left open.
    VariationEnd,
    /// A termination marker.
    Result,
    /// Text that belongs nowhere (reported by the parser).
    Unexpected,
}

/// A movetext node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    pub range: TextRange,
}

/// Something before the movetext's first node that is not a tag pair: comments and escape lines
/// before, between and after the tag pairs, and stray text among them (`Unexpected`, reported).
/// Those after the last tag pair open the movetext ([`Game::opens_movetext`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagSectionNote {
    pub kind: NodeKind,
    pub range: TextRange,
    /// How many tags come before it.
    pub after_tags: u32,
}

/// One parsed game.
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// The game's length in bytes; the next game starts right after.
    pub len: u32,
    /// Where the token after the game starts (from the game's start): the parser read on to it
    /// to find where the game ends. It is the next game's first token, or the first after the
    /// commentary that opens a game without tags, or the start of the furthest of the next
    /// game's tag lines read after a tag-only game; the game's length at the end of the text.
    pub lookahead: u32,
    pub tags: Vec<Tag>,
    /// In text order, so those that open the movetext come last.
    pub tag_notes: Vec<TagSectionNote>,
    pub nodes: Vec<Node>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Game {
    /// Every movetext node with its index and its variation depth (0 in the main line; a
    /// variation's `(` and `)` have the depth of the moves inside it).
    pub fn nodes_with_depth(&self) -> impl Iterator<Item = (usize, &Node, u32)> {
        self.nodes.iter().enumerate().scan(0u32, |depth, (i, node)| {
            let at = match node.kind {
                NodeKind::VariationStart => {
                    *depth += 1;
                    *depth
                }
                NodeKind::VariationEnd => {
                    *depth = depth.saturating_sub(1);
                    *depth + 1
                }
                _ => *depth,
            };
            Some((i, node, at))
        })
    }

    /// The moves (and null moves) after node `i` in its line, in order, up to the line's end
    /// (the `)` closing its variation, or its termination marker), leaving out the variations
    /// inside the line.
    pub fn line_moves_after(&self, i: usize) -> impl Iterator<Item = &Node> {
        let mut depth = 0u32;
        let rest = self.nodes.get(i + 1..).unwrap_or_default();
        rest.iter()
            .map_while(move |node| {
                match node.kind {
                    NodeKind::VariationEnd | NodeKind::Result if depth == 0 => return None,
                    NodeKind::VariationStart => depth += 1,
                    NodeKind::VariationEnd => depth -= 1,
                    _ => {}
                }
                let is_move = matches!(node.kind, NodeKind::Move | NodeKind::NullMove);
                Some((depth == 0 && is_move).then_some(node))
            })
            .flatten()
    }

    /// The first tag with this name (names are case-sensitive, §8.1).
    pub fn tag(&self, name: &str, src: &str) -> Option<&Tag> {
        // Bytes, lengths first.
        let (name, src) = (name.as_bytes(), src.as_bytes());
        self.tags.iter().find(|t| {
            t.name.len() as usize == name.len()
                && src[t.name.start as usize..t.name.end as usize] == *name
        })
    }

    pub fn tag_value<'a>(&self, name: &str, src: &'a str) -> Option<Cow<'a, str>> {
        self.tag(name, src).map(|t| t.value(src))
    }

    /// Whether `note` opens the movetext rather than standing in the tag section: it comes after
    /// the last tag pair, whatever line it is on (every note of a game without tags does). A
    /// comment before the first move is movetext (§8.2); the tag section is its tag pairs
    /// (§8.1) and what stands before or between them.
    pub fn opens_movetext(&self, note: &TagSectionNote) -> bool {
        note.after_tags as usize == self.tags.len()
    }

    /// The notes of the tag section and those that open the movetext
    /// ([`Game::opens_movetext`]).
    pub fn split_notes(&self) -> (&[TagSectionNote], &[TagSectionNote]) {
        let tag_section = self.tag_notes.partition_point(|n| !self.opens_movetext(n));
        self.tag_notes.split_at(tag_section)
    }

    /// The ranges of every element (tag pairs, tag-section notes, movetext nodes) in text
    /// order; what lies between them is whitespace.
    pub fn element_ranges(&self) -> Vec<TextRange> {
        let mut ranges: Vec<TextRange> = self
            .tags
            .iter()
            .map(|t| t.range)
            .chain(self.tag_notes.iter().map(|n| n.range))
            .chain(self.nodes.iter().map(|n| n.range).filter(|r| !r.is_empty()))
            .collect();
        ranges.sort_by_key(|r| (r.start, r.end));
        ranges
    }

    /// Whether the game is whitespace alone: no tag pair, no note, no movetext node (the parse
    /// of a blank text).
    pub fn is_blank(&self) -> bool {
        self.tags.is_empty() && self.tag_notes.is_empty() && self.nodes.is_empty()
    }

    /// The termination marker a game without one is to end with (§8.2.6): its Result tag's
    /// (read as the standard's, `1:0` as `1-0`), or `*`.
    pub fn missing_marker(&self, src: &str) -> &'static str {
        self.tag("Result", src).and_then(|t| standard_result(&t.value(src))).unwrap_or("*")
    }

    /// The termination marker at the top level of the movetext, if any.
    pub fn result_node(&self) -> Option<&Node> {
        // Until the first variation every node is at the top level: most games have none, and
        // the analysis and the formatter ask for the marker of every game.
        let first = self
            .nodes
            .iter()
            .position(|n| matches!(n.kind, NodeKind::Result | NodeKind::VariationStart))?;
        if self.nodes[first].kind == NodeKind::Result {
            return Some(&self.nodes[first]);
        }
        let mut depth = 0u32;
        for n in &self.nodes[first..] {
            match n.kind {
                NodeKind::VariationStart => depth += 1,
                NodeKind::VariationEnd => depth = depth.saturating_sub(1),
                NodeKind::Result if depth == 0 => return Some(n),
                _ => {}
            }
        }
        None
    }

    /// Whether the game has a structural error ([`Code::is_structural`]): such games are never
    /// reformatted.
    ///
    /// [`Code::is_structural`]: super::diagnostic::Code::is_structural
    pub fn has_structural_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.code.is_structural())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_game;

    /// Where a string token ends, its contents, the range of a tag's value inside its quotes
    /// and the unescaped value agree: a last quote closes the string unless an odd number of
    /// backslashes escapes it (§7).
    #[test]
    fn string_tokens_are_closed_by_a_quote_no_backslash_escapes() {
        // (the tag's value token, closed, the unescaped value)
        let cases = [
            (r#""abc""#, true, "abc"),
            (r#""abc\""#, false, "abc\""),
            (r#""abc\\""#, true, "abc\\"),
            (r#""abc\\\""#, false, "abc\\\""),
            (r#""abc\\\\""#, true, "abc\\\\"),
            (r#""""#, true, ""),
            (r#"""#, false, ""),
            (r#""\""#, false, "\""),
            (r#""a\b""#, true, "a\\b"),
        ];
        for (token, closed, value) in cases {
            assert_eq!(is_closed_string(token), closed, "{token}");
            assert_eq!(unescape_string(token), value, "{token}");
            let src = format!("[Event {token}");
            let tag = &parse_game(&src).tags[0];
            let inner = tag.value_inner(&src).expect("a value");
            assert_eq!(&src.as_str()[inner], string_contents(token), "{token}");
            assert_eq!(tag.value(&src), value, "{token}");
        }
    }

    #[test]
    fn the_result_node_is_the_first_marker_at_the_top_level() {
        // (game, the marker's text and offset)
        let cases = [
            ("1. e4 e5 1-0", Some(("1-0", 9))),
            ("1. e4 (1. d4 1-0) e5 0-1", Some(("0-1", 21))),
            ("1. e4 (1. d4 (1. c4 *) 1-0) 1/2-1/2 0-1", Some(("1/2-1/2", 28))),
            ("1. e4 (1. d4 1-0) e5", None),
            ("1-0 1. e4 0-1", Some(("1-0", 0))),
            ("1. e4 e5", None),
        ];
        for (text, expected) in cases {
            let game = parse_game(text);
            let found = game.result_node().map(|n| (&text[n.range], n.range.start as usize));
            assert_eq!(found, expected, "{text}");
        }
    }

    #[test]
    fn the_moves_after_a_move_are_those_of_its_line_up_to_its_end() {
        // (game, the move's text, the moves after it in its line)
        let cases = [
            ("1. e4 e5 2. Nf3 *", "e4", vec!["e5", "Nf3"]),
            ("1. e4 e5 * 2. Nf3", "e4", vec!["e5"]),
            (
                "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 2. Nf3 -- *",
                "e4",
                vec!["e5", "Nf3", "--"],
            ),
            ("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4 *) e5 *", "d4", vec!["d5", "c4"]),
            ("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 *", "Nf6", vec!["c4"]),
            ("1. e4 (1. d4) e5 *", "d4", vec![]),
            ("1. e4 e5", "e5", vec![]),
        ];
        for (text, first, expected) in cases {
            let game = parse_game(text);
            let i = game.nodes.iter().position(|n| &text[n.range] == first).unwrap();
            let found: Vec<&str> = game.line_moves_after(i).map(|n| &text[n.range]).collect();
            assert_eq!(found, expected, "{text}");
        }
    }
}
