//! The lexer's fast path: the plain tokens of 64 bytes at a time, found together from bit masks
//! of the bytes' classes. In movetext: moves, move numbers, `1-0` and `0-1` (and `1:0`, `0:1`),
//! parentheses; in tag sections: tag pairs written plainly (`[Name "value"]`).
//!
//! A token-at-a-time lexer finds each token's end from the bytes where the token before it
//! ended: one chain of dependent loads and a mispredicted loop exit a token, which held logos
//! to about 600 MB/s on TWIC files. Here every token start of a block is a bit of one mask
//! (a symbol byte after a byte that is none, a parenthesis) and every token's last byte a bit
//! of another, paired in order, so the tokens of a block do not wait for one another; a tag
//! pair's closing quote is the first quote after its opening one.
//!
//! Only tokens whose kind and end the masks settle are taken (see [`Queue::fill`] and
//! [`Queue::fill_tags`]); at the first byte that is no blank, symbol byte, period or
//! parenthesis (a comment, a NAG, a non-ASCII character...), the first token that could be
//! something else (`e.p.`, a glyph such as `+-`, periods on their own) or the first `[` that
//! starts no plain tag pair the block shows whole, the block stops, and the lexer reads on from
//! there (a comment by itself, anything else with logos). Which tokens come out is therefore
//! exactly what logos gives for the same bytes (a property test compares the two on random
//! text).

use super::lexer::{Token, TokenKind};
use crate::text::TextRange;

/// The bytes one fill looks at.
pub const BLOCK: usize = 64;

/// Tokens found in one block, handed out in order. Ranges are kept as one word each (start in
/// the low half), kinds apart: a token written a field at a time and read back soon after as
/// a whole would wait for the stores (see `HeldToken` in the parser).
#[derive(Clone)]
pub struct Queue {
    ranges: [u64; BLOCK],
    kinds: [TokenKind; BLOCK],
    next: usize,
    len: usize,
}

impl Default for Queue {
    fn default() -> Self {
        Queue { ranges: [0; BLOCK], kinds: [TokenKind::Eof; BLOCK], next: 0, len: 0 }
    }
}

/// The classes of the bytes of a block, one bit per byte (bit `i` for byte `i`).
#[derive(Debug, Default, PartialEq, Eq)]
struct Classes {
    /// Bytes of none of the classes below and no ASCII whitespace (space, tab, line feed,
    /// vertical tab, form feed, carriage return), which the lexer skips; and every byte past
    /// the sixteen that hold the first of them, which are left unclassified (see [`classify`]).
    other: u64,
    /// Bytes that continue a symbol (§7): letters, digits, `_+#=:-@`.
    symbol: u64,
    /// Those of them that cannot start one: `_+#=:-`.
    inner: u64,
    digit: u64,
    dot: u64,
    paren: u64,
}

