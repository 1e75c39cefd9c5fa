//! The error-tolerant game parser. It reads one game from the start of a text and says where
//! the game ends; it never fails and never loses a byte: every byte that is not whitespace lands
//! in a tag pair, a tag-section note or a movetext node.
//!
//! Game boundaries (§8: a file is a sequence of games; real files bend every rule):
//! - a line that starts a tag pair begins a new game once the current game has movetext;
//! - in a tag section, after a blank line, the tag lines that follow one another begin a new
//!   game when one of them names a tag the game already has (tag-only games written back to
//!   back: the next game's tags in any order, so that adding or sorting them keeps it a game of
//!   its own);
//! - after a top-level termination marker, the first movetext token on a later line begins a new
//!   game (headerless games written back to back), unless it is a `%` after other text on its
//!   line, which would open the new game as an escape line (commentary); commentary on the lines
//!   between them opens the new game (§8.2.6: the marker ends the game), and the game before is
//!   read again without it.
//!
//! Games begin at the start of their first line when only blanks stand before it there.

use super::diagnostic::{Code, Diagnostic, PerCodeLimit, excerpt};
use super::entity;
use super::first_tags::FirstTags;
use super::lexer::{
    RawLexer, Token, TokenKind, at_line_start, is_tag_line, tag_line_name, tag_name_len,
};
use super::line_lengths::{IMPORT_LIMIT, LineLengths};
use super::tree::{
    Game, Node, NodeKind, Tag, TagSectionNote, escape_string, glyph_nag, is_closed_string,
    judges_move, standard_marker, string_contents, unescape_string,
};
use crate::text::{TextEdit, TextRange, char_count, first_space};

/// Room for the tags of a typical game, so that their vectors are not regrown tag by tag.
const TAGS_CAPACITY: usize = 16;

/// Parse the game that starts at the beginning of `text`.
pub fn parse_game(text: &str) -> Game {
    let mut text = text;
    let mut lookahead = None;
    loop {
        match Parser::new(text).run() {
            Ran::Game(game) => {
                return Game { lookahead: lookahead.unwrap_or(game.lookahead), ..game };
            }
            // The game read commentary that opens the next one: read it again without (a
            // shorter text each time).
            Ran::Reread { end, lookahead: at } => {
                text = &text[..end as usize];
                lookahead.get_or_insert(at);
            }
        }
    }
}

/// What a parser's run gives: its game, or where the game ends before the commentary that
/// opens the next one (which the parse read into the game), and the token after that.
enum Ran {
    Game(Game),
    Reread { end: u32, lookahead: u32 },
}

/// The games of a whole text with their start offsets, in order.
pub fn parse_games(text: &str) -> impl Iterator<Item = (u32, Game)> + '_ {
    let mut at = 0usize;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let game = parse_game(&text[at..]);
        let start = at as u32;
        at += game.len as usize;
        Some((start, game))
    })
}

struct OpenVariation {
    node: usize,
    moves: u32,
    /// Opened before the first move of its line (reported once, not for the variations
    /// nested in it).
    misplaced: bool,
}

struct Parser<'a> {
    src: &'a str,
    lexer: RawLexer<'a>,
    /// The token under the cursor (`Eof` at the end); [`Parser::tok`] reads it.
    held: HeldToken,
    /// Tokens that come before the lexer's next one: the parts of a tag-pair token read as its
    /// parts, last first (`queued[..queued_len]`).
    queued: [Token; 3],
    queued_len: usize,
    game: Game,
    /// The last token that is not whitespace (stored whole, in the one store its end took).
    last_significant: TextRange,
    in_movetext: bool,
    /// Where the line of the top-level termination marker ends, once it is seen.
    result_line_end: Option<u32>,
    /// The start of the line of the first commentary after the marker's line: where a game
    /// that follows without tags begins.
    commentary_after_result: Option<u32>,
    after_result_reported: bool,
    open: Vec<OpenVariation>,
    /// A termination marker met inside a variation: its node and its diagnostic (when
    /// reported). When the game ends right after it, the variations were left open before the
    /// game's real result.
    result_in_variation: Option<(usize, Option<usize>)>,
    /// Moves at the top level so far.
    top_moves: u32,
    limit: PerCodeLimit,
    /// The range of the first tag pair of each name so far.
    first_tags: FirstTags<'a>,
    line_lengths: LineLengths,
    /// The start of the furthest line read past the current token to decide where the game
    /// ends (the tag lines after a blank line in a tag section).
    read_to: u32,
}

/// The token under the parser's cursor, its range kept as one word. The parser writes it once
/// per token and reads it back soon after. A `Token` is written a field at a time and copied a
/// word at a time, and a read that spans two writes still in flight cannot take its value from
/// them: it waits until they reach the cache, a stall on every token (`perf` put a fifth of
/// the samples of a parse of TWIC 1389 on it; without it the parse is about 7% faster).
#[derive(Clone, Copy)]
struct HeldToken {
    range: u64,
    kind: TokenKind,
}

impl HeldToken {
    #[inline(always)]
    fn new(t: Token) -> Self {
        HeldToken { range: u64::from(t.range.start) | u64::from(t.range.end) << 32, kind: t.kind }
    }

    #[inline(always)]
    fn get(self) -> Token {
        Token {
            kind: self.kind,
            range: TextRange::new(self.range as u32, (self.range >> 32) as u32),
        }
    }
}

