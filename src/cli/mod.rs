//! The command line: `pgn-lsp check` and `pgn-lsp fmt`; with no command (or `--stdio`, which
//! VS Code's client appends), the language server.

mod batches;
mod check;
mod encoding_report;
pub mod fix;
mod fmt;
mod game_report;
mod game_text;
mod github;
mod human;
pub mod input;
mod json;
pub mod line_breaks;
mod paths;
mod progress;
mod rewrite;
mod stream;
mod tally;
mod workers;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "pgn-lsp",
    version,
    about = "Language server, formatter and checker for chess PGN files"
)]
struct Cli {
    /// Serve the language server protocol on stdin/stdout (the default without a command).
    #[arg(long)]
    stdio: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Report illegal moves, wrong move numbers, result mismatches and other problems.
    Check(check::CheckArgs),
    /// Rewrite PGN in the standard's export format.
    #[command(after_help = fmt::EXIT_STATUS)]
    Fmt(fmt::FmtArgs),
}

/// Exit status when `check` found an error (or a warning, with `--deny-warnings`), or
/// `fmt --check` a file that would change.
pub const EXIT_FAILURE: u8 = 1;
/// Exit status when a command could not do all it was asked: a usage error (clap exits with 2
/// too), a file that cannot be read or written, or, for `fmt`, a game it cannot format.
pub const EXIT_ERROR: u8 = 2;

/// The program's entry point.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => crate::lsp::run_stdio(),
        Some(Command::Check(args)) => check::run(args),
        Some(Command::Fmt(args)) => fmt::run(args),
    }
}
