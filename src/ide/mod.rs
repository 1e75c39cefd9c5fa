//! Editor features as plain data over a document snapshot (no LSP types): the per-document
//! analysis kept up to date edit by edit, diagnostics, hover, formatting edits, completion and
//! code actions.

mod analysis;
mod board;
mod code_actions;
mod completion;
mod formatting;
pub mod guard;
mod hover;
mod nags;
mod sort_games;
mod sort_tags;
mod tags;

pub use analysis::{DocumentAnalysis, GameAnalysis, SelectedDiagnostics, SelectedGame};
pub use code_actions::{ActionKind, CodeAction, code_actions};
pub use completion::{Completion, CompletionKind, Date, completions};
pub use formatting::{Cancelled, format_edits};
pub use hover::{Hover, hover};
