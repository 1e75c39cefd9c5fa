//! Completion: what may be typed at the cursor. In the movetext, the legal moves of the
//! position there, in the main line or in any variation (a variation starts from the position
//! before the move it replaces, §8.2.5), in canonical SAN with their check and mate signs
//! (§8.2.3), and the termination markers after the last main-line move (§8.2.6); after `$`, the
//! NAGs with their meanings (§10); in the tag section, tag names as snippets (§8.1.1, §9) and,
//! inside a tag's quotes, the values of the tags that take one of a few (§9). Only the game at
//! the cursor is parsed.
//!
//! Moves are listed mates first, then checks, then captures, then the other moves, each group
//! in alphabetical SAN order.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::variant::Variant;
use shakmaty::{CastlingSide, EnPassantMode, Move, Position as _};

use super::analysis::DocumentAnalysis;
use super::nags::nag_meaning;
use super::tags::{TagDoc, in_seven_tag_roster, tag_docs};
use crate::chess::{self, Outcome, Position, role_name};
use crate::syntax::{Game, NodeKind, Tag, TextSource, parse_game, parse_game_at};
use crate::text::{TextEdit, TextRange};

/// One completion item, with its edit in document offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// A short line shown beside the label ("knight from g1 · check").
    pub detail: String,
    /// A longer explanation (Markdown), for tag names.
    pub documentation: Option<String>,
    /// Replaces the partly typed word (an empty range where nothing is typed yet).
    pub edit: TextEdit,
    /// Whether `edit.new_text` is a snippet with tab stops (`$1`).
    pub snippet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Move,
    Result,
    Nag,
    TagName,
    TagValue,
}

/// A calendar date, for the Date tag's value. Passed in so that completion does not read the
/// clock itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

