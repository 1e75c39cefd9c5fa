//! Conversion between byte offsets and (line, column) positions, with columns counted in the
//! unit a client asks for. Lines end at `\n`, `\r\n` or a lone `\r`, as in the language server
//! protocol.

use super::TextRange;

/// The unit in which columns are counted (LSP `positionEncoding`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PositionEncoding {
    Utf8,
    #[default]
    Utf16,
    Utf32,
}

impl PositionEncoding {
    fn width(self, c: char) -> u32 {
        match self {
            PositionEncoding::Utf8 => c.len_utf8() as u32,
            PositionEncoding::Utf16 => c.len_utf16() as u32,
            PositionEncoding::Utf32 => 1,
        }
    }

    /// The length of `text` in this encoding's units.
    pub fn units(self, text: &str) -> u32 {
        match self {
            PositionEncoding::Utf8 => text.len() as u32,
            _ if text.is_ascii() => text.len() as u32,
            _ => text.chars().map(|c| self.width(c)).sum(),
        }
    }
}

/// A zero-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// The number of line breaks in `text`: `\n`, `\r\n` and a lone `\r` each count once (a `\r`
/// at the end counts, so a text that ends with one must not be followed by a `\n`).
pub fn line_break_count(text: &str) -> u32 {
    line_break_ends(text).count() as u32
}

/// The offset after each line break of `text`.
fn line_break_ends(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'\n', b'\r', bytes).filter_map(|i| {
        let crlf = bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n');
        (!crlf).then_some(i + 1)
    })
}

/// Start offsets of every line of a text.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(line_break_ends(text).map(|end| end as u32));
        LineIndex { line_starts, len: text.len() as u32 }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte offset where `line` starts (the text's end for lines past the end).
    pub fn line_start(&self, line: u32) -> u32 {
        self.line_starts.get(line as usize).copied().unwrap_or(self.len)
    }

    /// The line holding `offset`, and the column in `encoding` units.
    pub fn line_col(&self, text: &str, offset: u32, encoding: PositionEncoding) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let col = encoding.units(&text[start..end]);
        LineCol { line: line as u32, col }
    }

    /// The byte offset of a (line, column) position; positions past a line's end clamp to the
    /// end of that line (before its line break), lines past the end clamp to the text's end.
    pub fn offset(&self, text: &str, pos: LineCol, encoding: PositionEncoding) -> u32 {
        if pos.line as usize >= self.line_starts.len() {
            return self.len;
        }
        let start = self.line_starts[pos.line as usize] as usize;
        let line_end = self
            .line_starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |&next| next as usize - 1);
        let line = text[start..line_end].strip_suffix('\r').unwrap_or(&text[start..line_end]);
        let mut col = 0;
        for (i, c) in line.char_indices() {
            if col >= pos.col {
                return (start + i) as u32;
            }
            col += encoding.width(c);
        }
        (start + line.len()) as u32
    }

    pub fn range_line_cols(
        &self,
        text: &str,
        range: TextRange,
        encoding: PositionEncoding,
    ) -> (LineCol, LineCol) {
        (self.line_col(text, range.start, encoding), self.line_col(text, range.end, encoding))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_carriage_returns_end_lines() {
        let text = "e4\re5\r\nNf3";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 3);
        let nf3 = text.find("Nf3").unwrap() as u32;
        assert_eq!(idx.line_col(text, nf3, PositionEncoding::Utf8), LineCol { line: 2, col: 0 });
        let e5 = idx.offset(text, LineCol { line: 1, col: 9 }, PositionEncoding::Utf8);
        assert_eq!(&text[e5 as usize..e5 as usize + 2], "\r\n");
    }

    #[test]
    fn columns_in_each_encoding() {
        let text = "{é♘𝄞} e4\r\nNf3";
        let idx = LineIndex::new(text);
        let e4 = text.find("e4").unwrap() as u32;
        let cols: Vec<u32> =
            [PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32]
                .iter()
                .map(|&enc| idx.line_col(text, e4, enc).col)
                .collect();
        assert_eq!(cols, vec![1 + 2 + 3 + 4 + 2, 1 + 1 + 1 + 2 + 2, 1 + 1 + 1 + 1 + 2]);
        for enc in [PositionEncoding::Utf8, PositionEncoding::Utf16, PositionEncoding::Utf32] {
            let lc = idx.line_col(text, e4, enc);
            assert_eq!(idx.offset(text, lc, enc), e4);
        }
        let nf3 = text.find("Nf3").unwrap() as u32;
        assert_eq!(idx.line_col(text, nf3, PositionEncoding::Utf16), LineCol { line: 1, col: 0 });
        // Past the end of line 0 clamps before "\r\n".
        let clamp = idx.offset(text, LineCol { line: 0, col: 99 }, PositionEncoding::Utf16);
        assert_eq!(&text[clamp as usize..clamp as usize + 2], "\r\n");
        assert_eq!(
            idx.offset(text, LineCol { line: 9, col: 0 }, PositionEncoding::Utf16),
            text.len() as u32
        );
    }
}
