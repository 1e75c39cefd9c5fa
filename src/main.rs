/// mimalloc: a game is many small, short-lived allocations, made on several threads at once.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    pgn_lsp::cli::main()
}