impl Date {
    /// The date `days` days after 1970-01-01 (proleptic Gregorian calendar; H. Hinnant's
    /// `civil_from_days`).
    pub fn from_days_since_epoch(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    /// Today in UTC, by the system clock.
    pub fn today() -> Date {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_days_since_epoch((seconds / 86_400) as i64)
    }

    /// The date as a PGN date value, `YYYY.MM.DD` (§8.1.1.3).
    pub fn pgn(self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

/// The completions at `offset` of the document `text`, whose analysis is `analysis`.
pub fn completions(
    analysis: &DocumentAnalysis,
    text: &dyn TextSource,
    offset: u32,
    today: Date,
) -> Vec<Completion> {
    let Some((start, _)) = analysis.game_at(offset) else {
        // An empty document: a game starts with its tags.
        return tag_names(&[], TextRange::empty(offset), true);
    };
    let (game, src) = parse_game_at(text, start as usize);
    let mut items = completions_in_game(&game, &src, offset - start, today);
    for item in &mut items {
        item.edit.range = item.edit.range.shift(start);
    }
    items
}

/// The completions at `offset` of one game (`src` is the game's own text, `offset` relative
/// to it).
fn completions_in_game(game: &Game, src: &str, offset: u32, today: Date) -> Vec<Completion> {
    if let Some(tag) = game.tags.iter().find(|t| t.range.touches(offset)) {
        return in_tag(game, src, tag, offset, today);
    }
    let in_note = game.tag_notes.iter().any(|n| inside(n.range, offset, src));
    if in_note || game.nodes.iter().any(|n| inside(n.range, offset, src) && is_commentary(n.kind)) {
        return Vec::new();
    }
    let movetext_before = game.nodes.iter().any(|n| n.range.end <= offset && !n.range.is_empty());
    let ended = game.result_node().is_some_and(|r| r.range.end <= offset);
    if blank_line_at(src, offset) && (!movetext_before || ended) {
        let present: Vec<&str> =
            if ended { Vec::new() } else { game.tags.iter().map(|t| t.name(src)).collect() };
        let mut items = tag_names(&present, TextRange::empty(offset), true);
        let tags_follow = game.tags.iter().any(|t| t.range.start >= offset);
        if !ended && !tags_follow {
            items.extend(movetext(game, src, offset));
        }
        return items;
    }
    if ended {
        return Vec::new();
    }
    movetext(game, src, offset)
}

/// Whether `offset` lies inside `range` (past its first byte), or at the end of an element
/// left open (an unterminated comment runs on to the cursor).
fn inside(range: TextRange, offset: u32, src: &str) -> bool {
    let text = &src[range];
    let open = (text.starts_with('{') && !text.ends_with('}')) || text.starts_with([';', '%']);
    range.start < offset && (offset < range.end || (offset == range.end && open))
}

fn is_commentary(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Comment | NodeKind::LineComment | NodeKind::Escape)
}

/// Whether the line holding `offset` is blank.
fn blank_line_at(src: &str, offset: u32) -> bool {
    let at = offset as usize;
    // A lone CR ends a line too, as in the editor.
    let line_start = src[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = src[at..].find(['\n', '\r']).map_or(src.len(), |i| at + i);
    src[line_start..line_end].trim().is_empty()
}

// ───────────────────────── tags ─────────────────────────

fn in_tag(game: &Game, src: &str, tag: &Tag, offset: u32, today: Date) -> Vec<Completion> {
    if let Some(value) = tag.value
        && value.start < offset
        && let Some(inner) = tag.value_inner(src).filter(|r| r.touches(offset))
    {
        return tag_values(game, src, tag.name(src), inner, today);
    }
    if !tag.name.touches(offset) {
        return Vec::new();
    }
    let others: Vec<&str> =
        game.tags.iter().filter(|t| !std::ptr::eq(*t, tag)).map(|t| t.name(src)).collect();
    if tag.value.is_none() {
        // `[Ev` typed: the whole pair is written, as a snippet.
        return tag_names(&others, tag.range, true);
    }
    tag_names(&others, tag.name, false)
}

/// The tags a game may still take, the Seven Tag Roster first in its order (§8.1.1), then the
/// supplemental tags (§9), then common tags the standard does not define. As whole pairs
/// (`[Event "$1"]`) or as names alone.
fn tag_names(present: &[&str], replace: TextRange, whole_pairs: bool) -> Vec<Completion> {
    let mut docs: Vec<&TagDoc> = tag_docs().iter().filter(|d| !present.contains(&d.name)).collect();
    docs.sort_by_key(|d| (!in_seven_tag_roster(d), d.section.is_none()));
    docs.into_iter()
        .map(|doc| {
            let place = match doc.section {
                Some(section) if in_seven_tag_roster(doc) => {
                    format!("Seven Tag Roster, §{section}")
                }
                Some(section) => format!("§{section}"),
                None => "common, not in the standard".to_owned(),
            };
            let new_text =
                if whole_pairs { format!("[{} \"$1\"]$0", doc.name) } else { doc.name.to_owned() };
            Completion {
                label: doc.name.to_owned(),
                kind: CompletionKind::TagName,
                detail: place,
                documentation: Some(doc.description.to_owned()),
                edit: TextEdit::new(replace, new_text),
                snippet: whole_pairs,
            }
        })
        .collect()
}

/// The values of the tag `name` that the standard lists, replacing the text inside its quotes.
fn tag_values(
    game: &Game,
    src: &str,
    name: &str,
    replace: TextRange,
    today: Date,
) -> Vec<Completion> {
    let values: Vec<(String, String)> = match name {
        "Result" => {
            let marker = game.result_node().map(|n| &src[n.range]);
            let mut results = RESULTS.to_vec();
            results.sort_by_key(|(m, _)| Some(*m) != marker);
            results
                .into_iter()
                .map(|(m, meaning)| {
                    let why = if Some(m) == marker { ", as the termination marker" } else { "" };
                    (m.to_owned(), format!("{meaning}{why}"))
                })
                .collect()
        }
        "Date" | "EventDate" | "UTCDate" => vec![
            (today.pgn(), "today".to_owned()),
            ("????.??.??".to_owned(), "unknown date".to_owned()),
        ],
        "FEN" => chess::initial_position(game, src)
            .map(|pos| {
                let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                vec![(fen, "the initial position".to_owned())]
            })
            .unwrap_or_default(),
        _ => FIXED_VALUES
            .iter()
            .filter(|(tag, _, _)| *tag == name)
            .map(|(_, value, meaning)| ((*value).to_owned(), (*meaning).to_owned()))
            .collect(),
    };
    values
        .into_iter()
        .map(|(value, detail)| Completion {
            label: value.clone(),
            kind: CompletionKind::TagValue,
            detail,
            documentation: None,
            edit: TextEdit::new(replace, value),
            snippet: false,
        })
        .collect()
}

/// The termination markers (§8.2.6) and what they mean.
const RESULTS: [(&str, &str); 4] = [
    ("1-0", "White wins"),
    ("0-1", "Black wins"),
    ("1/2-1/2", "drawn game"),
    ("*", "game in progress, abandoned, or result unknown"),
];

/// Tags whose values the standard lists: Termination (§9.8.1), Mode (§9.9.2), SetUp (§9.7.1).
const FIXED_VALUES: &[(&str, &str, &str)] = &[
    ("Termination", "abandoned", "abandoned game"),
    ("Termination", "adjudication", "result due to third-party adjudication"),
    ("Termination", "death", "a player died"),
    ("Termination", "emergency", "game concluded due to unforeseen circumstances"),
    ("Termination", "normal", "game terminated in a normal fashion"),
    (
        "Termination",
        "rules infraction",
        "administrative forfeit due to losing player's failure to observe the Laws of Chess or the event regulations",
    ),
    (
        "Termination",
        "time forfeit",
        "loss due to losing player's failure to meet time control requirements",
    ),
    ("Termination", "unterminated", "game not terminated"),
    ("Mode", "OTB", "over the board"),
    ("Mode", "PM", "paper mail"),
    ("Mode", "EM", "electronic mail"),
    ("Mode", "ICS", "Internet Chess Server"),
    ("Mode", "TC", "general telecommunication"),
    ("SetUp", "0", "the usual initial array"),
    ("SetUp", "1", "the position of the FEN tag"),
];

// ───────────────────────── movetext ─────────────────────────

/// Completions in the movetext: NAGs after `$`, else the legal moves of the position at the
/// cursor and, at the end of the main line, the termination markers.
fn movetext(game: &Game, src: &str, offset: u32) -> Vec<Completion> {
    let word = word_at(src, offset);
    let typed = &src[word];
    if typed.starts_with('$') {
        return nags(word);
    }
    if !typed.is_empty() && typed.bytes().all(|b| b.is_ascii_digit()) {
        // A move number being typed.
        return Vec::new();
    }
    let Some(at) = position_at(src, word) else {
        return Vec::new();
    };
    let mut items = legal_moves(&at.position, word);
    if at.ends_main_line && game.result_node().is_none() {
        let marker = game.tag_value("Result", src);
        items.extend(result_markers(&at.position, marker.as_deref(), word));
    }
    if src[word.end as usize..].starts_with(is_word_char) {
        // Written right before a word, a move needs a space to stay a word of its own.
        for item in &mut items {
            item.edit.new_text.push(' ');
        }
    }
    items
}

/// The word at the cursor: the run of move characters around it, when the cursor is inside
/// or at the end of one; else an empty range at the cursor (typing before a word inserts).
fn word_at(src: &str, offset: u32) -> TextRange {
    let at = offset as usize;
    let before = src[..at].char_indices().rev().take_while(|&(_, c)| is_word_char(c)).last();
    let Some((start, _)) = before else {
        return TextRange::empty(offset);
    };
    let end = src[at..]
        .char_indices()
        .find(|&(_, c)| !is_word_char(c))
        .map_or(src.len(), |(i, _)| at + i);
    TextRange::new(start as u32, end as u32)
}

/// The characters of moves, NAGs and move numbers as they are typed.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || "+#=-@$:".contains(c) || ('♔'..='♟').contains(&c)
}

/// The position where a move typed over `word` would be played.
struct MoveSlot {
    position: Position,
    /// Whether the slot is in the main line after its last move.
    ends_main_line: bool,
}

/// A word that reads as no move in any notation (`Z` is no piece letter, `z` no file): put in
/// place of the word at the cursor, it becomes a move node the replay visits with the position
/// before it, whatever stands around it (a move number, a `(`, the end of a line).
const PLACEHOLDER: &str = "Zz";

/// The position at `word`: the game's text with `word` replaced by a placeholder move is
/// replayed, and the position before that move is the one wanted (`None` where the line went
/// wrong earlier).
fn position_at(src: &str, word: TextRange) -> Option<MoveSlot> {
    let patched =
        format!("{} {PLACEHOLDER} {}", &src[..word.start as usize], &src[word.end as usize..]);
    let placeholder_at = word.start + 1;
    let patched_game = parse_game(&patched);
    let index = patched_game
        .nodes
        .iter()
        .position(|n| n.range.start == placeholder_at && n.kind == NodeKind::Move)?;
    let mut slot = None;
    chess::replay(&patched_game, &patched, &mut |visit| {
        if visit.node == index {
            slot = Some((visit.before(), visit.depth));
        }
    });
    // The replay visits every move node but the words before a game's first move number,
    // which it reads as text (a title): where the placeholder is one of them, a move typed
    // there is the main line's first, from the start position.
    let (position, depth) =
        slot.unwrap_or_else(|| (chess::start_position(&patched_game, &patched), 0));
    let mut depth_after = 0u32;
    let moves_follow = patched_game.nodes[index + 1..].iter().any(|n| {
        match n.kind {
            NodeKind::VariationStart => depth_after += 1,
            NodeKind::VariationEnd => depth_after = depth_after.saturating_sub(1),
            NodeKind::Move | NodeKind::NullMove => return depth_after == 0,
            _ => {}
        }
        false
    });
    Some(MoveSlot { position: position?, ends_main_line: depth == 0 && !moves_follow })
}

/// The legal moves of `pos`, replacing `word`.
fn legal_moves(pos: &Position, word: TextRange) -> Vec<Completion> {
    let mut moves: Vec<(u8, String, String)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let (suffix, decided_by) = chess::sign_of(&after);
            let san = SanPlus { san: San::from_move(pos, m), suffix };
            let group = match (san.suffix, m.is_capture()) {
                (Some(Suffix::Checkmate), _) => 0,
                (Some(Suffix::Check), _) => 1,
                (None, true) => 2,
                (None, false) => 3,
            };
            let detail = move_detail(m, san.suffix, decided_by);
            (group, chess::san_plus_text(san), detail)
        })
        .collect();
    moves.sort();
    moves
        .into_iter()
        .map(|(_, san, detail)| Completion {
            label: san.clone(),
            kind: CompletionKind::Move,
            detail,
            documentation: None,
            edit: TextEdit::new(word, san),
            snippet: false,
        })
        .collect()
}

