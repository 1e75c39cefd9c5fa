//! Syntax: the lossless lexer (logos, and plain movetext a block at a time), the error-tolerant
//! per-game parser, game trees, the incremental reparse and the diagnostics model. Knows nothing
//! of chess rules, LSP or IO.

mod block_lexer;
pub mod diagnostic;
mod diagnostic_filter;
mod entity;
mod first_tags;
mod incremental;
mod lexer;
mod line_lengths;
mod parser;
mod tree;

pub use diagnostic::{Code, Diagnostic, Fix, Related, Severity, excerpt, unsettles_next_game};
pub use diagnostic_filter::{CodeSet, DiagnosticFilter};
pub use incremental::{Edit, GameOffsets, GameStarts, Splice, TextSource, parse_game_at, reparse};
pub use lexer::{Lexer, Token, TokenKind, is_tag_line, lex};
pub use parser::{parse_game, parse_games};
pub use tree::{
    Game, Node, NodeKind, STANDARD_RESULTS, Tag, TagSectionNote, escape_string, glyph_nag,
    standard_marker, standard_result, suffix_nag, unescape_string,
};