enum Step {
    Continue,
    /// The game ends at this offset; the rest belongs to the next game.
    EndAt(u32),
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        let mut lexer = RawLexer::new(src);
        let tok = lexer.next_token();
        Parser {
            src,
            lexer,
            held: HeldToken::new(tok),
            queued: [tok; 3],
            queued_len: 0,
            game: Game {
                // Most games have a few hundred nodes; avoid regrowing from nothing.
                nodes: Vec::with_capacity((src.len() / 6).min(256)),
                // The Seven Tag Roster and the few tags most files add.
                tags: Vec::with_capacity(TAGS_CAPACITY),
                ..Game::default()
            },
            last_significant: TextRange::default(),
            in_movetext: false,
            result_line_end: None,
            commentary_after_result: None,
            after_result_reported: false,
            open: Vec::new(),
            result_in_variation: None,
            top_moves: 0,
            limit: PerCodeLimit::default(),
            first_tags: FirstTags::with_capacity(TAGS_CAPACITY),
            read_to: 0,
            line_lengths: LineLengths::default(),
        }
    }

    /// The token under the cursor.
    #[inline(always)]
    fn tok(&self) -> Token {
        self.held.get()
    }

    /// Consume the current token and return it. Runs for every token: inlined by force, as
    /// LLVM stopped inlining it once it took in the line-length check.
    #[inline(always)]
    fn bump(&mut self) -> Token {
        let t = self.tok();
        self.line_lengths.token(self.src, self.last_significant.end, t);
        if t.kind != TokenKind::Whitespace {
            self.last_significant = t.range;
        }
        self.held = HeldToken::new(if self.queued_len > 0 {
            self.queued_len -= 1;
            self.queued[self.queued_len]
        } else {
            self.lexer.next_token()
        });
        t
    }

    /// Read the tag-pair token under the cursor as the tokens it is made of: `[`, the name, the
    /// value and `]`.
    fn split_tag_pair(&mut self) {
        let r = self.tok().range;
        let parts = PlainTagPair::of(r, self.src);
        let token = |kind, range| Token { kind, range };
        self.held =
            HeldToken::new(token(TokenKind::LBracket, TextRange::new(r.start, r.start + 1)));
        self.queued = [
            token(TokenKind::RBracket, TextRange::new(r.end - 1, r.end)),
            token(TokenKind::String, parts.value),
            token(TokenKind::Symbol, parts.name),
        ];
        self.queued_len = 3;
    }

    fn text(&self, r: TextRange) -> &'a str {
        &self.src[r]
    }

    /// The text of `r` as quoted in a message.
    fn quoted(&self, r: TextRange) -> std::borrow::Cow<'a, str> {
        excerpt(&self.src[r])
    }

    /// Report `d` unless its code is over the limit; returns whether it was reported.
    fn push(&mut self, d: Diagnostic) -> bool {
        let admitted = self.limit.admit(&d);
        if admitted {
            self.game.diagnostics.push(d);
        }
        admitted
    }

    fn error(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        self.push(Diagnostic::new(code, range, message));
    }

    fn run(mut self) -> Ran {
        let mut end = self.src.len() as u32;
        let mut lookahead = end;
        loop {
            let kind = self.tok().kind;
            let step = match kind {
                TokenKind::Eof => break,
                TokenKind::Whitespace => {
                    self.bump();
                    Step::Continue
                }
                TokenKind::LBracket | TokenKind::TagPair => self.on_bracket(self.tok()),
                TokenKind::RBracket if !self.in_movetext && self.closes_last_tag() => {
                    self.extra_closing_brackets();
                    Step::Continue
                }
                TokenKind::Comment
                | TokenKind::MultilineComment
                | TokenKind::LineComment
                | TokenKind::Escape
                    if !self.in_movetext =>
                {
                    self.tag_note(self.tok());
                    Step::Continue
                }
                _ => self.on_movetext(self.tok()),
            };
            if let Step::EndAt(at) = step {
                end = at;
                lookahead = self.tok().range.start.max(self.read_to);
                break;
            }
        }
        if self.commentary_after_result == Some(end) {
            return Ran::Reread { end, lookahead };
        }
        let game = self.finish(end);
        Ran::Game(Game { lookahead, ..game })
    }

    /// The start of `tok`'s line if only blanks stand before it on that line.
    fn line_start_before(&self, tok: Token) -> Option<u32> {
        let bytes = self.src.as_bytes();
        let mut i = tok.range.start as usize;
        while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        at_line_start(bytes, i).then_some(i as u32)
    }

    /// Where a game that ends before `tok` ends: the start of `tok`'s line when only blanks
    /// precede it there, else `tok` itself.
    fn boundary_before(&self, tok: Token) -> u32 {
        let at = self.line_start_before(tok).unwrap_or(tok.range.start);
        at.max(self.last_significant.end)
    }

    fn on_bracket(&mut self, tok: Token) -> Step {
        // A tag-pair token starts a tag pair by its shape.
        let tag_line = self.line_start_before(tok).is_some_and(|s| {
            tok.kind == TokenKind::TagPair || is_tag_line(&self.src.as_bytes()[s as usize..])
        });
        if tag_line {
            if self.in_movetext && self.result_line_end.is_none() && self.stray_line_before(tok) {
                self.stray_line_among_tags();
            } else if self.in_movetext || self.result_line_end.is_some() {
                return Step::EndAt(self.boundary_before(tok));
            }
            if self.next_tags_repeat_after_blank_line(tok) {
                return Step::EndAt(self.boundary_before(tok));
            }
        } else if self.in_movetext {
            return self.on_movetext(tok);
        }
        self.tag_pair();
        Step::Continue
    }

    /// Whether, with a blank line before the tag line at `tok`, that line or one of the tag
    /// lines right after it names a tag the game already has. The lines read are marked in
    /// `read_to`.
    fn next_tags_repeat_after_blank_line(&mut self, tok: Token) -> bool {
        if self.game.tags.is_empty() {
            return false;
        }
        let bytes = self.src.as_bytes();
        let gap = &bytes[self.last_significant.end as usize..tok.range.start as usize];
        // Between tag lines the gap is one line break: no blank line, nothing to count.
        let blank_line = gap.len() >= 2 && gap.iter().filter(|&&b| b == b'\n').count() >= 2;
        if !blank_line {
            return false;
        }
        let mut line = tok.range.start as usize;
        loop {
            self.read_to = self.read_to.max(line as u32);
            let Some(name) = tag_line_name(&bytes[line..]) else { return false };
            // A tag name is ASCII.
            if self.first_tags.contains(std::str::from_utf8(name).unwrap_or_default()) {
                return true;
            }
            match memchr::memchr(b'\n', &bytes[line..]) {
                Some(i) => line += i + 1,
                None => return false,
            }
        }
    }

    /// Whether the movetext read so far is rather a line of stray text among the tag pairs
    /// (`Round 1`, a word line between two tag lines), seen at the tag line `tok` after it:
    /// it is one line, right after a tag line and right before `tok`, with no move number
    /// written with a period and no marker in it, and `tok` names a tag the game does not
    /// have yet (a tag it has starts the next game). Read as movetext, it would end the game
    /// at `tok` and leave the tag pairs after it a game of their own.
    #[cold]
    fn stray_line_before(&mut self, tok: Token) -> bool {
        let (Some(first), Some(last_tag)) = (self.game.nodes.first(), self.game.tags.last()) else {
            return false;
        };
        let bytes = self.src.as_bytes();
        let line_breaks = |from: u32, to: u32| {
            memchr::memchr_iter(b'\n', &bytes[from as usize..to as usize]).count()
        };
        let one_line = line_breaks(last_tag.range.end, first.range.start) == 1
            && line_breaks(first.range.start, tok.range.start) == 1;
        let movetext = self.game.nodes.iter().any(|n| match n.kind {
            NodeKind::Result => true,
            NodeKind::MoveNumber => self.text(n.range).ends_with('.'),
            _ => false,
        });
        if !one_line || movetext || !self.open.is_empty() {
            return false;
        }
        let name = tag_line_name(&bytes[tok.range.start as usize..]).unwrap_or_default();
        !self.first_tags.contains(std::str::from_utf8(name).unwrap_or_default())
    }

    /// The movetext read so far taken back as stray text among the tag pairs
    /// ([`Parser::stray_line_before`]): one error and a note of the tag section in place of
    /// its nodes and of what the parser reported of them.
    #[cold]
    fn stray_line_among_tags(&mut self) {
        let nodes = std::mem::take(&mut self.game.nodes);
        let range = nodes[0].range.cover(nodes[nodes.len() - 1].range);
        (self.game.diagnostics).retain(|d| d.range.start < range.start || d.range.end > range.end);
        self.in_movetext = false;
        self.top_moves = 0;
        self.stray_note(range);
    }

    fn tag_note(&mut self, tok: Token) {
        let t = self.bump();
        let kind = match tok.kind {
            TokenKind::Comment | TokenKind::MultilineComment => {
                self.check_comment(t);
                NodeKind::Comment
            }
            TokenKind::LineComment => NodeKind::LineComment,
            _ => NodeKind::Escape,
        };
        let after_tags = self.game.tags.len() as u32;
        self.game.tag_notes.push(TagSectionNote { kind, range: t.range, after_tags });
    }

    /// Whether `tok`, before the movetext and no move, move number, comment or marker (which
    /// may start a game's movetext on the line of its tags), stands among the tag pairs: after
    /// a tag pair with no blank line between, and with a tag line right after its line
    /// (`[Event "x"]?` above `[Site "y"]`). Read as the start of the movetext, it would end the
    /// game at that tag line and leave the tags after it a game of their own. Gives the
    /// offset of the line break ending its line when it does.
    #[cold]
    fn strays_among_tags(&mut self, tok: Token) -> Option<u32> {
        let strays = matches!(
            tok.kind,
            TokenKind::Suffix
                | TokenKind::Glyph
                | TokenKind::Nag
                | TokenKind::Dots
                | TokenKind::EnPassant
                | TokenKind::Unknown
                | TokenKind::String
                | TokenKind::Reserved
                | TokenKind::RBrace
                | TokenKind::RParen
        );
        if !strays || self.game.tags.is_empty() {
            return None;
        }
        let bytes = self.src.as_bytes();
        let gap = &bytes[self.last_significant.end as usize..tok.range.start as usize];
        if memchr::memchr_iter(b'\n', gap).nth(1).is_some() {
            return None;
        }
        let line_end =
            tok.range.start + memchr::memchr(b'\n', &bytes[tok.range.start as usize..])? as u32;
        if tok.range.end > line_end {
            return None;
        }
        let next_line = line_end + 1;
        self.read_to = self.read_to.max(next_line);
        is_tag_line(&bytes[next_line as usize..]).then_some(line_end)
    }

    /// Stray text among the tag pairs ([`Parser::strays_among_tags`]): the token under the cursor
    /// and what follows it on its line (up to `line_end`) up to a tag pair or a comment, an
    /// error and a note of the tag section (the movetext has not begun).
    #[cold]
    fn stray_text_among_tags(&mut self, line_end: u32) {
        let mut range = self.bump().range;
        while let next = self.tok()
            && next.range.end <= line_end
            && !matches!(
                next.kind,
                TokenKind::TagPair
                    | TokenKind::LBracket
                    | TokenKind::Comment
                    | TokenKind::MultilineComment
                    | TokenKind::LineComment
                    | TokenKind::Escape
                    | TokenKind::Eof
            )
        {
            let t = self.bump();
            if t.kind != TokenKind::Whitespace {
                range = range.cover(t.range);
            }
        }
        self.stray_note(range);
    }

    /// Stray text at `range` among the tag pairs: an error, and a note of the tag section.
    fn stray_note(&mut self, range: TextRange) {
        let message = format!(
            "\"{}\" among the tag pairs: the tag section holds tag pairs (and comments), and \
             the moves come after it (§8.1)",
            self.quoted(range)
        );
        self.error(Code::UnexpectedToken, range, message);
        let after_tags = self.game.tags.len() as u32;
        let note = TagSectionNote { kind: NodeKind::Unexpected, range, after_tags };
        self.game.tag_notes.push(note);
    }

    /// A tag pair (§8.1), from its tag-pair token or its `[`.
    fn tag_pair(&mut self) {
        if self.tok().kind == TokenKind::TagPair {
            // The same tag pair `tag_pair_in_parts` makes of its four tokens. Its name is
            // valid, its value a closed string without quotes inside, its `]` there: of the
            // checks of `check_tag`, only two can find anything.
            let range = self.bump().range;
            let parts = PlainTagPair::of(range, self.src);
            let tag = Tag { range, name: parts.name, value: Some(parts.value) };
            self.check_duplicate_tag(&tag);
            self.check_string_length(parts.value);
            self.game.tags.push(tag);
            return;
        }
        self.tag_pair_in_parts();
    }

    /// A tag pair that is no tag-pair token, read a token at a time from its `[`. Tolerates a
    /// name of several symbols, a value missing or not quoted, a missing `]`, extra text,
    /// doubled brackets; never runs into the next tag line or the movetext. Out of line, so
    /// that [`Parser::tag_pair`], which reads most tag pairs, is inlined into the parser's loop:
    /// with this in it, `check --jobs 1` of TWIC 1389 took 339.0 M instructions instead of
    /// 338.0 M (callgrind; 337.9 M before doubled brackets and unquoted values were read).
    #[inline(never)]
    fn tag_pair_in_parts(&mut self) {
        let open = self.bump();
        let mut name: Option<TextRange> = None;
        let mut values: Vec<TextRange> = Vec::new();
        let mut extra: Option<TextRange> = None;
        let mut close: Option<TextRange> = None;
        // `[[Name "value"]]`: brackets doubled before the name, on its line, and as many `]`
        // right after the closing one.
        let mut doubled: Vec<TextRange> = Vec::new();
        loop {
            let t = self.tok();
            let starts_line =
                self.src[self.last_significant.end as usize..t.range.start as usize].contains('\n');
            match t.kind {
                TokenKind::Whitespace => {
                    self.bump();
                }
                TokenKind::LBracket | TokenKind::TagPair
                    if name.is_none() && values.is_empty() && extra.is_none() && !starts_line =>
                {
                    if t.kind == TokenKind::TagPair {
                        self.split_tag_pair();
                    }
                    doubled.push(self.bump().range);
                }
                TokenKind::RBracket => {
                    close = Some(self.bump().range);
                    for _ in 0..doubled.len() {
                        if self.tok().kind != TokenKind::RBracket {
                            break;
                        }
                        doubled.push(self.bump().range);
                    }
                    break;
                }
                TokenKind::Symbol if values.is_empty() && !(starts_line && name.is_some()) => {
                    let r = self.bump().range;
                    name = Some(name.map_or(r, |n| n.cover(r)));
                }
                TokenKind::String if !starts_line || values.is_empty() => {
                    let r = self.bump().range;
                    values.push(r);
                    if values.len() == 1
                        && !is_closed_string(self.text(r))
                        && let Some((value, bracket)) = self.wrapped_value(r)
                    {
                        values[0] = value;
                        close = Some(bracket);
                        break;
                    }
                }
                // Characters no name holds, written in it (`[Täg "x"]`, `[My.Tag "x"]`,
                // `[_tag "x"]`): part of the name, which `check_tag` reports.
                TokenKind::Unknown | TokenKind::Dots | TokenKind::Suffix | TokenKind::Glyph
                    if values.is_empty()
                        && extra.is_none()
                        && t.range.start == name.map_or(open.range.end, |n| n.end) =>
                {
                    let r = self.bump().range;
                    name = Some(name.map_or(r, |n| n.cover(r)));
                }
                // On the tag pair's line, brackets of a value without quotes (`[Annotator
                // Fritz (8)]`) are text of the tag pair, not a variation splitting the game.
                TokenKind::Symbol
                | TokenKind::Unknown
                | TokenKind::LParen
                | TokenKind::RParen
                | TokenKind::Nag
                | TokenKind::Dots
                | TokenKind::MoveNumber
                | TokenKind::Result
                | TokenKind::Suffix
                | TokenKind::Glyph
                | TokenKind::Reserved
                    if !starts_line =>
                {
                    let r = self.bump().range;
                    extra = Some(extra.map_or(r, |e| e.cover(r)));
                }
                _ => break,
            }
        }
        if let Some(close) = close
            && values.is_empty()
            && doubled.is_empty()
            && self.value_without_quotes(open.range, close)
        {
            return;
        }
        let end = match close {
            Some(close) => doubled.last().map_or(close.end, |last| last.end.max(close.end)),
            None => self.last_significant.end,
        };
        let range = TextRange::new(open.range.start, end);
        let tag = Tag {
            range,
            name: name.unwrap_or(TextRange::empty(open.range.end)),
            value: values.first().copied(),
        };
        self.check_tag(&tag, &values, extra, close.is_some());
        self.game.tags.push(tag);
        if !doubled.is_empty() {
            self.extra_brackets(self.game.tags.len() - 1, &doubled);
        }
    }

    /// A tag value wrapped onto the next line, as an e-mail program wraps a long line: `value`,
    /// a string left open at the end of its line (not at a `]`, where the closing quote is
    /// missing), goes on when the next line is text ending in `"]` with no other quote, bracket
    /// or comment in it. Reads that line, and gives the value's range from its opening quote to
    /// its closing one, and the `]`'s. The line break in the value is reported with the value
    /// ([`Parser::line_break_in_string`]).
    #[cold]
    fn wrapped_value(&mut self, value: TextRange) -> Option<(TextRange, TextRange)> {
        if self.text(value).trim_end_matches([' ', '\t']).ends_with(']') {
            return None;
        }
        let bytes = self.src.as_bytes();
        let after = value.end as usize;
        let next = match &bytes[after..] {
            [b'\r', b'\n', ..] => after + 2,
            [b'\n' | b'\r', ..] => after + 1,
            _ => return None,
        };
        let line_len = memchr::memchr2(b'\n', b'\r', &bytes[next..]).unwrap_or(bytes.len() - next);
        self.read_to = self.read_to.max((next + line_len) as u32);
        let line = &self.src[next..next + line_len];
        let text = line.trim_end_matches([' ', '\t']).strip_suffix("\"]")?;
        if text.trim().is_empty() || text.contains(['"', '[', ']', '{', '}', ';']) {
            return None;
        }
        let quote = (next + text.len()) as u32;
        while self.tok().kind != TokenKind::Eof && self.tok().range.start <= quote {
            self.bump();
        }
        let bracket = TextRange::new(quote + 1, quote + 2);
        self.last_significant = bracket;
        Some((TextRange::new(value.start, quote + 1), bracket))
    }

    /// A tag pair from `open` to `close` with no string in it, read as a name and a value
    /// written without quotes or in quote look-alikes (`[Round 1]`, `[Event “Open”]`, as a word
    /// processor writes it): one error, whose fix writes the value as a string. The tag pair
    /// keeps its name and has no value. `false` (and nothing done) when the text between the
    /// brackets is not a name and more.
    fn value_without_quotes(&mut self, open: TextRange, close: TextRange) -> bool {
        let inner = &self.src[open.end as usize..close.start as usize];
        let name_start = inner.len() - inner.trim_start_matches([' ', '\t']).len();
        let name_len = tag_name_len(&inner.as_bytes()[name_start..]);
        let after_name = &inner[name_start + name_len..];
        let written = after_name.trim_matches([' ', '\t']);
        let value = strip_quote_lookalikes(written);
        if name_len == 0 || value.is_empty() || after_name.contains(['\n', '\r']) {
            return false;
        }
        let name =
            TextRange::new(open.end + name_start as u32, open.end + (name_start + name_len) as u32);
        let tag = Tag { range: open.cover(close), name, value: None };
        let shown = excerpt(&self.src[name]);
        let quoted = if written == value { "not quoted" } else { "not in straight double quotes" };
        let fixed = format!("[{} {}]", &self.src[name], escape_string(value));
        let fix = vec![TextEdit::new(tag.range, fixed.as_str())];
        let shown_fixed = excerpt(&fixed);
        self.push(
            Diagnostic::new(
                Code::MalformedTag,
                tag.range,
                format!("the value of tag {shown} is {quoted}: write {shown_fixed}"),
            )
            .with_fix(format!("Write {shown_fixed}"), fix),
        );
        self.check_duplicate_tag(&tag);
        self.game.tags.push(tag);
        true
    }

    /// Whether a `]` under the cursor, in the tag section, can only close the last tag pair
    /// again (`[White "A"]]`): a tag pair comes before it, with no comment between them.
    fn closes_last_tag(&self) -> bool {
        let tags = self.game.tags.len() as u32;
        tags > 0 && self.game.tag_notes.last().is_none_or(|note| note.after_tags < tags)
    }

    /// The `]`s under the cursor, which close the last tag pair again (`[White "A"]]`): they
    /// become part of it.
    #[cold]
    fn extra_closing_brackets(&mut self) {
        let mut extra = vec![self.bump().range];
        while self.tok().kind == TokenKind::RBracket {
            extra.push(self.bump().range);
        }
        let last = self.game.tags.len() - 1;
        let tag = &mut self.game.tags[last];
        tag.range = tag.range.cover(extra[extra.len() - 1]);
        self.extra_brackets(last, &extra);
    }

    /// The tag pair at `index` written with the `extra` brackets too (`[[White "A"]]`): one
    /// error, whose fix removes them. The tag pair keeps them, so that the game does not end
    /// at a stray `]` and its other tags still count.
    #[cold]
    fn extra_brackets(&mut self, index: usize, extra: &[TextRange]) {
        let tag = &self.game.tags[index];
        let name = tag.name(self.src);
        let pair = if name.is_empty() {
            "the tag pair".to_owned()
        } else {
            format!("tag pair {}", excerpt(name))
        };
        let opening =
            extra.iter().filter(|r| self.src.as_bytes()[r.start as usize] == b'[').count();
        let (what, place) = match (opening, extra.len() - opening) {
            (_, 0) => ("\"[\"", "before"),
            (0, _) => ("\"]\"", "after"),
            _ => ("brackets", "around"),
        };
        // A run of brackets is removed as one, so that what follows it is seen where the run
        // starts.
        let mut runs: Vec<TextRange> = Vec::new();
        for &r in extra {
            match runs.last_mut() {
                Some(run) if run.end == r.start => *run = run.cover(r),
                _ => runs.push(r),
            }
        }
        let fix = runs.into_iter().map(|r| self.removal(r)).collect();
        self.push(
            Diagnostic::new(Code::MalformedTag, tag.range, format!("extra {what} {place} {pair}"))
                .with_fix(format!("Remove the extra {what}"), fix),
        );
    }

    /// A tag whose name an earlier tag of the game has (`tag` has a valid name); remembers the
    /// first tag of each name.
    #[inline]
    fn check_duplicate_tag(&mut self, tag: &Tag) {
        let name = tag.name(self.src);
        if let Some(first) = self.first_tags.first_or_insert(name, tag.range) {
            self.duplicate_tag(tag, first);
        }
    }

    /// Report `tag`, whose name the tag at `first` has too. Rare, and kept out of line so that
    /// the check every tag pair takes stays short.
    #[cold]
    #[inline(never)]
    fn duplicate_tag(&mut self, tag: &Tag, first: TextRange) {
        let name = tag.name(self.src);
        let shown = excerpt(name);
        self.push(
            Diagnostic::new(
                Code::DuplicateTag,
                tag.range,
                format!("the tag {shown} appears twice in this game"),
            )
            .with_related(first, format!("first {shown} tag")),
        );
    }

    fn check_tag(
        &mut self,
        tag: &Tag,
        values: &[TextRange],
        extra: Option<TextRange>,
        closed: bool,
    ) {
        let name = tag.name(self.src);
        let shown = excerpt(name);
        if name.is_empty() {
            let message = if values.is_empty() {
                "empty tag pair: write [Name \"value\"]"
            } else {
                "tag pair without a name: write [Name \"value\"]"
            };
            self.error(Code::MalformedTag, tag.range, message);
        } else if tag_name_len(name.as_bytes()) < name.len() || name.starts_with('_') {
            self.error(
                Code::InvalidTagName,
                tag.name,
                format!(
                    "tag name \"{shown}\": a name holds only letters, digits and _, and starts \
                     with a letter or a digit (§7)"
                ),
            );
        } else {
            self.check_duplicate_tag(tag);
        }
        match values {
            // Without a name either: reported above.
            [] if name.is_empty() => {}
            [] => self.error(
                Code::MalformedTag,
                tag.range,
                format!("tag {shown} has no value: write [{shown} \"value\"]"),
            ),
            [_, second, ..] => self.error(
                Code::MalformedTag,
                TextRange::new(second.start, values.last().unwrap().end),
                format!("tag {shown} has more than one value"),
            ),
            [value] => self.check_tag_string(*value),
        }
        if let Some(extra) = extra {
            let text = self.quoted(extra);
            self.error(
                Code::MalformedTag,
                extra,
                format!("unexpected \"{text}\" in tag pair {shown}"),
            );
        }
        let string_open = values.last().is_some_and(|&v| !is_closed_string(self.text(v)));
        if !closed && !values.is_empty() && !string_open {
            let at = TextRange::new(tag.range.start, tag.range.end);
            let fix = TextEdit::new(TextRange::empty(tag.range.end), "]");
            self.push(
                Diagnostic::new(
                    Code::MalformedTag,
                    at,
                    format!("tag pair {shown} is missing its closing ]"),
                )
                .with_fix("Add ]", vec![fix]),
            );
        }
    }

    fn check_tag_string(&mut self, r: TextRange) {
        let raw = self.text(r);
        let closed = is_closed_string(raw);
        let inner = string_contents(raw);
        let mut stray_quote = false;
        if memchr::memchr2(b'\\', b'"', inner.as_bytes()).is_some() {
            let mut escaped = false;
            for b in inner.bytes() {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => stray_quote = true,
                    _ => {}
                }
            }
        }
        if !closed {
            let diagnostic =
                Diagnostic::new(Code::UnterminatedString, r, "string without its closing quote");
            // The string runs to the end of its line: a `]` that ends it most likely closes the
            // tag pair, and the quote goes before it (`[White "Carlsen, Magnus]`). A string that
            // is a quote and that `]` alone is more likely a value's closing quote, its opening
            // one missing (`[White Carlsen, Magnus"]`): no fix is certain then.
            let before_bracket = raw.trim_end_matches([' ', '\t']).strip_suffix(']');
            let fix = match before_bracket {
                Some("\"") => None,
                Some(before) => Some(r.start + before.len() as u32),
                None => Some(r.end),
            };
            self.push(match fix {
                Some(at) => diagnostic.with_fix(
                    "Add the closing quote",
                    vec![TextEdit::new(TextRange::empty(at), "\"")],
                ),
                None => diagnostic,
            });
        } else if stray_quote {
            // The escapes already written stay as they are: the value is read, then written.
            let escaped = escape_string(&unescape_string(raw));
            self.push(
                Diagnostic::new(
                    Code::MalformedTag,
                    r,
                    "unescaped quote inside a tag value: write it as \\\"",
                )
                .with_fix("Escape the quotes", vec![TextEdit::new(r, escaped)]),
            );
        }
        if let Some(at) = memchr::memchr2(b'\n', b'\r', inner.as_bytes()) {
            self.line_break_in_string(r, at);
        } else if inner.bytes().any(|b| b.is_ascii_control()) {
            self.control_characters_in_string(r, inner);
        }
        self.check_string_length(r);
    }

    /// A tag value at `r` whose contents run onto the next line from offset `at` in them
    /// ([`Parser::wrapped_value`]): the fix joins the two lines with a space.
    #[cold]
    fn line_break_in_string(&mut self, r: TextRange, at: usize) {
        let inner = &self.text(r)[1..];
        let blank = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
        let line_end = inner[..at].trim_end_matches(blank).len();
        let next_text = inner.len() - inner[at..].trim_start_matches(blank).len();
        let gap = TextRange::new(r.start + 1 + line_end as u32, r.start + 1 + next_text as u32);
        let message = "tag value running onto the next line (as an e-mail program wraps a long \
                       line): a string holds no line break (§7)";
        self.push(
            Diagnostic::new(Code::MalformedTag, r, message)
                .with_fix("Join the value's lines", vec![TextEdit::new(gap, " ")]),
        );
    }

    /// A tag value at `r` (its contents `inner`) holding a tab or another control character,
    /// which a string cannot hold (§7). A tab's fix writes a space; other control characters
    /// have no certain fix.
    #[cold]
    fn control_characters_in_string(&mut self, r: TextRange, inner: &str) {
        let Some(control) = inner.chars().find(|c| c.is_ascii_control() && *c != '\t') else {
            let fixed = self.text(r).replace('\t', " ");
            let message =
                "a tab inside a tag value, which a string cannot hold (§7): write a space";
            let fix = vec![TextEdit::new(r, fixed)];
            self.push(
                Diagnostic::new(Code::InvalidTagValue, r, message)
                    .with_fix("Write a space for each tab", fix),
            );
            return;
        };
        let message = format!(
            "a control character (U+{:04X}) inside a tag value, which a string cannot hold (§7)",
            u32::from(control)
        );
        self.push(Diagnostic::new(Code::InvalidTagValue, r, message));
    }

    /// A string token (quotes included, the closing one perhaps missing) longer than the
    /// import format allows (§7).
    #[inline]
    fn check_string_length(&mut self, r: TextRange) {
        if r.len() as usize > IMPORT_LIMIT {
            self.check_long_string(r);
        }
    }

    /// [`Parser::check_string_length`] for a token over the limit in bytes: whether its
    /// contents are over it in characters. Rare: out of line.
    #[cold]
    #[inline(never)]
    fn check_long_string(&mut self, r: TextRange) {
        if let Some(chars) = string_over_limit(self.text(r)) {
            self.error(
                Code::StringTooLong,
                r,
                format!("string of {chars} characters; the import format allows {IMPORT_LIMIT}"),
            );
        }
    }

    #[inline]
    fn check_comment(&mut self, t: Token) {
        // A comment token holds at least its `{`; bytes, as `}` is ASCII.
        if self.src.as_bytes()[t.range.end as usize - 1] != b'}' {
            self.unterminated_comment(t);
        }
    }

    /// A `{` comment without its `}`: it runs to the end of the text, or the lexer ended it
    /// before a line that reads as a tag pair, the point where a game starts afresh.
    #[cold]
    fn unterminated_comment(&mut self, t: Token) {
        let cut = self.src[t.range.end as usize..].starts_with(['\r', '\n']);
        let message = if cut {
            "comment without its closing } before a line that reads as a tag pair: such a line \
             starts a game, even in a comment"
        } else {
            "comment without its closing }"
        };
        self.error(
            Code::UnterminatedComment,
            TextRange::new(t.range.start, t.range.start + 1),
            message,
        );
    }

    /// A `{` comment of the movetext just consumed.
    #[inline]
    fn comment(&mut self, t: Token) {
        self.check_comment(t);
        self.push_node(NodeKind::Comment, t.range);
    }

    #[inline]
    fn push_node(&mut self, kind: NodeKind, range: TextRange) {
        self.game.nodes.push(Node { kind, range });
    }

    /// A token of the movetext. Moves, move numbers and comments before the termination
    /// marker, nearly every token of a file (engine output gives each move a comment), take a
    /// short way, inlined into the parser's loop; the others [`Parser::on_movetext_token`],
    /// kept out of line so that the loop stays small.
    #[inline(always)]
    fn on_movetext(&mut self, tok: Token) -> Step {
        if self.result_line_end.is_none() {
            match tok.kind {
                TokenKind::Symbol | TokenKind::MoveNumber => {
                    self.in_movetext = true;
                    let t = self.bump();
                    self.symbol_or_number(t);
                    return Step::Continue;
                }
                TokenKind::Comment | TokenKind::MultilineComment => {
                    self.in_movetext = true;
                    let t = self.bump();
                    self.comment(t);
                    return Step::Continue;
                }
                _ => {}
            }
        }
        self.on_movetext_token(tok)
    }

    #[inline(never)]
    fn on_movetext_token(&mut self, tok: Token) -> Step {
        if tok.kind == TokenKind::TagPair {
            // No tag pair belongs here: its parts are read one by one, from the `[`.
            self.split_tag_pair();
            return self.on_movetext(self.tok());
        }
        if let Some(line_end) = self.result_line_end {
            let comment = matches!(
                tok.kind,
                TokenKind::Comment
                    | TokenKind::MultilineComment
                    | TokenKind::LineComment
                    | TokenKind::Escape
            );
            if comment && tok.range.start > line_end && self.commentary_after_result.is_none() {
                let line_start = self.line_start_before(tok).unwrap_or(tok.range.start);
                self.commentary_after_result = Some(line_start);
            }
            if !comment && self.open.is_empty() {
                if tok.range.start > line_end {
                    let boundary = match self.commentary_after_result {
                        Some(line_start) => line_start,
                        None => self.boundary_before(tok),
                    };
                    // A `%` after other text on its line would open a game of its own as an
                    // escape line (§6), commentary, which never starts a game: it stays here.
                    let escape_at_start = boundary == tok.range.start
                        && self.src.as_bytes()[tok.range.start as usize] == b'%';
                    if !escape_at_start {
                        return Step::EndAt(boundary);
                    }
                }
                if !self.after_result_reported {
                    self.after_result_reported = true;
                    let text = self.quoted(tok.range);
                    self.error(
                        Code::UnexpectedToken,
                        tok.range,
                        format!("\"{text}\" after the termination marker: the game has ended"),
                    );
                }
            }
        }
        if !self.in_movetext
            && let Some(line_end) = self.strays_among_tags(tok)
        {
            self.stray_text_among_tags(line_end);
            return Step::Continue;
        }
        self.in_movetext = true;
        let t = self.bump();
        match t.kind {
            TokenKind::Symbol | TokenKind::MoveNumber => self.symbol_or_number(t),
            TokenKind::Dots => self.dots(t),
            TokenKind::NullMove => {
                self.count_move();
                self.push_node(NodeKind::NullMove, t.range);
            }
            TokenKind::Suffix => {
                self.check_annotated_move(t);
                self.push_node(NodeKind::Suffix, t.range)
            }
            TokenKind::Glyph => {
                if glyph_nag(self.text(t.range)).is_some_and(judges_move) {
                    self.check_annotated_move(t);
                }
                self.push_node(NodeKind::Glyph, t.range)
            }
            TokenKind::EnPassant => {
                let end = self.sign_after_mark(t.range.end);
                self.push_node(NodeKind::EnPassantMark, TextRange::new(t.range.start, end));
            }
            TokenKind::Nag => {
                let text = self.text(t.range);
                let digits = &text[1..];
                let value = digits.trim_start_matches('0');
                if value.len() > 3 || value.parse::<u32>().is_ok_and(|v| v > 255) {
                    self.error(
                        Code::NagOutOfRange,
                        t.range,
                        format!("{}: NAGs go from $0 to $255", excerpt(text)),
                    );
                } else if value.parse::<u8>().is_ok_and(judges_move) {
                    self.check_annotated_move(t);
                }
                self.push_node(NodeKind::Nag, t.range);
            }
            TokenKind::Comment | TokenKind::MultilineComment => self.comment(t),
            TokenKind::LineComment => self.push_node(NodeKind::LineComment, t.range),
            TokenKind::Escape => self.push_node(NodeKind::Escape, t.range),
            TokenKind::LParen => {
                if self.promotion_in_parentheses(t) {
                    return Step::Continue;
                }
                let (moves_before, inside_misplaced) = self.current_line();
                let misplaced = moves_before == 0;
                if misplaced && !inside_misplaced {
                    self.error(
                        Code::UnexpectedToken,
                        t.range,
                        "variation before the first move: a variation replaces the move before it",
                    );
                }
                self.open.push(OpenVariation { node: self.game.nodes.len(), moves: 0, misplaced });
                self.push_node(NodeKind::VariationStart, t.range);
            }
            TokenKind::RParen => match self.open.pop() {
                Some(v) => {
                    if v.moves == 0 {
                        self.empty_variation(v.node, t.range);
                    }
                    self.push_node(NodeKind::VariationEnd, t.range);
                }
                None => self.unexpected(t, "\")\" without a matching \"(\""),
            },
            TokenKind::Result => {
                let text = self.text(t.range);
                // A second marker after the game's is reported as text after its end, with no
                // fix of its form, which would leave two markers (`1/2 1/2`).
                let after_the_end = self.open.is_empty() && self.result_line_end.is_some();
                if !self.open.is_empty() {
                    let (node, diagnostic) = (self.game.nodes.len(), self.game.diagnostics.len());
                    let reported = self.push(Diagnostic::new(
                        Code::UnexpectedToken,
                        t.range,
                        format!("termination marker {text} inside a variation"),
                    ));
                    self.result_in_variation = Some((node, reported.then_some(diagnostic)));
                } else if self.result_line_end.is_none() {
                    let rest = &self.src.as_bytes()[t.range.end as usize..];
                    let line_end = memchr::memchr(b'\n', rest)
                        .map_or(self.src.len(), |i| t.range.end as usize + i);
                    self.result_line_end = Some(line_end as u32);
                }
                let standard = standard_marker(text);
                if !after_the_end && standard != text {
                    let outcome = match standard {
                        "1-0" => "a win by White",
                        "0-1" => "a win by Black",
                        _ => "a draw",
                    };
                    let fix = TextEdit::new(t.range, standard);
                    self.push(
                        Diagnostic::new(
                            Code::NonStandardResult,
                            t.range,
                            format!("{text}: the standard marker for {outcome} is {standard}"),
                        )
                        .with_fix(format!("Write {standard}"), vec![fix]),
                    );
                }
                self.push_node(NodeKind::Result, t.range);
            }
            TokenKind::RBracket => self.unexpected(t, "\"]\" outside a tag pair"),
            TokenKind::LBracket => self.unexpected(
                t,
                "\"[\" in the movetext: tag pairs go before the moves, one per line",
            ),
            TokenKind::RBrace => {
                // `{a {b} c}`: the comment ended at its first `}` (§5 has no nesting). The
                // first stray `}` after such a comment says so.
                let comment = (self.game.nodes.iter().rev())
                    .take_while(|n| n.kind != NodeKind::Unexpected)
                    .find(|n| n.kind == NodeKind::Comment);
                let message = if comment.is_some_and(|n| self.text(n.range)[1..].contains('{')) {
                    "\"}\" without a matching \"{\": comments do not nest, and the one before \
                     ended at its first \"}\""
                } else {
                    "\"}\" without a matching \"{\""
                };
                self.unexpected(t, message)
            }
            TokenKind::String => {
                self.unexpected(t, "a string in the movetext: strings belong in tag pairs")
            }
            TokenKind::Reserved => self.unexpected(t, "\"<\" and \">\" are reserved (§7)"),
            TokenKind::Unknown => {
                let mut t = t;
                while let next = self.tok()
                    && next.kind == TokenKind::Unknown
                    && next.range.start == t.range.end
                {
                    t.range.end = self.bump().range.end;
                }
                match entity::references(self.text(t.range)) {
                    0 => {
                        let msg = format!("unexpected \"{}\"", self.quoted(t.range));
                        self.unexpected(t, &msg)
                    }
                    1 => self.html_entity(t),
                    _ => {
                        let msg = format!(
                            "\"{}\" are HTML character references, which PGN does not read",
                            self.quoted(t.range)
                        );
                        self.unexpected(t, &msg)
                    }
                }
            }
            TokenKind::Whitespace | TokenKind::Eof | TokenKind::TagPair => {
                unreachable!("whitespace, the end and tag-pair tokens are handled before")
            }
            TokenKind::TagPairBlank
            | TokenKind::MoveNumberBlank
            | TokenKind::ResultBlank
            | TokenKind::SymbolBlank => unreachable!("the lexer gives these kinds without blank"),
        }
        Step::Continue
    }

    /// A symbol or a move number just consumed: a move number (digits, with periods or not), a
    /// null move `Z0` or `0000`, a glyph written as letters, `ep` (`ep+`, `ep#`: with the sign of
    /// the move before it), or a move.
    #[inline(always)]
    fn symbol_or_number(&mut self, t: Token) {
        // Moves, nearly every symbol, start with a letter and are longer than two characters:
        // the whole text is looked at only when the first byte or the length says it may be
        // something else (three characters from `e` may be an `ep` mark with the sign of the
        // move before it, `exd6 ep+`, rather than a pawn move, `e4+`).
        let bytes = self.src.as_bytes();
        let text = || &bytes[t.range.start as usize..t.range.end as usize];
        let digits = || {
            bytes[t.range.start as usize].is_ascii_digit() && text().iter().all(u8::is_ascii_digit)
        };
        if t.kind == TokenKind::MoveNumber || digits() {
            // UCI's null move, as python-chess reads it; no move number has leading zeros.
            if t.kind != TokenKind::MoveNumber && text() == b"0000" {
                self.count_move();
                return self.push_node(NodeKind::NullMove, t.range);
            }
            return self.move_number(t);
        }
        let len = t.range.len();
        let kind = if len > 3 || len == 3 && bytes[t.range.start as usize] != b'e' {
            NodeKind::Move
        } else {
            match text() {
                b"Z0" => NodeKind::NullMove,
                b"N" | b"TN" | b"RR" => NodeKind::Glyph,
                b"ep" | b"ep+" | b"ep#" => NodeKind::EnPassantMark,
                _ => NodeKind::Move,
            }
        };
        if matches!(kind, NodeKind::Move | NodeKind::NullMove) {
            self.count_move();
        }
        self.push_node(kind, t.range);
    }

    /// Periods on their own: a move number's (`1. ... e5`), or the first of an `e.p.` mark glued
    /// to its move (`exd6e.p.`), which the lexer reads as the symbol `exd6e` and then `.`, `p`
    /// and `.`: the move is then the symbol but its last letter, and the mark that letter and
    /// the three tokens (and a sign after them: [`Parser::sign_after_mark`]). Periods are rare
    /// in movetext, so the move's text is tested here.
    fn dots(&mut self, t: Token) {
        let bytes = self.src.as_bytes();
        let mark_end = t.range.end as usize + 2;
        let glued = match self.game.nodes.last() {
            Some(last) => {
                last.kind == NodeKind::Move
                    && last.range.end == t.range.start
                    && last.range.len() > 2
                    && bytes[last.range.end as usize - 1] == b'e'
                    && bytes[t.range.start as usize..].starts_with(b".p.")
                    // More periods would make the last token longer (`exd6e.p..`).
                    && bytes.get(mark_end) != Some(&b'.')
            }
            None => false,
        };
        if !glued {
            return self.push_node(NodeKind::MoveNumber, t.range);
        }
        let last = self.game.nodes.len() - 1;
        let mark_start = self.game.nodes[last].range.end - 1;
        self.game.nodes[last].range.end = mark_start;
        while (self.tok().range.start as usize) < mark_end {
            self.bump();
        }
        let mark_end = self.sign_after_mark(mark_end as u32);
        self.push_node(NodeKind::EnPassantMark, TextRange::new(mark_start, mark_end));
    }

    /// The end of an `e.p.` mark that ends at `end`, taking in a check or mate sign right after
    /// it (`exd6 e.p.+`, the sign of the move before the mark), which the lexer reads as a
    /// token of its own (`Unknown`: no other token starts with `+` or `#` alone).
    fn sign_after_mark(&mut self, end: u32) -> u32 {
        let next = self.tok();
        let sign = next.kind == TokenKind::Unknown
            && next.range.start == end
            && matches!(self.text(next.range), "+" | "#");
        if sign { self.bump().range.end } else { end }
    }

    /// A `(` (`t`, just consumed) glued to a pawn move to the last rank, with a piece letter
    /// (`Q`, `R`, `B` or `N`, in either case, as `a8q` is read) and `)` right after it
    /// (`exf8(Q)`, `a1(n)`): the promotion piece as some old software writes it, not a
    /// variation. The lexer reads `exf8`, `(`, `Q` and `)`; the move is then the four, and a
    /// check or mate sign glued after them (`exf8(Q)+`, where `+` and `#` are no tokens of
    /// their own), for the chess layer to read as `exf8=Q+`. Returns whether it was so.
    /// Parentheses are rare in movetext, so the move's text is tested here, as in
    /// [`Parser::dots`].
    fn promotion_in_parentheses(&mut self, t: Token) -> bool {
        let bytes = self.src.as_bytes();
        let after = t.range.end as usize;
        let glued = match self.game.nodes.last() {
            Some(last) => {
                last.kind == NodeKind::Move
                    && last.range.end == t.range.start
                    && matches!(bytes[last.range.start as usize], b'a'..=b'h')
                    && matches!(bytes[t.range.start as usize - 1], b'1' | b'8')
                    && matches!(
                        bytes.get(after..after + 2),
                        Some([b'Q' | b'R' | b'B' | b'N' | b'q' | b'r' | b'b' | b'n', b')'])
                    )
            }
            None => false,
        };
        if !glued {
            return false;
        }
        let mut end = after as u32 + 2;
        // The piece letter and `)`.
        while self.tok().range.start < end {
            self.bump();
        }
        while let next = self.tok()
            && next.kind == TokenKind::Unknown
            && next.range.start == end
            && matches!(self.text(next.range), "+" | "#")
        {
            end = self.bump().range.end;
        }
        let last = self.game.nodes.len() - 1;
        self.game.nodes[last].range.end = end;
        true
    }

    /// An HTML character reference in the movetext (`&plusmn;`): an error, with the glyph it
    /// stands for as the fix when it stands for one.
    #[cold]
    fn html_entity(&mut self, t: Token) {
        let text = self.text(t.range);
        let annotation = entity::annotation(text);
        let mut message =
            format!("\"{text}\" is an HTML character reference, which PGN does not read");
        if let Some(annotation) = &annotation {
            message.push_str(&format!(": write {annotation}"));
        }
        let mut d = Diagnostic::new(Code::UnexpectedToken, t.range, message);
        if let Some(annotation) = annotation {
            let fix = vec![TextEdit::new(t.range, annotation.as_str())];
            d = d.with_fix(format!("Write {annotation}"), fix);
        }
        self.report_unexpected(d);
    }

    fn unexpected(&mut self, t: Token, message: &str) {
        self.report_unexpected(Diagnostic::new(Code::UnexpectedToken, t.range, message));
    }

    /// Report `d`, about a token that belongs nowhere, and keep the token as such.
    fn report_unexpected(&mut self, d: Diagnostic) {
        let range = d.range;
        // A token already reported (as text after the termination marker) is not reported twice.
        let reported = self.game.diagnostics.last().is_some_and(|last| last.range == range);
        if !reported {
            self.push(d);
        }
        self.push_node(NodeKind::Unexpected, range);
    }

    /// Report a move annotation (`!`, `?`, `$1` to `$9`) that stands before the first move of
    /// its line, the game's or a variation's: no move was just played for it to judge (§10).
    /// One after a move number (`2. $1 Nf3`) judges the move before the number.
    #[cold]
    fn check_annotated_move(&mut self, t: Token) {
        let (moves, misplaced) = self.current_line();
        if moves > 0 || misplaced {
            return;
        }
        let line = if self.open.is_empty() { "the game" } else { "its variation" };
        let message = format!(
            "\"{}\" annotates no move: it stands before the first move of {line}, and a move \
             annotation follows the move it judges",
            self.quoted(t.range)
        );
        self.error(Code::AnnotationWithoutMove, t.range, message);
    }

    /// The moves so far of the line being read (the innermost open variation's, else the
    /// game's), and whether it is a variation opened before the first move (reported once).
    fn current_line(&self) -> (u32, bool) {
        self.open.last().map_or((self.top_moves, false), |v| (v.moves, v.misplaced))
    }

    fn count_move(&mut self) {
        match self.open.last_mut() {
            Some(v) => v.moves += 1,
            None => self.top_moves += 1,
        }
    }

    /// A move number: digits with or without periods, then perhaps periods after blanks on
    /// the same line (`1. ... e5`, `1 . e4`).
    #[inline(always)]
    fn move_number(&mut self, first: Token) {
        let mut range = first.range;
        let next = self.tok();
        if next.kind == TokenKind::Dots
            && !self.src[range.end as usize..next.range.start as usize].contains(['\n', '\r'])
        {
            range = range.cover(self.bump().range);
        }
        self.push_node(NodeKind::MoveNumber, range);
    }

    fn finish(mut self, end: u32) -> Game {
        let content_end = self.last_significant.end.min(end);
        // What a fix adds after a `;` comment, a `%` escape (§5, §6) or a string without its
        // closing quote, which run to the end of their line, goes on a line of its own.
        let own_line = self.runs_to_line_end(content_end);
        let comment_ate_rest =
            self.game.diagnostics.iter().any(|d| d.code == Code::UnterminatedComment);
        self.close_open_variations(content_end, own_line, comment_ate_rest);
        let has_content = self.in_movetext || !self.game.tags.is_empty();
        if self.result_line_end.is_none() && self.open.is_empty() {
            self.split_glued_marker();
        }
        if has_content && self.result_line_end.is_none() && !comment_ate_rest {
            let marker = self.game.missing_marker(self.src);
            let anchor = self
                .game
                .nodes
                .iter()
                .rev()
                .find(|n| matches!(n.kind, NodeKind::Move | NodeKind::NullMove))
                .map(|n| n.range)
                .or_else(|| self.game.tags.last().map(|t| t.range))
                .unwrap_or(TextRange::empty(content_end));
            let mut diagnostic = Diagnostic::new(
                Code::MissingResult,
                anchor,
                "the game has no termination marker (1-0, 0-1, 1/2-1/2 or *)",
            );
            // After a broken tag pair a marker would be read as part of it: no fix.
            let broken_tag_last = !self.in_movetext
                && self
                    .game
                    .diagnostics
                    .iter()
                    .any(|d| d.code == Code::MalformedTag && d.range.end >= content_end);
            if !broken_tag_last {
                let fix = if self.in_movetext {
                    let separator = if own_line { '\n' } else { ' ' };
                    TextEdit::new(TextRange::empty(content_end), format!("{separator}{marker}"))
                } else {
                    self.marker_after_tags(content_end, end, marker)
                };
                diagnostic = diagnostic.with_fix(format!("Add {marker}"), vec![fix]);
            }
            self.push(diagnostic);
        }
        self.game.len = end;
        let line_lengths = std::mem::take(&mut self.line_lengths);
        if let Some(long_lines) = line_lengths.finish(self.src, self.last_significant.end, end) {
            self.push(long_lines);
        }
        let summaries = std::mem::take(&mut self.limit).summaries();
        self.game.diagnostics.extend(summaries);
        self.game
    }

    /// A game that ends in a move with its termination marker glued on, `Qxf7#1-0` (one symbol
    /// by §7, which python-chess and others read as the move and the marker): the move's node
    /// gives its last three bytes to a marker node, reported as a marker of a non-standard form
    /// whose fix puts a space between them. Only the last move of the main line, after which
    /// nothing but commentary follows, is split; anywhere else the symbol stays a move the
    /// chess layer cannot read.
    #[cold]
    fn split_glued_marker(&mut self) {
        let commentary = |kind| {
            matches!(
                kind,
                NodeKind::Comment
                    | NodeKind::LineComment
                    | NodeKind::Escape
                    | NodeKind::Nag
                    | NodeKind::Suffix
                    | NodeKind::Glyph
            )
        };
        let Some(last) = self.game.nodes.iter().rposition(|n| !commentary(n.kind)) else {
            return;
        };
        let node = self.game.nodes[last];
        let text = self.text(node.range);
        let Some(mv) = text.strip_suffix("1-0").or_else(|| text.strip_suffix("0-1")) else {
            return;
        };
        if node.kind != NodeKind::Move || mv.len() < 2 || mv.ends_with('-') {
            return;
        }
        let split = node.range.start + mv.len() as u32;
        let marker = TextRange::new(split, node.range.end);
        self.game.nodes[last].range.end = split;
        self.game.nodes.insert(last + 1, Node { kind: NodeKind::Result, range: marker });
        self.result_line_end = Some(node.range.end);
        let message = format!(
            "{}: the termination marker is joined to the move; a space goes between them",
            self.quoted(node.range)
        );
        let fix = TextEdit::new(TextRange::empty(split), " ");
        self.push(
            Diagnostic::new(Code::NonStandardResult, marker, message)
                .with_fix("Put a space before the termination marker", vec![fix]),
        );
    }

    /// The insertion of `marker` into a game of tags alone whose last one ends at
    /// `content_end`: on a line of its own after an empty line (§8.1), at the start of the
    /// line after the tags, where missing tags would go too. The two fixes then collide, and a
    /// fix-all adds the tags first and the marker in its next round, after them; put on the
    /// last tag's line, the marker would come before the added tags, which would then start a
    /// game of their own.
    fn marker_after_tags(&self, content_end: u32, end: u32, marker: &str) -> TextEdit {
        let rest = &self.src.as_bytes()[content_end as usize..end as usize];
        match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let next_line = TextRange::empty(content_end + i as u32 + 1);
                TextEdit::new(next_line, format!("\n{marker}\n"))
            }
            None => TextEdit::new(TextRange::empty(content_end), format!("\n\n{marker}")),
        }
    }

    /// A variation without moves, from its start node to its `)` at `close`. The fix removes
    /// it, but never a comment: a variation holding only comments gives way to them, and one
    /// holding anything else (a NAG, a `;` comment, a number such as the `3` of `(3)`, which
    /// the replay reports as numbering no move) has no certain fix.
    #[cold]
    fn empty_variation(&mut self, start_node: usize, close: TextRange) {
        let range = TextRange::new(self.game.nodes[start_node].range.start, close.end);
        let inside = &self.game.nodes[start_node + 1..];
        let removable = |kind| matches!(kind, NodeKind::VariationStart | NodeKind::VariationEnd);
        let comments: Vec<&str> = inside
            .iter()
            .filter(|n| n.kind == NodeKind::Comment)
            .map(|n| &self.src[n.range])
            .collect();
        let diagnostic = if !inside.iter().all(|n| n.kind == NodeKind::Comment || removable(n.kind))
        {
            Diagnostic::new(Code::EmptyVariation, range, "variation without moves")
        } else if comments.is_empty() {
            let fix = vec![self.removal(range)];
            Diagnostic::new(Code::EmptyVariation, range, "empty variation")
                .with_fix("Remove the empty variation", fix)
        } else {
            let title = match comments.len() {
                1 => "Keep the comment, remove the variation",
                _ => "Keep the comments, remove the variation",
            };
            let fix = vec![TextEdit::new(range, comments.join(" "))];
            Diagnostic::new(Code::EmptyVariation, range, "variation without moves")
                .with_fix(title, fix)
        };
        self.push(diagnostic);
    }

    /// An edit removing `range`, which leaves a space where the text on both sides would
    /// otherwise join (`e5()2.` is not `e52.`) or where a `%` would come first on its line:
    /// it would start an escape line (§6), which hides the rest of the line.
    fn removal(&self, range: TextRange) -> TextEdit {
        let before = self.src[..range.start as usize].chars().next_back();
        let after = self.src[range.end as usize..].chars().next();
        let joins = |c: char| !c.is_whitespace() && !matches!(c, '(' | ')' | '{' | '}' | '[' | ']');
        let glued = before.is_some_and(joins) && after.is_some_and(joins);
        let escapes =
            after == Some('%') && at_line_start(self.src.as_bytes(), range.start as usize);
        TextEdit::new(range, if glued || escapes { " " } else { "" })
    }

    /// Whether the game's last token, ending at `content_end`, runs to the end of its line: a
    /// `;` comment, a `%` escape, a string without its closing quote.
    fn runs_to_line_end(&self, content_end: u32) -> bool {
        let last = self.last_significant;
        let text = &self.src[last];
        last.end == content_end
            && (text.starts_with([';', '%']) || text.starts_with('"') && !is_closed_string(text))
    }

    /// Close the variations left open at the game's end. When the game's last node is a
    /// termination marker inside them, the marker is the game's result and the variations end
    /// before it; otherwise they end after the last token (on a line of their own after a
    /// token that runs to the end of its line, with `own_line`), and the fix adds the missing
    /// marker after them too: the two repairs of the game's end are one edit, which makes
    /// both, where two insertions at one place would be left to two runs of a fix-all. After an
    /// unterminated comment (`comment_ate_rest`) there is no fix: what it adds would be inside
    /// the comment.
    fn close_open_variations(&mut self, content_end: u32, own_line: bool, comment_ate_rest: bool) {
        if self.open.is_empty() {
            return;
        }
        let trailing_result = self.result_in_variation.filter(|&(node, _)| {
            self.game.nodes[node + 1..].iter().all(|n| {
                matches!(n.kind, NodeKind::Comment | NodeKind::LineComment | NodeKind::Escape)
            })
        });
        let close_at = match trailing_result {
            Some((node, diagnostic)) => {
                if let Some(diagnostic) = diagnostic {
                    self.game.diagnostics.remove(diagnostic);
                }
                self.result_line_end = Some(content_end);
                self.game.nodes[node].range.start
            }
            None => content_end,
        };
        let insert_at = trailing_result.map_or(self.game.nodes.len(), |(node, _)| node);
        // One diagnostic for all of them, at the outermost, however deep the nesting.
        let count = self.open.len();
        let outermost = self.game.nodes[self.open[0].node].range;
        let mut closing = ")".repeat(count);
        let mut title =
            if count == 1 { "Close the variation" } else { "Close the variations" }.to_owned();
        if trailing_result.is_some() {
            closing.push(' ');
        } else {
            if own_line {
                closing.insert(0, '\n');
            }
            if self.result_line_end.is_none() {
                let marker = self.game.missing_marker(self.src);
                closing = format!("{closing} {marker}");
                title = format!("{title} and add {marker}");
            }
        }
        let message = match count {
            1 => "variation without its closing \")\"".to_owned(),
            n => format!("{n} variations without their closing \")\""),
        };
        let mut diagnostic = Diagnostic::new(Code::UnclosedVariation, outermost, message);
        if !comment_ate_rest {
            diagnostic = diagnostic
                .with_fix(title, vec![TextEdit::new(TextRange::empty(close_at), closing)]);
        }
        self.push(diagnostic);
        let end = Node { kind: NodeKind::VariationEnd, range: TextRange::empty(close_at) };
        self.game.nodes.splice(insert_at..insert_at, std::iter::repeat_n(end, count));
        self.open.clear();
    }
}

