//! The tag pair section in export format (§8.1): the Seven Tag Roster first and in its order
//! (§8.1.1), missing roster tags added with their unknown values, then the other tags in ASCII
//! order of their names; one `[Name "value"]` per line with `"` and `\` escaped (§7) and tabs
//! written as spaces (§4.2); an empty line after the section. Reduced export format (§3.2.4)
//! keeps the roster and the tags that say how to read the moves (SetUp, FEN, Variant).
//!
//! Comments and escape lines of the tag section are never dropped. Those after the last tag pair
//! are the game's opening commentary and are printed at the start of the movetext, where the
//! parser finds them in the same place again (`{ Game comment } 1. e4`). Those between tag pairs
//! stay after the tag pair they followed (and so move with it), one per line, unless that tag
//! pair is printed last: then they join the opening commentary. Those before the first tag pair
//! (a file's opening notes) stay before the section, an empty line after them.

use std::borrow::Cow;

use super::FormatOptions;
use super::comment;
use super::doc::{Doc, Sep};
use crate::chess::{SEVEN_TAG_ROSTER, missing_tag_value};
use crate::syntax::{Game, NodeKind, Tag, TagSectionNote, escape_string};

/// The roster's tag names, in export order.
pub(crate) fn roster_names() -> impl Iterator<Item = &'static str> {
    SEVEN_TAG_ROSTER.iter().map(|(name, _)| *name)
}

/// Whether reduced export format keeps a tag: the roster, and the tags without which the moves
/// cannot be read (a game from another start position or of a variant has no reduced form in
/// the strict sense of §3.2.4; its start is kept rather than its moves made wrong).
pub(crate) fn kept_when_reduced(name: &str) -> bool {
    roster_rank(name).is_some() || matches!(name, "SetUp" | "Setup" | "FEN" | "Variant")
}

/// The place of `name` in the roster.
fn roster_rank(name: &str) -> Option<usize> {
    SEVEN_TAG_ROSTER.iter().position(|(n, _)| *n == name)
}

/// Whether the game has anything that makes it a game (tags or movetext); text with neither
/// (comments alone) gets no tags added.
pub(crate) fn is_game(game: &Game) -> bool {
    !game.tags.is_empty() || !game.nodes.is_empty()
}

/// A line of the output tag section.
enum TagLine<'g> {
    /// A tag pair of the input, with its index.
    Input(usize, &'g Tag),
    /// A missing roster tag.
    Added(&'static str),
}

/// The tag section's lines in export order.
fn ordered<'g>(game: &'g Game, src: &str, options: &FormatOptions) -> Vec<TagLine<'g>> {
    // Each line's place (see `export_order`) is worked out once, not at every comparison.
    let mut placed: Vec<((usize, &str), TagLine<'g>)> =
        Vec::with_capacity(game.tags.len() + SEVEN_TAG_ROSTER.len());
    let mut in_roster = [false; SEVEN_TAG_ROSTER.len()];
    for (i, tag) in game.tags.iter().enumerate() {
        let name = tag.name(src);
        let rank = roster_rank(name);
        if let Some(rank) = rank {
            in_roster[rank] = true;
        }
        if !options.reduced || kept_when_reduced(name) {
            placed.push(((rank.unwrap_or(SEVEN_TAG_ROSTER.len()), name), TagLine::Input(i, tag)));
        }
    }
    if options.add_missing_tags && is_game(game) {
        for (rank, name) in roster_names().enumerate().filter(|&(rank, _)| !in_roster[rank]) {
            placed.push(((rank, name), TagLine::Added(name)));
        }
    }
    // Stable: repeated tags keep their input order.
    placed.sort_by(|a, b| a.0.cmp(&b.0));
    placed.into_iter().map(|(_, line)| line).collect()
}

/// The key tag names are sorted by in export format: the roster first, in its order, then the
/// other names in ASCII order (§8.1.1). A stable sort keeps repeated tags in their input order.
pub fn export_order(name: &str) -> (usize, &str) {
    (roster_rank(name).unwrap_or(SEVEN_TAG_ROSTER.len()), name)
}