impl Queue {
    /// The next token found, if any is left.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Token> {
        if self.next == self.len {
            return None;
        }
        let (kind, range) = (self.kinds[self.next], self.ranges[self.next]);
        self.next += 1;
        Some(Token { kind, range: TextRange::new(range as u32, (range >> 32) as u32) })
    }

    /// Find the tokens of `bytes[at..at + BLOCK]`, where `at` is a token boundary (no token
    /// starts before it and ends after it), and return where lexing goes on: at the first token
    /// not taken, or at the first byte past the last token taken that is neither blank nor
    /// part of a token (then nothing was taken before it but tokens and blanks).
    ///
    /// A token is taken when the block shows its whole extent and its kind:
    /// - a parenthesis;
    /// - a run of symbol bytes starting with a letter or `@`, followed by a blank or a
    ///   parenthesis: a symbol (nothing else starts with a letter and holds only these bytes;
    ///   `e.p.` holds periods);
    /// - the same starting with a digit: `1-0` and `0-1` are results (§8.2.6, which logos
    ///   prefers by priority), as are `1:0` and `0:1` (read with a warning), anything else a
    ///   symbol;
    /// - digits followed by periods and then any other byte in the block: a move number
    ///   (§8.2.2).
    ///
    /// The block stops at the first byte of no class, at the first run of symbol bytes that
    /// starts with one that cannot start a symbol (a glyph such as `+-`, the null move `--`),
    /// and at the first periods that follow no symbol byte.
    pub fn fill(&mut self, bytes: &[u8], at: usize) -> usize {
        let block: &[u8; BLOCK] = bytes[at..at + BLOCK].try_into().expect("a whole block");
        let c = classify(block);
        let symbol_starts = c.symbol & !(c.symbol << 1);
        let lone_dots = c.dot & !(c.dot << 1) & !(c.symbol << 1);
        let limit = (c.other | symbol_starts & c.inner | lone_dots).trailing_zeros() as usize;
        let mut starts = (symbol_starts | c.paren) & below(limit);
        // Each token's last byte, found for all tokens at once, so that a token's end does not
        // wait for its start: a symbol byte goes on into a symbol byte, a symbol byte or a
        // period into a period (before `limit` every run of periods follows a symbol byte). A
        // run that reaches the block's last byte may go on past it: it gets no end here.
        let word = c.symbol | c.dot;
        let goes_on = c.symbol & c.symbol >> 1 | word & c.dot >> 1;
        let mut ends = word & !goes_on & below(BLOCK - 1) | c.paren;
        let letters = c.symbol & !c.digit;
        let mut found = 0;
        let resume = loop {
            if starts == 0 {
                break at + limit;
            }
            // Starts and ends come in pairs, in order: the token at `s` ends at `last`, or
            // past the block when no end is left (`last` is 64).
            let s = starts.trailing_zeros() as usize;
            let last = ends.trailing_zeros() as usize;
            starts &= starts - 1;
            ends &= ends.wrapping_sub(1);
            let kind = if c.paren >> s & 1 != 0 {
                if block[s] == b'(' { TokenKind::LParen } else { TokenKind::RParen }
            } else if last >= BLOCK {
                break at + s;
            } else if c.dot >> last & 1 != 0 {
                // Digits and periods: a move number; a period after anything else is not
                // for the blocks to judge (`e.p.`, `e4.`).
                if letters & span(s, last) != 0 {
                    break at + s;
                }
                TokenKind::MoveNumber
            } else if last + 1 >= limit {
                // What follows the symbol may still be part of it (`O–O`).
                break at + s;
            } else if c.digit >> s & 1 != 0
                && matches!(&block[s..=last], b"1-0" | b"0-1" | b"1:0" | b"0:1")
            {
                TokenKind::Result
            } else {
                TokenKind::Symbol
            };
            self.put(found, kind, at + s, at + last + 1);
            found += 1;
        };
        self.next = 0;
        self.len = found;
        resume
    }

    /// Find the tag pairs written plainly (`TokenKind::TagPair`) that follow one another from
    /// `bytes[at]`, a `[`, in `bytes[at..at + BLOCK]`, and return where lexing goes on: past the
    /// last one and the blanks after it, or at the first `[` that starts none the block shows
    /// whole (then logos reads it).
    ///
    /// A tag pair is `[`, a name of letters, digits and `_` that starts with a letter or a
    /// digit, one space, `"`, a value without `"`, `\` or line breaks, `"` and `]`: the
    /// closing quote is the first after the opening one, so the masks settle each pair without
    /// looking at its bytes one by one. Tag sections are two fifths of a TWIC file.
    pub fn fill_tags(&mut self, bytes: &[u8], at: usize) -> usize {
        let block: &[u8; BLOCK] = bytes[at..at + BLOCK].try_into().expect("a whole block");
        let c = classify_tags(block);
        let mut found = 0;
        let mut pos = 0;
        // A pair takes seven bytes at least (`[a ""]`): none starts in the last six, and
        // `pos + 1` stays a bit of the masks.
        while pos < BLOCK - 6 && block[pos] == b'[' && c.name_start >> (pos + 1) & 1 != 0 {
            let name_end = pos + 1 + (!c.name >> (pos + 1)).trailing_zeros() as usize;
            let value = name_end + 2;
            if value >= BLOCK || block[name_end] != b' ' || block[name_end + 1] != b'"' {
                break;
            }
            let closing = value + (c.quote >> value).trailing_zeros() as usize;
            let end = closing + 2;
            if end > BLOCK
                || block[closing + 1] != b']'
                || c.unsafe_in_value & span(value, closing) != 0
            {
                break;
            }
            self.put(found, TokenKind::TagPair, at + pos, at + end);
            found += 1;
            // Past the blanks after it; `end` may be the block's end.
            pos = end + (!c.blank).checked_shr(end as u32).unwrap_or(0).trailing_zeros() as usize;
        }
        self.next = 0;
        self.len = found;
        at + pos.min(BLOCK)
    }

    /// Keep token number `n` of a fill: its kind, and its range as one word.
    #[inline(always)]
    fn put(&mut self, n: usize, kind: TokenKind, start: usize, end: usize) {
        // At most one token a byte: `n` stays below `BLOCK`.
        self.kinds[n % BLOCK] = kind;
        self.ranges[n % BLOCK] = start as u64 | (end as u64) << 32;
    }
}

