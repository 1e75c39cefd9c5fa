//! The lexer. Lossless and total: every byte of the input lands in exactly one token, and
//! bytes that fit nothing become `Unknown` tokens (spec §7 tokens plus comments §5, escape
//! lines §6 and the import-format forms real files contain).
//!
//! The tokens are defined by the logos lexer below. Plain movetext and plain tag pairs, most of
//! a file's tokens, are read 64 bytes at a time instead (`block_lexer`), giving the same tokens,
//! and a `{` comment where the blocks stopped by the same search as logos's callback; logos
//! reads every other token, from there.
//!
//! Damage containment (DESIGN §3): a `{` comment never runs past a line that starts a tag pair
//! (`[Name "`), and a string never runs past the end of its line (§7: no newline in strings), so
//! every tag line is a point where lexing is back in its initial state.

use logos::Logos;

use super::block_lexer::{BLOCK, Queue};
use crate::text::TextRange;

/// The kinds of token. `#[repr(u8)]` keeps stored tokens small.
///
/// ASCII whitespace (space, tab, line breaks, vertical tab, form feed) is skipped inside the
/// lexer: it is what lies between tokens, so tokens and the gaps between them still give back
/// every byte.
///
/// Speed: skipping costs logos a return to its start state, as much as a token, and most
/// tokens of a PGN file are followed by one space or one line break. So the commonest tokens
/// (symbols, move numbers, results, tag pairs) have a second kind that takes that one blank too
/// (`SymbolBlank`: `Nf3 `), and `next_token` gives it back to the gap and the token its own
/// kind: the tokens callers see never end with it, nor have these kinds. The blank is matched
/// after the whole token, so which token matches is unchanged: none of these tokens holds a
/// blank, and the overlapping ones (`1-0` is a symbol and a result) all take it. A kind of its
/// own says that the blank was taken without looking at the text again.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\x0B\x0C]+")]
#[logos(subpattern blank = r"[ \n]")]
#[logos(subpattern tag_pair = r#"\[[A-Za-z0-9][A-Za-z0-9_]* "[^"\\\x00-\x1F\x7F]*"\]"#)]
#[logos(subpattern move_number = r"[0-9]+\.+")]
#[logos(subpattern result = r"(1[-:–—]0|0[-:–—]1|(1/2|½)([-:–—](1/2|½))?|\*)")]
#[logos(subpattern symbol = r"[A-Za-z0-9@♔♕♖♗♘♙♚♛♜♝♞♟][A-Za-z0-9_+#=:\-@♔♕♖♗♘♙♚♛♜♝♞♟–—‐‑‒−➖➕]*")]
#[repr(u8)]
pub enum TokenKind {
    /// The Unicode spaces real files contain (NBSP, BOM, ...): whitespace too, but worth
    /// seeing (the formatter writes plain spaces instead).
    #[regex(r"[\u{A0}\u{FEFF}\u{2000}-\u{200B}\u{202F}\u{205F}\u{3000}]+")]
    Whitespace,
    #[token("[")]
    LBracket,
    /// A whole tag pair written plainly: `[Name "value"]`, a name of letters, digits and `_`
    /// that starts with a letter or a digit, one space, and a value without quotes, backslashes
    /// or control characters (line breaks, tabs). It is exactly the `[`, symbol, string and `]`
    /// tokens the same text also makes, lexed as one token because such pairs are most of a tag
    /// section; the parser reads it as those four where it is no tag pair (in the movetext).
    #[regex(r"(?&tag_pair)")]
    TagPair,
    #[token("]")]
    RBracket,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    /// `<` and `>` are reserved by §7.
    #[token("<")]
    #[token(">")]
    Reserved,
    /// `{ ... }` on one line; unterminated when it does not end with `}`.
    #[token("{", lex_brace_comment)]
    Comment,
    /// `{ ... }` with line breaks in it: a comment as the parser reads it, told apart so that
    /// the line-length check (`line_lengths`) need not search a comment's text for them.
    MultilineComment,
    /// A `}` outside any comment.
    #[token("}")]
    RBrace,
    /// `;` to the end of the line (§5).
    #[regex(";[^\r\n]*", allow_greedy = true)]
    LineComment,
    /// `%` in the first column, to the end of the line (§6); elsewhere `%` is `Unknown`.
    #[token("%", lex_percent)]
    Escape,
    /// `"..."` with `\"` and `\\` escapes; unterminated when it does not end with `"`.
    #[token("\"", lex_string)]
    String,
    /// `$` and digits (§8.2.4).
    #[regex(r"\$[0-9]+")]
    Nag,
    /// An integer with its periods: `12.`, `12...` (§8.2.2).
    #[regex(r"(?&move_number)")]
    MoveNumber,
    /// Periods on their own, as in `1. ... e5`.
    #[regex(r"\.+")]
    Dots,
    /// The four termination markers (§8.2.6), and the forms other software writes them in (read
    /// with a warning): the score joined by `:` or a dash look-alike (`1:0`, `0–1`), the draw
    /// as `1/2`, `½` or `½-½`.
    #[regex(r"(?&result)", priority = 20)]
    Result,
    /// A symbol (§7): SAN moves, tag names, integers; also figurines, `@` drops, dash
    /// look-alikes in castling (`O–O`) and the heavy plus as a check sign (`Qh5➕`), which the
    /// chess layer reads leniently.
    #[regex(r"(?&symbol)")]
    Symbol,
    /// `--`, the null move of ChessBase and others.
    #[token("--")]
    NullMove,
    /// Suffix annotations (§8.2.3.8).
    #[regex(r"!!|\?\?|!\?|\?!|!|\?")]
    Suffix,
    /// Evaluation symbols written as glyphs instead of NAGs.
    #[regex(r"\+-|-\+|\+/-|-/\+|\+=|=\+|\+/=|=/\+|=|±|∓|⩲|⩱|∞|=/∞|∞/=|□|⨀|⟳|→|↑|⇆|⊕|∆|⌓|△|⇔")]
    Glyph,
    /// `e.p.` written after an en-passant capture.
    #[token("e.p.")]
    EnPassant,
    /// A tag pair, move number, result or symbol with the blank after it: the lexer's own
    /// kinds, which `next_token` never gives (see above).
    #[regex(r"(?&tag_pair)(?&blank)")]
    TagPairBlank,
    #[regex(r"(?&move_number)(?&blank)")]
    MoveNumberBlank,
    #[regex(r"(?&result)(?&blank)", priority = 20)]
    ResultBlank,
    #[regex(r"(?&symbol)(?&blank)")]
    SymbolBlank,
    /// Anything else: one or more characters that fit no token. An HTML character reference
    /// (`&plusmn;`) is one such token, so that its `;` opens no comment (`entity`).
    #[regex(r"&(#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")]
    Unknown,
    /// The end of the text (never produced by [`lex`]; the parser's sentinel).
    Eof,
}

