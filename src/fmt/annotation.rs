//! Move annotations in export form: suffix annotations become their NAG (§8.2.3.8, mapped by
//! [`crate::syntax::suffix_nag`]) and NAGs are written without leading zeros (§8.2.4).

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
    fn nag_digits_drop_leading_zeros() {
        assert_eq!(nag_digits("$007"), "7");
        assert_eq!(nag_digits("$0"), "0");
        assert_eq!(nag_digits("$00"), "0");
        assert_eq!(nag_digits("$140"), "140");
    }
}
