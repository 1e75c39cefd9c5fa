//! Cursor markers in fixture files: each `<|>` marks a cursor.

pub const CURSOR: &str = "<|>";

/// The text without its cursor markers, and the byte offset of each cursor in it.
pub fn cursors(marked: &str) -> (String, Vec<u32>) {
    let mut text = String::new();
    let mut offsets = Vec::new();
    for (i, piece) in marked.split(CURSOR).enumerate() {
        if i > 0 {
            offsets.push(text.len() as u32);
        }
        text.push_str(piece);
    }
    (text, offsets)
}

/// The 1-based line of `offset` in `text`.
pub fn line_of(text: &str, offset: u32) -> usize {
    text[..offset as usize].matches('\n').count() + 1
}
