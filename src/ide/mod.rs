//! Editor features as plain data over a document snapshot (no LSP types): the per-document
//! analysis kept up to date edit by edit, diagnostics, hover, formatting edits, completion, code
//! actions, the outline features (symbols, folding, semantic tokens, inlay hints, selection
//! ranges) and the live board.

mod analysis;
mod board;
mod board_svg;
mod code_actions;
mod commands;
mod completion;
mod folding;
mod formatting;
mod game_list;
pub mod guard;
mod hover;
mod inlay_hints;
mod moves;
mod nags;
mod position;
mod selection;
mod semantic_tokens;
mod sort_games;
mod sort_tags;
mod symbols;
mod tags;
mod walk;

pub use analysis::{DocumentAnalysis, GameAnalysis, SelectedDiagnostics, SelectedGame};
pub use code_actions::{ActionKind, CodeAction, code_actions};
pub use completion::{Completion, CompletionKind, Date, completions};
pub use folding::{Fold, FoldKind, folding_ranges};
pub use formatting::{Cancelled, Formatting, WINDOW_BYTES, for_each_format_edit, format_edits};
pub use hover::{Hover, hover};
pub use inlay_hints::{InlayHint, inlay_hints};
pub use position::{BoardPosition, ShownMove, Status, board_position};
pub use selection::selection_ranges;
pub use semantic_tokens::{SemanticToken, TokenModifiers, TokenType, semantic_tokens};
pub use symbols::{FoundGame, Symbol, SymbolRole, document_symbols, workspace_symbols};
