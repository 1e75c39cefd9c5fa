//! Diagnostics for GitHub Actions: one workflow command per line,
//! `::error file=F,line=L,col=C,endLine=L,endColumn=C,title=CODE::MESSAGE`, which the runner
//! turns into an annotation on the line of the file in the pull request. Errors and warnings
//! keep their level; information and hints are notices. Lines and columns are 1-based, columns
//! counted in characters. Values are escaped as the runner reads them back (`%`, carriage
//! return and line feed everywhere, and `:` and `,` in the properties).

use std::io::Write;

use super::game_text::GameText;
use crate::syntax::{Diagnostic, Severity};

/// Append `diagnostic` (game-relative ranges) of the game `text` to `out` as one workflow command.
pub fn render(out: &mut Vec<u8>, text: &GameText<'_>, diagnostic: &Diagnostic) {
    let level = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information | Severity::Hint => "notice",
    };
    // The runner finds the file by its path from the repository's root: `./games/a.pgn`, as a
    // walk of `.` names it, is `games/a.pgn`.
    let file = text.file.strip_prefix("./").unwrap_or(text.file);
    let start = text.position(diagnostic.range.start);
    let end = text.position(diagnostic.range.end);
    // Writing into memory cannot fail.
    let _ = writeln!(
        out,
        "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        escape(file, true),
        start.line,
        start.column,
        end.line,
        end.column,
        diagnostic.code.as_str(),
        escape(&diagnostic.message, false),
    );
}

/// `value` as a workflow command holds it: a property's value, or the message after `::`.
fn escape(value: &str, property: bool) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '%' => escaped.push_str("%25"),
            '\r' => escaped.push_str("%0D"),
            '\n' => escaped.push_str("%0A"),
            ':' if property => escaped.push_str("%3A"),
            ',' if property => escaped.push_str("%2C"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn values_are_escaped_as_the_runner_reads_them() {
        assert_eq!(escape("50% of a,b: c\r\nd", false), "50%25 of a,b: c%0D%0Ad");
        assert_eq!(escape("C:\\games, 2024.pgn", true), "C%3A\\games%2C 2024.pgn");
    }
}