/// The bits below bit `n` (all of them for 64).
#[inline(always)]
fn below(n: usize) -> u64 {
    if n >= 64 { !0 } else { (1 << n) - 1 }
}

/// The bits from bit `from` up to, not including, bit `to`.
#[inline(always)]
fn span(from: usize, to: usize) -> u64 {
    below(to) & !below(from)
}

/// The byte classes of `block`, sixteen bytes at a time, up to the end of the first sixteen
/// bytes that hold a byte of no class: the block stops there anyway, and the bytes after it are
/// left without a class (as if of none), which spares the work where comments come often, as
/// after every move of an engine game.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify(block: &[u8; BLOCK]) -> Classes {
    use sse2::{eq, mask, or, within};
    let mut c = Classes::default();
    for i in 0..BLOCK / 16 {
        let v = sse2::load(block, i);
        let blank = sse2::blank(v);
        let digit = within(v, b'0', b'9');
        // Letters and `@`, which `| 0x20` moves to `a`..`z` and `` ` `` (itself no letter).
        let letter = sse2::and_not(eq(v, b'`'), within(sse2::or_byte(v, 0x20), b'`', b'z'));
        let inner = or(
            or(eq(v, b':'), eq(v, b'_')),
            or(or(eq(v, b'+'), eq(v, b'#')), or(eq(v, b'='), eq(v, b'-'))),
        );
        let symbol = or(or(letter, digit), inner);
        let dot = eq(v, b'.');
        let paren = within(v, b'(', b')');
        let in_place = |m| mask(m) << (i * 16);
        let other = in_place(or(or(blank, symbol), or(dot, paren))) ^ 0xFFFF << (i * 16);
        c.other |= other;
        c.symbol |= in_place(symbol);
        c.inner |= in_place(inner);
        c.digit |= in_place(digit);
        c.dot |= in_place(dot);
        c.paren |= in_place(paren);
        if other != 0 {
            c.other |= !below(i * 16 + 16);
            break;
        }
    }
    c
}

/// The byte classes of `block`, a byte at a time, as [`classify`] gives them (other processors,
/// and the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_bytes(block: &[u8; BLOCK]) -> Classes {
    let mut c = Classes::default();
    for (i, &b) in block.iter().enumerate() {
        let set = |mask: &mut u64, is: bool| *mask |= u64::from(is) << i;
        let inner = b"_+#=:-".contains(&b);
        let symbol = b.is_ascii_alphanumeric() || b == b'@' || inner;
        let (dot, paren) = (b == b'.', matches!(b, b'(' | b')'));
        set(&mut c.other, !(is_blank(b) || symbol || dot || paren));
        set(&mut c.symbol, symbol);
        set(&mut c.inner, inner);
        set(&mut c.digit, b.is_ascii_digit());
        set(&mut c.dot, dot);
        set(&mut c.paren, paren);
    }
    // Past the sixteen bytes that hold the first byte of no class, every byte is of none.
    let kept = below((c.other.trailing_zeros() as usize / 16 + 1) * 16);
    for mask in [&mut c.symbol, &mut c.inner, &mut c.digit, &mut c.dot, &mut c.paren] {
        *mask &= kept;
    }
    c.other |= !kept;
    c
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn classify(block: &[u8; BLOCK]) -> Classes {
    classify_bytes(block)
}

