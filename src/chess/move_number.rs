//! Move number indications as written (§8.2.2): the digits and the periods after them, and
//! whether they fit the move they stand before.

use shakmaty::Color;

/// A move number indication as written: `12.`, `12...`, `12. ...` or a bare `12`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenNumber {
    /// The digits, read as `str::parse::<u32>` reads them (`None` past `u32::MAX`).
    pub number: Option<u32>,
    /// How many bytes the digits take.
    pub digits: usize,
    /// The periods after them: 0, 1, or 2 for more than one.
    dots: usize,
}

impl WrittenNumber {
    /// Read the text of a `MoveNumber` node; `None` for one without digits (a lone `...`).
    /// Bytes, not `str`: a `str` slice checks its ends, and the replay reads every number.
    pub fn read(bytes: &[u8]) -> Option<Self> {
        let mut number = Some(0u32);
        let mut rest = bytes;
        while let [d @ b'0'..=b'9', tail @ ..] = rest {
            number = number.and_then(|n| n.checked_mul(10)?.checked_add(u32::from(d - b'0')));
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
        self.dots == 2 && turn == Color::White
    }

    /// Whether the indication fits move `fullmove` of `turn`: the same number, and periods
    /// that fit the side (a bare number fits either).
    pub fn fits(&self, fullmove: u32, turn: Color) -> bool {
        self.number == Some(fullmove)
            && !self.white_dots_before(turn)
            && !self.black_dots_before(turn)
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
}
