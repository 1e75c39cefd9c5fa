//! What tag names mean: the Seven Tag Roster (§8.1.1), the supplemental tags (§9), and a few
//! tags that are not in the standard but that most databases write.

/// The documentation of one tag name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagDoc {
    pub name: &'static str,
    /// Where the standard defines it (`None` for common tags it does not define).
    pub section: Option<&'static str>,
    pub description: &'static str,
}

/// The documentation of a tag name (names are case-sensitive, §8.1).
pub fn tag_doc(name: &str) -> Option<&'static TagDoc> {
    TAGS.iter().find(|t| t.name == name)
}

/// Every documented tag, the Seven Tag Roster first in its order.
pub fn tag_docs() -> &'static [TagDoc] {
    TAGS
}

/// Whether the tag belongs to the Seven Tag Roster.
pub fn in_seven_tag_roster(doc: &TagDoc) -> bool {
    doc.section.is_some_and(|s| s.starts_with("8.1.1"))
}

macro_rules! tags {
    ($( $name:literal, $section:expr, $description:literal; )*) => {
        const TAGS: &[TagDoc] = &[ $( TagDoc { name: $name, section: $section, description: $description }, )* ];
    };
}

tags! {
    "Event", Some("8.1.1.1"), "The name of the tournament or match event. \"?\" when unknown.";
    "Site", Some("8.1.1.2"), "The location of the event: city and region, then the IOC three-letter country code, as in \"St. Petersburg RUS\". \"?\" when unknown.";
    "Date", Some("8.1.1.3"), "The starting date of the game, \"YYYY.MM.DD\", with question marks for unknown digits (\"1993.??.??\").";
    "Round", Some("8.1.1.4"), "The playing round of the game: an integer, or integers separated by periods (\"4.1.2\"); \"-\" when rounds do not apply, \"?\" when unknown.";
    "White", Some("8.1.1.5"), "The player of the white pieces, family name first (\"Tal, Mikhail N.\"); several players are separated by colons.";
    "Black", Some("8.1.1.6"), "The player of the black pieces, written as for the White tag.";
    "Result", Some("8.1.1.7"), "The result of the game, always the same as the termination marker: \"1-0\", \"0-1\", \"1/2-1/2\" or \"*\".";
    "WhiteTitle", Some("9.1.1"), "The FIDE title of the white player (\"FM\", \"IM\", \"GM\"); \"-\" when untitled.";
    "BlackTitle", Some("9.1.1"), "The FIDE title of the black player (\"FM\", \"IM\", \"GM\"); \"-\" when untitled.";
    "WhiteElo", Some("9.1.2"), "The FIDE Elo rating of the white player; \"-\" when unrated.";
    "BlackElo", Some("9.1.2"), "The FIDE Elo rating of the black player; \"-\" when unrated.";
    "WhiteUSCF", Some("9.1.3"), "The USCF rating of the white player.";
    "BlackUSCF", Some("9.1.3"), "The USCF rating of the black player.";
    "WhiteNA", Some("9.1.4"), "The e-mail or network address of the white player; \"-\" when none.";
    "BlackNA", Some("9.1.4"), "The e-mail or network address of the black player; \"-\" when none.";
    "WhiteType", Some("9.1.5"), "The kind of white player: \"human\" or \"program\".";
    "BlackType", Some("9.1.5"), "The kind of black player: \"human\" or \"program\".";
    "EventDate", Some("9.2.1"), "The starting date of the event, \"YYYY.MM.DD\" as for the Date tag.";
    "EventSponsor", Some("9.2.2"), "The name of the sponsor of the event.";
    "Section", Some("9.2.3"), "The playing section of a tournament (\"Open\", \"Reserve\").";
    "Stage", Some("9.2.4"), "The stage of a multistage event (\"Preliminary\", \"Semifinal\").";
    "Board", Some("9.2.5"), "The board number in a team event or a simultaneous exhibition.";
    "Opening", Some("9.3.1"), "The traditional opening name, in the local language.";
    "Variation", Some("9.3.2"), "Refines the Opening tag, in the local language.";
    "SubVariation", Some("9.3.3"), "Refines the Variation tag, in the local language.";
    "ECO", Some("9.4.1"), "The opening code of the Encyclopedia of Chess Openings: \"XDD\" or \"XDD/DD\", X from A to E.";
    "NIC", Some("9.4.2"), "The opening code of the New in Chess database.";
    "Time", Some("9.5.1"), "The local time at which the game started, \"HH:MM:SS\".";
    "UTCTime", Some("9.5.2"), "The time at which the game started in UTC, \"HH:MM:SS\".";
    "UTCDate", Some("9.5.3"), "The date of the game in UTC, \"YYYY.MM.DD\".";
    "TimeControl", Some("9.6.1"), "The time control periods, separated by colons: \"?\" unknown, \"-\" none, \"40/9000\" moves per seconds, \"300\" sudden death, \"4500+60\" with an increment, \"*180\" sandclock.";
    "SetUp", Some("9.7.1"), "\"1\" when the game starts from the position in the FEN tag, \"0\" for the usual initial array.";
    "FEN", Some("9.7.2"), "The starting position in Forsyth-Edwards Notation (§16.1); needs SetUp \"1\".";
    "Termination", Some("9.8.1"), "Why the game ended: \"abandoned\", \"adjudication\", \"death\", \"emergency\", \"normal\", \"rules infraction\", \"time forfeit\" or \"unterminated\".";
    "Annotator", Some("9.9.1"), "The annotator or annotators of the game, written as player names.";
    "Mode", Some("9.9.2"), "The playing mode: \"OTB\" over the board, \"PM\" paper mail, \"EM\" e-mail, \"ICS\" Internet Chess Server, \"TC\" telecommunication.";
    "PlyCount", Some("9.9.3"), "The number of half-moves (plies) in the game.";
    "Variant", None, "The chess variant of the game (\"Chess960\", \"Crazyhouse\", \"Atomic\", ...); standard chess when absent.";
    "WhiteFideId", None, "The FIDE identification number of the white player.";
    "BlackFideId", None, "The FIDE identification number of the black player.";
    "WhiteTeam", None, "The team of the white player in a team event.";
    "BlackTeam", None, "The team of the black player in a team event.";
    "WhiteRatingDiff", None, "The change in the white player's rating from this game (lichess).";
    "BlackRatingDiff", None, "The change in the black player's rating from this game (lichess).";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_is_documented_once() {
        let mut seen = std::collections::HashSet::new();
        for t in TAGS {
            assert!(seen.insert(t.name), "{} twice", t.name);
            assert!(t.description.ends_with('.'), "{}", t.name);
        }
        let roster: Vec<&str> =
            TAGS.iter().filter(|t| in_seven_tag_roster(t)).map(|t| t.name).collect();
        assert_eq!(roster, ["Event", "Site", "Date", "Round", "White", "Black", "Result"]);
        assert_eq!(tag_doc("PlyCount").unwrap().section, Some("9.9.3"));
        assert_eq!(tag_doc("event"), None);
    }
}