/// What a move does, in words: "knight from g1 · check", "pawn from e5 takes pawn en passant";
/// `decided_by` is the variant by whose rules it decides the game, if it does.
fn move_detail(m: Move, suffix: Option<Suffix>, decided_by: Option<Variant>) -> String {
    let mut out = match m {
        Move::Castle { .. } => match m.castling_side() {
            Some(CastlingSide::QueenSide) => "king castles queenside".to_owned(),
            _ => "king castles kingside".to_owned(),
        },
        Move::Put { role, to } => format!("{} dropped on {to}", role_name(role)),
        _ => {
            let from = m.from().map(|f| format!(" from {f}")).unwrap_or_default();
            format!("{}{from}", role_name(m.role()))
        }
    };
    if let Some(captured) = m.capture() {
        out.push_str(&format!(" takes {}", role_name(captured)));
        if m.is_en_passant() {
            out.push_str(" en passant");
        }
    }
    if let Some(role) = m.promotion() {
        out.push_str(&format!(", promotes to {}", role_name(role)));
    }
    match (decided_by, suffix) {
        (Some(variant), _) => {
            out.push_str(&format!(
                " · ends the game by the rules of {}",
                chess::variant_name(variant)
            ));
        }
        (None, Some(Suffix::Checkmate)) => out.push_str(" · checkmate"),
        (None, Some(Suffix::Check)) => out.push_str(" · check"),
        (None, None) => {}
    }
    out
}