/// The name and the value (with its quotes) of a tag-pair token `[Name "value"]`.
struct PlainTagPair {
    name: TextRange,
    value: TextRange,
}

impl PlainTagPair {
    fn of(range: TextRange, src: &str) -> PlainTagPair {
        // The first space ends the name (the value may hold more).
        let text = &src.as_bytes()[range.start as usize..range.end as usize];
        let space = first_space(text).expect("a tag-pair token has a space");
        let space = range.start + space as u32;
        PlainTagPair {
            name: TextRange::new(range.start + 1, space),
            value: TextRange::new(space + 1, range.end - 1),
        }
    }
}

/// `text` without the quote look-alikes around it (`“Open”`, `'Open'`, `&quot;Open&quot;`).
fn strip_quote_lookalikes(text: &str) -> &str {
    const QUOTES: [char; 11] = ['“', '”', '„', '«', '»', '‹', '›', '‘', '’', '\'', '＂'];
    let text = text.strip_prefix("&quot;").and_then(|t| t.strip_suffix("&quot;")).unwrap_or(text);
    let text = text.strip_prefix(QUOTES).unwrap_or(text);
    text.strip_suffix(QUOTES).unwrap_or(text).trim_matches([' ', '\t'])
}

/// How many characters of data the string token `raw` holds between its quotes, when they are
/// more than the import format's 255 (§7); `None` when they are not. An escaped quote or
/// backslash (`\"`, `\\`) is one character of data.
fn string_over_limit(raw: &str) -> Option<usize> {
    let inner = string_contents(raw);
    // The data has no more characters than the contents have bytes.
    if inner.len() <= IMPORT_LIMIT {
        return None;
    }
    let chars = char_count(inner) - escapes(inner);
    (chars > IMPORT_LIMIT).then_some(chars)
}