/// A token with its byte range in the lexed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub range: TextRange,
}

/// Whether `line` (the text from a line start on) starts a tag pair: optional blanks, `[`
/// (or several, as in `[[Event "x"]]`, which the parser reports), optional blanks, a name of
/// letters, digits or `_`, optional blanks and `"`.
pub fn is_tag_line(line: &[u8]) -> bool {
    tag_line_name(line).is_some()
}

/// The name of the tag pair that `line` starts, when it starts one ([`is_tag_line`]).
pub(super) fn tag_line_name(line: &[u8]) -> Option<&[u8]> {
    let mut i = 0;
    let skip_blanks = |i: &mut usize| {
        while matches!(line.get(*i), Some(b' ' | b'\t')) {
            *i += 1;
        }
    };
    skip_blanks(&mut i);
    if line.get(i) != Some(&b'[') {
        return None;
    }
    while line.get(i) == Some(&b'[') {
        i += 1;
        skip_blanks(&mut i);
    }
    let name = &line[i..i + tag_name_len(&line[i..])];
    if name.is_empty() {
        return None;
    }
    i += name.len();
    skip_blanks(&mut i);
    (line.get(i) == Some(&b'"')).then_some(name)
}

/// The length of the tag name at the start of `text`: letters, digits and `_` (§8.1.1); 0 when
/// none starts there.
pub(super) fn tag_name_len(text: &[u8]) -> usize {
    text.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count()
}

