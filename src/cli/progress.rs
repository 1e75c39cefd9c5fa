//! The progress bar of long `check` runs: on standard error, only when it is a terminal and
//! the input is large enough for the wait to be noticed.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Inputs smaller than this finish too fast to need a bar.
const MIN_BYTES: usize = 16 << 20;

/// A progress bar over the bytes of one input, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    pub fn new(name: &str, total_bytes: usize) -> Self {
        let shown = total_bytes >= MIN_BYTES && std::io::stderr().is_terminal();
        let bar = shown.then(|| {
            let style = ProgressStyle::with_template(
                "{prefix} [{wide_bar}] {binary_bytes}/{binary_total_bytes} ({eta} left)",
            )
            .expect("the template is valid")
            .progress_chars("=> ");
            ProgressBar::with_draw_target(Some(total_bytes as u64), ProgressDrawTarget::stderr())
                .with_style(style)
                .with_prefix(file_name(name).to_owned())
        });
        Progress { bar }
    }

    /// Run `f` (which writes to the terminal) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    pub fn set_done(&self, bytes: usize) {
        if let Some(bar) = &self.bar {
            bar.set_position(bytes as u64);
        }
    }
}

/// The last component of a path, to keep the bar short.
fn file_name(path: &str) -> &str {
    std::path::Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or(path)
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
