//! Files the client asks the server to read from disk, for the documents an editor cannot send:
//! VS Code gives extensions no document over 50 MB (its limit for synchronising a model with
//! them), so its extension sends `pgn/openFile` for a PGN file that large while a tab shows it,
//! again when the file changes on disk, and `pgn/closeFile` once no tab shows it. The server
//! publishes the file's diagnostics as for any document, without a version; the client never
//! edits it through the protocol, and a `didOpen` of the same URI makes it the client's.
//!
//! Both notifications: `{ textDocument: { uri } }`, a `file:` URI.

use serde::Deserialize;
use tower_lsp::lsp_types::{TextDocumentIdentifier, Url};

use crate::text::{UTF8_BOM, Utf16};

/// Read the file, and read it again after it changed on disk.
pub const OPEN_METHOD: &str = "pgn/openFile";
/// Forget the file (unless the client opened it meanwhile).
pub const CLOSE_METHOD: &str = "pgn/closeFile";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileParams {
    pub text_document: TextDocumentIdentifier,
}

/// The text of the file `uri` names, as VS Code shows it by default, so that positions agree:
/// without a leading byte order mark, UTF-16 when the mark is UTF-16's, and bytes that are not
/// UTF-8 (units that are not UTF-16) as U+FFFD.
/// A file over 4 GiB is not read: a document's offsets are `u32`s (`text::TextRange`); nor is
/// anything but a regular file: a named pipe or a device would block the server or never end.
pub fn read(uri: &Url) -> Result<String, String> {
    let path = uri.to_file_path().map_err(|()| format!("{uri} does not name a local file"))?;
    let cannot_read = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let metadata = std::fs::metadata(&path).map_err(cannot_read)?;
    if !metadata.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    let len = metadata.len();
    if len > u64::from(u32::MAX) {
        return Err(format!(
            "{} is {len} bytes: the language server reads files up to 4 GiB; `pgn-lsp check` \
             reads longer ones",
            path.display()
        ));
    }
    let mut bytes = std::fs::read(&path).map_err(cannot_read)?;
    if let Some(order) = Utf16::from_bom(&bytes) {
        let mut text = String::new();
        order.decode(&bytes[2..], true, &mut text);
        return Ok(text);
    }
    if bytes.starts_with(UTF8_BOM) {
        bytes.drain(..UTF8_BOM.len());
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_are_replaced_one_character_each() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latin1.pgn");
        std::fs::write(&path, b"[White \"M\xfcller\"]\n\n1. e4 *\n").unwrap();
        let text = read(&Url::from_file_path(&path).unwrap()).unwrap();
        assert_eq!(text, "[White \"M\u{fffd}ller\"]\n\n1. e4 *\n");
    }

    #[test]
    fn a_byte_order_mark_is_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom.pgn");
        std::fs::write(&path, "\u{feff}[Event \"é\"]\n\n1. e4 *\n").unwrap();
        let text = read(&Url::from_file_path(&path).unwrap()).unwrap();
        assert_eq!(text, "[Event \"é\"]\n\n1. e4 *\n");
    }

    #[test]
    fn a_byte_order_mark_is_left_out_before_bytes_that_are_not_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom-latin1.pgn");
        std::fs::write(&path, b"\xEF\xBB\xBF[White \"M\xfcller\"]\n\n1. e4 *\n").unwrap();
        let text = read(&Url::from_file_path(&path).unwrap()).unwrap();
        assert_eq!(text, "[White \"M\u{fffd}ller\"]\n\n1. e4 *\n");
    }

    #[test]
    fn utf16_is_read_by_its_byte_order_mark() {
        let dir = tempfile::tempdir().unwrap();
        let text = "[Event \"é ♘ 𝄞\"]\n\n1. e4 *\n";
        for order in [Utf16::LittleEndian, Utf16::BigEndian] {
            let path = dir.path().join("utf16.pgn");
            std::fs::write(&path, order.encode(&format!("\u{feff}{text}"))).unwrap();
            assert_eq!(read(&Url::from_file_path(&path).unwrap()).unwrap(), text, "{order:?}");
            // A second surrogate alone, and a last byte without its pair.
            let mut bytes = order.encode("\u{feff}1. e4");
            bytes.extend_from_slice(&[0xDC, 0xDC, b'*']);
            std::fs::write(&path, bytes).unwrap();
            let read = read(&Url::from_file_path(&path).unwrap()).unwrap();
            assert_eq!(read, "1. e4\u{fffd}\u{fffd}", "{order:?}");
        }
    }

    #[test]
    fn a_file_over_4_gib_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.pgn");
        // A sparse file: no block of it is written.
        std::fs::File::create(&path).unwrap().set_len(u64::from(u32::MAX) + 1).unwrap();
        let error = read(&Url::from_file_path(&path).unwrap()).unwrap_err();
        assert!(error.ends_with("huge.pgn is 4294967296 bytes: the language server reads files up to 4 GiB; `pgn-lsp check` reads longer ones"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn only_a_regular_file_is_read() {
        let folder = tempfile::tempdir().unwrap();
        let error = read(&Url::from_file_path(folder.path()).unwrap()).unwrap_err();
        assert!(error.ends_with("is not a regular file"), "{error}");
        let device = read(&Url::from_file_path("/dev/zero").unwrap()).unwrap_err();
        assert_eq!(device, "/dev/zero is not a regular file");
        let fifo = folder.path().join("fifo.pgn");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success(), "mkfifo");
        let error = read(&Url::from_file_path(&fifo).unwrap()).unwrap_err();
        assert!(error.ends_with("fifo.pgn is not a regular file"), "{error}");
    }

    #[test]
    fn what_cannot_be_read_is_an_error() {
        let missing = Url::from_file_path("/nonexistent/missing.pgn").unwrap();
        assert!(read(&missing).unwrap_err().starts_with("cannot read /nonexistent/missing.pgn"));
        let remote = Url::parse("https://example.com/game.pgn").unwrap();
        assert_eq!(
            read(&remote).unwrap_err(),
            "https://example.com/game.pgn does not name a local file"
        );
    }
}
