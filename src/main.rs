fn main() -> std::process::ExitCode {
    pgn_lsp::cli::main()
}
