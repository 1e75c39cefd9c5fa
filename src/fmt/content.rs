//! What formatting must keep: the content of a game, without its layout. Tests, the corpus round
//! trip and property tests compare the content of the input with that of the formatted output
//! through this one module.
//!
//! Content is: the tag pairs (as a sorted list: order is layout), the commentary before the
//! first move (sorted too: it moves with the tag pairs), and the other movetext elements in
//! order: moves (canonical SAN when legal, else as written), NAGs (suffix annotations and
//! glyphs that stand for one as their NAG, no leading zeros), other glyphs, `e.p.` marks but
//! those right after an en passant capture (notation, as the `x`: §8.2.3.3), comments
//! (whitespace-normalised when comments are re-flowed, else with only padding and CRLF
//! normalised), `;` comments (without trailing blanks), escape lines, variation brackets and
//! the termination marker. Move numbers are layout: they are recomputed.

use std::fmt;

use super::FormatOptions;
use super::annotation::nag_digits;
use super::comment;
use super::moves::{MoveFact, walk};
use super::movetext::adds_marker;
use super::tags::{is_game, kept_when_reduced, roster_names};
use crate::chess;
use crate::syntax::{Game, NodeKind, glyph_nag, parse_games, standard_marker, suffix_nag};

/// One movetext element.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Element {
    Move(String),
    Nag(String),
    Glyph(String),
    EnPassant(String),
    Comment(String),
    LineComment(String),
    Escape(String),
    VariationStart,
    VariationEnd,
    Result(String),
    Unexpected(String),
}

/// The content of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameContent {
    /// `(name, value)`, sorted.
    pub tags: Vec<(String, String)>,
    /// Commentary before the game's first move: the comments and escape lines of the tag
    /// section and those opening the movetext, sorted (their order follows the tag pairs they
    /// are attached to, and a move number dropped before one makes it part of the tag section).
    pub notes: Vec<Element>,
    pub movetext: Vec<Element>,
}

/// The content of `game` (`src` is its own text) as it stands; comments compared re-flowed or
/// as written, as `reflow` says.
pub fn game_content(game: &Game, src: &str, reflow: bool) -> GameContent {
    let mut tags: Vec<(String, String)> =
        game.tags.iter().map(|t| (t.name(src).to_owned(), t.value(src).into_owned())).collect();
    tags.sort();
    let notes = game.tag_notes.iter().map(|n| commentary(n.kind, &src[n.range], reflow));
    let mut movetext = Vec::with_capacity(game.nodes.len());
    // Whether the nodes passed since the last move are an en passant capture and the marks
    // right after it.
    let mut after_en_passant = false;
    walk(game, src, |i, fact| {
        let node = &game.nodes[i];
        let text = &src[node.range];
        let mark_of_en_passant = node.kind == NodeKind::EnPassantMark && after_en_passant;
        after_en_passant = fact.is_some_and(|f| f.en_passant) || mark_of_en_passant;
        if mark_of_en_passant {
            return;
        }
        movetext.push(match node.kind {
            NodeKind::MoveNumber => return,
            NodeKind::Move | NodeKind::NullMove => Element::Move(match fact {
                Some(MoveFact { san: Some(san), .. }) => chess::san_plus_text(*san),
                _ => text.to_owned(),
            }),
            NodeKind::Suffix => match suffix_nag(text) {
                Some(nag) => Element::Nag(nag.to_string()),
                None => Element::Unexpected(text.to_owned()),
            },
            NodeKind::Nag => Element::Nag(nag_digits(text).to_owned()),
            NodeKind::Glyph => match glyph_nag(text) {
                Some(nag) => Element::Nag(nag.to_string()),
                None => Element::Glyph(text.to_owned()),
            },
            NodeKind::EnPassantMark => Element::EnPassant(text.to_owned()),
            NodeKind::Comment | NodeKind::LineComment | NodeKind::Escape => {
                commentary(node.kind, text, reflow)
            }
            NodeKind::VariationStart => Element::VariationStart,
            NodeKind::VariationEnd => Element::VariationEnd,
            NodeKind::Result => Element::Result(standard_marker(text).to_owned()),
            NodeKind::Unexpected => Element::Unexpected(text.to_owned()),
        });
    });
    // Commentary before the first move or other element opens the game wherever it stands.
    let opening = movetext.iter().take_while(|e| is_commentary(e)).count();
    let mut notes: Vec<Element> = notes.chain(movetext.drain(..opening)).collect();
    notes.sort();
    GameContent { tags, notes, movetext }
}

fn is_commentary(element: &Element) -> bool {
    matches!(element, Element::Comment(_) | Element::LineComment(_) | Element::Escape(_))
}

