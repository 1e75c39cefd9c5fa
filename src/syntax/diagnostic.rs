//! The diagnostics model (DESIGN §7): stable codes with default severities, ranges, messages,
//! related locations and certain fixes. The registry of codes is the one table below; the
//! README documents the same table.

use crate::text::{TextEdit, TextRange};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

impl Severity {
    /// Every severity, the most severe first.
    pub const ALL: [Severity; 4] =
        [Severity::Error, Severity::Warning, Severity::Information, Severity::Hint];

    /// The severity named `name` as `as_str` names it (`info` for information).
    pub fn from_name(name: &str) -> Option<Severity> {
        Severity::ALL.into_iter().find(|severity| severity.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "info",
            Severity::Hint => "hint",
        }
    }
}

macro_rules! codes {
    ($( $variant:ident = $name:literal, $severity:ident, $summary:literal; )*) => {
        /// Every diagnostic code. The kebab-case names are the public interface.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];
            pub const COUNT: usize = Code::ALL.len();

            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }

            /// One sentence saying what the code means (README table, hover, `--explain`).
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }

            pub fn from_name(name: &str) -> Option<Code> {
                match name { $( $name => Some(Code::$variant), )* _ => None }
            }

            /// Whether the code is a structural error (an unclosed comment, string or
            /// variation, a broken tag, stray text): games with one are never reformatted.
            pub fn is_structural(self) -> bool {
                matches!(
                    self,
                    Code::UnterminatedComment
                        | Code::UnterminatedString
                        | Code::UnclosedVariation
                        | Code::UnexpectedToken
                        | Code::MalformedTag
                )
            }
        }
    };
}

codes! {
    IllegalMove = "illegal-move", Error, "A move that no legal move matches.";
    AmbiguousMove = "ambiguous-move", Error, "A move that matches more than one legal move.";
    InvalidSan = "invalid-san", Error, "A token where a move belongs that is no move in any accepted notation.";
    NonCanonicalSan = "non-canonical-san", Warning, "An accepted but non-standard way of writing a move (0-0, LAN, figurines, lowercase pieces, another language's piece letters, missing x, ...) or an e.p. mark after a move that is no en passant capture; the fix writes the canonical SAN, or removes the mark. A wrong check or mate sign on such a move is a `check-suffix` of its own, still shown when `non-canonical-san` is ignored.";
    CheckSuffix = "check-suffix", Warning, "A check (+) or mate (#) sign that is missing, superfluous or wrong.";
    NullMove = "null-move", Warning, "A null move (--, Z0 or UCI's 0000), which is no legal chess move.";
    MoveNumber = "move-number", Warning, "A move number that does not match the position, a White number before a Black move, or a number before no move.";
    ResultMismatch = "result-mismatch", Error, "The Result tag differs from the game termination marker.";
    ResultContradictsPosition = "result-contradicts-position", Error, "The game ends in checkmate, stalemate or a win or draw by its variant's rules (antichess, atomic, ...) but the termination marker (or, without one, the Result tag) says otherwise.";
    MissingResult = "missing-result", Warning, "A game without a termination marker (1-0, 0-1, 1/2-1/2 or *).";
    NonStandardResult = "non-standard-result", Warning, "A termination marker in a non-standard form (1/2, ½-½, 1:0, 1–0) or joined to the last move.";
    UnterminatedComment = "unterminated-comment", Error, "A { comment without its closing }.";
    UnterminatedString = "unterminated-string", Error, "A string without its closing quote.";
    UnclosedVariation = "unclosed-variation", Error, "A ( variation without its closing ).";
    UnexpectedToken = "unexpected-token", Error, "Text that belongs nowhere: a stray ), ] or }, moves after the result, a variation before the first move.";
    TextBetweenGames = "text-between-games", Warning, "Text between games that is neither a tag pair nor a move (an old TWIC section title, a closing note): no game, so no fix gives it tags or a result.";
    MalformedTag = "malformed-tag", Error, "A tag pair that is not [Name \"value\"].";
    InvalidTagName = "invalid-tag-name", Warning, "A tag name with characters other than letters, digits and _, or starting with _ (§7).";
    DuplicateTag = "duplicate-tag", Warning, "The same tag twice in one game.";
    MissingTag = "missing-tag", Information, "A tag of the Seven Tag Roster is missing.";
    InvalidTagValue = "invalid-tag-value", Warning, "A tag value of the wrong shape (dates, times, Elo, ECO, TimeControl, ...), a date that does not exist, or a value holding a tab or another control character (§7).";
    NonStandardTermination = "non-standard-termination", Information, "A Termination tag value that is not one of the standard's (normal, time forfeit, adjudication, ...; §9.8.1), such as chess.com's \"X won by resignation\".";
    PlycountMismatch = "plycount-mismatch", Warning, "The PlyCount tag differs from the number of half-moves played.";
    InvalidFen = "invalid-fen", Error, "A FEN tag that cannot be read, describes an impossible position, or holds what only another variant has (a crazyhouse pocket, three-check's checks left).";
    SetupMismatch = "setup-mismatch", Warning, "A FEN tag without SetUp \"1\", or SetUp \"1\" without a FEN tag.";
    NagOutOfRange = "nag-out-of-range", Warning, "A NAG above $255.";
    AnnotationWithoutMove = "annotation-without-move", Warning, "A move annotation (!, ?, !!, ??, !?, ?!, □ or $1 to $9, which judge the move just played, §10) before the first move of the game or of a variation, where no move was played.";
    EmptyVariation = "empty-variation", Warning, "A variation with no moves: ().";
    UnsupportedVariant = "unsupported-variant", Information, "A Variant whose rules are not checked; its moves are not judged.";
    LineTooLong = "line-too-long", Hint, "A line over 255 characters with its line break (the import-format limit, §4.3).";
    StringTooLong = "string-too-long", Hint, "A string over 255 characters of data, an escape counting as one (§7).";
    NotUtf8 = "not-utf8", Warning, "The file is not valid UTF-8: it was read as UTF-16 where a byte order mark says so, else as Latin-1 (ISO 8859-1, §4.1).";
}