/// The classes of the bytes of a block that tag pairs need, one bit per byte.
#[derive(Debug, Default, PartialEq, Eq)]
struct TagClasses {
    /// Letters, digits and `_`: the bytes of a tag name.
    name: u64,
    /// Letters and digits: the bytes a tag name starts with.
    name_start: u64,
    quote: u64,
    /// `\` and control characters (line breaks, tabs), which no plainly written value holds.
    unsafe_in_value: u64,
    /// ASCII whitespace, which the lexer skips.
    blank: u64,
}

/// The tag-pair classes of `block`, sixteen bytes at a time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify_tags(block: &[u8; BLOCK]) -> TagClasses {
    use sse2::{eq, mask, or, within};
    let mut c = TagClasses::default();
    for i in 0..BLOCK / 16 {
        let v = sse2::load(block, i);
        let name_start = or(within(v, b'0', b'9'), within(sse2::or_byte(v, 0x20), b'a', b'z'));
        let in_place = |m| mask(m) << (i * 16);
        c.name |= in_place(or(name_start, eq(v, b'_')));
        c.name_start |= in_place(name_start);
        c.quote |= in_place(eq(v, b'"'));
        let control = or(within(v, 0x00, 0x1F), eq(v, 0x7F));
        c.unsafe_in_value |= in_place(or(eq(v, b'\\'), control));
        c.blank |= in_place(sse2::blank(v));
    }
    c
}

/// The tag-pair classes of `block`, a byte at a time, as [`classify_tags`] gives them (other
/// processors, and the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_tag_bytes(block: &[u8; BLOCK]) -> TagClasses {
    let mut c = TagClasses::default();
    for (i, &b) in block.iter().enumerate() {
        let set = |mask: &mut u64, is: bool| *mask |= u64::from(is) << i;
        set(&mut c.name, b.is_ascii_alphanumeric() || b == b'_');
        set(&mut c.name_start, b.is_ascii_alphanumeric());
        set(&mut c.quote, b == b'"');
        set(&mut c.unsafe_in_value, b == b'\\' || b.is_ascii_control());
        set(&mut c.blank, is_blank(b));
    }
    c
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn classify_tags(block: &[u8; BLOCK]) -> TagClasses {
    classify_tag_bytes(block)
}

/// ASCII whitespace as the lexer skips it: space, tab, line feed, vertical tab, form feed,
/// carriage return.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | 0x09..=0x0D)
}

