//! Writing a file's new text, for `fmt` and `check --fix`: in place and atomically, or to
//! standard output, in the encoding the file was read in.
//!
//! A file is rewritten through a temporary file in the same directory, which takes the old
//! file's permissions and is then renamed over it (a symbolic link is followed, so the link
//! stays a link). Nothing is written until the new text first differs from the old, so a file
//! that does not change is never touched. The text streams in piece by piece.
//!
//! Encodings: a file read as UTF-8 is written as UTF-8 (a byte order mark is kept); a file that
//! is not UTF-8 was read wholly as Latin-1 (§4.1), one character per byte after a UTF-8 byte
//! order mark, and is written back as Latin-1 after the same mark, so every byte that is not
//! changed stays as it was; a file read as UTF-16 is written in UTF-16 of the same byte order,
//! its mark kept, unless it held a unit that is no character (read as U+FFFD): writing it would
//! lose that unit, so it is refused.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use tempfile::NamedTempFile;

use super::input::{Encoding, Source};
use crate::text::UTF8_BOM;

/// Why writing stopped.
pub enum Failure {
    /// Standard output was closed (`pgn-lsp fmt - | head`): stop quietly.
    BrokenPipe,
    Message(String),
}

impl Failure {
    pub fn io(context: &str, error: io::Error) -> Failure {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Message(format!("{context}: {error}"))
        }
    }
}

/// The longest text `fmt` and `check --fix` rewrite: their games' offsets are `u32`s, as in the
/// language server's documents (`text::TextRange`). `check` reads longer files.
pub const MAX_REWRITE_BYTES: usize = u32::MAX as usize;

/// Refuse the text of `name`, `len` bytes once decoded, if it is longer than
/// [`MAX_REWRITE_BYTES`]: its offsets would not fit. `what` is what cannot be done to it.
pub fn refuse_too_long(name: &str, len: usize, what: &str) -> Result<(), Failure> {
    if len <= MAX_REWRITE_BYTES {
        return Ok(());
    }
    Err(Failure::Message(format!(
        "{name}: {len} bytes: files over 4 GiB cannot be {what} (`pgn-lsp check` reads them)"
    )))
}

/// Refuse to write `source` again, as `what` (`formatted`, `fixed`), if its text lost bytes
/// of the file: if it was read as UTF-16 with a unit that is no character.
pub fn refuse_lossy(source: &Source<'_>, what: &str) -> Result<(), Failure> {
    let Encoding::Utf16 { order, first_invalid: Some(_) } = source.encoding else { return Ok(()) };
    Err(Failure::Message(format!(
        "{}: the file is UTF-16 ({}, as its byte order mark says) but not valid UTF-16: it cannot \
         be {what} without losing what is not (`pgn-lsp check` shows where)",
        source.name,
        order.byte_order()
    )))
}

/// Rewriting a file in place: the new text streams into a temporary file from the first
/// difference on, and the temporary file then replaces the file.
pub struct Rewrite<'a> {
    file: &'a str,
    encoding: Encoding,
    comparison: Comparison<'a>,
    temp: Option<(NamedTempFile, BufWriter<File>)>,
}

impl<'a> Rewrite<'a> {
    /// A rewrite of `file`, whose text as read is `original`, decoded from `encoding`.
    pub fn new(file: &'a str, original: &'a str, encoding: Encoding) -> Self {
        Rewrite { file, encoding, comparison: Comparison::new(original), temp: None }
    }

    fn error(&self, e: io::Error) -> Failure {
        Failure::io(self.file, e)
    }

    /// The next piece of the new text.
    pub fn take(&mut self, text: &str) -> Result<(), Failure> {
        if let Some((_, out)) = &mut self.temp {
            return out
                .write_all(&encode(text, self.encoding))
                .map_err(|e| Failure::io(self.file, e));
        }
        let same_so_far = self.comparison.matched;
        if !self.comparison.feed(text) {
            let (temp, mut out) = open_temp(self.file).map_err(|e| self.error(e))?;
            out.write_all(&encode(&self.comparison.original[..same_so_far], self.encoding))
                .and_then(|()| out.write_all(&encode(text, self.encoding)))
                .map_err(|e| self.error(e))?;
            self.temp = Some((temp, out));
        }
        Ok(())
    }

