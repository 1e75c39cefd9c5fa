//! The worker threads of `check` and `fmt` (`--jobs`): the rayon pool their work runs in.

use std::num::NonZeroUsize;
use std::process::ExitCode;

use super::EXIT_ERROR;

/// The `--jobs` option of `check` and `fmt`.
#[derive(clap::Args)]
pub struct Workers {
    /// Worker threads (default: one per core; 1 works on a single core).
    #[arg(short, long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
}

impl Workers {
    /// Run `work` in a pool of `--jobs` worker threads (default: one per core, or as
    /// `RAYON_NUM_THREADS` says).
    pub fn run(&self, work: impl FnOnce() -> ExitCode + Send) -> ExitCode {
        let threads = self.jobs.map_or(0, NonZeroUsize::get);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads);
        // One worker: this thread, rather than a thread started to do the work while this one
        // waits (and a second malloc arena to fault in). rayon then leaks the pool's registry,
        // once per process. With more workers, the calling thread as one of them was slower: it
        // does not steal work while it waits.
        let pool = if threads == 1 { pool.use_current_thread() } else { pool };
        match pool.build() {
            Ok(pool) => pool.install(work),
            Err(e) => {
                eprintln!("pgn-lsp: cannot start {threads} worker threads: {e}");
                ExitCode::from(EXIT_ERROR)
            }
        }
    }
}
