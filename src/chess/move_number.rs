//! Move number indications as written (§8.2.2): the digits and the periods after them,
//! whether they fit the move they stand before, and those that stand before no move.

use shakmaty::Color;

/// A move number indication as written: `12.`, `12...`, `12. ...` or a bare `12`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenNumber {
    /// The digits, read as `str::parse::<u64>` reads them (`None` past `u64::MAX`).
    pub number: Option<u64>,
    /// How many bytes the digits take.
    pub digits: usize,
    /// The periods after them: 0, 1, or 2 for more than one.
    dots: usize,
}

impl WrittenNumber {
    /// Read the text of a `MoveNumber` node; `None` for one without digits (a lone `...`).
    /// Bytes, not `str`: a `str` slice checks its ends, and the replay reads every number.
    pub fn read(bytes: &[u8]) -> Option<Self> {
        let mut number = Some(0u64);
        let mut rest = bytes;
        while let [d @ b'0'..=b'9', tail @ ..] = rest {
            number = number.and_then(|n| n.checked_mul(10)?.checked_add(u64::from(d - b'0')));
            rest = tail;
        }
        let digits = bytes.len() - rest.len();
        // One period or more than one is all that matters.
        let dots = rest.iter().filter(|&&b| b == b'.').take(2).count();
        (digits > 0).then_some(WrittenNumber { number, digits, dots })
    }

    /// One period before a Black move (`12.` where `12...` belongs).
    pub fn white_dots_before(&self, turn: Color) -> bool {
        self.dots == 1 && turn == Color::Black
    }

    /// More than one period before a White move.
    pub fn black_dots_before(&self, turn: Color) -> bool {
        self.is_black() && turn == Color::White
    }

    /// Written as a Black move's number: with more than one period (`12...`).
    pub fn is_black(&self) -> bool {
        self.dots == 2
    }

    /// Whether the indication fits move `fullmove` of `turn`: the same number, and periods
    /// that fit the side (a bare number fits either).
    pub fn fits(&self, fullmove: u64, turn: Color) -> bool {
        self.number == Some(fullmove)
            && !self.white_dots_before(turn)
            && !self.black_dots_before(turn)
    }
}

/// The move number indication waiting for its move in one line of play (the main line or a
/// variation), and the ones that number no move: an indication with digits followed, before
/// any move, by the end of its line or by one with other digits (`12.03.2024` pasted among the
/// moves, `2.` before the result, `1. 2. e4`). Renumbering the moves would delete its text. The
/// same number written again (`12. { a comment } 12. Nf3`) repeats it, and a lone `...` is only
/// periods (after a number on the line before): neither leaves a number without its move.
#[derive(Clone, Copy, Debug, Default)]
pub struct PendingNumber {
    /// The node of the indication.
    node: Option<usize>,
}

impl PendingNumber {
    /// Move number node `node` (`text_of` gives the text of a node); returns the indication it
    /// leaves without a move, if any. Texts are read only when a number follows a number.
    #[inline(always)]
    pub fn number<'t>(
        &mut self,
        node: usize,
        text_of: impl Fn(usize) -> &'t [u8],
    ) -> Option<usize> {
        let left = self.node.replace(node)?;
        let (before, now) =
            (WrittenNumber::read(text_of(left)), WrittenNumber::read(text_of(node)));
        match (before, now) {
            (Some(before), Some(now)) if before.number != now.number => Some(left),
            _ => None,
        }
    }

    /// A move: the indication before it, if any.
    pub fn take(&mut self) -> Option<usize> {
        self.node.take()
    }

    /// The end of the line (its variation's end, a termination marker, the game's end): the
    /// indication left without a move, if any.
    pub fn end<'t>(&mut self, text_of: impl Fn(usize) -> &'t [u8]) -> Option<usize> {
        self.node.take().filter(|&node| WrittenNumber::read(text_of(node)).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_fit_the_move_and_side_they_stand_before() {
        // (text, fullmove, turn, fits)
        let cases = [
            ("12.", 12, Color::White, true),
            ("12...", 12, Color::Black, true),
            ("12. ...", 12, Color::Black, true),
            ("12", 12, Color::Black, true),
            ("12", 12, Color::White, true),
            ("12.", 12, Color::Black, false),
            ("12...", 12, Color::White, false),
            ("13.", 12, Color::White, false),
            ("99999999999999999999.", 12, Color::White, false),
        ];
        for (text, fullmove, turn, fits) in cases {
            let written = WrittenNumber::read(text.as_bytes()).unwrap();
            assert_eq!(written.fits(fullmove, turn), fits, "{text} before {fullmove} {turn:?}");
        }
        assert_eq!(WrittenNumber::read(b"..."), None);
        assert_eq!(WrittenNumber::read(b"99999999999999999999.").unwrap().number, None);
    }

    #[test]
    fn numbers_followed_by_numbers_or_the_end_of_their_line_number_no_move() {
        let texts: [&[u8]; 9] =
            [b"12.", b"03.", b"2024", b"5.", b"...", b"12.", b"12.", b"2.", b"..."];
        let text_of = |n: usize| texts[n];
        let mut line = PendingNumber::default();
        // `12.03.2024 e4`: `12.` and `03.` number no move, `2024` numbers e4.
        assert_eq!(line.number(0, text_of), None);
        assert_eq!(line.number(1, text_of), Some(0));
        assert_eq!(line.number(2, text_of), Some(1));
        assert_eq!(line.take(), Some(2));
        assert_eq!(line.end(text_of), None);
        // `5.` then `...` on the next line: one indication.
        assert_eq!(line.number(3, text_of), None);
        assert_eq!(line.number(4, text_of), None);
        assert_eq!(line.take(), Some(4));
        // The same number again, after a comment.
        assert_eq!(line.number(5, text_of), None);
        assert_eq!(line.number(6, text_of), None);
        assert_eq!(line.take(), Some(6));
        // `2.` before the result; a lone `...` there numbers nothing.
        assert_eq!(line.number(7, text_of), None);
        assert_eq!(line.end(text_of), Some(7));
        assert_eq!(line.number(8, text_of), None);
        assert_eq!(line.end(text_of), None);
    }
}