/// Whether `offset` is at the start of a line of `source`. A byte order mark opening a line
/// (the file's, or that of a file joined to another) is not text: what follows it starts the
/// line, as editors show it (a `%` there opens an escape line, §6).
pub fn at_line_start(source: &[u8], offset: usize) -> bool {
    const BOM: &[u8] = "\u{FEFF}".as_bytes();
    offset == 0
        || matches!(source[offset - 1], b'\n' | b'\r')
        || (source[..offset].ends_with(BOM) && at_line_start(source, offset - BOM.len()))
}

fn lex_brace_comment(lex: &mut logos::Lexer<TokenKind>) -> TokenKind {
    let (len, kind) = comment_rest(lex.remainder().as_bytes());
    lex.bump(len);
    kind
}

/// How many bytes of `rest`, what follows a comment's `{`, are the rest of the comment: up to
/// its `}`, or, unterminated, up to the line break before a tag line, or to the end; and the
/// comment's kind, by whether a line break lies in those bytes.
#[inline(always)]
fn comment_rest(rest: &[u8]) -> (usize, TokenKind) {
    prefetch_ahead(rest);
    let mut i = 0;
    // `i` is past the last line break met, so the comment has line breaks when it is not 0.
    let kind = |i: usize| if i == 0 { TokenKind::Comment } else { TokenKind::MultilineComment };
    while let Some(j) = memchr::memchr2(b'}', b'\n', &rest[i..]) {
        let at = i + j;
        if rest[at] == b'}' {
            return (at + 1, kind(i));
        }
        if is_tag_line(&rest[at + 1..]) {
            // Unterminated: stop before the line break, so the tag line starts fresh.
            let end = if at > 0 && rest[at - 1] == b'\r' { at - 1 } else { at };
            return (end, kind(i));
        }
        i = at + 1;
    }
    (rest.len(), kind(i))
}

/// Ask the processor to fetch eight cache lines 2 KB past the start of `rest` (a hint: nothing
/// is read, and an address past the text is harmless; on x86-64 only, elsewhere nothing is
/// done).
///
/// In the engine logs of computer chess archives a comment of a few hundred bytes follows
/// every move, and the search for its end waited on memory: the processor's own prefetcher
/// stops at each 4 KB page, and each search is short. With the text fetched this far ahead
/// the lexer read the TCEC archive at 3.9–4.4 GB/s instead of 2.4–3.5, and the syntax layer at
/// 3.1–3.2 GB/s instead of 2.2–2.7 (four runs of each build, alternated, 2026-11-22).
#[inline(always)]
fn prefetch_ahead(rest: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // Of 2 KB and 4 KB ahead and 4, 8 and 16 lines, these read the TCEC archive fastest.
        const DISTANCE: usize = 2048;
        const LINES: usize = 8;
        /// The bytes of a cache line on x86-64 processors.
        const LINE_BYTES: usize = 64;
        let ahead = rest.as_ptr().wrapping_add(DISTANCE);
        for line in 0..LINES {
            let address = ahead.wrapping_add(line * LINE_BYTES);
            // SAFETY: a prefetch reads nothing and never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = rest;
}

fn lex_percent(lex: &mut logos::Lexer<TokenKind>) -> TokenKind {
    if !at_line_start(lex.source().as_bytes(), lex.span().start) {
        return TokenKind::Unknown;
    }
    let rest = lex.remainder().as_bytes();
    lex.bump(memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len()));
    TokenKind::Escape
}

