//! Tag-pair values (§8.1.1, §9): the shapes the standard gives them, and the Seven Tag Roster.

use std::borrow::Cow;

use super::start::insert_line_before;
use crate::syntax::{
    Code, Diagnostic, Game, NodeKind, STANDARD_RESULTS, Tag, escape_string, excerpt,
    standard_marker, standard_result,
};
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
            let message =
                format!("{} \"{}\": {}", excerpt(name), excerpt(&value), shape.complaint(&value));
            let mut diagnostic = Diagnostic::new(shape.code(), range, message);
            if let Some(fixed) = shape.repaired(&value) {
                let edits = vec![TextEdit::new(range, fixed.clone())];
                diagnostic = diagnostic.with_fix(format!("Write {fixed}"), edits);
            }
            out.push(diagnostic);
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

    /// The code of a value that does not fit. The standard lists the Termination values that
    /// "may appear" (§9.8.1), and exporters write their own free text there (chess.com's
    /// "X won by resignation", puzzle collections' "mate in 3"): that value is only
    /// non-standard, where a value of another wrong shape (a date, a rating) is a mistake.
    fn code(self) -> Code {
        match self {
            Shape::Termination => Code::NonStandardTermination,
            _ => Code::InvalidTagValue,
        }
    }

    fn fits(self, value: &str) -> bool {
        match self {
            Shape::Date => is_date(value),
            Shape::Time => is_time(value),
            Shape::Round => value == "?" || value == "-" || is_dotted_number(value),
            Shape::Result => STANDARD_RESULTS.contains(&value),
            Shape::Eco => value == "?" || is_eco(value),
            // A field for each player of a consultation game (`2400:-` for `Jones:Smith`, §9.1).
            Shape::Rating => {
                let rating = |field| matches!(field, "-" | "?") || is_number(field);
                rating(value) || value.split(':').all(rating)
            }
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

    /// `value`, which does not fit this shape, written in it, where what it stands for is
    /// certain.
    fn repaired(self, value: &str) -> Option<String> {
        match self {
            Shape::Date => standard_date(value),
            Shape::Result => standard_result(value).map(str::to_owned),
            _ => None,
        }
    }

    /// What is wrong with `value`, which does not fit this shape: for a date, what it names that
    /// does not exist, or else what a value of the shape looks like.
    fn complaint(self, value: &str) -> Cow<'static, str> {
        match self {
            Shape::Date => date_error(value).map_or(Cow::Borrowed(DATE_SHAPE), DateError::message),
            _ => Cow::Borrowed(self.expected()),
        }
    }

    /// What a value of this shape looks like.
    fn expected(self) -> &'static str {
        match self {
            Shape::Date => DATE_SHAPE,
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
                "the standard's values are abandoned, adjudication, death, emergency, normal, rules infraction, time forfeit and unterminated (§9.8.1)"
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

/// What a date looks like (§8.1.1.3).
const DATE_SHAPE: &str = "a date is YYYY.MM.DD, with ? for unknown digits (§8.1.1.3)";

/// Whether `v` is a date (§8.1.1.3) that exists, or could once its unknown digits are known.
fn is_date(v: &str) -> bool {
    date_error(v).is_none()
}

/// Why `v` is not a date (§8.1.1.3), or `None` when it is one: a day that exists, or could once
/// its unknown digits (`?`) are known. Runs on every game: nothing is allocated.
fn date_error(v: &str) -> Option<DateError<'_>> {
    let Some([y, m, d]) = three_fields(v, '.') else { return Some(DateError::Shape) };
    if !(is_digit_field(y, 4) && is_digit_field(m, 2) && is_digit_field(d, 2)) {
        return Some(DateError::Shape);
    }
    let months = readings(m.as_bytes(), 12);
    if months == 0 {
        return Some(DateError::NoMonth(m));
    }
    let days = readings(d.as_bytes(), 31);
    if days == 0 {
        return Some(DateError::NoDay(d));
    }
    // Every month has the 28th: only a later first reading of the day can fall past its end.
    let first_day = days.trailing_zeros();
    if first_day <= 28 {
        return None;
    }
    let longest =
        (1..=12).filter(|&n| months & 1 << n != 0).map(|n| month_days(n, y)).fold(0, u32::max);
    // Two or more readings of the month include one of 31 days (`?1` January, `?2` December,
    // `0?` January, `1?` October): only a month read one way has too few days.
    (longest < first_day)
        .then(|| DateError::PastMonthEnd { month: months.trailing_zeros(), year: y })
}

/// The date `v` stands for, written as the standard writes dates (§8.1.1.3), where that is
/// certain: a year alone (`1988`: `1988.??.??`), a year and a month (`1988.05`), the fields
/// joined by `-` or `/` in the standard's order (`2024-01-31`), or nothing known (`?` or an
/// empty value: `????.??.??`). A date written with one-digit fields is left alone: whether
/// `2013.5.6` is in May or June its neighbours may tell (`2013.26.7`), the value does not.
fn standard_date(v: &str) -> Option<String> {
    let fields: Vec<&str> = v.split(['.', '-', '/']).collect();
    let date = match fields[..] {
        ["" | "?"] => "????.??.??".to_owned(),
        [y] if is_digit_field(y, 4) => format!("{y}.??.??"),
        [y, m] if is_digit_field(y, 4) && is_digit_field(m, 2) => format!("{y}.{m}.??"),
        [y, m, d] if is_digit_field(y, 4) && is_digit_field(m, 2) && is_digit_field(d, 2) => {
            format!("{y}.{m}.{d}")
        }
        _ => return None,
    };
    (date != v && is_date(&date)).then_some(date)
}

/// Why a value is not a date.
enum DateError<'v> {
    /// Not `YYYY.MM.DD` with digits or `?`.
    Shape,
    /// A month field no month from 1 to 12 can be, as written.
    NoMonth(&'v str),
    /// A day field no day from 1 to 31 can be, as written.
    NoDay(&'v str),
    /// A day past the end of `month` (1 to 12) in the year written `year`.
    PastMonthEnd { month: u32, year: &'v str },
}

impl DateError<'_> {
    /// The error in words.
    fn message(self) -> Cow<'static, str> {
        match self {
            DateError::Shape => Cow::Borrowed(DATE_SHAPE),
            DateError::NoMonth(m) => format!("there is no month {m}").into(),
            DateError::NoDay(d) => format!("there is no day {d}").into(),
            DateError::PastMonthEnd { month: 2, year } => february_days(year),
            DateError::PastMonthEnd { month, year } => {
                format!("{} has {} days", MONTHS[month as usize - 1], month_days(month, year))
                    .into()
            }
        }
    }
}

/// How many days February has in the year written `year`, said for a day past its end.
fn february_days(year: &str) -> Cow<'static, str> {
    let leap = can_be_leap(year.as_bytes());
    if !year.contains('?') {
        format!("February {year} has {} days", if leap { 29 } else { 28 }).into()
    } else if leap {
        Cow::Borrowed("February has at most 29 days")
    } else {
        format!("February has 28 days: no year {year} is a leap year").into()
    }
}