/// Write the tag section (with its empty line) of `game` to `out`; returns the notes that belong
/// at the start of the movetext.
pub(crate) fn write<'g>(
    game: &'g Game,
    src: &str,
    options: &FormatOptions,
    out: &mut String,
) -> Vec<&'g TagSectionNote> {
    let lines = ordered(game, src, options);
    let notes: &'g [TagSectionNote] = if options.reduced { &[] } else { &game.tag_notes };
    if lines.is_empty() {
        return notes.iter().collect();
    }
    let last_line = match lines.last() {
        Some(TagLine::Input(i, _)) => Some(*i),
        _ => None,
    };
    let place = |note: &TagSectionNote| place(game, note, last_line);
    let mut before_tags = notes.iter().filter(|n| place(n) == Place::BeforeTags).peekable();
    if before_tags.peek().is_some() {
        for note in before_tags {
            write_note(note, src, options, out);
        }
        // An empty line after them: a reader that starts a game at its first comment
        // (python-chess) would otherwise take the tag pairs for movetext.
        out.push('\n');
    }
    for line in &lines {
        match line {
            TagLine::Input(i, tag) => {
                write_tag(tag.name(src), &value_token(tag, src), out);
                for note in notes.iter().filter(|n| place(n) == Place::AfterTag(*i)) {
                    write_note(note, src, options, out);
                }
            }
            TagLine::Added(name) => {
                write_tag(name, &escape_string(missing_tag_value(name, game, src)), out)
            }
        }
    }
    out.push('\n');
    notes.iter().filter(|n| place(n) == Place::GameComment).collect()
}

/// Where a comment or escape line of the tag section goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Before the first tag pair.
    BeforeTags,
    /// After the input tag pair with this index.
    AfterTag(usize),
    /// At the start of the movetext: notes after the last tag pair of the input, or after the
    /// tag pair printed last.
    GameComment,
}

fn place(game: &Game, note: &TagSectionNote, printed_last: Option<usize>) -> Place {
    if game.opens_movetext(note) {
        return Place::GameComment;
    }
    match note.after_tags as usize {
        0 => Place::BeforeTags,
        n if Some(n - 1) == printed_last => Place::GameComment,
        n => Place::AfterTag(n - 1),
    }
}

/// A tag's value as an escaped string token (§7): its own token when that has no backslash
/// (without one, it holds no quote either: a stray quote is a structural error), else its value
/// escaped again (`\x` becomes `\\x`). The string's data stays the same, and so does its
/// length as the import format's limit counts it, but for tabs, which the export format does
/// not allow (§4.2) nor a string hold (§7): each becomes a space, as `check`'s fix writes it.
fn value_token<'s>(tag: &Tag, src: &'s str) -> Cow<'s, str> {
    match tag.value.map(|range| &src[range]) {
        Some(token) if memchr::memchr2(b'\\', b'\t', token.as_bytes()).is_none() => {
            Cow::Borrowed(token)
        }
        _ => Cow::Owned(escape_string(&tag.value(src)).replace('\t', " ")),
    }
}

fn write_tag(name: &str, value_token: &str, out: &mut String) {
    out.push('[');
    out.push_str(name);
    out.push(' ');
    out.push_str(value_token);
    out.push_str("]\n");
}

/// A comment or escape line of the tag section, on a line of its own.
fn write_note(note: &TagSectionNote, src: &str, options: &FormatOptions, out: &mut String) {
    let text = &src[note.range];
    match note.kind {
        NodeKind::Comment => {
            let mut doc = Doc::new(out, options.max_columns());
            comment::push(&mut doc, Sep::Space, comment::body(text), options.reflow_comments);
            doc.finish();
        }
        NodeKind::LineComment => out.push_str(text.trim_end_matches(comment::is_blank)),
        _ => out.push_str(text),
    }
    out.push('\n');
}