fn lex_string(lex: &mut logos::Lexer<TokenKind>) {
    let rest = lex.remainder().as_bytes();
    let line_end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
    let line = &rest[..line_end];
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' if closes_string(&line[i + 1..]) => {
                lex.bump(i + 1);
                return;
            }
            b'"' => match last_closing_quote(&line[i + 1..]) {
                // An unescaped quote inside a tag value (`"SK"Vladimir"-2007"]`): the value
                // runs to the last quote before `]`; the parser reports it.
                Some(j) => {
                    lex.bump(i + 1 + j + 1);
                    return;
                }
                None => {
                    lex.bump(i + 1);
                    return;
                }
            },
            _ => i += 1,
        }
    }
    lex.bump(line_end);
}

/// A quote closes a string when what follows on the line is blank, or `]` after blanks, or
/// another string after at least one blank (`[Round "1" "2"]`).
fn closes_string(after: &[u8]) -> bool {
    let blanks = after.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    match after.get(blanks) {
        None | Some(b']') => true,
        Some(b'"') => blanks > 0,
        Some(_) => false,
    }
}

/// The position of the last quote on the line that closes the string, if any.
fn last_closing_quote(line: &[u8]) -> Option<usize> {
    (0..line.len()).rev().find(|&k| line[k] == b'"' && closes_string(&line[k + 1..]))
}

/// The tokens of `text`, in order; only ASCII whitespace lies between them.
pub fn lex(text: &str) -> Lexer<'_> {
    Lexer { raw: RawLexer::new(text) }
}

/// The raw tokens of a text, one at a time: a byte that fits nothing is an `Unknown` token of
/// its own, and the end of the text is `Eof`. Plain movetext and plain tag pairs are read a
/// block at a time (`block_lexer`), and a comment where the blocks stopped is read here too;
/// everything else by logos, from wherever these stopped.
#[derive(Clone)]
pub(crate) struct RawLexer<'a> {
    logos: logos::Lexer<'a, TokenKind>,
    found: Queue,
    /// Where lexing goes on once the tokens found are handed out.
    resume: usize,
}

impl<'a> RawLexer<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        RawLexer { logos: TokenKind::lexer(text), found: Queue::default(), resume: 0 }
    }

    #[inline(always)]
    pub(crate) fn next_token(&mut self) -> Token {
        match self.found.pop() {
            Some(token) => token,
            None => self.read_on(),
        }
    }

    /// The next token once the tokens found are handed out: the first token of the next blocks
    /// that give any, a comment where they stop, or else the next token of logos.
    fn read_on(&mut self) -> Token {
        let bytes = self.logos.source().as_bytes();
        while self.resume + BLOCK <= bytes.len() {
            let at = self.resume;
            self.resume = match bytes[at] {
                b'[' => self.found.fill_tags(bytes, at),
                b'{' => return self.read_comment(bytes, at),
                _ => self.found.fill(bytes, at),
            };
            if let Some(token) = self.found.pop() {
                return token;
            }
            if self.resume == at {
                break;
            }
        }
        self.read_with_logos()
    }

    /// The comment at `bytes[at]`, a `{`, read as logos's callback reads it: the commonest
    /// token the blocks do not take (one follows every move of an engine game), and cheaper
    /// read here than through logos's dispatch.
    #[inline(always)]
    fn read_comment(&mut self, bytes: &[u8], at: usize) -> Token {
        let (len, kind) = comment_rest(&bytes[at + 1..]);
        self.resume = at + 1 + len;
        Token { kind, range: TextRange::new(at as u32, self.resume as u32) }
    }

    /// The next token read by logos, from where the blocks stopped.
    #[inline]
    fn read_with_logos(&mut self) -> Token {
        let skipped = self.resume - self.logos.span().end;
        if skipped > 0 {
            self.logos.bump(skipped);
        }
        let token = logos_token(&mut self.logos);
        self.resume = self.logos.span().end;
        token
    }
}

