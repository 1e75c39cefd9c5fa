//! Diagnostics for programs: one JSON object per line,
//! `{"file","code","severity","message","line","column","end_line","end_column"}`, with 1-based
//! lines and 1-based columns counted in characters.

use serde::Serialize;

use super::game_text::GameText;
use crate::syntax::Diagnostic;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
}

/// Append `diagnostic` (game-relative ranges) of the game `text` to `out` as one JSON line.
pub fn render(out: &mut Vec<u8>, text: &GameText<'_>, diagnostic: &Diagnostic) {
    let start = text.position(diagnostic.range.start);
    let end = text.position(diagnostic.range.end);
    let record = JsonDiagnostic {
        file: text.file,
        code: diagnostic.code.as_str(),
        severity: diagnostic.severity.as_str(),
        message: &diagnostic.message,
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
    };
    // Serialising plain strings and integers into memory cannot fail.
    serde_json::to_writer(&mut *out, &record).expect("a diagnostic serialises to JSON");
    out.push(b'\n');
}
