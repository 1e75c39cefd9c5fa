//! Conversions between the document's byte offsets and LSP positions, with columns in the
//! negotiated encoding (DESIGN §6.6), and from `ide` data to `lsp_types`. Lines end at `\n`,
//! `\r\n` or `\r`, as the protocol says; the rope counts lines the same way.

use ropey::Rope;
use serde::Serialize;
use serde_json::json;
use tower_lsp::lsp_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    PositionEncodingKind, Url,
};

use crate::syntax::{Diagnostic, Severity};
use crate::text::{PositionEncoding, TextEdit, TextRange, line_break_of_chunks, with_line_break};

/// The encoding to use: the first of the client's that we support, else UTF-16, the
/// protocol's default.
pub fn negotiate_encoding(offered: Option<&[PositionEncodingKind]>) -> PositionEncoding {
    offered
        .unwrap_or_default()
        .iter()
        .find_map(|kind| match kind.as_str() {
            "utf-8" => Some(PositionEncoding::Utf8),
            "utf-16" => Some(PositionEncoding::Utf16),
            "utf-32" => Some(PositionEncoding::Utf32),
            _ => None,
        })
        .unwrap_or(PositionEncoding::Utf16)
}

pub fn encoding_kind(encoding: PositionEncoding) -> PositionEncodingKind {
    match encoding {
        PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
        PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        PositionEncoding::Utf32 => PositionEncodingKind::UTF32,
    }
}

/// Positions in one document, in one encoding.
#[derive(Clone, Copy)]
pub struct Positions<'a> {
    pub rope: &'a Rope,
    pub encoding: PositionEncoding,
    /// The document's line break: `\r\n` when its first line ends with one, else `\n`.
    line_break: &'static str,
}

impl<'a> Positions<'a> {
    pub fn new(rope: &'a Rope, encoding: PositionEncoding) -> Self {
        Positions { rope, encoding, line_break: line_break_of_chunks(rope.chunks()) }
    }