/// The termination markers at the end of the main line; the one the final position or the
/// Result tag calls for first.
fn result_markers(pos: &Position, tag: Option<&str>, word: TextRange) -> Vec<Completion> {
    let called_for = Outcome::at(pos).result().map(|(marker, _)| marker).or(tag);
    let mut results = RESULTS.to_vec();
    results.sort_by_key(|(m, _)| Some(*m) != called_for);
    results
        .into_iter()
        .map(|(marker, meaning)| Completion {
            label: marker.to_owned(),
            kind: CompletionKind::Result,
            detail: format!("termination marker: {meaning}"),
            documentation: None,
            edit: TextEdit::new(word, marker),
            snippet: false,
        })
        .collect()
}

/// The NAGs that have a meaning (§10, and the common ones after $139), replacing `word`.
fn nags(word: TextRange) -> Vec<Completion> {
    (0..=255u32)
        .filter_map(|n| {
            let meaning = nag_meaning(n)?;
            let detail = match meaning.glyph {
                Some(glyph) => format!("{glyph} {}", meaning.text),
                None => meaning.text.to_owned(),
            };
            Some(Completion {
                label: format!("${n}"),
                kind: CompletionKind::Nag,
                detail,
                documentation: None,
                edit: TextEdit::new(word, format!("${n}")),
                snippet: false,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        let date = |d| Date::from_days_since_epoch(d).pgn();
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(-1), "1969.12.31");
        assert_eq!(date(11_016), "2000.02.29");
        assert_eq!(date(20_513), "2026.03.01");
    }

    #[test]
    fn the_placeholder_is_no_move() {
        let game = parse_game(&format!("1. e4 {PLACEHOLDER} *"));
        let mut played = Vec::new();
        chess::replay(&game, &format!("1. e4 {PLACEHOLDER} *"), &mut |v| {
            played.push(v.played.is_some())
        });
        assert_eq!(played, [true, false]);
    }
}
