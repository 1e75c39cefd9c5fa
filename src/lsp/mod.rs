//! The tower-lsp server: document store (ropey), protocol conversions, settings, diagnostics
//! publishing, and the workarounds for tower-lsp 0.20 that DESIGN §6 lists. Logs go to stderr
//! (level from `PGN_LSP_LOG`, default `warn`), never to stdout.

mod board;
mod convert;
mod disk_files;
mod documents;
mod editing;
mod formatting;
mod framing;
mod json_string;
mod message;
mod outline;
mod project_config;
mod publisher;
mod server;
mod settings;
mod transport;

use std::process::ExitCode;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp::LspService;

use crate::ide::guard;
pub use documents::{Documents, Snapshot};
pub use outline::FULL_SEMANTIC_TOKENS_MAX_BYTES;
use server::Server;
pub use transport::ShutdownFlag;

/// The exit code after a panic that no boundary caught.
const EXIT_PANIC: i32 = 101;

/// Serve the language server protocol on stdin/stdout until `exit` (or the end of stdin).
pub fn run_stdio() -> ExitCode {
    init_logging();
    install_panic_hook();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let shutdown = ShutdownFlag::default();
    runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout(), shutdown.clone()));
    // The client closed stdin; a blocked read of stdin must not keep the process alive.
    runtime.shutdown_background();
    ExitCode::from(shutdown.exit_code() as u8)
}

/// Serve the protocol on `input`/`output` until `input` ends (or `exit` ends the process), on
/// the server's own transport (`transport`).
pub async fn serve(
    input: impl AsyncRead + Unpin,
    output: impl AsyncWrite + Unpin,
    shutdown: ShutdownFlag,
) {
    let (notifier, notifications) = transport::notifier();
    let (service, socket) = LspService::build(|client| Server::new(client, notifier))
        .custom_method(board::METHOD, Server::position)
        .custom_method(disk_files::OPEN_METHOD, Server::open_file)
        .custom_method(disk_files::CLOSE_METHOD, Server::close_file)
        .finish();
    transport::serve((service, socket, notifications), input, output, shutdown).await;
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("PGN_LSP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
}

/// The last resort (DESIGN §6.4): a panic outside every panic boundary would leave the server
/// hanging (tokio waits for the thread blocked on stdin), so it ends the process instead.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        tracing::error!("{info}");
        if !guard::is_active() && rayon::current_thread_index().is_none() {
            std::process::exit(EXIT_PANIC);
        }
    }));
}