    /// Replace the file if its text changed; returns whether it did.
    pub fn finish(self) -> Result<bool, Failure> {
        if !self.comparison.changed() {
            return Ok(false);
        }
        let error = |e: io::Error| Failure::io(self.file, e);
        let (temp, out) = match self.temp {
            Some(open) => open,
            // The new text is a shorter prefix of the old (blank lines at the end were dropped).
            None => {
                let (temp, mut out) = open_temp(self.file).map_err(error)?;
                let kept = &self.comparison.original[..self.comparison.matched];
                out.write_all(&encode(kept, self.encoding)).map_err(error)?;
                (temp, out)
            }
        };
        let written = out.into_inner().map_err(|e| error(e.into_error()))?;
        written.sync_all().map_err(error)?;
        let target = std::fs::canonicalize(self.file).map_err(error)?;
        let permissions = std::fs::metadata(&target).map_err(error)?.permissions();
        written.set_permissions(permissions).map_err(error)?;
        temp.persist(&target).map_err(|e| error(e.error))?;
        Ok(true)
    }
}

/// A temporary file next to `file` (next to its target when it is a link).
fn open_temp(file: &str) -> io::Result<(NamedTempFile, BufWriter<File>)> {
    let target = std::fs::canonicalize(file)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let temp = tempfile::Builder::new().prefix(".pgn-lsp-").tempfile_in(dir)?;
    let out = BufWriter::new(temp.as_file().try_clone()?);
    Ok((temp, out))
}

/// The bytes of `text` in `encoding`, the encoding its source was read in: UTF-8, UTF-16, or
/// Latin-1 with U+FEFF as the UTF-8 byte order mark it was read from. In Latin-1 every
/// character then fits: the new text's characters are the old text's (one per byte, and the
/// mark) or ASCII, or others of Latin-1 (`check --fix` takes no fix that writes a character
/// beyond it).
pub fn encode(text: &str, encoding: Encoding) -> Cow<'_, [u8]> {
    match encoding {
        Encoding::Utf16 { order, .. } => Cow::Owned(order.encode(text)),
        Encoding::Latin1 { .. } if !text.is_ascii() => {
            let mut bytes = Vec::with_capacity(text.len());
            for c in text.chars() {
                match u8::try_from(c) {
                    Ok(byte) => bytes.push(byte),
                    Err(_) if c == '\u{FEFF}' => bytes.extend_from_slice(UTF8_BOM),
                    Err(_) => unreachable!("a Latin-1 source has only Latin-1 characters"),
                }
            }
            Cow::Owned(bytes)
        }
        Encoding::Utf8 | Encoding::Latin1 { .. } => Cow::Borrowed(text.as_bytes()),
    }
}

/// Whether the pieces fed so far are the start of the original text.
pub struct Comparison<'a> {
    original: &'a str,
    /// Bytes of the original matched so far.
    matched: usize,
    differs: bool,
}

impl<'a> Comparison<'a> {
    pub fn new(original: &'a str) -> Self {
        Comparison { original, matched: 0, differs: false }
    }

    /// Take the next piece of output; returns whether the output still matches.
    pub fn feed(&mut self, piece: &str) -> bool {
        if !self.differs && self.original[self.matched..].starts_with(piece) {
            self.matched += piece.len();
        } else {
            self.differs = true;
        }
        !self.differs
    }

    pub fn changed(&self) -> bool {
        self.differs || self.matched != self.original.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_over_4_gib_are_refused() {
        assert!(refuse_too_long("a.pgn", MAX_REWRITE_BYTES, "formatted").is_ok());
        let Err(Failure::Message(message)) =
            refuse_too_long("a.pgn", MAX_REWRITE_BYTES + 1, "formatted")
        else {
            panic!("a text of 4 GiB is refused");
        };
        assert_eq!(
            message,
            "a.pgn: 4294967296 bytes: files over 4 GiB cannot be formatted (`pgn-lsp check` reads them)"
        );
    }
}