/// The next token of a logos lexer.
#[inline]
fn logos_token(inner: &mut logos::Lexer<'_, TokenKind>) -> Token {
    match inner.next() {
        None => {
            let end = inner.source().len() as u32;
            Token { kind: TokenKind::Eof, range: TextRange::empty(end) }
        }
        Some(result) => {
            let span = inner.span();
            // The blank some tokens take after them belongs to the gap (see `TokenKind`).
            let (kind, blank) = match result.unwrap_or(TokenKind::Unknown) {
                TokenKind::TagPairBlank => (TokenKind::TagPair, 1),
                TokenKind::MoveNumberBlank => (TokenKind::MoveNumber, 1),
                TokenKind::ResultBlank => (TokenKind::Result, 1),
                TokenKind::SymbolBlank => (TokenKind::Symbol, 1),
                kind => (kind, 0),
            };
            Token { kind, range: TextRange::new(span.start as u32, span.end as u32 - blank) }
        }
    }
}

/// Iterator over the tokens of a text; runs of adjacent bytes that fit no token merge into one
/// `Unknown` token.
pub struct Lexer<'a> {
    raw: RawLexer<'a>,
}

impl Iterator for Lexer<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let mut token = self.raw.next_token();
        if token.kind == TokenKind::Unknown {
            self.extend_unknown(&mut token);
        }
        (token.kind != TokenKind::Eof).then_some(token)
    }
}

