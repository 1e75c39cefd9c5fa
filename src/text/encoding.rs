//! Byte order marks: which encoding a file's first bytes announce.

/// The UTF-8 encoding of U+FEFF, the byte order mark: the first bytes of a UTF-8 file that has
/// one.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
