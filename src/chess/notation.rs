//! Reading a move as written. Standard SAN (§8.2.3) is read by shakmaty; the import-format
//! forms real files contain (§8.2.3.7 asks import to be lenient) are mapped to SAN first, and
//! the way each was written is remembered so the replay can report it as `non-canonical-san`.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, File, Rank, Role, Square};

/// A non-standard way of writing a move that is still understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leniency {
    Figurine,
    ZeroCastling,
    DashLookalike,
    PlusLookalike,
    LongAlgebraic,
    LowercasePiece,
    PromotionWithoutEquals,
    /// `exf8(Q)` for `exf8=Q`, as some old software writes it (the parser makes the
    /// parentheses part of the move).
    PromotionInParentheses,
    DoublePlusMate,
    ColonCapture,
    /// `Bc4` for `Bxc4`, `ed5` for `exd5`, or `x` on a move that captures nothing.
    CaptureMark,
    /// `exd6ep`: an en passant mark glued to a pawn capture onto the third or sixth rank, which
    /// is right, if not standard, on an en passant capture (§8.2.3.3), as `exd6 ep` is.
    EnPassantMark,
    /// `Sf3` (German) for `Nf3`: the piece letters of another language (§17).
    OtherLanguage,
}

impl Leniency {
    pub fn describe(self) -> &'static str {
        match self {
            Leniency::Figurine => "figurine notation",
            Leniency::ZeroCastling => "castling is written with the letter O",
            Leniency::DashLookalike => "a dash look-alike character",
            Leniency::PlusLookalike => "a plus look-alike character",
            Leniency::LongAlgebraic => "long algebraic notation",
            Leniency::LowercasePiece => "piece letters are uppercase",
            Leniency::PromotionWithoutEquals => {
                "promotion is written with = and an uppercase piece"
            }
            Leniency::PromotionInParentheses => "promotion is written with =, not in parentheses",
            Leniency::DoublePlusMate => "mate is written #, not ++",
            Leniency::ColonCapture => "captures are written with x",
            Leniency::CaptureMark => "captures, and only captures, are marked with x",
            Leniency::EnPassantMark => "ep marks an en passant capture, and the move is none",
            Leniency::OtherLanguage => {
                "a piece letter of another language: PGN's are K, Q, R, B and N"
            }
        }
    }
}

/// A move as written, read into SAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub san: San,
    pub suffix: Option<Suffix>,
    /// How the text departs from SAN, when it does in a way the reader fixed up.
    pub leniency: Option<Leniency>,
}

/// Read the text of a `Move` node (`None` when it is no move in any accepted notation), and
/// whether the text is SAN in the one spelling SAN has for what it reads (no disambiguation by
/// both file and rank, no pawn letter, ...): read so, a move whose SAN is canonical is written
/// exactly as its canonical text. In line: the replay calls it for every move.
#[inline]
pub fn read_spelled(text: &str) -> Option<(Written, bool)> {
    match read_common_san(text.as_bytes()) {
        Some(written) => Some((written, true)),
        None => read_any(text).map(|written| (written, false)),
    }
}