/// Whether a game with these diagnostics leaves the fixes of the game after it uncertain: a `{`
/// comment of it is left open, so the lexer ended it before a line that reads as a tag pair
/// (DESIGN §3), and that line, where the next game starts, may be text of the comment (§5: a
/// comment runs to its `}`), into which the next game's fixes would write. `check --fix` and
/// the editor's fix-all leave that next game as it is.
pub fn unsettles_next_game(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.code == Code::UnterminatedComment)
}

/// `text` as quoted in a message: whole when short, else its first 40 characters and `…`, so
/// a 100 MB token never makes a 100 MB message.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 40;
    if text.len() <= MAX {
        // No more characters than bytes.
        return std::borrow::Cow::Borrowed(text);
    }
    match text.char_indices().nth(MAX) {
        None => std::borrow::Cow::Borrowed(text),
        Some((cut, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..cut])),
    }
}

/// The most diagnostics of one code a game reports; past it, one more diagnostic says how many
/// were left out. Garbage (a binary file, a million stray `)`) would otherwise give a diagnostic
/// for every few bytes: more memory than the text, and no clearer for it.
pub const MAX_PER_CODE: u32 = 10_000;

/// Counts a game's diagnostics by code and admits at most [`MAX_PER_CODE`] of each.
#[derive(Debug, Default)]
pub struct PerCodeLimit {
    /// Diagnostics admitted, by code.
    admitted: std::collections::HashMap<Code, u32>,
    /// Diagnostics left out, by code: how many, and where the first one was.
    left_out: std::collections::BTreeMap<Code, (u32, TextRange)>,
}

impl PerCodeLimit {
    /// Whether `d` is still within the limit of its code (it is counted either way).
    pub fn admit(&mut self, d: &Diagnostic) -> bool {
        let admitted = self.admitted.entry(d.code).or_insert(0);
        if *admitted < MAX_PER_CODE {
            *admitted += 1;
            return true;
        }
        self.left_out.entry(d.code).or_insert((0, d.range)).0 += 1;
        false
    }

    /// One diagnostic per code that went over the limit, at the first one left out.
    pub fn summaries(self) -> impl Iterator<Item = Diagnostic> {
        self.left_out.into_iter().map(|(code, (count, range))| {
            let message = format!(
                "{count} more {} diagnostics in this game are not reported (at most {MAX_PER_CODE} \
                 of each kind are)",
                code.as_str()
            );
            Diagnostic::new(code, range, message)
        })
    }
}

/// A location related to a diagnostic (the Result tag for a marker mismatch, for example).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: TextRange,
    pub message: String,
}

/// An edit set that certainly repairs a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub range: TextRange,
    pub message: String,
    pub related: Vec<Related>,
    /// Certain repairs, best first (a result mismatch has two: change the tag or the marker).
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    pub fn new(code: Code, range: TextRange, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.default_severity(),
            range,
            message: message.into(),
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_related(mut self, range: TextRange, message: impl Into<String>) -> Self {
        self.related.push(Related { range, message: message.into() });
        self
    }

    pub fn with_fix(mut self, title: impl Into<String>, edits: Vec<TextEdit>) -> Self {
        self.fixes.push(Fix { title: title.into(), edits });
        self
    }

    /// The diagnostic with every range moved by `delta` (game-relative to file offsets).
    pub fn shifted(&self, delta: u32) -> Diagnostic {
        let mut d = self.clone();
        d.range = d.range.shift(delta);
        for r in &mut d.related {
            r.range = r.range.shift(delta);
        }
        for e in d.fixes.iter_mut().flat_map(|f| &mut f.edits) {
            e.range = e.range.shift(delta);
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_shortened_in_messages() {
        assert_eq!(excerpt("Nf3"), "Nf3");
        let long = "x".repeat(10_000);
        assert_eq!(excerpt(&long).chars().count(), 41);
    }

    #[test]
    fn diagnostics_over_the_limit_are_counted_in_one_summary() {
        let mut limit = PerCodeLimit::default();
        let at = |i: u32| Diagnostic::new(Code::UnexpectedToken, TextRange::new(i, i + 1), "x");
        let admitted = (0..MAX_PER_CODE + 5).filter(|&i| limit.admit(&at(i))).count();
        assert_eq!(admitted, MAX_PER_CODE as usize);
        assert!(limit.admit(&Diagnostic::new(Code::EmptyVariation, TextRange::empty(0), "y")));
        let summaries: Vec<Diagnostic> = limit.summaries().collect();
        assert_eq!(summaries.len(), 1);
        assert_eq!(summaries[0].code, Code::UnexpectedToken);
        assert_eq!(summaries[0].range, TextRange::new(MAX_PER_CODE, MAX_PER_CODE + 1));
        assert!(summaries[0].message.starts_with("5 more unexpected-token diagnostics"));
    }

    #[test]
    fn code_names_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            let name = code.as_str();
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{name}"
            );
            assert!(seen.insert(name), "duplicate {name}");
            assert_eq!(Code::from_name(name), Some(code));
        }
    }

    #[test]
    fn severity_names_round_trip() {
        for severity in Severity::ALL {
            assert_eq!(Severity::from_name(severity.as_str()), Some(severity));
        }
        assert_eq!(Severity::from_name("information"), None);
    }
}
