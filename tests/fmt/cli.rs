//! The `pgn-lsp fmt` command, run as a process.
