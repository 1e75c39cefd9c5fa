//! Reading PGN input: UTF-8 (a BOM is kept as text, the lexer treats it as whitespace), with a
//! Latin-1 fallback for files that are not UTF-8 (spec §4.1 names ISO 8859-1).

use std::io::{self, Read};

/// A file's text and how it was decoded.
pub struct Source {
    pub name: String,
    pub text: String,
    /// The bytes were not valid UTF-8 and were read as Latin-1.
    pub latin1: bool,
}

/// Read `path`, or standard input for `-`.
pub fn read_source(path: &str) -> io::Result<Source> {
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        buf
    } else {
        std::fs::read(path)?
    };
    let name = if path == "-" { "<stdin>".to_owned() } else { path.to_owned() };
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Source { name, text, latin1: false },
        Err(e) => {
            let text = e.into_bytes().iter().map(|&b| char::from(b)).collect();
            Source { name, text, latin1: true }
        }
    })
}
