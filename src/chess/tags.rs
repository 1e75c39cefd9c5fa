//! Tag-pair values (§8.1.1, §9): the shapes the standard gives them, and the Seven Tag Roster.

use super::start::insert_line_before;
use crate::syntax::{Code, Diagnostic, Game, NodeKind, Tag, escape_string, excerpt};
use crate::text::{TextEdit, TextRange};

/// The Seven Tag Roster in its export order, with the values that mean "unknown" (§8.1.1).
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The tags the analysis reads, each the first of its name in the game (§8.1: names are
/// case-sensitive), picked out in one pass over the tags instead of a search per name.
#[derive(Default)]
pub struct KnownTags<'g> {
    /// The Seven Tag Roster's, in [`SEVEN_TAG_ROSTER`] order.
    pub roster: [Option<&'g Tag>; 7],
    pub fen: Option<&'g Tag>,
    /// `SetUp`, or `Setup` where there is no `SetUp`.
    pub setup: Option<&'g Tag>,
    pub variant: Option<&'g Tag>,
    pub ply_count: Option<&'g Tag>,
}

impl<'g> KnownTags<'g> {
    pub fn of(game: &'g Game, src: &str) -> Self {
        let mut known = KnownTags::default();
        let mut setup_lowercase = None;
        for tag in &game.tags {
            let slot = match tag.name(src) {
                "Event" => &mut known.roster[0],
                "Site" => &mut known.roster[1],
                "Date" => &mut known.roster[2],
                "Round" => &mut known.roster[3],
                "White" => &mut known.roster[4],
                "Black" => &mut known.roster[5],
                "Result" => &mut known.roster[6],
                "FEN" => &mut known.fen,
                "SetUp" => &mut known.setup,
                "Setup" => &mut setup_lowercase,
                "Variant" => &mut known.variant,
                "PlyCount" => &mut known.ply_count,
                _ => continue,
            };
            slot.get_or_insert(tag);
        }
        known.setup = known.setup.or(setup_lowercase);
        known
    }

    pub fn result(&self) -> Option<&'g Tag> {
        self.roster[6]
    }
}

pub fn check(game: &Game, src: &str, known: &KnownTags<'_>, out: &mut Vec<Diagnostic>) {
    for tag in &game.tags {
        let name = tag.name(src);
        // Most tags take free text: their values are not read at all.
        let Some(shape) = Shape::of(name) else { continue };
        let Some(range) = tag.value_inner(src) else { continue };
        let value = tag.value(src);
        if !shape.fits(&value) {
            out.push(Diagnostic::new(
                Code::InvalidTagValue,
                range,
                format!("{} \"{}\": {}", excerpt(name), excerpt(&value), shape.expected()),
            ));
        }
    }
    check_roster(game, src, known, out);
}

/// The shapes the standard gives the values of some tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Date,
    Time,
    Round,
    Result,
    Eco,
    Rating,
    PlyCount,
    TimeControl,
    SetUp,
    Termination,
    Mode,
}

impl Shape {
    /// The shape of the values of tag `name`, if the standard gives them one.
    fn of(name: &str) -> Option<Shape> {
        Some(match name {
            "Date" | "EventDate" | "UTCDate" => Shape::Date,
            "Time" | "UTCTime" => Shape::Time,
            "Round" => Shape::Round,
            "Result" => Shape::Result,
            "ECO" => Shape::Eco,
            "WhiteElo" | "BlackElo" | "WhiteUSCF" | "BlackUSCF" => Shape::Rating,
            "PlyCount" => Shape::PlyCount,
            "TimeControl" => Shape::TimeControl,
            "SetUp" => Shape::SetUp,
            "Termination" => Shape::Termination,
            "Mode" => Shape::Mode,
            _ => return None,
        })
    }

