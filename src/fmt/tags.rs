//! The tag pair section in export format (§8.1): the Seven Tag Roster first and in its order
//! (§8.1.1), missing roster tags added with their unknown values, then the other tags in ASCII
//! order of their names; one `[Name "value"]` per line with `"` and `\` escaped (§7); an empty
//! line after the section.
//!
//! Comments and escape lines between tag pairs are never dropped: each stays after the tag pair
//! it followed (and so moves with it), one per line; those before the first tag pair stay
//! before the section. Those that end up after the section's last tag pair are the game's
//! opening commentary and are printed at the start of the movetext, where a second formatting
//! pass finds them in the same place.

use std::borrow::Cow;

use super::FormatOptions;
use super::comment;
use super::doc::{Doc, Sep};
use super::printer::print;
use crate::syntax::{Game, NodeKind, Tag, TagSectionNote, escape_string};

/// The Seven Tag Roster, in export order (§8.1.1).
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The value of a roster tag the game lacks: `?` for unknown (§8.1.1.1-6), `????.??.??` for the
/// date (§8.1.1.3), and for the Result tag the game's termination marker, or `*` without one.
pub fn unknown_value<'a>(name: &str, game: &Game, src: &'a str) -> &'a str {
    match name {
        "Date" => "????.??.??",
        "Result" => match game.result_node().map(|n| &src[n.range]) {
            Some(marker @ ("1-0" | "0-1" | "1/2-1/2" | "*")) => marker,
            Some(_) => "1/2-1/2",
            None => "*",
        },
        _ => "?",
    }
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

impl TagLine<'_> {
    fn name<'s>(&self, src: &'s str) -> &'s str {
        match self {
            TagLine::Input(_, tag) => tag.name(src),
            TagLine::Added(name) => name,
        }
    }
}

/// The tag section's lines in export order.
fn ordered<'g>(game: &'g Game, src: &str, options: &FormatOptions) -> Vec<TagLine<'g>> {
    let roster_rank = |name: &str| SEVEN_TAG_ROSTER.iter().position(|&r| r == name);
    let mut lines: Vec<TagLine<'g>> = game
        .tags
        .iter()
        .enumerate()
        .filter(|(_, t)| !options.reduced || roster_rank(t.name(src)).is_some())
        .map(|(i, t)| TagLine::Input(i, t))
        .collect();
    if options.add_missing_tags && is_game(game) {
        for name in SEVEN_TAG_ROSTER {
            if game.tag(name, src).is_none() {
                lines.push(TagLine::Added(name));
            }
        }
    }
    // Stable: repeated tags keep their input order.
    lines.sort_by(|a, b| {
        let (a, b) = (a.name(src), b.name(src));
        let rank = |name| roster_rank(name).unwrap_or(SEVEN_TAG_ROSTER.len());
        (rank(a), a).cmp(&(rank(b), b))
    });
    lines
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
    // Notes follow the tag pair before them; notes before any tag pair (`after_tags == 0`)
    // lead the section when there is one.
    let follows = |note: &TagSectionNote, input: usize| note.after_tags as usize == input + 1;
    let last_input = match lines.last() {
        Some(TagLine::Input(i, _)) => Some(*i),
        Some(TagLine::Added(_)) => None,
        None => return notes.iter().collect(),
    };
    let leading = |note: &&TagSectionNote| note.after_tags == 0 && !game.tags.is_empty();
    for note in notes.iter().filter(leading) {
        write_note(note, src, options, out);
    }
    for line in &lines {
        match line {
            TagLine::Input(_, tag) => {
                let value = tag.value.map_or(Cow::Borrowed(""), |_| tag.value(src));
                write_tag(tag.name(src), &value, out);
            }
            TagLine::Added(name) => write_tag(name, unknown_value(name, game, src), out),
        }
        if let TagLine::Input(i, _) = line
            && Some(*i) != last_input
        {
            for note in notes.iter().filter(|n| follows(n, *i)) {
                write_note(note, src, options, out);
            }
        }
    }
    out.push('\n');
    let trailing = |note: &&TagSectionNote| {
        !leading(note) && last_input.is_some_and(|last| follows(note, last)) || game.tags.is_empty()
    };
    notes.iter().filter(trailing).collect()
}

fn write_tag(name: &str, value: &str, out: &mut String) {
    out.push('[');
    out.push_str(name);
    out.push(' ');
    out.push_str(&escape_string(value));
    out.push_str("]\n");
}

/// A comment or escape line of the tag section, on a line of its own.
fn write_note(note: &TagSectionNote, src: &str, options: &FormatOptions, out: &mut String) {
    let text = &src[note.range];
    match note.kind {
        NodeKind::Comment => {
            let mut doc = Doc::default();
            comment::push(&mut doc, Sep::Space, comment::body(text), options.reflow_comments);
            print(&doc, options.max_columns(), out);
        }
        NodeKind::LineComment => out.push_str(text.trim_end()),
        _ => out.push_str(text),
    }
    out.push('\n');
}