    /// The document's line break, which the lines an edit adds end with.
    pub fn line_break(&self) -> &'static str {
        self.line_break
    }

    /// The byte offset of `pos`. A column past the end of its line clamps to the line's end
    /// (before its line break), a column inside a character to that character's start, and a
    /// line past the end to the end of the document.
    pub fn offset(&self, pos: lsp::Position) -> usize {
        let rope = self.rope;
        let line = pos.line as usize;
        if line >= rope.len_lines() {
            return rope.len_bytes();
        }
        let line_start = rope.line_to_char(line);
        let line_end = line_start + line_len_chars(rope.line(line));
        let col = pos.character as usize;
        let char_idx = match self.encoding {
            PositionEncoding::Utf8 => {
                let byte = (rope.char_to_byte(line_start) + col).min(rope.char_to_byte(line_end));
                rope.byte_to_char(byte)
            }
            PositionEncoding::Utf16 => {
                let unit = rope.char_to_utf16_cu(line_start) + col;
                rope.utf16_cu_to_char(unit.min(rope.char_to_utf16_cu(line_end)))
            }
            PositionEncoding::Utf32 => (line_start + col).min(line_end),
        };
        rope.char_to_byte(char_idx)
    }

    /// The position of a byte offset (clamped to the document, to a char boundary, and to
    /// before a `\r\n` whose `\n` it is at: no position is between the two).
    pub fn position(&self, offset: usize) -> lsp::Position {
        let rope = self.rope;
        let offset = offset.min(rope.len_bytes());
        let offset = if self.splits_line_break(offset) { offset - 1 } else { offset };
        let char_idx = rope.byte_to_char(offset);
        let line = rope.char_to_line(char_idx);
        let line_start = rope.line_to_char(line);
        let col = match self.encoding {
            PositionEncoding::Utf8 => rope.char_to_byte(char_idx) - rope.char_to_byte(line_start),
            PositionEncoding::Utf16 => {
                rope.char_to_utf16_cu(char_idx) - rope.char_to_utf16_cu(line_start)
            }
            PositionEncoding::Utf32 => char_idx - line_start,
        };
        lsp::Position::new(line as u32, col as u32)
    }

    pub fn range(&self, range: TextRange) -> lsp::Range {
        lsp::Range::new(self.position(range.start as usize), self.position(range.end as usize))
    }

    /// The byte range of an LSP range (its ends in order).
    pub fn text_range(&self, range: lsp::Range) -> TextRange {
        let start = self.offset(range.start);
        let end = self.offset(range.end).max(start);
        TextRange::from(start..end)
    }

    /// An edit as an LSP one. The lines it adds end as the document's first line does (`\r\n`
    /// or `\n`, as `pgn-lsp fmt` and `check --fix` write them). An end of the edit between the
    /// `\r` and the `\n` of a line break, where no position can point (a line's length leaves
    /// its break out, LSP 3.17 `Position`), is moved to take the whole break in, and the part
    /// of the break it took in goes into the new text: a minimal edit can end right after a
    /// `\r` where the new text has a `\n` alone.
    pub fn text_edit(&self, edit: &TextEdit) -> lsp::TextEdit {
        let (start, end) = (edit.range.start as usize, edit.range.end as usize);
        let (cr, lf) = (self.splits_line_break(start), self.splits_line_break(end));
        let after_cr = start > 0 && self.rope.byte(start - 1) == b'\r';
        let body = with_line_break(&edit.new_text, self.line_break, after_cr);
        let new_text = match (cr, lf) {
            (false, false) => body.into_owned(),
            _ => [cr.then_some("\r"), Some(&*body), lf.then_some("\n")]
                .into_iter()
                .flatten()
                .collect(),
        };
        let range = lsp::Range::new(
            self.position(start - usize::from(cr)),
            self.position(end + usize::from(lf)),
        );
        lsp::TextEdit::new(range, new_text)
    }

    /// Whether `offset` is between the `\r` and the `\n` of a line break.
    fn splits_line_break(&self, offset: usize) -> bool {
        let rope = self.rope;
        offset > 0
            && offset < rope.len_bytes()
            && rope.byte(offset - 1) == b'\r'
            && rope.byte(offset) == b'\n'
    }

    /// An `ide` diagnostic as an LSP one: code, severity, related locations (in the same
    /// document), and its fixes as `data` for code actions.
    pub fn diagnostic(&self, uri: &Url, d: &Diagnostic) -> lsp::Diagnostic {
        self.convert(uri, d).to_lsp()
    }

    /// An `ide` diagnostic converted, with its fixes kept apart until it is sent.
    pub fn convert(&self, uri: &Url, d: &Diagnostic) -> ConvertedDiagnostic {
        let related = d
            .related
            .iter()
            .map(|r| DiagnosticRelatedInformation {
                location: Location::new(uri.clone(), self.range(r.range)),
                message: r.message.clone(),
            })
            .collect::<Vec<_>>();
        let fixes = d
            .fixes
            .iter()
            .map(|f| FixData {
                title: f.title.clone(),
                edits: f.edits.iter().map(|e| self.text_edit(e)).collect(),
            })
            .collect();
        let diagnostic = lsp::Diagnostic {
            range: self.range(d.range),
            severity: Some(severity(d.severity)),
            code: Some(NumberOrString::String(d.code.as_str().to_owned())),
            source: Some("pgn-lsp".to_owned()),
            message: d.message.clone(),
            related_information: (!related.is_empty()).then_some(related),
            ..lsp::Diagnostic::default()
        };
        ConvertedDiagnostic { diagnostic, fixes }
    }
}

/// A fix as a diagnostic's `data` carries it.
#[derive(Clone, Debug, Serialize)]
pub struct FixData {
    pub title: String,
    pub edits: Vec<lsp::TextEdit>,
}

/// An LSP diagnostic (without `data`) and its fixes, which go into `data` when it is sent.
#[derive(Clone, Debug)]
pub struct ConvertedDiagnostic {
    pub diagnostic: lsp::Diagnostic,
    pub fixes: Vec<FixData>,
}

impl ConvertedDiagnostic {
    pub fn to_lsp(&self) -> lsp::Diagnostic {
        let mut diagnostic = self.diagnostic.clone();
        if !self.fixes.is_empty() {
            diagnostic.data = Some(json!({ "fixes": self.fixes }));
        }
        diagnostic
    }

    /// Move every position down by `delta` lines (up when negative).
    pub fn shift_lines(&mut self, delta: i64) {
        let shift = |range: &mut lsp::Range| {
            for pos in [&mut range.start, &mut range.end] {
                pos.line = (pos.line as i64 + delta) as u32;
            }
        };
        shift(&mut self.diagnostic.range);
        for related in self.diagnostic.related_information.iter_mut().flatten() {
            shift(&mut related.location.range);
        }
        for edit in self.fixes.iter_mut().flat_map(|f| &mut f.edits) {
            shift(&mut edit.range);
        }
    }
}

