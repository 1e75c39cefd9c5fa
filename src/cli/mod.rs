//! The command line: `pgn-lsp check` and `pgn-lsp fmt`; with no command, the language server.

use std::process::ExitCode;

/// The program's entry point.
pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}