fn commentary(kind: NodeKind, text: &str, reflow: bool) -> Element {
    match kind {
        NodeKind::Comment => {
            Element::Comment(comment::normalized(comment::body(text), reflow).into_owned())
        }
        NodeKind::LineComment => {
            Element::LineComment(text.trim_end_matches(comment::is_blank).to_owned())
        }
        NodeKind::Unexpected => Element::Unexpected(text.to_owned()),
        _ => Element::Escape(text.to_owned()),
    }
}

/// The content formatting `game` with `options` must produce: its content, with a space for
/// each tab in a tag value (§4.2), a termination marker where it has none and the missing
/// roster tags added (when asked), and in reduced export format without the tags it leaves
/// out, commentary, NAGs, glyphs and variations.
pub fn expected_content(game: &Game, src: &str, options: &FormatOptions) -> GameContent {
    let mut content = game_content(game, src, options.reflow_comments);
    if adds_marker(game) {
        content.movetext.push(Element::Result(game.missing_marker(src).to_owned()));
    }
    for (_, value) in content.tags.iter_mut().filter(|(_, value)| value.contains('\t')) {
        *value = value.replace('\t', " ");
    }
    if options.add_missing_tags && is_game(game) {
        for name in roster_names() {
            if game.tag(name, src).is_none() {
                content
                    .tags
                    .push((name.to_owned(), chess::missing_tag_value(name, game, src).to_owned()));
            }
        }
    }
    content.tags.sort();
    if options.reduced {
        content.tags.retain(|(name, _)| kept_when_reduced(name));
        content.notes.clear();
        let mut depth = 0u32;
        content.movetext.retain(|e| match e {
            Element::VariationStart => {
                depth += 1;
                false
            }
            Element::VariationEnd => {
                depth = depth.saturating_sub(1);
                false
            }
            Element::Move(_) | Element::Result(_) | Element::Unexpected(_) => depth == 0,
            _ => false,
        });
    }
    content
}

/// How a formatted text differs from what formatting its input must give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentMismatch {
    /// The index of the game among the games compared.
    pub game: usize,
    pub detail: String,
}

impl fmt::Display for ContentMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.game + 1, self.detail)
    }
}

/// One game of a text as the comparison sees it.
#[derive(Debug)]
struct Side<'a> {
    source: &'a str,
    /// The content, for a game without structural errors.
    content: Option<GameContent>,
}

/// Check that `output`, the formatted form of `input`, keeps all of its content: every game
/// with structural errors byte for byte; every other game either byte for byte (kept as it is)
/// or with the content formatting must give. Returns the number of games compared.
pub fn compare_texts(
    input: &str,
    output: &str,
    options: &FormatOptions,
) -> Result<usize, ContentMismatch> {
    let (want, got) = (sides(input, options, true), sides(output, options, false));
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        if let Some(detail) = difference(w, g) {
            return Err(ContentMismatch { game: i, detail });
        }
    }
    if want.len() != got.len() {
        let detail = format!("{} games expected, {} found", want.len(), got.len());
        return Err(ContentMismatch { game: want.len().min(got.len()), detail });
    }
    Ok(want.len())
}

/// The games of `text` (leaving out stretches of whitespace): with the content formatting with
/// `options` must give when `expected`, else with the content they have.
fn sides<'a>(text: &'a str, options: &FormatOptions, expected: bool) -> Vec<Side<'a>> {
    parse_games(text)
        .filter(|(_, game)| !game.is_blank())
        .map(|(start, game)| {
            let source = &text[start as usize..(start + game.len) as usize];
            let content = (!game.has_structural_errors()).then(|| {
                if expected {
                    expected_content(&game, source, options)
                } else {
                    game_content(&game, source, options.reflow_comments)
                }
            });
            Side { source, content }
        })
        .collect()
}

fn difference(want: &Side<'_>, got: &Side<'_>) -> Option<String> {
    if want.source == got.source {
        return None;
    }
    match (&want.content, &got.content) {
        (None, _) => Some(format!(
            "game with syntax errors not kept: {:?} became {:?}",
            want.source, got.source
        )),
        (Some(_), None) => {
            Some(format!("game {:?} became text with syntax errors: {:?}", want.source, got.source))
        }
        (Some(w), Some(g)) => {
            if w.tags != g.tags {
                return Some(format!("tags {:?} became {:?}", w.tags, g.tags));
            }
            if w.notes != g.notes {
                return Some(format!("opening commentary {:?} became {:?}", w.notes, g.notes));
            }
            let at = w.movetext.iter().zip(&g.movetext).position(|(a, b)| a != b);
            let at = at.or((w.movetext.len() != g.movetext.len())
                .then(|| w.movetext.len().min(g.movetext.len())))?;
            let around = |m: &[Element]| m[at.saturating_sub(2)..(at + 3).min(m.len())].to_vec();
            Some(format!(
                "movetext element {at}: {:?} became {:?}",
                around(&w.movetext),
                around(&g.movetext)
            ))
        }
    }
}
