//! pgn-lsp: language server, formatter and checker for chess PGN files.
//!
//! Code map, in layers (a module uses only those listed before it; DESIGN §2):
//! - [`text`]: byte ranges, line/column conversion (UTF-8/16/32), edits, minimal diffs, UTF-16.
//! - [`syntax`]: lossless lexer and error-tolerant parser; one tree per game; incremental
//!   reparse; the diagnostics registry. Invariant: the tokens of all games concatenate to the
//!   input, byte for byte.
//! - [`chess`]: replay of every game and variation with shakmaty; rule, move-number, result and
//!   tag-value diagnostics; positions at a move. Invariant: one bad move gives one diagnostic.
//! - [`fmt`]: the export-format printer. Invariant: idempotent, loses nothing, leaves games with
//!   structural errors byte for byte.
//! - [`ide`]: editor features as plain data over a snapshot (no LSP types).
//! - [`config`]: `pgn-lsp.toml`, the formatting settings of a folder, for `fmt` and the server.
//! - [`lsp`]: the tower-lsp server.
//! - [`cli`]: `check` and `fmt` commands, and the entry point.

pub mod chess;
pub mod cli;
pub mod config;
pub mod fmt;
pub mod ide;
pub mod lsp;
pub mod syntax;
pub mod text;