    fn fits(self, value: &str) -> bool {
        match self {
            Shape::Date => is_date(value),
            Shape::Time => is_time(value),
            Shape::Round => value == "?" || value == "-" || is_dotted_number(value),
            Shape::Result => matches!(value, "1-0" | "0-1" | "1/2-1/2" | "*"),
            Shape::Eco => value == "?" || is_eco(value),
            Shape::Rating => matches!(value, "-" | "?") || is_number(value),
            Shape::PlyCount => is_number(value),
            Shape::TimeControl => is_time_control(value),
            Shape::SetUp => matches!(value, "0" | "1"),
            Shape::Termination => matches!(
                value.to_ascii_lowercase().as_str(),
                "abandoned"
                    | "adjudication"
                    | "death"
                    | "emergency"
                    | "normal"
                    | "rules infraction"
                    | "time forfeit"
                    | "unterminated"
            ),
            Shape::Mode => {
                matches!(value.to_ascii_uppercase().as_str(), "OTB" | "PM" | "EM" | "ICS" | "TC")
            }
        }
    }

    /// What a value of this shape looks like.
    fn expected(self) -> &'static str {
        match self {
            Shape::Date => "a date is YYYY.MM.DD, with ? for unknown digits (§8.1.1.3)",
            Shape::Time => "a time is HH:MM:SS (§9.5.1)",
            Shape::Round => "a round is a number, dotted numbers like 3.1, ? or - (§8.1.1.4)",
            Shape::Result => "the result is 1-0, 0-1, 1/2-1/2 or * (§8.1.1.7)",
            Shape::Eco => {
                "an ECO code is a letter A to E and two digits, like B33 or B33/01 (§9.4.1)"
            }
            Shape::Rating => "a rating is a whole number, or - for an unrated player (§9.1.2)",
            Shape::PlyCount => "the ply count is a whole number (§9.9.3)",
            Shape::TimeControl => {
                "a time control is ?, -, or fields like 40/7200:3600, 300+2, *180 joined by : (§9.6)"
            }
            Shape::SetUp => "SetUp is 0 or 1 (§9.7.1)",
            Shape::Termination => {
                "the termination is one of abandoned, adjudication, death, emergency, normal, rules infraction, time forfeit, unterminated (§9.8.1)"
            }
            Shape::Mode => "the mode is OTB, PM, EM, ICS or TC (§9.9.2)",
        }
    }
}

fn is_number(v: &str) -> bool {
    !v.is_empty() && v.bytes().all(|c| c.is_ascii_digit())
}

fn is_dotted_number(v: &str) -> bool {
    v.split('.').all(is_number)
}

/// The three fields of `v` separated by `sep`, if it has exactly three.
fn three_fields(v: &str, sep: char) -> Option<[&str; 3]> {
    let (a, rest) = v.split_once(sep)?;
    let (b, c) = rest.split_once(sep)?;
    (!c.contains(sep)).then_some([a, b, c])
}

fn is_date(v: &str) -> bool {
    let Some([y, m, d]) = three_fields(v, '.') else { return false };
    let field = |s: &str, len: usize, max: u32| {
        s.len() == len
            && s.bytes().all(|c| c.is_ascii_digit() || c == b'?')
            && (s.contains('?') || s.parse::<u32>().is_ok_and(|n| (len == 4 || n >= 1) && n <= max))
    };
    field(y, 4, 9999) && field(m, 2, 12) && field(d, 2, 31)
}

fn is_time(v: &str) -> bool {
    let Some([h, m, s]) = three_fields(v, ':') else { return false };
    let field = |f: &str, max: u32| {
        f.len() == 2 && is_number(f) && f.parse::<u32>().is_ok_and(|n| n <= max)
    };
    field(h, 23) && field(m, 59) && field(s, 60)
}

fn is_eco(v: &str) -> bool {
    let b = v.as_bytes();
    let code = |c: &[u8]| {
        c.len() == 3 && (b'A'..=b'E').contains(&c[0]) && c[1..].iter().all(u8::is_ascii_digit)
    };
    match v.split_once('/') {
        None => code(b),
        Some((main, sub)) => code(main.as_bytes()) && sub.len() == 2 && is_number(sub),
    }
}