impl Lexer<'_> {
    /// Grows an `Unknown` token over the `Unknown` tokens right after it. It looks ahead on a
    /// copy of the raw lexer, so no token is held back between calls: a held-back
    /// `Option<Token>`, written and read back on every call, cost a stalled load per token
    /// (`perf` put two thirds of the lexer's samples on it; without it the lexer reads TWIC 1389
    /// about 1.4 times as fast).
    #[cold]
    fn extend_unknown(&mut self, token: &mut Token) {
        loop {
            let mut ahead = self.raw.clone();
            let next = ahead.next_token();
            if next.kind != TokenKind::Unknown || next.range.start != token.range.end {
                return;
            }
            token.range.end = next.range.end;
            self.raw = ahead;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use TokenKind::*;

    /// The raw tokens of `text` up to `Eof`, from the raw lexer or from logos alone.
    fn raw_tokens(text: &str, logos_only: bool) -> Vec<Token> {
        let mut raw = RawLexer::new(text);
        let mut logos = TokenKind::lexer(text);
        let mut tokens = Vec::new();
        loop {
            let token = if logos_only { logos_token(&mut logos) } else { raw.next_token() };
            if token.kind == Eof {
                return tokens;
            }
            tokens.push(token);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The blocks take only what logos would make of the same bytes: runs of movetext
        /// pieces, long enough to fill blocks, with every token that starts like a block token
        /// and is something else.
        #[test]
        fn blocks_give_the_tokens_logos_gives(pieces in proptest::collection::vec(
            "1-0|0-1|1-0x|0-10|1:0|0:1|1:0x|1–0|0—1|1/2-1/2|1/2|½-½|½|½–½|1/2:1/2|\\*|e\\.p\\.|e4\\.|12\\.|7\\.\\.\\.|\\.\\.\\.|\\.|e4|Nf3\\+|exd8=Q#|O-O|O–O|O➖O|Nf3➕|Nf♘|♘f3|--|-|\\+-|=|:x|_a|@|P@e4|Z0|\\(|\\)|\\{c d\\}|\\{u\n|\\{u\r\n|\\[Event \"x\"\\]|\\[Event \"x\"\\]\n|\\[W_1 \"\"\\]|\\[_a \"x\"\\]|\\[Ab \"a\\\\\\\\b\"\\]|\\[Ab \"a\r\"\\]|\\[Ab \"a\"|\\[Ab  \"x\"\\]|\\[Abcdefghijklmnopq \"x\"\\]|\\[Ab \"a long value of many words\"\\] |;c\n|%e\n|\\$1|!\\?|!|\u{a0}|[a-h1-8]{1,3}|[ \n\t\r]{1,3}|\x0B|\x0C|&|&plusmn;|&#177;|&amp|;",
            0..120,
        )) {
            let text = pieces.concat();
            prop_assert_eq!(raw_tokens(&text, false), raw_tokens(&text, true));
        }
    }

    /// The same on real movetext, where blocks take nearly every token.
    #[test]
    fn blocks_give_the_tokens_logos_gives_on_movetext() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O) 4. Ba4 Nf6 \
                    5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 \
                    12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 \
                    Nc5 19. Qd2 h5 20. Bg5 Be7 21. Bxe7 Qxe7 22. exd8=Q+ Kxd8 1-0\n";
        let tokens = raw_tokens(text, false);
        assert_eq!(tokens, raw_tokens(text, true));
        // The tag pair, 22 move numbers and 44 moves, the variation's 6 tokens, the result.
        assert_eq!(tokens.len(), 74);
    }

    fn kinds(text: &str) -> Vec<(TokenKind, &str)> {
        lex(text).map(|t| (t.kind, &text[t.range])).collect()
    }

    #[test]
    fn movetext_tokens() {
        assert_eq!(
            kinds("1.e4 e5!? 2. Nf3 $1 {c} 1-0"),
            vec![
                (MoveNumber, "1."),
                (Symbol, "e4"),
                (Symbol, "e5"),
                (Suffix, "!?"),
                (MoveNumber, "2."),
                (Symbol, "Nf3"),
                (Nag, "$1"),
                (Comment, "{c}"),
                (Result, "1-0"),
            ]
        );
    }

    /// Look-alikes of `-` and `+` inside a move are part of it, for the chess layer to read
    /// (`O➖O`, `Qh5➕`); on its own a heavy plus fits no token.
    #[test]
    fn look_alike_signs_belong_to_their_move() {
        assert_eq!(
            kinds("O➖O Qh5➕ O–O-O ➕"),
            vec![(Symbol, "O➖O"), (Symbol, "Qh5➕"), (Symbol, "O–O-O"), (Unknown, "➕")]
        );
    }

    #[test]
    fn escape_only_in_first_column() {
        assert_eq!(kinds("%x y\na % b")[0], (Escape, "%x y"));
        assert_eq!(kinds("\u{FEFF}%x y\n")[1], (Escape, "%x y"), "after the byte order mark");
        assert_eq!(
            kinds("e4\n\u{FEFF}%x").last(),
            Some(&(Escape, "%x")),
            "after a joined file's mark"
        );
        assert!(kinds("%x y\na % b").contains(&(Unknown, "%")));
    }

    #[test]
    fn unterminated_comment_stops_at_tag_line() {
        // In a short text logos reads the comment; with a game after it the lexer reads it
        // itself, giving the same tokens.
        let short = "1. e4 {oops\n2. Nf3\r\n[Event \"x\"]\n";
        let long = format!("{short}\n{}", "1. d4 d5 ".repeat(10));
        for text in [short, &long] {
            let toks = kinds(text);
            assert!(toks.contains(&(MultilineComment, "{oops\n2. Nf3")), "{toks:?}");
            assert!(toks.contains(&(TagPair, "[Event \"x\"]")), "{toks:?}");
            assert_eq!(raw_tokens(text, false), raw_tokens(text, true));
        }
    }

    /// A comment with a line break in it is a kind of its own, whether logos reads it (in a
    /// short text) or the lexer itself (where a block could start); a `\r` alone breaks no line.
    #[test]
    fn comments_over_several_lines_are_told_apart() {
        let short = "{one line} {two\nlines} {\n} {\r}";
        let long = format!("{short} {}", "1. d4 d5 ".repeat(10));
        for text in [short, &long] {
            let comments: Vec<_> = kinds(text)
                .into_iter()
                .filter(|(kind, _)| matches!(kind, Comment | MultilineComment))
                .collect();
            assert_eq!(
                comments,
                [
                    (Comment, "{one line}"),
                    (MultilineComment, "{two\nlines}"),
                    (MultilineComment, "{\n}"),
                    (Comment, "{\r}"),
                ]
            );
            assert_eq!(raw_tokens(text, false), raw_tokens(text, true));
        }
    }

    #[test]
    fn strings_with_escapes_and_stray_quotes() {
        assert!(kinds(r#"[Event "A \"q\" \\ x"]"#).contains(&(String, r#""A \"q\" \\ x""#)));
        assert!(
            kinds(r#"[Event "SK"Vladimir Gortan"-2007"]"#)
                .contains(&(String, r#""SK"Vladimir Gortan"-2007""#))
        );
        assert!(kinds("[Event \"open\n1. e4").contains(&(String, "\"open")));
    }

    #[test]
    fn unknown_runs_merge_and_only_whitespace_lies_between_tokens() {
        let text = "e4 &&& ~~\u{a0}e5";
        assert_eq!(
            kinds(text),
            vec![
                (Symbol, "e4"),
                (Unknown, "&&&"),
                (Unknown, "~~"),
                (Whitespace, "\u{a0}"),
                (Symbol, "e5")
            ]
        );
        assert_eq!(kinds("~e4~~"), vec![(Unknown, "~"), (Symbol, "e4"), (Unknown, "~~")]);
    }

    #[test]
    fn plain_tag_pairs_are_one_token_and_others_their_parts() {
        assert_eq!(kinds("[White \"Carlsen, M.\"]\n"), vec![(TagPair, "[White \"Carlsen, M.\"]")]);
        assert_eq!(kinds("[Site_2 \"\"]"), vec![(TagPair, "[Site_2 \"\"]")]);
        for text in ["[Event  \"x\"]", "[Event \"a\\\"b\"]", "[_x \"v\"]", "[Event \"x\" ]"] {
            assert!(kinds(text).iter().all(|&(kind, _)| kind != TagPair), "{text}");
            assert_eq!(kinds(text)[0], (LBracket, "["), "{text}");
        }
    }

    #[test]
    fn the_blank_after_a_token_is_not_part_of_it() {
        let text = "[Event \"x\"]\n\n1. e4 e5\n2.\nNf3 1-0 \n";
        let tokens: Vec<&str> = lex(text).map(|t| &text[t.range]).collect();
        assert_eq!(tokens, ["[Event \"x\"]", "1.", "e4", "e5", "2.", "Nf3", "1-0"]);
        let own_kinds = [TagPairBlank, MoveNumberBlank, ResultBlank, SymbolBlank];
        assert!(
            lex(text).all(|t| !own_kinds.contains(&t.kind)),
            "the lexer's own kinds stay inside"
        );
        // A result is still a result, with or without a blank after it.
        assert_eq!(kinds("1-0 0-1\n*"), vec![(Result, "1-0"), (Result, "0-1"), (Result, "*")]);
    }

    #[test]
    fn results_in_other_forms_are_results() {
        for marker in ["1:0", "0:1", "1–0", "0—1", "1/2", "½", "½-½", "½–½", "1/2:1/2", "1/2—½"]
        {
            assert_eq!(kinds(marker), vec![(Result, marker)], "{marker}");
            assert_eq!(kinds(&format!("{marker} ")), vec![(Result, marker)], "{marker}");
        }
        // A longer symbol is no result.
        assert_eq!(kinds("1:0x 0–10"), vec![(Symbol, "1:0x"), (Symbol, "0–10")]);
    }

    #[test]
    fn tag_line_detection() {
        assert!(is_tag_line(b"[Event \"x\"]"));
        assert!(is_tag_line(b"  [ White_Elo\t\"x"));
        assert!(is_tag_line(b"[[Event \"x\"]]"));
        assert!(is_tag_line(b"[ [Event \"x\"]"));
        assert!(!is_tag_line(b"[[%clk 0:01]]"));
        assert!(!is_tag_line(b"[%clk 0:01]"));
        assert!(!is_tag_line(b"[Event x]"));
    }
}