/// The SSE2 operations of the classifiers, on sixteen bytes at a time (every x86-64 processor
/// has SSE2).
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    use super::BLOCK;

    // SAFETY (every `unsafe` below): the operations need SSE2, which every x86-64 processor
    // has.

    /// Bytes `16 * i` to `16 * i + 15` of `block`.
    #[inline(always)]
    pub fn load(block: &[u8; BLOCK], i: usize) -> __m128i {
        assert!(i < BLOCK / 16);
        // SAFETY: the sixteen bytes read lie inside `block`.
        unsafe { _mm_loadu_si128(block.as_ptr().add(i * 16).cast()) }
    }

    #[inline(always)]
    fn splat(b: u8) -> __m128i {
        unsafe { _mm_set1_epi8(b as i8) }
    }

    /// The bytes equal to `b`.
    #[inline(always)]
    pub fn eq(v: __m128i, b: u8) -> __m128i {
        unsafe { _mm_cmpeq_epi8(v, splat(b)) }
    }

    /// The bytes from `lo` to `hi`: moved so that `lo` is the lowest signed byte, then compared.
    #[inline(always)]
    pub fn within(v: __m128i, lo: u8, hi: u8) -> __m128i {
        let moved = unsafe { _mm_add_epi8(v, splat(0x80u8.wrapping_sub(lo))) };
        unsafe { _mm_cmplt_epi8(moved, splat(0x80u8.wrapping_add(hi - lo + 1))) }
    }

    /// The bytes of ASCII whitespace, as `is_blank` tells them.
    #[inline(always)]
    pub fn blank(v: __m128i) -> __m128i {
        or(eq(v, b' '), within(v, 0x09, 0x0D))
    }

    #[inline(always)]
    pub fn or(a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_or_si128(a, b) }
    }

    /// `v` with the bits of `b` set in every byte.
    #[inline(always)]
    pub fn or_byte(v: __m128i, b: u8) -> __m128i {
        unsafe { _mm_or_si128(v, splat(b)) }
    }

    /// `b` without the bytes of `a`.
    #[inline(always)]
    pub fn and_not(a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_andnot_si128(a, b) }
    }

    /// One bit per byte: bit `k` for byte `k`.
    #[inline(always)]
    pub fn mask(m: __m128i) -> u64 {
        unsafe { u64::from(_mm_movemask_epi8(m) as u16) }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Blocks of mostly movetext bytes, so that the bytes of no class come anywhere.
        #[test]
        fn classes_match_the_bytes(picks in proptest::collection::vec((0usize..40, any::<u8>()), BLOCK)) {
            const COMMON: &[u8] = b" \n\r\t.()eNxO-01+#=@_:Zz9`";
            let block: [u8; BLOCK] = std::array::from_fn(|i| match picks[i] {
                (k, _) if k < COMMON.len() => COMMON[k],
                (_, b) => b,
            });
            prop_assert_eq!(classify(&block), classify_bytes(&block));
            prop_assert_eq!(classify_tags(&block), classify_tag_bytes(&block));
        }
    }

    #[test]
    fn every_byte_value_is_classified_as_its_byte_says() {
        for byte in 0..=255u8 {
            for at in [0, 17, 63] {
                let mut block = [b'e'; BLOCK];
                block[at] = byte;
                assert_eq!(classify(&block), classify_bytes(&block), "{byte:#x} at {at}");
                assert_eq!(classify_tags(&block), classify_tag_bytes(&block), "{byte:#x} at {at}");
            }
        }
    }

    /// The tag pairs a fill takes, as text, and where it leaves off.
    fn tags_filled(text: &str) -> (Vec<&str>, usize) {
        let bytes = format!("{text:<BLOCK$}");
        let mut queue = Queue::default();
        let resume = queue.fill_tags(bytes.as_bytes(), 0);
        let pairs = std::iter::from_fn(|| queue.pop()).map(|t| &text[t.range]).collect();
        (pairs, resume)
    }

    #[test]
    fn tag_pairs_a_block_shows_whole() {
        let text = "[Event \"Open\"]\n[Site_2 \"\"]\r\n[Round \"1.2\"]  1. e4";
        assert_eq!(
            tags_filled(text),
            (vec!["[Event \"Open\"]", "[Site_2 \"\"]", "[Round \"1.2\"]"], 43)
        );
        // A pair that ends with the block.
        let whole = format!("[Event \"{}\"]", "x".repeat(BLOCK - 10));
        assert_eq!(tags_filled(&whole), (vec![whole.as_str()], BLOCK));
        // A pair that runs past the block, or that is not written plainly, is left to logos.
        let long = "[Event \"Open\"] [Annotator \"a value too long for the rest of the block\"]";
        assert_eq!(tags_filled(long), (vec!["[Event \"Open\"]"], 15));
        for text in [
            "[Event  \"x\"]",
            "[_x \"v\"]",
            "[Ev \"a\\\"b\"]",
            "[Ev \"x\" ]",
            "[Ev \"x\n\"]",
            "[Ev\"x\"]",
        ] {
            assert_eq!(tags_filled(text), (vec![], 0), "{text}");
        }
    }
}