fn is_time_control(v: &str) -> bool {
    if matches!(v, "?" | "-") {
        return true;
    }
    v.split(':').all(|field| {
        if let Some(secs) = field.strip_prefix('*') {
            return is_number(secs);
        }
        if let Some((moves, secs)) = field.split_once('/') {
            return is_number(moves) && is_number(secs);
        }
        match field.split_once('+') {
            Some((base, inc)) => is_number(base) && is_number(inc),
            None => is_number(field),
        }
    })
}

/// The Seven Tag Roster tags a game lacks, as one diagnostic with a fix adding them.
fn check_roster(game: &Game, src: &str, known: &KnownTags<'_>, out: &mut Vec<Diagnostic>) {
    let missing: Vec<usize> =
        (0..SEVEN_TAG_ROSTER.len()).filter(|&i| known.roster[i].is_none()).collect();
    if missing.is_empty() {
        return;
    }
    let marker = game
        .result_node()
        .map(|n| &src[n.range])
        .filter(|m| matches!(*m, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .unwrap_or("*");
    let anchor = game.tags.first().map(|t| t.range).unwrap_or_else(|| first_content(game));
    let names: Vec<&str> = missing.iter().map(|&i| SEVEN_TAG_ROSTER[i].0).collect();
    let message = if game.tags.is_empty() {
        "the game has no tags: the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result) is missing".to_owned()
    } else {
        format!(
            "missing Seven Tag Roster tag{}: {}",
            if names.len() > 1 { "s" } else { "" },
            names.join(", ")
        )
    };
    // Each missing tag goes where the roster's order puts it among the roster tags the game
    // has: before the next one it has, else after the one before; the tags of one place make
    // one insertion, in roster order.
    let mut places: Vec<(Place, Vec<String>)> = Vec::new();
    for &i in &missing {
        let (name, unknown) = SEVEN_TAG_ROSTER[i];
        let value = if name == "Result" { marker } else { unknown };
        let line = format!("[{name} {}]", escape_string(value));
        let later = known.roster[i + 1..].iter().flatten().next();
        let earlier = known.roster[..i].iter().rev().flatten().next();
        let place = match (later, earlier) {
            (Some(tag), _) => Place::Before(tag.range),
            (None, Some(tag)) => Place::After(tag.range),
            (None, None) => Place::Before(anchor),
        };
        match places.iter_mut().find(|(p, _)| *p == place) {
            Some((_, lines)) => lines.push(line),
            None => places.push((place, vec![line])),
        }
    }
    let edits = places.into_iter().map(|(place, lines)| {
        let mut block = lines.join("\n");
        if game.tags.is_empty() {
            // Before the movetext: a blank line follows the tags (§8.1).
            block.push('\n');
        }
        match place {
            Place::Before(range) => insert_line_before(range, src, &block),
            Place::After(range) => insert_line_after(range, src, &block),
        }
    });
    // Two places can be one offset (after a tag, before the next line's): one edit there.
    let mut merged: Vec<TextEdit> = Vec::new();
    for edit in edits {
        match merged.iter_mut().find(|e| e.range == edit.range) {
            Some(same) => same.new_text += &edit.new_text,
            None => merged.push(edit),
        }
    }
    merged.sort_by_key(|e| e.range.start);
    out.push(
        Diagnostic::new(Code::MissingTag, anchor, message).with_fix("Add the missing tags", merged),
    );
}

/// Where missing tags go: before the line of a tag (or of the movetext), or after a tag.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Before(TextRange),
    After(TextRange),
}

/// Insert `line` after the tag pair at `after`, as a line of its own: after its line when
/// nothing follows it there, else right after it, the rest of its line (other tag pairs, or the
/// movetext) then following the new line. Left on the tag pair's line, it could be read as part
/// of a broken one: a string with stray quotes runs to the last `"]` of its line.
fn insert_line_after(after: TextRange, src: &str, line: &str) -> TextEdit {
    let rest = &src[after.end as usize..];
    let line_end = rest.find('\n');
    if rest[..line_end.unwrap_or(rest.len())].trim().is_empty() {
        match line_end {
            Some(at) => {
                TextEdit::new(TextRange::empty(after.end + at as u32 + 1), format!("{line}\n"))
            }
            None => TextEdit::new(TextRange::empty(src.len() as u32), format!("\n{line}")),
        }
    } else {
        TextEdit::new(TextRange::empty(after.end), format!("\n{line}"))
    }
}

/// The range of the game's first move or other movetext node.
fn first_content(game: &Game) -> TextRange {
    game.nodes
        .iter()
        .find(|n| n.kind != NodeKind::VariationEnd)
        .map_or(TextRange::default(), |n| n.range)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of the known tags of the one game in `src`: Result, SetUp, FEN, and which of
    /// the roster's are there.
    fn known_values(src: &str) -> (Option<String>, Option<String>, Option<String>, Vec<bool>) {
        let game = crate::syntax::parse_game(src);
        let known = KnownTags::of(&game, src);
        let value = |tag: Option<&Tag>| tag.map(|t| t.value(src).into_owned());
        let roster = known.roster.iter().map(Option::is_some).collect();
        (value(known.result()), value(known.setup), value(known.fen), roster)
    }

    #[test]
    fn known_tags_are_the_first_of_each_name() {
        let src = "[Result \"1-0\"]\n[Setup \"1\"]\n[Result \"0-1\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n[result \"*\"]\n[SetUp \"0\"]\n[Event \"x\"]\n\n*\n";
        let (result, setup, fen, roster) = known_values(src);
        assert_eq!(result.as_deref(), Some("1-0"), "the first Result tag");
        assert_eq!(setup.as_deref(), Some("0"), "SetUp before Setup");
        assert_eq!(fen.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"));
        assert_eq!(roster, [true, false, false, false, false, false, true]);
        let (_, setup, fen, roster) = known_values("[Setup \"1\"]\n\n*\n");
        assert_eq!((setup.as_deref(), fen), (Some("1"), None), "Setup where there is no SetUp");
        assert_eq!(roster, [false; 7]);
    }

    #[test]
    fn known_roster_slots_follow_the_roster_order() {
        for (i, (name, _)) in SEVEN_TAG_ROSTER.iter().enumerate() {
            let src = format!("[{name} \"x\"]\n\n*\n");
            let (_, _, _, roster) = known_values(&src);
            let expected: Vec<bool> = (0..7).map(|j| j == i).collect();
            assert_eq!(roster, expected, "{name}");
        }
    }

    #[test]
    fn value_shapes() {
        for (name, good) in [
            ("Date", "2024.01.31"),
            ("Date", "????.??.??"),
            ("Date", "1992.??.??"),
            ("Time", "13:05:59"),
            ("Round", "3.1"),
            ("ECO", "B33"),
            ("ECO", "B33/01"),
            ("WhiteElo", "2800"),
            ("WhiteElo", "-"),
            ("TimeControl", "40/7200:3600"),
            ("TimeControl", "300+2"),
            ("TimeControl", "*180"),
            ("Termination", "Time forfeit"),
        ] {
            assert!(Shape::of(name).is_some_and(|s| s.fits(good)), "{name} {good}");
        }
        for (name, bad) in [
            ("Date", "2024-01-31"),
            ("Date", "2024.13.01"),
            ("Time", "25:00:00"),
            ("Round", "first"),
            ("ECO", "F00"),
            ("WhiteElo", "2800?"),
            ("PlyCount", "12a"),
            ("TimeControl", "15 min + 10 s"),
            ("SetUp", "yes"),
            ("Termination", "won by resignation"),
        ] {
            assert!(Shape::of(name).is_some_and(|s| !s.fits(bad)), "{name} {bad}");
        }
    }
}