/// Standard SAN in the forms nearly every move is written in, read directly: castling, or a
/// piece letter or none, one disambiguating file or rank or none, `x` or none, the target
/// square, a promotion (`=Q`) or none; then `+`, `#` or nothing. `None` for any other text,
/// which [`read_any`] reads, as it reads these forms too, with the same result (a property
/// test holds them to that). The replay reads every move of every game: this is the fast way.
fn read_common_san(text: &[u8]) -> Option<Written> {
    let (body, suffix) = match text.split_last()? {
        (b'+', body) => (body, Some(Suffix::Check)),
        (b'#', body) => (body, Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    let first = *body.first()?;
    if first == b'O' {
        let side = match body {
            b"O-O" => CastlingSide::KingSide,
            b"O-O-O" => CastlingSide::QueenSide,
            _ => return None,
        };
        return Some(Written { san: San::Castle(side), suffix, leniency: None });
    }
    // The pawn or piece and the capture mark are taken without a branch on either: moves
    // alternate between them in no pattern the processor can predict.
    let role = LEADING_ROLE[usize::from(first)]?;
    let rest = &body[usize::from(role != Role::Pawn)..];
    let (rest, promotion) = match rest {
        [rest @ .., b'=', letter] => (rest, Some(piece_role(*letter)?)),
        _ => (rest, None),
    };
    let [head @ .., to_file, to_rank] = rest else { return None };
    let to = Square::from_coords(file_of(*to_file)?, rank_of(*to_rank)?);
    let capture = head.last() == Some(&b'x');
    let head = &head[..head.len() - usize::from(capture)];
    let (file, rank) = match head {
        [] => (None, None),
        [c @ b'a'..=b'h'] => (file_of(*c), None),
        [c @ b'1'..=b'8'] => (None, rank_of(*c)),
        _ => return None,
    };
    let san = San::Normal { role, file, rank, capture, to, promotion };
    Some(Written { san, suffix, leniency: None })
}

/// The role a move in SAN starts with, by its first byte: a pawn for a file letter, a piece
/// for its uppercase letter other than `P`, none for any other byte.
static LEADING_ROLE: [Option<Role>; 256] = {
    let mut roles = [None; 256];
    let mut file = b'a';
    while file <= b'h' {
        roles[file as usize] = Some(Role::Pawn);
        file += 1;
    }
    roles[b'N' as usize] = Some(Role::Knight);
    roles[b'B' as usize] = Some(Role::Bishop);
    roles[b'R' as usize] = Some(Role::Rook);
    roles[b'Q' as usize] = Some(Role::Queen);
    roles[b'K' as usize] = Some(Role::King);
    roles
};

/// The role of an uppercase piece letter other than `P`.
fn piece_role(letter: u8) -> Option<Role> {
    LEADING_ROLE[usize::from(letter)].filter(|&role| role != Role::Pawn)
}

fn file_of(c: u8) -> Option<File> {
    matches!(c, b'a'..=b'h').then(|| File::new(u32::from(c - b'a')))
}

fn rank_of(c: u8) -> Option<Rank> {
    matches!(c, b'1'..=b'8').then(|| Rank::new(u32::from(c - b'1')))
}

/// Read a move in any accepted notation: standard SAN by shakmaty, the import forms mapped to
/// SAN first. Kept out of line: [`read_spelled`] runs for every move, this one rarely.
#[inline(never)]
fn read_any(text: &str) -> Option<Written> {
    let (sp, leniency) = match SanPlus::from_ascii(text.as_bytes()) {
        Ok(sp) if is_long_algebraic(text.as_bytes()) => (sp, Some(Leniency::LongAlgebraic)),
        Ok(sp) if text.contains(['q', 'r', 'n']) || text.contains("=b") => {
            (sp, Some(Leniency::PromotionWithoutEquals))
        }
        Ok(sp) => (sp, None),
        Err(_) => match normalize(text) {
            Some((normalized, leniency)) => {
                (SanPlus::from_ascii(normalized.as_bytes()).ok()?, Some(leniency))
            }
            None => return read_en_passant_marked(text),
        },
    };
    Some(Written { san: sp.san, suffix: sp.suffix, leniency })
}

/// A pawn capture onto the third or sixth rank with the en passant mark `ep` glued to it,
/// before its check or mate sign if it has one (`exd6ep`, `exd6ep+`), read as the capture
/// ([`Leniency::EnPassantMark`]). A mark apart (`exd6 ep`), and `e.p.` (`exd6e.p.`, which the
/// lexer reads as more tokens), are the parser's: a node of their own after the move.
fn read_en_passant_marked(text: &str) -> Option<Written> {
    let (body, sign) = split_suffix(text);
    let capture = body.strip_suffix("ep").filter(|capture| !capture.ends_with(['+', '#']))?;
    let written = read_common_san(format!("{capture}{sign}").as_bytes())?;
    let San::Normal { role: Role::Pawn, capture: true, to, promotion: None, .. } = written.san
    else {
        return None;
    };
    matches!(to.rank(), Rank::Third | Rank::Sixth)
        .then_some(Written { leniency: Some(Leniency::EnPassantMark), ..written })
}

/// A move starting with a lowercase `b` read as a bishop move (`bxc3` for `Bxc3`); tried only
/// when the pawn move it first means is not legal, as pgn-extract reads it.
pub fn bishop_reading(text: &str) -> Option<San> {
    let rest = text.strip_prefix('b').filter(|rest| !rest.is_empty())?;
    let upper = format!("B{rest}");
    let text = normalize(&upper).map_or(upper, |(n, _)| n);
    SanPlus::from_ascii(text.as_bytes()).ok().map(|sp| sp.san)
}

/// The piece letters of the languages other than English that §17 lists, in its order (pawn,
/// knight, bishop, rook, queen, king), each set once. The standard allows them "for local
/// presentation software" only, but files such software writes reach PGN readers all the same.
pub(super) const OTHER_LANGUAGES: [&[u8; 6]; 12] = [
    b"PJSVDK", // Czech
    b"BSLTDK", // Danish, German, Norwegian, Swedish
    b"OPLTDK", // Dutch
    b"PROVLK", // Estonian
    b"PRLTDK", // Finnish
    b"PCFTDR", // French
    b"GHFBVK", // Hungarian
    b"PRBHDK", // Icelandic
    b"PCATDR", // Italian, Spanish
    b"PSGWHK", // Polish
    b"PCBTDR", // Portuguese
    b"PCNTDR", // Romanian
];

/// The languages of [`OTHER_LANGUAGES`] a reading holds for: bit `i` for the `i`th set.
pub type Languages = u16;

/// Every language of [`OTHER_LANGUAGES`].
pub const ALL_LANGUAGES: Languages = (1 << OTHER_LANGUAGES.len()) - 1;

/// A move that no accepted notation reads, read with the piece letters of each other language
/// of §17 instead of the English ones (`Sf3` as `Nf3`, German, and as `Bf3`, Czech): the
/// distinct readings, marked [`Leniency::OtherLanguage`], each with the languages it holds for,
/// in the order of the languages. Only letters that are no English piece letter are read so:
/// `P` stays a pawn, not the Dutch knight, and `B` a bishop, not the German pawn.
pub fn other_language_readings(text: &str) -> Vec<(Written, Languages)> {
    let mut readings: Vec<(Written, Languages)> = Vec::new();
    for (i, letters) in OTHER_LANGUAGES.iter().enumerate() {
        let english = |c: char| {
            let b = u8::try_from(c).ok().filter(|b| !b"PNBRQK".contains(b))?;
            let at = letters.iter().position(|&l| l == b)?;
            Some(char::from(b"PNBRQK"[at]))
        };
        if !text.chars().any(|c| english(c).is_some()) {
            continue;
        }
        let translated: String = text.chars().map(|c| english(c).unwrap_or(c)).collect();
        let Some((written, _)) = read_spelled(&translated) else { continue };
        let written = Written { leniency: Some(Leniency::OtherLanguage), ..written };
        match readings.iter_mut().find(|(w, _)| *w == written) {
            Some((_, languages)) => *languages |= 1 << i,
            None => readings.push((written, 1 << i)),
        }
    }
    readings
}

const DASH_LOOKALIKES: [char; 7] = ['–', '—', '‐', '‑', '‒', '−', '➖'];

fn figurine(c: char) -> Option<char> {
    Some(match c {
        '♔' | '♚' => 'K',
        '♕' | '♛' => 'Q',
        '♖' | '♜' => 'R',
        '♗' | '♝' => 'B',
        '♘' | '♞' => 'N',
        '♙' | '♟' => 'P',
        _ => return None,
    })
}

/// Map an import-format move to SAN text, saying which liberty it took (the first one found).
fn normalize(text: &str) -> Option<(String, Leniency)> {
    let mut leniency = None;
    let mut note = |l: Leniency| {
        leniency.get_or_insert(l);
    };
    let mut s = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        if let Some(f) = figurine(c) {
            note(Leniency::Figurine);
            if f != 'P' {
                s.push(f);
            }
        } else if DASH_LOOKALIKES.contains(&c) {
            note(Leniency::DashLookalike);
            s.push('-');
        } else if c == '➕' {
            note(Leniency::PlusLookalike);
            s.push('+');
        } else if c.is_ascii() {
            s.push(c);
        } else {
            return None;
        }
    }
    if let Some(stripped) = s.strip_suffix("++") {
        note(Leniency::DoublePlusMate);
        s = format!("{stripped}#");
    }
    let (body, suffix) = split_suffix(&s);
    let (body, suffix) = (body.to_owned(), suffix.to_owned());

    let castle = body.replace(['0', 'o'], "O");
    if matches!(castle.as_str(), "O-O" | "O-O-O") {
        if castle != body {
            note(Leniency::ZeroCastling);
        }
        return Some((format!("{castle}{suffix}"), leniency.unwrap_or(Leniency::ZeroCastling)));
    }

    let mut b: Vec<u8> = body.into_bytes();
    // A lowercase piece letter (`nf3`, `qxd5`); `b` stays a pawn file here.
    if let Some(&first) = b.first()
        && matches!(first, b'n' | b'r' | b'q' | b'k')
        && b.len() >= 3
    {
        note(Leniency::LowercasePiece);
        b[0] = first.to_ascii_uppercase();
    }
    // Long algebraic: a piece letter perhaps, a square, `-`/`x`/`:`, a square.
    let start = usize::from(b.first().is_some_and(|c| b"KQRBNP".contains(c)));
    if b.len() >= start + 5
        && is_square(&b[start..start + 2])
        && is_square(&b[start + 3..start + 5])
    {
        match b[start + 2] {
            b'-' => {
                note(Leniency::LongAlgebraic);
                b.remove(start + 2);
            }
            b':' => {
                note(Leniency::ColonCapture);
                b[start + 2] = b'x';
            }
            _ => {}
        }
    } else if let Some(i) = b.iter().position(|&c| c == b':') {
        note(Leniency::ColonCapture);
        b[i] = b'x';
    }
    if is_long_algebraic(&b) {
        note(Leniency::LongAlgebraic);
    }
    // The promotion piece in parentheses, in either case: `exf8(Q)`, `a1(n)`.
    if let [.., b'(', letter, b')'] = b[..] {
        note(Leniency::PromotionInParentheses);
        b.truncate(b.len() - 3);
        b.extend([b'=', letter.to_ascii_uppercase()]);
    }
    // Promotion without `=` or with a lowercase piece: `a8Q`, `e7e8q`, `a8=q`.
    let n = b.len();
    if n >= 3 && matches!(b[n - 1].to_ascii_uppercase(), b'Q' | b'R' | b'B' | b'N' | b'K') {
        let last = b[n - 1];
        if b[n - 2] == b'=' && last.is_ascii_lowercase() {
            note(Leniency::PromotionWithoutEquals);
            b[n - 1] = last.to_ascii_uppercase();
        } else if matches!(b[n - 2], b'1' | b'8') && b[n - 3].is_ascii_lowercase() {
            note(Leniency::PromotionWithoutEquals);
            b[n - 1] = last.to_ascii_uppercase();
            b.insert(n - 1, b'=');
        }
    }
    let body = String::from_utf8(b).ok()?;
    Some((format!("{body}{suffix}"), leniency?))
}

fn split_suffix(s: &str) -> (&str, &str) {
    let body = s.trim_end_matches(['+', '#']);
    (body, &s[body.len()..])
}

/// A from-square then a to-square (`e2e4`, `Ng1f3`, `e7e8=Q`), after perhaps a piece letter.
fn is_long_algebraic(b: &[u8]) -> bool {
    let start = usize::from(b.first().is_some_and(|c| b"KQRBNP".contains(c)));
    b.len() >= start + 4
        && is_square(&b[start..start + 2])
        && (is_square(&b[start + 2..start + 4])
            || b.len() >= start + 5
                && b"x-:".contains(&b[start + 2])
                && is_square(&b[start + 3..start + 5]))
}

fn is_square(b: &[u8]) -> bool {
    Square::from_ascii(b).is_ok()
}

/// For tests of the readings in other languages' letters: each set of [`OTHER_LANGUAGES`] by
/// the name of its first language, and readings written out in SAN.
#[cfg(test)]
pub(super) mod language_names {
    use shakmaty::san::SanPlus;

    use super::{Languages, Leniency, Written};

    pub const CZECH: Languages = 1;
    pub const GERMAN: Languages = 1 << 1;
    pub const DUTCH: Languages = 1 << 2;
    pub const ESTONIAN: Languages = 1 << 3;
    pub const FINNISH: Languages = 1 << 4;
    pub const FRENCH: Languages = 1 << 5;
    pub const HUNGARIAN: Languages = 1 << 6;
    pub const ICELANDIC: Languages = 1 << 7;
    pub const SPANISH: Languages = 1 << 8;
    pub const POLISH: Languages = 1 << 9;
    pub const PORTUGUESE: Languages = 1 << 10;
    pub const ROMANIAN: Languages = 1 << 11;

    /// The `readings` of `text`, each in SAN with its languages; each must be marked as read
    /// in another language's letters.
    pub fn in_san(text: &str, readings: Vec<(Written, Languages)>) -> Vec<(String, Languages)> {
        readings
            .into_iter()
            .map(|(w, languages)| {
                assert_eq!(w.leniency, Some(Leniency::OtherLanguage), "{text}");
                (SanPlus { san: w.san, suffix: w.suffix }.to_string(), languages)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(text: &str) -> Option<Written> {
        read_spelled(text).map(|(written, _)| written)
    }

    fn lenient(text: &str) -> (String, Option<Leniency>) {
        let w = read(text).unwrap_or_else(|| panic!("{text} unread"));
        let sp = SanPlus { san: w.san, suffix: w.suffix };
        (sp.to_string(), w.leniency)
    }

    #[test]
    fn standard_san_is_read_as_is() {
        assert_eq!(lenient("Nf3"), ("Nf3".into(), None));
        assert_eq!(lenient("exd8=Q#"), ("exd8=Q#".into(), None));
        assert_eq!(lenient("O-O-O+"), ("O-O-O+".into(), None));
    }

    /// The forms nearly every move is written in take the fast reader; the rarer ones, and
    /// text that is no SAN, are left to the general one.
    #[test]
    fn common_forms_take_the_fast_reader() {
        let common = [
            "e4", "Nf3", "exd5", "Bxc6+", "O-O", "O-O-O#", "Rad1", "N1f3", "Rxe1+", "e8=Q+",
            "axb8=N#", "Kxh2", "Qh7#",
        ];
        for text in common {
            let fast = read_common_san(text.as_bytes());
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast, read_any(text), "{text}");
        }
        let left = ["Ng1f3", "e2e4", "Pe4", "a8Q", "0-0", "O-O-", "x", "e", "+", "Oe4", "Ke9"];
        for text in left {
            assert_eq!(read_common_san(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn import_forms_are_mapped_to_san() {
        use Leniency::*;
        let cases = [
            ("♘f3", "Nf3", Figurine),
            ("0-0", "O-O", ZeroCastling),
            ("0-0-0+", "O-O-O+", ZeroCastling),
            ("O–O", "O-O", DashLookalike),
            ("O➖O➖O", "O-O-O", DashLookalike),
            ("Nf3➕", "Nf3+", PlusLookalike),
            ("Qh4➕➕", "Qh4#", PlusLookalike),
            ("e2-e4", "e2e4", LongAlgebraic),
            ("Ng1-f3", "Ng1f3", LongAlgebraic),
            ("e2e4", "e2e4", LongAlgebraic),
            ("e2xd3", "e2xd3", LongAlgebraic),
            ("Ng1f3", "Ng1f3", LongAlgebraic),
            ("nf3", "Nf3", LowercasePiece),
            ("a8Q", "a8=Q", PromotionWithoutEquals),
            ("e7e8q", "e7e8=Q", LongAlgebraic),
            ("a8=q", "a8=Q", PromotionWithoutEquals),
            ("exf8(Q)", "exf8=Q", PromotionInParentheses),
            ("a1(n)+", "a1=N+", PromotionInParentheses),
            ("Qh4++", "Qh4#", DoublePlusMate),
            ("e4:d5", "e4xd5", ColonCapture),
        ];
        for (text, san, why) in cases {
            assert_eq!(lenient(text), (san.to_owned(), Some(why)), "{text}");
        }
    }

    /// `ep` glued to a pawn capture onto the third or sixth rank, before its sign if it has
    /// one, reads as the capture; glued to anything else, or after the sign, it is no move.
    #[test]
    fn an_en_passant_mark_glued_to_a_pawn_capture_is_read() {
        for (text, san) in [("exd6ep", "exd6"), ("exd6ep+", "exd6+"), ("gxf3ep#", "gxf3#")] {
            assert_eq!(lenient(text), (san.to_owned(), Some(Leniency::EnPassantMark)), "{text}");
        }
        let others = ["exd5ep", "ed6ep", "Nxd6ep", "exd6+ep", "exd8=Qep", "e6ep", "exd6ep++", "ep"];
        for text in others {
            assert!(read(text).is_none(), "{text}");
        }
    }

    #[test]
    fn non_moves_are_not_read() {
        for text in ["Xy4", "hello", "N", "♘", "e9", "Nf3=X"] {
            assert!(read(text).is_none(), "{text}");
        }
    }

    #[test]
    fn other_languages_piece_letters_are_read_in_each_language_of_section_17() {
        use super::language_names::*;
        let readings = |text| in_san(text, other_language_readings(text));
        // S: the Czech bishop, and the knight in German (Danish, Norwegian, Swedish) and Polish.
        assert_eq!(readings("Sf3"), [("Bf3".into(), CZECH), ("Nf3".into(), GERMAN | POLISH)]);
        // L: the bishop in German, Dutch and Finnish, the Estonian queen.
        assert_eq!(
            readings("Lxb5+"),
            [("Bxb5+".into(), GERMAN | DUTCH | FINNISH), ("Qxb5+".into(), ESTONIAN)]
        );
        // D is a queen wherever it is a letter, in a promotion too.
        let queen = CZECH | GERMAN | DUTCH | FINNISH | FRENCH | ICELANDIC | SPANISH;
        assert_eq!(readings("exd8=D#"), [("exd8=Q#".into(), queen | PORTUGUESE | ROMANIAN)]);
        // Letters that are English piece letters keep their English meaning (P no Dutch
        // knight, B no German pawn), and text that no language reads is no move.
        for text in ["Pf3", "Be4", "Nf3", "O-O", "Xy4", "Sf9", "World", "Sicilian"] {
            assert_eq!(readings(text), [], "{text}");
        }
    }

    #[test]
    fn lowercase_b_is_a_pawn_with_a_bishop_reading() {
        let w = read("bxc3").unwrap();
        assert!(matches!(w.san, San::Normal { role: Role::Pawn, .. }));
        assert!(matches!(bishop_reading("bxc3"), Some(San::Normal { role: Role::Bishop, .. })));
        assert!(bishop_reading("Nf3").is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The fast reader reads what it reads exactly as the general one.
        #[test]
        fn common_san_is_read_as_the_general_reader_reads_it(
            text in "[NBRQKPOo0a-hx1-9=+#@-]{1,8}|[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[NBRQKPnbrqk])?[+#]?"
        ) {
            if let Some(fast) = read_common_san(text.as_bytes()) {
                prop_assert_eq!(Some(fast), read_any(&text), "{}", text);
            }
        }

        /// Text read in SAN's one spelling is the text SAN writes for what was read.
        #[test]
        fn spelled_san_is_written_back_as_it_was(
            text in "[NBRQKPOo0a-hx1-9=+#@-]{1,8}|[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[NBRQKPnbrqk])?[+#]?"
        ) {
            if let Some((w, true)) = read_spelled(&text) {
                let written = super::super::san_plus_text(SanPlus { san: w.san, suffix: w.suffix });
                prop_assert_eq!(written, text);
            }
        }
    }
}