/// How many escapes (`\"`, `\\`: two characters standing for one, §7) the contents of a string
/// token hold. A backslash before any other character stands for itself.
fn escapes(inner: &str) -> usize {
    let bytes = inner.as_bytes();
    let (mut count, mut from) = (0, 0);
    while let Some(found) = memchr::memchr(b'\\', &bytes[from..]) {
        let backslash = from + found;
        let escape = matches!(bytes.get(backslash + 1), Some(b'"' | b'\\'));
        count += usize::from(escape);
        from = backslash + 1 + usize::from(escape);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string-length limit counts a string's data (§7): an escaped quote or backslash is
    /// one character, a backslash before anything else one too, as is each letter after it.
    #[test]
    fn the_string_limit_counts_characters_of_data() {
        let a = |n| "a".repeat(n);
        for (data, value) in [
            (255, a(255)),
            (256, a(256)),
            (255, format!("{}\\\"\\\\", a(253))),
            (256, format!("{}\\\"\\\\", a(254))),
            (255, format!("\\\"{}\\\"", a(253))),
            (256, format!("é\\\\{}\\\"", a(253))),
            (255, format!("\\x{}", a(253))),
            (256, format!("\\x{}", a(254))),
        ] {
            let text = format!("[Annotator \"{value}\"]\n\n*\n");
            let game = parse_game(&text);
            let told: Vec<&str> = game
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::StringTooLong)
                .map(|d| d.message.as_str())
                .collect();
            let expected = format!("string of {data} characters; the import format allows 255");
            let expected: Vec<&str> = if data > 255 { vec![&expected] } else { vec![] };
            assert_eq!(told, expected, "{value}");
        }
    }

    #[test]
    fn a_held_token_gives_back_the_token_it_holds() {
        for (start, end) in [(0, 0), (3, 7), (0, u32::MAX), (u32::MAX, u32::MAX)] {
            let token = Token { kind: TokenKind::Symbol, range: TextRange::new(start, end) };
            assert_eq!(HeldToken::new(token).get(), token);
        }
    }
}
