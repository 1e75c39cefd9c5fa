//! The lexer's fast path: the plain movetext tokens of 64 bytes at a time (moves, move numbers,
//! `1-0` and `0-1`, parentheses), found together from bit masks of the bytes' classes.
//!
//! A token-at-a-time lexer finds each token's end from the bytes where the token before it
//! ended: one chain of dependent loads and a mispredicted loop exit a token, which held logos
//! to about 600 MB/s on TWIC files. Here every token start of a block is a bit of one mask
//! (a symbol byte after a byte that is none, a parenthesis), and each token's end a count of
//! set bits from its start, so the tokens of a block do not wait for one another.
//!
//! Only tokens whose kind and end the masks settle are taken (see [`Queue::fill`]); at the
//! first byte that is no blank, symbol byte, period or parenthesis (a comment, a tag, a NAG, a
//! non-ASCII character...) or the first token that could be something else (`e.p.`, a glyph
//! such as `+-`, periods on their own) the block stops, and the logos lexer reads on from there.
//! Which tokens come out is therefore exactly what logos gives for the same bytes (a property
//! test compares the two on random text).

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
    ///   prefers by priority), anything else a symbol;
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
        let mut found = 0;
        let resume = loop {
            if starts == 0 {
                break at + limit;
            }
            let s = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            let (kind, end) = if c.paren >> s & 1 == 0 {
                // Past the block when the run reaches its end: then `end >= limit`.
                let end = s + (!c.symbol >> s).trailing_zeros() as usize;
                if end >= limit {
                    break at + s;
                }
                if c.dot >> end & 1 != 0 {
                    let run = below(end) & !below(s);
                    let dots_end = end + (!c.dot >> end).trailing_zeros() as usize;
                    if c.digit & run != run || dots_end >= BLOCK {
                        break at + s;
                    }
                    (TokenKind::MoveNumber, dots_end)
                } else if c.digit >> s & 1 != 0 && matches!(&block[s..end], b"1-0" | b"0-1") {
                    (TokenKind::Result, end)
                } else {
                    (TokenKind::Symbol, end)
                }
            } else {
                (if block[s] == b'(' { TokenKind::LParen } else { TokenKind::RParen }, s + 1)
            };
            // At most one token a byte: `found` stays below `BLOCK`.
            self.kinds[found % BLOCK] = kind;
            self.ranges[found % BLOCK] = (at + s) as u64 | ((at + end) as u64) << 32;
            found += 1;
        };
        self.next = 0;
        self.len = found;
        resume
    }
}

/// The bits below bit `n` (all of them for 64).
#[inline(always)]
fn below(n: usize) -> u64 {
    if n >= 64 { !0 } else { (1 << n) - 1 }
}

/// The byte classes of `block`, sixteen bytes at a time (SSE2, which every x86-64 processor
/// has), up to the end of the first sixteen bytes that hold a byte of no class: the block
/// stops there anyway, and the bytes after it are left without a class (as if of none), which
/// spares the work where comments come often, as after every move of an engine game.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify(block: &[u8; BLOCK]) -> Classes {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64; the loads read 16 bytes each inside `block`.
    unsafe {
        let splat = |b: u8| _mm_set1_epi8(b as i8);
        // Bytes from `lo` to `hi`: moved so that `lo` is the lowest signed byte, then compared.
        let within = |v: __m128i, lo: u8, hi: u8| {
            let moved = _mm_add_epi8(v, splat(0x80u8.wrapping_sub(lo)));
            _mm_cmplt_epi8(moved, splat(0x80u8.wrapping_add(hi - lo + 1)))
        };
        let mut c = Classes::default();
        for i in 0..BLOCK / 16 {
            let v = _mm_loadu_si128(block.as_ptr().add(i * 16).cast());
            let eq = |b: u8| _mm_cmpeq_epi8(v, splat(b));
            let or = |a, b| _mm_or_si128(a, b);
            let blank = or(eq(b' '), within(v, 0x09, 0x0D));
            let digit = within(v, b'0', b'9');
            // Letters and `@`, which `| 0x20` moves to `a`..`z` and `` ` `` (itself no letter).
            let letter = _mm_andnot_si128(eq(b'`'), within(or(v, splat(0x20)), b'`', b'z'));
            let inner =
                or(or(eq(b':'), eq(b'_')), or(or(eq(b'+'), eq(b'#')), or(eq(b'='), eq(b'-'))));
            let symbol = or(or(letter, digit), inner);
            let dot = eq(b'.');
            let paren = within(v, b'(', b')');
            let other = _mm_andnot_si128(or(or(blank, symbol), or(dot, paren)), splat(0xFF));
            let mask = |m: __m128i| u64::from(_mm_movemask_epi8(m) as u16) << (i * 16);
            let other = mask(other);
            c.other |= other;
            c.symbol |= mask(symbol);
            c.inner |= mask(inner);
            c.digit |= mask(digit);
            c.dot |= mask(dot);
            c.paren |= mask(paren);
            if other != 0 {
                c.other |= !below(i * 16 + 16);
                break;
            }
        }
        c
    }
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
        let blank = matches!(b, b' ' | 0x09..=0x0D);
        set(&mut c.other, !(blank || symbol || dot || paren));
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
        }
    }

    #[test]
    fn every_byte_value_is_classified_as_its_byte_says() {
        for byte in 0..=255u8 {
            for at in [0, 17, 63] {
                let mut block = [b'e'; BLOCK];
                block[at] = byte;
                assert_eq!(classify(&block), classify_bytes(&block), "{byte:#x} at {at}");
            }
        }
    }
}
