//! The tower-lsp server: document store (ropey), protocol conversions, settings.

use std::process::ExitCode;

/// Serve the language server protocol on stdin/stdout until `exit`.
pub fn run_stdio() -> ExitCode {
    ExitCode::SUCCESS
}
