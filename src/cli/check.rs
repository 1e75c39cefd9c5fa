//! `pgn-lsp check`: diagnostics for the terminal or as JSON lines.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// PGN files to check; `-` reads standard input.
    #[arg(default_value = "-")]
    pub files: Vec<String>,
}

pub fn run(args: CheckArgs) -> ExitCode {
    let _ = args;
    ExitCode::SUCCESS
}