/// The number of chars of a line without its line break.
fn line_len_chars(line: ropey::RopeSlice<'_>) -> usize {
    let mut len = line.len_chars();
    if len > 0 && line.char(len - 1) == '\n' {
        len -= 1;
    }
    if len > 0 && line.char(len - 1) == '\r' {
        len -= 1;
    }
    len
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Information => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{LineCol, LineIndex};

    const ENCODINGS: [PositionEncoding; 3] =
        [PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32];

    #[test]
    fn negotiation_takes_the_first_supported_encoding() {
        let kinds = |names: &[&'static str]| -> Vec<PositionEncodingKind> {
            names.iter().map(|n| PositionEncodingKind::new(n)).collect()
        };
        assert_eq!(negotiate_encoding(None), PositionEncoding::Utf16);
        assert_eq!(negotiate_encoding(Some(&kinds(&["utf-8", "utf-16"]))), PositionEncoding::Utf8);
        assert_eq!(
            negotiate_encoding(Some(&kinds(&["latin-1", "utf-32"]))),
            PositionEncoding::Utf32
        );
        assert_eq!(negotiate_encoding(Some(&kinds(&["latin-1"]))), PositionEncoding::Utf16);
    }

    #[test]
    fn columns_count_in_the_negotiated_unit() {
        let text = "{é♘𝄞} e4\r\n[Event \"♘\"]\n";
        let rope = Rope::from_str(text);
        let e4 = text.find("e4").unwrap();
        for (encoding, col) in ENCODINGS.into_iter().zip([1 + 2 + 3 + 4 + 2, 7, 6]) {
            let p = Positions::new(&rope, encoding);
            assert_eq!(p.position(e4), lsp::Position::new(0, col), "{encoding:?}");
            assert_eq!(p.offset(lsp::Position::new(0, col)), e4);
        }
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let text = "a\u{1D11E}b\r\ncd\rx";
        let rope = Rope::from_str(text);
        let p = Positions::new(&rope, PositionEncoding::Utf16);
        // Past the end of line 0 clamps before "\r\n"; inside the surrogate pair to its start.
        assert_eq!(p.offset(lsp::Position::new(0, 99)), text.find('\r').unwrap());
        assert_eq!(p.offset(lsp::Position::new(0, 2)), 1);
        // A lone \r ends a line too.
        assert_eq!(p.offset(lsp::Position::new(2, 0)), text.find('x').unwrap());
        assert_eq!(p.offset(lsp::Position::new(9, 0)), text.len());
        assert_eq!(p.position(text.len() + 10), lsp::Position::new(2, 1));
        // An offset inside a char maps to the char's start.
        assert_eq!(p.position(2), lsp::Position::new(0, 1));
    }

    #[test]
    fn edits_ending_between_cr_and_lf_take_the_whole_line_break_in() {
        // The formatter writes LF: its smallest edit of `1. e4 e5\r\n` ends after the `\r`.
        let text = "1. e4 e5\r\n*\r\n";
        let rope = Rope::from_str(text);
        let lf = text.find('\n').unwrap();
        let edits = [(0..lf, "1. e4 e5\n"), (lf..lf, "x"), (lf..text.len(), "\n"), (3..5, "d4")];
        for encoding in ENCODINGS {
            let p = Positions::new(&rope, encoding);
            assert_eq!(p.position(lf), lsp::Position::new(0, 8), "{encoding:?}");
            for (range, new_text) in edits.clone() {
                let edit = TextEdit::new(TextRange::from(range), new_text);
                let converted = p.text_edit(&edit);
                // Read back as the protocol reads positions (a column clamps to its line's end),
                // each end is where it says, and the edit makes the same text.
                let [start, end] = [converted.range.start, converted.range.end].map(|at| {
                    let offset = p.offset(at);
                    assert_eq!(p.position(offset), at, "{encoding:?} {edit:?}");
                    offset
                });
                let mut applied = text.to_owned();
                applied.replace_range(start..end, &converted.new_text);
                // The new lines take the document's CRLF.
                let after_cr = text[..edit.range.start as usize].ends_with('\r');
                let crlf = with_line_break(&edit.new_text, "\r\n", after_cr);
                let edit = TextEdit::new(edit.range, crlf);
                assert_eq!(applied, TextEdit::apply_all(text, &[edit]), "{encoding:?}");
            }
        }
    }

    #[test]
    fn positions_agree_with_the_line_index_on_lf_text() {
        let text = "[Event \"é\"]\n\n1. e4 {♘ 𝄞} e5\n2. Nf3 *\n";
        let rope = Rope::from_str(text);
        let index = LineIndex::new(text);
        for encoding in ENCODINGS {
            let p = Positions::new(&rope, encoding);
            for (offset, _) in text.char_indices() {
                let LineCol { line, col } = index.line_col(text, offset as u32, encoding);
                assert_eq!(p.position(offset), lsp::Position::new(line, col));
                assert_eq!(p.offset(lsp::Position::new(line, col)), offset);
            }
        }
    }
}