/// The months' names, January first.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Whether `field` is `len` characters, each a digit or `?` for an unknown one (§8.1.1.3).
fn is_digit_field(field: &str, len: usize) -> bool {
    field.len() == len && field.bytes().all(|c| c.is_ascii_digit() || c == b'?')
}

/// The numbers from 1 to `max` (at most 31) the digit field `field` can be, as the bits
/// `1 << n`: one at most when it has no `?`, none when it is out of range.
fn readings(field: &[u8], max: u32) -> u32 {
    if !field.contains(&b'?') {
        let n = field.iter().fold(0, |n, &c| n * 10 + u32::from(c - b'0'));
        return if (1..=max).contains(&n) { 1 << n } else { 0 };
    }
    (1..=max).filter(|&n| can_read(field, n)).fold(0, |bits, n| bits | 1 << n)
}

/// Whether the digit field `field` can be `n` written with as many digits, each `?` standing
/// for any digit.
fn can_read(field: &[u8], n: u32) -> bool {
    let rest = field
        .iter()
        .rev()
        .try_fold(n, |n, &c| (c == b'?' || u32::from(c - b'0') == n % 10).then_some(n / 10));
    rest == Some(0)
}

/// The days of month `month` (1 to 12) in the year written `year`: February's 29 when that can
/// be a leap year.
fn month_days(month: u32, year: &str) -> u32 {
    match month {
        2 if can_be_leap(year.as_bytes()) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whether the four-digit year field `year` can be a leap year of the Gregorian calendar: one
/// divisible by 4, except the hundreds not divisible by 400. Its last two digits and its
/// hundreds are tried apart, at most 50 readings.
fn can_be_leap(year: &[u8]) -> bool {
    let (hundreds, last) = year.split_at(2);
    (4..100).step_by(4).any(|n| can_read(last, n))
        || can_read(last, 0) && (0..100).step_by(4).any(|n| can_read(hundreds, n))
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

/// The value given to a roster tag the game lacks (by the `missing-tag` fix, and by `fmt`): the
/// roster's unknown value (`?`, `????.??.??`, §8.1.1), except for the Result tag, which takes
/// the game's termination marker (in its standard form: `1/2-1/2` for `½-½`), or `*`
/// without one.
pub fn missing_tag_value<'a>(name: &str, game: &Game, src: &'a str) -> &'a str {
    match (name, game.result_node()) {
        ("Result", Some(marker)) => standard_marker(&src[marker.range]),
        _ => SEVEN_TAG_ROSTER.iter().find(|(n, _)| *n == name).map_or("?", |(_, unknown)| unknown),
    }
}

/// The Seven Tag Roster tags a game lacks, as one diagnostic with a fix adding them.
fn check_roster(game: &Game, src: &str, known: &KnownTags<'_>, out: &mut Vec<Diagnostic>) {
    let missing: Vec<usize> =
        (0..SEVEN_TAG_ROSTER.len()).filter(|&i| known.roster[i].is_none()).collect();
    if missing.is_empty() {
        return;
    }
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
        let name = SEVEN_TAG_ROSTER[i].0;
        let line = format!("[{name} {}]", escape_string(missing_tag_value(name, game, src)));
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
    let diagnostic = Diagnostic::new(Code::MissingTag, anchor, message);
    // A `}` without its `{` says the text may be the rest of a comment that a line reading as a
    // tag pair cut short: tags added there would land inside the comment.
    let rest_of_a_comment =
        game.nodes.iter().any(|n| n.kind == NodeKind::Unexpected && &src[n.range] == "}");
    // A tag pair whose name is a missing tag's name and more that no name holds (`[White
    // Carlsen, Magnus"]`, its value's opening quote missing) may be that tag, broken: the fix
    // would give the game two.
    let broken_roster_tag = missing.iter().any(|&i| {
        let name = SEVEN_TAG_ROSTER[i].0;
        game.tags.iter().any(|t| {
            let rest = t.name(src).strip_prefix(name).unwrap_or_default();
            rest.bytes().next().is_some_and(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        })
    });
    out.push(if rest_of_a_comment || broken_roster_tag {
        diagnostic
    } else {
        diagnostic.with_fix("Add the missing tags", merged)
    });
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
/// of a broken one: a string with stray quotes runs to the last `"]` of its line. Only ASCII
/// blanks count as nothing: a control character such as U+0085, which Unicode counts as a
/// space, is a token to the lexer, and the new line must not go after it.
fn insert_line_after(after: TextRange, src: &str, line: &str) -> TextEdit {
    let rest = &src[after.end as usize..];
    let line_end = rest.find('\n');
    if rest[..line_end.unwrap_or(rest.len())].trim_ascii().is_empty() {
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

/// The range of the game's first content: its opening commentary or its first movetext node.
fn first_content(game: &Game) -> TextRange {
    // Commentary before the movetext (in a game without tags, all its tag-section notes)
    // opens the game: the tags go before it.
    let first_note = game.tag_notes.first().map(|n| n.range);
    let first_node = || game.nodes.iter().find(|n| n.kind != NodeKind::VariationEnd);
    first_note.or_else(|| first_node().map(|n| n.range)).unwrap_or_default()
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
            ("Date", "2024.02.29"),
            ("Date", "2000.02.29"),
            ("Date", "????.02.29"),
            ("Date", "202?.02.29"),
            ("Date", "??00.02.29"),
            ("Date", "2023.02.28"),
            ("Date", "2023.02.2?"),
            ("Date", "2024.04.30"),
            ("Date", "2024.04.3?"),
            ("Date", "2024.?4.30"),
            ("Date", "2024.?2.31"),
            ("Date", "2024.1?.31"),
            ("Date", "2024.??.31"),
            ("Date", "2024.12.31"),
            ("EventDate", "2023.??.??"),
            ("UTCDate", "2024.02.29"),
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
            ("Date", "2024.00.10"),
            ("Date", "2024.2?.01"),
            ("Date", "2024.01.00"),
            ("Date", "2024.01.32"),
            ("Date", "2024.01.4?"),
            ("Date", "2023.02.29"),
            ("Date", "1900.02.29"),
            ("Date", "???1.02.29"),
            ("Date", "2024.02.30"),
            ("Date", "????.02.3?"),
            ("Date", "2024.04.31"),
            ("Date", "2024.?4.31"),
            ("Date", "2024.1.01"),
            ("Date", "2024.01.01.01"),
            ("EventDate", "2023.02.29"),
            ("UTCDate", "2024.06.31"),
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

    /// A date that does not exist is told what is wrong with it; one of the wrong shape, what a
    /// date looks like.
    #[test]
    fn date_complaints() {
        for (value, complaint) in [
            ("2024.13.01", "there is no month 13"),
            ("2024.00.01", "there is no month 00"),
            ("2024.2?.01", "there is no month 2?"),
            ("2024.01.32", "there is no day 32"),
            ("2024.01.00", "there is no day 00"),
            ("2023.02.29", "February 2023 has 28 days"),
            ("1900.02.29", "February 1900 has 28 days"),
            ("2024.02.30", "February 2024 has 29 days"),
            ("????.02.30", "February has at most 29 days"),
            ("???1.02.29", "February has 28 days: no year ???1 is a leap year"),
            ("2024.04.31", "April has 30 days"),
            ("2024.?9.31", "September has 30 days"),
            ("2024-01-31", DATE_SHAPE),
            ("24.01.31", DATE_SHAPE),
        ] {
            assert!(!Shape::Date.fits(value), "{value}");
            assert_eq!(Shape::Date.complaint(value), complaint, "{value}");
        }
        assert_eq!(Shape::Time.complaint("25:00:00"), Shape::Time.expected());
    }

    /// Dates whose meaning is certain are written in the standard's shape; the others are not.
    #[test]
    fn dates_written_in_the_standard_shape() {
        for (value, fixed) in [
            ("1988", Some("1988.??.??")),
            ("19??", Some("19??.??.??")),
            ("1988.05", Some("1988.05.??")),
            ("2024-01-31", Some("2024.01.31")),
            ("2024/01/31", Some("2024.01.31")),
            ("?", Some("????.??.??")),
            ("", Some("????.??.??")),
            ("2024.01.31", None),
            ("2024-13-01", None),
            ("2023-02-29", None),
            ("2013.5.6", None),
            ("2013.26.7", None),
            ("24.01.31", None),
            ("31.01.2024", None),
            ("January 1988", None),
        ] {
            assert_eq!(standard_date(value).as_deref(), fixed, "{value}");
        }
    }

    /// Results other software writes are read as the standard's; other values are not.
    #[test]
    fn results_written_in_the_standard_form() {
        for (value, fixed) in [
            ("1/2", Some("1/2-1/2")),
            ("\u{bd}-\u{bd}", Some("1/2-1/2")),
            ("\u{bd}", Some("1/2-1/2")),
            ("0.5-0.5", Some("1/2-1/2")),
            ("1/2 - 1/2", Some("1/2-1/2")),
            ("1:0", Some("1-0")),
            ("0\u{2013}1", Some("0-1")),
            (" 1-0", Some("1-0")),
            ("?", Some("*")),
            ("", None),
            ("win", None),
            ("1-1", None),
            ("0-0", None),
            ("1/2-0", None),
        ] {
            assert_eq!(standard_result(value), fixed, "{value}");
            assert!(!Shape::Result.fits(value), "{value}");
        }
    }

    /// A year can be a leap year when some reading of its unknown digits is one (Gregorian).
    #[test]
    fn leap_years() {
        for year in ["2024", "2000", "1600", "0000", "????", "190?", "?600", "1?00", "???6"] {
            assert!(can_be_leap(year.as_bytes()), "{year}");
        }
        for year in ["2023", "1900", "2100", "1800", "???1", "19?1", "1?02", "?100", "?900"] {
            assert!(!can_be_leap(year.as_bytes()), "{year}");
        }
    }

    /// A date is accepted when some reading of its unknown digits is a day of the Gregorian
    /// calendar, as a search through every reading finds: every month and day field of two
    /// characters from digits and `?`, in years of every kind.
    #[test]
    fn dates_are_accepted_when_some_reading_exists() {
        let is_leap =
            |y: u32| y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400));
        let reads = |field: &str, n: u32| {
            let digits = format!("{n:0width$}", width = field.len());
            field.chars().zip(digits.chars()).all(|(f, d)| f == '?' || f == d)
        };
        let symbols = "0123456789?".chars();
        let fields: Vec<String> =
            symbols.clone().flat_map(|a| symbols.clone().map(move |b| format!("{a}{b}"))).collect();
        let readings: Vec<Vec<u32>> =
            fields.iter().map(|f| (1..=31).filter(|&n| reads(f, n)).collect()).collect();
        for year in ["2024", "2023", "1900", "2000", "????", "???1", "19?0", "?900", "0000"] {
            let leap = (0..10_000).any(|y| reads(year, y) && is_leap(y));
            let days = |m: u32| match m {
                2 => 28 + u32::from(leap),
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            for (month, months) in fields.iter().zip(&readings) {
                for (day, days_read) in fields.iter().zip(&readings) {
                    let exists = months
                        .iter()
                        .filter(|&&m| m <= 12)
                        .any(|&m| days_read.iter().any(|&d| d <= days(m)));
                    let date = format!("{year}.{month}.{day}");
                    assert_eq!(is_date(&date), exists, "{date}");
                }
            }
        }
    }
}
