//! Commands embedded in comments, as chess servers and GUIs write them: `[%clk 0:01:02]`,
//! `[%eval 0.35]`, `[%emt 0:00:05]`, `[%csl Ga4]` (the PGN Specification Supplement's
//! `[%name args]` form; the 1994 standard leaves the text of a comment free, §8.2.5), and
//! what the clock and evaluation ones mean, in words.

use crate::text::TextRange;

/// One `[%name args]` in a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command<'a> {
    /// From `[` to `]`, relative to the text searched.
    pub range: TextRange,
    pub name: &'a str,
    /// What follows the name, trimmed.
    pub args: &'a str,
}

/// The commands in `comment` (the text of a comment), in order.
pub fn commands(comment: &str) -> impl Iterator<Item = Command<'_>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let open = at + comment[at..].find("[%")?;
            let body_start = open + 2;
            let Some(close) = comment[body_start..].find(']').map(|i| body_start + i) else {
                at = comment.len();
                return None;
            };
            at = close + 1;
            let body = &comment[body_start..close];
            let name_len =
                body.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
            if name_len == 0 || body[..name_len].contains('[') {
                continue;
            }
            return Some(Command {
                range: TextRange::from(open..close + 1),
                name: &body[..name_len],
                args: body[name_len..].trim(),
            });
        }
    })
}

/// A readable form of a command's value: the clock left (`[%clk 0:01:02]` → "1:02 left"), the
/// time a move took (`[%emt 0:00:05]` → "0:05 spent"), an evaluation from White's side
/// (`[%eval 0.35]` → "+0.35", `[%eval #-3]` → "mate in 3 for Black"). `None` for other commands
/// and for values that do not read.
pub fn readable(command: &Command<'_>) -> Option<String> {
    match command.name {
        "clk" => Some(format!("{} left", duration(command.args)?)),
        "emt" => Some(format!("{} spent", duration(command.args)?)),
        "eval" => evaluation(command.args),
        _ => None,
    }
}

/// `H:MM:SS` (with optional tenths) without the hours when they are zero: `0:01:02` → `1:02`,
/// `1:30:00` → `1:30:00`.
fn duration(args: &str) -> Option<String> {
    let value = args.split_whitespace().next()?;
    let parts: Vec<&str> = value.split(':').collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !(2..=3).contains(&parts.len()) || !parts.iter().all(|p| number(p)) {
        return None;
    }
    let (hours, minutes, seconds) = match parts[..] {
        [h, m, s] => (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?, s),
        [m, s] => (0, m.parse::<u32>().ok()?, s),
        _ => return None,
    };
    let whole_seconds = seconds.split('.').next()?.parse::<u32>().ok()?;
    if minutes >= 60 && hours > 0 || whole_seconds >= 60 {
        return None;
    }
    Some(if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds}")
    } else {
        format!("{minutes}:{seconds}")
    })
}

/// `0.35` → `+0.35`, `-1.2` → `-1.20`, `#-3` → `mate in 3 for Black`, `#0` → `mated`; a
/// depth after a comma (`0.35,18`) is named.
fn evaluation(args: &str) -> Option<String> {
    let value = args.split_whitespace().next()?;
    let (score, depth) = match value.split_once(',') {
        Some((score, depth)) => (score, Some(depth.parse::<u32>().ok()?)),
        None => (value, None),
    };
    let mut out = if let Some(mate) = score.strip_prefix('#') {
        let moves: i32 = mate.strip_prefix('+').unwrap_or(mate).parse().ok()?;
        match moves {
            0 => "checkmate".to_owned(),
            n if n > 0 => format!("mate in {n} for White"),
            n => format!("mate in {} for Black", n.unsigned_abs()),
        }
    } else {
        let pawns: f64 = score.parse().ok()?;
        if !pawns.is_finite() {
            return None;
        }
        if pawns == 0.0 { "0.00".to_owned() } else { format!("{pawns:+.2}") }
    };
    if let Some(depth) = depth {
        out.push_str(&format!(" (depth {depth})"));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(comment: &str) -> Vec<(&str, &str, Option<String>)> {
        commands(comment).map(|c| (&comment[c.range], c.name, readable(&c))).collect()
    }

    #[test]
    fn commands_are_found_with_their_ranges() {
        assert_eq!(
            read("{ [%clk 0:01:02] good [%eval #-3] [%csl Ga4,Rb5] }"),
            [
                ("[%clk 0:01:02]", "clk", Some("1:02 left".to_owned())),
                ("[%eval #-3]", "eval", Some("mate in 3 for Black".to_owned())),
                ("[%csl Ga4,Rb5]", "csl", None),
            ]
        );
        assert_eq!(read("{ [% x] [%clk 0:01:02 }"), []);
        assert_eq!(read("[%emt 0:00:05.2]")[0].2.as_deref(), Some("0:05.2 spent"));
    }

    #[test]
    fn clocks_and_evaluations_read_as_words() {
        let clk = |args| readable(&Command { range: TextRange::empty(0), name: "clk", args });
        let eval = |args| readable(&Command { range: TextRange::empty(0), name: "eval", args });
        assert_eq!(clk("1:30:00").as_deref(), Some("1:30:00 left"));
        assert_eq!(clk("0:10:00").as_deref(), Some("10:00 left"));
        assert_eq!(clk("12:05").as_deref(), Some("12:05 left"));
        assert_eq!(clk("soon"), None);
        assert_eq!(clk("0:01:75"), None);
        assert_eq!(eval("0.35").as_deref(), Some("+0.35"));
        assert_eq!(eval("-1.2").as_deref(), Some("-1.20"));
        assert_eq!(eval("0.00").as_deref(), Some("0.00"));
        assert_eq!(eval("#3").as_deref(), Some("mate in 3 for White"));
        assert_eq!(eval("#0").as_deref(), Some("checkmate"));
        assert_eq!(eval("0.35,18").as_deref(), Some("+0.35 (depth 18)"));
        assert_eq!(eval("NaN"), None);
        assert_eq!(eval("high"), None);
    }
}
