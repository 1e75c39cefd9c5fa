//! Move annotations in export form: suffix annotations become their NAG (§8.2.3.8) and NAGs
//! are written without leading zeros (§8.2.4).

/// The NAG number of a suffix annotation: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
pub fn suffix_nag(suffix: &str) -> Option<u8> {
    Some(match suffix {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// The digits of a NAG token (`$007`) without leading zeros (`7`; `$0` stays `0`).
pub fn nag_digits(token: &str) -> &str {
    let digits = token.strip_prefix('$').unwrap_or(token);
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() && !digits.is_empty() { "0" } else { trimmed }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_map_to_the_standard_nags() {
        let all: Vec<_> = ["!", "?", "!!", "??", "!?", "?!"].map(suffix_nag).into();
        assert_eq!(all, [1, 2, 3, 4, 5, 6].map(Some));
        assert_eq!(suffix_nag("!!!"), None);
    }

    #[test]
    fn nag_digits_drop_leading_zeros() {
        assert_eq!(nag_digits("$007"), "7");
        assert_eq!(nag_digits("$0"), "0");
        assert_eq!(nag_digits("$00"), "0");
        assert_eq!(nag_digits("$140"), "140");
    }
}
